/**
 * Resolving one turn (2.6.1 §2.2, §4, §5, §7, §8; C-18..C-26; classic §4..§6 with damage at the
 * end of the turn). Pure: takes both players' states and checked records, returns the new states
 * and everything each player reveals.
 */
import type { Cell } from './coords.js'
import type { CheckedRecord } from './legality.js'
import type { Ruleset } from './ruleset.js'
import type { ShipType } from './ships.js'
import { type PlayerState, isShipDestroyed, isUnfiredMissile, sameShipNeighbours } from './state.js'

export type StrikeOutcome = 'miss' | 'hit' | 'duplicate-hit'
export type ScanOutcome = 'empty' | 'ship' | 'ship-destroyed'

/** A visible aspect (§5) and, where it has one, its visible result. */
export type Exchange =
  | { readonly kind: 'beam-strike'; readonly target: Cell; readonly beam: number; readonly result: StrikeOutcome; readonly explosions: readonly Cell[] }
  | { readonly kind: 'strike'; readonly target: Cell; readonly result: StrikeOutcome; readonly explosions: readonly Cell[] }
  | { readonly kind: 'scan'; readonly target: Cell; readonly result: ScanOutcome }
  /** §5.4: no visible result. */
  | { readonly kind: 'kamikaze-death'; readonly cell: Cell }

/** A player's report of one of its own ships destroyed this turn (§2.2.4, C-23). */
export interface DestructionReport {
  readonly ship: number
  readonly type: ShipType
  /** Written identity: undefined when the player has one ship of the type (C-05). */
  readonly id: number | undefined
  readonly name: string
  readonly cells: readonly Cell[]
}

/** Flashcube data for one cell (§7.2, C-24), as of the end of the turn. */
export type FlashcubeEntry =
  | { readonly cell: Cell; readonly kind: 'empty' }
  | { readonly cell: Cell; readonly kind: 'ship'; readonly destroyed: boolean; readonly type: ShipType; readonly id: number | undefined; readonly name: string }

export interface PlayerTurn {
  /** This player's actions' visible aspects with the opponent's results, in C-19 order. */
  readonly exchanges: readonly Exchange[]
  /** This player's beam weapons (ship indices) that burn out (C-21). */
  readonly burnouts: readonly number[]
  /** This player's own ships destroyed this turn. */
  readonly destructions: readonly DestructionReport[]
  /** This player's flashcube data, one list per opponent destruction report, same order. */
  readonly flashcube: readonly (readonly FlashcubeEntry[])[]
  /** This player's own cells destroyed this turn, any cause (C-16). */
  readonly cellsLost: number
}

interface Mutable {
  readonly shipAt: Int8Array
  destroyed: Uint8Array
  fired: Uint8Array
  burntOut: boolean[]
}

function clone(p: PlayerState): Mutable {
  return { shipAt: p.shipAt, destroyed: p.destroyed.slice(), fired: p.fired.slice(), burntOut: [...p.burntOut] }
}

function view(base: PlayerState, m: Mutable): PlayerState {
  return { ...base, destroyed: m.destroyed, fired: m.fired, burntOut: m.burntOut }
}

/**
 * One strike or beam strike on the passive player's space (§5.2, §5.3, §8.1.4, C-20). `judge` is
 * the state results are read from: the live state in 2.6.1, the start-of-turn state in classic.
 * Damage goes to `live`.
 */
function strike(judge: PlayerState, live: Mutable, target: Cell): { result: StrikeOutcome; explosions: Cell[] } {
  if ((judge.shipAt[target] ?? -1) < 0) return { result: 'miss', explosions: [] }
  if (judge.destroyed[target] === 1) return { result: 'duplicate-hit', explosions: [] }
  // Read everything from `judge` before damaging `live`: in 2.6.1 they share the same arrays.
  const explodes = isUnfiredMissile(judge, target)
  live.destroyed[target] = 1
  if (!explodes) return { result: 'hit', explosions: [] }
  // C-20: explosions in the target and its undamaged face neighbours of the same ship; no chains.
  const explosions = [target, ...sameShipNeighbours(judge, target).filter((n) => judge.destroyed[n] === 0)]
  for (const c of explosions) live.destroyed[c] = 1
  return { result: 'hit', explosions }
}

function scan(p: PlayerState, target: Cell): ScanOutcome {
  if ((p.shipAt[target] ?? -1) < 0) return 'empty'
  return p.destroyed[target] === 1 ? 'ship-destroyed' : 'ship'
}

