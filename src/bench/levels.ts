/**
 * `npm run arena:levels`: the bot levels against each other and against `random`, 1,000 games a
 * match in each ruleset (2.6.1 and classic), with the rules engine alone (`--fast`: the same games
 * as the full protocol). Prints, per match, the wins, the think time per move (median and p95) of
 * each side, and how many records were checked and refused; then each level's think time over all
 * its moves. Every record is read strictly, as the opponent's verifier would (C-17). Not part of
 * `npm test`: it takes minutes.
 *
 * Options: `--games N` (default 1000), `--seed S`, `--jobs N` (worker threads, default one per
 * core), `--out FILE` (the raw figures as JSON; default bench/levels.json).
 *
 * Matches are played in slices of games on a pool of worker threads; game g of a match is seeded
 * by the seed and g alone, so the slices play exactly the games of one run.
 */
import { writeFileSync } from 'node:fs'
import { availableParallelism, cpus, loadavg } from 'node:os'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads'
import { runArena, timed } from '../games/spaceships/arena/arena.js'
import type { BotName } from '../games/spaceships/bot/levels.js'
import { readRecord } from '../games/spaceships/rules/legality.js'
import { CLASSIC_RULESET, DEFAULT_RULESET } from '../games/spaceships/rules/ruleset.js'
import type { Variant } from '../games/spaceships/rules/ships.js'
import { type PlayerStrategy, recordText } from '../games/spaceships/session/strategy.js'

const MATCHES: readonly (readonly [BotName, BotName])[] = [
  ['hard', 'medium'],
  ['hard', 'easy'],
  ['medium', 'easy'],
  ['hard', 'random'],
  ['medium', 'random'],
  ['easy', 'random'],
]
const VARIANTS: readonly Variant[] = ['2.6.1', 'classic']
const SLICE = 50

interface Task {
  readonly a: BotName
  readonly b: BotName
  readonly variant: Variant
  readonly seed: string
  readonly firstGame: number
  readonly games: number
}

interface SliceResult {
  readonly task: Task
  readonly wins: { a: number; b: number; draws: number }
  readonly margin: number
  readonly turns: number[]
  readonly think: { a: number[]; b: number[] }
  readonly records: number
  readonly illegal: string[]
  readonly failures: string[]
}

type Reply = { readonly ok: true; readonly result: SliceResult } | { readonly ok: false; readonly error: string }

/** Times every record a bot makes and reads it strictly against the rules. */
function checked(inner: PlayerStrategy, times: number[], out: { records: number; illegal: string[] }): PlayerStrategy {
  const clocked = timed(inner, times)
  return {
    setup: (...a) => clocked.setup(...a),
    record: async (ctx) => {
      const text = await clocked.record(ctx)
      out.records++
      // A bot never resigns: a resignation here is a fault of the bot, counted as an illegal record.
      const played = recordText(text)
      if (played === undefined) {
        out.illegal.push(`turn ${ctx.turn}: resigned`)
        return text
      }
      const r = readRecord(ctx.ruleset, ctx.state, ctx.turn, played, 'strict')
      if (!r.ok)
        out.illegal.push(`turn ${ctx.turn}: ${played}: ${r.error.map((v) => `${v.rule} ${v.message}`).join('; ')}`)
      return text
    },
  }
}

async function playSlice(task: Task): Promise<SliceResult> {
  const think = { a: [] as number[], b: [] as number[] }
  const out = { records: 0, illegal: [] as string[] }
  const turns: number[] = []
  const r = await runArena({
    a: task.a,
    b: task.b,
    games: task.games,
    firstGame: task.firstGame,
    seed: task.seed,
    ruleset: task.variant === 'classic' ? CLASSIC_RULESET : DEFAULT_RULESET,
    fast: true,
    observe: (side, bot) => checked(bot, think[side], out),
    onGame: (_done, o) => turns.push(o.turns),
  })
  return {
    task,
    wins: { ...r.wins },
    margin: r.meanMargin * turns.length,
    turns,
    think,
    records: out.records,
    illegal: out.illegal,
    failures: [...r.failures],
  }
}

const quantile = (xs: readonly number[], q: number): number => {
  if (xs.length === 0) return 0
  const s = [...xs].sort((x, y) => x - y)
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0
}

