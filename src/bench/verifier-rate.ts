/**
 * The verifier's rate: transcripts of bot games made once, then verified on one core, and on
 * every core as `spaceships verify --jobs N` does.
 */
import { cpus } from 'node:os'
import { performance } from 'node:perf_hooks'
import { makeBot } from '../games/spaceships/bot/levels.js'
import { generateKeyPair } from '../core/commit/keys.js'
import { seededSecrets } from '../core/commit/secrets.js'
import type { Channel } from '../core/session/channel.js'
import { runSession } from '../games/spaceships/session/session.js'
import { formatTranscript, memoryStore } from '../games/spaceships/protocol/file.js'
import { verifyTranscript } from '../games/spaceships/verify/verify.js'
import { verifyGroups } from '../games/spaceships/pool/verify-pool.js'
import { benchTerms as terms } from './peer.js'
import { REPS, type Stat, stat } from './stat.js'

export async function transcripts(
  bot: 'medium' | 'random',
  count: number,
  maxTurns: number,
  ruleset?: string,
): Promise<string[]> {
  const out: string[] = []
  const { memoryChannelPair } = await import('../core/session/channel.js')
  for (let i = 0; i < count; i++) {
    const pair = memoryChannelPair()
    const [ca, cb] = pair.ends
    const side = (role: 'A' | 'B', channel: Channel) => {
      const secrets = seededSecrets(`verify/${bot}/${ruleset ?? ''}/${i}/${role}`.replace('//', '/'))
      return runSession({
        role,
        keys: generateKeyPair(secrets),
        terms: ruleset === undefined ? terms(maxTurns) : { ...terms(maxTurns), ruleset },
        secrets,
        store: memoryStore(),
        channel,
        strategy: makeBot(bot, `verify/${bot}/${ruleset ?? ''}/${i}/${role}/bot`.replace('//', '/')),
      })
    }
    const [ra] = await Promise.all([side('A', ca), side('B', cb)])
    out.push(formatTranscript(ra.transcript))
  }
  return out
}

