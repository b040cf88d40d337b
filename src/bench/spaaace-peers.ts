/**
 * Spaaace! among peers, measured: a tick among SPAAACE_PLAYERS nodes, a process each, every dial
 * between two of them crossing a link that adds LINK_DELAY_MS each way (`delayLink`), the bytes a
 * tick per player those links carry, and the verifier's cost for a VERIFY_TICKS-tick game.
 *
 * A tick lasts `L = commitMs + revealMs + 2Δ + 2·SKEW_MS` (18.5 s at Δ = 500 ms) because of the
 * protocol's fixed waits, so what is measured is the protocol's own latency on top of them:
 *
 * - **tick**: from the reveal instant `C_t + 2·SKEW_MS` (every node reveals then) to the moment the
 *   last node signs `state(t)` (the tick settled everywhere): reveal, close and state, two link
 *   crossings and the work between;
 * - **commit phase**: from the moment the last node became ready for tick `t` to the moment the
 *   last node held the commitment of every player who committed in `t`.
 *
 * Instants are the nodes' own (`spaaace-peer-process.ts`), on the one clock of this machine.
 */
import { spawn } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { performance } from 'node:perf_hooks'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { toBase64url } from '../core/commit/bytes.js'
import { keyPairFromSecret } from '../core/commit/keys.js'
import { seededSecrets } from '../core/commit/secrets.js'
import { VirtualClock } from '../core/session/clock.js'
import { sensibleBot } from '../games/spaaace/bot/sensible.js'
import { botChooser } from '../games/spaaace/node/choosers.js'
import {
  composeGenesis,
  defaultPeersTerms,
  fastestTiming,
  localRoster,
  runLocalGame,
} from '../games/spaaace/node/local.js'
import { SKEW_MS, tickLength } from '../games/spaaace/peers/domain.js'
import { tickTimes } from '../games/spaaace/peers/genesis.js'
import { seededRng } from '../games/spaaace/referee/random.js'
import { verifySpaaace } from '../games/spaaace/verify/verify.js'
import { type Link, delayLink, viaPort } from './link.js'
import { LINK_DELAY_MS } from './per-turn.js'
import type { SpaaaceSeatOrder, SpaaaceSeatReport } from './spaaace-peer-process.js'
import { type Stat, stat } from './stat.js'

const ROOT = join(fileURLToPath(import.meta.url), '..', '..', '..')
const SEAT = join(ROOT, 'dist', 'bench', 'spaaace-peer-process.js')
export const SPAAACE_PLAYERS = 8
/** Ticks of the networked game: four, so a run takes about 80 s (a tick lasts 18.5 s). */
export const SPAAACE_MAX_TICKS = 4
/** Δ: the least the terms allow. */
export const SPAAACE_MARGIN_MS = 500
/** The game whose transcripts the verifier's cost is measured on. */
export const VERIFY_TICKS = 60
const VERIFY_REPS = 5

export interface SpaaaceTick {
  readonly tick: number
  /** The reveal instant → the last node signs `state(t)`, ms. */
  readonly settledMs: number
  /** The reveal instant → the first node signs `state(t)`, ms. */
  readonly firstSettledMs: number
  /** The critical path's steps, each from the reveal instant to the last node's, ms. */
  readonly steps: {
    readonly revealSigned: number
    readonly revealsHeld: number
    readonly closeSigned: number
    readonly closesHeld: number
    readonly settledDecided: number
    readonly stateSigned: number
  }
  /** The last node ready for `t` → the last node holds every commitment of `t`, ms. */
  readonly commitMs: number
  /** The first node ready → the last node ready, ms. */
  readonly readySpreadMs: number
  readonly commitments: number
}

