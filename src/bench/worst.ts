/**
 * The verifier on the largest transcript the terms allow (SPEC §9, §12.2): a game that runs to the
 * turn limit of 1,000 turns because neither player ever hits a ship, verified as played and with
 * every signature but the hellos' broken (each envelope then costs one rule-exact check, §5.4).
 * CPU time per verification, median of five. Run alone with `node dist/bench/worst.js`.
 */
import { performance } from 'node:perf_hooks'
import { generateKeyPair } from '../core/commit/keys.js'
import { seededSecrets } from '../core/commit/secrets.js'
import { randomRecord, randomSetup } from '../games/spaceships/rules/enumerate.js'
import { type Action, formatRecord } from '../games/spaceships/rules/record.js'
import { seededRandom } from '../games/spaceships/rules/rng.js'
import { DEFAULT_RULESET } from '../games/spaceships/rules/ruleset.js'
import type { Setup } from '../games/spaceships/rules/setup.js'
import { memoryChannelPair } from '../core/session/channel.js'
import { runSession } from '../games/spaceships/session/session.js'
import type { PlayerStrategy } from '../games/spaceships/session/strategy.js'
import { formatTranscript, memoryStore } from '../games/spaceships/protocol/file.js'
import { LIMITS, SINGLE_GAME, type Terms } from '../games/spaceships/protocol/messages.js'
import { verifyTranscript } from '../games/spaceships/verify/verify.js'

const REPS = 5

/** Strikes only cells the opponent's setup leaves empty, and nothing else: the game reaches the turn limit. */
function neverHits(own: Setup, opponent: Setup, seed: string): PlayerStrategy {
  const occupied = new Set(opponent.flatMap((s) => s.cells))
  const empty = Array.from({ length: 125 }, (_, i) => i).filter((c) => !occupied.has(c))
  const rng = seededRandom(seed)
  let next = 0
  return {
    setup: () => own,
    record: (ctx) => {
      const strikes = randomRecord(ctx.ruleset, ctx.state, ctx.turn, rng).actions.filter((a) => a.kind === 'strike')
      return formatRecord(strikes.map((a): Action => ({ ...a, target: empty[next++ % empty.length] ?? 0 })))
    },
  }
}

/** The longest game the terms allow, as A's transcript file. */
export async function longestTranscript(): Promise<{ file: string; lines: number }> {
  const terms: Terms = {
    ruleset: '2.6.1 fleet=standard',
    maxTurns: LIMITS.maxTurns,
    setupMs: 60_000,
    turnMs: 60_000,
    replyMs: 60_000,
    sanction: 'forfeit',
    match: SINGLE_GAME,
  }
  const rng = seededRandom('worst/setups')
  const setups = [randomSetup(DEFAULT_RULESET, rng), randomSetup(DEFAULT_RULESET, rng)] as const
  const pair = memoryChannelPair()
  const side = (role: 'A' | 'B', k: 0 | 1) => {
    const secrets = seededSecrets(`worst/${role}`)
    const strategy = neverHits(setups[k], setups[k === 0 ? 1 : 0], `worst/${role}/bot`)
    return runSession({
      role,
      keys: generateKeyPair(secrets),
      terms,
      secrets,
      store: memoryStore(),
      channel: pair.ends[k],
      strategy,
    })
  }
  const [a] = await Promise.all([side('A', 0), side('B', 1)])
  if (a.verdict.status !== 'complete') throw new Error(`the longest game did not complete: ${a.verdict.status}`)
  return { file: formatTranscript(a.transcript), lines: a.transcript.length }
}

/** The same file with one bit of every signature flipped, the hellos' excepted (so the game is still established). */
export function everySignatureBroken(file: string): string {
  const [header, ...rows] = file.split('\n')
  const broken = rows.map((row, i) => {
    if (row === '' || i < 2) return row
    const bytes = Buffer.from(row, 'base64url')
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] ?? 0) ^ 1
    return bytes.toString('base64url')
  })
  return [header, ...broken].join('\n')
}

export interface WorstCase {
  readonly lines: number
  readonly bytes: number
  readonly validCpuMs: readonly number[]
  readonly brokenCpuMs: readonly number[]
}

function cpuMs(f: () => void): number {
  const t0 = process.cpuUsage()
  f()
  const d = process.cpuUsage(t0)
  return (d.user + d.system) / 1000
}

export async function worstCase(): Promise<WorstCase> {
  const { file, lines } = await longestTranscript()
  const broken = everySignatureBroken(file)
  const validCpuMs: number[] = []
  const brokenCpuMs: number[] = []
  for (let rep = 0; rep <= REPS; rep++) {
    const v = cpuMs(() => {
      if (verifyTranscript(file).status !== 'complete') throw new Error('the longest game does not verify')
    })
    // With every signature broken nothing after the hellos is evidence: the game decides nothing.
    const b = cpuMs(() => {
      if (verifyTranscript(broken).status !== 'incomplete')
        throw new Error('a file of broken signatures was not incomplete')
    })
    if (rep > 0) {
      validCpuMs.push(v)
      brokenCpuMs.push(b)
    }
  }
  return { lines, bytes: file.length, validCpuMs, brokenCpuMs }
}

if (import.meta.url === `file://${process.argv[1] ?? ''}`) {
  const t0 = performance.now()
  const w = await worstCase()
  const median = (xs: readonly number[]): number => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] ?? 0
  process.stdout.write(
    `${w.lines} envelopes, ${(w.bytes / 1024).toFixed(0)} KiB; verify CPU median of ${REPS}: valid ${median(w.validCpuMs).toFixed(0)} ms, signatures broken ${median(w.brokenCpuMs).toFixed(0)} ms (goal < 2000 ms); ${((performance.now() - t0) / 1000).toFixed(1)} s\n`,
  )
}
