/**
 * Signed, chained envelopes (protocol/SPEC.md §5): the envelope's bytes, its hash over everything
 * but the signature, and Ed25519 over a tagged copy of the same bytes.
 */
import { toBase64url } from '../../../core/commit/bytes.js'
import { HASH_BYTES, tag, taggedHash } from '../../../core/commit/hash.js'
import { DOMAINS } from './domain.js'
import type { ProtocolVersion } from './messages.js'
import { type KeyPair, sign, verifySignature } from '../../../core/commit/keys.js'
import { type Envelope, type Framed, type Unsigned, decodeFramed, encodeUnsigned, frameEnvelope } from './codec.js'
import type { Decoded } from '../../../core/wire/errors.js'

export type { Envelope, Unsigned } from './codec.js'

/** An envelope with its exact bytes and hash. */
export interface SealedEnvelope {
  readonly envelope: Envelope
  /** The whole envelope, signature included (what a transcript line holds). */
  readonly bytes: Uint8Array
  /** SPEC §5.3: over the unsigned bytes. */
  readonly hash: Uint8Array
  /** `hash` in base64url: a key for maps and a name in reports. */
  readonly id: string
}

const ENVELOPE_TAGS = { 3: tag(DOMAINS[3].envelope), 4: tag(DOMAINS[4].envelope) } as const

/** The version an envelope's unsigned bytes state (SPEC §5.1); framing refused every other. */
function versionOf(unsigned: Uint8Array): ProtocolVersion {
  return unsigned[0] === 4 ? 4 : 3
}

/** SPEC §5.2: the signed message, `tag("spaceships/V/envelope") ‖ U`, V the version `U` states. */
export function signingMessage(unsigned: Uint8Array): Uint8Array {
  const t = ENVELOPE_TAGS[versionOf(unsigned)]
  const out = new Uint8Array(t.length + unsigned.length)
  out.set(t, 0)
  out.set(unsigned, t.length)
  return out
}

/** SPEC §5.3: `H(tag("spaceships/V/envelope-hash") ‖ U)`. */
export function envelopeHash(unsigned: Uint8Array): Uint8Array {
  return taggedHash(DOMAINS[versionOf(unsigned)].envelopeHash, unsigned)
}

function sealed(envelope: Envelope, unsigned: Uint8Array, hash = envelopeHash(unsigned), id?: string): SealedEnvelope {
  const sig = envelope.sig
  // A framed envelope's halves are views of one copy (`frameEnvelope`): the whole is a view too.
  const contiguous = sig.buffer === unsigned.buffer && sig.byteOffset === unsigned.byteOffset + unsigned.length
  const bytes = contiguous
    ? new Uint8Array(unsigned.buffer, unsigned.byteOffset, unsigned.length + sig.length)
    : new Uint8Array(unsigned.length + sig.length)
  if (!contiguous) {
    bytes.set(unsigned, 0)
    bytes.set(sig, unsigned.length)
  }
  return { envelope, bytes, hash, id: id ?? toBase64url(hash) }
}

/** Encodes and signs an envelope. */
export function seal(keys: KeyPair, unsigned: Unsigned): SealedEnvelope {
  const u = encodeUnsigned(unsigned)
  return sealed({ ...unsigned, version: unsigned.version ?? 3, sig: sign(keys, signingMessage(u)) }, u)
}

/** The same envelope with another signature (tests of forged and malleated signatures). */
export function withSignature(s: SealedEnvelope, sig: Uint8Array): SealedEnvelope {
  return sealed({ ...s.envelope, sig }, encodeUnsigned(s.envelope))
}

/** Strictly decodes one envelope from untrusted bytes (SPEC §5.1, §7, §9). Signatures are checked separately. */
export function decodeEnvelope(bytes: Uint8Array): Decoded<SealedEnvelope> {
  const f = frameEnvelope(bytes)
  if (!f.ok) return f
  return decodeFrameWith(f.value)
}

/**
 * Decodes a framed envelope; `hash`, when the caller already holds it, must be
 * `envelopeHash(f.unsigned)`, and `id`, when given with it, the hash in base64url.
 */
export function decodeFrameWith(f: Framed, hash?: Uint8Array, id?: string): Decoded<SealedEnvelope> {
  const d = decodeFramed(f)
  if (!d.ok) return d
  return { ok: true, value: sealed(d.value, f.unsigned, hash, hash === undefined ? undefined : id) }
}

/** SPEC §5.2: whether the envelope is signed by `publicKey` (which must be usable). */
export function signatureValid(s: { readonly bytes: Uint8Array }, publicKey: Uint8Array): boolean {
  const cut = s.bytes.length - 64
  if (cut < 0) return false
  return verifySignature(publicKey, signingMessage(s.bytes.subarray(0, cut)), s.bytes.subarray(cut))
}

/** SPEC §6.1: `G = H(tag ‖ hash(helloA) ‖ hash(helloB))`, under the game's version's tag. */
export function gameIdOf(helloA: Uint8Array, helloB: Uint8Array, version: ProtocolVersion = 3): Uint8Array {
  if (helloA.length !== HASH_BYTES || helloB.length !== HASH_BYTES) throw new Error('hello hashes are 32 bytes')
  return taggedHash(DOMAINS[version].gameId, helloA, helloB)
}