export interface SpaaacePeersResult {
  readonly players: number
  readonly linkDelayMs: number
  readonly marginMs: number
  readonly tickLengthMs: number
  readonly maxTicks: number
  readonly bot: string
  /** Where each node keeps its transcript: on disk, flushed before use (as deployed), or in memory. */
  readonly transcripts: 'disk' | 'memory'
  readonly ticks: readonly SpaaaceTick[]
  readonly settledMs: Stat
  readonly commitMs: Stat
  /** TCP bytes both ways over every link, per tick per player, between `C_1 + SKEW_MS` and `C_T + SKEW_MS`. */
  readonly tcpBytesPerTickPerPlayer: number
  /** Every byte of the game (handshakes, accepts, the seeds), per tick per player. */
  readonly tcpBytesWholeGamePerTickPerPlayer: number
  /** CPU of each node process a tick, between `C_1 + SKEW_MS` and `C_T + SKEW_MS` (over the nodes). */
  readonly cpuMsPerTickPerPlayer: Stat
  /** Of that, the 4 s around the reveal instant (`C_t + SKEW_MS` to 3 s after it: the tick's work), ms. */
  readonly cpuMsBurstPerTickPerPlayer: Stat
  /**
   * CPU of a node process from a second before the reveal instant (nothing is due between) to its
   * signing `state(t)`: its own work on the tick's critical path, over the nodes and ticks, ms. On
   * 2 cores the tick is CPU-bound, so this, times 8 nodes, halved, is a floor under the tick.
   */
  readonly cpuMsToStatePerPlayer: Stat
  /** The same over the whole game from the genesis (the 28 connections' handshakes, warm-up). */
  readonly cpuMsWholeGamePerTickPerPlayer: Stat
  /** What the meshes did, a tick per player over the whole game: frames sent by cause, and frames dropped as held already. */
  readonly mesh: {
    readonly sentFrames: Record<string, number>
    readonly sentBytes: number
    readonly duplicatesDropped: number
  }
  /** Wall time a node's thread spent storing envelopes (a flush to disk each), a tick per player, ms, and per envelope, µs. */
  readonly store: { readonly msPerTickPerPlayer: number; readonly usPerEnvelope: number }
  /** CPU of this process a tick, which runs the eight links (a network would carry that), ms. */
  readonly linkCpuMsPerTick: number
  /** The machine's load average (1 min) when the game started and when it ended: others share it. */
  readonly loadAverage: readonly [number, number]
  /** The verdict of the 8 transcripts merged, and each file's. */
  readonly verdict: string
  readonly dialled: { readonly total: number; readonly viaLink: number }
  readonly wallSeconds: number
}

export interface SpaaaceVerifierResult {
  readonly players: number
  readonly ticks: number
  readonly envelopesOneFile: number
  readonly envelopesMerged: number
  readonly bytesOneFile: number
  readonly oneFileMs: Stat
  readonly mergedMs: Stat
  readonly makeGameSeconds: number
}

interface Seat {
  readonly lines: AsyncIterableIterator<string>
  send(o: unknown): void
  kill(): void
  readonly done: Promise<number | null>
}

function seat(profileDir: string | undefined): Seat {
  const args = profileDir === undefined ? [SEAT] : ['--cpu-prof', '--cpu-prof-dir', profileDir, SEAT]
  const child = spawn(process.execPath, args, { stdio: ['pipe', 'pipe', 'inherit'] })
  const done = new Promise<number | null>((r) => child.on('exit', r))
  return {
    lines: createInterface({ input: child.stdout })[Symbol.asyncIterator](),
    send: (o) => void child.stdin.write(`${JSON.stringify(o)}\n`),
    kill: () => void child.kill(),
    done,
  }
}

async function nextJson<T>(lines: AsyncIterableIterator<string>): Promise<T> {
  const next = await lines.next()
  if (next.done === true) throw new Error('a Spaaace! bench node ended early')
  return JSON.parse(next.value) as T
}

const maxOf = (xs: readonly (number | undefined)[]): number => {
  let m = -Infinity
  for (const x of xs) {
    if (x === undefined) return NaN
    m = Math.max(m, x)
  }
  return m
}

/**
 * One game among SPAAACE_PLAYERS node processes over links adding `delayMs` each way.
 * `BENCH_SPAAACE_PROFILE=<dir>` runs the first node under `--cpu-prof` into that directory.
 */
