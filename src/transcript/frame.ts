/**
 * Frames: how an envelope travels on a game stream (protocol/SPEC.md §2.1). The transcript and
 * every signature are over the canonical envelope line (§5); a frame may leave out what the
 * receiver already holds, and the receiver rebuilds the exact line before it decodes it.
 *
 * - A full frame is the canonical line itself (its first byte is `{`).
 * - A compact frame (first byte 0x01) carries only `seq`, which of the receiver's envelopes
 *   `ack` names, the raw signature and the body. `v`, `game`, `from` and `prev` are implied: the
 *   receiver knows the game id, who is at the other end, and the sender's previous envelope. This
 *   is issue 6's bytes fix: `game`, `prev` and `ack` are 43 characters each and the signature 86
 *   in base64url, about 280 bytes of a 400-byte turn envelope.
 *
 * A rebuilt line is decoded as strictly as a full one, and its signature checked, so a compact
 * frame can never make a receiver accept an envelope the sender did not sign.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib'
import { fromBase64url, strictUtf8, toBase64url, utf8 } from '../commit/bytes.js'
import { SIGNATURE_BYTES } from '../commit/keys.js'
import { type ProtocolError, protocolError } from './errors.js'
import type { SealedEnvelope } from './envelope.js'
import { LIMITS, PROTOCOL_VERSION, type Role, otherRole } from './messages.js'

/** SPEC §2.1: the first byte of a frame says its form. */
export const FRAME_FULL = 0x7b
export const FRAME_COMPACT = 0x01
/** A compact frame whose body is raw DEFLATE (RFC 1951). */
export const FRAME_COMPACT_DEFLATED = 0x02
/**
 * Bodies from this size are sent deflated when that is smaller: the setup commitment (about
 * 10.7 KB of base64url, 8 KB deflated) and the reveal. Turn bodies are a few hundred bytes, where
 * deflate saves about a fifth for 25-50 µs of CPU on each side, so they are sent as they are.
 */
const DEFLATE_FROM_BYTES = 1024
/** A sequence number needs at most 3 varint bytes under the limits of §8; 4 are allowed. */
const MAX_VARINT_BYTES = 4

/** What one side holds of both chains, which a compact frame's implied fields come from. */
export interface FrameContext {
  /** The game id, "" until both hellos are known (compact frames need it). */
  readonly game: string
  /** The hash of `role`'s envelope at `seq`, as this side holds it. */
  hashAt(role: Role, seq: number): string | undefined
  /** Where the envelope with this hash sits in its sender's chain. */
  positionOf(hash: string): number | undefined
}

function varint(n: number, out: number[]): void {
  while (n >= 0x80) {
    out.push((n & 0x7f) | 0x80)
    n >>>= 7
  }
  out.push(n)
}

/** The canonical line a compact frame stands for (SPEC §2.1, §3.4). */
function line(game: string, from: Role, seq: number, prev: string, ack: string, body: string, sig: string): string {
  return `{"v":${PROTOCOL_VERSION},"game":"${game}","from":"${from}","seq":${seq},"prev":"${prev}","ack":"${ack}","body":${body},"sig":"${sig}"}`
}

/**
 * The frame for a sealed envelope: compact when the receiver can rebuild it exactly (the sender's
 * chain up to it, and the envelope `ack` names, are known to both), else the full line.
 */
