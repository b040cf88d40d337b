/**
 * The per-turn figures: the full protocol against the trusting baselines, game by game on the same
 * seeds, with both players in this process or each in a bench peer process of its own (as on two
 * machines), on loopback or through a link that adds a delay each way.
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import {
  type BenchBot,
  type BenchMode,
  type PeerResult,
  acceptChannel,
  benchNode,
  counting,
  dialChannel,
  playSide,
} from './peer.js'
import { type Link, delayLink, viaPort } from './link.js'
import { REPS, type Stat, stat } from './stat.js'

const ROOT = join(fileURLToPath(import.meta.url), '..', '..', '..')
const PEER = join(ROOT, 'dist', 'bench', 'peer.js')
/** Per-turn figures use random bots: their games are long (about 147 turns), so turns dominate. */
export const PER_TURN_MAX_TURNS = 100
/** The realistic link: 20 ms one way, as between two machines in one region. */
export const LINK_DELAY_MS = 20
/** Random-bot games over the link are cut at 30 turns: a turn there costs about 80 ms. */
export const LINK_MAX_TURNS = 30

export interface TurnSeries {
  readonly games: number
  readonly maxTurns: number
  readonly turns: Stat
  readonly wallMs: { readonly full: Stat; readonly trusting: Stat; readonly ratio: number }
  /** Trusting play on the pipelined schedule only trust allows (trusting.ts): two one-way delays a turn, not three. */
  readonly pipelined?: { readonly wallMs: Stat; readonly ratio: number; readonly tcpBytesPerPlayer?: Stat }
  readonly cpuMsPerPlayer: { readonly full: Stat; readonly trusting: Stat; readonly ratio: number }
  readonly bytesPerPlayer: { readonly full: Stat; readonly trusting: Stat }
  readonly tcpBytesPerPlayer?: { readonly full: Stat; readonly trusting: Stat }
}
/** Per-turn figures of one game. */
interface TurnRun {
  readonly wallMsPerTurn: number
  readonly cpuMsPerTurnPerPlayer: number
  /** The game's frames, as the session hands them to the stream. */
  readonly bytesPerTurnPerPlayer: number
  /** What TCP carried, libp2p's framing included (measured on the link; in one process, not measured). */
  readonly tcpBytesPerTurnPerPlayer?: number
  readonly turns: number
}

/** Both players in this process, over a libp2p TCP link on loopback (Noise, yamux): they share one thread. */
async function perTurnOneProcess(mode: BenchMode, seed: string): Promise<TurnRun> {
  const [na, nb] = await Promise.all([benchNode(seed, 'A', true), benchNode(seed, 'B', false)])
  const accepted = await acceptChannel(na)
  const b = await dialChannel(nb, na.getMultiaddrs().map(String))
  await accepted.opened
  const bytes = { bytes: 0 }
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  const [turns] = await Promise.all([
    playSide(mode, 'A', seed, counting(accepted.channel, bytes), PER_TURN_MAX_TURNS),
    playSide(mode, 'B', seed, counting(b, bytes), PER_TURN_MAX_TURNS),
  ])
  const wall = performance.now() - t0
  const cpu = process.cpuUsage(cpu0)
  accepted.channel.close()
  b.close()
  await Promise.all([na.stop(), nb.stop()] as Promise<void>[])
  return {
    wallMsPerTurn: wall / turns,
    cpuMsPerTurnPerPlayer: (cpu.user + cpu.system) / 1000 / turns / 2,
    bytesPerTurnPerPlayer: bytes.bytes / turns / 2,
    turns,
  }
}

/** A bench peer process: its JSON lines as they come, and (for a dialer) a way to start its next game. */
interface PeerProcess {
  readonly lines: AsyncIterableIterator<string>
  readonly done: Promise<number | null>
  start(): void
  end(): void
}

function peerProcess(args: readonly string[]): PeerProcess {
  const child = spawn(process.execPath, [PEER, ...args], { stdio: ['pipe', 'pipe', 'inherit'] })
  const done = new Promise<number | null>((r) => child.on('exit', r))
  return {
    lines: createInterface({ input: child.stdout })[Symbol.asyncIterator](),
    done,
    start: () => void child.stdin.write('go\n'),
    end: () => void child.stdin.end(),
  }
}

async function nextJson<T>(lines: AsyncIterableIterator<string>): Promise<T> {
  const next = await lines.next()
  if (next.done === true) throw new Error('a bench peer process ended early')
  return JSON.parse(next.value) as T
}

/** One pair of peer processes, the dialer reaching the listener through a link that adds `delayMs` each way. */
interface PeerPair {
  readonly host: PeerProcess
  readonly join: PeerProcess
  readonly link: Link
}

async function peerPair(
  mode: BenchMode,
  bot: BenchBot,
  seed: string,
  maxTurns: number,
  games: number,
  delayMs: number,
): Promise<PeerPair> {
  const host = peerProcess(['listen', mode, seed, String(maxTurns), String(games), bot])
  const { addr } = await nextJson<{ addr: string[] }>(host.lines)
  const tcp = addr.find((a) => a.includes('/tcp/'))
  const port = Number(/\/tcp\/(\d+)/.exec(tcp ?? '')?.[1])
  if (tcp === undefined || !Number.isInteger(port)) throw new Error('the bench listener has no TCP address')
  const link = await delayLink(port, delayMs)
  const join = peerProcess(['dial', mode, seed, String(maxTurns), String(games), bot, viaPort(tcp, link.port)])
  return { host, join, link }
}

