/**
 * protocol/SPAAACE-PEERS.md §4.1: the envelope, its hash and its signature.
 *
 * `envelope = u8 version (1) ‖ u8 author ‖ u16 seq ‖ game[32] ‖ prev[32] ‖ u8 h ‖ head × h
 * ‖ u8 count (1..8) ‖ part × count ‖ sig[64]`, `head = u8 author ‖ u16 seq ‖ hash[32]`.
 *
 * The header (the first 68 bytes) and the signature (the last 64) are read apart from the body
 * (heads and parts): an envelope whose header decodes and authenticates but whose body does not
 * is a protocol violation naming only its `prev` (§4.1, §9 (i)), so `readEnvelope` gives the
 * header and the body's own result. Every failure is a coded error; nothing here throws on
 * hostile bytes.
 */
import { toBase64url } from '../../../core/commit/bytes.js'
import { HASH_BYTES, tag, taggedHash } from '../../../core/commit/hash.js'
import { type KeyPair, sign, verifySignature } from '../../../core/commit/keys.js'
import { Reader, Writer, decoded, fail } from '../../../core/wire/binary.js'
import { type Decoded, type ProtocolError, protocolError } from '../../../core/wire/errors.js'
import {
  HEADER_BYTES,
  MAX_ENVELOPE,
  MAX_PARTS,
  MAX_PLAYERS,
  MIN_PARTS,
  PEERS_DOMAIN,
  PEERS_VERSION,
  SIGNATURE_BYTES,
} from './domain.js'
import { type ForkPart, type Part, compareBytes, readParts, writePart } from './parts.js'

/** §4.1: the header: what an envelope says of itself whether or not its body decodes. */
export interface Header {
  readonly version: typeof PEERS_VERSION
  /** A roster index. */
  readonly author: number
  /** The author's envelopes counted from 0. */
  readonly seq: number
  /** The game id `G` (§3.1). */
  readonly game: Uint8Array
  /** `G` at `seq = 0` (BD-6), else the hash of the author's envelope `seq − 1`. */
  readonly prev: Uint8Array
}

/** §4.1: an envelope of another author that the signer holds. */
export interface Head {
  readonly author: number
  readonly seq: number
  readonly hash: Uint8Array
}

/** §4.1: heads in ascending author order, none for the signer; parts as §4.2 orders them. */
export interface Body {
  readonly heads: readonly Head[]
  readonly parts: readonly Part[]
}

export interface Envelope extends Header, Body {
  readonly sig: Uint8Array
}

/** An envelope to sign: everything but the version (always 1) and the signature. */
export type Unsigned = Omit<Envelope, 'sig' | 'version'>

/** An envelope with its exact bytes and its identity (§4.1: the hash). */
export interface SealedEnvelope {
  readonly envelope: Envelope
  /** The whole envelope, signature included (what a transcript line holds). */
  readonly bytes: Uint8Array
  /** §4.1: `H(tag("spaaace/1/envelope-hash") ‖ U)`. */
  readonly hash: Uint8Array
  /** `hash` in base64url. */
  readonly id: string
}

/** What the caller knows of the game: its players (author and named authors below it) and its id. */
export interface EnvelopeContext {
  readonly players?: number
  readonly game?: Uint8Array
}

/** A header read with its signature and identity, and the body's own result (§4.1, §9 (i)). */
export interface ReadEnvelope {
  readonly header: Header
  readonly sig: Uint8Array
  readonly bytes: Uint8Array
  readonly hash: Uint8Array
  readonly id: string
  readonly body: Decoded<Body>
}

const RULE = '§4.1'
const SIGNING_TAG = tag(PEERS_DOMAIN.envelope)

/** §4.1: `U`, the envelope without `sig`. */
export function encodeUnsigned(u: Unsigned): Uint8Array {
  const w = new Writer()
  w.u8(PEERS_VERSION).u8(u.author).u16(u.seq).bytes(u.game).bytes(u.prev)
  w.u8(u.heads.length)
  for (const h of u.heads) w.u8(h.author).u16(h.seq).bytes(h.hash)
  w.u8(u.parts.length)
  for (const p of u.parts) writePart(w, p)
  return w.finish()
}

/** §4.1: the signed message, `tag("spaaace/1/envelope") ‖ U`. */
export function signingMessage(unsigned: Uint8Array): Uint8Array {
  const out = new Uint8Array(SIGNING_TAG.length + unsigned.length)
  out.set(SIGNING_TAG, 0)
  out.set(unsigned, SIGNING_TAG.length)
  return out
}

