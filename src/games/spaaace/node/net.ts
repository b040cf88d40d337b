/**
 * One Spaaace! node on the network (protocol/SPAAACE-PEERS.md §6, §8): its `SpaaacePeer` over a
 * `MeshNode` over libp2p streams to every roster peer (`runMeshOverLibp2p`), persisting to its
 * store before it sends or acts. Restarted with the same store and secrets, it reads its chain
 * back and resumes (§6.8); the mesh's resume frames fetch what it missed meanwhile.
 */
import type { Libp2p } from '@libp2p/interface'
import type { KeyPair } from '../../../core/commit/keys.js'
import { runMeshOverLibp2p } from '../../../core/mesh/libp2p.js'
import { MeshNode } from '../../../core/mesh/node.js'
import type { Clock } from '../../../core/session/clock.js'
import type { TranscriptStore } from '../../../core/transcript/file.js'
import { spaaaceMeshCodec, spaaaceMeshLimits, spaaaceWithinBound } from '../mesh/codec.js'
import type { End } from '../peers/decide.js'
import { MAX_FRAME, PEERS_PROTOCOL_ID } from '../peers/domain.js'
import type { SealedGenesis } from '../peers/genesis.js'
import { type Chooser, type PeerEvents, SpaaacePeer } from './peer.js'
import type { PeerSecrets } from './secrets.js'
import { journalingSigned } from './store.js'

export interface NetPeerOptions {
  /** A started libp2p node whose identity is roster key `self` and whose gater admits the roster. */
  readonly node: Libp2p
  readonly genesis: SealedGenesis
  readonly self: number
  readonly keys: KeyPair
  /** The roster's PeerIds, by roster index. */
  readonly roster: readonly string[]
  /** Where to dial each peer, by roster index (hints from the invite). */
  readonly addresses?: readonly (readonly string[] | undefined)[]
  readonly store: TranscriptStore
  readonly secrets: PeerSecrets
  readonly chooser: Chooser
  readonly events?: PeerEvents
  readonly clock: Clock
  readonly signal: AbortSignal
  /** How long to keep forwarding after this node's last envelope, so the others hold it (default 4·Δ + 5 s). */
  readonly lingerMs?: number
}

export interface NetPeer {
  readonly peer: SpaaacePeer
  readonly mesh: MeshNode
  /** Resolves with the end once the node signed its last envelope and lingered, or undefined if aborted first. */
  readonly done: Promise<End | undefined>
  /** How many roster peers this node has a stream with now. */
  connected(): number
  /** Whether this node has a stream with roster peer `i` now. */
  reaches(i: number): boolean
}

