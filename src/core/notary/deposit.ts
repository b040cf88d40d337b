/**
 * Deposits (PROTOCOL-4.md §5.2, NOTARY.md §4): an envelope encrypted to its recipient and to its
 * sender, held by the notary. A fresh content key `k` is wrapped twice with HPKE base mode
 * (`SealBase(pk, info, "", k)`), and the padded envelope is sealed under `k`:
 *
 *   deposit = enc[32] ‖ wrapped[48] (for 0, the recipient) ‖ enc[32] ‖ wrapped[48] (for 1, the sender)
 *           ‖ ChaCha20-Poly1305(k, nonce 0^12, aad = envelopeHash, pad(envelope))
 *
 * `k` is used for exactly one message, so the zero nonce never repeats under one key.
 *
 * SPAAACE-WITNESSED §5.2 generalises the head to `w` wraps, `for` a roster index (`info(i)`), so a
 * deposit is `80·w + P + 16` bytes; the two-player functions below keep `w = 2` with `for` 0 the
 * recipient and 1 the sender, byte for byte as before, and the `…Wraps`/`…To` ones take `w`.
 */
import { chacha20poly1305 } from '@noble/ciphers/chacha.js'
import { concatBytes, u16, u8 } from '../commit/bytes.js'
import { tag, taggedHash } from '../commit/hash.js'
import { openFirst, sealFirst, setupBaseRecipient, setupBaseRecipientWithDh, setupBaseSender } from '../commit/hpke.js'
import type { SecretSource } from '../commit/secrets.js'
import { type NotaryDomain, type NotaryResult, accepted, refused } from './domain.js'
import { encUsable, x25519PublicKey, x25519SecretKey } from './x25519.js'

export const CONTENT_KEY_BYTES = 32
const ENC_BYTES = 32
/** HPKE's wrap of a 32-byte key: the key and the AEAD tag. */
const WRAPPED_BYTES = CONTENT_KEY_BYTES + 16
export const WRAP_BYTES = ENC_BYTES + WRAPPED_BYTES
/** SPAAACE-WITNESSED §5.1: the most wraps a deposit has (one per roster member, at most 16). */
export const MAX_WRAPS = 16
/** The two wraps before the body. */
export const DEPOSIT_HEAD_BYTES = 2 * WRAP_BYTES
export const AEAD_TAG_BYTES = 16
/** PROTOCOL-4.md §5.2: the floor of any envelope's padded size. */
export const MIN_PADDED_BYTES = 256
/** PROTOCOL-4.md §5.2: the floor of a turn envelope's padded size (the game passes it). */
export const TURN_PADDED_BYTES = 4096
/** NOTARY.md §4.3: the largest padded size, room for any envelope below 2 MiB. */
export const MAX_PADDED_BYTES = 2 ** 21
export const MIN_DEPOSIT_BYTES = DEPOSIT_HEAD_BYTES + MIN_PADDED_BYTES + AEAD_TAG_BYTES
export const MAX_DEPOSIT_BYTES = DEPOSIT_HEAD_BYTES + MAX_PADDED_BYTES + AEAD_TAG_BYTES

const RULE = 'NOTARY.md §4'
const ZERO_NONCE = new Uint8Array(12)

/** Where a deposit belongs: its game, its envelope's sender and `seq`, and the envelope's hash. */
export interface DepositPlace {
  readonly game: Uint8Array
  /** The envelope's author (a side 0/1, or a roster index). */
  readonly sender: number
  readonly seq: number
  readonly envelopeHash: Uint8Array
}

/** The randomness of one deposit: the content key and the two HPKE ephemeral secrets. */
export interface DepositRandomness {
  readonly contentKey: Uint8Array
  /** X25519 ephemeral secrets of the wraps, [for the recipient, for the sender]. */
  readonly ephemeral: readonly [Uint8Array, Uint8Array]
}

export function freshDepositRandomness(source: SecretSource): DepositRandomness {
  return { contentKey: source.bytes(CONTENT_KEY_BYTES), ephemeral: [source.bytes(32), source.bytes(32)] }
}

/** The smallest power of two at least `n`. */
function powerOfTwoAtLeast(n: number): number {
  let p = 1
  while (p < n) p *= 2
  return p
}

const isPowerOfTwo = (n: number): boolean => Number.isInteger(n) && n > 0 && (n & (n - 1)) === 0

