import { ed25519 } from '@noble/curves/ed25519.js'
import { sha512 } from '@noble/hashes/sha2.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  SMALL_ORDER_ENCODINGS,
  keyPairFromSecret,
  publicKeyProblem,
  publicKeyShapeProblem,
  sign,
  verifySignature,
} from '../../src/core/commit/keys.js'

const L = 2n ** 252n + 27742317777372353535851937790883648493n
const P = 2n ** 255n - 19n

const le = (n: bigint, sign = false): Uint8Array => {
  const out = new Uint8Array(32)
  for (let i = 0; i < 32; i++) out[i] = Number((n >> BigInt(8 * i)) & 0xffn)
  if (sign) out[31] = (out[31] ?? 0) | 0x80
  return out
}
const fromLe = (b: Uint8Array): bigint => b.reduceRight((n, x) => (n << 8n) | BigInt(x), 0n)
const cat = (...a: Uint8Array[]): Uint8Array => new Uint8Array(a.flatMap((x) => [...x]))

/** The reference for a key: noble's strict decoding (zip215 false) and its small-order test. */
function nobleProblem(bytes: Uint8Array): string | undefined {
  if (bytes.length !== 32) return 'length'
  try {
    return ed25519.Point.fromBytes(bytes, false).isSmallOrder() ? 'small-order' : undefined
  } catch {
    return 'non-canonical'
  }
}

/** SPEC §5.2 written out over noble's point arithmetic: usable key, S < L, R not of small order, cofactorless. */
function rule(A: Uint8Array, M: Uint8Array, sig: Uint8Array): boolean {
  if (nobleProblem(A) !== undefined || sig.length !== 64) return false
  const R = sig.subarray(0, 32)
  const S = fromLe(sig.subarray(32))
  if (S >= L) return false
  let Rp
  try {
    Rp = ed25519.Point.fromBytes(R, false)
  } catch {
    return false
  }
  if (Rp.isSmallOrder()) return false
  const k = fromLe(sha512(cat(R, A, M))) % L
  const Ap = ed25519.Point.fromBytes(A, false)
  const lhs = S === 0n ? ed25519.Point.ZERO : ed25519.Point.BASE.multiply(S)
  const rhs = k === 0n ? ed25519.Point.ZERO : Ap.multiply(k)
  return Buffer.from(lhs.subtract(rhs).toBytes()).equals(Buffer.from(R))
}

