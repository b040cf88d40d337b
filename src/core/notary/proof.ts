/**
 * The complaint's Chaum-Pedersen proof (PROTOCOL-4.md §5.3, NOTARY.md §5.2): that `Q = a·P`, `a`
 * the secret scalar of the complainant's hello key `A = a·B`, `P` the Edwards point of a wrap's
 * `enc`. Then `u(Q) = X25519(a, enc)` is the wrap's Diffie-Hellman value, and anyone can open the
 * wrap with it (deposit.ts `openDepositWithDh`).
 *
 *   R1 = r·B, R2 = r·P, c = int_le(H(tag(complaint-proof) ‖ A ‖ P ‖ Q ‖ R1 ‖ R2)) mod L,
 *   z = r + c·a mod L;  proof = R1 ‖ R2 ‖ z.   Valid iff z < L and
 *   z·B = R1 + c·A  and  z·P = R2 + c·Q  (points compared as group elements, no cofactor).
 *
 * NOTARY.md §5.2 fixes what §5.3 leaves open: `Q` travels as its Edwards encoding (a u-coordinate
 * names both Q and -Q, and only one of them satisfies the second equation); A, P and Q must be
 * points of the prime-order subgroup other than the identity (with a torsion component in Q the
 * proof would show only `Q = a·P + T`, whose u-coordinate is not the wrap's), so the statement is
 * the standard one in a group of prime order L, where the proof is sound and zero-knowledge.
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { sha512 } from '@noble/hashes/sha2.js'
import { concatBytes } from '../commit/bytes.js'
import { tag, taggedHash } from '../commit/hash.js'
import { type NotaryDomain, type NotaryResult, accepted, refused } from './domain.js'
import { type EdwardsPoint, decodePoint, edwardsOfU, littleEndian, secretScalar, uOfPoint } from './x25519.js'

export const PROOF_BYTES = 96
const RULE = 'NOTARY.md §5.2'
const Point = ed25519.Point
const L = Point.Fn.ORDER

function scalarBytes(v: bigint): Uint8Array {
  const out = new Uint8Array(32)
  let x = v
  for (let i = 0; i < 32; i++, x >>= 8n) out[i] = Number(x & 0xffn)
  return out
}

function challenge(domain: NotaryDomain, points: readonly EdwardsPoint[]): bigint {
  return littleEndian(taggedHash(domain.complaintProof, ...points.map((p) => p.toBytes()))) % L
}

export interface DhProof {
  /** `Q = a·P`, its Edwards encoding (the complaint's `dh` field). */
  readonly q: Uint8Array
  /** `u(Q) = X25519(a, enc)`, the Diffie-Hellman value that opens the wrap. */
  readonly dh: Uint8Array
  readonly proof: Uint8Array
}

/**
 * Proves `Q = a·P` for the Ed25519 seed's scalar and `enc`. The nonce is derived, as Ed25519's is,
 * from the second half of SHA-512(seed) and the statement (NOTARY.md §5.2: a recommendation, a
 * verifier cannot tell), so no random source can leak `a`.
 */
export function proveDh(domain: NotaryDomain, seed: Uint8Array, enc: Uint8Array): NotaryResult<DhProof> {
  if (seed.length !== 32) return refused('key.length', 'seed', RULE, 'an Ed25519 seed is 32 bytes')
  const P = edwardsOfU(enc, 'enc')
  if (!P.ok) return P
  const a = secretScalar(seed)
  const A = Point.BASE.multiply(a)
  const Q = P.value.multiply(a)
  const prefix = sha512(seed).subarray(32)
  const r =
    littleEndian(sha512(concatBytes(prefix, tag(domain.complaintProof), A.toBytes(), P.value.toBytes(), Q.toBytes()))) %
    L
  if (r === 0n) return refused('proof.scalar', 'r', RULE, 'a zero nonce (probability 2^-252)')
  const R1 = Point.BASE.multiply(r)
  const R2 = P.value.multiply(r)
  const c = challenge(domain, [A, P.value, Q, R1, R2])
  const z = (r + c * a) % L
  return accepted({ q: Q.toBytes(), dh: uOfPoint(Q), proof: concatBytes(R1.toBytes(), R2.toBytes(), scalarBytes(z)) })
}

/**
 * Checks a proof that `q` is the complainant's key's scalar times the point of `enc`; returns
 * `dh = u(Q)` when it holds, else a coded refusal (`key.torsion`, `deposit.enc`, `proof.point`,
 * `proof.scalar`, `proof.equation`).
 */
export function verifyDhProof(
  domain: NotaryDomain,
  publicKey: Uint8Array,
  enc: Uint8Array,
  q: Uint8Array,
  proof: Uint8Array,
): NotaryResult<Uint8Array> {
  if (proof.length !== PROOF_BYTES) return refused('proof.point', 'proof', RULE, `${PROOF_BYTES} bytes expected`)
  const A = decodePoint(publicKey, 'key', RULE, true)
  if (!A.ok) return A
  const P = edwardsOfU(enc, 'enc')
  if (!P.ok) return P
  const Q = decodePoint(q, 'dh', RULE, true)
  if (!Q.ok) return Q
  const R1 = decodePoint(proof.subarray(0, 32), 'proof.R1', RULE, false)
  if (!R1.ok) return R1
  const R2 = decodePoint(proof.subarray(32, 64), 'proof.R2', RULE, false)
  if (!R2.ok) return R2
  const z = littleEndian(proof.subarray(64, 96))
  if (z >= L) return refused('proof.scalar', 'proof.z', RULE, 'z is not below L')
  const c = challenge(domain, [A.value, P.value, Q.value, R1.value, R2.value])
  const first = Point.BASE.multiplyUnsafe(z).equals(R1.value.add(A.value.multiplyUnsafe(c)))
  const second = P.value.multiplyUnsafe(z).equals(R2.value.add(Q.value.multiplyUnsafe(c)))
  if (!first || !second)
    return refused(
      'proof.equation',
      first ? 'proof (z·P = R2 + c·Q)' : 'proof (z·B = R1 + c·A)',
      RULE,
      'the equation does not hold',
    )
  return accepted(uOfPoint(Q.value))
}
