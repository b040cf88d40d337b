/**
 * A player plugged into a session (DESIGN.md §4): the human UI, a bot, or a deliberately cheating
 * test player. It sees only what its own side knows.
 */
import type { PlayerState } from '../rules/state.js'
import type { Ruleset } from '../rules/ruleset.js'
import type { Setup } from '../rules/setup.js'
import type { RandomSource } from '../rules/rng.js'
import { randomRecord, randomSetup } from '../rules/enumerate.js'
import { formatRecord } from '../rules/record.js'
import type { Role } from '../protocol/messages.js'
import type { TurnSummary } from '../knowledge/summary.js'
import { utf8 } from '../../../core/commit/bytes.js'
import { sha256 } from '../../../core/commit/hash.js'

export type { TurnSummary } from '../knowledge/summary.js'

export interface TurnContext {
  readonly role: Role
  readonly ruleset: Ruleset
  readonly turn: number
  /** My own state at the start of the turn. */
  readonly state: PlayerState
  readonly history: readonly TurnSummary[]
  /** Aborts when the game stops before this record is needed (the opponent stopped, or the session ended). */
  readonly signal?: AbortSignal
  /** When the opponent may claim if the record is not sent (clock milliseconds, SPEC §6.6), if known. */
  readonly deadline?: number
  /**
   * The same deadline as it stands now: undefined while the opponent must move first this turn, as
   * this side's clock runs only once its move is due (SPEC §6.6). A prompt that stays open while
   * the opponent moves asks it again.
   */
  readonly deadlineNow?: () => number | undefined
  /** The time a move has once its clock starts (the terms' turn deadline, SPEC §6.6), if known. */
  readonly moveMs?: number
  /**
   * Version 4 (SPEC §7.11): whether the opponent's offer of a draw stands for this decision (it
   * may arrive while the player thinks): `ACCEPT_DRAW` accepts it (the game ends drawn after the
   * reveals), any record declines it.
   */
  readonly drawOffered?: () => boolean
  /** Version 4 (SPEC §7.11): this record may carry an offer of a draw (`offerDraw(record)`). */
  readonly mayOfferDraw?: boolean
}

/** A player's choice to give up the game instead of recording a turn (SPEC §6.5): it loses. */
export interface Resignation {
  readonly resign: true
}

export const RESIGN: Resignation = { resign: true }

export function isResignation(x: unknown): x is Resignation {
  return typeof x === 'object' && x !== null && (x as { resign?: unknown }).resign === true
}

/** Version 4 (SPEC §7.12): the draw the opponent offered, accepted instead of this turn's record. */
export interface DrawAcceptance {
  readonly acceptDraw: true
}

export const ACCEPT_DRAW: DrawAcceptance = { acceptDraw: true }

export function isDrawAcceptance(x: unknown): x is DrawAcceptance {
  return typeof x === 'object' && x !== null && (x as { acceptDraw?: unknown }).acceptDraw === true
}

/**
 * Version 4 (SPEC §7.11): this turn's record, and an offer of a draw sent with this side's
 * envelope that completes the turn (the first one that may carry it, if this turn's cannot).
 */
export interface DrawOffer {
  readonly record: string
  readonly offerDraw: true
}

export function offerDraw(record: string): DrawOffer {
  return { record, offerDraw: true }
}

export function isDrawOffer(x: unknown): x is DrawOffer {
  return typeof x === 'object' && x !== null && (x as { offerDraw?: unknown }).offerDraw === true
}

/** What a player decides for a turn: a record (with an offer of a draw or not), a resignation, or an acceptance. */
export type Decision = string | Resignation | DrawAcceptance | DrawOffer

/** The record a decision plays: its text, or undefined for a resignation or an acceptance, which play none. */
export function recordText(d: Decision): string | undefined {
  return typeof d === 'string' ? d : isDrawOffer(d) ? d.record : undefined
}

export interface PlayerStrategy {
  /**
   * Called once, before `setup` (also when a stored game resumes), with this side's secret for
   * the game (`gameSecret`): a player's randomness drawn from it is unknown to the opponent until
   * the reveal, and replayable by anyone once the seed is revealed.
   */
  begin?(gameSecret: Uint8Array): void
  /** This side's setup; `deadline` (clock ms), when given, is when the game's setup deadline passes (SPEC §6.6). */
  setup(ruleset: Ruleset, signal?: AbortSignal, deadline?: number): Setup | Promise<Setup>
  /**
   * This turn's action record in the conventional notation (lenient is fine; it is canonicalised),
   * or a resignation; in version 4 also a record with an offer of a draw (when `mayOfferDraw`) or
   * the acceptance of the opponent's offer (when `drawOffered`).
   */
  record(ctx: TurnContext): Decision | Promise<Decision>
  /** The game is over: the state after the last turn and everything learnt (for UIs). */
  finished?(ctx: TurnContext): void | Promise<void>
}

/** Domain separation: the salts are keyed by the same seed (SPEC §4.1) under tags of their own. */
const GAME_SECRET_TAG = utf8('spaceships/bot/game-secret')

/**
 * A side's per-game secret for its player, from the salt seed the session draws (SPEC §4.1) and
 * reveals at the end: `SHA-256(u8(len(T)) ‖ T ‖ seed)`, T = "spaceships/bot/game-secret". One-way
 * and domain-separated, so it tells nothing about the salts before the reveal, and after it anyone
 * holding the reveal's seed derives it again.
 */
export function gameSecret(seed: Uint8Array): Uint8Array {
  return sha256(Uint8Array.of(GAME_SECRET_TAG.length), GAME_SECRET_TAG, seed)
}

/** A random legal player: uniform legal setups, random legal records. */
export function randomStrategy(rng: RandomSource): PlayerStrategy {
  return {
    setup: (ruleset) => randomSetup(ruleset, rng),
    record: (ctx) => formatRecord(randomRecord(ctx.ruleset, ctx.state, ctx.turn, rng).actions),
  }
}
