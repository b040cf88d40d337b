/**
 * The binary encoding of envelopes and their parts (protocol/SPEC.md §3, §5.1, §6.1, §7). Every
 * layout is exact, so every value has one encoding: the decoder refuses trailing bytes, values out
 * of range, lists out of order or over their limit, and text outside printable ASCII, naming the
 * field and the section.
 *
 * This file frames envelopes and compact frames; their parts are written by `part-writer.ts` and
 * read by `part-reader.ts`.
 */
import { HASH_BYTES } from '../../../core/commit/hash.js'
import { SIGNATURE_BYTES } from '../../../core/commit/keys.js'
import { decoded, fail } from '../../../core/wire/binary.js'
import { type Decoded, protocolError } from '../../../core/wire/errors.js'
import {
  INDEX_ROLE,
  LIMITS,
  PROTOCOL_VERSIONS,
  type Part,
  type PartType,
  type ProtocolVersion,
  ROLE_INDEX,
  type Role,
  isProtocolVersion,
} from './messages.js'
import { PartWriter, writePart } from './part-writer.js'
import { PartReader, readParts } from './part-reader.js'

/** An envelope as values (SPEC §5.1). */
export interface Envelope {
  /** SPEC §5.1: the version byte; its game's version, fixed by A's hello. */
  readonly version: ProtocolVersion
  readonly sender: Role
  readonly seq: number
  /** Present iff `seq >= 1`. */
  readonly game: Uint8Array | undefined
  /** Present iff `seq >= 1`. */
  readonly prev: Uint8Array | undefined
  /** Absent only in A's envelope 0. */
  readonly ack: Uint8Array | undefined
  readonly parts: readonly Part[]
  readonly sig: Uint8Array
}

/** An envelope to be encoded; `version` defaults to 3 (the version every earlier caller wrote). */
export type Unsigned = Omit<Envelope, 'sig' | 'version'> & { readonly version?: ProtocolVersion }

/** SPEC §5.1: the envelope without its signature (what is hashed and signed). */
export function encodeUnsigned(e: Unsigned): Uint8Array {
  const version = e.version ?? 3
  const w = new PartWriter()
  w.u8(version).u8(ROLE_INDEX[e.sender]).u16(e.seq)
  if (e.seq >= 1) w.bytes(e.game ?? new Uint8Array(HASH_BYTES)).bytes(e.prev ?? new Uint8Array(HASH_BYTES))
  if (!(e.sender === 'A' && e.seq === 0)) w.bytes(e.ack ?? new Uint8Array(HASH_BYTES))
  w.u8(e.parts.length)
  for (const p of e.parts) writePart(w, p, version)
  return w.finish()
}

/** SPEC §7: a part count and the parts, as a compact frame carries them (§2.1). */
export function encodeParts(parts: readonly Part[], version: ProtocolVersion = 3): Uint8Array {
  const w = new PartWriter()
  w.u8(parts.length)
  for (const p of parts) writePart(w, p, version)
  return w.finish()
}

/** Bytes at least this long, of this version and a known sender, frame as an envelope (SPEC §12.1). */
export const MIN_ENVELOPE_BYTES = 4 + SIGNATURE_BYTES

/** What can be read of an envelope without decoding its parts: enough to authenticate it (SPEC §12.2). */
export interface Framed {
  readonly version: ProtocolVersion
  readonly sender: Role
  readonly seq: number
  /**
   * Everything but the signature (SPEC §5.2). `unsigned` and `sig` are the Framed's own bytes,
   * never changed: what `decodeFramed` reads of them are views, not copies.
   */
  readonly unsigned: Uint8Array
  readonly sig: Uint8Array
}

export function frameEnvelope(bytes: Uint8Array): Decoded<Framed> {
  return frame(bytes, true)
}

/**
 * `frameEnvelope` for bytes the caller owns and never changes (a verifier's lines): the halves
 * are views of `bytes` itself, not of a copy (an envelope's copy is a backing store outside V8's
 * heap, costlier to make and collect than the framing).
 */
