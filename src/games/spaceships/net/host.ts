/**
 * The host's side of a game (SPEC §2.3): it listens (through relays, for a host behind NAT),
 * admits the first peer that presents the invite and from then on only that peer, refuses any
 * other stream, and plays as A.
 */
import type { Connection, Libp2p, Stream } from '@libp2p/interface'
import { lpStream } from '@libp2p/utils'
import { multiaddr } from '@multiformats/multiaddr'
import { constantTimeEqual } from '../../../core/commit/bytes.js'
import { createPeerNode } from '../../../core/net/node.js'
import { streamChannel } from '../../../core/net/stream-channel.js'
import { LIMITS, PROTOCOL_IDS, PROTOCOL_VERSION } from '../protocol/messages.js'
import { versionOfEnvelopes } from '../protocol/file.js'
import type { SessionResult } from '../session/session.js'
import { PREAMBLE_MAX_BYTES, PREAMBLE_TIMEOUT_MS, encodeRefusal, preamble } from './admission.js'
import { type HostOptions, type NetEvent, NobodyJoinedError, RelayError } from './options.js'
import { DeadlineWatch, finish, isRelayed, keyOf, logged, offerChat, peerIdsOf } from './plumbing.js'
import { playGames } from './rematch.js'

/** How long a host waits for its relays to grant a slot before it gives up, saying why. */
export const RELAY_RESERVATION_TIMEOUT_MS = 15_000
const RELAY_REDIAL_MAX_MS = 30_000

/**
 * A host behind NAT: dials each relay and waits until the circuit transport holds a slot on each
 * (a `/p2p-circuit` address through it), so the invite carries a relayed address; a relay that
 * drops the connection later is dialled again with backoff, so its slot comes back after a restart.
 */
