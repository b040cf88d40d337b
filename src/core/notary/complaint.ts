/**
 * Complaints (PROTOCOL-4.md §5.3, NOTARY.md §5): a recipient whose deposit does not open proves
 * what its wrap's Diffie-Hellman value is, so that anyone can see the deposit does not open.
 *
 *   complaint = u8 kind (2) ‖ game[32] ‖ u8 sender ‖ u32 index ‖ dh[32] ‖ proof[96] ‖ sig[64]
 *
 * `sender` is the complainant (it signs), `index` the receipt of the header complained of, `dh` the
 * Edwards encoding of `Q = a·P` (NOTARY.md §5.2), `proof = R1 ‖ R2 ‖ z`; signed over
 * `tag(complaint) ‖ complaint without sig`. SPAAACE-WITNESSED §5.3: in the n-player layout the
 * byte is the complainant's roster index (0..15 at decoding) and the proof is for the wrap `for` =
 * that index; the property keeps the name `sender`.
 */
import { concatBytes, constantTimeEqual } from '../commit/bytes.js'
import { HASH_BYTES, tag } from '../commit/hash.js'
import { type KeyPair, SIGNATURE_BYTES, publicKeyProblem, sign, verifySignature } from '../commit/keys.js'
import { Reader, Writer, decoded, fail } from '../wire/binary.js'
import type { Decoded } from '../wire/errors.js'
import {
  type PaddingFloor,
  depositHash,
  depositParts,
  depositWraps,
  openDepositWithDh,
  openWrapWithDh,
  wrapsOfSize,
} from './deposit.js'
import {
  type NotaryDomain,
  type NotaryLayout,
  type NotaryResult,
  TWO_PLAYER_LAYOUT,
  accepted,
  layoutOf,
  refused,
} from './domain.js'
import type { Side, SubmissionHeader } from './header.js'
import { PROOF_BYTES, proveDh, verifyDhProof } from './proof.js'

export const COMPLAINT_KIND = 2
export const UNSIGNED_COMPLAINT_BYTES = 1 + 32 + 1 + 4 + 32 + PROOF_BYTES
export const COMPLAINT_BYTES = UNSIGNED_COMPLAINT_BYTES + SIGNATURE_BYTES
const RULE = 'NOTARY.md §5.1'

/** `S` as for headers (header.ts): a side by default, `number` in the n-player layout. */
export interface UnsignedComplaint<S extends number = Side> {
  readonly game: Uint8Array
  /** The complainant, 0 (A) or 1 (B): the header's recipient; in n-player games a roster index. */
  readonly sender: S
  /** The index of the envelope receipt complained of. */
  readonly index: number
  /** `Q`'s Edwards encoding. */
  readonly dh: Uint8Array
  readonly proof: Uint8Array
}

export interface Complaint<S extends number = Side> extends UnsignedComplaint<S> {
  readonly sig: Uint8Array
}

export function encodeUnsignedComplaint(
  c: UnsignedComplaint<number>,
  layout: NotaryLayout = TWO_PLAYER_LAYOUT,
): Uint8Array {
  if (!Number.isInteger(c.sender) || c.sender < 0 || c.sender > layout.maxAuthor)
    throw new RangeError(`complaint.sender: 0..${layout.maxAuthor} (${RULE})`)
  if (c.game.length !== HASH_BYTES || c.dh.length !== 32 || c.proof.length !== PROOF_BYTES)
    throw new RangeError(`complaint: game 32, dh 32, proof 96 bytes (${RULE})`)
  if (!Number.isInteger(c.index) || c.index < 1 || c.index > 0xffffffff)
    throw new RangeError(`complaint.index: 1..2^32-1 (${RULE})`)
  return new Writer().u8(COMPLAINT_KIND).bytes(c.game).u8(c.sender).u32(c.index).bytes(c.dh).bytes(c.proof).finish()
}

export function encodeComplaint(c: Complaint<number>, layout: NotaryLayout = TWO_PLAYER_LAYOUT): Uint8Array {
  if (c.sig.length !== SIGNATURE_BYTES) throw new RangeError(`complaint.sig: 64 bytes (${RULE})`)
  return concatBytes(encodeUnsignedComplaint(c, layout), c.sig)
}

export function readComplaint(r: Reader, at?: string): Complaint
export function readComplaint(r: Reader, at: string, layout: NotaryLayout): Complaint<number>
export function readComplaint(
  r: Reader,
  at = 'complaint',
  layout: NotaryLayout = TWO_PLAYER_LAYOUT,
): Complaint<number> {
  r.range(`${at}.kind`, RULE, r.u8(`${at}.kind`, RULE), COMPLAINT_KIND, COMPLAINT_KIND)
  const game = r.bytes(HASH_BYTES, `${at}.game`, RULE)
  const sender = r.range(`${at}.sender`, RULE, r.u8(`${at}.sender`, RULE), 0, layout.maxAuthor)
  const index = r.u32(`${at}.index`, RULE)
  // Receipt 0 is the genesis, never an envelope receipt.
  if (index === 0) fail('field.range', `${at}.index`, RULE, 'receipt 0 is the genesis')
  const dh = r.bytes(32, `${at}.dh`, RULE)
  const proof = r.bytes(PROOF_BYTES, `${at}.proof`, RULE)
  const sig = r.bytes(SIGNATURE_BYTES, `${at}.sig`, RULE)
  return { game, sender, index, dh, proof, sig }
}

export function decodeComplaint(bytes: Uint8Array): Decoded<Complaint>
export function decodeComplaint(bytes: Uint8Array, layout: NotaryLayout): Decoded<Complaint<number>>
export function decodeComplaint(
  bytes: Uint8Array,
  layout: NotaryLayout = TWO_PLAYER_LAYOUT,
): Decoded<Complaint<number>> {
  return decoded(() => {
    const r = new Reader(bytes)
    const c = readComplaint(r, 'complaint', layout)
    r.end('complaint', RULE)
    return c
  })
}

