/**
 * Ed25519 keys and signatures (protocol/SPEC.md §5.2).
 *
 * The rule: a public key is usable iff it is a canonical encoding of a point not of small order
 * (checked once per key, `publicKeyProblem`); a signature R ‖ S is valid iff S < L, R is not a
 * small-order point, and the cofactorless equation holds with R compared byte for byte. That is
 * libsodium's `crypto_sign_verify_detached`, and it is decided exactly by OpenSSL's verifier once
 * the key is known usable and R is not of small order: OpenSSL computes [S]B - [k]A and compares
 * its encoding with R, and refuses S >= L. So every signature is decided natively, both ways, with
 * no slower fallback; the explicit S and R checks below make that hold on any OpenSSL, including
 * versions that do not refuse small-order points themselves.
 *
 * Signing is RFC 8032 and deterministic, so the native signer gives the same bytes as any other.
 */
import {
  type KeyObject,
  createPrivateKey,
  createPublicKey,
  sign as nativeSign,
  verify as nativeVerify,
} from 'node:crypto'
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
const PKCS8_ED25519_PREFIX = Uint8Array.of(
  0x30,
  0x2e,
  0x02,
  0x01,
  0x00,
  0x30,
  0x05,
  0x06,
  0x03,
  0x2b,
  0x65,
  0x70,
  0x04,
  0x22,
  0x04,
  0x20,
)

function nativeFromSecret(secretKey: Uint8Array): KeyObject {
  const der = new Uint8Array(PKCS8_ED25519_PREFIX.length + 32)
  der.set(PKCS8_ED25519_PREFIX)
  der.set(secretKey, PKCS8_ED25519_PREFIX.length)
  return createPrivateKey({ key: Buffer.from(der), format: 'der', type: 'pkcs8' })
}

export function keyPairFromSecret(secretKey: Uint8Array): KeyPair {
  if (secretKey.length !== 32) throw new Error('an Ed25519 secret key is 32 bytes')
  const native = nativeFromSecret(secretKey)
  // The SubjectPublicKeyInfo DER ends with the 32-byte public key (RFC 8410).
  const spki = createPublicKey(native).export({ format: 'der', type: 'spki' })
  const kp: KeyPair = { secretKey, publicKey: new Uint8Array(spki.subarray(spki.length - PUBLIC_KEY_BYTES)) }
  privateKeys.set(secretKey, { secret: secretKey.slice(), native })
  return kp
}

export function generateKeyPair(source: SecretSource): KeyPair {
  return keyPairFromSecret(source.bytes(32))
}

/**
 * The native key of a secret key buffer, with a copy of the bytes it was made from: a caller may
 * overwrite its buffer (wipe it, reuse it), and a signature is always by the bytes there now.
 */
const privateKeys = new WeakMap<Uint8Array, { readonly secret: Uint8Array; readonly native: KeyObject }>()
const publicKeys = new Map<string, KeyObject>()
/**
 * Keys remembered (natively imported, and judged usable), least recently used first out. A
 * notary checks the headers of every open game at once (NOTARY.md §8: up to 10,000), two keys a
 * game: with 64 remembered, 64 games in play thrashed both caches, and each header cost a JWK
 * import and the BigInt decoding of `publicKeyProblem` (most of the notary's time, profiled). A
 * KeyObject is a few hundred bytes: 4,096 of them, about a megabyte, cover 2,048 games.
 */
const PUBLIC_KEY_CACHE = 4096

/** `map.get(key)`, marking it most recently used (a Map iterates in insertion order). */
function recall<V>(map: Map<string, V>, key: string): V | undefined {
  const v = map.get(key)
  if (v !== undefined || map.has(key)) {
    map.delete(key)
    map.set(key, v as V)
  }
  return v
}

