/**
 * Frames: how envelopes and control messages travel on a game stream (protocol/SPEC.md §2.1,
 * §2.2, §2.4). Signatures and hashes are over envelopes; a frame may leave out what the receiver
 * already holds (`game`, `prev`, `ack`), and the receiver rebuilds the envelope's exact bytes
 * before decoding it, so a compact frame can never make a receiver accept anything the sender did
 * not sign.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib'
import { toBase64url } from '../../../core/commit/bytes.js'
import { HASH_BYTES } from '../../../core/commit/hash.js'
import { SIGNATURE_BYTES } from '../../../core/commit/keys.js'
import { encodeUnsigned } from './codec.js'
import { type Decoded, type ProtocolError, protocolError } from '../../../core/wire/errors.js'
import type { SealedEnvelope } from './envelope.js'
import { LIMITS, type ProtocolVersion, ROLE_INDEX, type Role, otherRole } from './messages.js'
import { NAME_MAX_BYTES, nameProblem } from './name.js'

/** SPEC §2.1: the first byte of a frame says its form. */
export const FRAME = { full: 0x00, compact: 0x01, deflated: 0x02, resume: 0x03, control: 0x04 } as const

/**
 * SPEC §2.4: the control frame kinds this node reads, by their kind byte. Kind 5, the refusal, is
 * read apart (net/admission.ts): it comes from a host only, as its only frame on a stream it does
 * not admit, and never reaches a game.
 */
export const CONTROL_CODES = { chat: 1, 'rematch-offer': 2, 'rematch-accept': 3, 'rematch-decline': 4, name: 6 } as const
export type ControlKind = keyof typeof CONTROL_CODES
export const CONTROL_KINDS = Object.keys(CONTROL_CODES) as readonly ControlKind[]
const KIND_OF_CODE = new Map<number, ControlKind>(CONTROL_KINDS.map((k) => [CONTROL_CODES[k], k]))

/**
 * Parts from this size go deflated when that is smaller: a reveal's records compress well; a
 * setup vector (hash outputs) and turn parts do not, and are sent as they are.
 */
const DEFLATE_FROM_BYTES = 1024
const MAX_VARINT_BYTES = 4

/** What one side holds of both chains, which a compact frame's implied fields come from. */
export interface FrameContext {
  /** The game's version (SPEC §5.1), which a compact frame's rebuilt header states; 3 when absent. */
  readonly version?: ProtocolVersion
  /** The game id, undefined until both hellos are known. */
  readonly game: Uint8Array | undefined
  /** The hash of `role`'s envelope `seq`, as this side holds it. */
  hashAt(role: Role, seq: number): Uint8Array | undefined
  /** Where the envelope with this hash (base64url) sits in its sender's chain. */
  positionOf(id: string): number | undefined
  /**
   * The signature of `role`'s envelope `seq`, as this side holds it: a frame carrying that `seq`
   * and these signature bytes is a copy, dropped before it is inflated or hashed (SPEC §2.2).
   */
  sigAt?(role: Role, seq: number): Uint8Array | undefined
}

function varint(n: number, out: number[]): void {
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80)
    n >>>= 7
  }
  out.push(n)
}

