/**
 * Enumerators for bots and tests: random legal setups from an injected seeded source (every legal
 * setup reachable), the actions a player may take, and random legal records.
 */
import { ALL_CELLS, BEAM_LINES, type Cell, type Row, directionIndexBetween, partialOf, rowCells } from './coords.js'
import { type FleetCounts, legalFleets } from './fleet.js'
import { type CheckedRecord, checkRecord } from './legality.js'
import { type GameState, type TurnReport, playTurn, startGame } from './game.js'
import type { Action } from './record.js'
import { type RandomSource, pick, randomInt, shuffled } from './rng.js'
import type { Ruleset } from './ruleset.js'
import type { PlacedShip, Setup } from './setup.js'
import { ALL_SHIP_TYPES, SHIP_TYPES, type ShipType, placements } from './ships.js'
import { type Entitlements, type PlayerState, entitlements } from './state.js'

/**
 * Places a fleet at random: ships largest first, each uniformly among the placements that do not
 * intersect those already placed, backtracking when a ship has nowhere to go. Every legal setup of
 * the fleet has a non-zero probability. Returns undefined only if the fleet cannot fit at all.
 */
export function randomPlacement(ruleset: Ruleset, fleet: FleetCounts, rng: RandomSource): Setup | undefined {
  const types: ShipType[] = []
  for (const t of ALL_SHIP_TYPES) for (let i = 0; i < (fleet[t] ?? 0); i++) types.push(t)
  types.sort((a, b) => SHIP_TYPES[b].size - SHIP_TYPES[a].size)
  const used = new Uint8Array(ALL_CELLS.length)
  const chosen: (readonly Cell[])[] = []
  const place = (i: number): boolean => {
    const type = types[i]
    if (type === undefined) return true
    const free = placements(type, ruleset).filter((cells) => cells.every((c) => used[c] === 0))
    for (const cells of shuffled(rng, free)) {
      for (const c of cells) used[c] = 1
      chosen.push(cells)
      if (place(i + 1)) return true
      chosen.pop()
      for (const c of cells) used[c] = 0
    }
    return false
  }
  if (!place(0)) return undefined
  const nextId = new Map<ShipType, number>()
  const ships: PlacedShip[] = types.map((type, i) => {
    const id = (nextId.get(type) ?? 0) + 1
    nextId.set(type, id)
    return { type, id, cells: chosen[i] ?? [] }
  })
  return ships
}

/** A random legal setup: a legal fleet chosen uniformly, then placed at random. */
export function randomSetup(ruleset: Ruleset, rng: RandomSource, additional = 0): Setup {
  const fleets = legalFleets(ruleset, additional)
  for (;;) {
    const setup = randomPlacement(ruleset, pick(rng, fleets), rng)
    if (setup !== undefined) return setup
  }
}

/** What a player may do this turn, spelled out for a UI or a bot. */
export interface ActionOptions {
  readonly entitlements: Entitlements
  /** Per death star able to fire: every target line it may fire at, as [end, middle, end]. */
  readonly beams: readonly { ship: number; lines: readonly (readonly Cell[])[] }[]
  /** Classic: per death star able to fire, the rows it may fire along. */
  readonly rows: readonly { ship: number; rows: readonly Row[] }[]
  readonly missiles: readonly { ship: number; cells: readonly Cell[] }[]
  readonly kamikazes: readonly { ship: number; cells: readonly Cell[] }[]
}

/** Every classic row (two fixed coordinates). */
export const ALL_ROWS: readonly Row[] = (() => {
  const rows: Row[] = []
  for (let a = 0; a < 5; a++)
    for (let b = 0; b < 5; b++) {
      rows.push({ free: 2, fixed: { colour: a, letter: b } })
      rows.push({ free: 1, fixed: { colour: a, number: b } })
      rows.push({ free: 0, fixed: { letter: a, number: b } })
    }
  return rows
})()