/** Remembers `value`, forgetting the least recently used entry when full. */
function remember<V>(map: Map<string, V>, key: string, value: V): void {
  if (map.size >= PUBLIC_KEY_CACHE) map.delete(map.keys().next().value as string)
  map.set(key, value)
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

function nativePrivate(kp: KeyPair): KeyObject {
  const cached = privateKeys.get(kp.secretKey)
  if (cached !== undefined && sameBytes(cached.secret, kp.secretKey)) return cached.native
  if (kp.secretKey.length !== 32) throw new Error('an Ed25519 secret key is 32 bytes')
  const native = nativeFromSecret(kp.secretKey)
  privateKeys.set(kp.secretKey, { secret: kp.secretKey.slice(), native })
  return native
}

function nativePublic(publicKey: Uint8Array): KeyObject | undefined {
  const x = toBase64url(publicKey)
  let k = recall(publicKeys, x)
  if (k === undefined) {
    try {
      k = createPublicKey({ format: 'jwk', key: { kty: 'OKP', crv: 'Ed25519', x } })
    } catch {
      return undefined
    }
    remember(publicKeys, x, k)
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
 * RFC 8032 §5.1.3 decoding with the rule of SPEC §5.2: y < p, x recoverable from y, and no
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

/** Why a public key is not usable (SPEC §5.2), or undefined when it is. */
export function publicKeyProblem(publicKey: Uint8Array): KeyProblem {
  if (publicKey.length !== PUBLIC_KEY_BYTES) return 'length'
  const id = toBase64url(publicKey)
  if (keyProblems.has(id)) return recall(keyProblems, id)
  const problem = publicKeyShapeProblem(publicKey) ?? (decodesCanonically(publicKey) ? undefined : 'non-canonical')
  remember(keyProblems, id, problem)
  return problem
}

/** p = 2^255 - 19, little-endian, without the sign bit (the top bit of byte 31). */
const P_LE = Uint8Array.from(Buffer.from('edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f', 'hex'))

/**
 * SPEC §5.2 but the one costly test, whether x is recoverable from y (a square root mod p, about
 * 160 µs in BigInt): the length; y < p; no negative zero (x = 0 is y = ±1, so those two encodings
 * with the sign bit set); not of small order. `publicKeyProblem` is this, then that test.
 *
 * A key this passes and that a valid signature verified under (`verifySignature`, OpenSSL) needs
 * no more: OpenSSL decodes the key as a point before it verifies anything, and a y with no x fails
 * that decoding (`ge_frombytes_vartime`), so the verification would have failed. The verifier
 * leaves the test to keys no valid signature vouches for (reading.ts).
 */
export function publicKeyShapeProblem(publicKey: Uint8Array): KeyProblem {
  if (publicKey.length !== PUBLIC_KEY_BYTES) return 'length'
  if (!belowP(publicKey)) return 'non-canonical'
  const negative = ((publicKey[31] ?? 0) & 0x80) !== 0
  if (negative && (unsignedEqual(publicKey, SMALL_ORDER_BYTES[0]) || unsignedEqual(publicKey, SMALL_ORDER_BYTES[1])))
    return 'non-canonical'
  return smallOrderAt(publicKey, 0) ? 'small-order' : undefined
}

/** Whether y, the encoding without its sign bit (the top bit of byte 31), is below p. */
function belowP(key: Uint8Array): boolean {
  for (let i = 31; i >= 0; i--) {
    const b = i === 31 ? (key[31] ?? 0) & 0x7f : (key[i] ?? 0)
    const q = P_LE[i] ?? 0
    if (b !== q) return b < q
  }
  return false
}

/** Whether two encodings are equal but for the sign bit. */
function unsignedEqual(key: Uint8Array, other: Uint8Array | undefined): boolean {
  if (other === undefined) return false
  for (let i = 0; i < 31; i++) if (other[i] !== key[i]) return false
  return ((other[31] ?? 0) & 0x7f) === ((key[31] ?? 0) & 0x7f)
}

/** The group order L = 2^252 + 27742317777372353535851937790883648493, little-endian. */
const ORDER_LE = Uint8Array.from(Buffer.from('edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010', 'hex'))

/** Whether the little-endian scalar at `bytes[at..at+32)` is below L (SPEC §5.2: S < L). */
function scalarCanonical(bytes: Uint8Array, at: number): boolean {
  for (let i = 31; i >= 0; i--) {
    const b = bytes[at + i] ?? 0
    const l = ORDER_LE[i] ?? 0
    if (b !== l) return b < l
  }
  return false
}

const SMALL_ORDER_BYTES = SMALL_ORDER_HEX.map((h) => Uint8Array.from(Buffer.from(h, 'hex')))

/** Whether `bytes[at..at+32)` is the canonical encoding of a point of small order. */
function smallOrderAt(bytes: Uint8Array, at: number): boolean {
  return SMALL_ORDER_BYTES.some((p) => {
    for (let i = 0; i < 32; i++) if (p[i] !== bytes[at + i]) return false
    return true
  })
}

/**
 * SPEC §5.2. `publicKey` must be usable (`publicKeyProblem` undefined): the session and the
 * verifier check it once, at the hello.
 */
export function verifySignature(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== PUBLIC_KEY_BYTES || signature.length !== SIGNATURE_BYTES) return false
  // A non-canonical R never equals the canonical encoding the equation yields, so R needs only the small-order test.
  if (!scalarCanonical(signature, 32) || smallOrderAt(signature, 0)) return false
  const native = nativePublic(publicKey)
  if (native === undefined) return false
  try {
    return nativeVerify(null, message, native, signature)
  } catch {
    return false
  }
}
