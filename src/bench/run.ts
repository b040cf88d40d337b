/**
 * `npm run bench`: the cost of playing without a referee, measured side by side with a
 * trusting baseline, on one machine, in one run, with warm-up and repetitions; medians with
 * min/max. Writes `bench/results.json` so later changes can be compared.
 */
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import type { Libp2p } from '@libp2p/interface'
import { makeBot } from '../games/spaceships/bot/levels.js'
import { generateKeyPair } from '../core/commit/keys.js'
import { seededSecrets } from '../core/commit/secrets.js'
import { hostGame, joinGame } from '../games/spaceships/net/game.js'
import { identityFromSecret } from '../core/net/identity.js'
import { playTurn, startGame } from '../games/spaceships/rules/game.js'
import { playRandomGame } from '../games/spaceships/rules/enumerate.js'
import type { ActionRecord } from '../games/spaceships/rules/record.js'
import { seededRandom } from '../games/spaceships/rules/rng.js'
import { DEFAULT_RULESET } from '../games/spaceships/rules/ruleset.js'
import type { WrittenShip } from '../games/spaceships/rules/setup.js'
import type { Channel } from '../core/session/channel.js'
import { runSession } from '../games/spaceships/session/session.js'
import { formatTranscript, memoryStore } from '../games/spaceships/protocol/file.js'
import { verifyTranscript } from '../games/spaceships/verify/verify.js'
import { defaultJobs, verifyGroups } from '../games/spaceships/pool/verify-pool.js'
import { worstCase } from './worst.js'
import {
  type BenchBot,
  type BenchMode,
  type PeerResult,
  acceptChannel,
  benchNode,
  benchTerms,
  counting,
  dialChannel,
  playSide,
} from './peer.js'
import { type Link, delayLink, viaPort } from './link.js'

const ROOT = join(fileURLToPath(import.meta.url), '..', '..', '..')
/** The `spaceships` executable as npm installs it (bin.js turns on Node's compile cache). */
const CLI = join(ROOT, 'dist', 'cli', 'bin.js')
const PEER = join(ROOT, 'dist', 'bench', 'peer.js')
const RULESET = DEFAULT_RULESET
/** Per-turn figures use random bots: their games are long (about 147 turns), so turns dominate. */
const PER_TURN_MAX_TURNS = 100
/** The realistic link: 20 ms one way, as between two machines in one region. */
const LINK_DELAY_MS = 20
/** Random-bot games over the link are cut at 30 turns: a turn there costs about 80 ms. */
const LINK_MAX_TURNS = 30
const REPS = 5