export async function spaaacePeers(
  log: (m: string) => void,
  delayMs: number = LINK_DELAY_MS,
  bot: 'sensible' | 'random' = 'sensible',
  store: 'disk' | 'memory' = 'disk',
): Promise<SpaaacePeersResult> {
  const t0 = performance.now()
  const load0 = loadavg()[0] ?? 0
  const n = SPAAACE_PLAYERS
  const profile = process.env['BENCH_SPAAACE_PROFILE']
  const secrets = Array.from({ length: n }, () => new Uint8Array(randomBytes(32)))
  const seats = secrets.map((_, i) => seat(i === 0 && profile !== undefined && profile !== '' ? profile : undefined))
  for (const [i, s] of seats.entries()) s.send({ secret: toBase64url(secrets[i] ?? new Uint8Array()) })
  const hello = await Promise.all(seats.map((s) => nextJson<{ addr: string[]; peerId: string }>(s.lines)))
  const links: Link[] = []
  const dialAt: string[] = []
  for (const h of hello) {
    const tcp = h.addr.find((a) => a.includes('/tcp/'))
    const port = Number(/\/tcp\/(\d+)/.exec(tcp ?? '')?.[1])
    if (tcp === undefined || !Number.isInteger(port)) throw new Error('a Spaaace! bench node has no TCP address')
    const link = await delayLink(port, delayMs)
    links.push(link)
    dialAt.push(viaPort(tcp, link.port))
  }
  // Tick 1 starts 3 s from now: time for the 28 connections and the accepts (a node plays tick 1
  // if it holds every accept by G_1, 7.5 s after the start).
  const start = Math.ceil(Date.now() / 1000) * 1000 + 3000
  const timing = fastestTiming(start, SPAAACE_MARGIN_MS)
  const { genesis, rosterIndex } = composeGenesis(
    secrets.map((s) => keyPairFromSecret(s).publicKey),
    defaultPeersTerms(SPAAACE_MAX_TICKS),
    timing,
    new Uint8Array(randomBytes(32)),
  )
  const roster = new Array<string>(n)
  const addresses = new Array<string[]>(n)
  rosterIndex.forEach((r, i) => {
    roster[r] = hello[i]?.peerId ?? ''
    addresses[r] = [dialAt[i] ?? '']
  })
  const runSeed = toBase64url(new Uint8Array(randomBytes(9)))
  const dir = mkdtempSync(join(tmpdir(), 'spaaace-bench-'))
  for (const [i, s] of seats.entries()) {
    const order: SpaaaceSeatOrder = {
      genesis: toBase64url(genesis.bytes),
      self: rosterIndex[i] ?? 0,
      roster,
      addresses,
      bot,
      seed: `${runSeed}/${i}`,
      ...(store === 'disk' ? { dir } : {}),
    }
    s.send(order)
  }
  log(
    `   ${n} node processes, links adding ${delayMs} ms each way, ${bot} bots, transcripts ${store === 'disk' ? 'on disk' : 'in memory'}, ${SPAAACE_MAX_TICKS} ticks of ${(tickLength(timing) / 1000).toFixed(1)} s from ${new Date(start).toISOString()}`,
  )

  // Bytes sampled a second before each tick's reveal instant: between two samples lie one tick's
  // reveal, close and state and the next tick's commitments and seals; nothing else is due then.
  const total = (): number => links.reduce((a, l) => a + l.bytes.up + l.bytes.down, 0)
  const samples: number[] = []
  const linkCpu0 = process.cpuUsage()
  const timers: NodeJS.Timeout[] = []
  for (let t = 1; t <= SPAAACE_MAX_TICKS; t++) {
    const at = tickTimes(timing, t).commitCut + SKEW_MS
    timers.push(setTimeout(() => samples.push(total()), at - Date.now()))
  }
  // A game that has not ended 30 s after its last tick's end is a failure, not a figure.
  let timer: NodeJS.Timeout | undefined
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => {
        for (const s of seats) s.kill()
        reject(new Error('the Spaaace! bench game did not end in time'))
      },
      tickTimes(timing, SPAAACE_MAX_TICKS).next + 30_000 - Date.now(),
    )
  })
  try {
    await Promise.race([Promise.all(seats.map((s) => nextJson<{ done: true }>(s.lines))), late])
  } finally {
    clearTimeout(timer)
  }
  const linkCpu = process.cpuUsage(linkCpu0)
  for (const t of timers) clearTimeout(t)
  const wholeBytes = total()
  for (const s of seats) s.send({ stop: true })
  const reports = await Promise.all(seats.map((s) => nextJson<SpaaaceSeatReport>(s.lines)))
  await Promise.all(seats.map((s) => s.done))
  for (const l of links) await l.close()
  rmSync(dir, { recursive: true, force: true })

  const verdicts = verifySpaaace(reports.map((r) => ({ name: `p${r.self + 1}`, text: r.transcript })))
  const verdict = verdicts.map((v) => v.status).join(',')
  const ticks: SpaaaceTick[] = []
  for (let t = 1; t <= SPAAACE_MAX_TICKS; t++) {
    const reveal = tickTimes(timing, t).commitCut + 2 * SKEW_MS
    const committers = [...new Set(reports.flatMap((r) => (r.signed[`${t}/commit`] === undefined ? [] : [r.self])))]
    const revealers = [...new Set(reports.flatMap((r) => (r.signed[`${t}/reveal`] === undefined ? [] : [r.self])))]
    const closers = [...new Set(reports.flatMap((r) => (r.signed[`${t}/close`] === undefined ? [] : [r.self])))]
    const lastHeld = (type: string, authors: readonly number[]): number =>
      maxOf(reports.map((r) => maxOf(authors.map((a) => r.held[`${a}/${t}/${type}`]))))
    const signedBy = (type: string): (number | undefined)[] => reports.map((r) => r.signed[`${t}/${type}`])
    const state = signedBy('state')
    const ready = reports.map((r) => r.ready[t])
    ticks.push({
      tick: t,
      settledMs: maxOf(state) - reveal,
      firstSettledMs: Math.min(...state.map((x) => x ?? NaN)) - reveal,
      steps: {
        revealSigned: maxOf(signedBy('reveal')) - reveal,
        revealsHeld: lastHeld('reveal', revealers) - reveal,
        closeSigned: maxOf(signedBy('close')) - reveal,
        closesHeld: lastHeld('close', closers) - reveal,
        settledDecided: maxOf(reports.map((r) => r.settled[t])) - reveal,
        stateSigned: maxOf(state) - reveal,
      },
      commitMs: lastHeld('commit', committers) - maxOf(ready),
      readySpreadMs: maxOf(ready) - Math.min(...ready.map((x) => x ?? NaN)),
      commitments: committers.length,
    })
  }
  const T = SPAAACE_MAX_TICKS
  const perTick = (sum: (r: SpaaaceSeatReport) => number): number => reports.reduce((a, r) => a + sum(r), 0) / T / n
  const causes = [...new Set(reports.flatMap((r) => Object.keys(r.sent)))]
  const steady = samples.length >= 2 ? ((samples.at(-1) ?? 0) - (samples[0] ?? 0)) / (samples.length - 1) / n : NaN
  return {
    players: n,
    linkDelayMs: delayMs,
    marginMs: SPAAACE_MARGIN_MS,
    tickLengthMs: tickLength(timing),
    maxTicks: SPAAACE_MAX_TICKS,
    bot,
    transcripts: store,
    ticks,
    settledMs: stat(ticks.map((t) => t.settledMs)),
    commitMs: stat(ticks.map((t) => t.commitMs)),
    tcpBytesPerTickPerPlayer: steady,
    tcpBytesWholeGamePerTickPerPlayer: wholeBytes / SPAAACE_MAX_TICKS / n,
    cpuMsPerTickPerPlayer: stat(
      reports.map((r) => ((r.cpuAt.at(-1) ?? NaN) - (r.cpuAt[0] ?? NaN)) / (r.cpuAt.length - 1)),
    ),
    cpuMsBurstPerTickPerPlayer: stat(
      reports.map(
        (r) => r.cpuAt.slice(0, -1).reduce((a, at, i) => a + (r.cpuAfter[i] ?? NaN) - at, 0) / (r.cpuAt.length - 1),
      ),
    ),
    cpuMsToStatePerPlayer: stat(
      reports.flatMap((r) =>
        r.cpuAt.flatMap((at, i) => {
          const state = r.cpuAtState[String(i + 1)]
          return state === undefined ? [] : [state - at]
        }),
      ),
    ),
    cpuMsWholeGamePerTickPerPlayer: stat(reports.map((r) => r.cpuMs / T)),
    mesh: {
      sentFrames: Object.fromEntries(causes.map((c) => [c, perTick((r) => r.sent[c]?.frames ?? 0)])),
      sentBytes: perTick((r) => Object.values(r.sent).reduce((a, x) => a + x.bytes, 0)),
      duplicatesDropped: perTick((r) => r.dropped['duplicate'] ?? 0),
    },
    store: {
      msPerTickPerPlayer: perTick((r) => r.flush.ms),
      usPerEnvelope:
        (1000 * reports.reduce((a, r) => a + r.flush.ms, 0)) / reports.reduce((a, r) => a + r.flush.count, 0),
    },
    linkCpuMsPerTick: (linkCpu.user + linkCpu.system) / 1000 / T,
    loadAverage: [load0, loadavg()[0] ?? 0],
    verdict,
    dialled: {
      total: reports.reduce((a, r) => a + r.dialled.total, 0),
      viaLink: reports.reduce((a, r) => a + r.dialled.viaLink, 0),
    },
    wallSeconds: (performance.now() - t0) / 1000,
  }
}

