/**
 * protocol/vectors/notary.json (NOTARY.md §10) is exactly what the fixed seeds and randomness
 * give, and each value checks independently: the deposit opens for both players to the envelope,
 * the signatures verify, the proof verifies and discloses X25519(secret, enc), the log is clean.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { x25519 } from '@noble/curves/ed25519.js'
import { describe, expect, it } from 'vitest'
import { fromHex, toHex } from '../../../src/core/commit/bytes.js'
import { complaintSignatureValid, decodeComplaint } from '../../../src/core/notary/complaint.js'
import { openDeposit } from '../../../src/core/notary/deposit.js'
import { decodeHeader, headerSignatureValid } from '../../../src/core/notary/header.js'
import { checkReceiptLog } from '../../../src/core/notary/log.js'
import { verifyDhProof } from '../../../src/core/notary/proof.js'
import { notaryVectors, VECTOR_DOMAIN as D } from './notary-vectors.js'

const DIR = new URL('../../../protocol/vectors/', import.meta.url)
const PATH = new URL('notary.json', DIR)

interface Vectors {
  keys: Record<
    'A' | 'B' | 'notary',
    { seed: string; ed25519Public: string; x25519Secret: string; x25519Public: string }
  >
  game: string
  deposit: { inputs: { envelope: string; envelopeHash: string }; deposit: string; encForRecipient: string }
  header: { header: string }
  receipts: Record<'genesis' | 'envelope' | 'seal', { receipt: string }>
  complaint: { x25519Dh: string; dhPointQ: string; proof: string; complaint: string }
}

describe('protocol/vectors/notary.json (NOTARY.md §10)', () => {
  it('is exactly what the seeds and the fixed randomness give', () => {
    const content = `${JSON.stringify(notaryVectors(), null, 2)}\n`
    if (process.env['UPDATE_VECTORS'] === '1') {
      mkdirSync(DIR, { recursive: true })
      writeFileSync(PATH, content)
    }
    expect(readFileSync(PATH, 'utf8'), 'notary.json differs; UPDATE_VECTORS=1 rewrites it').toBe(content)
  })

  it('each value checks on its own: opening, signatures, the proof, the log', () => {
    const v = JSON.parse(readFileSync(PATH, 'utf8')) as Vectors
    const k = (n: 'A' | 'B' | 'notary') => ({ seed: fromHex(v.keys[n].seed), pub: fromHex(v.keys[n].ed25519Public) })
    expect(toHex(x25519.getPublicKey(fromHex(v.keys.B.x25519Secret)))).toBe(v.keys.B.x25519Public)
    const place = {
      game: fromHex(v.game),
      sender: 0 as const,
      seq: 1,
      envelopeHash: fromHex(v.deposit.inputs.envelopeHash),
    }
    for (const [forWhom, who] of [
      [0, 'B'],
      [1, 'A'],
    ] as const) {
      const opened = openDeposit(fromHex(v.deposit.deposit), forWhom, k(who).seed, { domain: D, place, floor: 256 })
      expect(opened.ok && toHex(opened.value)).toBe(v.deposit.inputs.envelope)
    }
    const header = decodeHeader(fromHex(v.header.header))
    expect(header.ok && headerSignatureValid(D, header.value, k('A').pub)).toBe(true)
    const log = checkReceiptLog(
      D,
      [v.receipts.seal, v.receipts.envelope, v.receipts.genesis].map((r) => fromHex(r.receipt)),
      k('notary').pub,
      {
        playerKeys: [k('A').pub, k('B').pub],
      },
    )
    expect(log).toMatchObject({ sealed: true, faults: [], gaps: [], setAside: [] })
    expect(log.chain).toHaveLength(3)
    const dh = verifyDhProof(
      D,
      k('B').pub,
      fromHex(v.deposit.encForRecipient),
      fromHex(v.complaint.dhPointQ),
      fromHex(v.complaint.proof),
    )
    expect(dh.ok && toHex(dh.value)).toBe(v.complaint.x25519Dh)
    expect(v.complaint.x25519Dh).toBe(
      toHex(x25519.getSharedSecret(fromHex(v.keys.B.x25519Secret), fromHex(v.deposit.encForRecipient))),
    )
    const c = decodeComplaint(fromHex(v.complaint.complaint))
    expect(c.ok && complaintSignatureValid(D, c.value, k('B').pub)).toBe(true)
  })
})
