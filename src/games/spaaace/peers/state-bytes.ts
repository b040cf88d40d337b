/**
 * protocol/SPAAACE-PEERS.md §5.6: the bytes of a closing state and its hash.
 *
 * ```
 * stateBytes = u16 t ‖ player × n ‖ u8 k ‖ (u8 a ‖ u8 b ‖ u16 initiated) × k
 *            ‖ u8 i ‖ (u8 a ‖ u8 b ‖ u16 tick) × i ‖ u8 c ‖ (u8 player ‖ u16 tick ‖ u8 fame+10 ‖ u8 intact) × c
 *            ‖ u8 ended ‖ u16 winners
 * player     = u8 sector ‖ u8 armour ‖ u8 energy ‖ u8 flags ‖ u32 coins ‖ u8 fame+10 ‖ u8 absent ‖ u16 declares
 * stateHash  = H(tag("spaaace/1/state") ‖ G ‖ stateBytes)
 * ```
 */
import { Writer } from '../../../core/wire/binary.js'
import type { GameState } from '../rules/types.js'
import { stateHashOf } from './parts.js'

/** Bit `q` of a 16-bit set of roster indices (bit 0 the least significant). */
function bits(players: Iterable<number>): number {
  let v = 0
  for (const q of players) v |= 1 << q
  return v
}

/**
 * §5.6: the closing state's bytes, in roster order for the `n` players: `flags` bit 0 engaging, bit
 * 1 removed; `declares` bit `q` iff the player's declaration naming `q` stands; battles awaiting
 * bids in order of initiation; the initiations S-40 still looks back on (ticks ≥ `t −
 * max(battleCooldown, rematchTicks)`) in the order made; claims by tick then roster order; the
 * winners as bits. Terms are not in it (they are in `G`).
 */
export function stateBytes(state: GameState, n: number): Uint8Array {
  if (state.players.length !== n || state.ships.length !== n)
    throw new RangeError(`a state of ${n} players, not ${state.players.length}`)
  const w = new Writer()
  const t = state.tick
  w.u16(t)
  for (let p = 0; p < n; p++) {
    const ship = state.ships[p]
    const person = state.players[p]
    if (ship === undefined || person === undefined) throw new RangeError(`no player ${p}`)
    const declares = bits(state.declarations.filter(([a]) => a === p).map(([, q]) => q))
    w.u8(ship.sector).u8(ship.armour).u8(ship.energy)
    w.u8((ship.engaging ? 1 : 0) | (person.status === 'removed' ? 2 : 0))
    w.u32(person.coins)
      .u8(person.fame + 10)
      .u8(person.absent)
      .u16(declares)
  }
  w.u8(state.awaiting.length)
  for (const b of state.awaiting) w.u8(b.a).u8(b.b).u16(b.initiated)
  const lookBack = Math.max(state.terms.battleCooldown, state.terms.rematchTicks)
  const initiations = state.initiations.filter((x) => x.tick >= t - lookBack)
  w.u8(initiations.length)
  for (const x of initiations) w.u8(x.a).u8(x.b).u16(x.tick)
  w.u8(state.claims.length)
  for (const c of state.claims)
    w.u8(c.player)
      .u16(c.tick)
      .u8(c.fame + 10)
      .u8(c.intact ? 1 : 0)
  w.u8(state.ended ? 1 : 0).u16(bits(state.winners))
  return w.finish()
}

/** §5.6: `stateHash = H(tag("spaaace/1/state") ‖ G ‖ stateBytes)`. */
export function closingHash(game: Uint8Array, state: GameState): Uint8Array {
  return stateHashOf(game, stateBytes(state, state.players.length))
}
