/**
 * NOTARY.md §3, §5.1: the byte layouts of headers, claim requests, complaints and receipts. decode(encode(x)) = x
 * for any value; a truncation or any changed byte never throws and either decodes to a value that
 * encodes back to exactly those bytes (the encoding is canonical) or returns a coded error naming
 * its field and rule. Signatures: valid under the signer's key only, over the tagged bytes.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { concatBytes, toHex } from '../../../src/core/commit/bytes.js'
import { tag } from '../../../src/core/commit/hash.js'
import { sign } from '../../../src/core/commit/keys.js'
import {
  CLAIM_BYTES,
  type Claim,
  claimSignatureValid,
  decodeClaim,
  encodeClaim,
  encodeUnsignedClaim,
  signClaim,
} from '../../../src/core/notary/claim.js'
import {
  type Complaint,
  COMPLAINT_BYTES,
  complaintSignatureValid,
  decodeComplaint,
  encodeComplaint,
  encodeUnsignedComplaint,
} from '../../../src/core/notary/complaint.js'
import {
  FLAG,
  HEADER_BYTES,
  type SubmissionHeader,
  decodeHeader,
  encodeHeader,
  headerSignatureValid,
} from '../../../src/core/notary/header.js'
import {
  type UnsignedReceipt,
  decodeReceipt,
  encodeUnsignedReceipt,
  receiptSignatureValid,
  signReceipt,
} from '../../../src/core/notary/receipt.js'
import { PROTOCOL_ERROR_CODES } from '../../../src/core/wire/errors.js'
import { A, B, DOMAIN, NOTARY, submission } from './helpers.js'

const bytes = (n: number) => fc.uint8Array({ minLength: n, maxLength: n })
const side = fc.constantFrom(0 as const, 1 as const)
const time = fc.nat({ max: Number.MAX_SAFE_INTEGER })
const depositBytes = fc.integer({ min: 8, max: 21 }).map((k) => 160 + 2 ** k + 16)

const header: fc.Arbitrary<SubmissionHeader> = fc
  .record({
    game: bytes(32),
    sender: side,
    seq: fc.integer({ min: 1, max: 0xffff }),
    envelopeHash: bytes(32),
    depositHash: bytes(32),
    depositBytes,
    flags: fc.constantFrom(
      0,
      FLAG.stop,
      FLAG.end,
      FLAG.stop | FLAG.end,
      FLAG.stop | FLAG.claim,
      FLAG.stop | FLAG.outage,
    ),
    deadline: time,
    seen: fc.nat({ max: 0xffffffff }),
    sig: bytes(64),
  })
  .map((h) => ((h.flags & FLAG.claim) === 0 ? { ...h, deadline: 0, seen: 0 } : h))

const complaint: fc.Arbitrary<Complaint> = fc.record({
  game: bytes(32),
  sender: side,
  index: fc.integer({ min: 1, max: 0xffffffff }),
  dh: bytes(32),
  proof: bytes(96),
  sig: bytes(64),
})

const claim: fc.Arbitrary<Claim> = fc.record({
  game: bytes(32),
  sender: side,
  seq: fc.integer({ min: 1, max: 0xffff }),
  deadline: time,
  seen: fc.nat({ max: 0xffffffff }),
  sig: bytes(64),
})

const receipt: fc.Arbitrary<UnsignedReceipt> = fc
  .record({ game: bytes(32), index: fc.integer({ min: 1, max: 0xffffffff }), prev: bytes(32), time })
  .chain((base) => {
    const prev = base.prev.some((b) => b !== 0) ? base.prev : Uint8Array.of(1, ...base.prev.subarray(1))
    return fc.oneof(
      fc
        .record({
          helloA: fc.uint8Array({ minLength: 1, maxLength: 300 }),
          helloB: fc.uint8Array({ minLength: 1, maxLength: 300 }),
        })
        .map((b) => ({ ...base, index: 0, prev: new Uint8Array(32), kind: 'genesis' as const, ...b })),
      header.map((h) => ({ ...base, prev, kind: 'envelope' as const, header: { ...h, game: base.game } })),
      fc.tuple(complaint, fc.uint8Array({ minLength: 432, maxLength: 432 })).map(([c, deposit]) => ({
        ...base,
        prev,
        kind: 'complaint' as const,
        complaint: { ...c, game: base.game },
        deposit,
      })),
      fc.constant({ ...base, prev, kind: 'seal' as const }),
      claim.map((c) => ({ ...base, prev, kind: 'claim' as const, claim: { ...c, game: base.game } })),
    )
  })

const CODES = new Set<string>(PROTOCOL_ERROR_CODES)

/** Any truncation or changed byte: a coded error with a field and a rule, or a canonical value. */
function hostile<T>(
  encoded: Uint8Array,
  decode: (
    b: Uint8Array,
  ) => { ok: true; value: T } | { ok: false; error: { code: string; field: string; rule: string } },
  encode: (v: T) => Uint8Array,
  at: number,
  x: number,
  cut: number,
): void {
  const mutated = encoded.slice()
  mutated[at % encoded.length] = (mutated[at % encoded.length] ?? 0) ^ x
  for (const b of [mutated, encoded.subarray(0, cut % encoded.length), concatBytes(encoded, Uint8Array.of(x))]) {
    const d = decode(b)
    if (d.ok) expect(toHex(encode(d.value))).toBe(toHex(b))
    else {
      expect(CODES.has(d.error.code)).toBe(true)
      expect(d.error.rule).toMatch(/^NOTARY\.md §/)
    }
  }
}