interface TurnSeries {
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

interface Stat {
  readonly median: number
  readonly min: number
  readonly max: number
  readonly n: number
}

function stat(xs: readonly number[]): Stat {
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  const median = s.length % 2 === 1 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2
  return { median, min: s[0] ?? 0, max: s[s.length - 1] ?? 0, n: s.length }
}

const terms = benchTerms

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
async function pairedRuns(
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

/** A whole game over libp2p: nodes, connection, invite preamble, hello, play, reveal, both verifications. */
async function wholeGame(bot: 'medium' | 'random', seed: string): Promise<{ ms: number; turns: number }> {
  const t0 = performance.now()
  const [ia, ib] = await Promise.all([
    identityFromSecret(seededSecrets(`${seed}/ia`).bytes(32)),
    identityFromSecret(seededSecrets(`${seed}/ib`).bytes(32)),
  ])
  const id = '0123456789abcdef0123456789abcdef'
  let invited: (addrs: string[]) => void = () => undefined
  const addrs = new Promise<string[]>((r) => (invited = r))
  const t = terms(1000)
  const host = hostGame({
    identity: ia,
    secrets: seededSecrets(`${seed}/A`),
    store: memoryStore(),
    strategy: makeBot(bot, `${seed}/A`),
    listen: ['/ip4/127.0.0.1/tcp/0'],
    inviteId: id,
    terms: t,
    waitMs: 10_000,
    onReady: (n: Libp2p) => {
      invited(n.getMultiaddrs().map(String))
    },
  })
  const join = joinGame({
    identity: ib,
    secrets: seededSecrets(`${seed}/B`),
    store: memoryStore(),
    strategy: makeBot(bot, `${seed}/B`),
    listen: [],
    invite: { id, peer: ia.peerId.toString(), addrs: await addrs, terms: t },
  })
  const [h] = await Promise.all([host, join])
  const ms = performance.now() - t0
  if (h.verdict.status !== 'complete') throw new Error(`whole game ${seed}: ${h.verdict.status}`)
  return { ms, turns: h.verdict.turn }
}

async function transcripts(bot: 'medium' | 'random', count: number, maxTurns: number): Promise<string[]> {
  const out: string[] = []
  const { memoryChannelPair } = await import('../core/session/channel.js')
  for (let i = 0; i < count; i++) {
    const pair = memoryChannelPair()
    const [ca, cb] = pair.ends
    const side = (role: 'A' | 'B', channel: Channel) => {
      const secrets = seededSecrets(`verify/${bot}/${i}/${role}`)
      return runSession({
        role,
        keys: generateKeyPair(secrets),
        terms: terms(maxTurns),
        secrets,
        store: memoryStore(),
        channel,
        strategy: makeBot(bot, `verify/${bot}/${i}/${role}/bot`),
      })
    }
    const [ra] = await Promise.all([side('A', ca), side('B', cb)])
    out.push(formatTranscript(ra.transcript))
  }
  return out
}

function verifierRate(files: readonly string[]): { gamesPerSecond: Stat; envelopesPerGame: number } {
  const rates: number[] = []
  for (let rep = 0; rep <= REPS; rep++) {
    const t0 = performance.now()
    for (const f of files)
      if (verifyTranscript(f).status !== 'complete') throw new Error('a bench transcript does not verify')
    const s = (performance.now() - t0) / 1000
    if (rep > 0) rates.push(files.length / s)
  }
  const envelopes = files.reduce((n, f) => n + f.split('\n').length - 2, 0) / files.length
  return { gamesPerSecond: stat(rates), envelopesPerGame: envelopes }
}

/**
 * `spaceships verify --jobs N` over a tournament (the strong-bot transcripts, repeated to 200):
 * wall-clock games/s on every core, worker start-up included.
 */
async function verifierRateAllCores(
  files: readonly string[],
): Promise<{ gamesPerSecond: Stat; threads: number; transcripts: number }> {
  const bytes = Array.from({ length: 200 }, (_, i) => new TextEncoder().encode(files[i % files.length] ?? ''))
  const threads = defaultJobs()
  const rates: number[] = []
  for (let rep = 0; rep <= 3; rep++) {
    const t0 = performance.now()
    const verdicts = await verifyGroups(
      bytes.map((content, i) => [{ name: String(i), content }]),
      threads,
    )
    const s = (performance.now() - t0) / 1000
    if (verdicts.some((v) => v.status !== 'complete')) throw new Error('a bench transcript does not verify')
    if (rep > 0) rates.push(bytes.length / s)
  }
  return { gamesPerSecond: stat(rates), threads, transcripts: bytes.length }
}

function engineRate(): { turnsPerSecond: Stat; gamesPerSecond: Stat; meanTurns: number } {
  // Records are generated first, so only resolution (the reducer) is timed, not the random bot.
  const games = Array.from({ length: 40 }, (_, i) => playRandomGame(RULESET, seededRandom(`engine/${i}`)))
  const setups = games.map(
    (g) =>
      g.states[0]?.players.map((p) =>
        p.ships.map((s): WrittenShip => ({ type: s.type, id: s.id, cells: s.cells, text: s.type })),
      ) as [WrittenShip[], WrittenShip[]],
  )
  const records = games.map((g) =>
    g.reports.map((r) => [r.records[0].actions, r.records[1].actions] as [ActionRecord, ActionRecord]),
  )
  const turns = records.reduce((n, r) => n + r.length, 0)
  const tps: number[] = []
  const gps: number[] = []
  for (let rep = 0; rep <= REPS; rep++) {
    const t0 = performance.now()
    games.forEach((_, i) => {
      const started = startGame(RULESET, setups[i] ?? [[], []])
      if (!started.ok) throw new Error('bench setup illegal')
      let game = started.value
      for (const r of records[i] ?? []) {
        const next = playTurn(game, r)
        if (!next.ok) throw new Error('bench record illegal')
        game = next.value.game
      }
    })
    const s = (performance.now() - t0) / 1000
    if (rep > 0) {
      tps.push(turns / s)
      gps.push(games.length / s)
    }
  }
  return { turnsPerSecond: stat(tps), gamesPerSecond: stat(gps), meanTurns: turns / games.length }
}

/** Runs a command, returning its wall time and its peak RSS (VmHWM, polled from /proc). */
function timedProcess(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<{ ms: number; peakRssMiB: number; code: number | null }> {
  return new Promise((resolve) => {
    const t0 = performance.now()
    const child = spawn(process.execPath, [...args], { env, stdio: 'ignore' })
    let peak = 0
    const poll = setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid ?? 0}/status`, 'utf8'))
        if (m?.[1] !== undefined) peak = Math.max(peak, Number(m[1]) / 1024)
      } catch {
        // The process has exited.
      }
    }, 20)
    child.on('exit', (code) => {
      clearInterval(poll)
      resolve({ ms: performance.now() - t0, peakRssMiB: peak, code })
    })
  })
}

const fmt = (s: Stat, digits = 2): string =>
  `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}..${s.max.toFixed(digits)})`

async function main(): Promise<void> {
  const started = performance.now()
  const log = (m: string): void => void process.stderr.write(m + '\n')
  const machine = `${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`
  log(`bench on ${machine}`)

  log('1. per turn over libp2p (TCP + Noise + yamux), full protocol vs trusting baseline, alternating')
  const summary = (
    full: readonly TurnRun[],
    trusting: readonly TurnRun[],
    maxTurns: number,
    pipelined?: readonly TurnRun[],
  ): TurnSeries => {
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
  const inOneProcess = async (): Promise<TurnSeries> => {
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
  const series = async (bot: BenchBot, delayMs: number, maxTurns: number): Promise<TurnSeries> => {
    log(`   ${bot} bots, ${delayMs === 0 ? 'loopback' : `a link adding ${delayMs} ms each way`}, a process per player`)
    const r = await pairedRuns(bot, delayMs, maxTurns, REPS)
    return summary(r.full, r.trusting, maxTurns, r.pipelined)
  }
  const twoProcesses = await series('random', 0, PER_TURN_MAX_TURNS)
  const twoProcessesMedium = await series('medium', 0, PER_TURN_MAX_TURNS)
  const linkRandom = await series('random', LINK_DELAY_MS, LINK_MAX_TURNS)
  const linkMedium = await series('medium', LINK_DELAY_MS, PER_TURN_MAX_TURNS)
  log('   both players in this process (sharing one thread)')
  const oneProcess = await inOneProcess()

  log('2. whole games over libp2p (connection, handshake, play, reveal, both verifications)')
  await wholeGame('medium', 'warm/whole')
  const wholeStrong: { ms: number; turns: number }[] = []
  const wholeRandom: { ms: number; turns: number }[] = []
  for (let i = 0; i < REPS; i++) wholeStrong.push(await wholeGame('medium', `whole/medium/${i}`))
  for (let i = 0; i < 3; i++) wholeRandom.push(await wholeGame('random', `whole/random/${i}`))

  log('3. the verifier, one core, then every core')
  const strongFiles = await transcripts('medium', 20, 1000)
  const randomFiles = await transcripts('random', 10, 1000)
  const verifyStrong = verifierRate(strongFiles)
  const verifyRandom = verifierRate(randomFiles)
  const verifyAllCores = await verifierRateAllCores(strongFiles)

  log('   the largest transcript the terms allow (1,000 turns), signatures valid and broken')
  const worst = await worstCase()

  log('4. the rules engine alone')
  const engine = engineRate()

  log('5, 6. a peer node process (peak RSS) and verify cold start')
  const home = mkdtempSync(join(tmpdir(), 'spaceships-bench-'))
  const env = { ...process.env, XDG_CONFIG_HOME: join(home, 'c'), XDG_STATE_HOME: join(home, 's'), NO_COLOR: '1' }
  const transcriptFile = join(home, 'game.transcript')
  writeFileSync(transcriptFile, strongFiles[0] ?? '')
  const node = await timedProcess(
    [
      CLI,
      'play',
      '--autoplay',
      '--bot',
      'random',
      '--max-turns',
      '100',
      '--json',
      '--out',
      join(home, 'play.transcript'),
    ],
    env,
  )
  if (node.code !== 0) throw new Error('the play process failed')
  const cold: number[] = []
  for (let i = 0; i <= REPS + 2; i++) {
    const r = await timedProcess([CLI, 'verify', transcriptFile], env)
    if (r.code !== 0) throw new Error('verify failed')
    if (i > 0) cold.push(r.ms)
  }
  const coldStat = stat(cold)

  const results = {
    machine,
    date: new Date().toISOString(),
    command: 'npm run bench',
    perTurn: twoProcesses,
    perTurnMedium: twoProcessesMedium,
    perTurnLink: { delayMs: LINK_DELAY_MS, random: linkRandom, medium: linkMedium },
    perTurnOneProcess: oneProcess,
    wholeGame: {
      medium: { ms: stat(wholeStrong.map((g) => g.ms)), turns: stat(wholeStrong.map((g) => g.turns)) },
      random: { ms: stat(wholeRandom.map((g) => g.ms)), turns: stat(wholeRandom.map((g) => g.turns)) },
    },
    verifier: {
      mediumGames: verifyStrong,
      randomGames: verifyRandom,
      allCores: verifyAllCores,
      worstCase: {
        lines: worst.lines,
        bytes: worst.bytes,
        validCpuMs: stat(worst.validCpuMs),
        brokenCpuMs: stat(worst.brokenCpuMs),
      },
    },
    engine,
    peerNode: {
      peakRssMiB: node.peakRssMiB,
      note: 'spaceships play --autoplay: two peer nodes (you and the bot) in one process',
    },
    verifyColdStartMs: coldStat,
    seconds: (performance.now() - started) / 1000,
  }
  mkdirSync(join(ROOT, 'bench'), { recursive: true })
  writeFileSync(join(ROOT, 'bench', 'results.json'), JSON.stringify(results, null, 2) + '\n')

  const goal = (ok: boolean): string => (ok ? 'met' : 'MISSED')
  const t = twoProcesses
  const o = oneProcess
  const ratio = (x: TurnSeries, max: number): string =>
    `ratio ${x.wallMs.ratio.toFixed(2)} <= ${max}: ${goal(x.wallMs.ratio <= max)}`
  const tcpOf = (x: TurnSeries): [string, string] =>
    x.tcpBytesPerPlayer === undefined
      ? ['', '']
      : [fmt(x.tcpBytesPerPlayer.full, 0), fmt(x.tcpBytesPerPlayer.trusting, 0)]
  const w = results.wholeGame.medium
  const rows: [string, string, string, string][] = [
    [
      `wall time per turn over a ${LINK_DELAY_MS} ms link, random bots (${linkRandom.turns.median} turns), ms`,
      fmt(linkRandom.wallMs.full),
      fmt(linkRandom.wallMs.trusting),
      ratio(linkRandom, 1.35),
    ],
    [
      `wall time per turn over a ${LINK_DELAY_MS} ms link, medium bots (${linkMedium.turns.median} turns), ms`,
      fmt(linkMedium.wallMs.full),
      fmt(linkMedium.wallMs.trusting),
      ratio(linkMedium, 1.5),
    ],
    ...[linkRandom, linkMedium].map((x, i): [string, string, string, string] => [
      `the same over the link, ${i === 0 ? 'random' : 'medium'} bots, against pipelined trusting play (no commit-then-reveal schedule can go below 1.5), ms`,
      fmt(x.wallMs.full),
      x.pipelined === undefined ? '' : fmt(x.pipelined.wallMs),
      `ratio ${x.pipelined?.ratio.toFixed(2) ?? '?'}`,
    ]),
    [
      `wall time per turn on loopback, random bots (${t.turns.median} turns), ms`,
      fmt(t.wallMs.full),
      fmt(t.wallMs.trusting),
      ratio(t, 2.0),
    ],
    [
      `wall time per turn on loopback, medium bots (${twoProcessesMedium.turns.median} turns), ms`,
      fmt(twoProcessesMedium.wallMs.full),
      fmt(twoProcessesMedium.wallMs.trusting),
      ratio(twoProcessesMedium, 2.0),
    ],
    [
      'wall time per turn, both players in one process, random bots, ms',
      fmt(o.wallMs.full),
      fmt(o.wallMs.trusting),
      `ratio ${o.wallMs.ratio.toFixed(2)}`,
    ],
    [
      'CPU per turn per player, random bots, ms',
      fmt(t.cpuMsPerPlayer.full),
      fmt(t.cpuMsPerPlayer.trusting),
      `ratio ${t.cpuMsPerPlayer.ratio.toFixed(2)}`,
    ],
    [
      'CPU per turn per player, medium bots, ms',
      fmt(twoProcessesMedium.cpuMsPerPlayer.full),
      fmt(twoProcessesMedium.cpuMsPerPlayer.trusting),
      `ratio ${twoProcessesMedium.cpuMsPerPlayer.ratio.toFixed(2)}`,
    ],
    [
      'bytes per turn per player at TCP level, medium bots',
      ...tcpOf(twoProcessesMedium),
      `<= 1600: ${goal((twoProcessesMedium.tcpBytesPerPlayer?.full.median ?? Infinity) <= 1600)}`,
    ],
    ['bytes per turn per player at TCP level, random bots', ...tcpOf(t), ''],
    [
      'game frames per turn per player (without libp2p framing), medium bots',
      fmt(twoProcessesMedium.bytesPerPlayer.full, 0),
      fmt(twoProcessesMedium.bytesPerPlayer.trusting, 0),
      '',
    ],
    [
      `whole game over loopback, medium bots (median ${w.turns.median} turns), ms`,
      fmt(w.ms, 0),
      '',
      `< 150 ms: ${goal(w.ms.median < 150)}`,
    ],
    [
      `whole game, random bots (median ${results.wholeGame.random.turns.median} turns), ms`,
      fmt(results.wholeGame.random.ms, 0),
      '',
      '',
    ],
    [
      `verifier, medium-bot games (${verifyStrong.envelopesPerGame.toFixed(0)} envelopes), games/s, one core`,
      fmt(verifyStrong.gamesPerSecond, 0),
      '',
      `>= 400: ${goal(verifyStrong.gamesPerSecond.median >= 400)}`,
    ],
    [
      `verifier, medium-bot games, ${verifyAllCores.threads} threads (verify --jobs), games/s`,
      fmt(verifyAllCores.gamesPerSecond, 0),
      '',
      '',
    ],
    [
      `verifier, random-bot games (${verifyRandom.envelopesPerGame.toFixed(0)} envelopes), games/s`,
      fmt(verifyRandom.gamesPerSecond, 1),
      '',
      '',
    ],
    [
      `verifier, the largest transcript (${worst.lines} envelopes), CPU ms, signatures valid`,
      fmt(results.verifier.worstCase.validCpuMs, 0),
      '',
      `< 2000 ms: ${goal(results.verifier.worstCase.validCpuMs.median < 2000)}`,
    ],
    [
      'verifier, the same file with every signature but the hellos broken, CPU ms',
      fmt(results.verifier.worstCase.brokenCpuMs, 0),
      '',
      `< 2000 ms: ${goal(results.verifier.worstCase.brokenCpuMs.median < 2000)}`,
    ],
    ['rules engine, turns/s', fmt(engine.turnsPerSecond, 0), '', ''],
    [`rules engine, games/s (${engine.meanTurns.toFixed(0)} turns)`, fmt(engine.gamesPerSecond, 0), '', ''],
    ['peak RSS of a play process (two nodes), MiB', node.peakRssMiB.toFixed(0), '', ''],
    ['spaceships verify cold start, ms', fmt(coldStat, 0), '', `< 150 ms: ${goal(coldStat.median < 150)}`],
  ]
  const out = [
    `${machine}; medians (min..max) over ${REPS} runs after warm-up`,
    '',
    '| figure | referee-less | trusting baseline | goal |',
    '| --- | --- | --- | --- |',
    ...rows.map((r) => `| ${r.join(' | ')} |`),
    '',
    `bench/results.json written; ${results.seconds.toFixed(0)} s`,
  ]
  process.stdout.write(out.join('\n') + '\n')
}

await main()
