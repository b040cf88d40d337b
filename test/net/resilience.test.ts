import { lpStream } from '@libp2p/utils'
import { multiaddr } from '@multiformats/multiaddr'
import type { Libp2p } from '@libp2p/interface'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { seededSecrets } from '../../src/core/commit/secrets.js'
import { type NetEvent, JOIN_PREAMBLE, hostGame, joinGame, redialDelay } from '../../src/games/spaceships/net/game.js'
import type { Invite } from '../../src/games/spaceships/net/invite.js'
import { createPeerNode, createRelayNode } from '../../src/core/net/node.js'
import { memoryJournal } from '../../src/games/spaceships/session/journal.js'
import type { PlayerStrategy } from '../../src/games/spaceships/session/strategy.js'
import { StorageError } from '../../src/games/spaceships/session/store.js'
import { type TranscriptStore, formatTranscript, memoryStore } from '../../src/games/spaceships/protocol/file.js'
import { PROTOCOL_ID } from '../../src/games/spaceships/protocol/messages.js'
import { verifyTranscript } from '../../src/games/spaceships/verify/verify.js'
import { envelopesOf, partsOf } from '../helpers.js'
import { LOOPBACK, NET_TERMS, bot, playOverNet, testIdentity, waitFor } from './helpers.js'

const INVITE_ID = 'fedcba9876543210fedcba9876543210'

/** A host that admits whoever presents INVITE_ID; resolves its invite once listening. */
async function startHost(seed: string, terms = NET_TERMS, events: NetEvent[] = []) {
  const identity = await testIdentity(`${seed}/host`)
  let ready: (i: Invite) => void = () => undefined
  const invite = new Promise<Invite>((r) => (ready = r))
  const result = hostGame({
    identity,
    secrets: seededSecrets(`${seed}/A`),
    store: memoryStore(),
    strategy: bot(`${seed}/A/bot`),
    listen: LOOPBACK,
    inviteId: INVITE_ID,
    terms,
    waitMs: 20_000,
    onEvent: (e) => events.push(e),
    onReady: (node) => {
      ready({ id: INVITE_ID, peer: identity.peerId.toString(), addrs: node.getMultiaddrs().map(String), terms })
    },
  })
  return { identity, invite: await invite, result, events }
}

