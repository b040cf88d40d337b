import { mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { runArena } from '../../src/games/spaceships/arena/arena.js'
import { type BotName, makeBot } from '../../src/games/spaceships/bot/levels.js'
import { CLASSIC_RULESET, DEFAULT_RULESET, type Ruleset } from '../../src/games/spaceships/rules/ruleset.js'
import { cli } from '../cli.js'
import { recorded } from './recorded.js'

/** Setups and moves of both sides over two fast games (the bots swap sides in the second). */
async function transcriptOf(a: BotName, b: BotName, seed: string, ruleset: Ruleset, work?: number): Promise<string[]> {
  const moves: string[] = []
  const r = await runArena({
    a,
    b,
    games: 2,
    seed,
    ruleset,
    fast: true,
    ...(work === undefined ? {} : { work }),
    observe: (_side, bot) => recorded(bot, moves, []),
  })
  expect(r.failures).toEqual([])
  return moves
}

/** A machine whose clock races: every reading is a second later than the last. */
function racingClock(): void {
  let now = 0
  vi.spyOn(performance, 'now').mockImplementation(() => (now += 1000))
  vi.spyOn(Date, 'now').mockImplementation(() => (now += 1000))
}

afterEach(() => {
  vi.restoreAllMocks()
})

describe('bot levels: easy, medium, hard', () => {
  it('every level is deterministic for a seed: same seed, same setups and moves; another seed, other ones', async () => {
    for (const level of ['hard', 'medium', 'easy'] as const) {
      const first = await transcriptOf(level, 'random', `det/${level}`, DEFAULT_RULESET)
      expect(await transcriptOf(level, 'random', `det/${level}`, DEFAULT_RULESET)).toEqual(first)
      expect(await transcriptOf(level, 'random', `det/${level}/other`, DEFAULT_RULESET)).not.toEqual(first)
    }
  })

  it('every level replays exactly on a machine whose clock races, at the default and at a small work budget (no search is timed)', async () => {
    const games: [BotName, BotName, Ruleset, number | undefined][] = [
      ['hard', 'medium', DEFAULT_RULESET, undefined],
      ['hard', 'easy', CLASSIC_RULESET, 1],
      ['medium', 'easy', CLASSIC_RULESET, undefined],
    ]
    const calm = []
    for (const [a, b, ruleset, work] of games) calm.push(await transcriptOf(a, b, `clock/${a}/${b}`, ruleset, work))
    racingClock()
    for (const [k, [a, b, ruleset, work]] of games.entries())
      expect(await transcriptOf(a, b, `clock/${a}/${b}`, ruleset, work), `${a} against ${b}`).toEqual(calm[k])
  })

  it('the work budget is a real knob: a small budget replays exactly, and plays other moves than the default', async () => {
    const small = await transcriptOf('hard', 'medium', 'work', DEFAULT_RULESET, 1)
    expect(await transcriptOf('hard', 'medium', 'work', DEFAULT_RULESET, 1)).toEqual(small)
    expect(await transcriptOf('hard', 'medium', 'work', DEFAULT_RULESET)).not.toEqual(small)
  })

  it('the levels are ordered: hard and medium beat random every time, medium beats easy, easy beats random', async () => {
    for (const level of ['hard', 'medium'] as const) {
      const r = await runArena({
        a: level,
        b: 'random',
        games: 10,
        seed: 'order',
        ruleset: DEFAULT_RULESET,
        fast: true,
      })
      expect(r.wins.a, level).toBe(10)
    }
    const me = await runArena({
      a: 'medium',
      b: 'easy',
      games: 40,
      seed: 'order',
      ruleset: DEFAULT_RULESET,
      fast: true,
    })
    expect(me.wins.a, JSON.stringify(me.wins)).toBeGreaterThanOrEqual(28)
    const er = await runArena({
      a: 'easy',
      b: 'random',
      games: 20,
      seed: 'order',
      ruleset: DEFAULT_RULESET,
      fast: true,
    })
    expect(er.wins.a, JSON.stringify(er.wins)).toBeGreaterThanOrEqual(18)
  })

  it('an arena run played in slices (firstGame) plays exactly the games of one run', async () => {
    const play = async (firstGame: number, games: number): Promise<string[]> => {
      const moves: string[] = []
      await runArena({
        a: 'hard',
        b: 'easy',
        games,
        firstGame,
        seed: 'slices',
        ruleset: CLASSIC_RULESET,
        fast: true,
        work: 1,
        observe: (_side, bot) => recorded(bot, moves, []),
      })
      return moves
    }
    const whole = await play(0, 4)
    expect([...(await play(0, 1)), ...(await play(1, 3))]).toEqual(whole)
  })

  it('strong is the old name of medium: same seed, same game', async () => {
    const setup = async (name: BotName): Promise<string> =>
      JSON.stringify(await makeBot(name, 'alias').setup(DEFAULT_RULESET))
    expect(await setup('strong')).toBe(await setup('medium'))
    expect(await setup('hard')).not.toBe(await setup('medium'))
    expect(await transcriptOf('strong', 'random', 'alias', CLASSIC_RULESET)).toEqual(
      await transcriptOf('medium', 'random', 'alias', CLASSIC_RULESET),
    )
  })
})

describe('the levels on the command line', () => {
  it('arena names the levels, defaults to hard against random, and takes a work budget', async () => {
    const r = await cli(['arena', '--games', '2', '--fast', '--seed', 'cli-levels', '--work', '2'])
    expect(r.code, r.err).toBe(0)
    expect(r.out).toMatch(/^hard \(a\) against random \(b\): 2 games, rules engine only\n/)
    expect((await cli(['arena', '--games', '2', '--fast', '--work', '0'])).code).toBe(64)
    const bad = await cli(['arena', '--a', 'grandmaster'])
    expect(bad.code).toBe(64)
    expect(bad.err).toContain('hard, medium, easy, random, strong')
  })

  it('play offers --bot easy|medium|hard, hard by default, and refuses any other name before it opens a connection', async () => {
    // The help as one line: commander wraps it to the terminal's width.
    const help = (await cli(['play', '--help'])).out.replace(/\s+/g, ' ')
    expect(help).toMatch(
      /--bot <name> the built-in bot: hard, medium \(its old name: strong\), easy or random; your opponent, and with --autoplay your side too \(default: "hard"\)/,
    )
    const home = mkdtempSync(join(tmpdir(), 'spaceships-levels-'))
    try {
      const bad = await cli(
        ['play', '--bot', 'grandmaster', '--autoplay', '--json'],
        {},
        { env: { XDG_CONFIG_HOME: home, XDG_STATE_HOME: home } },
      )
      expect(bad.code).toBe(64)
      expect(bad.err).toContain('--bot: no bot "grandmaster"; choose hard, medium, easy or random')
      // No identity made, no game begun.
      expect(readdirSync(home)).toEqual([])
    } finally {
      rmSync(home, { recursive: true, force: true })
    }
  })
})
