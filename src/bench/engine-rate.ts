/**
 * The rules engine alone: recorded random games replayed through the reducer, turns and games per
 * second.
 */
import { performance } from 'node:perf_hooks'
import { playTurn, startGame } from '../games/spaceships/rules/game.js'
import { playRandomGame } from '../games/spaceships/rules/enumerate.js'
import type { ActionRecord } from '../games/spaceships/rules/record.js'
import { seededRandom } from '../games/spaceships/rules/rng.js'
import { DEFAULT_RULESET } from '../games/spaceships/rules/ruleset.js'
import type { WrittenShip } from '../games/spaceships/rules/setup.js'
import { REPS, type Stat, stat } from './stat.js'

const RULESET = DEFAULT_RULESET

export function engineRate(): { turnsPerSecond: Stat; gamesPerSecond: Stat; meanTurns: number } {
  // Records are generated first, so only resolution (the reducer) is timed, not the random bot.
  const games = Array.from({ length: 40 }, (_, i) => playRandomGame(RULESET, seededRandom(`engine/${i}`)))
  const setups = games.map(
    (g) =>
      g.states[0]?.players.map((p) =>
        p.ships.map((s): WrittenShip => ({ type: s.type, id: s.id, cells: s.cells, text: s.type })),
      ) as [WrittenShip[], WrittenShip[]],
  )
  const records = games.map((g) =>
    g.reports.map((r) => [r.records[0].actions, r.records[1].actions] as [ActionRecord, ActionRecord]),
  )
  const turns = records.reduce((n, r) => n + r.length, 0)
  const tps: number[] = []
  const gps: number[] = []
  for (let rep = 0; rep <= REPS; rep++) {
    const t0 = performance.now()
    games.forEach((_, i) => {
      const started = startGame(RULESET, setups[i] ?? [[], []])
      if (!started.ok) throw new Error('bench setup illegal')
      let game = started.value
      for (const r of records[i] ?? []) {
        const next = playTurn(game, r)
        if (!next.ok) throw new Error('bench record illegal')
        game = next.value.game
      }
    })
    const s = (performance.now() - t0) / 1000
    if (rep > 0) {
      tps.push(turns / s)
      gps.push(games.length / s)
    }
  }
  return { turnsPerSecond: stat(tps), gamesPerSecond: stat(gps), meanTurns: turns / games.length }
}
