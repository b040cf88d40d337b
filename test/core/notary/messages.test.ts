/**
 * NOTARY.md §7.2, §7.3: the wire messages. decode(encode(m)) = m; truncated, changed or extended
 * bytes never throw and give a coded error or a value that encodes back to those bytes.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { concatBytes, toHex } from '../../../src/core/commit/bytes.js'
import {
  type NotaryRequest,
  type NotaryResponse,
  REFUSALS,
  decodeRequest,
  decodeResponse,
  encodeRequest,
  encodeResponse,
} from '../../../src/core/notary/messages.js'
import { PROTOCOL_ERROR_CODES } from '../../../src/core/wire/errors.js'

const bytes = (min: number, max: number) => fc.uint8Array({ minLength: min, maxLength: max })
const deposit = fc.constantFrom(new Uint8Array(0), new Uint8Array(432), new Uint8Array(688))

const request: fc.Arbitrary<NotaryRequest> = fc.oneof(
  fc.record({ kind: fc.constant('register' as const), helloA: bytes(1, 200), helloB: bytes(1, 200) }),
  fc.record({ kind: fc.constant('submit' as const), header: bytes(181, 181), deposit }),
  fc.record({ kind: fc.constant('complain' as const), complaint: bytes(230, 230) }),
  fc.record({ kind: fc.constant('fetch' as const), game: bytes(32, 32), from: fc.nat({ max: 0xffffffff }) }),
  fc.record({ kind: fc.constant('seal' as const), game: bytes(32, 32) }),
  fc.record({ kind: fc.constant('claim' as const), claim: bytes(112, 112) }),
)

const response: fc.Arbitrary<NotaryResponse> = fc.oneof(
  fc.record({ kind: fc.constant('receipt' as const), receipt: bytes(1, 300) }),
  fc.record({ kind: fc.constant('newer' as const), receipts: fc.array(bytes(1, 100), { maxLength: 5 }) }),
  fc.record({ kind: fc.constant('not-before' as const), time: fc.nat({ max: Number.MAX_SAFE_INTEGER }) }),
  fc.record({
    kind: fc.constant('log' as const),
    more: fc.boolean(),
    items: fc.array(fc.record({ receipt: bytes(1, 100), deposit }), { maxLength: 4 }),
  }),
  fc.record({
    kind: fc.constant('refused' as const),
    code: fc.constantFrom(...REFUSALS),
    message: fc.string({ maxLength: 80 }).map((t) => t.replace(/[^ -~]/g, '?')),
  }),
)

const CODES = new Set<string>(PROTOCOL_ERROR_CODES)

function hostile<T>(
  e: Uint8Array,
  decode: (b: Uint8Array) => { ok: boolean; value?: T; error?: { code: string; rule: string } },
  encode: (v: T) => Uint8Array,
  at: number,
  x: number,
  cut: number,
): void {
  const changed = e.slice()
  changed[at % e.length] = (changed[at % e.length] ?? 0) ^ x
  for (const b of [changed, e.subarray(0, cut % e.length), concatBytes(e, Uint8Array.of(x))]) {
    const d = decode(b)
    if (d.ok) expect(toHex(encode(d.value as T))).toBe(toHex(b))
    else {
      expect(CODES.has(d.error?.code ?? '')).toBe(true)
      expect(d.error?.rule).toMatch(/^NOTARY\.md §7/)
    }
  }
}

describe('the notary wire messages (NOTARY.md §7.2, §7.3)', () => {
  it('requests: decode(encode(q)) = q; hostile bytes give codes', () => {
    fc.assert(
      fc.property(request, fc.nat(), fc.integer({ min: 1, max: 255 }), fc.nat(), (q, at, x, cut) => {
        const e = encodeRequest(q)
        expect(decodeRequest(e)).toEqual({ ok: true, value: q })
        hostile(e, decodeRequest, encodeRequest, at, x, cut)
      }),
    )
  })

  it('responses: decode(encode(a)) = a; hostile bytes give codes', () => {
    fc.assert(
      fc.property(response, fc.nat(), fc.integer({ min: 1, max: 255 }), fc.nat(), (a, at, x, cut) => {
        const e = encodeResponse(a)
        expect(decodeResponse(e)).toEqual({ ok: true, value: a })
        hostile(e, decodeResponse, encodeResponse, at, x, cut)
      }),
    )
  })

  it('a deposit whose size is not a deposit size, an unknown request type, an unknown refusal code: refused by name', () => {
    const bad = encodeRequest({ kind: 'submit', header: new Uint8Array(181), deposit: new Uint8Array(433) })
    expect(decodeRequest(bad)).toMatchObject({ ok: false, error: { code: 'field.range', field: 'deposit.length' } })
    expect(decodeRequest(Uint8Array.of(7))).toMatchObject({
      ok: false,
      error: { code: 'field.range', field: 'request.type' },
    })
    expect(decodeResponse(Uint8Array.of(5, REFUSALS.length + 1, 0, 0))).toMatchObject({
      ok: false,
      error: { field: 'code' },
    })
  })

  it('request 6 is a claim of exactly 112 bytes; refusal 24 is claim-unrequested (NOTARY.md §7.2, §7.4)', () => {
    const claim = Uint8Array.from({ length: 112 }, (_, i) => i)
    const e = encodeRequest({ kind: 'claim', claim })
    expect(toHex(e)).toBe(toHex(concatBytes(Uint8Array.of(6), claim)))
    expect(decodeRequest(e.subarray(0, 112))).toMatchObject({ ok: false, error: { code: 'wire.truncated' } })
    expect(decodeRequest(concatBytes(e, Uint8Array.of(0)))).toMatchObject({
      ok: false,
      error: { code: 'wire.trailing' },
    })
    expect(REFUSALS.indexOf('claim-unrequested') + 1).toBe(24)
    expect(encodeResponse({ kind: 'refused', code: 'claim-unrequested', message: '' })).toEqual(
      Uint8Array.of(5, 24, 0, 0),
    )
    expect(decodeResponse(Uint8Array.of(5, 24, 0, 0))).toEqual({
      ok: true,
      value: { kind: 'refused', code: 'claim-unrequested', message: '' },
    })
  })
})
