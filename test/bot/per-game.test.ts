/**
 * A bot made without a seed plays from its side's per-game secret (`makeBot`, `gameSecret`): two
 * games open differently, one secret replays exactly, and the secret follows from the seed the
 * side reveals at the end (SPEC §4.1, §7.8), so anyone holding a finished transcript can replay it.
 */
import { describe, expect, it } from 'vitest'
import { generateKeyPair } from '../../src/core/commit/keys.js'
import { seededSecrets } from '../../src/core/commit/secrets.js'
import { makeBot } from '../../src/games/spaceships/bot/levels.js'
import { initialPlayerState } from '../../src/games/spaceships/rules/state.js'
import { DEFAULT_RULESET } from '../../src/games/spaceships/rules/ruleset.js'
import { formatSetup } from '../../src/games/spaceships/rules/setup.js'
import { seededRandom } from '../../src/games/spaceships/rules/rng.js'
import type { Setup } from '../../src/games/spaceships/rules/setup.js'
import { memoryChannelPair } from '../../src/core/session/channel.js'
import { runSession } from '../../src/games/spaceships/session/session.js'
import {
  type PlayerStrategy,
  gameSecret,
  recordText,
  randomStrategy,
} from '../../src/games/spaceships/session/strategy.js'
import { formatTranscript, memoryStore } from '../../src/games/spaceships/protocol/file.js'
import { partsOf } from '../helpers.js'
import { TERMS } from '../session/helpers.js'

/** Few sweeps: the opening and the setup are what these tests look at, and they stay fast. */
const WORK = 1

async function opening(bot: PlayerStrategy): Promise<{ setup: string; first: string }> {
  const setup = await bot.setup(DEFAULT_RULESET)
  const first = await bot.record({
    role: 'A',
    ruleset: DEFAULT_RULESET,
    turn: 1,
    state: initialPlayerState(setup),
    history: [],
  })
  const text = recordText(first)
  if (text === undefined) throw new Error('a bot resigned in turn 1')
  return { setup: formatSetup(setup), first: text }
}

function begun(secret: Uint8Array): PlayerStrategy {
  const bot = makeBot('hard', undefined, WORK)
  bot.begin?.(secret)
  return bot
}

/** A game between a per-game hard bot (B) and a seeded random player (A), to the end of turn 2. */
async function playAsB(secretsSeed: string): Promise<string> {
  const pair = memoryChannelPair()
  const terms = { ...TERMS, maxTurns: 2 }
  const side = (role: 'A' | 'B', k: 0 | 1, strategy: PlayerStrategy) => {
    const secrets = seededSecrets(`${secretsSeed}/${role}`)
    return runSession({
      role,
      keys: generateKeyPair(secrets),
      terms,
      secrets,
      store: memoryStore(),
      channel: pair.ends[k],
      strategy,
    })
  }
  const [a] = await Promise.all([
    side('A', 0, randomStrategy(seededRandom('per-game/A'))),
    side('B', 1, makeBot('hard', undefined, WORK)),
  ])
  expect(a.verdict.status).toBe('complete')
  return formatTranscript(a.transcript)
}

describe('the bots play from the per-game secret', () => {
  it('two games of the hard bot with different secrets open differently: another setup and another first volley', async () => {
    const [x, y] = await Promise.all([
      opening(begun(gameSecret(new Uint8Array(32).fill(1)))),
      opening(begun(gameSecret(new Uint8Array(32).fill(2)))),
    ])
    expect(x.setup).not.toBe(y.setup)
    expect(x.first).not.toBe(y.first)
  })

  it('the first volley varies from game to game: over 8 games, no strike target is in every one', async () => {
    const volleys = await Promise.all(
      Array.from({ length: 8 }, (_, i) => opening(begun(gameSecret(new Uint8Array(32).fill(10 + i))))),
    )
    const targets = volleys.map((v) => new Set(v.first.split(/\s+/)))
    const common = [...(targets[0] ?? [])].filter((t) => targets.every((s) => s.has(t)))
    expect(common.filter((t) => /^[ROYGB][v-z][1-5]$/.test(t))).toEqual([])
  })

  it('one secret replays exactly, at every level', async () => {
    const secret = gameSecret(new Uint8Array(32).fill(7))
    for (const level of ['hard', 'medium', 'easy', 'random'] as const) {
      const make = (): PlayerStrategy => {
        const bot = makeBot(level, undefined, WORK)
        bot.begin?.(secret)
        return bot
      }
      expect(await opening(make())).toEqual(await opening(make()))
    }
  })

  it('an explicit seed wins over the session: such a bot takes no secret, and the same seed plays the same opening', async () => {
    expect('begin' in makeBot('hard', 'fixed', WORK)).toBe(false)
    expect(await opening(makeBot('hard', 'fixed', WORK))).toEqual(await opening(makeBot('hard', 'fixed', WORK)))
  })

  it('is derived from the seed the side reveals: the reveal alone replays its setup and its records (SPEC §7.8)', async () => {
    const transcript = await playAsB('per-game/replay')
    const [reveal] = partsOf(transcript, 'B', 'reveal')
    if (reveal === undefined) throw new Error('B revealed nothing')
    const replay = makeBot('hard', undefined, WORK)
    replay.begin?.(gameSecret(reveal.seed))
    const setup: Setup = await replay.setup(DEFAULT_RULESET)
    const canonical = (ships: readonly { type: string; id: number; cells: readonly number[] }[]): string =>
      JSON.stringify(ships.map((s) => [s.type, s.id, [...s.cells].sort((p, q) => p - q)]).sort())
    expect(canonical(setup)).toBe(canonical(reveal.setup))
    const first = await replay.record({
      role: 'B',
      ruleset: DEFAULT_RULESET,
      turn: 1,
      state: initialPlayerState(setup),
      history: [],
    })
    expect(first).toBe(reveal.records[0])
  })

  it('two sessions with other secrets give the bot other games (the session calls begin before the setup)', async () => {
    const [x, y] = await Promise.all([playAsB('per-game/one'), playAsB('per-game/two')])
    const revealOf = (t: string) => partsOf(t, 'B', 'reveal')[0]
    expect(JSON.stringify(revealOf(x)?.setup)).not.toBe(JSON.stringify(revealOf(y)?.setup))
    expect(revealOf(x)?.records[0]).not.toBe(revealOf(y)?.records[0])
  })
})