/** A padding floor is a power of two from MIN_PADDED_BYTES to MAX_PADDED_BYTES. */
export function isPaddingFloor(floor: number): boolean {
  return isPowerOfTwo(floor) && floor >= MIN_PADDED_BYTES && floor <= MAX_PADDED_BYTES
}

/** §5.2: an envelope of `length` bytes padded: 0x80, then zeros to the next power of two, at least `floor`. */
export function paddedSize(length: number, floor: number): number {
  return Math.max(floor, powerOfTwoAtLeast(length + 1))
}

/**
 * Whether a deposit of `bytes` bytes has a size of §5.2: `wraps` wraps (two by default; 'any': some
 * `w` in 1..MAX_WRAPS, SPAAACE-WITNESSED §5.1), a padded power of two, the tag. For `w` in 1..16 at
 * most one `w` fits a size (two would differ by 15·P/80 ≥ 48 wraps), so 'any' is unambiguous.
 */
export function isDepositSize(bytes: number, wraps: number | 'any' = 2): boolean {
  if (wraps === 'any') {
    for (let w = 1; w <= MAX_WRAPS; w++) if (isDepositSize(bytes, w)) return true
    return false
  }
  const padded = bytes - wraps * WRAP_BYTES - AEAD_TAG_BYTES
  return isPowerOfTwo(padded) && padded >= MIN_PADDED_BYTES && padded <= MAX_PADDED_BYTES
}

/** SPAAACE-WITNESSED §5.1: the number of wraps of a deposit of `bytes` bytes, or undefined. */
export function wrapsOfSize(bytes: number): number | undefined {
  for (let w = 1; w <= MAX_WRAPS; w++) if (isDepositSize(bytes, w)) return w
  return undefined
}

export function pad(envelope: Uint8Array, floor: number): Uint8Array {
  const out = new Uint8Array(paddedSize(envelope.length, floor))
  out.set(envelope)
  out[envelope.length] = 0x80
  return out
}

/** The padding floor of an envelope: a number, or the game's function of the opened envelope. */
export type PaddingFloor = number | ((envelope: Uint8Array) => number)

/**
 * Removes the padding, refusing anything but exactly `pad(envelope, floor)`: the last non-zero
 * byte is 0x80 and the padded size is the one §5.2 gives for the envelope and its floor.
 */
export function unpad(padded: Uint8Array, floor: PaddingFloor): NotaryResult<Uint8Array> {
  let end = padded.length - 1
  while (end >= 0 && padded[end] === 0) end--
  if (end < 0 || padded[end] !== 0x80) return refused('deposit.padding', 'body', RULE, 'no 0x80 before the zero fill')
  const envelope = padded.slice(0, end)
  const f = typeof floor === 'number' ? floor : floor(envelope)
  if (!isPaddingFloor(f))
    return refused('deposit.padding', 'body', RULE, `the game's floor ${f} is not a padding floor`)
  const want = paddedSize(envelope.length, f)
  if (padded.length !== want)
    return refused('deposit.padding', 'body', RULE, `padded to ${padded.length} bytes; ${want} for this envelope`)
  return accepted(envelope)
}

/** §5.2: `info = tag(deposit) ‖ game ‖ u8 sender ‖ u16 seq ‖ u8 for` (NOTARY.md §4.2: the tag form). */
export function depositInfo(domain: NotaryDomain, place: DepositPlace, forWhom: number): Uint8Array {
  return concatBytes(tag(domain.deposit), place.game, u8(place.sender), u16(place.seq), u8(forWhom))
}

/** §5.2: `depositHash = H(tag(deposit-hash) ‖ deposit)`. */
export function depositHash(domain: NotaryDomain, deposit: Uint8Array): Uint8Array {
  return taggedHash(domain.depositHash, deposit)
}

export interface SealDepositOptions {
  readonly domain: NotaryDomain
  readonly place: DepositPlace
  readonly envelope: Uint8Array
  /** The Ed25519 hello keys of the envelope's recipient and of its sender. */
  readonly recipientKey: Uint8Array
  readonly senderKey: Uint8Array
  readonly floor: number
  readonly randomness: DepositRandomness
}

