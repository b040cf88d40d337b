/**
 * Plays a whole game between two random legal players from a seed and returns it as a record
 * file: reproducible example and test material for the referee (and later the verifier).
 */
import {
  type Ruleset,
  formatRecord,
  formatRuleset,
  formatSetup,
  playTurn,
  randomRecord,
  randomSetup,
  seededRandom,
  startGame,
} from '../rules/index.js'
import { type RecordedTurn, formatGameRecord } from './file.js'

export function randomGameRecord(ruleset: Ruleset, seed: string, maxTurns = 1000): string {
  const rng = seededRandom(seed)
  const setups = [randomSetup(ruleset, rng), randomSetup(ruleset, rng)] as const
  const started = startGame(ruleset, [setups[0].map((s) => ({ ...s, text: s.type })), setups[1].map((s) => ({ ...s, text: s.type }))])
  if (!started.ok) throw new Error('randomSetup produced an illegal setup')
  let game = started.value
  const turns: RecordedTurn[] = []
  while (game.end === undefined && game.turn <= maxTurns) {
    const a = randomRecord(ruleset, game.players[0], game.turn, rng)
    const b = randomRecord(ruleset, game.players[1], game.turn, rng)
    const played = playTurn(game, [a.actions, b.actions])
    if (!played.ok) throw new Error('randomRecord produced an illegal record')
    turns.push({ turn: game.turn, line: 0, records: [formatRecord(a.actions), formatRecord(b.actions)], recordLines: [0, 0] })
    game = played.value.game
  }
  const header = `# Two random legal players, seed ${seed} (spaceships record random --seed ${seed}).\n`
  return (
    header +
    formatGameRecord({
      rulesetText: formatRuleset(ruleset),
      match: 'single',
      players: ['A', 'B'],
      games: [{ index: 1, line: 0, setups: [formatSetup(setups[0]), formatSetup(setups[1])], setupLines: [0, 0], turns }],
    })
  )
}
