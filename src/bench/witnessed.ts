/**
 * A witnessed turn against an unwitnessed one over a realistic link (the witnessed-games issue,
 * item 5; PROTOCOL-4.md §4, §5): the goal is that a notary costs a game at most 1.1 times the
 * wall time per turn.
 *
 * Three processes, as on three machines: the host and the joiner (witnessed-peer.ts, each game a
 * whole `hostGame` / `joinGame` with a fresh node) and a notary, `spaceships notary` itself (the
 * built executable, its database a fresh file, grouped commits, as deployed). Every connection
 * goes through a loopback TCP proxy in this process (link.ts) that holds each chunk LINK_DELAY_MS
 * before passing it on, in order: the joiner's to the host, and each player's to the notary, so
 * the notary is behind the same 20 ms link as the opponent. The proxy caps no bandwidth, so one
 * pipe shared by both connections and a pipe each are the same link.
 *
 * Rounds pair a witnessed game with an unwitnessed one on the same seeds (the same keys, setups
 * and moves) and the same terms but the notary, the order swapping each round so that neither
 * always goes first; a warm-up round is dropped (the JIT, the notary's first database pages).
 * A game's time per turn is measured on the host's clock between turn starts, from the first
 * envelope with aspects of turn 1 the host held to the first of the last turn, over the turns in
 * between: the hellos, setup, reveal and the settling of the notary link after play are outside
 * it, and are reported apart (`afterPlayMs`).
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { type Link, delayLink, viaPort } from './link.js'
import type { BenchBot } from './peer.js'
import { LINK_DELAY_MS } from './per-turn.js'
import { REPS, type Stat, fmt, stat } from './stat.js'
import { type GameOrder, type GameTimes, inviteIdOf } from './witnessed-peer.js'

const HERE = join(fileURLToPath(import.meta.url), '..')
const ROOT = join(HERE, '..', '..')
const CLI = join(ROOT, 'dist', 'cli', 'bin.js')
/** The issue's goal: a witnessed turn at most this many times an unwitnessed one. */
export const WITNESSED_GOAL = 1.1
/**
 * Random-bot games cut at 20 turns: a witnessed game's link to the notary ends some seconds behind
 * play (`afterPlayMs`), which the game call waits for, so 30 turns as in the other link figures
 * would take the default run past a minute.
 */
export const WITNESSED_MAX_TURNS = 20
/** A game that takes longer than this has stalled: the bench says so instead of waiting. */
const GAME_TIMEOUT_MS = 120_000

export type Witnessing = 'witnessed' | 'unwitnessed'

export interface WitnessedResult {
  readonly delayMs: number
  readonly bot: BenchBot
  readonly maxTurns: number
  readonly rounds: number
  readonly turns: Stat
  /** Wall time per turn, between turn starts on the host's clock; `ratio` per round, witnessed over unwitnessed. */
  readonly perTurnMs: {
    readonly witnessed: Stat
    readonly unwitnessed: Stat
    readonly ratio: Stat
    readonly ratioOfMedians: number
  }
  /** From the host's hello to the last envelope either side persisted (the later side), per turn. */
  readonly gamePerTurnMs: Readonly<Record<Witnessing, Stat>>
  /** From the last envelope to `hostGame` / `joinGame` returning, the later side: verification, the notary link settling, the node stopping. */
  readonly afterPlayMs: Readonly<Record<Witnessing, Stat>>
  readonly cpuMsPerTurnPerPlayer: Readonly<Record<Witnessing, Stat>>
  /** A witnessed game: envelopes both sides signed and submitted, receipts the host's transcript kept. */
  readonly envelopesPerGame: Stat
  readonly hostReceiptsPerGame: Stat
  /** Witnessed games whose host kept the whole log once its game call returned: the genesis and a receipt for every envelope both sides signed. */
  readonly wholeLogs: number
  /** Until the host's last receipt, from its last envelope (how far the link to the notary ran behind play). */
  readonly receiptLagMs: Stat
  /**
   * The host's link to the notary: its envelopes over the time from its hello to its last receipt
   * (each submitted, receipted and the log fetched after it, one at a time), against the rate at
   * which play signed them (from its hello to its last envelope).
   */
  readonly hostEnvelopesPerSecond: { readonly receipted: Stat; readonly signed: Stat }
  /** CPU of the notary's process over a witnessed game (from /proc; absent elsewhere). */
  readonly notaryCpuMsPerGame?: Stat
  /** The notary's answers over the run (the counted games and the warm-up), by request and answer. */
  readonly notaryAnswers: Readonly<Record<string, number>>
  /** What the players' links to the notary said other than receipts (refusals, outages), distinct, first ones. */
  readonly witnessEvents: readonly string[]
  readonly load: { readonly start: readonly number[]; readonly end: readonly number[] }
  readonly seconds: number
}