/** Seals an envelope as a deposit (§5.2), or refuses an unusable key, floor or size. */
export function sealDeposit(o: SealDepositOptions): NotaryResult<Uint8Array> {
  if (!isPaddingFloor(o.floor)) return refused('deposit.padding', 'floor', RULE, `${o.floor} is not a padding floor`)
  if (paddedSize(o.envelope.length, o.floor) > MAX_PADDED_BYTES)
    return refused('deposit.size', 'envelope', RULE, `${o.envelope.length} bytes pad beyond ${MAX_PADDED_BYTES}`)
  if (o.randomness.contentKey.length !== CONTENT_KEY_BYTES)
    return refused('deposit.wrap', 'contentKey', RULE, 'a content key is 32 bytes')
  const wraps: Uint8Array[] = []
  for (const forWhom of [0, 1] as const) {
    const pk = x25519PublicKey(
      forWhom === 0 ? o.recipientKey : o.senderKey,
      forWhom === 0 ? 'recipientKey' : 'senderKey',
    )
    if (!pk.ok) return pk
    const ephemeral = o.randomness.ephemeral[forWhom]
    if (ephemeral.length !== 32)
      return refused('deposit.wrap', `ephemeral[${forWhom}]`, RULE, 'an X25519 secret is 32 bytes')
    const { enc, context } = setupBaseSender(pk.value, depositInfo(o.domain, o.place, forWhom), ephemeral)
    wraps.push(enc, sealFirst(context, new Uint8Array(), o.randomness.contentKey))
  }
  const body = chacha20poly1305(o.randomness.contentKey, ZERO_NONCE, o.place.envelopeHash).encrypt(
    pad(o.envelope, o.floor),
  )
  return accepted(concatBytes(...wraps, body))
}

/** One HPKE wrap of a deposit's content key: `enc[32] ‖ wrapped[48]`. */
export interface Wrap {
  readonly enc: Uint8Array
  readonly wrapped: Uint8Array
}

export interface SealDepositToOptions {
  readonly domain: NotaryDomain
  readonly place: DepositPlace
  readonly envelope: Uint8Array
  /** The Ed25519 keys of the wraps' readers, in `for` order (SPAAACE-WITNESSED §5.2: roster order). */
  readonly keys: readonly Uint8Array[]
  readonly floor: number
  readonly contentKey: Uint8Array
  /** One fresh X25519 ephemeral secret per wrap, in `for` order. */
  readonly ephemeral: readonly Uint8Array[]
}

/** Seals an envelope as a deposit to `keys.length` readers (SPAAACE-WITNESSED §5.2), or refuses. */
export function sealDepositTo(o: SealDepositToOptions): NotaryResult<Uint8Array> {
  if (!isPaddingFloor(o.floor)) return refused('deposit.padding', 'floor', RULE, `${o.floor} is not a padding floor`)
  if (paddedSize(o.envelope.length, o.floor) > MAX_PADDED_BYTES)
    return refused('deposit.size', 'envelope', RULE, `${o.envelope.length} bytes pad beyond ${MAX_PADDED_BYTES}`)
  if (o.keys.length < 1 || o.keys.length > MAX_WRAPS)
    return refused('deposit.size', 'keys', RULE, `1..${MAX_WRAPS} wraps, got ${o.keys.length}`)
  if (o.contentKey.length !== CONTENT_KEY_BYTES)
    return refused('deposit.wrap', 'contentKey', RULE, 'a content key is 32 bytes')
  const wraps: Uint8Array[] = []
  for (const [i, key] of o.keys.entries()) {
    const pk = x25519PublicKey(key, `keys[${i}]`)
    if (!pk.ok) return pk
    const ephemeral = o.ephemeral[i]
    if (ephemeral?.length !== 32)
      return refused('deposit.wrap', `ephemeral[${i}]`, RULE, 'an X25519 secret is 32 bytes')
    const { enc, context } = setupBaseSender(pk.value, depositInfo(o.domain, o.place, i), ephemeral)
    wraps.push(enc, sealFirst(context, new Uint8Array(), o.contentKey))
  }
  const body = chacha20poly1305(o.contentKey, ZERO_NONCE, o.place.envelopeHash).encrypt(pad(o.envelope, o.floor))
  return accepted(concatBytes(...wraps, body))
}

/** A deposit cut into its two wraps and its body, each `enc` checked (NOTARY.md §4.2). */
export interface DepositParts {
  readonly wraps: readonly [Wrap, Wrap]
  readonly body: Uint8Array
}

