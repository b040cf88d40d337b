/** The bots by level name, each seeded, for the CLI, the arena and the benchmarks. */
import { seededRandom } from '../rules/rng.js'
import { type PlayerStrategy, randomStrategy } from '../session/strategy.js'
import { easyStrategy } from './easy.js'
import { hardStrategy } from './hard.js'
import { DEFAULT_WORK } from './inference.js'
import { strongStrategy } from './strong.js'

/** The levels, weakest last but one (`random` is the baseline); `strong` is medium's old name. */
export const BOT_NAMES = ['hard', 'medium', 'easy', 'random', 'strong'] as const
export type BotName = (typeof BOT_NAMES)[number]

export function isBotName(s: string): s is BotName {
  return (BOT_NAMES as readonly string[]).includes(s)
}

/**
 * A bot by name, its choices drawn from a source seeded by `seed`. `work` scales the hard bot's
 * inference (sweeps per chain); every level's result depends on the seed and the work alone.
 */
export function makeBot(name: BotName, seed: string, work?: number): PlayerStrategy {
  const rng = seededRandom(seed)
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
