/**
 * Receipts (PROTOCOL-4.md §4.1, NOTARY.md §3.1): the notary's signed, hash-chained log of a game.
 *
 *   receipt = u8 0x84 ‖ u8 kind ‖ game[32] ‖ u32 index ‖ prev[32] ‖ u64 time ‖ body ‖ notarySig[64]
 *
 * Bodies: genesis (0) `u32 n ‖ helloA[n] ‖ u32 m ‖ helloB[m]` (NOTARY.md §3.1: each hello after its
 * length), envelope (1) a submission header, complaint (2) a complaint then `u32 n ‖ deposit[n]`
 * (§5.3: a complaint receipt carries the deposit), seal (3) empty, claim (4) a claim request
 * (PROTOCOL-4.md §4.4), and in the n-player layout (SPAAACE-WITNESSED §6.1) mark (5)
 * `u16 t ‖ u8 cut` and a genesis body the game's codec reads (`genesis-body`, kind byte 0). `prev` =
 * `H(tag(receipt-hash) ‖ receipt i-1 without its signature)`, zero for index 0; the notary signs
 * `tag(receipt) ‖ the receipt without its signature`.
 */
import { concatBytes, constantTimeEqual } from '../commit/bytes.js'
import { HASH_BYTES, tag, taggedHash } from '../commit/hash.js'
import { type KeyPair, SIGNATURE_BYTES, publicKeyProblem, sign, verifySignature } from '../commit/keys.js'
import { Reader, Writer, decoded, fail } from '../wire/binary.js'
import type { Decoded } from '../wire/errors.js'
import { CLAIM_BYTES, type Claim, encodeClaim, readClaim } from './claim.js'
import { type Complaint, encodeComplaint, readComplaint, COMPLAINT_BYTES } from './complaint.js'
import { MAX_DEPOSIT_BYTES, isDepositSize } from './deposit.js'
import { type NotaryDomain, type NotaryLayout, TWO_PLAYER_LAYOUT, layoutOf } from './domain.js'
import { MAX_TIME, readU64, writeU64 } from './fields.js'
import { HEADER_BYTES, type Side, type SubmissionHeader, encodeHeader, readHeader } from './header.js'

export const RECEIPT_MAGIC = 0x84
export const RECEIPT_KIND = { genesis: 0, envelope: 1, complaint: 2, seal: 3, claim: 4 } as const
/** SPAAACE-WITNESSED §6.1: the mark receipt's kind byte (n-player layout only). */
export const MARK_KIND = 5
/** The kind byte of each body (a genesis body read by the game's codec is kind 0 as well). */
const KIND_BYTE = { ...RECEIPT_KIND, 'genesis-body': 0, mark: MARK_KIND } as const
export type ReceiptKind = keyof typeof RECEIPT_KIND
/** SPAAACE-WITNESSED §6.1: a mark's `cut`: 0 is `C_t`, 1 is `R_t`. */
export const MARK_CUTS = { commit: 0, reveal: 1 } as const
/** SPAAACE-WITNESSED §6.1: the bytes of a mark receipt's body. */
export const MARK_BODY_BYTES = 3
/** NOTARY.md §3.1: the largest hello a genesis carries (a hello is one envelope, far smaller). */
export const MAX_HELLO_BYTES = 65_536
/** The fixed part before the body: magic, kind, game, index, prev, time. */
export const RECEIPT_HEAD_BYTES = 1 + 1 + 32 + 4 + 32 + 8
/** NOTARY.md §3.1: the largest receipt (a complaint receipt with the largest deposit). */
export const MAX_RECEIPT_BYTES = RECEIPT_HEAD_BYTES + COMPLAINT_BYTES + 4 + MAX_DEPOSIT_BYTES + SIGNATURE_BYTES
const RULE = 'NOTARY.md §3.1'
const ZERO_HASH = new Uint8Array(HASH_BYTES)

/** `S`: the author's type of headers and complaints (a side by default, header.ts). */
export type ReceiptBody<S extends number = Side> =
  | { readonly kind: 'genesis'; readonly helloA: Uint8Array; readonly helloB: Uint8Array }
  /** SPAAACE-WITNESSED §3: the genesis body of an n-player game, as the game's codec cut it. */
  | { readonly kind: 'genesis-body'; readonly body: Uint8Array }
  /** SPAAACE-WITNESSED §6.2: the notary's time is past cut `cut` of tick `t`. */
  | { readonly kind: 'mark'; readonly t: number; readonly cut: 0 | 1 }
  | { readonly kind: 'envelope'; readonly header: SubmissionHeader<S> }
  | { readonly kind: 'complaint'; readonly complaint: Complaint<S>; readonly deposit: Uint8Array }
  | { readonly kind: 'seal' }
  | { readonly kind: 'claim'; readonly claim: Claim }

