/**
 * Relays (SPAAACE-WITNESSED §5.4): the mailbox for a recipient whose own wrap of a deposit failed.
 * A player who opened deposit `index` leaves its content key for player `to`, wrapped to `to`'s
 * key as a deposit's wraps are (N §4.2's suite):
 *
 *   relay = game[32] ‖ u32 index ‖ u8 to ‖ enc[32] ‖ SealBase(pkX(key of to), rinfo, "", k)[48]
 *   rinfo = tag(relay) ‖ G ‖ u32 index ‖ u8 from ‖ u8 to
 *
 * `from` is the requester's roster index (the notary knows it from the connection's key). A relay
 * is not a receipt and not evidence; the notary learns nothing from it.
 */
import { concatBytes, u32, u8 } from '../commit/bytes.js'
import { HASH_BYTES, tag } from '../commit/hash.js'
import { openFirst, sealFirst, setupBaseRecipient, setupBaseSender } from '../commit/hpke.js'
import { Reader, Writer, decoded, fail } from '../wire/binary.js'
import type { Decoded } from '../wire/errors.js'
import { CONTENT_KEY_BYTES, WRAP_BYTES } from './deposit.js'
import { type NotaryDomain, type NotaryResult, accepted, refused } from './domain.js'
import { RELAY_BYTES } from './messages.js'
import { encUsable, x25519PublicKey, x25519SecretKey } from './x25519.js'

const RULE = 'SPAAACE-WITNESSED §5.4'
/** §5.1: roster indices are 0..15. */
const MAX_INDEX = 15

export interface Relay {
  readonly game: Uint8Array
  /** The envelope receipt whose deposit the key opens. */
  readonly index: number
  /** The recipient's roster index. */
  readonly to: number
  /** `enc[32] ‖ wrapped[48]`. */
  readonly wrap: Uint8Array
}

export function encodeRelay(r: Relay): Uint8Array {
  if (r.game.length !== HASH_BYTES || r.wrap.length !== WRAP_BYTES)
    throw new RangeError(`relay: game 32 bytes, wrap 80 bytes (${RULE})`)
  if (!Number.isInteger(r.index) || r.index < 1 || r.index > 0xffffffff)
    throw new RangeError(`relay.index: 1..2^32-1 (${RULE})`)
  if (!Number.isInteger(r.to) || r.to < 0 || r.to > MAX_INDEX) throw new RangeError(`relay.to: 0..15 (${RULE})`)
  return new Writer().bytes(r.game).u32(r.index).u8(r.to).bytes(r.wrap).finish()
}

/** Strictly decodes a relay: 117 bytes, `index ≥ 1` (receipt 0 is the genesis), `to` 0..15. */
export function decodeRelay(bytes: Uint8Array): Decoded<Relay> {
  return decoded(() => {
    const r = new Reader(bytes)
    const game = r.bytes(HASH_BYTES, 'relay.game', RULE)
    const index = r.u32('relay.index', RULE)
    if (index === 0) fail('field.range', 'relay.index', RULE, 'receipt 0 is the genesis')
    const to = r.range('relay.to', RULE, r.u8('relay.to', RULE), 0, MAX_INDEX)
    const wrap = r.bytes(WRAP_BYTES, 'relay.wrap', RULE)
    r.end('relay', RULE)
    if (bytes.length !== RELAY_BYTES) fail('field.range', 'relay', RULE, `${RELAY_BYTES} bytes`)
    return { game, index, to, wrap }
  })
}

/** §5.4: `rinfo = tag(relay) ‖ G ‖ u32 index ‖ u8 from ‖ u8 to`. */
export function relayInfo(domain: NotaryDomain, game: Uint8Array, index: number, from: number, to: number): Uint8Array {
  if (domain.relay === undefined) throw new Error('this game has no relays (its domain names no relay tag)')
  return concatBytes(tag(domain.relay), game, u32(index), u8(from), u8(to))
}

/** Wraps content key `k` of deposit `index` from `from` to the Ed25519 key `toKey` of player `to`. */
export function sealRelay(
  domain: NotaryDomain,
  o: {
    readonly game: Uint8Array
    readonly index: number
    readonly from: number
    readonly to: number
    readonly toKey: Uint8Array
    readonly contentKey: Uint8Array
    /** A fresh X25519 ephemeral secret. */
    readonly ephemeral: Uint8Array
  },
): NotaryResult<Relay> {
  if (o.contentKey.length !== CONTENT_KEY_BYTES) return refused('deposit.wrap', 'contentKey', RULE, '32 bytes')
  if (o.ephemeral.length !== 32) return refused('deposit.wrap', 'ephemeral', RULE, 'an X25519 secret is 32 bytes')
  const pk = x25519PublicKey(o.toKey, 'toKey')
  if (!pk.ok) return pk
  const { enc, context } = setupBaseSender(pk.value, relayInfo(domain, o.game, o.index, o.from, o.to), o.ephemeral)
  const wrap = concatBytes(enc, sealFirst(context, new Uint8Array(), o.contentKey))
  return accepted({ game: o.game, index: o.index, to: o.to, wrap })
}

/**
 * Opens a relayed wrap with the recipient's Ed25519 seed: the content key, or `deposit.enc` /
 * `deposit.wrap`. Only `to` can: `rinfo` names it and the wrap is to its key.
 */
export function openRelay(
  domain: NotaryDomain,
  o: {
    readonly game: Uint8Array
    readonly index: number
    readonly from: number
    readonly to: number
    readonly wrap: Uint8Array
    readonly seed: Uint8Array
  },
): NotaryResult<Uint8Array> {
  if (o.wrap.length !== WRAP_BYTES) return refused('deposit.wrap', 'relay.wrap', RULE, '80 bytes')
  const enc = o.wrap.subarray(0, 32)
  const usable = encUsable(enc, 'relay.wrap.enc')
  if (!usable.ok) return usable
  const sk = x25519SecretKey(o.seed)
  if (!sk.ok) return sk
  let key: Uint8Array | undefined
  try {
    key = openFirst(
      setupBaseRecipient(enc, sk.value, relayInfo(domain, o.game, o.index, o.from, o.to)),
      new Uint8Array(),
      o.wrap.subarray(32),
    )
  } catch {
    key = undefined
  }
  if (key?.length !== CONTENT_KEY_BYTES)
    return refused('deposit.wrap', 'relay.wrap', RULE, 'the relay does not open to a 32-byte key')
  return accepted(key)
}
