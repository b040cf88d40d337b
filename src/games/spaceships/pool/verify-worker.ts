/**
 * A verifier thread for `spaceships verify --jobs N`. It receives one game's files, returns the
 * verdict, and holds nothing else: the verifier is pure, so threads share no state and each verdict
 * is exactly the one-thread verdict.
 */
import { parentPort } from 'node:worker_threads'
import { verifyFiles } from '../verify/verify.js'

export interface VerifyJob {
  readonly id: number
  readonly files: readonly { readonly name: string; readonly content: Uint8Array }[]
}

parentPort?.on('message', (job: VerifyJob) => {
  parentPort?.postMessage({ id: job.id, verdict: verifyFiles(job.files) })
})