/** The active player's visible aspects resolved against the passive player (C-19). */
function resolveAgainst(ruleset: Ruleset, record: CheckedRecord, passiveStart: PlayerState, passive: Mutable): { exchanges: Exchange[]; burnouts: number[] } {
  const classic = ruleset.variant === 'classic'
  const judge = (): PlayerState => (classic ? passiveStart : view(passiveStart, passive))
  const exchanges: Exchange[] = []
  const burnouts: number[] = []
  record.beams.forEach((beam, i) => {
    const results: StrikeOutcome[] = []
    for (const target of beam.targets) {
      const r = strike(judge(), passive, target)
      results.push(r.result)
      exchanges.push({ kind: 'beam-strike', target, beam: i, result: r.result, explosions: r.explosions })
    }
    // C-21 (§8.2.4): both end cells HIT burns the weapon out, from the next turn on.
    if (!classic && results[0] === 'hit' && results[results.length - 1] === 'hit') burnouts.push(beam.ship)
  })
  for (const target of record.strikes) {
    const r = strike(judge(), passive, target)
    exchanges.push({ kind: 'strike', target, result: r.result, explosions: r.explosions })
  }
  for (const target of record.scans) exchanges.push({ kind: 'scan', target, result: scan(judge(), target) })
  for (const cell of record.kamikazeLaunches) exchanges.push({ kind: 'kamikaze-death', cell })
  return { exchanges, burnouts }
}

function destructions(before: PlayerState, after: PlayerState): DestructionReport[] {
  const out: DestructionReport[] = []
  after.ships.forEach((ship, i) => {
    if (!isShipDestroyed(before, i) && isShipDestroyed(after, i)) {
      const several = after.ships.filter((s) => s.type === ship.type).length >= 2
      out.push({ ship: i, type: ship.type, id: several ? ship.id : undefined, name: ship.name, cells: ship.cells })
    }
  })
  return out
}

/** C-24: the flashcube entry of `p`'s own cell, end of turn; never missile or beam state. */
export function flashcubeEntry(p: PlayerState, cell: Cell): FlashcubeEntry {
  const s = p.shipAt[cell] ?? -1
  const ship = p.ships[s]
  if (ship === undefined) return { cell, kind: 'empty' }
  const several = p.ships.filter((o) => o.type === ship.type).length >= 2
  return { cell, kind: 'ship', destroyed: p.destroyed[cell] === 1, type: ship.type, id: several ? ship.id : undefined, name: ship.name }
}

function countLost(before: PlayerState, after: PlayerState): number {
  let n = 0
  for (let c = 0; c < after.destroyed.length; c++) if (before.destroyed[c] === 0 && after.destroyed[c] === 1) n++
  return n
}

/**
 * Resolves a turn from both players' checked records. Each player's actions touch only the other
 * player's space, apart from its own launches, which C-18 applies before anything is revealed; so
 * which player resolves first never changes a result (§11.7.2.1).
 */
export function resolveTurn(
  ruleset: Ruleset,
  states: readonly [PlayerState, PlayerState],
  records: readonly [CheckedRecord, CheckedRecord],
): { states: [PlayerState, PlayerState]; turns: [PlayerTurn, PlayerTurn] } {
  const classic = ruleset.variant === 'classic'
  const live = [clone(states[0]), clone(states[1])] as const
  // C-18 (§8.1.3.2, §4.5.3): launches take effect before visible aspects are revealed. Classic
  // §4.4.3 destroys the kamikaze launch cell only at the end of the turn.
  for (const k of [0, 1] as const) {
    for (const c of records[k].missileLaunches) live[k].fired[c] = 1
  }
  if (!classic) for (const k of [0, 1] as const) for (const c of records[k].kamikazeLaunches) live[k].destroyed[c] = 1
  // 2.6.1 judges each strike against the live state (C-19, C-20); classic against a frozen copy
  // of the state as revealed, since all its damage lands at the end of the turn.
  const frozen = (k: 0 | 1): PlayerState => ({ ...states[k], destroyed: live[k].destroyed.slice(), fired: live[k].fired.slice() })
  const judged = classic ? ([frozen(0), frozen(1)] as const) : ([view(states[0], live[0]), view(states[1], live[1])] as const)
  const a = resolveAgainst(ruleset, records[0], judged[1], live[1])
  const b = resolveAgainst(ruleset, records[1], judged[0], live[0])
  if (classic) for (const k of [0, 1] as const) for (const c of records[k].kamikazeLaunches) live[k].destroyed[c] = 1
  const sides = [a, b] as const
  for (const k of [0, 1] as const) for (const s of sides[k].burnouts) live[k].burntOut[s] = true
  const after = [view(states[0], live[0]), view(states[1], live[1])] as const
  const lost = [countLost(states[0], after[0]), countLost(states[1], after[1])] as const
  const next: [PlayerState, PlayerState] = [
    { ...after[0], lostLastTurn: lost[0] },
    { ...after[1], lostLastTurn: lost[1] },
  ]
  // Classic has no destruction reports or flashcube data (C-28 classic).
  const reports = classic ? [[], []] : [destructions(states[0], next[0]), destructions(states[1], next[1])]
  const turn = (k: 0 | 1): PlayerTurn => ({
    exchanges: sides[k].exchanges,
    burnouts: sides[k].burnouts,
    destructions: reports[k] ?? [],
    flashcube: (reports[k === 0 ? 1 : 0] ?? []).map((r) => r.cells.map((c) => flashcubeEntry(next[k], c))),
    cellsLost: lost[k],
  })
  return { states: next, turns: [turn(0), turn(1)] }
}