export type UnsignedReceipt<S extends number = Side> = {
  readonly game: Uint8Array
  readonly index: number
  readonly prev: Uint8Array
  readonly time: number
} & ReceiptBody<S>

/** A decoded receipt, with its bytes (what is stored, hashed and compared). */
export type Receipt<S extends number = Side> = UnsignedReceipt<S> & {
  readonly sig: Uint8Array
  readonly bytes: Uint8Array
}

function writeBody(w: Writer, r: UnsignedReceipt<number>, layout: NotaryLayout): void {
  switch (r.kind) {
    case 'genesis':
      w.u32(r.helloA.length).bytes(r.helloA).u32(r.helloB.length).bytes(r.helloB)
      return
    case 'genesis-body':
      w.bytes(r.body)
      return
    case 'mark':
      if (!Number.isInteger(r.t) || r.t < 1 || r.t > 0xffff || ![0, 1].includes(r.cut))
        throw new RangeError(`receipt.mark: t 1..65535, cut 0 or 1 (SPAAACE-WITNESSED §6.1)`)
      w.u16(r.t).u8(r.cut)
      return
    case 'envelope':
      w.bytes(encodeHeader(r.header, layout))
      return
    case 'complaint':
      w.bytes(encodeComplaint(r.complaint, layout)).u32(r.deposit.length).bytes(r.deposit)
      return
    case 'seal':
      return
    case 'claim':
      w.bytes(encodeClaim(r.claim))
      return
  }
}

export function encodeUnsignedReceipt(
  r: UnsignedReceipt<number>,
  layout: NotaryLayout = TWO_PLAYER_LAYOUT,
): Uint8Array {
  if (r.game.length !== HASH_BYTES || r.prev.length !== HASH_BYTES)
    throw new RangeError(`receipt: game and prev are 32 bytes (${RULE})`)
  if (!Number.isInteger(r.time) || r.time < 0 || r.time > MAX_TIME)
    throw new RangeError(`receipt.time: 0..2^53-1 (${RULE})`)
  if ((r.kind === 'mark' || r.kind === 'genesis-body') && layout.maxKind < MARK_KIND)
    throw new RangeError(`receipt.kind: ${r.kind} is not of the two-player layout (${RULE})`)
  const w = new Writer().u8(RECEIPT_MAGIC).u8(KIND_BYTE[r.kind]).bytes(r.game).u32(r.index).bytes(r.prev)
  writeU64(w, r.time)
  writeBody(w, r, layout)
  return w.finish()
}

function readHello(r: Reader, field: string): Uint8Array {
  const n = r.u32(`${field}.length`, RULE)
  if (n < 1 || n > MAX_HELLO_BYTES)
    fail('field.range', `${field}.length`, RULE, `expected 1..${MAX_HELLO_BYTES}, got ${n}`)
  return r.bytes(n, field, RULE)
}

function readBody(r: Reader, kind: number, game: Uint8Array, layout: NotaryLayout): ReceiptBody<number> {
  switch (kind) {
    case RECEIPT_KIND.genesis:
      if (layout.genesisBody !== undefined) return { kind: 'genesis-body', body: layout.genesisBody(r) }
      return { kind: 'genesis', helloA: readHello(r, 'body.helloA'), helloB: readHello(r, 'body.helloB') }
    case MARK_KIND: {
      const rule = 'SPAAACE-WITNESSED §6.1'
      const t = r.range('body.t', rule, r.u16('body.t', rule), 1, 0xffff)
      const cut = r.range('body.cut', rule, r.u8('body.cut', rule), 0, 1) as 0 | 1
      return { kind: 'mark', t, cut }
    }
    case RECEIPT_KIND.envelope: {
      const header = readHeader(r, 'body.header', layout)
      if (!constantTimeEqual(header.game, game))
        fail('field.format', 'body.header.game', RULE, "not the receipt's game")
      return { kind: 'envelope', header }
    }
    case RECEIPT_KIND.complaint: {
      const complaint = readComplaint(r, 'body.complaint', layout)
      if (!constantTimeEqual(complaint.game, game))
        fail('field.format', 'body.complaint.game', RULE, "not the receipt's game")
      const n = r.u32('body.deposit.length', RULE)
      if (!isDepositSize(n, layout.wrapsByRoster ? 'any' : 2))
        fail('field.range', 'body.deposit.length', RULE, `${n} is not a deposit size`)
      return { kind: 'complaint', complaint, deposit: r.bytes(n, 'body.deposit', RULE) }
    }
    case RECEIPT_KIND.claim: {
      const claim = readClaim(r, 'body.claim')
      if (!constantTimeEqual(claim.game, game)) fail('field.format', 'body.claim.game', RULE, "not the receipt's game")
      return { kind: 'claim', claim }
    }
    default:
      return { kind: 'seal' }
  }
}

