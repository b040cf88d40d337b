/**
 * protocol/vectors/notary.json (NOTARY.md §10) is exactly what the fixed seeds and randomness
 * give, and each value checks independently: the deposit opens for both players to the envelope,
 * the signatures verify, the proof verifies and discloses X25519(secret, enc), the log is clean;
 * the claim request's bytes are its fields in the layout of NOTARY.md §3.3, and its receipt is a
 * fault-free claim receipt chained to the envelope receipt.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { ed25519, x25519 } from '@noble/curves/ed25519.js'
import { describe, expect, it } from 'vitest'
import { fromHex, toHex } from '../../../src/core/commit/bytes.js'
import { claimSignatureValid, decodeClaim } from '../../../src/core/notary/claim.js'
import { complaintSignatureValid, decodeComplaint } from '../../../src/core/notary/complaint.js'
import { openDeposit } from '../../../src/core/notary/deposit.js'
import { decodeHeader, headerSignatureValid } from '../../../src/core/notary/header.js'
import { checkReceiptLog } from '../../../src/core/notary/log.js'
import { verifyDhProof } from '../../../src/core/notary/proof.js'
import { decodeReceipt, receiptSignatureValid } from '../../../src/core/notary/receipt.js'
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
  header: { header: string; mixedOrderR: string }
  receipts: Record<'genesis' | 'envelope' | 'seal', { receipt: string }>
  complaint: { x25519Dh: string; dhPointQ: string; proof: string; complaint: string }
  claim: {
    fields: { sender: number; seq: number; deadline: number; seen: number }
    unsigned: string
    signedMessage: string
    claim: string
    receipt: { index: number; time: number; receipt: string; receiptHash: string }
  }
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

  it('a header signed with a mixed-order R: a cofactored verifier accepts it, SPEC §5.2 does not, and the notary refuses it (code 4, NOTARY.md §7.5)', async () => {
    const v = JSON.parse(readFileSync(PATH, 'utf8')) as Vectors
    const bytes = fromHex(v.header.mixedOrderR)
    const d = decodeHeader(bytes)
    if (!d.ok) throw new Error('the vector header does not decode')
    const A = fromHex(v.keys.A.ed25519Public)
    expect(headerSignatureValid(D, d.value, A)).toBe(false)
    const { tag } = await import('../../../src/core/commit/hash.js')
    const { concatBytes } = await import('../../../src/core/commit/bytes.js')
    const message = concatBytes(tag(D.submission), bytes.subarray(0, bytes.length - 64))
    expect(ed25519.verify(bytes.subarray(bytes.length - 64), message, A, { zip215: true })).toBe(true)
    // The same header as the valid one but for its signature.
    expect(toHex(bytes.subarray(0, bytes.length - 64))).toBe(v.header.header.slice(0, -128))
  })

  it("A's claim request and its claim receipt (PROTOCOL-4.md §4.4, NOTARY.md §3.3): layout, signatures, a clean log", () => {
    const v = JSON.parse(readFileSync(PATH, 'utf8')) as Vectors
    const pub = (n: 'A' | 'notary') => fromHex(v.keys[n].ed25519Public)
    const { fields } = v.claim
    // The layout, written out by hand: u8 4 ‖ game ‖ u8 sender ‖ u16 seq ‖ u64 deadline ‖ u32 seen.
    const hex = (n: number, bytes: number) => n.toString(16).padStart(2 * bytes, '0')
    const unsigned = `04${v.game}${hex(fields.sender, 1)}${hex(fields.seq, 2)}${hex(fields.deadline, 8)}${hex(fields.seen, 4)}`
    expect(v.claim.unsigned).toBe(unsigned)
    // tag(claim) = u8 len ‖ "spaceships/4/claim" (NOTARY.md §1), then the 48 bytes.
    const tagHex = hex(D.claim.length, 1) + Buffer.from(D.claim, 'ascii').toString('hex')
    expect(v.claim.signedMessage).toBe(tagHex + unsigned)
    expect(v.claim.claim.length).toBe(2 * 112)
    expect(v.claim.claim.startsWith(unsigned)).toBe(true)
    const sig = fromHex(v.claim.claim).subarray(48)
    expect(ed25519.verify(sig, fromHex(v.claim.signedMessage), pub('A'))).toBe(true)
    const c = decodeClaim(fromHex(v.claim.claim))
    expect(
      c.ok && { sender: c.value.sender, seq: c.value.seq, deadline: c.value.deadline, seen: c.value.seen },
    ).toEqual(fields)
    expect(c.ok && claimSignatureValid(D, c.value, pub('A'))).toBe(true)
    // The receipt: kind 4 at index seen + 1, time above the deadline, its body the claim's 112 bytes.
    const r = decodeReceipt(fromHex(v.claim.receipt.receipt))
    expect(r.ok && receiptSignatureValid(D, r.value, pub('notary'))).toBe(true)
    expect(r.ok && r.value).toMatchObject({ kind: 'claim', index: fields.seen + 1, time: v.claim.receipt.time })
    expect(v.claim.receipt.time).toBeGreaterThan(fields.deadline)
    const body = v.claim.receipt.receipt.slice(2 * (1 + 1 + 32 + 4 + 32 + 8), -2 * 64)
    expect(body).toBe(v.claim.claim)
    const log = checkReceiptLog(
      D,
      [v.claim.receipt, v.receipts.genesis, v.receipts.envelope].map((x) => fromHex(x.receipt)),
      pub('notary'),
      { playerKeys: [pub('A'), fromHex(v.keys.B.ed25519Public)] },
    )
    expect(log).toMatchObject({ sealed: false, faults: [], gaps: [], setAside: [] })
    expect(log.chain.map((x) => x.kind)).toEqual(['genesis', 'envelope', 'claim'])
  })
})