function signedBytes(domain: NotaryDomain, c: UnsignedComplaint<number>): Uint8Array {
  return concatBytes(tag(domain.complaint), encodeUnsignedComplaint(c, layoutOf(domain)))
}

export function complaintSignatureValid(
  domain: NotaryDomain,
  c: Complaint<number>,
  complainantKey: Uint8Array,
): boolean {
  if (publicKeyProblem(complainantKey) !== undefined) return false
  return verifySignature(complainantKey, signedBytes(domain, c), c.sig)
}

/**
 * A signed complaint about the deposit of envelope receipt `index`: the proof of `dh` for the
 * recipient's wrap (for 0), made with the complainant's seed.
 */
export function makeComplaint<S extends number = Side>(
  domain: NotaryDomain,
  keys: KeyPair,
  o: {
    readonly game: Uint8Array
    readonly sender: S
    readonly index: number
    readonly deposit: Uint8Array
  },
): NotaryResult<Complaint<S>> {
  const enc = complainedWrap(domain, o.deposit, o.sender)
  if (!enc.ok) return enc
  const p = proveDh(domain, keys.secretKey, enc.value)
  if (!p.ok) return p
  const unsigned = { game: o.game, sender: o.sender, index: o.index, dh: p.value.q, proof: p.value.proof }
  return accepted({ ...unsigned, sig: sign(keys, signedBytes(domain, unsigned)) })
}

/**
 * The `enc` of the wrap a complaint is about: the recipient's (for 0) in two-player games, the
 * complainant's own (`for` = its roster index) in n-player ones (SPAAACE-WITNESSED §5.3).
 */
function complainedWrap(domain: NotaryDomain, deposit: Uint8Array, complainant: number): NotaryResult<Uint8Array> {
  if (!layoutOf(domain).wrapsByRoster) {
    const parts = depositParts(deposit)
    return parts.ok ? accepted(parts.value.wraps[0].enc) : parts
  }
  const w = wrapsOfSize(deposit.length) ?? 0
  const parts = depositWraps(deposit, w)
  if (!parts.ok) return parts
  const wrap = parts.value.wraps[complainant]
  if (wrap === undefined)
    return refused('complaint.place', 'complaint.sender', RULE, `no wrap for ${complainant} in ${w} wraps`)
  return accepted(wrap.enc)
}

export interface JudgeComplaintOptions {
  readonly domain: NotaryDomain
  readonly complaint: Complaint<number>
  /** The header of receipt `complaint.index`, and the deposit it names. */
  readonly header: SubmissionHeader<number>
  readonly deposit: Uint8Array
  /** The complainant's hello key. */
  readonly complainantKey: Uint8Array
  /** The game's padding floor and its test of an opened envelope (PROTOCOL-4.md §5.3). */
  readonly floor: PaddingFloor
  // A method (bivariant): a two-player game's test takes a side's header.
  envelopeMatches(envelope: Uint8Array, header: SubmissionHeader<number>): boolean
  /**
   * SPAAACE-WITNESSED §5.2 step 1: the wraps every deposit of the game has (`n`); a deposit of
   * another size does not open (it holds). Only read in the n-player layout.
   */
  readonly wraps?: number
}

/**
 * NOTARY.md §5.3: a complaint holds iff it names a header of the other side in this game, its
 * deposit is the header's, the proof of `dh` holds, and the deposit then does not open as its
 * header says. Returns why it does not open (the offence false-deposit), or why the complaint fails.
 * The complainant's signature is checked by the caller (it needs the hello key anyway).
 */
export function judgeComplaint(o: JudgeComplaintOptions): NotaryResult<string> {
  const { complaint: c, header: h } = o
  if (!constantTimeEqual(c.game, h.game)) return refused('complaint.place', 'complaint.game', RULE, 'another game')
  if (c.sender === h.sender)
    return refused('complaint.place', 'complaint.sender', RULE, 'a complaint about its own envelope')
  if (o.deposit.length !== h.depositBytes || !constantTimeEqual(depositHash(o.domain, o.deposit), h.depositHash))
    return refused('complaint.deposit', 'deposit', RULE, 'not the deposit the header names')
  const enc = complainedWrap(o.domain, o.deposit, c.sender)
  if (!enc.ok) return enc
  const dh = verifyDhProof(o.domain, o.complainantKey, enc.value, c.dh, c.proof)
  if (!dh.ok) return dh
  const place = { game: h.game, sender: h.sender, seq: h.seq, envelopeHash: h.envelopeHash }
  const open = { domain: o.domain, place, floor: o.floor }
  const w = wrapsOfSize(o.deposit.length)
  if (layoutOf(o.domain).wrapsByRoster && o.wraps !== undefined && w !== o.wraps)
    return accepted(`deposit.size: ${w ?? 0} wraps, the game's deposits have ${o.wraps}`)
  const opened = layoutOf(o.domain).wrapsByRoster
    ? openWrapWithDh(o.deposit, wrapsOfSize(o.deposit.length) ?? 0, c.sender, o.complainantKey, dh.value, open)
    : openDepositWithDh(o.deposit, o.complainantKey, dh.value, open)
  if (!opened.ok) return accepted(`${opened.error.code}: ${opened.error.message}`)
  if (!o.envelopeMatches(opened.value, h))
    return accepted('the deposit opens to bytes that are not the envelope of the game at its sender, seq and hash')
  return refused('complaint.opens', 'deposit', RULE, 'the deposit opens as its header says')
}