export function frameOwnEnvelope(bytes: Uint8Array): Decoded<Framed> {
  return frame(bytes, false)
}

function frame(bytes: Uint8Array, copy: boolean): Decoded<Framed> {
  if (bytes.length < MIN_ENVELOPE_BYTES)
    return {
      ok: false,
      error: protocolError(
        'wire.truncated',
        '',
        '§5.1',
        `${bytes.length} bytes; an envelope has at least ${MIN_ENVELOPE_BYTES}`,
      ),
    }
  if (bytes.length > LIMITS.revealEnvelopeBytes)
    return {
      ok: false,
      error: protocolError('wire.too-large', '', '§9', `${bytes.length} bytes; at most ${LIMITS.revealEnvelopeBytes}`),
    }
  const version = bytes[0] ?? 0
  if (!isProtocolVersion(version))
    return {
      ok: false,
      error: protocolError(
        'wire.version',
        'version',
        '§5.1',
        `version ${version}; this program reads versions ${PROTOCOL_VERSIONS.join(' and ')}`,
      ),
    }
  const role = INDEX_ROLE[bytes[1] ?? 9]
  if (role === undefined || (bytes[1] ?? 9) > 1)
    return {
      ok: false,
      error: protocolError('field.range', 'sender', '§5.1', `sender ${bytes[1] ?? 0}; 0 (A) or 1 (B)`),
    }
  const seq = ((bytes[2] ?? 0) << 8) | (bytes[3] ?? 0)
  const cut = bytes.length - SIGNATURE_BYTES
  // One copy of the caller's bytes (unless they are the caller's own), both halves views of it:
  // `sealed` sees them contiguous.
  const own = copy ? bytes.slice() : bytes
  return { ok: true, value: { version, sender: role, seq, unsigned: own.subarray(0, cut), sig: own.subarray(cut) } }
}

/** Decodes an envelope's unsigned bytes and signature strictly (SPEC §5.1, §7, §9). */
export function decodeFramed(f: Framed): Decoded<Envelope> {
  return decoded(() => {
    const r = new PartReader(f.unsigned, true)
    r.u8('version', '§5.1')
    r.u8('sender', '§5.1')
    const seq = r.range('seq', '§9', r.u16('seq', '§5.1'), 0, LIMITS.maxSeq)
    const game = seq >= 1 ? r.bytes(HASH_BYTES, 'game', '§5.1') : undefined
    const prev = seq >= 1 ? r.bytes(HASH_BYTES, 'prev', '§5.1') : undefined
    const ack = f.sender === 'A' && seq === 0 ? undefined : r.bytes(HASH_BYTES, 'ack', '§5.1')
    const parts = readParts(r, f.sender, 'parts', f.version)
    r.end('parts', '§5.1')
    if (f.unsigned.length + SIGNATURE_BYTES > LIMITS.envelopeBytes && !parts.some((p) => p.t === 'reveal')) {
      fail(
        'wire.too-large',
        '',
        '§9',
        `${f.unsigned.length + SIGNATURE_BYTES} bytes; only an envelope with a reveal may exceed ${LIMITS.envelopeBytes}`,
      )
    }
    const e: Envelope = { version: f.version, sender: f.sender, seq, game, prev, ack, parts, sig: f.sig }
    return e
  })
}

export function decodeEnvelopeBytes(bytes: Uint8Array): Decoded<Envelope> {
  const f = frameEnvelope(bytes)
  return f.ok ? decodeFramed(f.value) : f
}

/** Decodes a part count and parts as a compact frame carries them (SPEC §2.1). */
export function decodeParts(bytes: Uint8Array, sender: Role, version: ProtocolVersion = 3): Decoded<Part[]> {
  return decoded(() => {
    const r = new PartReader(bytes)
    const parts = readParts(r, sender, 'parts', version)
    r.end('parts', '§2.1')
    return parts
  })
}

export function partTypes(parts: readonly Part[]): PartType[] {
  return parts.map((p) => p.t)
}