interface MatchFigures {
  readonly a: BotName
  readonly b: BotName
  readonly variant: Variant
  readonly games: number
  readonly wins: { a: number; b: number; draws: number }
  readonly meanMargin: number
  readonly meanTurns: number
  readonly thinkMs: { readonly a: { median: number; p95: number }; readonly b: { median: number; p95: number } }
  readonly records: number
  readonly illegal: readonly string[]
  readonly failures: readonly string[]
}

function option(args: readonly string[], name: string, fallback: string): string {
  const i = args.indexOf(name)
  return i >= 0 ? (args[i + 1] ?? fallback) : fallback
}

const pct = (n: number, of: number): string => `${of === 0 ? 0 : (Math.round((1000 * n) / of) / 10).toFixed(1)}%`
const ms = (x: number): string => (x < 10 ? x.toFixed(2) : x.toFixed(1))

async function main(args: readonly string[]): Promise<void> {
  const games = Number(option(args, '--games', '1000'))
  const seed = option(args, '--seed', 'levels')
  const jobs = Number(option(args, '--jobs', String(availableParallelism())))
  const outFile = option(args, '--out', 'bench/levels.json')
  if (!Number.isInteger(games) || games < 1) throw new Error('--games: a whole number from 1')
  if (!Number.isInteger(jobs) || jobs < 1) throw new Error('--jobs: a whole number from 1')
  const tasks: Task[] = []
  for (const variant of VARIANTS)
    for (const [a, b] of MATCHES)
      for (let first = 0; first < games; first += SLICE)
        tasks.push({
          a,
          b,
          variant,
          seed: `${seed}/${variant}/${a}/${b}`,
          firstGame: first,
          games: Math.min(SLICE, games - first),
        })
  // The slowest matches first, so the pool ends together.
  const cost = (t: Task): number => (t.a === 'hard' || t.b === 'hard' ? 2 : 1) + (t.b === 'random' ? 0 : 1)
  tasks.sort((x, y) => cost(y) - cost(x))
  const load0 = loadavg()
  const started = performance.now()
  process.stderr.write(
    `${tasks.length} slices of up to ${SLICE} games on ${jobs} worker threads (${cpus()[0]?.model ?? 'cpu'}, ${cpus().length} cores, load ${load0.map((x) => x.toFixed(2)).join(' ')})\n`,
  )
  const results: SliceResult[] = []
  let next = 0
  const worker = async (): Promise<void> => {
    const w = new Worker(fileURLToPath(import.meta.url), { workerData: { worker: true } })
    try {
      for (;;) {
        const task = tasks[next++]
        if (task === undefined) return
        const reply = await new Promise<Reply>((resolve, reject) => {
          w.once('message', resolve)
          w.once('error', reject)
          w.postMessage(task)
        })
        w.removeAllListeners('error')
        if (!reply.ok)
          throw new Error(`${task.variant} ${task.a} vs ${task.b}, games from ${task.firstGame}: ${reply.error}`)
        results.push(reply.result)
        if (process.stderr.isTTY) process.stderr.write(`\r${results.length}/${tasks.length} slices`)
      }
    } finally {
      await w.terminate()
    }
  }
  await Promise.all(Array.from({ length: jobs }, worker))
  if (process.stderr.isTTY) process.stderr.write('\n')
  const seconds = (performance.now() - started) / 1000
  const load1 = loadavg()

  const matches: MatchFigures[] = []
  const levelTimes = new Map<BotName, number[]>()
  for (const variant of VARIANTS)
    for (const [a, b] of MATCHES) {
      const mine = results.filter((r) => r.task.variant === variant && r.task.a === a && r.task.b === b)
      const sum = (f: (r: SliceResult) => number): number => mine.reduce((n, r) => n + f(r), 0)
      const think = { a: mine.flatMap((r) => r.think.a), b: mine.flatMap((r) => r.think.b) }
      for (const [level, times] of [
        [a, think.a],
        [b, think.b],
      ] as const)
        levelTimes.set(level, [...(levelTimes.get(level) ?? []), ...times])
      const played = sum((r) => r.turns.length)
      matches.push({
        a,
        b,
        variant,
        games: sum((r) => r.task.games),
        wins: { a: sum((r) => r.wins.a), b: sum((r) => r.wins.b), draws: sum((r) => r.wins.draws) },
        meanMargin: played === 0 ? 0 : sum((r) => r.margin) / played,
        meanTurns: played === 0 ? 0 : sum((r) => r.turns.reduce((x, y) => x + y, 0)) / played,
        thinkMs: {
          a: { median: quantile(think.a, 0.5), p95: quantile(think.a, 0.95) },
          b: { median: quantile(think.b, 0.5), p95: quantile(think.b, 0.95) },
        },
        records: sum((r) => r.records),
        illegal: mine.flatMap((r) => r.illegal),
        failures: mine.flatMap((r) => r.failures),
      })
    }

  const lines = [
    `Bot levels, ${games} games a match (sides alternate), rules engine only, seed "${seed}"; ${seconds.toFixed(0)} s on ${jobs} threads, load ${load0[0]?.toFixed(2) ?? '?'} at the start and ${load1[0]?.toFixed(2) ?? '?'} at the end`,
    '',
    '| rules | match (a vs b) | a wins | b wins | draws | mean margin | mean length | a think median (p95), ms | b think median (p95), ms | records checked | illegal |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...matches.map((m) => {
      const played = m.wins.a + m.wins.b + m.wins.draws
      return `| ${m.variant} | ${m.a} vs ${m.b} | ${m.wins.a} (${pct(m.wins.a, played)}) | ${m.wins.b} (${pct(m.wins.b, played)}) | ${m.wins.draws} | ${m.meanMargin >= 0 ? '+' : ''}${m.meanMargin.toFixed(1)} | ${m.meanTurns.toFixed(1)} turns | ${ms(m.thinkMs.a.median)} (${ms(m.thinkMs.a.p95)}) | ${ms(m.thinkMs.b.median)} (${ms(m.thinkMs.b.p95)}) | ${m.records.toLocaleString('en')} | ${m.illegal.length} |`
    }),
    '',
    '| level | moves | think median, ms | p95, ms | max, ms |',
    '| --- | --- | --- | --- | --- |',
    ...(['hard', 'medium', 'easy', 'random'] as const).map((level) => {
      const t = levelTimes.get(level) ?? []
      return `| ${level} | ${t.length.toLocaleString('en')} | ${ms(quantile(t, 0.5))} | ${ms(quantile(t, 0.95))} | ${ms(t.reduce((x, y) => Math.max(x, y), 0))} |`
    }),
    '',
  ]
  const records = matches.reduce((n, m) => n + m.records, 0)
  const illegal = matches.flatMap((m) => m.illegal)
  const failures = matches.flatMap((m) => m.failures)
  lines.push(
    `${records.toLocaleString('en')} records checked strictly, ${illegal.length} illegal; ${failures.length} games failed.`,
  )
  for (const x of [...illegal, ...failures].slice(0, 20)) lines.push(`  ${x}`)
  process.stdout.write(`${lines.join('\n')}\n`)
  const levels = Object.fromEntries(
    [...levelTimes].map(([level, t]) => [
      level,
      { moves: t.length, medianMs: quantile(t, 0.5), p95Ms: quantile(t, 0.95) },
    ]),
  )
  writeFileSync(
    outFile,
    `${JSON.stringify({ date: new Date().toISOString(), node: process.version, cpu: cpus()[0]?.model, cores: cpus().length, jobs, seconds, load: { start: load0, end: load1 }, games, seed, matches, levels }, null, 2)}\n`,
  )
  process.stderr.write(`raw figures in ${outFile}\n`)
  if (illegal.length > 0 || failures.length > 0) process.exitCode = 1
}

if (isMainThread) {
  await main(process.argv.slice(2))
} else if ((workerData as { worker?: boolean } | null)?.worker === true) {
  const port = parentPort
  port?.on('message', (task: Task) => {
    playSlice(task).then(
      (result) => {
        port.postMessage({ ok: true, result } satisfies Reply)
      },
      (e: unknown) => {
        port.postMessage({ ok: false, error: e instanceof Error ? (e.stack ?? e.message) : String(e) } satisfies Reply)
      },
    )
  })
}