export function actionOptions(ruleset: Ruleset, p: PlayerState, turn: number): ActionOptions {
  const ent = entitlements(ruleset, p, turn)
  const classic = ruleset.variant === 'classic'
  const firing = ent.ships.filter((s) => s.beamDirections.length > 0)
  return {
    entitlements: ent,
    beams: classic
      ? []
      : firing.map((s) => ({
          ship: s.ship,
          lines: BEAM_LINES.filter((l) => s.beamDirections.includes(directionIndexBetween(l[0], l[1]))),
        })),
    rows: classic
      ? firing.map((s) => ({
          ship: s.ship,
          rows: ALL_ROWS.filter((r) => rowCells(r).some((c) => (p.shipAt[c] ?? -1) === s.ship)),
        }))
      : [],
    missiles: ent.ships.filter((s) => s.missileCells.length > 0).map((s) => ({ ship: s.ship, cells: s.missileCells })),
    kamikazes: ent.ships
      .filter((s) => s.kamikazeCells.length > 0)
      .map((s) => ({ ship: s.ship, cells: s.kamikazeCells })),
  }
}

/**
 * A random legal record: each available weapon used with some probability, targets uniform, the
 * tokens in random order (order matters to resolution, C-19). Returned checked and canonical.
 */
export function randomRecord(ruleset: Ruleset, p: PlayerState, turn: number, rng: RandomSource): CheckedRecord {
  const opts = actionOptions(ruleset, p, turn)
  const target = (): Cell => randomInt(rng, ALL_CELLS.length)
  const actions: Action[] = []
  const chance = (num: number, den: number): boolean => randomInt(rng, den) < num
  for (const b of opts.beams)
    if (chance(1, 2)) {
      const line = pick(rng, b.lines)
      const ship = p.ships[b.ship]
      const ends: [Cell, Cell] = chance(1, 2) ? [line[0] ?? 0, line[2] ?? 0] : [line[2] ?? 0, line[0] ?? 0]
      actions.push({ kind: 'beam', ends, tag: ship === undefined ? undefined : { type: ship.type, id: ship.id } })
    }
  for (const r of opts.rows) if (chance(1, 2)) actions.push({ kind: 'row', row: pick(rng, r.rows) })
  for (const m of opts.missiles)
    if (chance(1, 2)) actions.push({ kind: 'missile', launch: partialOf(pick(rng, m.cells)), target: target() })
  for (const k of opts.kamikazes)
    if (chance(1, 3)) actions.push({ kind: 'kamikaze', launch: pick(rng, k.cells), target: target() })
  const strikes = randomInt(rng, opts.entitlements.conventionalPool + 1)
  for (let i = 0; i < strikes; i++) actions.push({ kind: 'strike', target: target() })
  const scans = randomInt(rng, opts.entitlements.scans + 1)
  for (let i = 0; i < scans; i++) actions.push({ kind: 'scan', target: target() })
  const checked = checkRecord(ruleset, p, turn, shuffled(rng, actions))
  if (!checked.ok) throw new Error(`randomRecord built an illegal record: ${JSON.stringify(checked.error)}`)
  return checked.value
}

/** A whole game between two random legal players: both setups, every state and every report. */
export interface RandomGame {
  readonly setups: readonly [Setup, Setup]
  /** states[t] is the state before turn t + 1; the last is the final state. */
  readonly states: readonly GameState[]
  readonly reports: readonly TurnReport[]
}

export function playRandomGame(ruleset: Ruleset, rng: RandomSource, maxTurns = 1000): RandomGame {
  const setups = [randomSetup(ruleset, rng), randomSetup(ruleset, rng)] as const
  const started = startGame(ruleset, [
    setups[0].map((s) => ({ ...s, text: s.type })),
    setups[1].map((s) => ({ ...s, text: s.type })),
  ])
  if (!started.ok) throw new Error('randomSetup produced an illegal setup')
  let game = started.value
  const states: GameState[] = [game]
  const reports: TurnReport[] = []
  while (game.end === undefined && game.turn <= maxTurns) {
    const a = randomRecord(ruleset, game.players[0], game.turn, rng)
    const b = randomRecord(ruleset, game.players[1], game.turn, rng)
    const played = playTurn(game, [a.actions, b.actions])
    if (!played.ok) throw new Error('randomRecord produced an illegal record')
    game = played.value.game
    states.push(game)
    reports.push(played.value.report)
  }
  return { setups, states, reports }
}