function sameBytes(a: Uint8Array | undefined, b: Uint8Array | undefined): boolean {
  if (a === undefined || b === undefined || a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** The frame for a sealed envelope: compact when the receiver can rebuild it exactly, else full. */
export function encodeEnvelopeFrame(s: SealedEnvelope, ctx: FrameContext): Uint8Array {
  const e = s.envelope
  const receiver = otherRole(e.sender)
  const ackSeq = e.ack === undefined ? undefined : ctx.positionOf(toBase64url(e.ack))
  const compactable =
    e.seq >= 1 &&
    e.version === (ctx.version ?? 3) &&
    ctx.game !== undefined &&
    sameBytes(e.game, ctx.game) &&
    sameBytes(ctx.hashAt(e.sender, e.seq - 1), e.prev) &&
    ackSeq !== undefined &&
    sameBytes(ctx.hashAt(receiver, ackSeq), e.ack)
  if (!compactable) return prefixed(FRAME.full, s.bytes)
  // The parts as encoded: the unsigned bytes after the header (version, sender, seq, game, prev, ack).
  const header = 4 + 3 * HASH_BYTES
  let parts = s.bytes.subarray(header, s.bytes.length - SIGNATURE_BYTES)
  let form: number = FRAME.compact
  if (parts.length >= DEFLATE_FROM_BYTES) {
    const deflated = deflateRawSync(parts)
    if (deflated.length < parts.length) {
      parts = deflated
      form = FRAME.deflated
    }
  }
  const head: number[] = [form, (e.seq >>> 8) & 0xff, e.seq & 0xff]
  varint(ackSeq + 1, head)
  const out = new Uint8Array(head.length + SIGNATURE_BYTES + parts.length)
  out.set(head, 0)
  out.set(e.sig, head.length)
  out.set(parts, head.length + SIGNATURE_BYTES)
  return out
}

function prefixed(form: number, body: Uint8Array): Uint8Array {
  const out = new Uint8Array(1 + body.length)
  out[0] = form
  out.set(body, 1)
  return out
}

/** SPEC §2.2: a resume frame, `held` = how many of the receiver's envelopes the sender holds. */
export function encodeResume(held: number): Uint8Array {
  return Uint8Array.of(FRAME.resume, (held >>> 8) & 0xff, held & 0xff)
}

/**
 * SPEC §2.4: a control frame. A name (kind 6) must keep its rule (`nameProblem`): callers check a
 * player's name where it is given, so one that breaks it here is a bug, and throws.
 */
export function encodeControl(kind: ControlKind, text = ''): Uint8Array {
  const t = Buffer.from(text, 'utf8')
  if (t.length > LIMITS.controlTextBytes) throw new Error(`a control text is at most ${LIMITS.controlTextBytes} bytes`)
  const unusable = kind === 'name' ? nameProblem(text) : undefined
  if (unusable !== undefined) throw new Error(`not a usable name: ${unusable.message}`)
  const out = new Uint8Array(2 + t.length)
  out[0] = FRAME.control
  out[1] = CONTROL_CODES[kind]
  out.set(t, 2)
  return out
}

export type Frame =
  | { readonly kind: 'envelope'; readonly bytes: Uint8Array }
  /** A control frame of a kind this side does not know: ignored (SPEC §2.4). */
  | { readonly kind: 'unknown-control'; readonly code: number }
  /** A copy of an envelope this side holds (its `seq` and signature bytes): dropped unread (SPEC §2.2). */
  | { readonly kind: 'copy'; readonly seq: number }
  | { readonly kind: 'resume'; readonly held: number }
  | { readonly kind: 'control'; readonly control: ControlKind; readonly text: string }
  /**
   * A control frame of a known kind whose text breaks SPEC §2.4's rules (a chat that is not UTF-8,
   * too long or holds control characters, text on a rematch kind, a name outside its rule):
   * dropped and noted, never malformed, since conversation must never stop a game.
   */
  | { readonly kind: 'bad-control'; readonly control: ControlKind; readonly error: ProtocolError }

function frameError(message: string): Decoded<Frame> {
  return { ok: false, error: protocolError('wire.frame', '', '§2.1', message) }
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })
// eslint-disable-next-line no-control-regex -- refusing control characters is the point (SPEC §2.4)
const CONTROL_CHARS = /[\u0000-\u001f\u007f-\u009f]/u

/**
 * SPEC §2.4, kind 6: a name is printable ASCII of 1 to 32 bytes. A name that breaks the rule is
 * not a malformed frame: it is dropped and noted (PROTOCOL-4.md §9: a name never stops a game).
 */
function decodeName(text: Uint8Array): Decoded<Frame> {
  const dropped = (code: 'field.length' | 'field.text', message: string): Decoded<Frame> => ({
    ok: true,
    value: { kind: 'bad-control', control: 'name', error: protocolError(code, 'name', '§2.4', message) },
  })
  if (text.length === 0) return dropped('field.length', 'an empty name')
  if (text.length > NAME_MAX_BYTES) return dropped('field.length', `${text.length} bytes; a name is at most ${NAME_MAX_BYTES}`)
  // Byte by byte: a name is printable ASCII, so no decoding can hide a byte outside it.
  const bad = text.findIndex((b) => b < 0x20 || b > 0x7e)
  if (bad >= 0)
    return dropped('field.text', `a name is printable ASCII; byte ${bad} is 0x${(text[bad] ?? 0).toString(16).padStart(2, '0')}`)
  return { ok: true, value: { kind: 'control', control: 'name', text: String.fromCharCode(...text) } }
}

/**
 * What a frame from `sender` stands for: an envelope's bytes (a compact frame rebuilt from what
 * this side holds; decoded later, strictly), a resume or a control frame. Never throws.
 */
export function decodeFrame(frame: Uint8Array, sender: Role, ctx: FrameContext): Decoded<Frame> {
  if (frame.length === 0) return frameError('an empty frame')
  if (frame.length > LIMITS.frameBytes) return frameError(`${frame.length} bytes; at most ${LIMITS.frameBytes}`)
  const form = frame[0]
  const body = frame.subarray(1)
  if (form === FRAME.full) {
    // SPEC §2.2: a copy of a held envelope is dropped before its signature, hash or parts are read.
    if (body.length >= 4 + SIGNATURE_BYTES && body[1] === ROLE_INDEX[sender]) {
      const seq = ((body[2] ?? 0) << 8) | (body[3] ?? 0)
      if (sameBytes(ctx.sigAt?.(sender, seq), body.subarray(body.length - SIGNATURE_BYTES)))
        return { ok: true, value: { kind: 'copy', seq } }
    }
    return { ok: true, value: { kind: 'envelope', bytes: body.slice() } }
  }
  if (form === FRAME.resume) {
    if (body.length !== 2) return frameError('a resume frame is 3 bytes')
    return { ok: true, value: { kind: 'resume', held: ((body[0] ?? 0) << 8) | (body[1] ?? 0) } }
  }
  if (form === FRAME.control) {
    if (body.length === 0) return frameError('a control frame without its kind')
    const kind = KIND_OF_CODE.get(body[0] ?? 0)
    // SPEC §2.4: a later version may add kinds; one this side does not know is ignored, unread.
    if (kind === undefined) return { ok: true, value: { kind: 'unknown-control', code: body[0] ?? 0 } }
    if (kind === 'name') return decodeName(body.subarray(1))
    // SPEC §2.4: a known kind whose text breaks the rules is dropped, not malformed (§2.1 would
    // make the side waiting for its peer stop the game over a line of chat).
    const dropped = (code: 'field.length' | 'field.text', message: string): Decoded<Frame> => ({
      ok: true,
      value: { kind: 'bad-control', control: kind, error: protocolError(code, 'text', '§2.4', message) },
    })
    let text: string
    try {
      text = strictUtf8.decode(body.subarray(1))
    } catch {
      return dropped('field.text', 'control text is not UTF-8')
    }
    if (body.length - 1 > LIMITS.controlTextBytes)
      return dropped('field.length', `control text over ${LIMITS.controlTextBytes} bytes`)
    if (CONTROL_CHARS.test(text)) return dropped('field.text', 'control text holds control characters')
    if (kind !== 'chat' && text !== '') return dropped('field.text', 'only chat frames carry text')
    return { ok: true, value: { kind: 'control', control: kind, text } }
  }
  if (form !== FRAME.compact && form !== FRAME.deflated)
    return frameError(`unknown frame form 0x${(form ?? 0).toString(16).padStart(2, '0')}`)
  if (frame.length < 4) return frameError('a compact frame ends inside its header')
  const seq = ((frame[1] ?? 0) << 8) | (frame[2] ?? 0)
  let at = 3
  let ack = 0
  for (let i = 0; ; i++) {
    if (i === MAX_VARINT_BYTES) return frameError(`ack: a varint longer than ${MAX_VARINT_BYTES} bytes`)
    const b = frame[at++]
    if (b === undefined) return frameError('ack: the frame ends inside a varint')
    ack += (b & 0x7f) * 2 ** (7 * i)
    if (b < 0x80) {
      if (i > 0 && b === 0) return frameError('ack: a varint that is not minimal')
      break
    }
  }
  // SPEC §2.2: a copy of a held envelope is dropped before its parts are inflated: a few bytes of
  // DEFLATE can stand for a 1 MiB reveal, and a copy is worth nothing.
  if (sameBytes(ctx.sigAt?.(sender, seq), frame.subarray(at, at + SIGNATURE_BYTES)))
    return { ok: true, value: { kind: 'copy', seq } }
  if (ctx.game === undefined)
    return frameError('a compact frame before the game id is known (the hellos travel in full)')
  if (seq < 1) return frameError('a compact frame for a hello')
  const prev = ctx.hashAt(sender, seq - 1)
  if (prev === undefined)
    return frameError(
      `a compact frame for envelope ${seq} of ${sender}, whose envelope ${seq - 1} this side does not hold`,
    )
  if (ack === 0)
    return frameError(
      'a compact frame names no acknowledged envelope (every envelope after the hellos acknowledges one)',
    )
  const ackHash = ctx.hashAt(otherRole(sender), ack - 1)
  if (ackHash === undefined)
    return frameError(`ack names envelope ${ack - 1} of ${otherRole(sender)}, which this side never sent`)
  if (frame.length < at + SIGNATURE_BYTES) return frameError('the frame ends inside the signature')
  const sig = frame.subarray(at, at + SIGNATURE_BYTES)
  let parts = frame.subarray(at + SIGNATURE_BYTES)
  if (form === FRAME.deflated) {
    try {
      parts = inflateRawSync(parts, { maxOutputLength: LIMITS.revealEnvelopeBytes })
    } catch {
      return frameError(`the parts are not raw DEFLATE data of at most ${LIMITS.revealEnvelopeBytes} bytes`)
    }
  }
  const version = ctx.version ?? 3
  const header = encodeUnsigned({ version, sender, seq, game: ctx.game, prev, ack: ackHash, parts: [] })
  // `encodeUnsigned` wrote a part count of 0 last; the frame's parts carry their own count.
  const head = header.subarray(0, header.length - 1)
  const bytes = new Uint8Array(head.length + parts.length + SIGNATURE_BYTES)
  bytes.set(head, 0)
  bytes.set(parts, head.length)
  bytes.set(sig, head.length + parts.length)
  if (bytes[0] !== version || bytes[1] !== ROLE_INDEX[sender]) return frameError('internal: rebuilt header')
  return { ok: true, value: { kind: 'envelope', bytes } }
}
