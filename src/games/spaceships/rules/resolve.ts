/**
 * Resolving one turn (2.6.1 §2.2, §4, §5, §7, §8; C-18..C-26; classic §4..§6 with damage at the
 * end of the turn). Pure: takes both players' states and checked records, returns the new states
 * and everything each player reveals.
 */
import type { Cell } from './coords.js'
import type { CheckedRecord } from './legality.js'
import type { Ruleset } from './ruleset.js'
import type { ShipType } from './ships.js'
import { type PlayerState, cellBytes, isShipDestroyed, isUnfiredMissile, sameShipNeighbours } from './state.js'

export type StrikeOutcome = 'miss' | 'hit' | 'duplicate-hit'
export type ScanOutcome = 'empty' | 'ship' | 'ship-destroyed'

/** A visible aspect (§5) and, where it has one, its visible result. */
export type Exchange =
  | {
      readonly kind: 'beam-strike'
      readonly target: Cell
      readonly beam: number
      readonly result: StrikeOutcome
      readonly explosions: readonly Cell[]
    }
  | {
      readonly kind: 'strike'
      readonly target: Cell
      readonly result: StrikeOutcome
      readonly explosions: readonly Cell[]
    }
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
  | {
      readonly cell: Cell
      readonly kind: 'ship'
      readonly destroyed: boolean
      readonly type: ShipType
      readonly id: number | undefined
      readonly name: string
    }

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
  return { shipAt: p.shipAt, destroyed: cellBytes(p.destroyed), fired: cellBytes(p.fired), burntOut: [...p.burntOut] }
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

/**
 * What the passive player is shown of the active player's record (§5, C-19): beam firings as
 * their target cells in resolution order, strike targets in record order, scans, kamikaze
 * launch cells. This is all the passive player needs to resolve its own side of a turn.
 */
export interface VisibleAspects {
  readonly beams: readonly (readonly Cell[])[]
  readonly strikes: readonly Cell[]
  readonly scans: readonly Cell[]
  readonly kamikaze: readonly Cell[]
}

export function aspectsOf(record: CheckedRecord): VisibleAspects {
  return {
    beams: record.beams.map((b) => b.targets),
    strikes: record.strikes,
    scans: record.scans,
    kamikaze: record.kamikazeLaunches,
  }
}

/** The active player's visible aspects resolved against the passive player (C-19). */
function resolveAgainst(
  ruleset: Ruleset,
  aspects: VisibleAspects,
  passiveStart: PlayerState,
  passive: Mutable,
): Exchange[] {
  // 2.6.1 reads results from the live state. One view serves every strike: strikes change the
  // elements of `passive`'s arrays, never the arrays themselves, so the view follows them.
  const judge = ruleset.variant === 'classic' ? passiveStart : view(passiveStart, passive)
  const exchanges: Exchange[] = []
  aspects.beams.forEach((targets, i) => {
    for (const target of targets) {
      const r = strike(judge, passive, target)
      exchanges.push({ kind: 'beam-strike', target, beam: i, result: r.result, explosions: r.explosions })
    }
  })
  for (const target of aspects.strikes) {
    const r = strike(judge, passive, target)
    exchanges.push({ kind: 'strike', target, result: r.result, explosions: r.explosions })
  }
  for (const target of aspects.scans) exchanges.push({ kind: 'scan', target, result: scan(judge, target) })
  for (const cell of aspects.kamikaze) exchanges.push({ kind: 'kamikaze-death', cell })
  return exchanges
}

/**
 * C-21 (§8.2.4): the active player's beam weapons (ship indices, one per firing in `beamShips`)
 * that burn out because both end cells of their firing were HIT; none in classic.
 */
export function burnoutsOf(ruleset: Ruleset, beamShips: readonly number[], exchanges: readonly Exchange[]): number[] {
  if (ruleset.variant === 'classic') return []
  const out: number[] = []
  beamShips.forEach((ship, i) => {
    const results = exchanges.flatMap((e) => (e.kind === 'beam-strike' && e.beam === i ? [e.result] : []))
    if (results[0] === 'hit' && results[results.length - 1] === 'hit') out.push(ship)
  })
  return out
}

/** The passive player's own half of a turn: see `resolveIncoming`. */
export interface IncomingResolution {
  /** End-of-turn state, burn-outs of its own beams not yet applied (they depend on the other half). */
  readonly state: PlayerState
  /** The active player's visible aspects with this player's results, in C-19 order. */
  readonly exchanges: readonly Exchange[]
  /** This player's own ships destroyed this turn (C-23); none in classic. */
  readonly destructions: readonly DestructionReport[]
  /** This player's own cells destroyed this turn, any cause (C-16). */
  readonly cellsLost: number
}

