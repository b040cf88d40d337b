/**
 * Signed, chained envelopes (protocol/SPEC.md §5): one JSON object per message, canonical bytes,
 * Ed25519 over a domain-tagged encoding of everything but the signature, the sender's previous
 * envelope hash and the last envelope hash received from the other side.
 */
import { concatBytes, fromBase64url, lengthPrefixed, strictUtf8, toBase64url, utf8 } from '../commit/bytes.js'
import { DOMAIN, HASH_BYTES, taggedHash } from '../commit/hash.js'
import { type KeyPair, SIGNATURE_BYTES, sign, verifySignature } from '../commit/keys.js'
import { GAME_ID_BYTES } from '../commit/commitments.js'
import { type Decoder, base64url, decodeWith, integer, object, oneOf } from './decode.js'
import { type ProtocolError, protocolError } from './errors.js'
import { type Body, LIMITS, PROTOCOL_VERSION, ROLES, type Role, bodyDecoder } from './messages.js'

export interface Envelope {
  readonly v: typeof PROTOCOL_VERSION
  /** Game id, base64url; "" in the hellos, which the game id is derived from (SPEC §6.1). */
  readonly game: string
  readonly from: Role
  /** Per-sender sequence number from 0 (the hello). */
  readonly seq: number
  /** Hash of the sender's previous envelope; "" for seq 0. */
  readonly prev: string
  /** Hash of the last envelope the sender had received from the other side; "" before any. */
  readonly ack: string
  readonly body: Body
  readonly sig: string
}

/** An envelope with its exact canonical line and hash. */
export interface SealedEnvelope {
  readonly envelope: Envelope
  readonly line: string
  readonly hash: string
}

const hashOrEmpty = base64url(HASH_BYTES, '§5', true)
const envelopeDecoder = object<Envelope>({
  v: integer(PROTOCOL_VERSION, PROTOCOL_VERSION, '§5') as Decoder<typeof PROTOCOL_VERSION>,
  game: base64url(GAME_ID_BYTES, '§5', true),
  from: oneOf(ROLES, '§5'),
  seq: integer(0, 4 * LIMITS.maxTurns + 16, '§5'),
  prev: hashOrEmpty,
  ack: hashOrEmpty,
  body: (v, at) => bodyDecoder(v, at),
  sig: base64url(SIGNATURE_BYTES, '§5'),
}, '§5')

type Unsigned = Omit<Envelope, 'sig'>

/** SPEC §5.1: what is signed: lp(tag) ‖ lp(canonical JSON of the envelope without `sig`). */
export function signingInput(unsigned: Unsigned | Envelope): Uint8Array {
  const { v, game, from, seq, prev, ack, body } = unsigned
  return concatBytes(lengthPrefixed(utf8(DOMAIN.envelope)), lengthPrefixed(utf8(JSON.stringify({ v, game, from, seq, prev, ack, body }))))
}

/** SPEC §5.3: an envelope's hash covers its whole canonical line, signature included. */
export function envelopeHash(line: string | Uint8Array): string {
  return toBase64url(taggedHash(DOMAIN.envelopeHash, typeof line === 'string' ? utf8(line) : line))
}

function canonicalLine(e: Envelope): string {
  return JSON.stringify({ v: e.v, game: e.game, from: e.from, seq: e.seq, prev: e.prev, ack: e.ack, body: e.body, sig: e.sig })
}

export function seal(keys: KeyPair, unsigned: Omit<Unsigned, 'v'>): SealedEnvelope {
  // The body is rebuilt in schema order (SPEC §3.4), so a caller's key order can never make a
  // non-canonical envelope. A body outside the schema is sealed as given (tests of violations).
  const canonical = decodeWith(bodyDecoder, unsigned.body, 'body')
  const full: Unsigned = { v: PROTOCOL_VERSION, ...unsigned, body: canonical.ok ? canonical.value : unsigned.body }
  const sig = toBase64url(sign(keys, signingInput(full)))
  const envelope: Envelope = { ...full, sig }
  const line = canonicalLine(envelope)
  return { envelope, line, hash: envelopeHash(line) }
}

/**
 * Strictly decodes one envelope from untrusted bytes or text (SPEC §3.4, §5, §8): size, UTF-8,
 * JSON, every field, then canonical re-encoding. Signatures are checked separately, since the
 * key depends on the game (`signatureValid`).
 */
export function decodeEnvelope(input: Uint8Array | string, maxBytes: number = LIMITS.envelopeBytes): { ok: true; value: SealedEnvelope } | { ok: false; error: ProtocolError } {
  const size = typeof input === 'string' ? Buffer.byteLength(input, 'utf8') : input.length
  if (size > maxBytes) return { ok: false, error: protocolError('wire.too-large', '', '§8', `${size} bytes; at most ${maxBytes}`) }
  let line: string
  try {
    line = typeof input === 'string' ? input : strictUtf8.decode(input)
  } catch {
    return { ok: false, error: protocolError('wire.utf8', '', '§3.4', 'not valid UTF-8') }
  }
  let json: unknown
  try {
    json = JSON.parse(line)
  } catch {
    return { ok: false, error: protocolError('wire.json', '', '§3.4', 'not a JSON value') }
  }
  const decoded = decodeWith(envelopeDecoder, json)
  if (!decoded.ok) return decoded
  const envelope = decoded.value
  if (envelope.body.t !== 'reveal' && size > LIMITS.smallEnvelopeBytes) {
    return { ok: false, error: protocolError('wire.too-large', '', '§8', `${size} bytes; only a reveal may exceed ${LIMITS.smallEnvelopeBytes}`) }
  }
  const canonical = canonicalLine(envelope)
  if (canonical !== line) return { ok: false, error: protocolError('wire.not-canonical', '', '§3.4', 'bytes differ from the canonical encoding (key order, whitespace, escapes or number form)') }
  // Given bytes, they are exactly the line's UTF-8 (strictly decoded, then found canonical), so
  // they are hashed as they are rather than encoded again.
  return { ok: true, value: { envelope, line, hash: envelopeHash(typeof input === 'string' ? line : input) } }
}

export function signatureValid(e: Envelope, publicKey: Uint8Array): boolean {
  const sig = fromBase64url(e.sig, SIGNATURE_BYTES)
  if (sig === undefined) return false
  return verifySignature(publicKey, signingInput(e), sig)
}

export function encodeLine(line: string): Uint8Array {
  return utf8(line)
}

/** SPEC §6.1: game id = H(tag ‖ hash of A's hello ‖ hash of B's hello), binding both nonces and terms. */
export function gameIdOf(helloA: SealedEnvelope, helloB: SealedEnvelope): string {
  const a = fromBase64url(helloA.hash, HASH_BYTES) ?? new Uint8Array()
  const b = fromBase64url(helloB.hash, HASH_BYTES) ?? new Uint8Array()
  return toBase64url(taggedHash(DOMAIN.gameId, a, b))
}