/** A deposit cut into its `w` wraps (in `for` order) and its body (SPAAACE-WITNESSED §5.2). */
export interface DepositWraps {
  readonly wraps: readonly Wrap[]
  readonly body: Uint8Array
}

/**
 * What the notary checks of a deposit it cannot open (NOTARY.md §4.2, SPAAACE-WITNESSED §5.2 step
 * 1): its size class for `w` wraps and every `enc`.
 */
export function depositWraps(deposit: Uint8Array, w: number): NotaryResult<DepositWraps> {
  if (!isDepositSize(deposit.length, w))
    return refused(
      'deposit.size',
      'deposit',
      RULE,
      `${deposit.length} bytes is not ${w * WRAP_BYTES} + a padded power of two + 16`,
    )
  const wraps: Wrap[] = []
  for (let i = 0; i < w; i++) {
    const wrap = {
      enc: deposit.slice(i * WRAP_BYTES, i * WRAP_BYTES + ENC_BYTES),
      wrapped: deposit.slice(i * WRAP_BYTES + ENC_BYTES, (i + 1) * WRAP_BYTES),
    }
    const e = encUsable(wrap.enc, `deposit.wrap[${i}].enc`)
    if (!e.ok) return e
    wraps.push(wrap)
  }
  return accepted({ wraps, body: deposit.slice(w * WRAP_BYTES) })
}

/** What the notary checks of a two-player deposit (NOTARY.md §4.2): its size class and both `enc`s. */
export function depositParts(deposit: Uint8Array): NotaryResult<DepositParts> {
  if (!isDepositSize(deposit.length))
    return refused('deposit.size', 'deposit', RULE, `${deposit.length} bytes is not 160 + a padded power of two + 16`)
  const d = depositWraps(deposit, 2)
  if (!d.ok) return d
  const [a, b] = d.value.wraps
  if (a === undefined || b === undefined) throw new Error('two wraps were cut')
  return accepted({ wraps: [a, b], body: d.value.body })
}

export interface OpenDepositOptions {
  readonly domain: NotaryDomain
  readonly place: DepositPlace
  readonly floor: PaddingFloor
}

function openBody(
  parts: DepositWraps,
  contentKey: Uint8Array | undefined,
  forWhom: number,
  o: OpenDepositOptions,
): NotaryResult<Uint8Array> {
  if (contentKey?.length !== CONTENT_KEY_BYTES)
    return refused('deposit.wrap', `deposit.wrap[${forWhom}]`, RULE, 'the wrap does not open to a 32-byte key')
  let padded: Uint8Array
  try {
    padded = chacha20poly1305(contentKey, ZERO_NONCE, o.place.envelopeHash).decrypt(parts.body)
  } catch {
    return refused(
      'deposit.body',
      'deposit.body',
      RULE,
      'the body does not authenticate under the key and envelope hash',
    )
  }
  return unpad(padded, o.floor)
}

/**
 * The content key of wrap `forWhom` of a `w`-wrap deposit, opened with a player's Ed25519 seed, or
 * why not (`deposit.size`, `deposit.enc`, `deposit.wrap`): what a player relays (SPAAACE-WITNESSED §5.4).
 */
export function depositContentKey(
  deposit: Uint8Array,
  w: number,
  forWhom: number,
  seed: Uint8Array,
  o: Omit<OpenDepositOptions, 'floor'>,
): NotaryResult<Uint8Array> {
  const parts = depositWraps(deposit, w)
  if (!parts.ok) return parts
  const sk = x25519SecretKey(seed)
  if (!sk.ok) return sk
  const key = openWrap(parts.value, forWhom, (wrap) =>
    setupBaseRecipient(wrap.enc, sk.value, depositInfo(o.domain, o.place, forWhom)),
  )
  if (key?.length !== CONTENT_KEY_BYTES)
    return refused('deposit.wrap', `deposit.wrap[${forWhom}]`, RULE, 'the wrap does not open to a 32-byte key')
  return accepted(key)
}

function openWrap(
  parts: DepositWraps,
  forWhom: number,
  setup: (w: Wrap) => ReturnType<typeof setupBaseRecipient>,
): Uint8Array | undefined {
  const w = parts.wraps[forWhom]
  if (w === undefined) return undefined
  try {
    return openFirst(setup(w), new Uint8Array(), w.wrapped)
  } catch {
    return undefined
  }
}