export function encodeFrame(s: SealedEnvelope, ctx: FrameContext): Uint8Array {
  const e = s.envelope
  const receiver = otherRole(e.from)
  const ackSeq = e.ack === '' ? -1 : ctx.positionOf(e.ack)
  const sig = fromBase64url(e.sig, SIGNATURE_BYTES)
  const compactable =
    ctx.game !== '' && e.game === ctx.game && e.seq >= 1 && ctx.hashAt(e.from, e.seq - 1) === e.prev && ackSeq !== undefined && (ackSeq === -1 || ctx.hashAt(receiver, ackSeq) === e.ack) && sig !== undefined
  if (compactable) {
    const body = JSON.stringify(e.body)
    // The line is JSON.stringify of the envelope, so this holds for every sealed envelope; checked
    // anyway, since a frame that rebuilt to other bytes would be refused by the receiver.
    if (line(e.game, e.from, e.seq, e.prev, e.ack, body, e.sig) === s.line) {
      let bodyBytes = utf8(body)
      let form = FRAME_COMPACT
      if (bodyBytes.length >= DEFLATE_FROM_BYTES) {
        const deflated = deflateRawSync(bodyBytes)
        if (deflated.length < bodyBytes.length) {
          bodyBytes = deflated
          form = FRAME_COMPACT_DEFLATED
        }
      }
      const head: number[] = [form]
      varint(e.seq, head)
      varint(ackSeq + 1, head)
      const out = new Uint8Array(head.length + SIGNATURE_BYTES + bodyBytes.length)
      out.set(head, 0)
      out.set(sig, head.length)
      out.set(bodyBytes, head.length + SIGNATURE_BYTES)
      return out
    }
  }
  return utf8(s.line)
}

export type FrameDecoded = { readonly ok: true; readonly line: Uint8Array | string } | { readonly ok: false; readonly error: ProtocolError }

function frameError(message: string): FrameDecoded {
  return { ok: false, error: protocolError('wire.frame', '', '§2.1', message) }
}

/**
 * The envelope line a frame from `sender` stands for: a full frame as it is (decoded later,
 * strictly), a compact one rebuilt from what this side holds. Never throws.
 */
export function decodeFrame(frame: Uint8Array, sender: Role, ctx: FrameContext): FrameDecoded {
  if (frame.length === 0) return frameError('an empty frame')
  if (frame[0] === FRAME_FULL) return { ok: true, line: frame }
  const form = frame[0]
  if (form !== FRAME_COMPACT && form !== FRAME_COMPACT_DEFLATED) return frameError(`unknown frame form 0x${(frame[0] ?? 0).toString(16).padStart(2, '0')}`)
  let at = 1
  const readVarint = (field: string): number | string => {
    let n = 0
    for (let i = 0; i < MAX_VARINT_BYTES; i++) {
      const b = frame[at++]
      if (b === undefined) return `${field}: the frame ends inside a varint`
      n += (b & 0x7f) * 2 ** (7 * i)
      if (b < 0x80) return i > 0 && b === 0 ? `${field}: a varint that is not minimal` : n
    }
    return `${field}: a varint longer than ${MAX_VARINT_BYTES} bytes`
  }
  const seq = readVarint('seq')
  if (typeof seq === 'string') return frameError(seq)
  const ack = readVarint('ack')
  if (typeof ack === 'string') return frameError(ack)
  if (ctx.game === '') return frameError('a compact frame before the game id is known (the hellos travel in full)')
  if (seq < 1) return frameError('a compact frame for a hello')
  const prev = ctx.hashAt(sender, seq - 1)
  if (prev === undefined) return frameError(`a compact frame for envelope ${seq} of ${sender}, whose envelope ${seq - 1} this side does not hold`)
  const ackHash = ack === 0 ? '' : ctx.hashAt(otherRole(sender), ack - 1)
  if (ackHash === undefined) return frameError(`ack names envelope ${ack - 1} of ${otherRole(sender)}, which does not exist`)
  if (frame.length < at + SIGNATURE_BYTES) return frameError('the frame ends inside the signature')
  const sig = toBase64url(frame.subarray(at, at + SIGNATURE_BYTES))
  let bodyBytes = frame.subarray(at + SIGNATURE_BYTES)
  if (form === FRAME_COMPACT_DEFLATED) {
    try {
      // Bounded: a small frame must not inflate past the largest envelope (§8).
      bodyBytes = inflateRawSync(bodyBytes, { maxOutputLength: LIMITS.envelopeBytes })
    } catch {
      return frameError(`the body is not raw DEFLATE data of at most ${LIMITS.envelopeBytes} bytes`)
    }
  }
  let body: string
  try {
    body = strictUtf8.decode(bodyBytes)
  } catch {
    return { ok: false, error: protocolError('wire.utf8', 'body', '§3.4', 'the body is not valid UTF-8') }
  }
  return { ok: true, line: line(ctx.game, sender, seq, prev, ackHash, body, sig) }
}
