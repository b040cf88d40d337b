/**
 * Plays a whole game between two random legal players from a seed and returns it as a record
 * file: reproducible example and test material for the referee (and later the verifier).
 */
import { playRandomGame } from '../rules/enumerate.js'
import { formatRecord } from '../rules/record.js'
import { seededRandom } from '../rules/rng.js'
import { type Ruleset, formatRuleset } from '../rules/ruleset.js'
import { formatSetup } from '../rules/setup.js'
import { formatGameRecord } from './file.js'

export function randomGameRecord(ruleset: Ruleset, seed: string, maxTurns = 1000): string {
  const { setups, reports } = playRandomGame(ruleset, seededRandom(seed), maxTurns)
  const turns = reports.map((r) => ({
    turn: r.turn,
    line: 0,
    records: [formatRecord(r.records[0].actions), formatRecord(r.records[1].actions)] as const,
    recordLines: [0, 0] as const,
  }))
  const header = `# Two random legal players, seed ${seed} (spaceships record random --seed ${seed}).\n`
  return (
    header +
    formatGameRecord({
      rulesetText: formatRuleset(ruleset),
      match: 'single',
      players: ['A', 'B'],
      games: [
        { index: 1, line: 0, setups: [formatSetup(setups[0]), formatSetup(setups[1])], setupLines: [0, 0], turns },
      ],
    })
  )
}
