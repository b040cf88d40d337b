/**
 * The verifier's rate: transcripts of bot games made once, then verified on one core, and on
 * every core as `spaceships verify --jobs N` does.
 */
import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
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
import type { PassResult } from './verifier-pass.js'

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

/**
 * Passes over the files before any counts. V8 optimises the verifier's functions only after they
 * have run many times: over 20 medium-bot files, the first dozen passes ran at 430 to 670 games/s
 * and later ones at 600 to 930, so a single pass of warm-up measured mostly unoptimised code where
 * a verifier of a tournament spends its time optimised.
 */
const VERIFIER_WARM_PASSES = 20

/** The files written once for the verifier processes of one measure, and removed after it. */
function withFilesOnDisk<T>(files: readonly string[], body: (path: string) => T): T {
  const dir = mkdtempSync(join(tmpdir(), 'spaceships-bench-'))
  try {
    const path = join(dir, 'files.json')
    writeFileSync(path, JSON.stringify(files))
    return body(path)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** A build's `verify.js` as a URL: this build's (no argument) or another build's `dist/`. */
function verifyModule(dist = fileURLToPath(new URL('..', import.meta.url))): string {
  return pathToFileURL(join(resolve(dist), 'games', 'spaceships', 'verify', 'verify.js')).href
}

/** One process of verifier-pass.ts: the verifier of `url` over the files, warmed, then timed. */
function verifierProcess(url: string, filesPath: string): PassResult {
  const harness = fileURLToPath(new URL('./verifier-pass.js', import.meta.url))
  const r = spawnSync(process.execPath, [harness, url, filesPath, String(VERIFIER_WARM_PASSES), String(3 * REPS)], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  })
  if (r.status !== 0) throw new Error(`the verifier pass of ${url} failed: ${r.stderr.split('\n')[0] ?? ''}`)
  return JSON.parse(r.stdout) as PassResult
}

/**
 * Games/s of one core, as `spaceships verify` runs: in processes that only verify (two, each
 * warmed up, then 15 passes over the files, every pass a figure). In the bench's own process,
 * after it had played the games with the bots, the same code ran about 20% slower: the rules
 * engine the bots and the verifier share had been optimised for the bots' use as well.
 */
export function verifierRate(files: readonly string[]): { gamesPerSecond: Stat; envelopesPerGame: number } {
  const rates: number[] = []
  withFilesOnDisk(files, (path) => {
    for (let p = 0; p < 2; p++) {
      const r = verifierProcess(verifyModule(), path)
      if (!r.verdicts.every((status) => status === 'complete')) throw new Error('a bench transcript does not verify')
      for (const ms of r.passMs) rates.push((files.length * 1000) / ms)
    }
  })
  const envelopes = files.reduce((n, f) => n + f.split('\n').length - 2, 0) / files.length
  return { gamesPerSecond: stat(rates), envelopesPerGame: envelopes }
}

/**
 * This build's verifier against a baseline build's (`BENCH_BASELINE`: another checkout's `dist/`)
 * on the same files: each build in processes of its own, the same harness in each
 * (verifier-pass.ts), `rounds` rounds whose order alternates (this build first, then the baseline
 * first), so that load on the machine falls on both alike. Games/s of each round's median pass,
 * the speed-up of each round (its baseline's time over its own), whose median is the figure to
 * compare, and over the rounds the sum of each file's fastest time, the least disturbed figure.
 * Both must give the same verdicts, byte for byte.
 *
 * Processes, not both builds in one process alternating: there a copy of this very build measured
 * as its own baseline came out 1.06 to 1.18 times slower than itself (the build loaded second,
 * for this measure alone, never caught up), which is the size of the gains being measured.
 */
export function pairedVerifierRate(
  files: readonly string[],
  baselineDist: string,
  rounds = 4,
): {
  gamesPerSecond: Stat
  baselineGamesPerSecond: Stat
  speedUp: Stat
  fastest: { gamesPerSecond: number; baselineGamesPerSecond: number; speedUp: number }
  rounds: number
} {
  return withFilesOnDisk(files, (path) => {
    const median = (xs: readonly number[]): number => stat(xs).median
    const mine: number[] = []
    const theirs: number[] = []
    const speedUp: number[] = []
    const fastest = { mine: files.map(() => Infinity), theirs: files.map(() => Infinity) }
    for (let round = 0; round < rounds; round++) {
      // a: this build, b: the baseline; who goes first alternates.
      let a: PassResult
      let b: PassResult
      if (round % 2 === 0) {
        a = verifierProcess(verifyModule(), path)
        b = verifierProcess(verifyModule(baselineDist), path)
      } else {
        b = verifierProcess(verifyModule(baselineDist), path)
        a = verifierProcess(verifyModule(), path)
      }
      if (a.verdictsJson !== b.verdictsJson) throw new Error('the baseline gives another verdict on a bench transcript')
      mine.push((files.length * 1000) / median(a.passMs))
      theirs.push((files.length * 1000) / median(b.passMs))
      speedUp.push(median(b.passMs) / median(a.passMs))
      a.fastestMs.forEach((ms, i) => (fastest.mine[i] = Math.min(fastest.mine[i] ?? Infinity, ms)))
      b.fastestMs.forEach((ms, i) => (fastest.theirs[i] = Math.min(fastest.theirs[i] ?? Infinity, ms)))
    }
    const sum = (xs: readonly number[]): number => xs.reduce((x, y) => x + y, 0)
    const [fm, ft] = [sum(fastest.mine), sum(fastest.theirs)]
    return {
      gamesPerSecond: stat(mine),
      baselineGamesPerSecond: stat(theirs),
      speedUp: stat(speedUp),
      fastest: {
        gamesPerSecond: (files.length * 1000) / fm,
        baselineGamesPerSecond: (files.length * 1000) / ft,
        speedUp: ft / fm,
      },
      rounds,
    }
  })
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
