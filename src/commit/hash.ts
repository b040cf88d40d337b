/**
 * Domain-separated hashing (protocol/SPEC.md §3.3). Every hash input starts with a distinct tag
 * naming the protocol version and the purpose, and every field is length-prefixed, so no input
 * of one kind can be read as another.
 */
import { hmac } from '@noble/hashes/hmac.js'
import { sha256 } from '@noble/hashes/sha2.js'
import { type KeyObject, createHash, createHmac, createSecretKey } from 'node:crypto'
import { concatBytes, lengthPrefixed, u32, utf8 } from './bytes.js'

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

/** Feeds lp(tag) ‖ lp(field1) ‖ ... without building the concatenation (SPEC §3.1). */
function feed(h: ReturnType<typeof createHash> | ReturnType<typeof createHmac>, tag: DomainTag, fields: readonly Uint8Array[]): Uint8Array {
  const t = TAG_BYTES[tag]
  h.update(u32(t.length)).update(t)
  for (const f of fields) h.update(u32(f.length)).update(f)
  const d = h.digest()
  return new Uint8Array(d.buffer, d.byteOffset, d.byteLength)
}

const TAG_BYTES = Object.fromEntries(Object.values(DOMAIN).map((t) => [t, utf8(t)])) as Record<DomainTag, Uint8Array>

/**
 * SHA-256(lp(tag) ‖ lp(field1) ‖ lp(field2) ‖ ...). Node's native SHA-256 (issue 6: the pure-JS
 * one was a tenth of a peer's CPU per turn); `taggedHashReference` is the same function in
 * @noble/hashes, and a test holds them equal.
 */
export function taggedHash(tag: DomainTag, ...fields: readonly Uint8Array[]): Uint8Array {
  return feed(createHash('sha256'), tag, fields)
}

/** HMAC-SHA256(key, lp(tag) ‖ lp(field1) ‖ ...), natively (see `taggedHash`). */
export function taggedMac(key: Uint8Array, tag: DomainTag, ...fields: readonly Uint8Array[]): Uint8Array {
  // Importing a raw key costs more than the MAC itself; a game derives hundreds of salts from one
  // seed, so its KeyObject is kept while the seed lives.
  let k = macKeys.get(key)
  if (k === undefined) macKeys.set(key, (k = createSecretKey(key)))
  return feed(createHmac('sha256', k), tag, fields)
}

const macKeys = new WeakMap<Uint8Array, KeyObject>()

/** The reference definitions over @noble/hashes (for tests and other implementations). */
export function taggedHashReference(tag: DomainTag, ...fields: readonly Uint8Array[]): Uint8Array {
  return sha256(concatBytes(lengthPrefixed(utf8(tag)), ...fields.map(lengthPrefixed)))
}

export function taggedMacReference(key: Uint8Array, tag: DomainTag, ...fields: readonly Uint8Array[]): Uint8Array {
  return hmac(sha256, key, concatBytes(lengthPrefixed(utf8(tag)), ...fields.map(lengthPrefixed)))
}
