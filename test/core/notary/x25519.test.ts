/**
 * NOTARY.md §4.1: Ed25519 keys as X25519 keys. The two halves agree (the map of the public key is
 * X25519(secret, 9)), checked against noble and against OpenSSL's X25519 and SHA-512; a fixed
 * known answer on RFC 8032's first test key; unusable keys and encapsulated keys refused by code.
 */
import { createHash, createPrivateKey, createPublicKey } from 'node:crypto'
import { ed25519, x25519 } from '@noble/curves/ed25519.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fromHex, toHex } from '../../../src/core/commit/bytes.js'
import { SMALL_ORDER_ENCODINGS, keyPairFromSecret } from '../../../src/core/commit/keys.js'
import { openDeposit, sealDeposit } from '../../../src/core/notary/deposit.js'
import { edwardsOfU, encUsable, uOfPoint, x25519PublicKey, x25519SecretKey } from '../../../src/core/notary/x25519.js'
import { DOMAIN, GAME, envelopeAt, envelopeHashOf, randomness } from './helpers.js'

/** RFC 8032 §7.1 TEST 1, and its X25519 keys (computed with noble, cross-checked below). */
const KAT = {
  seed: '9d61b19deffd5a60ba844af492ec2cc44449c5697b326919703bac031cae7f60',
  edPublic: 'd75a980182b10ab7d54bfed3c964073a0ee172f3daa62325af021a68f707511a',
  xSecret: '307c83864f2833cb427a2ef1c00a013cfdff2768d980c0a3a520f006904de94f',
  xPublic: 'd85e07ec22b0ad881537c2f44d662d1a143cf830c57aca4305d85c7a90f6b62e',
} as const

/** RFC 8410: PKCS #8 DER of an X25519 private key is this prefix, then the 32-byte key. */
const PKCS8_X25519 = fromHex('302e020100300506032b656e04220420')

function opensslX25519Public(secret: Uint8Array): string {
  const key = createPrivateKey({ key: Buffer.concat([PKCS8_X25519, secret]), format: 'der', type: 'pkcs8' })
  const spki = createPublicKey(key).export({ format: 'der', type: 'spki' })
  return toHex(new Uint8Array(spki.subarray(spki.length - 32)))
}

function clampedSha512Half(seed: Uint8Array): string {
  const h = new Uint8Array(createHash('sha512').update(seed).digest().subarray(0, 32))
  h[0] = (h[0] ?? 0) & 248
  h[31] = ((h[31] ?? 0) & 127) | 64
  return toHex(h)
}

const ok = <T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
  if (!r.ok) throw new Error(r.error.message)
  return r.value
}

