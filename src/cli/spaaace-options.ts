/**
 * The values `spaceships spaaace` states in its flags and help, apart from the commands that use
 * them, so that registering the commands loads no bot, engine or screen.
 */
import { LIMITS } from '../games/spaaace/rules/types.js'

export const BOT_KINDS = ['sensible', 'random', 'mix'] as const
export type BotKind = (typeof BOT_KINDS)[number]

/** The flag ranges: 2..15 bots make a game of 3..16 players (S-01). */
export const BOTS_RANGE = { min: LIMITS.minPlayers - 1, max: LIMITS.maxPlayers - 1 } as const
