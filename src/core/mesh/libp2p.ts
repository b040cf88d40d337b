/**
 * The mesh over libp2p (protocol/SPAAACE-PEERS.md §8): one stream per pair of roster peers on the
 * game's protocol, each wrapped in a `streamChannel` that outlives the stream, and one
 * `MeshNode.connect` per peer for the whole game.
 *
 * Each pair has exactly one dialer: a node dials every roster peer with a lower index than its own
 * and waits for the others to dial it. A lost stream is redialled by its dialer, with backoff on
 * the injected clock, and the new stream is attached to the same channel (the mesh then sends a
 * resume frame, as the two-player game does, SPEC §2.2). The node's connection gater already keeps
 * strangers out; here an inbound stream is also refused unless its PeerId is a roster peer that is
 * to dial this node.
 */
import type { Connection, Libp2p, PeerId, Stream } from '@libp2p/interface'
import { peerIdFromString } from '@libp2p/peer-id'
import { multiaddr } from '@multiformats/multiaddr'
import { type Logger, componentLogger } from '../log.js'
import { type StreamChannel, streamChannel } from '../net/stream-channel.js'
import { type Clock, systemClock } from '../session/clock.js'
import { MAX_FRAME } from './limits.js'
import type { MeshNode } from './node.js'
import { type PeerRecordSharing, sharePeerRecords } from './peer-records.js'

/** The first wait before a redial; it doubles up to REDIAL_MAX_MS, and starts again once a stream is up. */
export const REDIAL_MIN_MS = 250
export const REDIAL_MAX_MS = 10_000
/** How long one dial may take before it counts as failed. */
export const DIAL_TIMEOUT_MS = 10_000
/** Inbound streams of the protocol open at once per connection (a redial may overlap the stream it replaces). */
const MAX_INBOUND_STREAMS = 4

export interface MeshLibp2pOptions {
  /** A started libp2p node (`createPeerNode`) whose admission lets the roster's peers in. */
  readonly node: Libp2p
  /** The game's mesh protocol id. */
  readonly protocol: string
  /** This node's roster index. */
  readonly self: number
  /** The roster as PeerId strings: index = roster position. */
  readonly roster: readonly string[]
  readonly mesh: MeshNode
  /**
   * Where to dial the peers this node dials, by roster index (each put in the node's peer store);
   * a peer left out is dialled at whatever addresses the peer store already holds.
   */
  readonly addresses?: readonly (readonly string[] | undefined)[]
  /** Ends everything: dialling, the channels, the mesh's links, the protocol handler. */
  readonly signal: AbortSignal
  /** The redials' backoff runs on it (default: the system clock). */
  readonly clock?: Clock
  /** The largest frame (default: the mesh's MAX_FRAME). */
  readonly maxFrameBytes?: number
  /**
   * Pass on the roster's signed peer records (control kind 7, SPAAACE-PEERS.md §8 "Addresses"),
   * so that peers the invite gives no address for find each other (default: false).
   */
  readonly shareAddresses?: boolean
  readonly log?: Logger
}

export interface MeshLibp2p {
  /** The channel towards each other roster index. */
  readonly channels: ReadonlyMap<number, StreamChannel>
  /** Resolves once the signal aborted and every link of the mesh has ended. */
  readonly done: Promise<void>
  /** The peer records shared, when `shareAddresses` is set. */
  readonly records: PeerRecordSharing | undefined
}