async function reserveOnRelays(
  node: Libp2p,
  relays: readonly string[],
  onEvent: ((e: NetEvent) => void) | undefined,
  signal: AbortSignal,
): Promise<void> {
  const ids = peerIdsOf(relays)
  const reserved = (id: string): boolean =>
    node.getMultiaddrs().some((a) => a.toString().includes(`/p2p/${id}/p2p-circuit`))
  for (const [i, r] of relays.entries()) {
    const id = ids[i] ?? r
    onEvent?.({ kind: 'relay', relay: r, status: 'reserving' })
    try {
      await node.dial(multiaddr(r), {
        signal: AbortSignal.any([signal, AbortSignal.timeout(RELAY_RESERVATION_TIMEOUT_MS)]),
      })
    } catch (e) {
      throw new RelayError(
        `cannot reach the relay ${r}: ${(e as Error).message} (is it running, and is the address right?)`,
      )
    }
    const until = Date.now() + RELAY_RESERVATION_TIMEOUT_MS
    while (!reserved(id)) {
      if (Date.now() > until)
        throw new RelayError(
          `the relay ${r} granted no slot within ${RELAY_RESERVATION_TIMEOUT_MS / 1000} s (is your PeerId ${node.peerId.toString()} on its --allow list?)`,
        )
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    onEvent?.({ kind: 'relay', relay: r, status: 'reserved' })
  }
  node.addEventListener('peer:disconnect', (evt) => {
    const i = ids.indexOf(evt.detail.toString())
    const r = relays[i]
    if (r === undefined || signal.aborted) return
    onEvent?.({ kind: 'relay', relay: r, status: 'lost' })
    void (async () => {
      for (let wait = 1000; !signal.aborted; wait = Math.min(RELAY_REDIAL_MAX_MS, wait * 2)) {
        try {
          await node.dial(multiaddr(r), {
            signal: AbortSignal.any([signal, AbortSignal.timeout(RELAY_RESERVATION_TIMEOUT_MS)]),
          })
          return
        } catch {
          await new Promise((resolve) => setTimeout(resolve, wait))
        }
      }
    })()
  })
}

/**
 * SPEC §2.3: a stream the host does not admit gets the refusal frame and is closed, so its joiner
 * knows to stop rather than redial at once; one that does not let go within seconds is reset.
 */
async function refuseStream(lp: ReturnType<typeof lpStream<Stream>>, stream: Stream): Promise<void> {
  try {
    await lp.write(encodeRefusal(), { signal: AbortSignal.timeout(2_000) })
    await stream.close({ signal: AbortSignal.timeout(2_000) })
  } catch {
    stream.abort(new Error('refused'))
  }
}

/** Hosts a game: listens, admits the first peer that presents the invite, plays as A. */
export async function hostGame(options: HostOptions): Promise<SessionResult> {
  options.signal?.throwIfAborted()
  // SPEC §1: a resumed game keeps its transcript's version; a new one is played in the host's.
  const held = options.store.envelopes()
  const version = held.length > 0 ? versionOfEnvelopes(held) : (options.version ?? PROTOCOL_VERSION)
  const o = { ...options, version, onEvent: logged(options.onEvent) }
  let opponent = o.opponent
  // The relays, and a witnessed game's notary (PROTOCOL-4.md §4), are let through the gate too.
  const relayPeers = [...peerIdsOf(o.relays ?? []), ...peerIdsOf(o.notary?.addrs ?? [])]
  const relays = o.relays ?? []
  // Reachable through a relay: listen on the circuit transport (a slot on each relay dialled below).
  const listen = relays.length > 0 && !o.listen.includes('/p2p-circuit') ? [...o.listen, '/p2p-circuit'] : o.listen
  const node = await createPeerNode({
    identity: o.identity,
    listen,
    // Until someone presents the invite anyone may try; afterwards only the opponent and relays.
    admission: () => (opponent === undefined ? 'anyone' : new Set([opponent, ...relayPeers])),
    onRefused: (peer) => {
      o.onEvent({ kind: 'refused', peer, why: 'not the opponent of this game' })
    },
  })
  const watch = new DeadlineWatch()
  let lost = false
  const channel = streamChannel({
    maxFrameBytes: LIMITS.frameBytes,
    onDetach: () => {
      lost = true
      if (!watch.finishing) o.onEvent({ kind: 'disconnected', deadline: watch.current })
    },
  })
  offerChat(o, channel)
  // SPEC §2.3, §2.4: the invite id of the game played now (a rematch moves it on); a stream
  // presenting any other, an earlier game's of this connection included, is refused.
  let serving = o.inviteId
  const earlier: string[] = []
  let connected: () => void = () => undefined
  const firstJoin = new Promise<void>((resolve) => (connected = resolve))
  await node.handle(
    PROTOCOL_IDS[version],
    async (stream: Stream, connection: Connection) => {
      const peer = connection.remotePeer.toString()
      const refuse = (why: string): void => {
        o.onEvent({ kind: 'refused', peer, why })
        stream.abort(new Error(why))
      }
      if (opponent !== undefined && peer !== opponent) {
        refuse('not the opponent of this game')
        return
      }
      const lp = lpStream(stream, { maxDataLength: PREAMBLE_MAX_BYTES })
      let first: Uint8Array
      try {
        first = (await lp.read({ signal: AbortSignal.timeout(PREAMBLE_TIMEOUT_MS) })).subarray()
      } catch {
        refuse('no invite presented')
        return
      }
      if (!constantTimeEqual(first, preamble(serving))) {
        const over = earlier.some((id) => constantTimeEqual(first, preamble(id)))
        o.onEvent({
          kind: 'refused',
          peer,
          why: over ? 'asked for an earlier game of this connection, which is over' : 'presented the wrong invite',
        })
        void refuseStream(lp, stream)
        return
      }
      if (opponent === undefined) {
        opponent = peer
        o.onOpponent?.(peer)
      }
      o.onEvent({ kind: 'connected', peer, relayed: isRelayed(connection), restored: lost, deadline: watch.current })
      lost = false
      channel.attach(lp.unwrap())
      connected()
    },
    { runOnLimitedConnection: true, maxInboundStreams: 4 },
  )
  await node.start()
  const relayWatch = new AbortController()
  const outside = (): void => {
    relayWatch.abort()
  }
  o.signal?.addEventListener('abort', outside, { once: true })
  try {
    await reserveOnRelays(node, relays, o.onEvent, relayWatch.signal)
    o.signal?.throwIfAborted()
    o.onEvent({ kind: 'listening', addrs: node.getMultiaddrs().map(String) })
    await o.onReady?.(node)
    o.signal?.throwIfAborted()
    if (opponent === undefined) {
      let timer: NodeJS.Timeout | undefined
      const waited = await Promise.race([
        firstJoin.then(() => 'joined' as const),
        new Promise<'timeout'>((r) => {
          timer = setTimeout(() => {
            r('timeout')
          }, o.waitMs).unref()
        }),
        new Promise<'aborted'>((r) => {
          relayWatch.signal.addEventListener(
            'abort',
            () => {
              r('aborted')
            },
            { once: true },
          )
        }),
      ])
      clearTimeout(timer)
      if (waited === 'aborted') o.signal?.throwIfAborted()
      if (waited === 'timeout') throw new NobodyJoinedError(o.waitMs)
    }
  } catch (e) {
    relayWatch.abort()
    o.signal?.removeEventListener('abort', outside)
    await node.stop()
    throw e
  }
  const known = opponent
  if (known === undefined) throw new Error('unreachable: no opponent after the first join')
  try {
    const rematched = (id: string): void => {
      earlier.push(serving)
      serving = id
    }
    return await finish(
      node,
      channel,
      playGames(o, watch, channel, o.side ?? 'A', o.terms, o.inviteId, keyOf(known), rematched, node),
    )
  } finally {
    relayWatch.abort()
    o.signal?.removeEventListener('abort', outside)
  }
}
