/**
 * NOTARY.md §7.5 (PROTOCOL-4.md §4.1, §5.1): registering and submitting. Each check and its
 * refusal code; resubmission returns the same receipt; the log the notary signs has no fault.
 * Claims, in their two steps, are claims.test.ts's.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { concatBytes, toHex } from '../../../src/core/commit/bytes.js'
import { tag } from '../../../src/core/commit/hash.js'
import { seededSecrets } from '../../../src/core/commit/secrets.js'
import { encodeHeader, signHeader } from '../../../src/core/notary/header.js'
import { checkReceiptLog } from '../../../src/core/notary/log.js'
import { receiptSignatureValid } from '../../../src/core/notary/receipt.js'
import { A, B, DOMAIN, NOTARY, keys, submission } from './helpers.js'
import { mixedOrderSignature } from './notary-vectors.js'
import { hellos } from './registrar.js'
import { FROM_A, FROM_B, T0, WITNESSED, type Fixture, fixture, receiptOf, registered } from './service-helpers.js'

let f: Fixture
afterEach(() => {
  f.close()
})
const G = WITNESSED.game
const sub = (sender: 0 | 1, seq: number, o: Parameters<typeof submission>[2] = {}) =>
  submission(sender, seq, { game: G, ...o })
const put = (s: ReturnType<typeof sub>, from = FROM_A) => f.notary.submit(encodeHeader(s.header), s.deposit, from)

describe('registering a game (NOTARY.md §7.5)', () => {
  it("A registers with both hellos: the genesis, signed, at the notary's time; again, the same receipt", () => {
    f = fixture()
    const g = registered(f)
    expect(g).toMatchObject({ kind: 'genesis', index: 0, time: T0, game: G })
    expect(receiptSignatureValid(DOMAIN, g, NOTARY.publicKey)).toBe(true)
    f.clock.advance(5000)
    expect(toHex(receiptOf(f.notary.register(WITNESSED.helloA, WITNESSED.helloB, FROM_A)).bytes)).toBe(toHex(g.bytes))
  })

  it('refused: B registering, terms naming another notary, hellos the game refuses, an unusable player key', () => {
    f = fixture()
    const code = (a: { kind: string; code?: string }) => (a.kind === 'refused' ? a.code : a.kind)
    expect(code(f.notary.register(WITNESSED.helloA, WITNESSED.helloB, FROM_B))).toBe('not-a')
    const other = hellos(A.publicKey, B.publicKey, keys('other notary').publicKey)
    expect(code(f.notary.register(other.helloA, other.helloB, FROM_A))).toBe('notary-key')
    expect(code(f.notary.register(WITNESSED.helloA, other.helloB, FROM_A))).toBe('registrar')
    const bad = hellos(new Uint8Array(32), B.publicKey, NOTARY.publicKey)
    expect(code(f.notary.register(bad.helloA, bad.helloB, { peer: 'x', key: new Uint8Array(32) }))).toBe('player-key')
  })
})

describe('submitting (PROTOCOL-4.md §5.1, NOTARY.md §7.5)', () => {
  it('a header and its deposit: the next receipt, chained; a resubmission gets the same bytes, from anyone', () => {
    f = fixture()
    registered(f)
    f.clock.advance(1000)
    const a1 = sub(0, 1)
    const r1 = receiptOf(put(a1))
    expect(r1).toMatchObject({ kind: 'envelope', index: 1, time: T0 + 1000 })
    f.clock.advance(1000)
    expect(toHex(receiptOf(put(a1, FROM_B)).bytes)).toBe(toHex(r1.bytes))
    const b1 = receiptOf(put(sub(1, 1), FROM_A))
    expect(b1.index).toBe(2)
    const report = checkReceiptLog(DOMAIN, f.notary.store.receipts(G, 0), NOTARY.publicKey, {
      playerKeys: [A.publicKey, B.publicKey],
    })
    expect(report).toMatchObject({ faults: [], gaps: [], setAside: [] })
    expect(report.chain).toHaveLength(3)
  })

  it('refused, each with its code: malformed, unregistered, signature, place-taken, seq, deposit', () => {
    f = fixture()
    registered(f)
    const a1 = sub(0, 1)
    const code = (a: { kind: string; code?: string }) => (a.kind === 'refused' ? a.code : a.kind)
    expect(code(f.notary.submit(encodeHeader(a1.header).subarray(1), a1.deposit, FROM_A))).toBe('malformed')
    expect(code(put(sub(0, 1, { game: new Uint8Array(32) })))).toBe('unregistered')
    expect(code(f.notary.submit(encodeHeader({ ...a1.header, sig: sub(1, 1).header.sig }), a1.deposit, FROM_A))).toBe(
      'signature',
    )
    // SPEC §5.2: a signature only a cofactored verifier accepts (its R has a small-order part) is refused too.
    const seedA = seededSecrets('notary-test/A').bytes(32)
    const unsigned = encodeHeader(a1.header).subarray(0, -64)
    const mixed = mixedOrderSignature(seedA, A.publicKey, concatBytes(tag(DOMAIN.submission), unsigned))
    expect(code(f.notary.submit(concatBytes(unsigned, mixed), a1.deposit, FROM_A))).toBe('signature')
    expect(code(put(sub(0, 2)))).toBe('seq')
    expect(code(f.notary.submit(encodeHeader(a1.header), sub(0, 2).deposit, FROM_A))).toBe('deposit')
    const changed = a1.deposit.slice()
    changed[300] = (changed[300] ?? 0) ^ 1
    expect(code(f.notary.submit(encodeHeader(a1.header), changed, FROM_A))).toBe('deposit')
    expect(code(put(a1))).toBe('receipt')
    expect(code(put(sub(0, 1, { size: 77 })))).toBe('place-taken')
  })

  it('a header signed by the sender at a receipted place with another hash is refused (one header per place)', () => {
    f = fixture()
    registered(f)
    const a1 = sub(0, 1)
    receiptOf(put(a1))
    const twin = signHeader(DOMAIN, A, { ...a1.header, envelopeHash: new Uint8Array(32).fill(1) })
    expect(f.notary.submit(encodeHeader(twin), a1.deposit, FROM_A)).toMatchObject({
      kind: 'refused',
      code: 'place-taken',
    })
  })
})