/** Lines of a child's output, one at a time. */
function reader(child: ChildProcess, what: string): () => Promise<string> {
  if (child.stdout === null) throw new Error('no stdout')
  const it = createInterface({ input: child.stdout })[Symbol.asyncIterator]()
  return async () => {
    const r = await it.next()
    if (r.done === true) throw new Error(`the ${what} process ended early`)
    return r.value
  }
}

interface Notary {
  readonly addr: string
  readonly answers: Record<string, number>
  cpuMs(): number | undefined
  close(): Promise<void>
}

/** `spaceships notary` on loopback, in a fresh home; its log lines are counted by answer. */
async function startNotary(): Promise<Notary> {
  const home = mkdtempSync(join(tmpdir(), 'spaceships-witnessed-bench-'))
  const env = { ...process.env, XDG_CONFIG_HOME: join(home, 'c'), XDG_STATE_HOME: join(home, 's'), NO_COLOR: '1' }
  const child = spawn(process.execPath, [CLI, 'notary', '--listen', '/ip4/127.0.0.1/tcp/0', '--json'], {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  const exited = new Promise((r) => child.once('exit', r))
  const answers: Record<string, number> = {}
  createInterface({ input: child.stderr }).on('line', (line) => {
    // "HH:MM:SS submit from <peer>: receipt" or "HH:MM:SS dropped <peer>: why"
    const m = /^\S+ (\w+) from \S+: (.+)$/.exec(line)
    const key = m === null ? line.replace(/^\S+ /, '').replace(/ 12D3\w+/, '') : `${m[1]}: ${m[2]}`
    answers[key] = (answers[key] ?? 0) + 1
  })
  const { addrs } = JSON.parse(await reader(child, 'notary')()) as { addrs: string[] }
  const addr = addrs.find((a) => a.startsWith('/ip4/127.0.0.1/tcp/') && !a.includes('/ws'))
  if (addr === undefined) throw new Error(`the notary listens on no loopback TCP address: ${addrs.join(' ')}`)
  return {
    addr,
    answers,
    cpuMs: () => {
      try {
        // /proc/PID/stat: utime and stime are the 14th and 15th fields, in ticks (USER_HZ, 100 on Linux).
        const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8')
          .replace(/^.*\) /, '')
          .split(' ')
        return (Number(fields[11]) + Number(fields[12])) * 10
      } catch {
        return undefined
      }
    },
    close: async () => {
      child.kill('SIGTERM')
      await exited
      rmSync(home, { recursive: true, force: true })
    },
  }
}

interface Player {
  send(order: GameOrder): void
  next(): Promise<string>
  /** Ends the process: when its games are done, by closing its input; after a failure, by a signal (a stalled game never reads it). */
  close(failed: boolean): Promise<void>
}

function player(side: 'host' | 'join', bot: BenchBot, maxTurns: number): Player {
  const child = spawn(process.execPath, [join(HERE, 'witnessed-peer.js'), side, bot, String(maxTurns)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const exited = new Promise((r) => child.once('exit', r))
  return {
    send: (order) => void child.stdin.write(`${JSON.stringify(order)}\n`),
    next: reader(child, side),
    close: async (failed) => {
      child.stdin.end()
      if (failed) child.kill('SIGTERM')
      await exited
    },
  }
}

const withTimeout = <T>(p: Promise<T>, what: string): Promise<T> => {
  let timer: NodeJS.Timeout | undefined
  return Promise.race([
    p,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        reject(new Error(`${what}: no end within ${GAME_TIMEOUT_MS / 1000} s (stalled)`))
      }, GAME_TIMEOUT_MS)
    }),
  ]).finally(() => {
    clearTimeout(timer)
  })
}

