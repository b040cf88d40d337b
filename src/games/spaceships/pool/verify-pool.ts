/**
 * Verifies many games on several threads (`spaceships verify --jobs N`). Files are read by the
 * caller (so the CLI's I/O stays injectable) and grouped by game, so that both players' files of
 * one game are decided together (SPEC §12.1); each worker verifies one game at a time and takes
 * the next as it finishes.
 */
import { cpus } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { parseTranscript } from '../protocol/file.js'
import { gameOfFile } from '../verify/evidence.js'
import { type Verdict, verifyRead } from '../verify/verify.js'
import type { VerifyJob } from './verify-worker.js'

/**
 * The compiled worker: from `src/games/spaceships/pool` (tests) or `dist/games/spaceships/pool`,
 * the package root is four levels up.
 */
const WORKER = join(
  fileURLToPath(import.meta.url),
  ...['..', '..', '..', '..', '..'],
  ...['dist', 'games', 'spaceships', 'pool', 'verify-worker.js'],
)

export interface NamedFile {
  readonly name: string
  readonly content: Uint8Array
  /**
   * The file as `groupByGame` read it, kept so that a game verified on this thread is not read
   * again (a worker reads its files itself: parsed lines are not sent between threads).
   */
  readonly parsed?: ReturnType<typeof parseTranscript>
}

/**
 * One thread fewer than the cores, at least one: a verifying thread keeps about 1.2 cores busy
 * (V8 compiles and collects on threads of its own), so on two cores two verifying threads were
 * slower than one (1,500 games: 3.0 s against 2.6; two whole processes side by side got 1.3 times
 * one's throughput), and the thread that hands out the games needs a core of its own too.
 */
export function defaultJobs(): number {
  return Math.max(1, cpus().length - 1)
}

/**
 * Files grouped by the game they are of (SPEC §12.8), in first-seen order: a file under the first
 * game it names, or, naming none (a hello altered or deleted), under the game its envelopes carry;
 * a file with neither stands alone.
 */
export function groupByGame(files: readonly NamedFile[]): NamedFile[][] {
  const groups = new Map<string, NamedFile[]>()
  const out: NamedFile[][] = []
  for (const file of files) {
    const parsed = parseTranscript(file.content)
    const f: NamedFile = { ...file, parsed }
    const game = parsed.ok
      ? gameOfFile({ name: f.name, lines: parsed.value.lines, torn: parsed.value.torn })
      : undefined
    if (game === undefined) {
      out.push([f])
      continue
    }
    const g = groups.get(game)
    if (g !== undefined) g.push(f)
    else {
      const list = [f]
      groups.set(game, list)
      out.push(list)
    }
  }
  return out
}

/** Verdicts in input order. With one job (or one game) everything runs on this thread. */
export async function verifyGroups(groups: readonly (readonly NamedFile[])[], jobs: number): Promise<Verdict[]> {
  const threads = Math.min(jobs, groups.length)
  if (threads <= 1) return groups.map((g) => verifyRead(g))
  const verdicts: Verdict[] = new Array<Verdict>(groups.length)
  let next = 0
  const run = (worker: Worker): Promise<void> =>
    new Promise((resolve, reject) => {
      const give = (): void => {
        if (next >= groups.length) {
          resolve()
          return
        }
        const id = next++
        const job: VerifyJob = { id, files: (groups[id] ?? []).map((f) => ({ name: f.name, content: f.content })) }
        worker.postMessage(job)
      }
      worker.on('message', (m: { id: number; verdict: Verdict }) => {
        verdicts[m.id] = m.verdict
        give()
      })
      worker.on('error', reject)
      give()
    })
  const workers: Worker[] = []
  try {
    for (let i = 0; i < threads; i++) workers.push(new Worker(WORKER))
    await Promise.all(workers.map(run))
  } catch {
    // A thread that cannot start or dies (a busy machine out of threads or memory) is not a fault
    // of the files: the verifier is pure, so every game is decided again on this thread.
    return groups.map((g) => verifyRead(g))
  } finally {
    await Promise.all(workers.map((w) => w.terminate()))
  }
  return verdicts
}
