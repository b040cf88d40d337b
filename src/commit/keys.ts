/**
 * Ed25519 keys and signatures (protocol/SPEC.md §5).
 *
 * The verification rule is RFC 8032 strict, as implemented by @noble/curves with
 * `zip215: false`: A and R must be canonical encodings (y < p, no negative zero), S < L, A must
 * not be of small order, and the cofactored equation [8][S]B = [8]R + [8][k]A must hold.
 *
 * Speed: Ed25519 signing is deterministic, so the platform's native implementation gives the
 * same bytes as noble's and is used to sign. The native verifier is cofactorless, which is
 * stricter than the rule above only on signatures whose R has a small-order component; so a
 * native acceptance is final (public keys are checked once, `publicKeyProblem`), and a native
 * rejection is decided again by noble. The verdict is always the rule's.
 *
 * Start-up: @noble/curves takes about 40 ms to load, a fifth of a verifier's cold start, and is
 * needed only to decide a signature the native verifier rejects. So it is loaded on that path
 * alone; keys are derived natively, and public keys are checked by `publicKeyProblem` below,
 * which `test/transcript/keys.test.ts` holds equal to noble's decoding.
 */
import { type KeyObject, createPrivateKey, createPublicKey, sign as nativeSign, verify as nativeVerify } from 'node:crypto'
import { createRequire } from 'node:module'
import { toBase64url } from './bytes.js'
import type { SecretSource } from './secrets.js'

export const PUBLIC_KEY_BYTES = 32
export const SIGNATURE_BYTES = 64

export interface KeyPair {
  /** The 32-byte RFC 8032 private key (seed). */
  readonly secretKey: Uint8Array
  readonly publicKey: Uint8Array
}

/** RFC 8410: the PKCS #8 DER of an Ed25519 private key is this prefix, then the 32-byte seed. */
const PKCS8_ED25519_PREFIX = Uint8Array.of(0x30, 0x2e, 0x02, 0x01, 0x00, 0x30, 0x05, 0x06, 0x03, 0x2b, 0x65, 0x70, 0x04, 0x22, 0x04, 0x20)

export function keyPairFromSecret(secretKey: Uint8Array): KeyPair {
  if (secretKey.length !== 32) throw new Error('an Ed25519 secret key is 32 bytes')
  const der = new Uint8Array(PKCS8_ED25519_PREFIX.length + 32)
  der.set(PKCS8_ED25519_PREFIX)
  der.set(secretKey, PKCS8_ED25519_PREFIX.length)
  const native = createPrivateKey({ key: Buffer.from(der), format: 'der', type: 'pkcs8' })
  // The SubjectPublicKeyInfo DER ends with the 32-byte public key (RFC 8410).
  const spki = createPublicKey(native).export({ format: 'der', type: 'spki' })
  const kp: KeyPair = { secretKey, publicKey: new Uint8Array(spki.subarray(spki.length - PUBLIC_KEY_BYTES)) }
  privateKeys.set(secretKey, native)
  return kp
}

export function generateKeyPair(source: SecretSource): KeyPair {
  return keyPairFromSecret(source.bytes(32))
}

const privateKeys = new WeakMap<Uint8Array, KeyObject>()
const publicKeys = new Map<string, KeyObject>()
const PUBLIC_KEY_CACHE = 64

function nativePrivate(kp: KeyPair): KeyObject {
  let k = privateKeys.get(kp.secretKey)
  if (k === undefined) {
    k = createPrivateKey({ format: 'jwk', key: { kty: 'OKP', crv: 'Ed25519', d: toBase64url(kp.secretKey), x: toBase64url(kp.publicKey) } })
    privateKeys.set(kp.secretKey, k)
  }
  return k
}

function nativePublic(publicKey: Uint8Array): KeyObject | undefined {
  const x = toBase64url(publicKey)
  let k = publicKeys.get(x)
  if (k === undefined) {
    try {
      k = createPublicKey({ format: 'jwk', key: { kty: 'OKP', crv: 'Ed25519', x } })
    } catch {
      return undefined
    }
    if (publicKeys.size >= PUBLIC_KEY_CACHE) publicKeys.clear()
    publicKeys.set(x, k)
  }
  return k
}

export function sign(kp: KeyPair, message: Uint8Array): Uint8Array {
  return new Uint8Array(nativeSign(null, message, nativePrivate(kp)))
}

type KeyProblem = 'length' | 'non-canonical' | 'small-order' | undefined
/** A session and its final verification, or a verifier's chain cover and chain walk, ask about the same two keys. */
const keyProblems = new Map<string, KeyProblem>()