interface GameRun {
  readonly host: GameTimes
  readonly join: GameTimes
  readonly notaryCpuMs: number | undefined
}

/** One game: the host listens, a link is put before it, the joiner dials through it; both report. */
async function game(
  host: Player,
  joiner: Player,
  notary: Notary,
  notaryAddr: string,
  seed: string,
  witnessed: boolean,
): Promise<GameRun> {
  const order: GameOrder = { seed, id: inviteIdOf(seed), ...(witnessed ? { notary: [notaryAddr] } : {}) }
  const cpu0 = notary.cpuMs()
  host.send(order)
  const { listening, peer } = JSON.parse(await host.next()) as { listening: string[]; peer: string }
  const tcp = listening.find((a) => a.includes('/tcp/'))
  const port = Number(/\/tcp\/(\d+)/.exec(tcp ?? '')?.[1])
  if (tcp === undefined || !Number.isInteger(port)) throw new Error('the host has no TCP address')
  const link: Link = await delayLink(port, LINK_DELAY_MS)
  try {
    joiner.send({ ...order, peer, addrs: [viaPort(tcp, link.port)] })
    const label = `${witnessed ? 'witnessed' : 'unwitnessed'} game ${seed}`
    const [a, b] = await withTimeout(
      Promise.all([host.next(), joiner.next()]).then(([x, y]) => [JSON.parse(x), JSON.parse(y)] as GameTimes[]),
      label,
    )
    if (a === undefined || b === undefined) throw new Error('unreachable')
    if (a.status !== 'complete' || b.status !== 'complete')
      throw new Error(`${label}: ended ${a.status} (host) and ${b.status} (joiner), not complete`)
    if (a.turns !== b.turns || a.turns < 3) throw new Error(`${label}: ${a.turns} and ${b.turns} turns`)
    const cpu1 = notary.cpuMs()
    return { host: a, join: b, notaryCpuMs: cpu0 === undefined || cpu1 === undefined ? undefined : cpu1 - cpu0 }
  } finally {
    await link.close()
  }
}

/** Per turn between turn starts on the host's clock (witnessed.ts's header says why). */
function perTurn(g: GameRun): number {
  const s = g.host.turnStarts
  const first = s[0]
  const last = s[s.length - 1]
  if (first === undefined || last === undefined || s.length < 2 || s.some((t) => typeof t !== 'number'))
    throw new Error(`the host saw no aspects for some turns: ${JSON.stringify(s)}`)
  return (last - first) / (s.length - 1)
}