/** §4.1: the envelope's hash, its identity. */
export function envelopeHash(unsigned: Uint8Array): Uint8Array {
  return taggedHash(PEERS_DOMAIN.envelopeHash, unsigned)
}

function sealed(envelope: Envelope, unsigned: Uint8Array): SealedEnvelope {
  const bytes = new Uint8Array(unsigned.length + SIGNATURE_BYTES)
  bytes.set(unsigned, 0)
  bytes.set(envelope.sig, unsigned.length)
  const hash = envelopeHash(unsigned)
  return { envelope, bytes, hash, id: toBase64url(hash) }
}

/** Encodes and signs an envelope (the caller gives a valid one: `decodeEnvelope` of the result succeeds). */
export function sealEnvelope(keys: KeyPair, u: Unsigned): SealedEnvelope {
  const unsigned = encodeUnsigned(u)
  return sealed({ ...u, version: PEERS_VERSION, sig: sign(keys, signingMessage(unsigned)) }, unsigned)
}

/** The same envelope with another signature (tests of forged and malleated signatures). */
export function withSignature(s: SealedEnvelope, sig: Uint8Array): SealedEnvelope {
  return sealed({ ...s.envelope, sig }, encodeUnsigned(s.envelope))
}

/** §4.1, SPEC §5.2: whether the envelope's signature is its author's; `publicKey` must be usable (the genesis checks it). */
export function signatureValid(s: { readonly bytes: Uint8Array }, publicKey: Uint8Array): boolean {
  const cut = s.bytes.length - SIGNATURE_BYTES
  if (cut < HEADER_BYTES) return false
  return verifySignature(publicKey, signingMessage(s.bytes.subarray(0, cut)), s.bytes.subarray(cut))
}

function readHeader(r: Reader, players: number, game: Uint8Array | undefined): Header {
  const version = r.u8('version', RULE)
  if (version !== PEERS_VERSION) fail('wire.version', 'version', RULE, `version ${PEERS_VERSION}, got ${version}`)
  const author = r.range('author', RULE, r.u8('author', RULE), 0, players - 1)
  const seq = r.u16('seq', RULE)
  const g = r.bytes(HASH_BYTES, 'game', RULE)
  if (game !== undefined && compareBytes(g, game) !== 0) fail('field.range', 'game', RULE, 'another game id')
  const prev = r.bytes(HASH_BYTES, 'prev', RULE)
  if (seq === 0 && compareBytes(prev, g) !== 0) fail('field.range', 'prev', RULE, 'prev is the game id at seq 0')
  return { version, author, seq, game: g, prev }
}

function readBody(r: Reader, header: Header, players: number): Body {
  const h = r.count('heads', RULE, 0, players - 1)
  const heads: Head[] = []
  let last = -1
  for (let i = 0; i < h; i++) {
    const at = `heads[${i}]`
    const author = r.range(`${at}.author`, RULE, r.u8(`${at}.author`, RULE), 0, players - 1)
    if (author === header.author) fail('field.range', `${at}.author`, RULE, 'no head for the signer itself')
    if (author <= last) fail('field.order', `${at}.author`, RULE, 'heads in strictly ascending author order')
    last = author
    heads.push({ author, seq: r.u16(`${at}.seq`, RULE), hash: r.bytes(HASH_BYTES, `${at}.hash`, RULE) })
  }
  const count = r.count('parts', RULE, MIN_PARTS, MAX_PARTS)
  const parts = readParts(r, count, header.author, header.seq, players)
  r.end('parts', RULE)
  return { heads, parts }
}

/**
 * §4.1: reads the header, the signature and the identity of an envelope, and its body apart. The
 * result fails only if the header does not decode (the bytes are then no envelope of this game);
 * `body` fails if the heads or parts do not decode (a protocol violation once authenticated, §9 (i)).
 */
export function readEnvelope(bytes: Uint8Array, context: EnvelopeContext = {}): Decoded<ReadEnvelope> {
  const players = context.players ?? MAX_PLAYERS
  if (bytes.length > MAX_ENVELOPE)
    return {
      ok: false,
      error: protocolError('wire.too-large', '', '§10', `at most ${MAX_ENVELOPE} bytes, got ${bytes.length}`),
    }
  const cut = bytes.length - SIGNATURE_BYTES
  if (cut < HEADER_BYTES)
    return {
      ok: false,
      error: protocolError(
        'wire.truncated',
        'sig',
        RULE,
        `a header and a signature are ${HEADER_BYTES + SIGNATURE_BYTES} bytes`,
      ),
    }
  const unsigned = bytes.subarray(0, cut)
  const r = new Reader(unsigned)
  const header = decoded(() => readHeader(r, players, context.game))
  if (!header.ok) return header
  const body = decoded(() => readBody(r, header.value, players))
  const hash = envelopeHash(unsigned)
  return {
    ok: true,
    value: { header: header.value, sig: bytes.slice(cut), bytes: bytes.slice(), hash, id: toBase64url(hash), body },
  }
}

