/** A notary over a database file in a fresh directory, on a virtual clock, for the service tests. */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { NotaryLimits } from '../../../src/core/notary-service/limits.js'
import { Notary } from '../../../src/core/notary-service/notary.js'
import type { Requester } from '../../../src/core/notary-service/state.js'
import { NotaryStore } from '../../../src/core/notary-service/store.js'
import { VirtualClock } from '../../../src/core/session/clock.js'
import { decodeReceipt, type Receipt } from '../../../src/core/notary/receipt.js'
import type { NotaryResponse } from '../../../src/core/notary/messages.js'
import { A, B, NOTARY } from './helpers.js'
import { hellos, testRegistrar } from './registrar.js'

export const T0 = 1_700_000_000_000
export const FROM_A: Requester = { peer: 'peer-A', key: A.publicKey }
export const FROM_B: Requester = { peer: 'peer-B', key: B.publicKey }
export const STRANGER: Requester = { peer: 'peer-X', key: new Uint8Array(32).fill(3) }
export const WITNESSED = hellos(A.publicKey, B.publicKey, NOTARY.publicKey)

export interface Fixture {
  readonly dir: string
  readonly path: string
  readonly clock: VirtualClock
  notary: Notary
  /** Closes the database and opens it again from its file, with a new notary (a restart). */
  reopen(): void
  close(): void
}

export function fixture(limits: Partial<NotaryLimits> = {}): Fixture {
  const dir = mkdtempSync(join(tmpdir(), 'notary-test-'))
  const path = join(dir, 'notary.sqlite')
  const clock = new VirtualClock(T0)
  const make = (): Notary =>
    new Notary({ keys: NOTARY, registrar: testRegistrar, clock, store: new NotaryStore(path), limits })
  const f: Fixture = {
    dir,
    path,
    clock,
    notary: make(),
    reopen() {
      f.notary.store.close()
      f.notary = make()
    },
    close() {
      f.notary.store.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
  return f
}

/** The receipt of a response, decoded, or a failure naming what came instead. */
export function receiptOf(a: NotaryResponse): Receipt {
  if (a.kind !== 'receipt') throw new Error(`expected a receipt, got ${JSON.stringify(a)}`)
  const d = decodeReceipt(a.receipt)
  if (!d.ok) throw new Error(d.error.message)
  return d.value
}

export function registered(f: Fixture): Receipt {
  return receiptOf(f.notary.register(WITNESSED.helloA, WITNESSED.helloB, FROM_A))
}