/**
 * The verifier's CPU for a VERIFY_TICKS-tick game of SPAAACE_PLAYERS sensible bots, made in this
 * process on a virtual clock (`runLocalGame`, no wall time): `verifySpaaace` on one player's file,
 * and on the eight files merged; a warm-up, then the median of VERIFY_REPS.
 */
export async function spaaaceVerifier(log: (m: string) => void): Promise<SpaaaceVerifierResult> {
  const n = SPAAACE_PLAYERS
  const seed = 'bench/spaaace-verify'
  const start = 1_800_000_000_000
  log(`   a ${VERIFY_TICKS}-tick game of ${n} sensible bots on a virtual clock, then verify on one file and on all`)
  const t0 = performance.now()
  const { keys, genesis } = localRoster(n, seed, defaultPeersTerms(VERIFY_TICKS), fastestTiming(start))
  const game = await runLocalGame({
    seats: Array.from({ length: n }, (_, i) => ({ chooser: botChooser(sensibleBot(), seededRng(`${seed}/${i}`)) })),
    genesis,
    keys,
    secrets: (i) => seededSecrets(`${seed}/seed/${i}`),
    clock: new VirtualClock(start - 1000),
  })
  const makeGameSeconds = (performance.now() - t0) / 1000
  const files = game.transcripts.map((text, i) => ({ name: `p${i + 1}`, text }))
  const one = files.slice(0, 1)
  const check = (fs: typeof files): { ticks: number } => {
    const [v] = verifySpaaace(fs)
    if (v === undefined || v.status !== 'complete')
      throw new Error(`the bench's Spaaace! game is ${v?.status ?? 'missing'}`)
    return { ticks: v.decision.ticks.filter((x) => x.outcome !== undefined).length }
  }
  const { ticks } = check(files)
  check(one)
  const time = (fs: typeof files): number => {
    const c0 = process.cpuUsage()
    verifySpaaace(fs)
    const c = process.cpuUsage(c0)
    return (c.user + c.system) / 1000
  }
  const oneFileMs: number[] = []
  const mergedMs: number[] = []
  for (let i = 0; i < VERIFY_REPS; i++) {
    oneFileMs.push(time(one))
    mergedMs.push(time(files))
  }
  // A file is a header line, the genesis, then an envelope a line.
  const lines = (text: string): number => text.split('\n').filter((l) => l !== '').length - 2
  const unique = new Set(
    files.flatMap((f) =>
      f.text
        .split('\n')
        .slice(2)
        .filter((l) => l !== ''),
    ),
  )
  return {
    players: n,
    ticks,
    envelopesOneFile: lines(one[0]?.text ?? ''),
    envelopesMerged: unique.size,
    bytesOneFile: one[0]?.text.length ?? 0,
    oneFileMs: stat(oneFileMs),
    mergedMs: stat(mergedMs),
    makeGameSeconds,
  }
}

export interface SpaaaceResult {
  /** Each node's transcript on disk, flushed before each envelope is sent or acted on (as deployed). */
  readonly peers: SpaaacePeersResult
  /** The same game with the transcripts in memory: what the disk's flushes cost. */
  readonly peersInMemory?: SpaaacePeersResult
  readonly verifier: SpaaaceVerifierResult
}

/** The section: the networked game, then the verifier. */
export async function spaaaceSection(log: (m: string) => void): Promise<SpaaaceResult> {
  log(`8. Spaaace! among ${SPAAACE_PLAYERS} peers, a process each, over links adding ${LINK_DELAY_MS} ms each way`)
  const peers = await spaaacePeers(log)
  log('   the same, each transcript in memory (no flush to disk)')
  const peersInMemory = await spaaacePeers(log, LINK_DELAY_MS, 'sensible', 'memory')
  const verifier = await spaaaceVerifier(log)
  return { peers, peersInMemory, verifier }
}