describe('the notary byte layouts (NOTARY.md §3, §5.1)', () => {
  it('a header: fixed 181 bytes, decode(encode(h)) = h; truncated, changed or extended, a code or a canonical value', () => {
    fc.assert(
      fc.property(header, fc.nat(), fc.integer({ min: 1, max: 255 }), fc.nat(), (h, at, x, cut) => {
        const e = encodeHeader(h)
        expect(e.length).toBe(HEADER_BYTES)
        expect(decodeHeader(e)).toEqual({ ok: true, value: h })
        hostile(e, decodeHeader, encodeHeader, at, x, cut)
      }),
    )
  })

  it('a complaint: fixed 230 bytes, decode(encode(c)) = c; hostile bytes give codes', () => {
    fc.assert(
      fc.property(complaint, fc.nat(), fc.integer({ min: 1, max: 255 }), fc.nat(), (c, at, x, cut) => {
        const e = encodeComplaint(c)
        expect(e.length).toBe(COMPLAINT_BYTES)
        expect(decodeComplaint(e)).toEqual({ ok: true, value: c })
        hostile(e, decodeComplaint, encodeComplaint, at, x, cut)
      }),
    )
  })

  it('a claim request (PROTOCOL-4.md §4.4, NOTARY.md §3.3): fixed 112 bytes, decode(encode(c)) = c; hostile bytes give codes', () => {
    fc.assert(
      fc.property(claim, fc.nat(), fc.integer({ min: 1, max: 255 }), fc.nat(), (c, at, x, cut) => {
        const e = encodeClaim(c)
        expect(e.length).toBe(CLAIM_BYTES)
        expect(CLAIM_BYTES).toBe(112)
        expect(decodeClaim(e)).toEqual({ ok: true, value: c })
        hostile(e, decodeClaim, encodeClaim, at, x, cut)
      }),
    )
  })

  it('a claim request: its layout field by field, and each value out of range refused by name (NOTARY.md §3.3)', () => {
    const c = signClaim(DOMAIN, A, {
      game: new Uint8Array(32).fill(7),
      sender: 1,
      seq: 0x0102,
      deadline: 2 ** 40 + 5,
      seen: 0x0a0b0c0d,
    })
    const e = encodeClaim(c)
    // kind 4 ‖ game[32] ‖ u8 sender ‖ u16 seq ‖ u64 deadline ‖ u32 seen ‖ sig[64]
    expect(toHex(e.subarray(0, 48))).toBe(`04${'07'.repeat(32)}01` + '0102' + '0000010000000005' + '0a0b0c0d')
    expect(toHex(e.subarray(48))).toBe(toHex(c.sig))
    const at = (offset: number, v: number) => Uint8Array.from(e, (b, i) => (i === offset ? v : b))
    expect(decodeClaim(at(0, 1))).toMatchObject({
      ok: false,
      error: { code: 'field.range', field: 'claim.kind', rule: 'NOTARY.md §3.3' },
    })
    expect(decodeClaim(at(33, 2))).toMatchObject({ ok: false, error: { code: 'field.range', field: 'claim.sender' } })
    const seq0 = e.slice()
    seq0.fill(0, 34, 36)
    expect(decodeClaim(seq0)).toMatchObject({ ok: false, error: { code: 'field.range', field: 'claim.seq' } })
    // A deadline above 2^53 - 1 (NOTARY.md §1).
    expect(decodeClaim(at(36, 0x20))).toMatchObject({
      ok: false,
      error: { code: 'field.range', field: 'claim.deadline' },
    })
    expect(decodeClaim(e.subarray(0, 111))).toMatchObject({ ok: false, error: { code: 'wire.truncated' } })
    expect(decodeClaim(concatBytes(e, Uint8Array.of(0)))).toMatchObject({ ok: false, error: { code: 'wire.trailing' } })
    expect(() => encodeUnsignedClaim({ ...c, seq: 0 })).toThrow(RangeError)
  })

  it('a receipt of each kind: decode(sign(r)) = r with its bytes; hostile bytes give codes', () => {
    fc.assert(
      fc.property(receipt, fc.nat(), fc.integer({ min: 1, max: 255 }), fc.nat(), (r, at, x, cut) => {
        const e = signReceipt(DOMAIN, NOTARY, r)
        const d = decodeReceipt(e)
        expect(d.ok).toBe(true)
        if (!d.ok) return
        const { sig, bytes: b, ...value } = d.value
        expect(value).toEqual(r)
        expect(toHex(b)).toBe(toHex(e))
        expect(receiptSignatureValid(DOMAIN, d.value, NOTARY.publicKey)).toBe(true)
        expect(receiptSignatureValid(DOMAIN, d.value, A.publicKey)).toBe(false)
        expect(sig.length).toBe(64)
        hostile(e, decodeReceipt, (v) => concatBytes(encodeUnsignedReceipt(v), v.sig), at, x, cut)
      }),
      { numRuns: 200 },
    )
  })

  it('decoders name the field and rule they refuse', () => {
    const { header: h } = submission(0, 1)
    const e = encodeHeader(h)
    const flags = 1 + 32 + 1 + 2 + 32 + 32 + 4
    const withFlags = (f: number): Uint8Array => Uint8Array.from(e, (b, i) => (i === flags ? f : b))
    expect(decodeHeader(withFlags(0x10))).toMatchObject({
      ok: false,
      error: { code: 'field.format', field: 'header.flags', rule: 'NOTARY.md §3.2' },
    })
    expect(decodeHeader(withFlags(FLAG.claim))).toMatchObject({ ok: false, error: { field: 'header.flags' } })
    expect(decodeHeader(withFlags(FLAG.stop | FLAG.claim | FLAG.outage))).toMatchObject({
      ok: false,
      error: { field: 'header.flags' },
    })
    const seq0 = e.slice()
    seq0.fill(0, 34, 36)
    expect(decodeHeader(seq0)).toMatchObject({ ok: false, error: { code: 'field.range', field: 'header.seq' } })
    const deadline = e.slice()
    deadline[flags + 8] = 1
    expect(decodeHeader(deadline)).toMatchObject({
      ok: false,
      error: { code: 'field.range', field: 'header.deadline' },
    })
    expect(decodeHeader(e.subarray(0, 100))).toMatchObject({ ok: false, error: { code: 'wire.truncated' } })
    const genesisAt1 = encodeUnsignedReceipt({
      kind: 'seal',
      game: h.game,
      index: 1,
      prev: new Uint8Array(32).fill(1),
      time: 5,
    })
    genesisAt1[1] = 0
    expect(decodeReceipt(concatBytes(genesisAt1, new Uint8Array(64)))).toMatchObject({
      ok: false,
      error: { field: 'index' },
    })
    const foreign = signReceipt(DOMAIN, NOTARY, {
      kind: 'envelope',
      game: new Uint8Array(32),
      index: 1,
      prev: new Uint8Array(32).fill(1),
      time: 5,
      header: h,
    })
    expect(decodeReceipt(foreign)).toMatchObject({
      ok: false,
      error: { code: 'field.format', field: 'body.header.game' },
    })
  })

  it("signatures: a header and a complaint verify under their signer's hello key only, over the tagged bytes", () => {
    const { header: h } = submission(1, 2)
    expect(headerSignatureValid(DOMAIN, h, B.publicKey)).toBe(true)
    expect(headerSignatureValid(DOMAIN, h, A.publicKey)).toBe(false)
    expect(headerSignatureValid(DOMAIN, { ...h, seq: 3 }, B.publicKey)).toBe(false)
    expect(headerSignatureValid({ ...DOMAIN, submission: 'spaceships/5/submission' }, h, B.publicKey)).toBe(false)
    const unsigned = { game: h.game, sender: 0 as const, index: 4, dh: new Uint8Array(32), proof: new Uint8Array(96) }
    const c = { ...unsigned, sig: sign(A, concatBytes(tag(DOMAIN.complaint), encodeUnsignedComplaint(unsigned))) }
    expect(complaintSignatureValid(DOMAIN, c, A.publicKey)).toBe(true)
    expect(complaintSignatureValid(DOMAIN, c, B.publicKey)).toBe(false)
    expect(complaintSignatureValid(DOMAIN, { ...c, index: 5 }, A.publicKey)).toBe(false)
  })

  it("a claim request verifies under its sender's hello key only, over tag(claim) ‖ the 48 bytes before sig (NOTARY.md §3.3)", () => {
    const unsigned = { game: new Uint8Array(32).fill(1), sender: 1 as const, seq: 3, deadline: 90_000, seen: 4 }
    const c = signClaim(DOMAIN, B, unsigned)
    expect(toHex(c.sig)).toBe(toHex(sign(B, concatBytes(tag(DOMAIN.claim), encodeUnsignedClaim(unsigned)))))
    expect(encodeUnsignedClaim(unsigned).length).toBe(48)
    expect(claimSignatureValid(DOMAIN, c, B.publicKey)).toBe(true)
    expect(claimSignatureValid(DOMAIN, c, A.publicKey)).toBe(false)
    for (const changed of [{ seq: 4 }, { deadline: 90_001 }, { seen: 5 }, { sender: 0 as const }])
      expect(claimSignatureValid(DOMAIN, { ...c, ...changed }, B.publicKey)).toBe(false)
    expect(claimSignatureValid({ ...DOMAIN, claim: 'spaceships/4/submission' }, c, B.publicKey)).toBe(false)
  })
})
