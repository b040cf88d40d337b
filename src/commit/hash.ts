/**
 * Domain-separated hashing (protocol/SPEC.md §3.3). Every hash input starts with a distinct tag
 * naming the protocol version and the purpose, and every field is length-prefixed, so no input
 * of one kind can be read as another.
 */
import { hmac } from '@noble/hashes/hmac.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { concatBytes, lengthPrefixed, utf8 } from './bytes.js'

/** SPEC §3.3: the domain-separation tags. */
export const DOMAIN = {
  gameId: 'spaceships/1/game-id',
  occupancy: 'spaceships/1/occupancy',
  detail: 'spaceships/1/detail',
  record: 'spaceships/1/record',
  salt: 'spaceships/1/salt',
  envelope: 'spaceships/1/envelope',
  envelopeHash: 'spaceships/1/envelope-hash',
  secrets: 'spaceships/1/seeded-secrets',
} as const
export type DomainTag = (typeof DOMAIN)[keyof typeof DOMAIN]

export const HASH_BYTES = 32

/** SHA-256(lp(tag) ‖ lp(field1) ‖ lp(field2) ‖ ...). */
export function taggedHash(tag: DomainTag, ...fields: readonly Uint8Array[]): Uint8Array {
  return sha256(concatBytes(lengthPrefixed(utf8(tag)), ...fields.map(lengthPrefixed)))
}

/** HMAC-SHA256(key, lp(tag) ‖ lp(field1) ‖ ...). */
export function taggedMac(key: Uint8Array, tag: DomainTag, ...fields: readonly Uint8Array[]): Uint8Array {
  return hmac(sha256, key, concatBytes(lengthPrefixed(utf8(tag)), ...fields.map(lengthPrefixed)))
}
