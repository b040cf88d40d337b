/**
 * The tagged hash and MAC of SPEC §3.1 written the plain way over @noble/hashes: the reference
 * the fast paths of `hash.ts` and `sha256.ts` are tested against, and a guide for other
 * implementations. Kept out of `hash.ts` so the verifier does not load it (issue 6: cold start).
 */
import { hmac } from '@noble/hashes/hmac.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { concatBytes, lengthPrefixed, utf8 } from './bytes.js'
import type { DomainTag } from './hash.js'

/** The reference definitions over @noble/hashes (for tests and other implementations). */
export function taggedHashReference(tag: DomainTag, ...fields: readonly Uint8Array[]): Uint8Array {
  return sha256(concatBytes(lengthPrefixed(utf8(tag)), ...fields.map(lengthPrefixed)))
}

export function taggedMacReference(key: Uint8Array, tag: DomainTag, ...fields: readonly Uint8Array[]): Uint8Array {
  return hmac(sha256, key, concatBytes(lengthPrefixed(utf8(tag)), ...fields.map(lengthPrefixed)))
}
