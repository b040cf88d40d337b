/**
 * HPKE base mode (RFC 9180) for protocol/PROTOCOL-4.md §5.2's deposits, checked against the RFC's
 * own vectors: Appendix A.2.1 (DHKEM(X25519, HKDF-SHA256), HKDF-SHA256, ChaCha20Poly1305, base
 * setup, its first encryption).
 */
import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { fromHex, toHex } from '../../src/core/commit/bytes.js'
import { x25519 } from '@noble/curves/ed25519.js'
import {
  openFirst,
  sealFirst,
  setupBaseRecipient,
  setupBaseSender,
  x25519Public,
  x25519Shared,
} from '../../src/core/commit/hpke.js'

const A21 = {
  info: '4f6465206f6e2061204772656369616e2055726e',
  skEm: 'f4ec9b33b792c372c1d2c2063507b684ef925b8c75a42dbcbf57d63ccd381600',
  pkEm: '1afa08d3dec047a643885163f1180476fa7ddb54c6a8029ea33f95796bf2ac4a',
  skRm: '8057991eef8f1f1af18f4a9491d16a1ce333f695d4db8e38da75975c4478e0fb',
  pkRm: '4310ee97d88cc1f088a5576c77ab0cf5c3ac797f3d95139c6c84b5429c59662a',
  key: 'ad2744de8e17f4ebba575b3f5f5a8fa1f69c2a07f6e7500bc60ca6e3e3ec1c91',
  baseNonce: '5c4d98150661b848853b547f',
  pt: '4265617574792069732074727574682c20747275746820626561757479',
  aad: '436f756e742d30',
  ct: '1c5250d8034ec2b784ba2cfd69dbdb8af406cfe3ff938e131f0def8c8b60b4db21993c62ce81883d2dd1b51a28',
} as const

const hex = (h: string): Uint8Array => fromHex(h)

describe('HPKE base mode, RFC 9180 (PROTOCOL-4.md §5.2)', () => {
  it('RFC 9180 A.2.1: the sender and the recipient reach the vector key and nonce, and the first encryption is the vector ciphertext', () => {
    const s = setupBaseSender(hex(A21.pkRm), hex(A21.info), hex(A21.skEm))
    expect(toHex(s.enc)).toBe(A21.pkEm)
    expect(toHex(s.context.key)).toBe(A21.key)
    expect(toHex(s.context.baseNonce)).toBe(A21.baseNonce)
    expect(toHex(sealFirst(s.context, hex(A21.aad), hex(A21.pt)))).toBe(A21.ct)
    const r = setupBaseRecipient(s.enc, hex(A21.skRm), hex(A21.info))
    expect(toHex(r.key)).toBe(A21.key)
    expect(toHex(openFirst(r, hex(A21.aad), hex(A21.ct)) ?? new Uint8Array())).toBe(A21.pt)
  })

  it('a ciphertext, aad or info changed anywhere does not open: openFirst says so without throwing', () => {
    const r = setupBaseRecipient(hex(A21.pkEm), hex(A21.skRm), hex(A21.info))
    fc.assert(
      fc.property(fc.nat({ max: hex(A21.ct).length * 8 - 1 }), (bit) => {
        const ct = hex(A21.ct)
        ct[bit >> 3] = (ct[bit >> 3] ?? 0) ^ (1 << (bit & 7))
        expect(openFirst(r, hex(A21.aad), ct)).toBeUndefined()
      }),
    )
    expect(openFirst(r, hex('436f756e742d31'), hex(A21.ct))).toBeUndefined()
    const other = setupBaseRecipient(hex(A21.pkEm), hex(A21.skRm), hex('00'))
    expect(openFirst(other, hex(A21.aad), hex(A21.ct))).toBeUndefined()
  })
})

describe('X25519 through OpenSSL is RFC 7748 X25519 (as noble computes it)', () => {
  it('agrees with noble on any secret and any u: the top bit masked, u at or above p reduced', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        (sk, u) => {
          expect(toHex(x25519Public(sk))).toBe(toHex(x25519.getPublicKey(sk)))
          let ours: string | undefined
          let theirs: string | undefined
          try {
            ours = toHex(x25519Shared(sk, u))
          } catch {
            ours = undefined
          }
          try {
            theirs = toHex(x25519.getSharedSecret(sk, u))
          } catch {
            theirs = undefined
          }
          expect(ours).toBe(theirs)
        },
      ),
      { numRuns: 300 },
    )
  })

  it('refuses a point of small order (an all-zero result), as noble does (RFC 9180 §7.1.4)', () => {
    const sk = new Uint8Array(32).fill(7)
    for (const u of [new Uint8Array(32), fromHex('0100000000000000000000000000000000000000000000000000000000000000')])
      expect(() => x25519Shared(sk, u)).toThrow()
  })
})
