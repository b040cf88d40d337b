/**
 * hostGame and joinGame take an AbortSignal (NetGameCommon.signal): a host waiting for its joiner
 * gives up at once, and during the game the signal reaches the session, which stops the game by a
 * claim (SPEC §6.5) over the real connection.
 */
import type { Libp2p } from '@libp2p/interface'
import { describe, expect, it } from 'vitest'
import { seededSecrets } from '../../src/core/commit/secrets.js'
import { hostGame, joinGame } from '../../src/games/spaceships/net/game.js'
import type { SessionEvent } from '../../src/games/spaceships/session/session.js'
import type { PlayerStrategy } from '../../src/games/spaceships/session/strategy.js'
import { memoryStore } from '../../src/games/spaceships/protocol/file.js'
import { LOOPBACK, NET_TERMS, bot, playOverNet, testIdentity } from './helpers.js'

describe('AbortSignal on hostGame and joinGame', () => {
  it('a host aborted while it waits for its joiner rejects with the reason and stops its node; an aborted signal refuses to start', async () => {
    const stop = new AbortController()
    let node: Libp2p | undefined
    const started = Date.now()
    const host = hostGame({
      identity: await testIdentity('abort/host'),
      secrets: seededSecrets('abort/host'),
      store: memoryStore(),
      strategy: bot('abort/host'),
      listen: LOOPBACK,
      inviteId: '0123456789abcdef0123456789abcdef',
      terms: NET_TERMS,
      waitMs: 60_000,
      signal: stop.signal,
      onReady: (n) => {
        node = n
        stop.abort(new Error('the user gave up'))
      },
    })
    await expect(host).rejects.toThrow('the user gave up')
    expect(Date.now() - started).toBeLessThan(10_000)
    expect(node?.status).toBe('stopped')
    const common = {
      identity: await testIdentity('abort/join'),
      secrets: seededSecrets('abort/join'),
      store: memoryStore(),
      strategy: bot('abort/join'),
      listen: LOOPBACK,
      signal: AbortSignal.abort(new Error('too late')),
    }
    await expect(
      joinGame({
        ...common,
        invite: { id: '0123456789abcdef0123456789abcdef', peer: 'x', addrs: [], terms: NET_TERMS },
      }),
    ).rejects.toThrow('too late')
  })

  it('aborted during the game, the host stops it by a claim; the joiner answers and both end with the same verdict', async () => {
    const stop = new AbortController()
    const inner = bot('abort/net/A/bot')
    const stopping: PlayerStrategy = {
      setup: (r) => inner.setup(r),
      record: (ctx) => {
        if (ctx.turn === 2) stop.abort()
        return inner.record(ctx)
      },
    }
    const events: SessionEvent[] = []
    const game = await playOverNet('abort/net', {
      hostExtra: { strategy: stopping, signal: stop.signal, onSessionEvent: (e) => events.push(e) },
    })
    expect(events.flatMap((e) => (e.kind === 'stopped' ? [`${e.by} ${e.reason}: ${e.detail}`] : []))).toEqual([
      'A claim: the local node stopped the game',
    ])
    // After its stop the host still receives for replyMs (SPEC §6.5): it holds the joiner's answer.
    expect(game.host.transcript.length).toBe(game.join.transcript.length)
    expect(game.join.verdict).toEqual(game.host.verdict)
    expect(game.host.verdict.status).not.toBe('complete')
  })
})
