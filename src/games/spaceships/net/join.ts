/**
 * The joiner's side of a game (SPEC §2.2, §2.3): it dials the host from the invite (directly or
 * through its relays), presents the invite on every stream, redials a lost stream as the pacer
 * allows, stops when the host refuses too often, and plays as B.
 */
import { peerIdFromString } from '@libp2p/peer-id'
import { lpStream } from '@libp2p/utils'
import { multiaddr } from '@multiformats/multiaddr'
import { createPeerNode, dialRelays } from '../../../core/net/node.js'
import { type StreamChannel, streamChannel } from '../../../core/net/stream-channel.js'
import { systemClock } from '../../../core/session/clock.js'
import { LIMITS, PROTOCOL_IDS, PROTOCOL_VERSION } from '../protocol/messages.js'
import { versionOfEnvelopes } from '../protocol/file.js'
import type { SessionResult } from '../session/session.js'
import { ADMISSION_GRACE_MS, PREAMBLE_MAX_BYTES, preamble, refusalOf } from './admission.js'
import { DialPacer } from './dial-pacer.js'
import { relaysOf } from './invite.js'
import { type JoinOptions, NotServedError } from './options.js'
import { DeadlineWatch, finish, isRelayed, keyOf, logged, offerChat, peerIdsOf } from './plumbing.js'
import { playGames } from './rematch.js'

/** Joins a game from its invite: dials the host (directly or through its relays), plays as B. */
export async function joinGame(options: JoinOptions): Promise<SessionResult> {
  options.signal?.throwIfAborted()
  // SPEC §1: a resumed game keeps its transcript's version; a new one is the invite's.
  const held = options.store.envelopes()
  const version = held.length > 0 ? versionOfEnvelopes(held) : (options.invite.version ?? PROTOCOL_VERSION)
  // PROTOCOL-4.md §3: a witnessed game's notary, named by the invite's addresses.
  const notary = options.notary ?? (options.invite.notary === undefined ? undefined : { addrs: options.invite.notary })
  const o = { ...options, version, ...(notary === undefined ? {} : { notary }), onEvent: logged(options.onEvent) }
  const invite = o.invite
  // The relays, and a witnessed game's notary (PROTOCOL-4.md §4), are let through the gate too.
  const relayPeers = [...relaysOf(invite.addrs), ...peerIdsOf(o.relays ?? []), ...peerIdsOf(o.notary?.addrs ?? [])]
  const node = await createPeerNode({
    identity: o.identity,
    listen: o.listen,
    admission: () => new Set([invite.peer, ...relayPeers]),
    onRefused: (peer) => {
      o.onEvent({ kind: 'refused', peer, why: 'not the host of this game' })
    },
  })
  o.onOpponent?.(invite.peer)
  const hostAddrs = invite.addrs.map((a) => multiaddr(a))
  let dialing = false
  let lost = false
  // SPEC §2.3, §2.4: the invite id this side presents on a new stream; a rematch moves it on.
  let serving = invite.id
  const watch = new DeadlineWatch()
  const pacer = new DialPacer(systemClock, () => watch.left())
  const dialling = new AbortController()
  /**
   * The stream attached now. It is said to be connected only once the host admits it (SPEC §2.3:
   * a frame other than a refusal, or ADMISSION_GRACE_MS without one), so a refused stream prints
   * neither "restored" nor "lost".
   */
  interface Attached {
    readonly relayed: boolean
    admitted: boolean
    refused: boolean
    timer?: NodeJS.Timeout
  }
  let attached: Attached | undefined
  const admit = (a: Attached | undefined): void => {
    if (a === undefined || attached !== a || a.admitted || a.refused) return
    a.admitted = true
    clearTimeout(a.timer)
    pacer.admitted()
    o.onEvent({ kind: 'connected', peer: invite.peer, relayed: a.relayed, restored: lost, deadline: watch.current })
    lost = false
  }
  const raw: StreamChannel = streamChannel({
    maxFrameBytes: LIMITS.frameBytes,
    onDetach: () => {
      const a = attached
      attached = undefined
      clearTimeout(a?.timer)
      if (a?.admitted === true) {
        lost = true
        if (!watch.finishing) o.onEvent({ kind: 'disconnected', deadline: watch.current })
      } else if (a?.refused !== true) pacer.failed()
      void redial()
    },
  })
  /** What the games read: a refusal never reaches them (SPEC §2.3); any other frame shows the stream admitted and the game served. */
  const channel: StreamChannel = {
    get attached() {
      return raw.attached
    },
    get closed() {
      return raw.closed
    },
    attach: (stream) => {
      raw.attach(stream)
    },
    send: (frame) => raw.send(frame),
    close: () => {
      raw.close()
    },
    flushed: () => raw.flushed(),
    async receive(signal) {
      for (;;) {
        const r = await raw.receive(signal)
        if (r.kind !== 'frame') return r
        const said = refusalOf(r.bytes)
        if (said === undefined) {
          admit(attached)
          pacer.served()
          return r
        }
        if (attached !== undefined && !attached.admitted) attached.refused = true
        const wait = pacer.refusedStream()
        o.onEvent({
          kind: 'redial-failed',
          detail: `the host refused the invite${said === '' ? '' : ` ("${said}")`}; ${pacer.gaveUp ? 'giving up' : `again in ${wait} ms`}`,
        })
        // The session fails on this without signing a stop (SPEC §2.3); the game stays resumable.
        if (pacer.gaveUp) throw new NotServedError(serving, pacer.refused, said)
      }
    },
  }
  offerChat(o, channel)
  const dialOnce = async (): Promise<void> => {
    const stream = await node.dialProtocol(hostAddrs, PROTOCOL_IDS[version], {
      runOnLimitedConnection: true,
      signal: AbortSignal.any([dialling.signal, AbortSignal.timeout(15_000)]),
    })
    await lpStream(stream, { maxDataLength: PREAMBLE_MAX_BYTES }).write(preamble(serving))
    const connection = node.getConnections(peerIdFromString(invite.peer)).find((c) => c.streams.includes(stream))
    if (connection === undefined) throw new Error('the stream has no connection')
    const a: Attached = { relayed: isRelayed(connection), admitted: false, refused: false }
    attached = a
    a.timer = setTimeout(() => {
      admit(a)
    }, ADMISSION_GRACE_MS)
    channel.attach(stream)
  }
  /** Redials, paced by `pacer`, until a stream is attached, the game is over, or the host refused too often. */
  const redial = async (): Promise<void> => {
    if (dialing) return
    dialing = true
    try {
      for (;;) {
        await pacer.ready(dialling.signal)
        if (channel.closed || channel.attached || pacer.gaveUp || dialling.signal.aborted) return
        try {
          await dialOnce()
        } catch (e) {
          o.onEvent({ kind: 'redial-failed', detail: (e as Error).message })
          pacer.failed()
        }
      }
    } finally {
      dialing = false
    }
  }
  await node.start()
  await dialRelays(node, o.relays ?? [])
  o.onEvent({ kind: 'listening', addrs: node.getMultiaddrs().map(String) })
  await o.onReady?.(node)
  void redial()
  try {
    return await finish(
      node,
      channel,
      playGames(
        o,
        watch,
        channel,
        o.side ?? 'B',
        invite.terms,
        invite.id,
        keyOf(invite.peer),
        (id) => (serving = id),
        node,
      ),
    )
  } finally {
    dialling.abort()
    clearTimeout(attached?.timer)
  }
}
