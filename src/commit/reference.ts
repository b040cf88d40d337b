/**
 * SHA-256 and HMAC over @noble/hashes: the reference the fast paths of `hash.ts` and `sha256.ts`
 * are tested against. Kept out of `hash.ts` so nothing on the verifier's path loads it.
 */
import { hmac } from '@noble/hashes/hmac.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { concatBytes } from './bytes.js'

export function sha256Reference(...parts: readonly Uint8Array[]): Uint8Array {
  return sha256(concatBytes(...parts))
}

export function hmacReference(key: Uint8Array, ...parts: readonly Uint8Array[]): Uint8Array {
  return hmac(sha256, key, concatBytes(...parts))
}