describe('a peer node under hostile or failing conditions (SPEC §2.1, §2.2)', () => {
  it("hostile bytes from a peer holding the invite are nobody's evidence: no conviction, no crash, the game never starts (SPEC §2.1, §5.4)", async () => {
    for (const [label, frame] of [
      ['garbage', new TextEncoder().encode('{"v":1,"this is":"not an envelope"}')],
      ['oversized', new Uint8Array([0xff, 0xff, 0xff, 0x7f])],
    ] as const) {
      const host = await startHost(`hostile/${label}`, { ...NET_TERMS, replyMs: 2000 })
      const attacker = await createPeerNode({
        identity: await testIdentity(`hostile/${label}/attacker`),
        listen: [],
        admission: () => 'anyone',
      })
      await attacker.start()
      const stream = await attacker.dialProtocol(
        host.invite.addrs.map((a) => multiaddr(a)),
        PROTOCOL_ID,
      )
      const lp = lpStream(stream, { maxDataLength: 1 << 20 })
      await lp.write(new TextEncoder().encode(JOIN_PREAMBLE + INVITE_ID))
      if (label === 'oversized') lp.unwrap().send(frame)
      else await lp.write(frame)
      const r = await host.result
      await attacker.stop()
      // Bytes that do not decode to a signed envelope are attributable to nobody: no offence.
      expect(r.verdict.status, label).toBe('incomplete')
      if (r.verdict.status === 'incomplete') expect(r.verdict.reason, label).toBe('no-game')
      // The host's transcript holds only what it signed itself: its hello, and its claim.
      expect(
        envelopesOf(formatTranscript(r.transcript)).map((e) => e.envelope.sender),
        label,
      ).not.toContain('B')
    }
  }, 60_000)

  it('a stranger without the invite is refused, and the invited joiner still plays (SPEC §2.3)', async () => {
    const host = await startHost('stranger')
    const stranger = await createPeerNode({
      identity: await testIdentity('stranger/x'),
      listen: [],
      admission: () => 'anyone',
    })
    await stranger.start()
    const s = await stranger.dialProtocol(
      host.invite.addrs.map((a) => multiaddr(a)),
      PROTOCOL_ID,
    )
    await lpStream(s).write(new TextEncoder().encode(JOIN_PREAMBLE + '00000000000000000000000000000000'))
    await waitFor(() => host.events.some((e) => e.kind === 'refused' && e.why === 'presented the wrong invite'))
    const joined = await joinGame({
      identity: await testIdentity('stranger/join'),
      secrets: seededSecrets('stranger/B'),
      store: memoryStore(),
      strategy: bot('stranger/B/bot'),
      listen: LOOPBACK,
      invite: host.invite,
    })
    const hosted = await host.result
    expect(hosted.verdict.status).toBe('complete')
    expect(joined.verdict).toEqual(hosted.verdict)
    // Once the opponent is known, the gater refuses the stranger's connection outright.
    await stranger.hangUp(host.identity.peerId).catch(() => undefined)
    await stranger.stop()
  }, 60_000)

  it('after the opponent is admitted, a stranger cannot even connect (connection gater)', async () => {
    const host = await startHost('gater')
    const joiner = await testIdentity('gater/join')
    let thinking: () => void = () => undefined
    const pause = new Promise<void>((r) => (thinking = r))
    // The joiner is slow on turn 2, so the game is certainly running while the stranger dials.
    const slow: PlayerStrategy = {
      setup: (r) => bot('gater/B/bot').setup(r),
      record: async (ctx) => {
        if (ctx.turn === 2) await pause
        return bot(`gater/B/${ctx.turn}`).record(ctx)
      },
    }
    const joined = joinGame({
      identity: joiner,
      secrets: seededSecrets('gater/B'),
      store: memoryStore(),
      strategy: slow,
      listen: LOOPBACK,
      invite: host.invite,
    })
    await waitFor(() => host.events.some((e) => e.kind === 'connected'))
    const stranger = await createPeerNode({
      identity: await testIdentity('gater/x'),
      listen: [],
      admission: () => 'anyone',
    })
    await stranger.start()
    await expect(
      stranger.dialProtocol(
        host.invite.addrs.map((a) => multiaddr(a)),
        PROTOCOL_ID,
      ),
    ).rejects.toThrow()
    await stranger.stop()
    expect(host.events.some((e) => e.kind === 'refused' && e.why === 'not the opponent of this game')).toBe(true)
    thinking()
    const [h, j] = await Promise.all([host.result, joined])
    expect(h.verdict.status).toBe('complete')
    expect(j.verdict).toEqual(h.verdict)
  }, 60_000)

  it('a game through a circuit relay on loopback, the host reachable only through the relay (a host behind NAT)', async () => {
    const [hostId, joinId, relayId] = await Promise.all([
      testIdentity('relay/1/host'),
      testIdentity('relay/1/join'),
      testIdentity('relay/1/relay'),
    ])
    const relay = await createRelayNode({
      identity: relayId,
      listen: LOOPBACK,
      admission: () => new Set([hostId.peerId.toString(), joinId.peerId.toString()]),
    })
    await relay.start()
    const relayAddr = relay
      .getMultiaddrs()
      .map(String)
      .find((a) => a.includes('127.0.0.1'))
    if (relayAddr === undefined) throw new Error('relay has no address')
    const g = await playOverNet('relay/1', { hostListen: ['/p2p-circuit'], joinListen: [], relays: [relayAddr] })
    await relay.stop()
    expect(g.host.verdict.status).toBe('complete')
    expect(g.join.verdict).toEqual(g.host.verdict)
    expect(g.events.host.some((e) => e.kind === 'connected' && e.relayed)).toBe(true)
    expect(verifyTranscript(formatTranscript(g.join.transcript))).toEqual(g.host.verdict)
  }, 60_000)

  it('a joiner that dies and stays away past the reply deadline: the host signs an abandonment verdict naming B (SPEC §2.2, §7.6)', async () => {
    const host = await startHost('abandon', { ...NET_TERMS, turnMs: 2000, replyMs: 2000 })
    const honest = bot('abandon/B/bot')
    const dying: PlayerStrategy = {
      setup: (r) => honest.setup(r),
      record: (ctx) => {
        if (ctx.turn === 4) throw new Error('gone for good')
        return honest.record(ctx)
      },
    }
    await expect(
      joinGame({
        identity: await testIdentity('abandon/join'),
        secrets: seededSecrets('abandon/B'),
        store: memoryStore(),
        strategy: dying,
        listen: LOOPBACK,
        invite: host.invite,
      }),
    ).rejects.toThrow('gone for good')
    const r = await host.result
    // SPEC §12.7 rule 7: B stopped answering and never revealed; A claimed and revealed: B loses.
    expect(r.verdict).toMatchObject({ status: 'abandoned', by: 'B', how: 'no-reveal', winner: 'A', claimedBy: 'A' })
    // The evidence is signed: the host's claim and reveal close its transcript, and a third party
    // reading it reaches the same result.
    const parts = partsOf(formatTranscript(r.transcript), 'A', 'stop')
    expect(parts.map((p) => p.reason)).toEqual(['claim'])
    expect(verifyTranscript(formatTranscript(r.transcript))).toEqual(r.verdict)
  }, 60_000)

  it('a joiner that dies mid-game and restarts with its transcript and journal finishes the game; nothing is lost or duplicated (SPEC §2.2)', async () => {
    const host = await startHost('resume')
    const identity = await testIdentity('resume/join')
    const store = memoryStore()
    const journal = memoryJournal()
    const honest = bot('resume/B/bot')
    const crashing: PlayerStrategy = {
      setup: (r) => honest.setup(r),
      record: (ctx) => {
        if (ctx.turn === 6) throw new Error('simulated crash')
        return honest.record(ctx)
      },
    }
    const options = {
      identity,
      secrets: seededSecrets('resume/B'),
      store,
      journal,
      listen: LOOPBACK,
      invite: host.invite,
    }
    await expect(joinGame({ ...options, strategy: crashing })).rejects.toThrow('simulated crash')
    const before = store.envelopes().length
    // The restart draws different secrets: the journal must win, or it would equivocate.
    const second = await joinGame({ ...options, secrets: seededSecrets('resume/B/other'), strategy: honest })
    const hosted = await host.result
    expect(before).toBeGreaterThan(10)
    expect(hosted.verdict.status).toBe('complete')
    expect(second.verdict).toEqual(hosted.verdict)
    expect(new Set(second.transcript.map((b) => Buffer.from(b).toString('base64'))).size).toBe(second.transcript.length)
    expect(verifyTranscript(formatTranscript(hosted.transcript))).toEqual(hosted.verdict)
    expect(verifyTranscript(formatTranscript(second.transcript))).toEqual(hosted.verdict)
  }, 60_000)

  it('a full disk stops the joiner cleanly before it signs or sends anything more; once space is free it resumes and the game finishes (SPEC §2.2, §11)', async () => {
    const host = await startHost('disk-full')
    const inner = memoryStore()
    let full = false
    const store: TranscriptStore = {
      append(bytes) {
        if (full) throw new StorageError('cannot write the transcript t: the disk is full')
        inner.append(bytes)
        if (inner.envelopes().length === 14) full = true
      },
      envelopes: () => inner.envelopes(),
    }
    const options = {
      identity: await testIdentity('disk-full/join'),
      secrets: seededSecrets('disk-full/B'),
      store,
      journal: memoryJournal(),
      listen: LOOPBACK,
      invite: host.invite,
      strategy: bot('disk-full/B/bot'),
    }
    await expect(joinGame(options)).rejects.toThrow(StorageError)
    const kept = inner.envelopes().length
    full = false
    const second = await joinGame(options)
    const hosted = await host.result
    expect(kept).toBe(14)
    expect(hosted.verdict.status).toBe('complete')
    expect(second.verdict).toEqual(hosted.verdict)
    expect(verifyTranscript(formatTranscript(second.transcript))).toEqual(hosted.verdict)
  }, 60_000)

  it('a connection cut three times mid-game: the joiner redials, both sides see it lost and restored with the deadline, and the game completes identically (SPEC §2.2)', async () => {
    let hostNode: Libp2p | undefined
    let received = 0
    const g = await playOverNet('cut', {
      onHostNode: (n) => (hostNode = n),
      hostExtra: {
        onSessionEvent: (e) => {
          if (e.kind !== 'envelope' || e.direction !== 'received') return
          received++
          if (received === 10 || received === 20 || received === 30)
            for (const c of hostNode?.getConnections() ?? []) void c.close()
        },
      },
    })
    expect(g.host.verdict.status).toBe('complete')
    expect(g.join.verdict).toEqual(g.host.verdict)
    for (const side of [g.events.host, g.events.join]) {
      expect(side.filter((e) => e.kind === 'disconnected').length).toBeGreaterThanOrEqual(1)
      expect(side.some((e) => e.kind === 'disconnected' && typeof e.deadline === 'number')).toBe(true)
      expect(side.some((e) => e.kind === 'connected' && e.restored)).toBe(true)
    }
  }, 60_000)
})

describe('redial backoff (SPEC §2.2)', () => {
  it('doubles up to its cap, but never past a quarter of the time left before the deadline, and never below its floor', () => {
    expect(redialDelay(250, undefined)).toBe(500)
    expect(redialDelay(4000, undefined)).toBe(5000)
    expect(redialDelay(4000, 2000)).toBe(500)
    expect(redialDelay(4000, 100)).toBe(250)
    fc.assert(
      fc.property(
        fc.integer({ min: 250, max: 5000 }),
        fc.option(fc.integer({ min: -10_000, max: 600_000 }), { nil: undefined }),
        (previous, left) => {
          const d = redialDelay(previous, left)
          expect(d).toBeGreaterThanOrEqual(250)
          expect(d).toBeLessThanOrEqual(5000)
          if (left !== undefined) expect(d).toBeLessThanOrEqual(Math.max(250, left / 4))
        },
      ),
    )
  })
})
