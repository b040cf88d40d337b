/**
 * The submission header (PROTOCOL-4.md §5.1, NOTARY.md §3.2): what a player submits in clear
 * with each envelope (`seq >= 1`), signed by its hello key:
 *
 *   header = u8 kind (1) ‖ game[32] ‖ u8 sender ‖ u16 seq ‖ envelopeHash[32] ‖ depositHash[32]
 *          ‖ u32 depositBytes ‖ u8 flags ‖ u64 deadline ‖ u32 seen ‖ sig[64]
 *
 * signed over `tag(submission) ‖ header without sig`. SPAAACE-WITNESSED §5.1 calls the byte
 * `author` (0..15 at decoding, the game bounds it by its roster); the property keeps the name
 * `sender` so that two-player code reads as before (a side is an author index 0 or 1). Which
 * reading applies is the layout's (domain.ts): the default is the two-player one, unchanged.
 */
import { concatBytes } from '../commit/bytes.js'
import { HASH_BYTES, tag } from '../commit/hash.js'
import { type KeyPair, SIGNATURE_BYTES, publicKeyProblem, sign, verifySignature } from '../commit/keys.js'
import { Reader, Writer, decoded, fail } from '../wire/binary.js'
import type { Decoded } from '../wire/errors.js'
import { isDepositSize } from './deposit.js'
import { type NotaryDomain, type NotaryLayout, TWO_PLAYER_LAYOUT, layoutOf } from './domain.js'
import { MAX_TIME, readU64, writeU64 } from './fields.js'

export const HEADER_KIND = 1
export const UNSIGNED_HEADER_BYTES = 1 + 32 + 1 + 2 + 32 + 32 + 4 + 1 + 8 + 4
export const HEADER_BYTES = UNSIGNED_HEADER_BYTES + SIGNATURE_BYTES
/** §5.1: the flags; every other bit is 0. */
export const FLAG = { stop: 1, claim: 2, end: 4, outage: 8 } as const
const KNOWN_FLAGS = FLAG.stop | FLAG.claim | FLAG.end | FLAG.outage
/** u16 seq: 0 is the hello, which the genesis carries. */
export const MAX_SEQ = 0xffff

const RULE = 'NOTARY.md §3.2'

/** A two-player game's author byte: 0 (A) or 1 (B). */
export type Side = 0 | 1

/**
 * `S` is the author's type: a side by default (two-player code, unchanged), `number` for a header
 * decoded in the n-player layout (a roster index 0..15).
 */
export interface UnsignedHeader<S extends number = Side> {
  readonly game: Uint8Array
  /** The author: 0 (A) or 1 (B) in two-player games, a roster index 0..15 in n-player ones. */
  readonly sender: S
  readonly seq: number
  readonly envelopeHash: Uint8Array
  readonly depositHash: Uint8Array
  readonly depositBytes: number
  readonly flags: number
  /** The claimed deadline `D` (PROTOCOL-4.md §4.2); 0 unless the claim flag is set. */
  readonly deadline: number
  /** The last receipt index the claimant holds; 0 unless the claim flag is set. */
  readonly seen: number
}

export interface SubmissionHeader<S extends number = Side> extends UnsignedHeader<S> {
  readonly sig: Uint8Array
}

export const isClaim = (h: UnsignedHeader<number>): boolean => (h.flags & FLAG.claim) !== 0

/** The rules of NOTARY.md §3.2 on values, for encoder and decoder alike; undefined when they hold. */
function problem(h: UnsignedHeader<number>, layout: NotaryLayout): { field: string; message: string } | undefined {
  if (h.game.length !== HASH_BYTES) return { field: 'game', message: 'a game id is 32 bytes' }
  if (!Number.isInteger(h.sender) || h.sender < 0 || h.sender > layout.maxAuthor)
    return { field: 'sender', message: `0..${layout.maxAuthor}` }
  if (!Number.isInteger(h.seq) || h.seq < 1 || h.seq > MAX_SEQ) return { field: 'seq', message: `1..${MAX_SEQ}` }
  if (h.envelopeHash.length !== HASH_BYTES) return { field: 'envelopeHash', message: '32 bytes' }
  if (h.depositHash.length !== HASH_BYTES) return { field: 'depositHash', message: '32 bytes' }
  if (layout.gameFlags) {
    // SPAAACE-WITNESSED §5.1: the decoder checks the size class (some w 1..16); the game, DEP(n).
    if (!isDepositSize(h.depositBytes, 'any'))
      return { field: 'depositBytes', message: `${h.depositBytes} is not 80·w + a padded power of two + 16` }
    // §5.1, §9.2: flags, deadline and seen are the game's to judge (refusal 27), not the decoder's.
    if (!Number.isInteger(h.flags) || h.flags < 0 || h.flags > 0xff) return { field: 'flags', message: 'a u8' }
    if (!Number.isInteger(h.deadline) || h.deadline < 0 || h.deadline > MAX_TIME)
      return { field: 'deadline', message: `0..${MAX_TIME}` }
    if (!Number.isInteger(h.seen) || h.seen < 0 || h.seen > 0xffffffff) return { field: 'seen', message: 'a u32' }
    return undefined
  }
  if (!isDepositSize(h.depositBytes))
    return { field: 'depositBytes', message: `${h.depositBytes} is not 160 + a padded power of two + 16` }
  if ((h.flags & ~KNOWN_FLAGS) !== 0 || h.flags > 0xff) return { field: 'flags', message: 'bits 4 to 7 are 0' }
  const stop = (h.flags & FLAG.stop) !== 0
  if ((h.flags & (FLAG.claim | FLAG.outage)) !== 0 && !stop)
    return { field: 'flags', message: 'a claim or an outage is a stop (bit 0 set)' }
  if ((h.flags & FLAG.claim) !== 0 && (h.flags & FLAG.outage) !== 0)
    return { field: 'flags', message: 'a stop is a claim or an outage, not both' }
  if (!isClaim(h) && (h.deadline !== 0 || h.seen !== 0))
    return { field: h.deadline !== 0 ? 'deadline' : 'seen', message: '0 unless the claim flag is set' }
  if (!Number.isInteger(h.deadline) || h.deadline < 0 || h.deadline > MAX_TIME)
    return { field: 'deadline', message: `0..${MAX_TIME}` }
  if (!Number.isInteger(h.seen) || h.seen < 0 || h.seen > 0xffffffff) return { field: 'seen', message: 'a u32' }
  return undefined
}

