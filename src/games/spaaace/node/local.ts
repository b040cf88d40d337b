/**
 * A Spaaace! game among peers in one process (protocol/SPAAACE-PEERS.md, whole): each seat a node
 * with its own key, mesh, store, secrets and chooser, every pair linked by an in-memory channel,
 * all on one virtual clock. The full protocol runs, every envelope signed, forwarded and decided
 * by each node alone, so each seat's transcript is what a networked node would have written, and
 * `spaceships verify` decides it.
 *
 * Time: the nodes act only on the clock and on envelopes, so the driver moves the clock to the
 * next timer whenever nothing else can run, and holds it still while a person is choosing. A game
 * against bots therefore takes no wall time, and a person is never hurried by protocol time (the
 * screen says so). The same driver, with faults on the links, is the soak's.
 */
import { SEED_BYTES } from '../../../core/commit/hash.js'
import { type KeyPair, generateKeyPair } from '../../../core/commit/keys.js'
import { type SecretSource, seededSecrets } from '../../../core/commit/secrets.js'
import { MeshNode } from '../../../core/mesh/node.js'
import { type Fault, type MemoryPair, memoryChannelPair } from '../../../core/session/channel.js'
import { VirtualClock } from '../../../core/session/clock.js'
import { type TranscriptStore, memoryStore } from '../../../core/transcript/file.js'
import { spaaaceMeshCodec, spaaaceMeshLimits, spaaaceWithinBound } from '../mesh/codec.js'
import { commitMsFloor, revealMsFloor } from '../peers/domain.js'
import { compareBytes } from '../peers/parts.js'
import {
  type Genesis,
  type PeersTerms,
  type SealedGenesis,
  type Timing,
  decodeGenesis,
  encodeGenesis,
} from '../peers/genesis.js'
import type { Part } from '../peers/parts.js'
import { formatPeersTranscript } from '../peers/transcript.js'
import type { End } from '../peers/decide.js'
import { DEFAULT_TERMS } from '../rules/types.js'
import { type Chooser, type PeerEvents, SpaaacePeer } from './peer.js'
import { memorySecrets } from './secrets.js'

/** The local game's Δ: the least the terms allow (§10), since delivery is in memory. */
export const LOCAL_MARGIN_MS = 500

/** The least legal timing for Δ (§3.1 floors), starting at `start`. */
export function fastestTiming(start: number, marginMs: number = LOCAL_MARGIN_MS): Timing {
  return { start, commitMs: commitMsFloor(marginMs), revealMs: revealMsFloor(marginMs), marginMs }
}

export function defaultPeersTerms(maxTicks?: number): PeersTerms {
  const { coins, income, battleCooldown, rematchTicks, withholdFine, absentTicks, wormhole, infamyWins } = DEFAULT_TERMS
  const terms: PeersTerms = {
    coins,
    income,
    battleCooldown,
    rematchTicks,
    withholdFine,
    absentTicks,
    wormhole,
    infamyWins,
    maxTicks: DEFAULT_TERMS.maxTicks,
  }
  return maxTicks === undefined ? terms : { ...terms, maxTicks }
}

/** §3.1: a genesis for `keys` (sorted into roster order), witnessed if `notaryKey` is given (SPAAACE-WITNESSED §3); returns it and each key's roster index. */
export function composeGenesis(
  keys: readonly Uint8Array[],
  terms: PeersTerms,
  timing: Timing,
  nonce: Uint8Array,
  notaryKey: Uint8Array | null = null,
): { genesis: SealedGenesis; rosterIndex: number[] } {
  const order = keys.map((k, i) => ({ k, i })).sort((a, b) => compareBytes(a.k, b.k))
  const g: Genesis = { terms, timing, notaryKey, keys: order.map((o) => o.k), nonce }
  const decoded = decodeGenesis(encodeGenesis(g))
  if (!decoded.ok) throw new Error(`the genesis does not decode: ${decoded.error.code} at ${decoded.error.field}`)
  const rosterIndex = new Array<number>(keys.length)
  order.forEach((o, r) => {
    rosterIndex[o.i] = r
  })
  return { genesis: decoded.value, rosterIndex }
}

export interface LocalSeat {
  readonly chooser: Chooser
  readonly events?: PeerEvents
  /** This seat's node holds the clock still while it is true (a person choosing). */
  readonly busy?: () => Promise<void> | undefined
  /** Red-team tests only: a cheater's node rewrites the parts it signs (`SpaaacePeerOptions.shape`). */
  readonly shape?: (parts: Part[]) => Part[]
  /**
   * Red-team tests only: what a cheater's node does with each envelope it signs, instead of
   * handing it to its mesh (hold it back, sign another at the same place, send it to one peer).
   */
  readonly publish?: (bytes: Uint8Array, mesh: MeshNode) => void
  /** Red-team tests only: the driver does not wait for this seat's node to end (a cheater's may never). */
  readonly unawaited?: boolean
}

export interface LocalGameOptions {
  /** The seats, by roster index (call `localRoster` first to know which seat gets which index). */
  readonly seats: readonly LocalSeat[]
  readonly genesis: SealedGenesis
  readonly keys: readonly KeyPair[]
  /** Where each seat's node persists its envelopes (default: in memory). */
  readonly stores?: readonly TranscriptStore[]
  /** Where each seat's seed comes from (a CSPRNG in play; seeded in tests, so a game replays). */
  readonly secrets: (seat: number) => SecretSource
  readonly clock: VirtualClock
  /** A fault on the link between seats a and b (a < b), for the soak. */
  readonly fault?: (a: number, b: number) => Fault | undefined
  /** A link the fault cut comes back after this long (protocol time; default: never), as a redial would bring it. */
  readonly reconnectMs?: number
  /** Each link between seats a and b (a < b) once made: red-team tests inject frames on it. */
  readonly onLink?: (a: number, b: number, pair: MemoryPair) => void
  /** Stops the game (a person quit). */
  readonly signal?: AbortSignal
  /** Clock jumps before the driver gives up (a bug, never a game's end). */
  readonly maxJumps?: number
}

