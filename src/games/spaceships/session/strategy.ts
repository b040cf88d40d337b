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
}

/** A player's choice to give up the game instead of recording a turn (SPEC §6.5): it loses. */
export interface Resignation {
  readonly resign: true
}

export const RESIGN: Resignation = { resign: true }

export function isResignation(x: unknown): x is Resignation {
  return typeof x === 'object' && x !== null && (x as { resign?: unknown }).resign === true
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
  /** This turn's action record in the conventional notation (lenient is fine; it is canonicalised), or a resignation. */
  record(ctx: TurnContext): string | Resignation | Promise<string | Resignation>
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