/**
 * Opens a `w`-wrap deposit through wrap `forWhom` with a player's Ed25519 seed (SPAAACE-WITNESSED
 * §5.2 steps 1-4): the envelope, or the first step that fails.
 */
export function openDepositWraps(
  deposit: Uint8Array,
  w: number,
  forWhom: number,
  seed: Uint8Array,
  o: OpenDepositOptions,
): NotaryResult<Uint8Array> {
  const parts = depositWraps(deposit, w)
  if (!parts.ok) return parts
  const sk = x25519SecretKey(seed)
  if (!sk.ok) return sk
  const key = openWrap(parts.value, forWhom, (wrap) =>
    setupBaseRecipient(wrap.enc, sk.value, depositInfo(o.domain, o.place, forWhom)),
  )
  return openBody(parts.value, key, forWhom, o)
}

/** Opens the body of a `w`-wrap deposit with a content key got otherwise (a relay, §5.4): steps 3-4. */
export function openDepositWithKey(
  deposit: Uint8Array,
  w: number,
  contentKey: Uint8Array,
  o: OpenDepositOptions,
): NotaryResult<Uint8Array> {
  const parts = depositWraps(deposit, w)
  if (!parts.ok) return parts
  if (contentKey.length !== CONTENT_KEY_BYTES)
    return refused('deposit.wrap', 'contentKey', RULE, 'a content key is 32 bytes')
  return openBody(parts.value, contentKey, 0, o)
}

/**
 * Opens wrap `forWhom` of a `w`-wrap deposit with a disclosed `dh` and the key of the player the
 * wrap is for (a complaint, SPAAACE-WITNESSED §5.3): anyone can run this.
 */
export function openWrapWithDh(
  deposit: Uint8Array,
  w: number,
  forWhom: number,
  playerKey: Uint8Array,
  dh: Uint8Array,
  o: OpenDepositOptions,
): NotaryResult<Uint8Array> {
  const parts = depositWraps(deposit, w)
  if (!parts.ok) return parts
  const pk = x25519PublicKey(playerKey, 'playerKey')
  if (!pk.ok) return pk
  const key = openWrap(parts.value, forWhom, (wrap) =>
    setupBaseRecipientWithDh(wrap.enc, pk.value, dh, depositInfo(o.domain, o.place, forWhom)),
  )
  return openBody(parts.value, key, forWhom, o)
}

/**
 * Opens a deposit with a player's Ed25519 seed through the wrap `forWhom` (0: the player is the
 * envelope's recipient, 1: its sender): the envelope, or why not. The caller still checks that the
 * envelope is the game's at the place, with the hash it was deposited under (the core knows no game).
 */
export function openDeposit(
  deposit: Uint8Array,
  forWhom: 0 | 1,
  seed: Uint8Array,
  o: OpenDepositOptions,
): NotaryResult<Uint8Array> {
  const parts = depositParts(deposit)
  if (!parts.ok) return parts
  const sk = x25519SecretKey(seed)
  if (!sk.ok) return sk
  const w = parts.value.wraps[forWhom]
  let key: Uint8Array | undefined
  try {
    key = openFirst(
      setupBaseRecipient(w.enc, sk.value, depositInfo(o.domain, o.place, forWhom)),
      new Uint8Array(),
      w.wrapped,
    )
  } catch {
    key = undefined
  }
  return openBody(parts.value, key, forWhom, o)
}

/**
 * Opens the recipient's wrap (for 0) with a disclosed `dh = X25519(sk, enc)` and the recipient's
 * Ed25519 key (a complaint, PROTOCOL-4.md §5.3): anyone can run this.
 */
export function openDepositWithDh(
  deposit: Uint8Array,
  recipientKey: Uint8Array,
  dh: Uint8Array,
  o: OpenDepositOptions,
): NotaryResult<Uint8Array> {
  const parts = depositParts(deposit)
  if (!parts.ok) return parts
  const pk = x25519PublicKey(recipientKey, 'recipientKey')
  if (!pk.ok) return pk
  const w = parts.value.wraps[0]
  const key = openFirst(
    setupBaseRecipientWithDh(w.enc, pk.value, dh, depositInfo(o.domain, o.place, 0)),
    new Uint8Array(),
    w.wrapped,
  )
  return openBody(parts.value, key, 0, o)
}