export function encodeUnsignedHeader(h: UnsignedHeader<number>, layout: NotaryLayout = TWO_PLAYER_LAYOUT): Uint8Array {
  const p = problem(h, layout)
  if (p !== undefined) throw new RangeError(`header.${p.field}: ${p.message} (${RULE})`)
  const w = new Writer().u8(HEADER_KIND).bytes(h.game).u8(h.sender).u16(h.seq)
  w.bytes(h.envelopeHash).bytes(h.depositHash).u32(h.depositBytes).u8(h.flags)
  return writeU64(w, h.deadline).u32(h.seen).finish()
}

export function encodeHeader(h: SubmissionHeader<number>, layout: NotaryLayout = TWO_PLAYER_LAYOUT): Uint8Array {
  if (h.sig.length !== SIGNATURE_BYTES) throw new RangeError(`header.sig: 64 bytes (${RULE})`)
  return concatBytes(encodeUnsignedHeader(h, layout), h.sig)
}

/** Reads one header from `r` (inside a receipt or a request); a decode failure names `at`. */
export function readHeader(r: Reader, at?: string): SubmissionHeader
export function readHeader(r: Reader, at: string, layout: NotaryLayout): SubmissionHeader<number>
export function readHeader(
  r: Reader,
  at = 'header',
  layout: NotaryLayout = TWO_PLAYER_LAYOUT,
): SubmissionHeader<number> {
  r.range(`${at}.kind`, RULE, r.u8(`${at}.kind`, RULE), HEADER_KIND, HEADER_KIND)
  const game = r.bytes(HASH_BYTES, `${at}.game`, RULE)
  const sender = r.range(`${at}.sender`, RULE, r.u8(`${at}.sender`, RULE), 0, layout.maxAuthor)
  const seq = r.u16(`${at}.seq`, RULE)
  const envelopeHash = r.bytes(HASH_BYTES, `${at}.envelopeHash`, RULE)
  const depositHash = r.bytes(HASH_BYTES, `${at}.depositHash`, RULE)
  const depositBytes = r.u32(`${at}.depositBytes`, RULE)
  const flags = r.u8(`${at}.flags`, RULE)
  const deadline = readU64(r, `${at}.deadline`, RULE)
  const seen = r.u32(`${at}.seen`, RULE)
  const sig = r.bytes(SIGNATURE_BYTES, `${at}.sig`, RULE)
  const h = { game, sender, seq, envelopeHash, depositHash, depositBytes, flags, deadline, seen, sig }
  const p = problem(h, layout)
  if (p !== undefined) fail(p.field === 'flags' ? 'field.format' : 'field.range', `${at}.${p.field}`, RULE, p.message)
  return h
}

export function decodeHeader(bytes: Uint8Array): Decoded<SubmissionHeader>
export function decodeHeader(bytes: Uint8Array, layout: NotaryLayout): Decoded<SubmissionHeader<number>>
export function decodeHeader(
  bytes: Uint8Array,
  layout: NotaryLayout = TWO_PLAYER_LAYOUT,
): Decoded<SubmissionHeader<number>> {
  return decoded(() => {
    const r = new Reader(bytes)
    const h = readHeader(r, 'header', layout)
    r.end('header', RULE)
    return h
  })
}

function signedBytes(domain: NotaryDomain, h: UnsignedHeader<number>): Uint8Array {
  return concatBytes(tag(domain.submission), encodeUnsignedHeader(h, layoutOf(domain)))
}

export function signHeader<S extends number = Side>(
  domain: NotaryDomain,
  keys: KeyPair,
  h: UnsignedHeader<S>,
): SubmissionHeader<S> {
  return { ...h, sig: sign(keys, signedBytes(domain, h)) }
}

/** §5.1, SPEC §5.2: the header's signature under the sender's hello key (usable, or false). */
export function headerSignatureValid(
  domain: NotaryDomain,
  h: SubmissionHeader<number>,
  senderKey: Uint8Array,
): boolean {
  if (publicKeyProblem(senderKey) !== undefined) return false
  return verifySignature(senderKey, signedBytes(domain, h), h.sig)
}
