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
 */
import { type KeyObject, createPrivateKey, createPublicKey, sign as nativeSign, verify as nativeVerify } from 'node:crypto'
import { ed25519 } from '@noble/curves/ed25519.js'
import { toBase64url } from './bytes.js'
import type { SecretSource } from './secrets.js'

export const PUBLIC_KEY_BYTES = 32
export const SIGNATURE_BYTES = 64

export interface KeyPair {
  /** The 32-byte RFC 8032 private key (seed). */
  readonly secretKey: Uint8Array
  readonly publicKey: Uint8Array
}

export function keyPairFromSecret(secretKey: Uint8Array): KeyPair {
  return { secretKey, publicKey: ed25519.getPublicKey(secretKey) }
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
/** Decompressing a point costs about 0.4 ms; a session and its final verification, or a verifier's chain cover and chain walk, ask about the same two keys. */
const keyProblems = new Map<string, KeyProblem>()

/** Why a public key may not take part in a game (SPEC §5.2), or undefined when it may. */
export function publicKeyProblem(publicKey: Uint8Array): KeyProblem {
  if (publicKey.length !== PUBLIC_KEY_BYTES) return 'length'
  const id = toBase64url(publicKey)
  if (keyProblems.has(id)) return keyProblems.get(id)
  let problem: KeyProblem
  try {
    problem = ed25519.Point.fromBytes(publicKey, false).isSmallOrder() ? 'small-order' : undefined
  } catch {
    problem = 'non-canonical'
  }
  if (keyProblems.size >= PUBLIC_KEY_CACHE) keyProblems.clear()
  keyProblems.set(id, problem)
  return problem
}

/** The reference rule alone (noble, RFC 8032 strict, cofactored). */
export function verifyStrict(publicKey: Uint8Array, message: Uint8Array, signature: Uint8Array): boolean {
  if (publicKey.length !== PUBLIC_KEY_BYTES || signature.length !== SIGNATURE_BYTES) return false
  try {
    return ed25519.verify(signature, message, publicKey, { zip215: false })
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
