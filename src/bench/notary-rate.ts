/**
 * Receipts a second end to end over libp2p (the witnessed-games issue; NOTARY.md §7, §8): a
 * notary in a process of its own with its database on disk (`synchronous = FULL`), and
 * NOTARY_CLIENTS concurrent clients in another process, each its own libp2p node, registering a
 * game and submitting NOTARY_SUBMISSIONS envelopes with real deposits (notary-clients.ts). A round
 * is that fixed work against a fresh notary and database; the figure is receipts over the round's
 * wall time, from the first request sent to the last receipt verified by its client.
 *
 * Rounds alternate the notary's two modes, so load from elsewhere on the machine falls on both
 * alike: `grouped`, the service as deployed (submissions arriving together committed in one
 * transaction, each answered after that commit: group-commit.ts), and `single`, one transaction
 * per receipt, the baseline. The notary's CPU time over a round gives its cost per receipt on its
 * one thread, the capacity of one core whatever the clients' process could drive.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createInterface } from 'node:readline'
import { fileURLToPath } from 'node:url'
import { type Stat, stat } from './stat.js'

export const NOTARY_CLIENTS = 64
export const NOTARY_SUBMISSIONS = 200
/** Rounds of each mode that count, after one warm-up round of each. */
export const NOTARY_ROUNDS = 3

const HERE = join(fileURLToPath(import.meta.url), '..')

export type NotaryMode = 'grouped' | 'single'

export interface NotaryModeResult {
  readonly receiptsPerSecond: Stat
  readonly notaryCpuUsPerReceipt: Stat
  readonly clientsCpuUsPerReceipt: Stat
  readonly latencyMs: { readonly p50: Stat; readonly p99: Stat }
}

export interface NotaryRateResult {
  readonly clients: number
  readonly submissionsPerClient: number
  readonly receiptsPerRound: number
  readonly rounds: number
  readonly grouped: NotaryModeResult
  readonly single: NotaryModeResult
}

/** Lines from a child's standard output, one at a time, in order. */
function lines(child: ChildProcess): () => Promise<string> {
  if (child.stdout === null) throw new Error('no stdout')
  const it = createInterface({ input: child.stdout })[Symbol.asyncIterator]()
  return async () => {
    const r = await it.next()
    if (r.done === true) throw new Error('a bench process ended early')
    return r.value
  }
}

interface RoundResult {
  readonly receipts: number
  readonly ms: number
  readonly cpuMs: number
  readonly latencyMs: { p50: number; p99: number }
}

/** One round against a fresh notary process in `mode`; `execArgv` adds flags (a CPU profile). */
export async function notaryRound(
  mode: NotaryMode,
  clients: { readonly send: (line: string) => void; readonly next: () => Promise<string> },
  execArgv: readonly string[] = [],
): Promise<RoundResult & { notaryCpuMs: number }> {
  const dir = mkdtempSync(join(tmpdir(), 'spaceships-notary-bench-'))
  const notary = spawn(
    process.execPath,
    [...execArgv, join(HERE, 'notary-process.js'), join(dir, 'notary.sqlite'), mode],
    { stdio: ['pipe', 'pipe', 'inherit'] },
  )
  try {
    const next = lines(notary)
    const { addrs } = JSON.parse(await next()) as { addrs: string[] }
    const cpu = async (): Promise<{ cpuMs: number; failures: number }> => {
      notary.stdin.write('cpu\n')
      return JSON.parse(await next()) as { cpuMs: number; failures: number }
    }
    const before = await cpu()
    clients.send(JSON.stringify({ addrs }))
    const r = JSON.parse(await clients.next()) as RoundResult
    const after = await cpu()
    if (after.failures !== 0) throw new Error(`the notary answered ${after.failures} requests with no receipt`)
    return { ...r, notaryCpuMs: after.cpuMs - before.cpuMs }
  } finally {
    const exited = new Promise((r) => notary.once('exit', r))
    notary.stdin.end()
    await exited
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The clients' process, once its games and submissions are built. */
export async function notaryClients(
  clients = NOTARY_CLIENTS,
  submissions = NOTARY_SUBMISSIONS,
): Promise<{ send: (line: string) => void; next: () => Promise<string>; close: () => Promise<void> }> {
  const child = spawn(process.execPath, [join(HERE, 'notary-clients.js'), String(clients), String(submissions)], {
    stdio: ['pipe', 'pipe', 'inherit'],
  })
  const next = lines(child)
  await next()
  return {
    send: (line) => void child.stdin.write(line + '\n'),
    next,
    close: async () => {
      const exited = new Promise((r) => child.once('exit', r))
      child.stdin.end()
      await exited
    },
  }
}

export async function notaryRate(log: (m: string) => void = () => undefined): Promise<NotaryRateResult> {
  const clients = await notaryClients()
  const runs: Record<NotaryMode, (RoundResult & { notaryCpuMs: number })[]> = { grouped: [], single: [] }
  try {
    for (let i = 0; i <= NOTARY_ROUNDS; i++)
      for (const mode of ['grouped', 'single'] as const) {
        const r = await notaryRound(mode, clients)
        log(`   ${mode}: ${Math.round((r.receipts * 1000) / r.ms)} receipts/s${i === 0 ? ' (warm-up)' : ''}`)
        if (i > 0) runs[mode].push(r)
      }
  } finally {
    await clients.close()
  }
  const summary = (rs: (RoundResult & { notaryCpuMs: number })[]): NotaryModeResult => ({
    receiptsPerSecond: stat(rs.map((r) => (r.receipts * 1000) / r.ms)),
    notaryCpuUsPerReceipt: stat(rs.map((r) => (r.notaryCpuMs * 1000) / r.receipts)),
    clientsCpuUsPerReceipt: stat(rs.map((r) => (r.cpuMs * 1000) / r.receipts)),
    latencyMs: { p50: stat(rs.map((r) => r.latencyMs.p50)), p99: stat(rs.map((r) => r.latencyMs.p99)) },
  })
  return {
    clients: NOTARY_CLIENTS,
    submissionsPerClient: NOTARY_SUBMISSIONS,
    receiptsPerRound: NOTARY_CLIENTS * (NOTARY_SUBMISSIONS + 1),
    rounds: NOTARY_ROUNDS,
    grouped: summary(runs.grouped),
    single: summary(runs.single),
  }
}
