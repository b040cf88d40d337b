/** The bots by level name, each seeded, for the CLI, the arena and the benchmarks. */
import { type RandomSource, seededRandom } from '../rules/rng.js'
import { type PlayerStrategy, randomStrategy } from '../session/strategy.js'
import { easyStrategy } from './easy.js'
import { hardStrategy } from './hard.js'
import { GameRandom } from './random.js'
import { DEFAULT_WORK } from './inference.js'
import { strongStrategy } from './strong.js'

/** The levels, weakest last but one (`random` is the baseline); `strong` is medium's old name. */
export const BOT_NAMES = ['hard', 'medium', 'easy', 'random', 'strong'] as const
export type BotName = (typeof BOT_NAMES)[number]

export function isBotName(s: string): s is BotName {
  return (BOT_NAMES as readonly string[]).includes(s)
}

/**
 * A bot by name. With a `seed`, its choices are drawn from a source seeded by it, and the seed
 * wins over the session: `begin` is not offered, so the same seed plays the same game whatever
 * the session's secrets (the arena, the benchmarks, the tests and a user's explicit `--seed`
 * ask for exactly that). Without one, the bot is a per-game player: its choices come from the
 * side's per-game secret the session hands `begin` (`random.ts`), so nobody can predict it before
 * it moves and anyone holding the revealed seed replays it. `work` scales the hard bot's
 * inference (sweeps per chain); a level's play depends on its randomness and the work alone.
 */
export function makeBot(name: BotName, seed?: string, work?: number): PlayerStrategy {
  if (seed !== undefined) return levelStrategy(name, seededRandom(seed), work)
  const rng = new GameRandom()
  return {
    ...levelStrategy(name, rng, work),
    begin: (secret) => {
      rng.begin(secret)
    },
  }
}

function levelStrategy(name: BotName, rng: RandomSource, work: number | undefined): PlayerStrategy {
  switch (name) {
    case 'hard':
      return hardStrategy(rng, work === undefined ? {} : { work: { ...DEFAULT_WORK, sweeps: work } })
    case 'medium':
    case 'strong':
      return strongStrategy(rng)
    case 'easy':
      return easyStrategy(rng)
    case 'random':
      return randomStrategy(rng)
  }
}
