/**
 * SPEC §2.3: the frames by which a host admits or refuses a stream: the joiner's preamble naming
 * the invite it holds, and the host's refusal.
 */
import { utf8 } from '../../../core/commit/bytes.js'
import { FRAME } from '../protocol/frame.js'

/** SPEC §2.3: the joiner's first frame on every game stream names the invite it holds. */
export const JOIN_PREAMBLE = 'spaceships-join '
/** SPEC §2.3: the host waits this long for the preamble before dropping a new stream. */
export const PREAMBLE_TIMEOUT_MS = 10_000
export const PREAMBLE_MAX_BYTES = 128

/**
 * SPEC §2.3: a host's whole answer to a stream it does not admit (a wrong invite id, or the id of
 * a game it no longer plays): this control frame, kind 5, then it closes the stream. The text is
 * courtesy for the joiner's player; it never names the game the host does serve.
 */
export const REFUSAL_KIND = 5
export const REFUSAL_TEXT = 'no game here for this invite'
/** SPEC §2.3: a stream that carried no refusal for this long (or carried another frame) is admitted. */
export const ADMISSION_GRACE_MS = 2_000

/** The refusal frame (SPEC §2.3): `0x04 0x05` then the text, as any control frame. */
export function encodeRefusal(text: string = REFUSAL_TEXT): Uint8Array {
  const t = utf8(text)
  const out = new Uint8Array(2 + t.length)
  out[0] = FRAME.control
  out[1] = REFUSAL_KIND
  out.set(t, 2)
  return out
}

/**
 * The text of a refusal frame, or undefined for any other frame. The text is the host's, shown to
 * a person only when it is printable ASCII (no escapes, no direction overrides); else it is empty.
 */
export function refusalOf(frame: Uint8Array): string | undefined {
  if (frame[0] !== FRAME.control || frame[1] !== REFUSAL_KIND) return undefined
  const text = new TextDecoder('utf-8', { fatal: false }).decode(frame.subarray(2, 2 + 280))
  return /^[\x20-\x7e]*$/.test(text) ? text : ''
}

export const preamble = (inviteId: string): Uint8Array => utf8(JOIN_PREAMBLE + inviteId)