export function verifierRate(files: readonly string[]): { gamesPerSecond: Stat; envelopesPerGame: number } {
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

/** A verifier of transcript text: this build's, or another build's (a baseline). */
export type VerifyText = (content: string) => unknown

/** This thread's CPU time in ms (Node 23.9+), or undefined where the runtime lacks it. */
function threadCpuMs(): number | undefined {
  const usage = (process as { threadCpuUsage?: () => { user: number; system: number } }).threadCpuUsage
  if (usage === undefined) return undefined
  const u = usage.call(process)
  return (u.user + u.system) / 1000
}

/**
 * This build's verifier against a baseline build's (`BENCH_BASELINE`: another checkout's `dist/`)
 * on the same files, file by file, the order alternating, so that load on the machine falls on
 * both alike: games/s of each, and the speed-up of each repetition (its baseline time over its
 * time), whose median is the figure to compare. Both must give the same verdicts, byte for byte.
 * The same in this thread's CPU time, which a machine whose cores other work shares disturbs less
 * than wall time (it leaves out the time the thread waits for a core); and the sum over the files
 * of each file's fastest time, the least disturbed figure of all.
 */
export function pairedVerifierRate(
  files: readonly string[],
  baseline: VerifyText,
): {
  gamesPerSecond: Stat
  baselineGamesPerSecond: Stat
  speedUp: Stat
  cpu?: { gamesPerSecond: Stat; baselineGamesPerSecond: Stat; speedUp: Stat }
  fastest: { gamesPerSecond: number; baselineGamesPerSecond: number; speedUp: number }
} {
  for (const f of files)
    if (JSON.stringify(baseline(f)) !== JSON.stringify(verifyTranscript(f)))
      throw new Error('the baseline gives another verdict on a bench transcript')
  const fastest = { mine: files.map(() => Infinity), theirs: files.map(() => Infinity) }
  let cpuMine = 0
  let cpuTheirs = 0
  const once = (v: VerifyText, f: string, i: number): number => {
    const c0 = threadCpuMs()
    const t0 = performance.now()
    v(f)
    const ms = performance.now() - t0
    const c = c0 === undefined ? 0 : (threadCpuMs() ?? 0) - c0
    const mine = v === verifyTranscript
    if (mine) cpuMine += c
    else cpuTheirs += c
    const best = mine ? fastest.mine : fastest.theirs
    if (ms < (best[i] ?? Infinity)) best[i] = ms
    return ms
  }
  const mine: number[] = []
  const theirs: number[] = []
  const speedUp: number[] = []
  const cpu = { mine: [] as number[], theirs: [] as number[], speedUp: [] as number[] }
  // Three repetitions of warm-up: the baseline's code is loaded for this measure alone, when this
  // build's has run all along, so its compiler needs the files a few times before they count.
  const WARM = 3
  for (let rep = 0; rep < WARM + 3 * REPS; rep++) {
    let [t, b] = [0, 0]
    cpuMine = 0
    cpuTheirs = 0
    if (rep === WARM) {
      fastest.mine.fill(Infinity)
      fastest.theirs.fill(Infinity)
    }
    for (const [i, f] of files.entries()) {
      if ((i + rep) % 2 === 0) {
        t += once(verifyTranscript, f, i)
        b += once(baseline, f, i)
      } else {
        b += once(baseline, f, i)
        t += once(verifyTranscript, f, i)
      }
    }
    if (rep < WARM) continue
    mine.push((files.length * 1000) / t)
    theirs.push((files.length * 1000) / b)
    speedUp.push(b / t)
    if (cpuMine > 0 && cpuTheirs > 0) {
      cpu.mine.push((files.length * 1000) / cpuMine)
      cpu.theirs.push((files.length * 1000) / cpuTheirs)
      cpu.speedUp.push(cpuTheirs / cpuMine)
    }
  }
  const sum = (xs: readonly number[]): number => xs.reduce((a, x) => a + x, 0)
  const [fm, ft] = [sum(fastest.mine), sum(fastest.theirs)]
  return {
    gamesPerSecond: stat(mine),
    baselineGamesPerSecond: stat(theirs),
    speedUp: stat(speedUp),
    ...(cpu.speedUp.length === 0
      ? {}
      : {
          cpu: {
            gamesPerSecond: stat(cpu.mine),
            baselineGamesPerSecond: stat(cpu.theirs),
            speedUp: stat(cpu.speedUp),
          },
        }),
    fastest: {
      gamesPerSecond: (files.length * 1000) / fm,
      baselineGamesPerSecond: (files.length * 1000) / ft,
      speedUp: ft / fm,
    },
  }
}

/**
 * `spaceships verify --jobs N` over a tournament (the strong-bot transcripts, repeated to 200), a
 * thread a core: wall-clock games/s on every core, worker start-up included.
 */
export async function verifierRateAllCores(
  files: readonly string[],
): Promise<{ gamesPerSecond: Stat; threads: number; transcripts: number }> {
  const bytes = Array.from({ length: 200 }, (_, i) => new TextEncoder().encode(files[i % files.length] ?? ''))
  const threads = cpus().length
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

/**
 * The goal: a cost fleet's verification costs at most 1.5 times a standard fleet's per envelope.
 * The two sets of random-bot games are verified in one run, paired file by file (a standard game,
 * a cost game, the order alternating), so that load on the machine falls on both alike even when
 * it changes within a repetition (whole sets in turn gave ratios from 1.0 to 2.0 on a busy
 * machine); microseconds of one core per envelope.
 */
export function costFleetPerEnvelope(
  standard: readonly string[],
  cost: readonly string[],
): { standardUs: Stat; costUs: Stat; ratio: number; ruleset: string } {
  const envelopes = (files: readonly string[]): number => files.reduce((n, f) => n + f.split('\n').length - 2, 0)
  const time = (f: string | undefined): number => {
    if (f === undefined) return 0
    const t0 = performance.now()
    if (verifyTranscript(f).status !== 'complete') throw new Error('a bench transcript does not verify')
    return performance.now() - t0
  }
  const s: number[] = []
  const c: number[] = []
  for (let rep = 0; rep <= REPS; rep++) {
    let [ts, tc] = [0, 0]
    for (let i = 0; i < Math.max(standard.length, cost.length); i++) {
      if ((i + rep) % 2 === 0) {
        ts += time(standard[i])
        tc += time(cost[i])
      } else {
        tc += time(cost[i])
        ts += time(standard[i])
      }
    }
    if (rep > 0) {
      s.push((ts * 1000) / envelopes(standard))
      c.push((tc * 1000) / envelopes(cost))
    }
  }
  const [standardUs, costUs] = [stat(s), stat(c)]
  return { standardUs, costUs, ratio: costUs.median / standardUs.median, ruleset: COST_RULESET }
}

/** The cost fleet of the measure: any ships of total cost 24 (2.6.1 §3.7.1, C-10), thousands of fleets. */
export const COST_RULESET = '2.6.1 fleet=cost:24'
