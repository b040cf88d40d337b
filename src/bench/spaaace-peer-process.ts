/**
 * One player of the bench's Spaaace! game among peers (spaaace-peers.ts), in its own process: a
 * libp2p node on 127.0.0.1 (`createPeerNode`) and a Spaaace! node over it (`runNetPeer`: the
 * honest node, its mesh, a stream to every roster peer) on the system clock, a bot choosing its
 * orders, its transcript on disk flushed before each envelope is sent or acted on.
 *
 *   node dist/bench/spaaace-peer-process.js
 *
 * It reads JSON lines on its standard input and writes JSON lines on its standard output:
 * 1. in `{"secret"}` (its 32-byte key, base64url); out `{"addr", "peerId"}` once it listens;
 * 2. in `{"genesis", "self", "roster", "addresses", "bot", "seed"}` (the addresses are the links'
 *    in front of each roster peer, so every dial crosses one); out `{"done"}` once its node has
 *    signed its last envelope;
 * 3. in `{"stop": true}` (every node is done); out the timings, then it exits.
 *
 * The timings are wall-clock instants (`performance.timeOrigin + performance.now()`, the system
 * clock the node acts on; every process is on one machine, so on one clock): when the node became
 * ready for each tick, when it signed each of its parts, when it decided each tick settled, and
 * when it first held each part of every author. Envelopes are decoded for that only after the
 * game, so the measurement adds nothing but an array push to the path it measures.
 */
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { performance } from 'node:perf_hooks'
import { fromBase64url } from '../core/commit/bytes.js'
import { seededSecrets, systemSecrets } from '../core/commit/secrets.js'
import { identityFromSecret } from '../core/net/identity.js'
import { createPeerNode } from '../core/net/node.js'
import { VirtualClock, systemClock } from '../core/session/clock.js'
import { type TranscriptStore, memoryStore } from '../core/transcript/file.js'
import { randomBot } from '../games/spaaace/bot/random.js'
import { sensibleBot } from '../games/spaaace/bot/sensible.js'
import { botChooser } from '../games/spaaace/node/choosers.js'
import { defaultPeersTerms, fastestTiming, localRoster, runLocalGame } from '../games/spaaace/node/local.js'
import { runNetPeer } from '../games/spaaace/node/net.js'
import { memorySecrets } from '../games/spaaace/node/secrets.js'
import { spaaaceFileStore } from '../games/spaaace/node/store.js'
import { readEnvelope } from '../games/spaaace/peers/envelope.js'
import { SKEW_MS } from '../games/spaaace/peers/domain.js'
import { decodeGenesis, tickTimes } from '../games/spaaace/peers/genesis.js'
import { tickOf } from '../games/spaaace/peers/parts.js'
import { formatPeersTranscript } from '../games/spaaace/peers/transcript.js'
import { seededRng } from '../games/spaaace/referee/random.js'

/** What the parent hands a node once the roster is known. */
export interface SpaaaceSeatOrder {
  /** The genesis bytes, base64url. */
  readonly genesis: string
  readonly self: number
  /** PeerIds in roster order. */
  readonly roster: readonly string[]
  /** Where to dial each roster peer (the link in front of it). */
  readonly addresses: readonly (readonly string[])[]
  readonly bot: 'sensible' | 'random'
  readonly seed: string
  /** Where the node keeps its transcript, flushed before use as a deployed node does; in memory if absent. */
  readonly dir?: string
}