describe('Ed25519 (SPEC §5.2)', () => {
  it('a signature is by the secret key bytes in the pair now: overwriting the buffer is followed, never a stale cached key', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ maxLength: 100 }),
        (first, second, message) => {
          const buffer = first.slice()
          const kp = keyPairFromSecret(buffer)
          expect(sign(kp, message)).toEqual(ed25519.sign(message, first))
          buffer.set(second)
          expect(sign(kp, message)).toEqual(ed25519.sign(message, second))
          buffer.set(first)
          expect(sign(kp, message)).toEqual(ed25519.sign(message, first))
        },
      ),
      { numRuns: 50 },
    )
    // A pair built by hand (not by keyPairFromSecret) signs with its secret key too.
    const secret = new Uint8Array(32).fill(7)
    expect(sign({ secretKey: secret, publicKey: ed25519.getPublicKey(secret) }, Uint8Array.of(1))).toEqual(
      ed25519.sign(Uint8Array.of(1), secret),
    )
  })

  it('keys derived natively are RFC 8032 keys (equal to noble), and their signatures are valid', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ maxLength: 100 }),
        (secret, message) => {
          const kp = keyPairFromSecret(secret)
          expect(kp.publicKey).toEqual(ed25519.getPublicKey(secret))
          const sig = sign(kp, message)
          expect(sig).toEqual(ed25519.sign(message, secret))
          expect(verifySignature(kp.publicKey, message, sig)).toBe(true)
        },
      ),
      { numRuns: 100 },
    )
  })

  it('publicKeyProblem classifies any 32 bytes exactly as noble does: off-curve, y >= p, negative zero, small order', () => {
    const edges: Uint8Array[] = [
      ...SMALL_ORDER_ENCODINGS.map((h) => Uint8Array.from(Buffer.from(h, 'hex'))),
      ...[P, P + 1n, P + 18n, 2n ** 255n - 1n].flatMap((y) => [le(y), le(y, true)]),
      le(1n, true),
      le(P - 1n, true),
      le(0n),
    ]
    for (const e of edges) expect(publicKeyProblem(e), Buffer.from(e).toString('hex')).toBe(nobleProblem(e))
    // The test without its costly part (x recoverable from y) differs from the whole only on keys
    // with no point, which it leaves to the signature (OpenSSL decodes the key first).
    const shape = (bytes: Uint8Array): void => {
      const whole = nobleProblem(bytes)
      const off = whole === 'non-canonical' && publicKeyShapeProblem(bytes) === undefined
      expect(publicKeyShapeProblem(bytes), Buffer.from(bytes).toString('hex')).toBe(off ? undefined : whole)
      if (off) expect(fromLe(bytes) & ((1n << 255n) - 1n)).toBeLessThan(P)
    }
    edges.forEach(shape)
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ minLength: 32, maxLength: 32 }),
          fc.uint8Array({ minLength: 32, maxLength: 32 }).map((s) => ed25519.getPublicKey(s)),
        ),
        (bytes) => {
          expect(publicKeyProblem(bytes)).toBe(nobleProblem(bytes))
          shape(bytes)
        },
      ),
      { numRuns: 1500 },
    )
  })

  it('the small-order list is the whole torsion subgroup: eight distinct points, each of small order', () => {
    const points = SMALL_ORDER_ENCODINGS.map((h) => ed25519.Point.fromHex(h))
    for (const p of points) expect(p.isSmallOrder()).toBe(true)
    expect(new Set(points.map((p) => p.toHex())).size).toBe(8)
  })

  it('verifySignature decides exactly the rule, both ways, on signatures altered in any byte', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ maxLength: 40 }),
        fc.nat(63),
        fc.integer({ min: 1, max: 255 }),
        (secret, message, at, flip) => {
          const kp = keyPairFromSecret(secret)
          const sig = sign(kp, message)
          sig[at] = (sig[at] ?? 0) ^ flip
          expect(verifySignature(kp.publicKey, message, sig)).toBe(rule(kp.publicKey, message, sig))
        },
      ),
      { numRuns: 300 },
    )
  })

  it("the edge cases that tell verifiers apart get the rule's verdict (vectors/crypto.json ed25519)", () => {
    const secret = new Uint8Array(32).map((_, i) => i + 1)
    const kp = keyPairFromSecret(secret)
    const a = ed25519.utils.getExtendedPublicKey(secret).scalar
    const M = new TextEncoder().encode('edge')
    const k = (R: Uint8Array, A: Uint8Array): bigint => fromLe(sha512(cat(R, A, M))) % L
    const r = 12345n
    const T = ed25519.Point.fromHex(SMALL_ORDER_ENCODINGS[4] ?? '')
    const Rmixed = ed25519.Point.BASE.multiply(r).add(T).toBytes()
    const identity = le(1n)
    const cases: [string, Uint8Array, Uint8Array, boolean][] = [
      ['valid', kp.publicKey, sign(kp, M), true],
      [
        'S not reduced (S + L)',
        kp.publicKey,
        cat(sign(kp, M).subarray(0, 32), le(fromLe(sign(kp, M).subarray(32)) + L)),
        false,
      ],
      [
        'mixed-order R: the cofactored equation holds, the cofactorless does not',
        kp.publicKey,
        cat(Rmixed, le((r + k(Rmixed, kp.publicKey) * a) % L)),
        false,
      ],
      [
        'small-order R (the identity): the cofactorless equation holds',
        kp.publicKey,
        cat(identity, le((k(identity, kp.publicKey) * a) % L)),
        false,
      ],
      ['small-order public key', identity, cat(ed25519.Point.BASE.multiply(r).toBytes(), le(r)), false],
      ['non-canonical public key (y = p + 1)', le(P + 1n), cat(ed25519.Point.BASE.multiply(r).toBytes(), le(r)), false],
    ]
    for (const [name, A, sig, valid] of cases) {
      expect(rule(A, M, sig), name).toBe(valid)
      expect(publicKeyProblem(A) === undefined && verifySignature(A, M, sig), name).toBe(valid)
    }
    // The cofactored rule (noble's verify) accepts the mixed-order and small-order R cases: it is not this rule.
    expect(ed25519.verify(cases[2]?.[2] ?? new Uint8Array(), M, kp.publicKey, { zip215: false })).toBe(true)
  })
})