/**
 * One player's side of a turn, from what that player knows: its start-of-turn state, its own
 * record's launches and the opponent's visible aspects. Each player's actions touch only the
 * other's space, apart from its own launches (C-18), so a turn is exactly two of these halves;
 * a peer computes its results with this and a verifier replays each side with it.
 */
export function resolveIncoming(
  ruleset: Ruleset,
  start: PlayerState,
  own: Pick<CheckedRecord, 'missileLaunches' | 'kamikazeLaunches'>,
  incoming: VisibleAspects,
): IncomingResolution {
  const classic = ruleset.variant === 'classic'
  const live = clone(start)
  // C-18 (§8.1.3.2, §4.5.3): launches take effect before visible aspects are revealed. Classic
  // §4.4.3 destroys the kamikaze launch cell only at the end of the turn.
  for (const c of own.missileLaunches) live.fired[c] = 1
  if (!classic) for (const c of own.kamikazeLaunches) live.destroyed[c] = 1
  // 2.6.1 judges each strike against the live state (C-19, C-20); classic against a frozen copy
  // of the state as revealed, since all its damage lands at the end of the turn.
  const judged = classic
    ? { ...start, destroyed: cellBytes(live.destroyed), fired: cellBytes(live.fired) }
    : view(start, live)
  const exchanges = resolveAgainst(ruleset, incoming, judged, live)
  if (classic) for (const c of own.kamikazeLaunches) live.destroyed[c] = 1
  const after = view(start, live)
  const cellsLost = countLost(start, after)
  const state = { ...after, lostLastTurn: cellsLost }
  // Classic has no destruction reports or flashcube data (C-28 classic).
  return { state, exchanges, destructions: classic ? [] : destructions(start, state), cellsLost }
}

/** Marks burnt-out beam weapons (C-21): they may not fire from the next turn on. */
export function withBurnouts(p: PlayerState, ships: readonly number[]): PlayerState {
  if (ships.length === 0) return p
  const burntOut = [...p.burntOut]
  for (const s of ships) burntOut[s] = true
  return { ...p, burntOut }
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
  return {
    cell,
    kind: 'ship',
    destroyed: p.destroyed[cell] === 1,
    type: ship.type,
    id: several ? ship.id : undefined,
    name: ship.name,
  }
}

function countLost(before: PlayerState, after: PlayerState): number {
  let n = 0
  for (let c = 0; c < after.destroyed.length; c++) if (before.destroyed[c] === 0 && after.destroyed[c] === 1) n++
  return n
}

/**
 * Resolves a turn from both players' checked records: two independent halves (`resolveIncoming`),
 * so which player resolves first never changes a result (§11.7.2.1).
 */
export function resolveTurn(
  ruleset: Ruleset,
  states: readonly [PlayerState, PlayerState],
  records: readonly [CheckedRecord, CheckedRecord],
): { states: [PlayerState, PlayerState]; turns: [PlayerTurn, PlayerTurn] } {
  // halves[k]: player k's side, under the other player's visible aspects.
  const halves = [
    resolveIncoming(ruleset, states[0], records[0], aspectsOf(records[1])),
    resolveIncoming(ruleset, states[1], records[1], aspectsOf(records[0])),
  ] as const
  const burnouts = [
    burnoutsOf(
      ruleset,
      records[0].beams.map((b) => b.ship),
      halves[1].exchanges,
    ),
    burnoutsOf(
      ruleset,
      records[1].beams.map((b) => b.ship),
      halves[0].exchanges,
    ),
  ] as const
  const next: [PlayerState, PlayerState] = [
    withBurnouts(halves[0].state, burnouts[0]),
    withBurnouts(halves[1].state, burnouts[1]),
  ]
  const turn = (k: 0 | 1): PlayerTurn => {
    const other = halves[k === 0 ? 1 : 0]
    return {
      exchanges: other.exchanges,
      burnouts: burnouts[k],
      destructions: halves[k].destructions,
      flashcube: other.destructions.map((r) => r.cells.map((c) => flashcubeEntry(next[k], c))),
      cellsLost: halves[k].cellsLost,
    }
  }
  return { states: next, turns: [turn(0), turn(1)] }
}