/** Each envelope read by `readEnvelopeOnce`, by the bytes it keeps (its own copy), with the context it was read in. */
const reads = new WeakMap<
  Uint8Array,
  { readonly players: number; readonly game: Uint8Array | undefined; readonly read: ReadEnvelope }
>()

/**
 * `readEnvelope`, remembered: bytes that are the `bytes` of an envelope read here before, in the
 * same context, give that reading again, not a second decode and hash. A node's mesh reads each
 * envelope, then checks its bound, then hands the kept bytes to the node (§8): one decode, not three.
 * The key is the reading's own copy (`readEnvelope` keeps one), so bytes a caller still holds and
 * might change are never a key.
 */
export function readEnvelopeOnce(bytes: Uint8Array, context: EnvelopeContext = {}): Decoded<ReadEnvelope> {
  const players = context.players ?? MAX_PLAYERS
  const known = reads.get(bytes)
  if (
    known !== undefined &&
    known.players === players &&
    (known.game === context.game ||
      (known.game !== undefined && context.game !== undefined && compareBytes(known.game, context.game) === 0))
  )
    return { ok: true, value: known.read }
  const r = readEnvelope(bytes, context)
  if (r.ok) reads.set(r.value.bytes, { players, game: context.game, read: r.value })
  return r
}

/** §4.1: strictly decodes a whole envelope (header and body); signatures are checked apart (`signatureValid`). */
export function decodeEnvelope(bytes: Uint8Array, context: EnvelopeContext = {}): Decoded<SealedEnvelope> {
  const read = readEnvelope(bytes, context)
  if (!read.ok) return read
  const { header, sig, hash, id, body } = read.value
  if (!body.ok) return body
  return { ok: true, value: { envelope: { ...header, ...body.value, sig }, bytes: read.value.bytes, hash, id } }
}

/** §4.1: what a head rule of an envelope breaks against the signer's previous envelope, or undefined. */
export type HeadProblem = ProtocolError

/**
 * §4.1 heads rules, checked where they are local: against the signer's previous envelope `previous`
 * (undefined at `seq = 0`), with `forked` the authors a `fork` part in the signer's chain up to and
 * including `previous` names (their heads are frozen). A head for `q` once named is named in every
 * later envelope; it never lowers; at the same `seq` it names the same envelope (another is another
 * branch); after the chain's `fork` part naming `q`, it is equal. Whether a higher head extends the
 * previous one by `prev` needs the envelopes between: `extendsBranch` (when given) decides it.
 */
export function headsProblem(
  previous: Body | undefined,
  forked: ReadonlySet<number>,
  next: Body,
  extendsBranch?: (older: Head, newer: Head) => boolean,
): HeadProblem | undefined {
  if (previous === undefined) return undefined
  const now = new Map(next.heads.map((h) => [h.author, h]))
  for (const [i, old] of previous.heads.entries()) {
    const h = now.get(old.author)
    const at = `heads[author ${old.author}]`
    if (h === undefined)
      return protocolError('field.missing', at, RULE, `the head for ${old.author} disappears (previous heads[${i}])`)
    const same = h.seq === old.seq && compareBytes(h.hash, old.hash) === 0
    if (forked.has(old.author)) {
      if (!same) return protocolError('field.range', at, RULE, `the head for forked author ${old.author} moves`)
      continue
    }
    if (h.seq < old.seq) return protocolError('field.order', at, RULE, `the head for ${old.author} lowers`)
    if (h.seq === old.seq && !same)
      return protocolError('field.range', at, RULE, `the head for ${old.author} leaves its branch`)
    if (h.seq > old.seq && extendsBranch !== undefined && !extendsBranch(old, h))
      return protocolError('field.range', at, RULE, `the head for ${old.author} leaves its branch`)
  }
  return undefined
}

/** §4.2: the authors the `fork` parts of `body` name. */
export function forksOf(body: Body): ForkPart[] {
  return body.parts.filter((p): p is ForkPart => p.type === 'fork')
}
