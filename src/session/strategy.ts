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
import type { Role } from '../transcript/messages.js'
import type { TurnSummary } from '../knowledge/summary.js'

export type { TurnSummary } from '../knowledge/summary.js'

export interface TurnContext {
  readonly role: Role
  readonly ruleset: Ruleset
  readonly turn: number
  /** My own state at the start of the turn. */
  readonly state: PlayerState
  readonly history: readonly TurnSummary[]
}

export interface PlayerStrategy {
  setup(ruleset: Ruleset): Setup | Promise<Setup>
  /** This turn's action record in the conventional notation (lenient is fine; it is canonicalised). */
  record(ctx: TurnContext): string | Promise<string>
  /** The game is over: the state after the last turn and everything learnt (for UIs). */
  finished?(ctx: TurnContext): void | Promise<void>
}

/** A random legal player (issue 5's baseline): uniform legal setups, random legal records. */
export function randomStrategy(rng: RandomSource): PlayerStrategy {
  return {
    setup: (ruleset) => randomSetup(ruleset, rng),
    record: (ctx) => formatRecord(randomRecord(ctx.ruleset, ctx.state, ctx.turn, rng).actions),
  }
}