/** Runs `mesh` over `node` with every other roster peer until `signal` aborts. */
export async function runMeshOverLibp2p(o: MeshLibp2pOptions): Promise<MeshLibp2p> {
  const { node, protocol, self, roster, mesh, signal } = o
  const clock = o.clock ?? systemClock
  const log = o.log ?? componentLogger('mesh:libp2p')
  const maxFrameBytes = o.maxFrameBytes ?? MAX_FRAME
  const me = node.peerId.toString()
  if (roster[self] !== me) throw new Error(`roster position ${self} is not this node's PeerId ${me}`)
  if (new Set(roster).size !== roster.length) throw new Error('a PeerId appears twice in the roster')
  const indexOf = new Map(roster.map((id, i) => [id, i]))

  const channels = new Map<number, StreamChannel>()
  const redials = new Map<number, () => void>()
  for (let peer = 0; peer < roster.length; peer++) {
    if (peer === self) continue
    const p = peer
    channels.set(
      p,
      streamChannel({
        maxFrameBytes,
        onDetach: () => {
          log('stream with %d ended', p)
          redials.get(p)?.()
        },
      }),
    )
  }

  await node.handle(
    protocol,
    (stream: Stream, connection: Connection) => {
      const remote = connection.remotePeer.toString()
      const peer = indexOf.get(remote)
      if (peer === undefined || peer === self) {
        log('refused a stream from %s: not a roster peer', remote)
        stream.abort(new Error('not a roster peer'))
        return
      }
      if (peer < self) {
        // This node dials that peer: a stream from it would only fight the one dialled.
        log('refused a stream from %d: this node is its dialer', peer)
        stream.abort(new Error('the lower index waits to be dialled'))
        return
      }
      const channel = channels.get(peer)
      if (channel === undefined || signal.aborted) {
        stream.abort(new Error('the mesh is over'))
        return
      }
      log('stream from %d', peer)
      channel.attach(stream)
    },
    { maxInboundStreams: MAX_INBOUND_STREAMS, runOnLimitedConnection: true },
  )

  /** Dials `peer` until a stream is attached or the signal aborts; one loop at a time per peer. */
  const over = (): boolean => signal.aborted
  const dialer = (peer: number, target: PeerId, channel: StreamChannel): (() => void) => {
    let running = false
    let wait = 0
    let attachedAt: number | undefined
    return () => {
      if (running || signal.aborted) return
      running = true
      // A stream that ended soon after it was attached (a peer refusing, a flapping link) backs
      // off like a failed dial; one that lived long is redialled at once.
      if (attachedAt !== undefined)
        wait =
          clock.now() - attachedAt >= REDIAL_MAX_MS ? 0 : Math.min(REDIAL_MAX_MS, Math.max(REDIAL_MIN_MS, wait * 2))
      void (async () => {
        try {
          for (;;) {
            if (wait > 0) await clock.sleep(wait, signal)
            if (signal.aborted || channel.closed || channel.attached) return
            try {
              const stream = await node.dialProtocol(target, protocol, {
                runOnLimitedConnection: true,
                signal: AbortSignal.any([signal, AbortSignal.timeout(DIAL_TIMEOUT_MS)]),
              })
              // A channel closed meanwhile (the signal aborted) refuses the stream itself.
              log('dialled %d', peer)
              attachedAt = clock.now()
              channel.attach(stream)
              return
            } catch (e) {
              wait = Math.min(REDIAL_MAX_MS, Math.max(REDIAL_MIN_MS, wait * 2))
              if (!over()) log('dial to %d failed (%s); again in %d ms', peer, (e as Error).message, wait)
            }
          }
        } finally {
          running = false
        }
      })()
    }
  }

  const records =
    o.shareAddresses === true
      ? sharePeerRecords({
          node,
          roster,
          self,
          mesh,
          attached: (i) => channels.get(i)?.attached === true,
          hints: (i) => o.addresses?.[i] ?? [],
          clock,
          signal,
          log: log.newScope('records'),
        })
      : undefined
  const links: Promise<void>[] = []
  for (const [peer, channel] of channels) {
    links.push(
      mesh.connect(peer, channel, signal).catch((e: unknown) => {
        log.error('link with %d failed: %s', peer, e)
      }),
    )
    if (peer < self) {
      const id = roster[peer]
      if (id === undefined) continue
      const target = peerIdFromString(id)
      const addrs = o.addresses?.[peer]
      if (addrs !== undefined && addrs.length > 0)
        await node.peerStore.merge(target, { multiaddrs: addrs.map((a) => multiaddr(a)) })
      const redial = dialer(peer, target, channel)
      redials.set(peer, redial)
      redial()
    }
  }

  const stop = (): void => {
    for (const c of channels.values()) c.close()
    void node.unhandle(protocol).catch(() => undefined)
  }
  if (signal.aborted) stop()
  else signal.addEventListener('abort', stop, { once: true })

  return {
    channels,
    done: Promise.all(links).then(() => undefined),
    records,
  }
}