export async function witnessedTurns(
  log: (m: string) => void = () => undefined,
  bot: BenchBot = 'random',
  maxTurns = WITNESSED_MAX_TURNS,
  rounds = REPS,
): Promise<WitnessedResult> {
  const started = performance.now()
  const loadStart = loadavg()
  const notary = await startNotary()
  const notaryLink = await delayLink(Number(/\/tcp\/(\d+)/.exec(notary.addr)?.[1]), LINK_DELAY_MS)
  const notaryAddr = viaPort(notary.addr, notaryLink.port)
  const host = player('host', bot, maxTurns)
  const joiner = player('join', bot, maxTurns)
  const runs: Record<Witnessing, GameRun[]> = { witnessed: [], unwitnessed: [] }
  let failed = true
  try {
    for (let r = 0; r <= rounds; r++) {
      const order: Witnessing[] = r % 2 === 0 ? ['witnessed', 'unwitnessed'] : ['unwitnessed', 'witnessed']
      const seed = `bench/witnessed/${bot}/${r}`
      const line: string[] = []
      for (const w of order) {
        const g = await game(host, joiner, notary, notaryAddr, seed, w === 'witnessed')
        if (r > 0) runs[w].push(g)
        line.push(`${w} ${perTurn(g).toFixed(1)} ms/turn, ${Math.round(afterPlay(g))} ms after play`)
      }
      log(`   ${r === 0 ? 'warm-up' : `round ${r}`}: ${line.join('; ')}`)
    }
    failed = false
  } finally {
    await Promise.all([host.close(failed), joiner.close(failed)])
    await notaryLink.close()
    await notary.close()
  }
  const per = (w: Witnessing): Stat => stat(runs[w].map(perTurn))
  const ratios = runs.witnessed.map((g, i) => {
    const u = runs.unwitnessed[i]
    if (u === undefined) throw new Error('unpaired round')
    return perTurn(g) / perTurn(u)
  })
  const both = (f: (g: GameRun) => number): Record<Witnessing, Stat> => ({
    witnessed: stat(runs.witnessed.map(f)),
    unwitnessed: stat(runs.unwitnessed.map(f)),
  })
  const notaryCpu = runs.witnessed.map((g) => g.notaryCpuMs)
  const events = [...new Set(runs.witnessed.flatMap((g) => [...g.host.witness, ...g.join.witness]))]
  const witnessed = per('witnessed')
  const unwitnessed = per('unwitnessed')
  return {
    delayMs: LINK_DELAY_MS,
    bot,
    maxTurns,
    rounds,
    turns: stat(runs.witnessed.map((g) => g.host.turns)),
    perTurnMs: { witnessed, unwitnessed, ratio: stat(ratios), ratioOfMedians: witnessed.median / unwitnessed.median },
    gamePerTurnMs: both(
      (g) => (Math.max(g.host.lastEnvelope, g.join.lastEnvelope) - g.host.firstEnvelope) / g.host.turns,
    ),
    afterPlayMs: both(afterPlay),
    cpuMsPerTurnPerPlayer: both((g) => (g.host.cpuMs + g.join.cpuMs) / 2 / g.host.turns),
    envelopesPerGame: stat(runs.witnessed.map((g) => g.host.sent + g.join.sent)),
    hostReceiptsPerGame: stat(runs.witnessed.map((g) => g.host.receipts)),
    wholeLogs: runs.witnessed.filter((g) => g.host.receipts === g.host.sent + g.join.sent + 1).length,
    receiptLagMs: stat(runs.witnessed.map((g) => (g.host.lastReceipt ?? g.host.end) - g.host.lastEnvelope)),
    hostEnvelopesPerSecond: {
      receipted: stat(
        runs.witnessed.map((g) => (1000 * g.host.sent) / ((g.host.lastReceipt ?? g.host.end) - g.host.firstEnvelope)),
      ),
      signed: stat(runs.witnessed.map((g) => (1000 * g.host.sent) / (g.host.lastEnvelope - g.host.firstEnvelope))),
    },
    ...(notaryCpu.every((c) => c !== undefined) ? { notaryCpuMsPerGame: stat(notaryCpu) } : {}),
    notaryAnswers: notary.answers,
    witnessEvents: events.slice(0, 20),
    load: { start: loadStart, end: loadavg() },
    seconds: (performance.now() - started) / 1000,
  }
}

/** From the last envelope to the later side's return. */
function afterPlay(g: GameRun): number {
  return Math.max(g.host.end - g.host.lastEnvelope, g.join.end - g.join.lastEnvelope)
}

