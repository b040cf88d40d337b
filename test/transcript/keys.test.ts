import { ed25519 } from '@noble/curves/ed25519.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { SMALL_ORDER_ENCODINGS, keyPairFromSecret, publicKeyProblem, sign, verifySignature, verifyStrict } from '../../src/commit/keys.js'

/** The reference: noble's strict decoding (zip215 false) and its small-order test. */
function nobleProblem(bytes: Uint8Array): string | undefined {
  if (bytes.length !== 32) return 'length'
  try {
    return ed25519.Point.fromBytes(bytes, false).isSmallOrder() ? 'small-order' : undefined
  } catch {
    return 'non-canonical'
  }
}

const le = (n: bigint, sign = false): Uint8Array => {
  const out = new Uint8Array(32)
  for (let i = 0; i < 32; i++) out[i] = Number((n >> BigInt(8 * i)) & 0xffn)
  if (sign) out[31] = (out[31] ?? 0) | 0x80
  return out
}
const P = 2n ** 255n - 19n

describe('Ed25519 keys (SPEC §5.1, §5.2)', () => {
  it('keys derived natively are RFC 8032 keys (equal to noble), and sign and verify', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ maxLength: 100 }), (secret, message) => {
        const kp = keyPairFromSecret(secret)
        expect(kp.publicKey).toEqual(ed25519.getPublicKey(secret))
        const sig = sign(kp, message)
        expect(sig).toEqual(ed25519.sign(message, secret))
        expect(verifySignature(kp.publicKey, message, sig)).toBe(true)
        expect(verifyStrict(kp.publicKey, message, sig)).toBe(true)
      }),
      { numRuns: 100 },
    )
  })

  it('publicKeyProblem classifies any 32 bytes exactly as noble does: off-curve, y >= p, negative zero, small order', () => {
    const edges: Uint8Array[] = [
      ...SMALL_ORDER_ENCODINGS.map((h) => Uint8Array.from(Buffer.from(h, 'hex'))),
      // Non-canonical y (y >= p), either sign; negative zero (x = 0 with the sign bit) for y = ±1.
      ...[P, P + 1n, P + 18n, 2n ** 255n - 1n].flatMap((y) => [le(y), le(y, true)]),
      le(1n, true),
      le(P - 1n, true),
      le(0n),
    ]
    for (const e of edges) expect(publicKeyProblem(e), Buffer.from(e).toString('hex')).toBe(nobleProblem(e))
    fc.assert(
      fc.property(fc.oneof(fc.uint8Array({ minLength: 32, maxLength: 32 }), fc.uint8Array({ minLength: 32, maxLength: 32 }).map((s) => ed25519.getPublicKey(s))), (bytes) => {
        expect(publicKeyProblem(bytes)).toBe(nobleProblem(bytes))
      }),
      { numRuns: 1500 },
    )
  })

  it('the small-order list is the whole torsion subgroup: eight distinct points, each of small order', () => {
    const points = SMALL_ORDER_ENCODINGS.map((h) => ed25519.Point.fromHex(h))
    for (const p of points) expect(p.isSmallOrder()).toBe(true)
    expect(new Set(points.map((p) => p.toHex())).size).toBe(8)
    expect(points.map((p) => p.toHex())).toEqual([...SMALL_ORDER_ENCODINGS])
  })
})