/** What a node reports after the game (instants in ms since 1970, fractional). */
export interface SpaaaceSeatReport {
  readonly self: number
  readonly end: string
  /** Tick → when the node became ready for it. */
  readonly ready: Record<string, number>
  /** Tick → when the node decided it settled (before it chose its next orders and signed `state`). */
  readonly settled: Record<string, number>
  /** `tick/type` → when the node signed that part of its own. */
  readonly signed: Record<string, number>
  /** `author/tick/type` → when the node first held that part (its own: when it signed it). */
  readonly held: Record<string, number>
  /** CPU of the process from the genesis to the end, ms. */
  readonly cpuMs: number
  /** CPU since the genesis, ms, sampled at `C_t + SKEW_MS` of each tick, and 3 s after its reveal instant. */
  readonly cpuAt: readonly number[]
  readonly cpuAfter: readonly number[]
  /** Tick → CPU since the genesis, ms, when the node signed `state(t)`: less `cpuAt`, its work on the tick's critical path. */
  readonly cpuAtState: Record<string, number>
  /** Envelopes the store took, and the wall time the node's thread spent in it (the flush to disk). */
  readonly flush: { readonly count: number; readonly ms: number }
  /** Frames and bytes the mesh sent, by cause, and frames it dropped, by code (`duplicate`: held already). */
  readonly sent: Record<string, { frames: number; bytes: number }>
  readonly dropped: Record<string, number>
  /** Connections this node dialled, and how many of them went through a link (not straight to the node). */
  readonly dialled: { readonly total: number; readonly viaLink: number }
  readonly transcript: string
}

const WARM_UP_TICKS = 8

const now = (): number => performance.timeOrigin + performance.now()

