/**
 * Ed25519 keys as X25519 keys (PROTOCOL-4.md §5.2, NOTARY.md §4.1): one key for signing and for
 * the deposits' key agreement. The public key goes through RFC 7748 §4.1's birational map
 * (u = (1 + y) / (1 - y)); the secret key is the clamped first half of SHA-512 of the Ed25519 seed,
 * which is the Ed25519 secret scalar, so the two halves agree: X25519(secret, 9) is the map of the
 * Ed25519 public key (test/core/notary/x25519.test.ts checks it). Computed by @noble/curves.
 *
 * An `enc` (an HPKE encapsulated key, a u-coordinate) is accepted only as the u-coordinate of a
 * point of the prime-order subgroup other than the identity (NOTARY.md §4.2): what an honest
 * sender's ephemeral key always is, and what the complaint proof of §5.3 needs (on a point of the
 * twist or with a torsion component, no proof could show what the recipient computed).
 */
import { createPrivateKey, createPublicKey, diffieHellman } from 'node:crypto'
import { ed25519 } from '@noble/curves/ed25519.js'
import type { EdwardsPoint } from '@noble/curves/abstract/edwards.js'
import { publicKeyProblem } from '../commit/keys.js'
import { type NotaryResult, accepted, refused } from './domain.js'

export const X25519_KEY_BYTES = 32
const RULE = 'NOTARY.md §4.1'

const Point = ed25519.Point
const Fp = Point.Fp
export type { EdwardsPoint }

/**
 * The X25519 public key of a usable Ed25519 public key (SPEC §5.2's rule: canonical, not of small
 * order), or a coded refusal naming why the key is unusable.
 */
export function x25519PublicKey(edPublic: Uint8Array, field = 'key'): NotaryResult<Uint8Array> {
  const problem = publicKeyProblem(edPublic)
  if (problem === 'length')
    return refused('key.length', field, RULE, `an Ed25519 public key is 32 bytes, got ${edPublic.length}`)
  if (problem === 'non-canonical')
    return refused('key.non-canonical', field, RULE, 'not the canonical encoding of a curve point')
  if (problem === 'small-order') return refused('key.small-order', field, RULE, 'a point of small order')
  return accepted(ed25519.utils.toMontgomery(edPublic))
}

/** The X25519 secret key of an Ed25519 seed: the clamped first half of SHA-512(seed). */
export function x25519SecretKey(seed: Uint8Array, field = 'seed'): NotaryResult<Uint8Array> {
  if (seed.length !== 32) return refused('key.length', field, RULE, `an Ed25519 seed is 32 bytes, got ${seed.length}`)
  return accepted(ed25519.utils.toMontgomerySecret(seed))
}

/** The Ed25519 secret scalar of a seed, reduced mod L (the complaint proof's witness, §5.3). */
export function secretScalar(seed: Uint8Array): bigint {
  const clamped = ed25519.utils.toMontgomerySecret(seed)
  let a = 0n
  for (let i = 31; i >= 0; i--) a = (a << 8n) | BigInt(clamped[i] ?? 0)
  return Point.Fn.create(a)
}

/** Little-endian bytes as an integer (RFC 7748 §5, RFC 8032 §5.1.2). */
export function littleEndian(bytes: Uint8Array): bigint {
  let v = 0n
  for (let i = bytes.length - 1; i >= 0; i--) v = (v << 8n) | BigInt(bytes[i] ?? 0)
  return v
}

/**
 * The Edwards point of a u-coordinate with the sign bit 0 (NOTARY.md §4.2): `u` canonical
 * (below p, top bit clear), on the curve (not the twist), in the prime-order subgroup, not the
 * identity. Anything else is refused with `deposit.enc` naming `field`.
 */
export function edwardsOfU(u: Uint8Array, field: string): NotaryResult<EdwardsPoint> {
  const rule = 'NOTARY.md §4.2'
  if (u.length !== X25519_KEY_BYTES) return refused('deposit.enc', field, rule, `32 bytes expected, got ${u.length}`)
  const value = littleEndian(u)
  if (value >= Fp.ORDER) return refused('deposit.enc', field, rule, 'not a canonical u-coordinate (u >= p)')
  // y = (u - 1) / (u + 1): u = -1 has no Edwards image (the denominator is 0), so no usable point.
  if (value === Fp.ORDER - 1n) return refused('deposit.enc', field, rule, 'u = -1 is not a usable point')
  const y = Fp.div(Fp.create(value - 1n), Fp.create(value + 1n))
  let point: EdwardsPoint
  try {
    point = Point.fromBytes(Fp.toBytes(y), false)
  } catch {
    return refused('deposit.enc', field, rule, 'u is not on the curve (a point of the twist)')
  }
  if (point.isSmallOrder()) return refused('deposit.enc', field, rule, 'a point of small order')
  if (!point.isTorsionFree()) return refused('deposit.enc', field, rule, 'a point with a torsion component')
  return accepted(point)
}