export interface LocalGameResult {
  readonly ends: readonly (End | undefined)[]
  readonly peers: readonly SpaaacePeer[]
  readonly meshes: readonly MeshNode[]
  /** Each seat's transcript file text (§2). */
  readonly transcripts: readonly string[]
  readonly aborted: boolean
}

/** The keys of a local game, seeded per seat, the genesis they make, and each drawn key's roster index. */
export function localRoster(
  players: number,
  seed: string,
  terms: PeersTerms,
  timing: Timing,
): { keys: KeyPair[]; genesis: SealedGenesis; rosterIndex: number[] } {
  const drawn = Array.from({ length: players }, (_, i) => generateKeyPair(seededSecrets(`${seed}/key/${i}`)))
  const { genesis, rosterIndex } = composeGenesis(
    drawn.map((k) => k.publicKey),
    terms,
    timing,
    seededSecrets(`${seed}/nonce`).bytes(SEED_BYTES),
  )
  const keys = new Array<KeyPair>(players)
  drawn.forEach((k, i) => {
    keys[rosterIndex[i] ?? 0] = k
  })
  return { keys, genesis, rosterIndex }
}

/** Runs a local game until every node has signed its last envelope, or `signal` aborts. */
export async function runLocalGame(o: LocalGameOptions): Promise<LocalGameResult> {
  const n = o.genesis.genesis.keys.length
  const life = new AbortController()
  const signal = o.signal === undefined ? life.signal : AbortSignal.any([life.signal, o.signal])
  const codec = spaaaceMeshCodec(o.genesis.genesis.keys, o.genesis.game)
  const stores = Array.from({ length: n }, (_, i) => o.stores?.[i] ?? memoryStore())
  const peers: SpaaacePeer[] = []
  const meshes: MeshNode[] = []
  for (let i = 0; i < n; i++) {
    const seat = o.seats[i]
    const keys = o.keys[i]
    if (seat === undefined || keys === undefined) throw new Error(`seat ${i} is missing`)
    const holder: { peer?: SpaaacePeer } = {}
    const mesh = new MeshNode({
      codec,
      self: i,
      clock: o.clock,
      persistence: stores[i],
      limits: spaaaceMeshLimits(o.genesis.genesis.timing.marginMs),
      withinBound: spaaaceWithinBound(n, o.genesis.game, () => holder.peer?.chain.lastState ?? 0),
      onEnvelope: (e) => {
        holder.peer?.hold(e.bytes)
      },
    })
    const peer = new SpaaacePeer({
      genesis: o.genesis,
      self: i,
      keys,
      clock: o.clock,
      secrets: memorySecrets(o.secrets(i)),
      chooser: seat.chooser,
      publish: (bytes) => {
        if (seat.publish === undefined) mesh.publish(bytes)
        else seat.publish(bytes, mesh)
      },
      ...(seat.events === undefined ? {} : { events: seat.events }),
      ...(seat.shape === undefined ? {} : { shape: seat.shape }),
      signal,
    })
    holder.peer = peer
    meshes.push(mesh)
    peers.push(peer)
  }
  for (const [i, mesh] of meshes.entries()) {
    mesh.start()
    peers[i]?.start()
  }
  const links: Promise<void>[] = []
  for (let a = 0; a < n; a++)
    for (let b = a + 1; b < n; b++) {
      const fault = o.fault?.(a, b)
      const reconnectMs = o.reconnectMs
      const wrapped: Fault | undefined =
        fault === undefined || reconnectMs === undefined
          ? fault
          : (frame, from, index) => {
              const what = fault(frame, from, index)
              if (what === 'cut')
                void o.clock.sleep(reconnectMs, signal).then(() => {
                  if (!signal.aborted) pair.reconnect()
                })
              return what
            }
      const pair = memoryChannelPair(wrapped, o.clock)
      o.onLink?.(a, b, pair)
      links.push((meshes[a] as MeshNode).connect(b, pair.ends[0], signal))
      links.push((meshes[b] as MeshNode).connect(a, pair.ends[1], signal))
    }
  const all = Promise.all(peers.filter((_, i) => o.seats[i]?.unawaited !== true).map((p) => p.done))
  let finished = false
  void all.then(() => {
    finished = true
  })
  // A function, so that the loop reads the flag the promise above sets.
  const over = (): boolean => finished || signal.aborted
  const maxJumps = o.maxJumps ?? 1_000_000
  for (let jumps = 0; !over(); jumps++) {
    for (let i = 0; i < 6 && !over(); i++) await new Promise((r) => setImmediate(r))
    if (over()) break
    const busy = o.seats.map((s) => s.busy?.()).find((b) => b !== undefined)
    if (busy !== undefined) {
      await Promise.race([busy, all])
      continue
    }
    const next = o.clock.next()
    if (next === undefined) {
      await new Promise((r) => setTimeout(r, 1))
      continue
    }
    if (jumps > maxJumps) throw new Error(`local game: still running after ${maxJumps} clock jumps`)
    o.clock.advanceTo(next)
  }
  const aborted = !finished
  life.abort()
  await Promise.allSettled(links)
  return {
    ends: peers.map((p) => p.ended),
    peers,
    meshes,
    transcripts: stores.map((s) => formatPeersTranscript(o.genesis.bytes, s.envelopes())),
    aborted,
  }
}