/** Plays the pair's next game; the bytes are those the link carried both ways during it, per player. */
async function nextGame(p: PeerPair, label: string): Promise<TurnRun> {
  const before = p.link.bytes.up + p.link.bytes.down
  p.join.start()
  const [a, b] = await Promise.all([nextJson<PeerResult>(p.host.lines), nextJson<PeerResult>(p.join.lines)])
  if (a.turns !== b.turns || a.turns === 0) throw new Error(`${label}: the sides disagree on the game's length`)
  const tcp = p.link.bytes.up + p.link.bytes.down - before
  return {
    wallMsPerTurn: Math.max(a.wallMs, b.wallMs) / a.turns,
    cpuMsPerTurnPerPlayer: (a.cpuMs + b.cpuMs) / 2 / a.turns,
    bytesPerTurnPerPlayer: (a.bytesSent + b.bytesSent) / 2 / a.turns,
    tcpBytesPerTurnPerPlayer: tcp / 2 / a.turns,
    turns: a.turns,
  }
}

/**
 * Each player in its own process (as on two machines): a turn costs the critical path. A full pair
 * and a trusting pair play the same seeded games, alternating game by game so that a busy moment
 * of the machine falls on both; each pair plays a warm-up game first (a peer node is long-running;
 * a fresh process would measure the JIT).
 */
export async function pairedRuns(
  bot: BenchBot,
  delayMs: number,
  maxTurns: number,
  count: number,
): Promise<Record<BenchMode, TurnRun[]>> {
  const seed = `turn/${bot}/${delayMs}`
  const modes = ['full', 'trusting', 'pipelined'] as const
  const pairs = {
    full: await peerPair('full', bot, seed, maxTurns, count + 1, delayMs),
    trusting: await peerPair('trusting', bot, seed, maxTurns, count + 1, delayMs),
    pipelined: await peerPair('pipelined', bot, seed, maxTurns, count + 1, delayMs),
  }
  const runs: Record<BenchMode, TurnRun[]> = { full: [], trusting: [], pipelined: [] }
  for (let g = 0; g <= count; g++) {
    for (const mode of modes) {
      const r = await nextGame(pairs[mode], `${mode} ${seed} game ${g}`)
      if (g > 0) runs[mode].push(r)
    }
  }
  for (const p of Object.values(pairs)) {
    p.join.end()
    await Promise.all([p.host.done, p.join.done])
    await p.link.close()
  }
  return runs
}

/** The figures of a series of games: per turn, medians with min and max, and the ratios of the medians. */
export function summary(
  full: readonly TurnRun[],
  trusting: readonly TurnRun[],
  maxTurns: number,
  pipelined?: readonly TurnRun[],
): TurnSeries {
  const pick = (runs: readonly TurnRun[], f: (r: TurnRun) => number): Stat => stat(runs.map(f))
  const wall = { full: pick(full, (r) => r.wallMsPerTurn), trusting: pick(trusting, (r) => r.wallMsPerTurn) }
  const cpu = {
    full: pick(full, (r) => r.cpuMsPerTurnPerPlayer),
    trusting: pick(trusting, (r) => r.cpuMsPerTurnPerPlayer),
  }
  const tcp = full.every((r) => r.tcpBytesPerTurnPerPlayer !== undefined)
    ? {
        tcpBytesPerPlayer: {
          full: pick(full, (r) => r.tcpBytesPerTurnPerPlayer ?? 0),
          trusting: pick(trusting, (r) => r.tcpBytesPerTurnPerPlayer ?? 0),
        },
      }
    : {}
  const piped = pipelined === undefined ? undefined : pick(pipelined, (r) => r.wallMsPerTurn)
  const pipedTcp =
    pipelined?.every((r) => r.tcpBytesPerTurnPerPlayer !== undefined) === true
      ? { tcpBytesPerPlayer: pick(pipelined, (r) => r.tcpBytesPerTurnPerPlayer ?? 0) }
      : {}
  return {
    games: full.length,
    maxTurns,
    turns: pick(full, (r) => r.turns),
    wallMs: { ...wall, ratio: wall.full.median / wall.trusting.median },
    ...(piped === undefined
      ? {}
      : { pipelined: { wallMs: piped, ratio: wall.full.median / piped.median, ...pipedTcp } }),
    cpuMsPerPlayer: { ...cpu, ratio: cpu.full.median / cpu.trusting.median },
    bytesPerPlayer: {
      full: pick(full, (r) => r.bytesPerTurnPerPlayer),
      trusting: pick(trusting, (r) => r.bytesPerTurnPerPlayer),
    },
    ...tcp,
  }
}

/** One process: a warm-up game of each mode, then REPS games of each, alternating, on the same seeds. */
export async function inOneProcess(): Promise<TurnSeries> {
  await perTurnOneProcess('full', 'warm/full')
  await perTurnOneProcess('trusting', 'warm/trusting')
  const full: TurnRun[] = []
  const trusting: TurnRun[] = []
  for (let i = 0; i < REPS; i++) {
    full.push(await perTurnOneProcess('full', `turn/${i}`))
    trusting.push(await perTurnOneProcess('trusting', `turn/${i}`))
  }
  return summary(full, trusting, PER_TURN_MAX_TURNS)
}