export async function runNetPeer(o: NetPeerOptions): Promise<NetPeer> {
  const life = new AbortController()
  const signal = AbortSignal.any([life.signal, o.signal])
  const holder: { peer?: SpaaacePeer } = {}
  const mesh = new MeshNode({
    codec: spaaaceMeshCodec(o.genesis.genesis.keys, o.genesis.game),
    self: o.self,
    clock: o.clock,
    // §6.8: each own envelope's count journaled once it is flushed, before it is sent.
    persistence: journalingSigned(o.store, o.secrets, o.self),
    limits: spaaaceMeshLimits(o.genesis.genesis.timing.marginMs),
    withinBound: spaaaceWithinBound(
      o.genesis.genesis.keys.length,
      o.genesis.game,
      () => holder.peer?.chain.lastState ?? 0,
    ),
    onEnvelope: (e) => {
      holder.peer?.hold(e.bytes)
    },
  })
  const peer = new SpaaacePeer({
    genesis: o.genesis,
    self: o.self,
    keys: o.keys,
    clock: o.clock,
    secrets: o.secrets,
    chooser: o.chooser,
    publish: (bytes) => {
      mesh.publish(bytes)
    },
    ...(o.events === undefined ? {} : { events: o.events }),
    signal,
    // Envelopes that arrive together (one poll phase of the event loop) are decided once (peer.ts).
    defer: (run) => {
      setImmediate(run)
    },
  })
  holder.peer = peer
  mesh.start()
  peer.pause()
  peer.start()
  const run = await runMeshOverLibp2p({
    node: o.node,
    protocol: PEERS_PROTOCOL_ID,
    self: o.self,
    roster: o.roster,
    mesh,
    ...(o.addresses === undefined ? {} : { addresses: o.addresses }),
    signal,
    clock: o.clock,
    maxFrameBytes: MAX_FRAME,
    // §8 "Addresses": players the invite gives no address for (every joiner) find each other,
    // so the game does not run through the host's nodes alone.
    shareAddresses: true,
  })
  void catchUp(o, mesh, peer, signal).then(() => {
    peer.resume()
  })
  // A player resuming just after the end still finds someone to hear it from.
  const linger = o.lingerMs ?? 4 * o.genesis.genesis.timing.marginMs + 5000
  const p = peer
  const done = (async (): Promise<End | undefined> => {
    const end = await Promise.race([
      p.done,
      new Promise<undefined>((r) => {
        if (signal.aborted) r(undefined)
        else
          signal.addEventListener(
            'abort',
            () => {
              r(undefined)
            },
            { once: true },
          )
      }),
    ])
    if (end !== undefined) await o.clock.sleep(linger, o.signal)
    life.abort()
    await run.done
    return end
  })()
  const n = o.genesis.genesis.keys.length
  // A stream is up with the peer now: the mesh's own view is not, since a channel outlives its
  // streams (a lost one is redialled behind it, and the mesh hears only `reconnected`).
  const reaches = (i: number): boolean => i !== o.self && run.channels.get(i)?.attached === true
  const connected = (): number => {
    let c = 0
    for (let i = 0; i < n; i++) if (reaches(i)) c++
    return c
  }
  return { peer: p, mesh, done, connected, reaches }
}

/** How often the catch-up looks again at what the peers' resume frames said. */
const CATCH_UP_POLL_MS = 100

/**
 * §6.8 step 8, §8: before it signs anything but its accept, the node waits for every peer's resume
 * frame and for its own envelopes any of them counts beyond its chain (they send them back, §8 "A
 * peer that lost its own envelopes"), for at most 2Δ + 2 s after the first frame. A whole game directory restored from an
 * older backup (the transcript and the count in the secrets file alike) is noticed only here: the
 * node signed at once again where it had signed, and was convicted of a fork. Past the wait it plays
 * on, so that a peer overstating its counts cannot keep it from playing; a peer that holds its
 * envelopes and withholds them can then still prove a fork, which only a restored backup exposes.
 */
async function catchUp(o: NetPeerOptions, mesh: MeshNode, peer: SpaaacePeer, signal: AbortSignal): Promise<void> {
  const n = o.genesis.genesis.keys.length
  // The wait runs from the first resume frame heard: before any peer is reached, nothing the node
  // signed would reach anyone, and how long a dial takes says nothing of what the peers hold.
  let until = Infinity
  let told = false
  for (;;) {
    const own = mesh.engine.store.counts()[o.self] ?? 0
    let claimed = 0
    let heard = true
    for (let i = 0; i < n; i++) {
      if (i === o.self) continue
      const counts = mesh.engine.resumeCounts(i)
      if (counts === undefined) heard = false
      else {
        claimed = Math.max(claimed, counts[o.self] ?? 0)
        if (until === Infinity) until = o.clock.now() + 2 * o.genesis.genesis.timing.marginMs + 2000
      }
    }
    // Told here only when the journaled count saw no loss: a node waiting for what its journal
    // counts (`SpaaacePeer.start`) says so itself.
    if (claimed > own && !told && !peer.waitingForOwn) {
      told = true
      o.events?.onRecovering?.(own, claimed)
    }
    if ((heard && claimed <= own) || o.clock.now() >= until || signal.aborted) {
      if (told && claimed <= own) o.events?.onRecovered?.(own)
      return
    }
    try {
      await o.clock.sleep(CATCH_UP_POLL_MS, signal)
    } catch {
      return
    }
  }
}
