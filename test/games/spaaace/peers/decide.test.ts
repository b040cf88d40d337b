/**
 * The rule that decides (protocol/SPAAACE-PEERS.md §4.1–§5.7, §9) on honest games written by the
 * script: every tick settles, its closing state is the engine's on the same orders, every closing
 * hash is signed by all, and the game ends complete.
 */
import { describe, expect, it } from 'vitest'
import { toHex } from '../../../../src/core/commit/bytes.js'
import { decide } from '../../../../src/games/spaaace/peers/decide.js'
import { rulesTerms } from '../../../../src/games/spaaace/peers/genesis.js'
import { ordersOf } from '../../../../src/games/spaaace/peers/parts.js'
import { closingHash, stateBytes } from '../../../../src/games/spaaace/peers/state-bytes.js'
import { genesis } from '../../../../src/games/spaaace/rules/state.js'
import { playTick } from '../../../../src/games/spaaace/rules/tick.js'
import type { GameState, Submission } from '../../../../src/games/spaaace/rules/types.js'
import { liveGenesis } from './fixtures.js'
import { type Orders, playHonest } from './script.js'

const terms = (n: number, maxTicks: number) => ({ terms: { ...liveGenesis(n).terms, maxTicks } })

/** The engine run directly on the same orders (the oracle). */
function direct(n: number, start: GameState, ticks: readonly (readonly Orders[])[]): GameState[] {
  const out: GameState[] = []
  let s = start
  for (const orders of ticks) {
    const subs = orders.map((o, q): Submission => {
      if (o === null) return { kind: 'missing' }
      if (typeof o !== 'string') return { kind: 'withheld' }
      const p = ordersOf(o, n, q)
      return p.ok ? { kind: 'orders', orders: p.orders } : { kind: 'malformed', reason: p.reason }
    })
    s = playTick(s, subs).state
    out.push(s)
  }
  return out
}

const HONEST_5: Orders[][] = [
  ['buy 2', 'move 1; attack p1', '-', 'repair 1', 'ally p4'],
  ['bid 5', 'bid 3', 'move 4', null, 'break p4'],
  ['-', '-', { withhold: 'buy 1' }, '-', 'claim'],
]

describe('§5.6 stateBytes', () => {
  it('lays out the genesis state of 5 players: u16 t, 11 bytes a player, counts 0, ended 0, winners 0', () => {
    const s = genesis(5)
    const b = stateBytes(s, 5)
    expect(b.length).toBe(2 + 5 * 12 + 1 + 1 + 1 + 1 + 2)
    // p1: sector 1, armour 10, energy 20, flags 0, coins 10, fame 0 (+10), absent 0, declares 0.
    expect(toHex(b.subarray(2, 14))).toBe('010a1400' + '0000000a' + '0a00' + '0000')
  })
})

describe('§5.6 stateBytes of a state with a battle, an initiation and declarations', () => {
  it('flags bit 0 engaging, declares bit q per declaration, battles and initiations as (a, b, u16 tick), counts before each list', () => {
    const orders = ['-', 'move 1; attack p1', '-', 'ally p5', 'ally p4']
    const s = playTick(
      genesis(5),
      orders.map((o, q) => {
        const p = ordersOf(o, 5, q)
        if (!p.ok) throw new Error(p.reason)
        return { kind: 'orders' as const, orders: p.orders }
      }),
    ).state
    const hex = toHex(stateBytes(s, 5))
    const player = (k: number) => hex.slice(4 + 24 * k, 4 + 24 * (k + 1))
    expect(hex.slice(0, 4)).toBe('0001')
    // p1: sector 1, armour 10, energy 20 (+2 capped), engaging; coins 11, fame 0, absent 0, no declaration.
    expect(player(0)).toBe('010a1401' + '0000000b' + '0a00' + '0000')
    // p2 moved to 1: energy 20 (the +2 capped at 20), less 1 for the step: 19; engaging.
    expect(player(1)).toBe('010a1301' + '0000000b' + '0a00' + '0000')
    expect(player(3).slice(-4)).toBe('0010') // p4 declares p5 (bit 4)
    expect(player(4).slice(-4)).toBe('0008') // p5 declares p4 (bit 3)
    const rest = hex.slice(4 + 24 * 5)
    expect(rest).toBe('01' + '0100' + '0001' + '01' + '0100' + '0001' + '00' + '00' + '0000')
  })
})

describe('§5.1–§5.6 an honest game (vector honest-5)', () => {
  const n = 5
  const game = playHonest(n, HONEST_5, terms(n, 3))
  const d = decide(game.genesis, game.reads())

  it('every tick is canonical, signed by all five, and is the engine run directly on the same orders (§5.6 rule 1, S-70)', () => {
    const want = direct(n, genesis(n, rulesTerms(game.genesis.genesis)), HONEST_5)
    expect(d.ticks.map((t) => t.status)).toEqual(['canonical', 'canonical', 'canonical'])
    d.ticks.forEach((t, k) => {
      expect(t.outcome?.state).toEqual(want[k])
      expect(t.canonical?.signers).toEqual([0, 1, 2, 3, 4])
      expect(toHex(t.canonical?.hash ?? new Uint8Array())).toBe(toHex(closingHash(game.game, want[k] as GameState)))
    })
  })

  it('counts withheld and missing as §5.3 rules 4 and 5 say', () => {
    expect(d.ticks[1]?.submissions?.[3]).toEqual({ kind: 'missing' })
    expect(d.ticks[2]?.submissions?.[2]).toEqual({ kind: 'withheld' })
    expect(d.ticks[2]?.committed[2]).toBe(true)
    expect(d.ticks[2]?.revealed[2]).toBe(false)
  })

  it('ends complete at maxTicks with no offence, gap or seed missing but the five (§5.7 end 3)', () => {
    expect(d.end.kind).toBe('complete')
    expect(d.offences).toEqual([])
    expect(d.gaps).toEqual([])
    expect(d.notEvidence).toEqual([])
    expect(d.accepts).toEqual([true, true, true, true, true])
  })

  it('is independent of the order envelopes are given in', () => {
    const reversed = decide(game.genesis, game.reads().reverse())
    expect(reversed.end).toEqual(d.end)
    expect(reversed.ticks.map((t) => toHex(t.stateHash ?? new Uint8Array()))).toEqual(
      d.ticks.map((t) => toHex(t.stateHash ?? new Uint8Array())),
    )
  })
})
