/**
 * `onEnvelope` of `hostGame` / `joinGame` (spaceships/net): every envelope a side persists
 * (SPEC §11) is reported once, as 'sent' (its own) or 'received' (the other side's), in the order
 * of its transcript, and a game resumed from its store reports only what it persists itself.
 */
import { describe, expect, it } from 'vitest'
import { seededSecrets } from '../../src/core/commit/secrets.js'
import type { SealedEnvelope } from '../../src/games/spaceships/protocol/envelope.js'
import { memoryStore } from '../../src/games/spaceships/protocol/file.js'
import type { Role } from '../../src/games/spaceships/protocol/messages.js'
import { hostGame, joinGame } from '../../src/games/spaceships/net/game.js'
import type { Invite } from '../../src/games/spaceships/net/invite.js'
import { memoryJournal } from '../../src/games/spaceships/session/journal.js'
import type { PlayerStrategy } from '../../src/games/spaceships/session/strategy.js'
import { LOOPBACK, NET_TERMS, bot, testIdentity } from './helpers.js'

const INVITE_ID = '00112233445566778899aabbccddeeff'

interface Reported {
  readonly bytes: string
  readonly direction: 'sent' | 'received'
  readonly sender: Role
}

const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')
const recorder =
  (into: Reported[]) =>
  (s: SealedEnvelope, direction: 'sent' | 'received'): void =>
    void into.push({ bytes: hex(s.bytes), direction, sender: s.envelope.sender })

/** A host (A) reporting its envelopes into `reported`; resolves its invite once listening. */
async function startHost(seed: string, reported: Reported[]) {
  const identity = await testIdentity(`${seed}/host`)
  const store = memoryStore()
  let ready: (i: Invite) => void = () => undefined
  const invite = new Promise<Invite>((r) => (ready = r))
  const result = hostGame({
    identity,
    secrets: seededSecrets(`${seed}/A`),
    store,
    strategy: bot(`${seed}/A/bot`),
    listen: LOOPBACK,
    inviteId: INVITE_ID,
    terms: NET_TERMS,
    waitMs: 20_000,
    onEnvelope: recorder(reported),
    onReady: (node) => {
      ready({
        id: INVITE_ID,
        peer: identity.peerId.toString(),
        addrs: node.getMultiaddrs().map(String),
        terms: NET_TERMS,
      })
    },
  })
  return { invite: await invite, result, store }
}

/** What a side's transcript says it should have reported: each envelope once, in order, by sender. */
const expected = (transcript: readonly Uint8Array[], me: Role): Reported[] =>
  transcript.map((b) => {
    const sender: Role = b[1] === 0 ? 'A' : 'B'
    return { bytes: hex(b), direction: sender === me ? 'sent' : 'received', sender }
  })

describe('onEnvelope: the envelopes a node persists (spaceships/net, SPEC §11)', () => {
  it('SPEC §11: host and joiner each report every envelope they persist exactly once, as sent or received, in transcript order', async () => {
    const fromHost: Reported[] = []
    const fromJoin: Reported[] = []
    const host = await startHost('on-envelope', fromHost)
    const joined = await joinGame({
      identity: await testIdentity('on-envelope/join'),
      secrets: seededSecrets('on-envelope/B'),
      store: memoryStore(),
      strategy: bot('on-envelope/B/bot'),
      listen: LOOPBACK,
      invite: host.invite,
      onEnvelope: recorder(fromJoin),
    })
    const hosted = await host.result
    expect(hosted.verdict.status).toBe('complete')
    expect(fromHost).toEqual(expected(hosted.transcript, 'A'))
    expect(fromJoin).toEqual(expected(joined.transcript, 'B'))
    for (const r of [fromHost, fromJoin]) {
      expect(r.some((x) => x.direction === 'sent')).toBe(true)
      expect(r.some((x) => x.direction === 'received')).toBe(true)
    }
  }, 60_000)

  it('SPEC §2.2, §11: a joiner restarted from its store reports only what it persists after the restart; both runs together report its transcript once', async () => {
    const host = await startHost('on-envelope/resume', [])
    const store = memoryStore()
    const journal = memoryJournal()
    const honest = bot('on-envelope/resume/B/bot')
    const crashing: PlayerStrategy = {
      setup: (r) => honest.setup(r),
      record: (ctx) => {
        if (ctx.turn === 4) throw new Error('simulated crash')
        return honest.record(ctx)
      },
    }
    const options = {
      identity: await testIdentity('on-envelope/resume/join'),
      secrets: seededSecrets('on-envelope/resume/B'),
      store,
      journal,
      listen: LOOPBACK,
      invite: host.invite,
    }
    const first: Reported[] = []
    await expect(joinGame({ ...options, strategy: crashing, onEnvelope: recorder(first) })).rejects.toThrow(
      'simulated crash',
    )
    const held = store.envelopes().length
    expect(held).toBeGreaterThan(4)
    expect(first).toEqual(expected(store.envelopes(), 'B'))
    const second: Reported[] = []
    const resumed = await joinGame({ ...options, strategy: honest, onEnvelope: recorder(second) })
    expect((await host.result).verdict.status).toBe('complete')
    expect(second).toEqual(expected(resumed.transcript.slice(held), 'B'))
    expect([...first, ...second]).toEqual(expected(resumed.transcript, 'B'))
  }, 60_000)
})