async function main(): Promise<void> {
  const lines = createInterface({ input: process.stdin })[Symbol.asyncIterator]()
  const next = async <T>(): Promise<T> => {
    const l = await lines.next()
    if (l.done === true) throw new Error('the bench parent went away')
    return JSON.parse(l.value) as T
  }
  const out = (o: unknown): void => void process.stdout.write(`${JSON.stringify(o)}\n`)

  // A node is long-running: a short game on a virtual clock first, so that what is measured is not
  // the JIT compiling the node's code (libp2p's is warmed by the connections and the accepts).
  await warmUp()
  const { secret } = await next<{ secret: string }>()
  const secretBytes = fromBase64url(secret)
  if (secretBytes === undefined) throw new Error('the secret is not base64url')
  const identity = await identityFromSecret(secretBytes)
  let roster = new Set<string>()
  const node = await createPeerNode({ identity, listen: ['/ip4/127.0.0.1/tcp/0'], admission: () => roster })
  await node.start()
  out({ addr: node.getMultiaddrs().map(String), peerId: identity.peerId.toString() })

  const order = await next<SpaaaceSeatOrder>()
  roster = new Set(order.roster)
  const genesisBytes = fromBase64url(order.genesis)
  const decoded = genesisBytes === undefined ? undefined : decodeGenesis(genesisBytes)
  if (decoded === undefined || !decoded.ok) throw new Error('the genesis does not decode')
  const genesis = decoded.value
  const cpu0 = process.cpuUsage()

  // The measurement: instants and bytes only; decoded after the game. An envelope is held once
  // the store has it on disk (the mesh persists before it delivers or forwards, §8).
  const heldRaw: [number, Uint8Array][] = []
  const signedRaw: [number, Uint8Array][] = []
  const ready = new Map<number, number>()
  const settled = new Map<number, number>()
  const disk =
    order.dir === undefined
      ? memoryStore()
      : spaaaceFileStore(join(order.dir, `p${order.self + 1}.transcript`), genesis, order.self)
  const flush = { count: 0, ms: 0 }
  const store: TranscriptStore = {
    append(bytes) {
      const t = now()
      disk.append(bytes)
      const held = now()
      flush.count++
      flush.ms += held - t
      heldRaw.push([held, bytes])
    },
    envelopes: () => disk.envelopes(),
  }
  const cpuNow = (): number => {
    const c = process.cpuUsage(cpu0)
    return (c.user + c.system) / 1000
  }
  const cpuAtState = new Map<number, number>()
  const life = new AbortController()
  const net = await runNetPeer({
    node,
    genesis,
    self: order.self,
    keys: identity.keys,
    roster: order.roster,
    addresses: order.addresses,
    store,
    secrets: memorySecrets(systemSecrets),
    chooser: botChooser(order.bot === 'random' ? randomBot : sensibleBot(), seededRng(order.seed)),
    events: {
      onReady: (t) => {
        if (!ready.has(t)) ready.set(t, now())
      },
      onSettled: (view) => {
        if (!settled.has(view.t)) settled.set(view.t, now())
      },
      onSigned: (e) => {
        signedRaw.push([now(), e.bytes])
        for (const p of e.envelope.parts) if (p.type === 'state') cpuAtState.set(p.tick, cpuNow())
      },
    },
    clock: systemClock,
    signal: life.signal,
  })
  // CPU a second before each tick's reveal instant (between two samples lies one tick's work),
  // and 3 s after it (reveal, close, state and the next tick's commitments and seals are done).
  const cpuAt: number[] = []
  const cpuAfter: number[] = []
  const timers = Array.from({ length: genesis.genesis.terms.maxTicks }, (_, i) => {
    const reveal = tickTimes(genesis.genesis.timing, i + 1).commitCut + 2 * SKEW_MS
    return [
      setTimeout(() => cpuAt.push(cpuNow()), reveal - SKEW_MS - now()),
      setTimeout(() => cpuAfter.push(cpuNow()), reveal + 3000 - now()),
    ]
  }).flat()
  const end = await net.done
  for (const t of timers) clearTimeout(t)
  const cpu = process.cpuUsage(cpu0)
  out({ done: true })

  await next<{ stop: true }>()
  const linkPorts = new Set(order.addresses.flat().map((a) => /\/tcp\/(\d+)/.exec(a)?.[1]))
  const outbound = node.getConnections().filter((c) => c.direction === 'outbound')
  const dialled = {
    total: outbound.length,
    viaLink: outbound.filter((c) => linkPorts.has(/\/tcp\/(\d+)/.exec(c.remoteAddr.toString())?.[1])).length,
  }
  life.abort()
  await node.stop()

  const ctx = { players: genesis.genesis.keys.length, game: genesis.game }
  const held: Record<string, number> = {}
  const signed: Record<string, number> = {}
  const note = (into: Record<string, number>, at: number, bytes: Uint8Array, own: boolean): void => {
    const r = readEnvelope(bytes, ctx)
    if (!r.ok || !r.value.body.ok) return
    for (const p of r.value.body.value.parts) {
      const t = tickOf(p)
      if (t === undefined) continue
      const key = own ? `${t}/${p.type}` : `${r.value.header.author}/${t}/${p.type}`
      into[key] ??= at
    }
  }
  for (const [at, bytes] of signedRaw) {
    note(signed, at, bytes, true)
    note(held, at, bytes, false)
  }
  for (const [at, bytes] of heldRaw) note(held, at, bytes, false)
  const report: SpaaaceSeatReport = {
    self: order.self,
    end: end?.kind ?? 'aborted',
    ready: Object.fromEntries(ready),
    settled: Object.fromEntries(settled),
    signed,
    held,
    cpuMs: (cpu.user + cpu.system) / 1000,
    cpuAt,
    cpuAfter,
    cpuAtState: Object.fromEntries(cpuAtState),
    flush,
    sent: Object.fromEntries(net.mesh.traffic.sentByCause),
    dropped: Object.fromEntries(net.mesh.drops),
    dialled,
    transcript: formatPeersTranscript(genesis.bytes, store.envelopes()),
  }
  out(report)
  process.stdin.destroy()
}

/** WARM_UP_TICKS ticks of a local game of SPAAACE_PLAYERS nodes in this process, no wall time. */
async function warmUp(): Promise<void> {
  const start = 1_800_000_000_000
  const seed = `warm-up/${process.pid}`
  const { keys, genesis } = localRoster(8, seed, defaultPeersTerms(WARM_UP_TICKS), fastestTiming(start))
  await runLocalGame({
    seats: keys.map((_, i) => ({ chooser: botChooser(sensibleBot(), seededRng(`${seed}/${i}`)) })),
    genesis,
    keys,
    secrets: (i) => seededSecrets(`${seed}/seed/${i}`),
    clock: new VirtualClock(start - 1000),
  })
}

await main()
