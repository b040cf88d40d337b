/**
 * A game as a reducer: `startGame` from two setups, `playTurn` from two records, until it ends
 * (2.6.1 §2.3; C-25..C-27). Illegal input is returned as violations attributed to the player, never
 * thrown. Matches (§9, §10) chain games and carry remaining materiel forward.
 */
import { type Result, type RuleViolation, fail, ok } from './errors.js'
import { type CheckedRecord, checkRecord } from './legality.js'
import type { ActionRecord } from './record.js'
import { type PlayerTurn, resolveTurn } from './resolve.js'
import type { Ruleset } from './ruleset.js'
import { type Setup, type WrittenShip, validateSetup } from './setup.js'
import { type PlayerState, fleetDestroyed, initialPlayerState, remainingMateriel } from './state.js'

export type PlayerIndex = 0 | 1
export const PLAYER_NAMES = ['A', 'B'] as const

export interface GameEnd {
  /** §2.3.1 (C-25) or §2.3.2 (C-26). */
  readonly reason: 'fleet-destroyed' | 'no-actions'
  /** Which players triggered it. */
  readonly by: readonly PlayerIndex[]
  readonly turn: number
  readonly scores: readonly [number, number]
  readonly winner: PlayerIndex | 'draw'
}

export interface GameState {
  readonly ruleset: Ruleset
  /** The next turn to play, from 1 (C-27: turns restart in every game of a match). */
  readonly turn: number
  readonly players: readonly [PlayerState, PlayerState]
  readonly end: GameEnd | undefined
}

/** Violations attributed to the player who made them (C-28). */
export interface Offence {
  readonly player: PlayerIndex
  /** 0 for setup. */
  readonly turn: number
  readonly violations: readonly RuleViolation[]
}

export interface TurnReport {
  readonly turn: number
  readonly records: readonly [CheckedRecord, CheckedRecord]
  readonly players: readonly [PlayerTurn, PlayerTurn]
  readonly end: GameEnd | undefined
}

export function startGame(
  ruleset: Ruleset,
  setups: readonly [readonly WrittenShip[], readonly WrittenShip[]],
  additional: readonly [number, number] = [0, 0],
): Result<GameState, readonly Offence[]> {
  const offences: Offence[] = []
  const valid: Setup[] = []
  for (const k of [0, 1] as const) {
    const v = validateSetup(setups[k], ruleset, additional[k])
    if (v.ok) valid.push(v.value)
    else offences.push({ player: k, turn: 0, violations: v.error })
  }
  if (offences.length > 0) return fail(offences)
  const [a, b] = valid as [Setup, Setup]
  return ok({ ruleset, turn: 1, players: [initialPlayerState(a), initialPlayerState(b)], end: undefined })
}

export function scoresOf(players: readonly [PlayerState, PlayerState]): [number, number] {
  return [remainingMateriel(players[0]), remainingMateriel(players[1])]
}

function winnerOf(scores: readonly [number, number]): PlayerIndex | 'draw' {
  return scores[0] === scores[1] ? 'draw' : scores[0] > scores[1] ? 0 : 1
}

/** Whether a checked record holds nothing but scans (C-26; classic §2.3.2: nothing at all). */
export function onlyScans(ruleset: Ruleset, r: CheckedRecord): boolean {
  return r.actions.every((a) => a.kind === 'scan' && ruleset.variant !== 'classic')
}

/** Checks both records, then resolves the turn and decides whether the game ends. */
/** Why a turn was not played: the game had already ended, or a record broke the rules. */
export type TurnRejection =
  | { readonly reason: 'game-over'; readonly end: GameEnd }
  | { readonly reason: 'illegal'; readonly offences: readonly Offence[] }

export function playTurn(
  game: GameState,
  records: readonly [ActionRecord, ActionRecord],
): Result<{ game: GameState; report: TurnReport }, TurnRejection> {
  if (game.end !== undefined) return fail({ reason: 'game-over', end: game.end })
  const offences: Offence[] = []
  const checked: CheckedRecord[] = []
  for (const k of [0, 1] as const) {
    const c = checkRecord(game.ruleset, game.players[k], game.turn, records[k])
    if (c.ok) checked.push(c.value)
    else offences.push({ player: k, turn: game.turn, violations: c.error })
  }
  if (offences.length > 0) return fail({ reason: 'illegal', offences })
  const pair = checked as [CheckedRecord, CheckedRecord]
  const { states, turns } = resolveTurn(game.ruleset, game.players, pair)
  const destroyedBy = ([0, 1] as const).filter((k) => fleetDestroyed(states[k]))
  const idleBy = ([0, 1] as const).filter(
    (k) => pair[k].entitlements.onlyKamikazeAndScans && onlyScans(game.ruleset, pair[k]),
  )
  let end: GameEnd | undefined
  const scores = scoresOf(states)
  // C-25 first: when both conditions hold, the fleet's destruction is the more telling reason.
  if (destroyedBy.length > 0)
    end = { reason: 'fleet-destroyed', by: destroyedBy, turn: game.turn, scores, winner: winnerOf(scores) }
  else if (idleBy.length > 0)
    end = { reason: 'no-actions', by: idleBy, turn: game.turn, scores, winner: winnerOf(scores) }
  const next: GameState = { ruleset: game.ruleset, turn: game.turn + 1, players: states, end }
  return ok({ game: next, report: { turn: game.turn, records: pair, players: turns, end } })
}

export type MatchKind = 'single' | 'scored' | 'continued'

/** Overall scores of a match (§9.4): the sum of game scores. */
export function matchScores(ends: readonly GameEnd[]): [number, number] {
  return ends.reduce<[number, number]>((acc, e) => [acc[0] + e.scores[0], acc[1] + e.scores[1]], [0, 0])
}

/**
 * The additional allowance for the next game (§10.3, C-11): each player's remaining materiel at
 * the end of the previous game in a continued match, else nothing.
 */
export function nextAdditional(kind: MatchKind, previous: GameEnd | undefined): [number, number] {
  if (kind !== 'continued' || previous === undefined) return [0, 0]
  return [previous.scores[0], previous.scores[1]]
}

export function matchWinner(ends: readonly GameEnd[]): PlayerIndex | 'draw' {
  return winnerOf(matchScores(ends))
}