// Curve25519 field arithmetic for point decoding (RFC 8032 §5.1.3), in BigInt.
const P = 2n ** 255n - 19n
/** d = -121665 / 121666 mod p. */
const D = 37095705934669439343138083508754565189542113879843219016388785533085940283555n
/** A square root of -1 mod p: 2^((p-1)/4). */
const SQRT_M1 = 19681161376707505956807079304988542015446066515923890162744021073123829784752n

function powMod(base: bigint, exponent: bigint): bigint {
  let result = 1n
  let b = base % P
  for (let e = exponent; e > 0n; e >>= 1n) {
    if ((e & 1n) === 1n) result = (result * b) % P
    b = (b * b) % P
  }
  return result
}

/**
 * The eight points of small order (the torsion subgroup, of order 8) in their canonical encodings:
 * the identity, (0, -1), (±√-1, 0), and the four points of order 8. The test checks each against
 * noble and that they are eight distinct points, which is all of them.
 */
const SMALL_ORDER_HEX = [
  '0100000000000000000000000000000000000000000000000000000000000000',
  'ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f',
  '0000000000000000000000000000000000000000000000000000000000000000',
  '0000000000000000000000000000000000000000000000000000000000000080',
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05',
  '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85',
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a',
  'c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa',
] as const
export const SMALL_ORDER_ENCODINGS: readonly string[] = SMALL_ORDER_HEX

/**
 * RFC 8032 §5.1.3 decoding with the strict rule of SPEC §5.2: y < p, x recoverable from y, and no
 * "negative zero" (x = 0 with the sign bit set).
 */
function decodesCanonically(bytes: Uint8Array): boolean {
  let y = 0n
  for (let i = 31; i >= 0; i--) y = (y << 8n) | BigInt(i === 31 ? (bytes[i] ?? 0) & 0x7f : (bytes[i] ?? 0))
  const sign = ((bytes[31] ?? 0) & 0x80) !== 0
  if (y >= P) return false
  const y2 = (y * y) % P
  const u = (y2 - 1n + P) % P
  const v = (D * y2 + 1n) % P
  // x = u v^3 (u v^7)^((p-5)/8); then v x^2 is u (x is a root), -u (x √-1 is), or neither.
  const v3 = (v * v * v) % P
  const v7 = (v3 * v3 * v) % P
  let x = (((u * v3) % P) * powMod((u * v7) % P, (P - 5n) / 8n)) % P
  const vx2 = (v * x * x) % P
  if (vx2 !== u) {
    if (vx2 !== (P - u) % P) return false
    x = (x * SQRT_M1) % P
  }
  return !(x === 0n && sign)
}

/** Why a public key may not take part in a game (SPEC §5.2), or undefined when it may. */
export function publicKeyProblem(publicKey: Uint8Array): KeyProblem {
  if (publicKey.length !== PUBLIC_KEY_BYTES) return 'length'
  const id = toBase64url(publicKey)
  if (keyProblems.has(id)) return keyProblems.get(id)
  const hex = Buffer.from(publicKey.buffer, publicKey.byteOffset, publicKey.byteLength).toString('hex')
  const problem: KeyProblem = !decodesCanonically(publicKey) ? 'non-canonical' : SMALL_ORDER_ENCODINGS.includes(hex) ? 'small-order' : undefined
  if (keyProblems.size >= PUBLIC_KEY_CACHE) keyProblems.clear()
  keyProblems.set(id, problem)
  return problem
}

type Noble = typeof import('@noble/curves/ed25519.js')
let noble: Noble | undefined
/** @noble/curves, loaded on first use (a native rejection to decide), synchronously (require of an ES module, Node >= 22). */
function nobleEd25519(): Noble['ed25519'] {
  noble ??= createRequire(import.meta.url)('@noble/curves/ed25519.js') as Noble
  return noble.ed25519
}

/** The reference rule alone (noble, RFC 8032 strict, cofactored). */
export function verifyStrict(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== PUBLIC_KEY_BYTES || signature.length !== SIGNATURE_BYTES) return false
  try {
    return nobleEd25519().verify(signature, message, publicKey, { zip215: false })
  } catch {
    return false
  }
}

/** SPEC §5.1. `publicKey` must already have passed `publicKeyProblem`. */
export function verifySignature(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== PUBLIC_KEY_BYTES || signature.length !== SIGNATURE_BYTES) return false
  const native = nativePublic(publicKey)
  if (native !== undefined) {
    try {
      if (nativeVerify(null, message, native, signature)) return true
    } catch {
      // fall through to the reference rule
    }
  }
  return verifyStrict(publicKey, message, signature)
}