/** Decodes a receipt strictly (NOTARY.md §3.1); the notary's signature is checked apart. */
export function decodeReceipt(bytes: Uint8Array): Decoded<Receipt>
export function decodeReceipt(bytes: Uint8Array, layout: NotaryLayout): Decoded<Receipt<number>>
export function decodeReceipt(bytes: Uint8Array, layout: NotaryLayout = TWO_PLAYER_LAYOUT): Decoded<Receipt<number>> {
  return decoded(() => {
    if (bytes.length > MAX_RECEIPT_BYTES) fail('wire.too-large', 'receipt', RULE, `at most ${MAX_RECEIPT_BYTES} bytes`)
    const r = new Reader(bytes)
    r.range('magic', RULE, r.u8('magic', RULE), RECEIPT_MAGIC, RECEIPT_MAGIC)
    const kind = r.range('kind', RULE, r.u8('kind', RULE), 0, layout.maxKind)
    const game = r.bytes(HASH_BYTES, 'game', RULE)
    const index = r.u32('index', RULE)
    if ((index === 0) !== (kind === RECEIPT_KIND.genesis))
      fail('field.range', 'index', RULE, 'the genesis is receipt 0, and receipt 0 is the genesis')
    const prev = r.bytes(HASH_BYTES, 'prev', RULE)
    if (constantTimeEqual(prev, ZERO_HASH) !== (index === 0))
      fail('field.format', 'prev', RULE, 'zero at index 0 and only there')
    const time = readU64(r, 'time', RULE)
    const body = readBody(r, kind, game, layout)
    const sig = r.bytes(SIGNATURE_BYTES, 'notarySig', RULE)
    r.end('receipt', RULE)
    return { game, index, prev, time, ...body, sig, bytes: bytes.slice() }
  })
}

/** The receipt's bytes without the signature. */
export function unsignedPart(bytes: Uint8Array): Uint8Array {
  return bytes.subarray(0, bytes.length - SIGNATURE_BYTES)
}

/** §4.1: the `prev` the next receipt names. */
export function receiptHash(domain: NotaryDomain, receiptBytes: Uint8Array): Uint8Array {
  return taggedHash(domain.receiptHash, unsignedPart(receiptBytes))
}

/** Signs an unsigned receipt: the receipt's bytes. */
export function signReceipt(domain: NotaryDomain, notary: KeyPair, r: UnsignedReceipt<number>): Uint8Array {
  const unsigned = encodeUnsignedReceipt(r, layoutOf(domain))
  return concatBytes(unsigned, sign(notary, concatBytes(tag(domain.receipt), unsigned)))
}

export function receiptSignatureValid(domain: NotaryDomain, r: Receipt<number>, notaryKey: Uint8Array): boolean {
  if (publicKeyProblem(notaryKey) !== undefined) return false
  return verifySignature(notaryKey, concatBytes(tag(domain.receipt), unsignedPart(r.bytes)), r.sig)
}

/** Where a receipt's `index` lies (after magic, kind and game), whatever its body: SPAAACE-WITNESSED §6.3 reads it from bytes that do not decode. */
const INDEX_AT = 1 + 1 + HASH_BYTES

/**
 * SPAAACE-WITNESSED §6.3 item 4, `receipt-invalid`: whether `bytes` are signed by the notary as a
 * receipt of `game` (magic, the game at its place, the fixed head and a signature present, the last
 * 64 bytes a valid notary signature over the rest under the receipt tag), read without decoding the
 * body; its `index` (u32 at bytes 34..37) when they are, else undefined. A notary signs only what
 * it encoded, so such bytes that do not decode, or whose player signature fails, are its fault.
 */
export function notarySignedIndex(
  domain: NotaryDomain,
  bytes: Uint8Array,
  game: Uint8Array,
  notaryKey: Uint8Array,
): number | undefined {
  if (bytes.length < RECEIPT_HEAD_BYTES + SIGNATURE_BYTES || bytes[0] !== RECEIPT_MAGIC) return undefined
  if (game.length !== HASH_BYTES || !constantTimeEqual(bytes.subarray(2, 2 + HASH_BYTES), game)) return undefined
  if (publicKeyProblem(notaryKey) !== undefined) return undefined
  const cut = bytes.length - SIGNATURE_BYTES
  if (!verifySignature(notaryKey, concatBytes(tag(domain.receipt), bytes.subarray(0, cut)), bytes.subarray(cut)))
    return undefined
  return new DataView(bytes.buffer, bytes.byteOffset + INDEX_AT, 4).getUint32(0)
}

/** Bytes of an envelope receipt's body, to size a log (a header is fixed-size). */
export const ENVELOPE_RECEIPT_BYTES = RECEIPT_HEAD_BYTES + HEADER_BYTES + SIGNATURE_BYTES
/** Bytes of a claim receipt (a claim request is fixed-size), to count what the notary holds. */
export const CLAIM_RECEIPT_BYTES = RECEIPT_HEAD_BYTES + CLAIM_BYTES + SIGNATURE_BYTES