/** The bench table's rows of this measure (report.ts). */
export function witnessedRows(w: WitnessedResult): [string, string, string, string][] {
  const met = w.perTurnMs.ratio.median <= WITNESSED_GOAL
  const p = w.perTurnMs
  return [
    [
      `wall time per turn over a ${w.delayMs} ms link with the notary behind it, ${w.bot} bots (${w.turns.median} turns): witnessed / unwitnessed, ms`,
      fmt(p.witnessed),
      fmt(p.unwitnessed),
      `ratio ${fmt(p.ratio)} <= ${WITNESSED_GOAL}: ${met ? 'met' : 'MISSED'}`,
    ],
    [
      'the same games, from the last envelope to the game call returning (verification, the link to the notary settling), ms',
      fmt(w.afterPlayMs.witnessed, 0),
      fmt(w.afterPlayMs.unwitnessed, 0),
      '',
    ],
    [
      'the same games, CPU per turn per player (the whole game call), ms',
      fmt(w.cpuMsPerTurnPerPlayer.witnessed),
      fmt(w.cpuMsPerTurnPerPlayer.unwitnessed),
      '',
    ],
    [
      "the same witnessed games, the host's envelopes a second: receipted by its link to the notary / signed in play",
      `${fmt(w.hostEnvelopesPerSecond.receipted, 1)} / ${fmt(w.hostEnvelopesPerSecond.signed, 1)}`,
      '',
      '',
    ],
  ]
}

/** `node dist/bench/witnessed.js [BOT [MAX_TURNS [ROUNDS]]]`: this measure alone, kept in bench/results.json. */
async function main(argv: readonly string[]): Promise<void> {
  const log = (m: string): void => void process.stderr.write(m + '\n')
  const bot: BenchBot = argv[0] === 'medium' ? 'medium' : 'random'
  const maxTurns = argv[1] === undefined ? WITNESSED_MAX_TURNS : Number(argv[1])
  const rounds = argv[2] === undefined ? REPS : Number(argv[2])
  const machine = `${cpus().length} cores, ${cpus()[0]?.model ?? 'unknown CPU'}, Node ${process.version}`
  log(`witnessed against unwitnessed turns on ${machine}, load average ${loadavg()[0]?.toFixed(2)}`)
  const w = await witnessedTurns(log, bot, maxTurns, rounds)
  const rows = witnessedRows(w)
  process.stdout.write(
    [
      `${machine}; load average ${w.load.start[0]?.toFixed(2)} at the start, ${w.load.end[0]?.toFixed(2)} at the end; ${w.seconds.toFixed(0)} s; medians (min..max) over ${rounds} rounds after a warm-up`,
      '',
      '| figure | witnessed | unwitnessed | goal |',
      '| --- | --- | --- | --- |',
      ...rows.map((r) => `| ${r.join(' | ')} |`),
      '',
      `notary answers: ${JSON.stringify(w.notaryAnswers)}`,
      `notary CPU per witnessed game, ms: ${w.notaryCpuMsPerGame === undefined ? 'not measured' : fmt(w.notaryCpuMsPerGame, 0)}; envelopes per game ${fmt(w.envelopesPerGame, 0)}; the host's receipts ${fmt(w.hostReceiptsPerGame, 0)} (the whole log in ${w.wholeLogs} of ${w.rounds} games), its last ${fmt(w.receiptLagMs, 0)} ms after its last envelope`,
      ...(w.witnessEvents.length === 0
        ? []
        : ['the links to the notary said:', ...w.witnessEvents.map((e) => `  ${e}`)]),
    ].join('\n') + '\n',
  )
  // Kept beside the last whole run's figures (as the notary's receipt rate is), saying so.
  const file = join(ROOT, 'bench', 'results.json')
  const results = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>
  results['witnessed'] = {
    ...w,
    note: `measured alone (node dist/bench/witnessed.js ${[bot, maxTurns, rounds].join(' ')}) on ${machine}, ${new Date().toISOString()}; the other figures are from the last whole run`,
  }
  if (bot === 'random' && maxTurns === WITNESSED_MAX_TURNS && rounds === REPS)
    writeFileSync(file, JSON.stringify(results, null, 2) + '\n')
  if (w.perTurnMs.ratio.median > WITNESSED_GOAL) process.exitCode = 1
}

const invoked = process.argv[1]
if (invoked !== undefined && realpathSync(invoked) === fileURLToPath(import.meta.url)) await main(process.argv.slice(2))