/**
 * `s = 5L - 1`: a multiple of 8 with bit 254 set and bit 255 clear, so X25519's clamping (RFC 7748
 * §5) leaves it as it is, and `s = -1 (mod L)`. For a point Q = Q_L + T of the curve (Q_L in the
 * prime-order subgroup, T of order dividing 8), [s]Q = -Q_L, whose u is u(Q) exactly when T is the
 * identity (Q_L = -Q would need 2 Q_L = -T, so Q the identity, which has no u). For a point of
 * the twist (order dividing 4 L', L' prime), [s]Q = ±Q would need the order to divide 5L - 2 or
 * 5L, both odd and not multiples of L' (test/core/notary/x25519.test.ts computes it), so Q would be
 * the identity. Hence X25519(s, u) = u iff u is the u of a point of the prime-order subgroup other
 * than the identity: NOTARY.md §4.2's rule for an `enc` (with u < p and u != -1 checked first),
 * decided by OpenSSL's ladder in tens of microseconds where @noble/curves' [L]Q takes about a
 * millisecond, twice for every submission (profiled: most of the notary's time).
 */
const SUBGROUP_SCALAR = 5n * ((1n << 252n) + 27742317777372353535851937790883648493n) - 1n
const PKCS8_X25519_PREFIX = '302e020100300506032b656e04220420'
const SPKI_X25519_PREFIX = Buffer.from('302a300506032b656e032100', 'hex')
const subgroupKey = createPrivateKey({
  key: Buffer.concat([Buffer.from(PKCS8_X25519_PREFIX, 'hex'), Buffer.from(Fp.toBytes(SUBGROUP_SCALAR))]),
  format: 'der',
  type: 'pkcs8',
})

/** Whether X25519(5L - 1, u) = u: see SUBGROUP_SCALAR (u must be canonical and not -1). */
function inPrimeOrderSubgroup(u: Uint8Array): boolean {
  try {
    const publicKey = createPublicKey({ key: Buffer.concat([SPKI_X25519_PREFIX, u]), format: 'der', type: 'spki' })
    const out = diffieHellman({ privateKey: subgroupKey, publicKey })
    return out.length === X25519_KEY_BYTES && out.equals(u)
  } catch {
    // OpenSSL refuses an all-zero result: [s]Q of u-coordinate 0, never a usable point.
    return false
  }
}

/**
 * Whether an `enc` is usable (NOTARY.md §4.2), as `edwardsOfU` decides, without decoding the point:
 * what the notary checks of every deposit (§7.5). A refusal is explained by `edwardsOfU`, which
 * then must refuse too (it is the reference; a disagreement throws rather than accept).
 */
export function encUsable(u: Uint8Array, field: string): NotaryResult<void> {
  if (u.length === X25519_KEY_BYTES && littleEndian(u) < Fp.ORDER - 1n && inPrimeOrderSubgroup(u))
    return accepted(undefined)
  const why = edwardsOfU(u, field)
  if (why.ok) throw new Error(`enc ${Buffer.from(u).toString('hex')}: OpenSSL and @noble/curves disagree`)
  return why
}

/** The u-coordinate of an Edwards point (RFC 7748 §4.1), 32 bytes little-endian. */
export function uOfPoint(point: EdwardsPoint): Uint8Array {
  return ed25519.utils.toMontgomery(point.toBytes())
}

/**
 * A canonical Edwards point encoding decoded (RFC 8032 §5.1.3, no ZIP-215 leniency), required to
 * be in the prime-order subgroup and not the identity when `primeOrder`.
 */
export function decodePoint(
  bytes: Uint8Array,
  field: string,
  rule: string,
  primeOrder: boolean,
): NotaryResult<EdwardsPoint> {
  if (bytes.length !== 32) return refused('proof.point', field, rule, `32 bytes expected, got ${bytes.length}`)
  let point: EdwardsPoint
  try {
    point = Point.fromBytes(bytes, false)
  } catch {
    return refused('proof.point', field, rule, 'not the canonical encoding of a curve point')
  }
  // fromBytes accepts y < p only when it is canonical; the re-encoding check also refuses -0.
  const again = point.toBytes()
  for (let i = 0; i < 32; i++)
    if (again[i] !== bytes[i]) return refused('proof.point', field, rule, 'not the canonical encoding of a curve point')
  if (primeOrder && (point.isSmallOrder() || !point.isTorsionFree()))
    return refused('key.torsion', field, rule, 'not a point of the prime-order subgroup')
  return accepted(point)
}