describe('Ed25519 keys as X25519 keys (NOTARY.md §4.1)', () => {
  it('the known answer: RFC 8032 TEST 1 maps to fixed X25519 keys, as OpenSSL computes them', () => {
    const seed = fromHex(KAT.seed)
    expect(toHex(keyPairFromSecret(seed).publicKey)).toBe(KAT.edPublic)
    expect(toHex(ok(x25519SecretKey(seed)))).toBe(KAT.xSecret)
    expect(toHex(ok(x25519PublicKey(fromHex(KAT.edPublic))))).toBe(KAT.xPublic)
    expect(clampedSha512Half(seed)).toBe(KAT.xSecret)
    expect(opensslX25519Public(fromHex(KAT.xSecret))).toBe(KAT.xPublic)
  })

  it('for any seed, the map of the public key is X25519(secret, 9) (noble and OpenSSL agree)', () => {
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (seed) => {
        const pub = ok(x25519PublicKey(keyPairFromSecret(seed).publicKey))
        const sk = ok(x25519SecretKey(seed))
        expect(toHex(x25519.getPublicKey(sk))).toBe(toHex(pub))
        expect(opensslX25519Public(sk)).toBe(toHex(pub))
        expect(toHex(sk)).toBe(clampedSha512Half(seed))
      }),
      { numRuns: 50 },
    )
  })

  it('unusable keys are refused with a code: each point of small order, a non-canonical y, a wrong length', () => {
    for (const hex of SMALL_ORDER_ENCODINGS) {
      const r = x25519PublicKey(fromHex(hex))
      expect(r.ok ? 'accepted' : r.error.code, hex).toMatch(/^key\.(small-order|non-canonical)$/)
    }
    expect(x25519PublicKey(fromHex(SMALL_ORDER_ENCODINGS[0]!))).toMatchObject({
      ok: false,
      error: { code: 'key.small-order' },
    })
    // y = p: the field's modulus itself is not a canonical y.
    const yP = fromHex('edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f')
    expect(x25519PublicKey(yP)).toMatchObject({ ok: false, error: { code: 'key.non-canonical', field: 'key' } })
    expect(x25519PublicKey(new Uint8Array(31))).toMatchObject({ ok: false, error: { code: 'key.length' } })
    expect(x25519SecretKey(new Uint8Array(33))).toMatchObject({ ok: false, error: { code: 'key.length' } })
  })

  it('an enc is accepted only as a point of the prime-order subgroup (NOTARY.md §4.2)', () => {
    const honest = x25519.getPublicKey(randomness('enc').ephemeral[0])
    expect(edwardsOfU(honest, 'enc').ok).toBe(true)
    expect(toHex(uOfPoint(ok(edwardsOfU(honest, 'enc'))))).toBe(toHex(honest))
    const le = (v: bigint): Uint8Array => {
      const out = new Uint8Array(32)
      for (let i = 0, x = v; i < 32; i++, x >>= 8n) out[i] = Number(x & 0xffn)
      return out
    }
    const p = 2n ** 255n - 19n
    const code = (u: Uint8Array): string => {
      const r = edwardsOfU(u, 'enc')
      return r.ok ? 'accepted' : `${r.error.code}: ${r.error.message}`
    }
    expect(code(le(0n))).toMatch(/small order/)
    expect(code(le(1n))).toMatch(/small order/)
    expect(code(le(p - 1n))).toMatch(/u = -1/)
    expect(code(le(p))).toMatch(/u >= p/)
    expect(code(new Uint8Array(31))).toMatch(/32 bytes/)
    // The first u on the twist (no curve point has it): RFC 7748's X25519 would accept it.
    let twist = 2n
    while (code(le(twist)) !== 'deposit.enc: u is not on the curve (a point of the twist)') twist++
    expect(twist).toBeLessThan(100n)
    // An honest point plus a point of order 8: on the curve, not in the prime-order subgroup.
    const torsion = ed25519.Point.fromBytes(fromHex(SMALL_ORDER_ENCODINGS[4]!), false)
    const mixed = ok(edwardsOfU(honest, 'enc')).add(torsion)
    expect(code(uOfPoint(mixed))).toMatch(/torsion component/)
  })

  it('the native check of an enc (X25519(5L - 1, u) = u) decides exactly as edwardsOfU: every torsion component, the twist, the edges', () => {
    const p = 2n ** 255n - 19n
    const L = 2n ** 252n + 27742317777372353535851937790883648493n
    // The argument of x25519.ts: the twist's order is 4 L' with L' prime-sized, and neither 5L
    // nor 5L - 2 (both odd) is a multiple of L', so no point of the twist passes.
    const twistOrder = 2n * p + 2n - 8n * L
    expect(twistOrder % 4n).toBe(0n)
    const Lt = twistOrder / 4n
    expect([(5n * L) % 2n, (5n * L - 2n) % 2n, (5n * L) % Lt === 0n, (5n * L - 2n) % Lt === 0n]).toEqual([
      1n,
      1n,
      false,
      false,
    ])
    const le = (v: bigint): Uint8Array => {
      const out = new Uint8Array(32)
      for (let i = 0, x = v; i < 32; i++, x >>= 8n) out[i] = Number(x & 0xffn)
      return out
    }
    const same = (u: Uint8Array): void => {
      const reference = edwardsOfU(u, 'enc')
      const fast = encUsable(u, 'enc')
      expect(fast.ok, toHex(u)).toBe(reference.ok)
      if (!fast.ok && !reference.ok) expect(fast.error).toEqual(reference.error)
    }
    const torsion = SMALL_ORDER_ENCODINGS.map((h) => ed25519.Point.fromBytes(fromHex(h), false))
    expect(torsion).toHaveLength(8)
    let accepted = 0
    for (let i = 0; i < 24; i++) {
      const q = ed25519.Point.BASE.multiply(BigInt(i + 2) * 7919n)
      for (const t of torsion) {
        const u = uOfPoint(q.add(t))
        same(u)
        if (encUsable(u, 'enc').ok) accepted++
      }
    }
    // One of the eight (the identity torsion) is in the subgroup: the check neither takes all nor none.
    expect(accepted).toBe(24)
    for (const v of [0n, 1n, 2n, 3n, 9n, p - 2n, p - 1n, p, 2n ** 255n - 1n]) same(le(v))
    same(new Uint8Array(31))
    fc.assert(
      fc.property(fc.uint8Array({ minLength: 32, maxLength: 32 }), (u) => {
        same(u)
      }),
      { numRuns: 200 },
    )
  })

  it('a deposit sealed to an Ed25519 key opens with its seed, through either wrap, and with no other seed', () => {
    const seeds = ['recipient', 'sender', 'stranger'].map((s) => fromHex(toHex(new Uint8Array(32).fill(s.length * 17))))
    const [rk, sk] = seeds.map((s) => keyPairFromSecret(s))
    const envelope = envelopeAt(GAME, 1, 3, 300)
    const place = { game: GAME, sender: 1 as const, seq: 3, envelopeHash: envelopeHashOf(envelope) }
    const deposit = ok(
      sealDeposit({
        domain: DOMAIN,
        place,
        envelope,
        recipientKey: rk!.publicKey,
        senderKey: sk!.publicKey,
        floor: 256,
        randomness: randomness('kx'),
      }),
    )
    const o = { domain: DOMAIN, place, floor: 256 }
    expect(toHex(ok(openDeposit(deposit, 0, seeds[0]!, o)))).toBe(toHex(envelope))
    expect(toHex(ok(openDeposit(deposit, 1, seeds[1]!, o)))).toBe(toHex(envelope))
    expect(openDeposit(deposit, 0, seeds[1]!, o)).toMatchObject({ ok: false, error: { code: 'deposit.wrap' } })
    expect(openDeposit(deposit, 1, seeds[0]!, o)).toMatchObject({ ok: false, error: { code: 'deposit.wrap' } })
    expect(openDeposit(deposit, 0, seeds[2]!, o)).toMatchObject({ ok: false, error: { code: 'deposit.wrap' } })
  })
})
