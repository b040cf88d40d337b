/**
 * A session stopped from outside (SessionOptions.signal): before the game exists nothing more is
 * signed; during the game this side stops it by a claim (SPEC §6.5) and the session ends.
 */
import { describe, expect, it } from 'vitest'
import { generateKeyPair } from '../../src/core/commit/keys.js'
import { seededSecrets } from '../../src/core/commit/secrets.js'
import { seededRandom } from '../../src/games/spaceships/rules/rng.js'
import { memoryChannelPair } from '../../src/core/session/channel.js'
import { VirtualClock } from '../../src/core/session/clock.js'
import { type SessionEvent, runSession } from '../../src/games/spaceships/session/session.js'
import { type PlayerStrategy, randomStrategy } from '../../src/games/spaceships/session/strategy.js'
import { memoryStore } from '../../src/games/spaceships/protocol/file.js'
import { TERMS } from './helpers.js'

describe('SessionOptions.signal: stopping a session from outside', () => {
  it("aborted before the peer's hello: A signs nothing after its hello and the session ends (SPEC §6.1: no game yet)", async () => {
    const pair = memoryChannelPair()
    const stop = new AbortController()
    const secrets = seededSecrets('abort/early/A')
    const store = memoryStore()
    const events: SessionEvent[] = []
    const result = runSession({
      role: 'A',
      keys: generateKeyPair(secrets),
      terms: TERMS,
      secrets,
      store,
      channel: pair.ends[0],
      strategy: randomStrategy(seededRandom('abort/early')),
      signal: stop.signal,
      onEvent: (e) => events.push(e),
    })
    await new Promise((r) => setTimeout(r, 20))
    stop.abort()
    const r = await result
    expect(r.transcript.length).toBe(1)
    expect(r.verdict.status).toBe('incomplete')
    expect(events.filter((e) => e.kind === 'stopped')).toEqual([])
  })

  it('aborted during the game: this side stops it by a claim, the peer answers with its stop, both sessions end (SPEC §6.5)', async () => {
    const clock = new VirtualClock()
    const pair = memoryChannelPair(undefined, clock)
    const stop = new AbortController()
    const events: [SessionEvent[], SessionEvent[]] = [[], []]
    const random = randomStrategy(seededRandom('abort/mid/A'))
    // A's own player stops the game from outside while it decides turn 3.
    const stopping: PlayerStrategy = {
      setup: (r) => random.setup(r),
      record: (ctx) => {
        if (ctx.turn === 3) stop.abort()
        return random.record(ctx)
      },
    }
    const side = (role: 'A' | 'B', k: 0 | 1) => {
      const secrets = seededSecrets(`abort/mid/${role}`)
      return runSession({
        role,
        keys: generateKeyPair(secrets),
        terms: TERMS,
        secrets,
        store: memoryStore(),
        channel: pair.ends[k],
        clock,
        strategy: k === 0 ? stopping : randomStrategy(seededRandom('abort/mid/B')),
        onEvent: (e) => events[k].push(e),
        ...(k === 0 ? { signal: stop.signal } : {}),
      })
    }
    const [a, b] = await clock.settle([side('A', 0), side('B', 1)])
    const stopsOf = (k: 0 | 1) =>
      events[k].flatMap((e) => (e.kind === 'stopped' ? [`${e.by} ${e.reason}: ${e.detail}`] : []))
    expect(stopsOf(0)).toEqual(['A claim: the local node stopped the game'])
    expect(stopsOf(1)).toEqual(['A claim: the local node stopped the game', 'B answer: A stopped'])
    // After its stop A still receives for replyMs (SPEC §6.5): it holds B's answer too.
    expect(a.transcript.length).toBe(b.transcript.length)
    expect(b.verdict).toEqual(a.verdict)
    expect(a.verdict.status).not.toBe('complete')
  })
})
