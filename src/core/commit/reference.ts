/**
 * SHA-256 over @noble/hashes: the reference the fast paths of `hash.ts` and `sha256.ts`
 * are tested against. Kept out of `hash.ts` so nothing on the verifier's path loads it.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { concatBytes } from './bytes.js'

export function sha256Reference(...parts: readonly Uint8Array[]): Uint8Array {
  return sha256(concatBytes(...parts))
}
