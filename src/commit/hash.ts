/**
 * Domain-separated hashing (protocol/SPEC.md §3.3). Every hash input starts with a distinct tag
 * naming the protocol version and the purpose, and every field is length-prefixed, so no input
 * of one kind can be read as another.
 */
import { createHash } from 'node:crypto'
import { u32, utf8 } from './bytes.js'
import { HmacSha256, Sha256 } from './sha256.js'

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

const TAG_BYTES = Object.fromEntries(Object.values(DOMAIN).map((t) => [t, utf8(t)])) as Record<DomainTag, Uint8Array>

/**
 * Inputs up to this size are hashed in JS (`sha256.ts`): below it a native call's fixed overhead
 * costs more than the compressions; above it native SHA-256 is faster (issue 6, measured).
 */
const NATIVE_FROM_BYTES = 512

function feed(h: Sha256, fields: readonly Uint8Array[]): Sha256 {
  for (const f of fields) h.updateU32(f.length).update(f)
  return h
}

function inputLength(tag: Uint8Array, fields: readonly Uint8Array[]): number {
  let n = 4 + tag.length
  for (const f of fields) n += 4 + f.length
  return n
}

/** SHA-256(lp(tag) ‖ lp(field1) ‖ lp(field2) ‖ ...), SPEC §3.1. `taggedHashReference` (`reference.ts`) is the same function over @noble/hashes; a test holds them equal. */
export function taggedHash(tag: DomainTag, ...fields: readonly Uint8Array[]): Uint8Array {
  const t = TAG_BYTES[tag]
  if (inputLength(t, fields) < NATIVE_FROM_BYTES) return feed(new Sha256().updateU32(t.length).update(t), fields).digest()
  const h = createHash('sha256').update(u32(t.length)).update(t)
  for (const f of fields) h.update(u32(f.length)).update(f)
  const d = h.digest()
  return new Uint8Array(d.buffer, d.byteOffset, d.byteLength)
}

/** HMAC-SHA256(key, lp(tag) ‖ lp(field1) ‖ ...). Keys are short-lived seeds, each used for hundreds of salts, so the keyed pads are kept while the key lives. */
export function taggedMac(key: Uint8Array, tag: DomainTag, ...fields: readonly Uint8Array[]): Uint8Array {
  const mac = hmacFor(key)
  const t = TAG_BYTES[tag]
  return mac.finish(feed(mac.start().updateU32(t.length).update(t), fields))
}

const macs = new WeakMap<Uint8Array, HmacSha256>()

function hmacFor(key: Uint8Array): HmacSha256 {
  let m = macs.get(key)
  if (m === undefined) macs.set(key, (m = new HmacSha256(key)))
  return m
}

/**
 * A tagged hash or MAC whose tag and leading fields are fixed: they are absorbed once, and each
 * `of(...rest)` costs only the compressions of the rest. `of(...rest)` equals
 * `taggedHash(tag, ...fixed, ...rest)` (or `taggedMac(key, ...)`).
 */
export class TaggedPrefix {
  private constructor(
    private readonly state: Sha256,
    private readonly mac: HmacSha256 | undefined,
  ) {}

  static hash(tag: DomainTag, ...fixed: readonly Uint8Array[]): TaggedPrefix {
    const t = TAG_BYTES[tag]
    return new TaggedPrefix(feed(new Sha256().updateU32(t.length).update(t), fixed), undefined)
  }

  static mac(key: Uint8Array, tag: DomainTag, ...fixed: readonly Uint8Array[]): TaggedPrefix {
    const mac = hmacFor(key)
    const t = TAG_BYTES[tag]
    return new TaggedPrefix(feed(mac.start().updateU32(t.length).update(t), fixed), mac)
  }

  of(...rest: readonly Uint8Array[]): Uint8Array {
    // The prefix state is never changed: the rest is hashed from it into a scratch block (issue 6).
    return this.mac === undefined ? this.state.digestWithFields(rest) : this.mac.finishWithFields(this.state, rest)
  }
}
