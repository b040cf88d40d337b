import { describe, expect, it } from 'vitest'
import { runArena } from '../../src/games/spaceships/arena/arena.js'
import { CLASSIC_RULESET, DEFAULT_RULESET } from '../../src/games/spaceships/rules/ruleset.js'
import { recorded } from './recorded.js'

// The longer arena checks of the levels, in a file of their own so that the test pool runs them
// beside the other bot tests.
describe('bot levels in the arena', () => {
  it('hard beats medium in at least 75% of a fixed set of 40 games in each ruleset, never with an illegal record (2.6.1 and classic; C-17)', async () => {
    const moves: string[] = []
    const illegal: string[] = []
    for (const ruleset of [DEFAULT_RULESET, CLASSIC_RULESET]) {
      const r = await runArena({
        a: 'hard',
        b: 'medium',
        games: 40,
        seed: `levels/${ruleset.variant}`,
        ruleset,
        fast: true,
        observe: (_side, bot) => recorded(bot, moves, illegal),
      })
      expect(r.failures).toEqual([])
      expect(r.wins.a, `${ruleset.variant}: ${JSON.stringify(r.wins)}`).toBeGreaterThanOrEqual(30)
    }
    expect(illegal).toEqual([])
    expect(moves.length).toBeGreaterThan(1000)
  })

  it('no level ever submits an illegal record, against any other, in both rulesets: every move checked strictly as the verifier would (C-06, C-17)', async () => {
    const moves: string[] = []
    const illegal: string[] = []
    for (const ruleset of [DEFAULT_RULESET, CLASSIC_RULESET])
      for (const [a, b, games] of [
        ['hard', 'random', 10],
        ['hard', 'easy', 10],
        ['medium', 'random', 10],
        ['medium', 'easy', 10],
        ['easy', 'random', 10],
      ] as const) {
        const r = await runArena({
          a,
          b,
          games,
          seed: `legal/${ruleset.variant}/${a}/${b}`,
          ruleset,
          fast: true,
          observe: (_side, bot) => recorded(bot, moves, illegal),
        })
        expect(r.failures).toEqual([])
      }
    expect(illegal).toEqual([])
    expect(moves.length).toBeGreaterThan(1500)
  })
})
