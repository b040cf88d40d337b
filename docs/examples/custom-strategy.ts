/**
 * A strategy of your own: a `PlayerStrategy` chooses a setup and, each turn, a record in the
 * conventional notation (protocol/NOTATION.md). The session checks it like any other: an illegal
 * record would be refused before anything is signed.
 *
 *   node docs/examples/custom-strategy.ts
 */
import { argv } from 'node:process'
import { fileURLToPath } from 'node:url'
import { ALL_CELLS, entitlements, formatCell, randomSetup, seededRandom } from 'spaceships/rules'
import { type PlayerStrategy, randomStrategy } from 'spaceships/session'
import { playInMemory } from './in-memory-game.ts'

/**
 * Sweeps space in order: every conventional strike it is entitled to goes to the next cell not yet
 * struck. In a turn without conventional strikes it plays as a random legal player would.
 */
export function sweeper(seed: string): PlayerStrategy {
  const rng = seededRandom(seed)
  const fallback = randomStrategy(rng)
  let next = 0
  return {
    setup: (ruleset) => randomSetup(ruleset, rng),
    record: (ctx) => {
      const strikes = entitlements(ctx.ruleset, ctx.state, ctx.turn).conventionalPool
      if (strikes === 0) return fallback.record(ctx)
      const targets: string[] = []
      for (let i = 0; i < strikes; i++) targets.push(formatCell(ALL_CELLS[next++ % ALL_CELLS.length] ?? 0))
      return targets.join(' ')
    },
  }
}

if (argv[1] === fileURLToPath(import.meta.url)) {
  const [a] = await playInMemory('sweeper', [sweeper('sweeper/A'), randomStrategy(seededRandom('sweeper/B'))])
  console.log(
    `the sweeper (A) against a random player: ${a.verdict.status}${a.verdict.status === 'complete' ? `, winner ${a.verdict.winner}` : ''}`,
  )
}
