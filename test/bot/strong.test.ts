import { describe, expect, it } from 'vitest'
import { runArena } from '../../src/games/spaceships/arena/arena.js'
import { makeBot } from '../../src/games/spaceships/bot/levels.js'
import { CLASSIC_RULESET, DEFAULT_RULESET } from '../../src/games/spaceships/rules/ruleset.js'
import { readRecord } from '../../src/games/spaceships/rules/legality.js'
import { type PlayerStrategy, recordText } from '../../src/games/spaceships/session/strategy.js'
import { cli } from '../cli.js'

/** Records every move a strategy makes, checking each against the rules as it is made (C-17). */
function recorded(inner: PlayerStrategy, moves: string[], illegal: string[]): PlayerStrategy {
  return {
    setup: (r) => inner.setup(r),
    record: async (ctx) => {
      const text = recordText(await inner.record(ctx))
      if (text === undefined) throw new Error('a bot never resigns')
      const r = readRecord(ctx.ruleset, ctx.state, ctx.turn, text, 'strict')
      if (!r.ok) illegal.push(`turn ${ctx.turn}: ${text}`)
      moves.push(text)
      return text
    },
  }
}

describe('the medium bot, formerly strong', () => {
  it('is deterministic for a seed: the same seed gives the same setup and the same moves', async () => {
    const play = async (seed: string): Promise<string[]> => {
      const moves: string[] = []
      const setup = await makeBot('strong', seed).setup(DEFAULT_RULESET)
      await runArena({
        a: 'strong',
        b: 'strong',
        games: 2,
        seed,
        ruleset: DEFAULT_RULESET,
        fast: true,
        observe: (_side, bot) => recorded(bot, moves, []),
      })
      return [JSON.stringify(setup), ...moves]
    }
    expect(await play('det/1')).toEqual(await play('det/1'))
    expect(await play('det/1')).not.toEqual(await play('det/2'))
  })

  it('never submits an illegal record: thousands of moves in both variants, against itself and random (C-17)', async () => {
    const moves: string[] = []
    const illegal: string[] = []
    // Every move is checked strictly, as the opponent's verifier would, before the engine plays it.
    for (const [ruleset, b, games] of [
      [DEFAULT_RULESET, 'random', 120],
      [DEFAULT_RULESET, 'strong', 60],
      [CLASSIC_RULESET, 'strong', 40],
    ] as const) {
      const r = await runArena({
        a: 'strong',
        b,
        games,
        seed: `legal/${ruleset.variant}/${b}`,
        ruleset,
        fast: true,
        observe: (side, bot) => (side === 'a' || b === 'strong' ? recorded(bot, moves, illegal) : bot),
      })
      expect(r.failures).toEqual([])
    }
    expect(illegal).toEqual([])
    expect(moves.length).toBeGreaterThan(2000)
  }, 120_000)

  it('beats random in at least 95% of games, and is even against itself', async () => {
    const vsRandom = await runArena({
      a: 'strong',
      b: 'random',
      games: 100,
      seed: 'win',
      ruleset: DEFAULT_RULESET,
      fast: true,
    })
    expect(vsRandom.wins.a).toBeGreaterThanOrEqual(95)
    const vsSelf = await runArena({
      a: 'strong',
      b: 'strong',
      games: 60,
      seed: 'even',
      ruleset: DEFAULT_RULESET,
      fast: true,
    })
    expect(vsSelf.wins.a).toBeGreaterThanOrEqual(18)
    expect(vsSelf.wins.b).toBeGreaterThanOrEqual(18)
  }, 120_000)

  it('sees the same games with the full protocol as with the engine alone (same knowledge, same moves)', async () => {
    const fast = await runArena({
      a: 'strong',
      b: 'random',
      games: 6,
      seed: 'same',
      ruleset: DEFAULT_RULESET,
      fast: true,
    })
    const full = await runArena({
      a: 'strong',
      b: 'random',
      games: 6,
      seed: 'same',
      ruleset: DEFAULT_RULESET,
      fast: false,
    })
    expect(full.failures).toEqual([])
    expect({ ...full, mode: '', medianThinkMs: 0, p95ThinkMs: 0 }).toEqual({
      ...fast,
      mode: '',
      medianThinkMs: 0,
      p95ThinkMs: 0,
    })
  }, 60_000)

  it('spaceships arena reports wins, margin, length and think time; --json too', async () => {
    const r = await cli(['arena', '--a', 'strong', '--games', '4', '--fast', '--seed', 'cli'])
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/strong \(a\) against random \(b\): 4 games, rules engine only\n {2}a won 4 \(100%\)/)
    expect(r.out).toMatch(/think time per move: a median \d+\.\d\d ms/)
    const j = await cli(['arena', '--games', '2', '--a', 'random', '--b', 'random', '--json'])
    const report = JSON.parse(j.out) as { mode: string; wins: { a: number; b: number; draws: number } }
    expect(report.mode).toBe('protocol')
    expect(report.wins.a + report.wins.b + report.wins.draws).toBe(2)
    expect((await cli(['arena', '--a', 'grandmaster'])).code).toBe(64)
  }, 60_000)
})
