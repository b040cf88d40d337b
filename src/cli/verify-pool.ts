/**
 * Verifies many transcripts on several threads (`spaceships verify --jobs N`). Files are read by
 * the caller (so the CLI's I/O stays injectable) and their bytes copied to the workers (a copy
 * costs microseconds; moving them would leave the caller's buffers detached); each worker
 * verifies one transcript at a time and takes the next as it finishes.
 */
import { cpus } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Worker } from 'node:worker_threads'
import { type TranscriptVerdict, verifyTranscript } from '../verify/verify.js'
import type { VerifyJob } from './verify-worker.js'

/** The compiled worker: from `src/cli` (tests) or `dist/cli`, the package root is two levels up. */
const WORKER = join(fileURLToPath(import.meta.url), '..', '..', '..', 'dist', 'cli', 'verify-worker.js')

export function defaultJobs(): number {
  return Math.max(1, cpus().length)
}

/** Verdicts in input order. With one job (or one transcript) everything runs on this thread. */
export async function verifyAll(transcripts: readonly Uint8Array[], jobs: number): Promise<TranscriptVerdict[]> {
  const threads = Math.min(jobs, transcripts.length)
  if (threads <= 1) return transcripts.map((t) => verifyTranscript(t))
  const verdicts: TranscriptVerdict[] = new Array<TranscriptVerdict>(transcripts.length)
  let next = 0
  const run = (worker: Worker): Promise<void> =>
    new Promise((resolve, reject) => {
      const give = (): void => {
        if (next >= transcripts.length) {
          resolve()
          return
        }
        const id = next++
        const job: VerifyJob = { id, bytes: transcripts[id] ?? new Uint8Array() }
        worker.postMessage(job)
      }
      worker.on('message', (m: { id: number; verdict: TranscriptVerdict }) => {
        verdicts[m.id] = m.verdict
        give()
      })
      worker.on('error', reject)
      give()
    })
  const workers = Array.from({ length: threads }, () => new Worker(WORKER))
  try {
    await Promise.all(workers.map(run))
  } finally {
    await Promise.all(workers.map((w) => w.terminate()))
  }
  return verdicts
}
