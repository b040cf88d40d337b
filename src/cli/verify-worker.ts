/**
 * A verifier thread for `spaceships verify --jobs N` (issue 6: auditors verify whole tournaments).
 * It receives transcript bytes, returns verdicts, and holds nothing else: the verifier is pure,
 * so threads share no state and each verdict is exactly the one-thread verdict.
 */
import { parentPort } from 'node:worker_threads'
import { verifyTranscript } from '../verify/verify.js'

export interface VerifyJob {
  readonly id: number
  readonly bytes: Uint8Array
}

parentPort?.on('message', (job: VerifyJob) => {
  parentPort?.postMessage({ id: job.id, verdict: verifyTranscript(job.bytes) })
})
