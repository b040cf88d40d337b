/**
 * Byte helpers for canonical encodings (protocol/SPEC.md §3): UTF-8, big-endian integers,
 * length-prefixed fields, strict base64url, constant-time comparison.
 */

const encoder = new TextEncoder()

/**
 * Strict UTF-8 for untrusted bytes (SPEC §3.4): malformed sequences throw, and a byte-order mark
 * stays a character, so it can never vanish between the bytes read and the text decoded.
 */
export const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

export function utf8(text: string): Uint8Array {
  return encoder.encode(text)
}

export function concatBytes(...parts: readonly Uint8Array[]): Uint8Array {
  let n = 0
  for (const p of parts) n += p.length
  const out = new Uint8Array(n)
  let at = 0
  for (const p of parts) {
    out.set(p, at)
    at += p.length
  }
  return out
}

export function u8(n: number): Uint8Array {
  return Uint8Array.of(n & 0xff)
}

export function u16(n: number): Uint8Array {
  return Uint8Array.of((n >>> 8) & 0xff, n & 0xff)
}

export function u32(n: number): Uint8Array {
  return Uint8Array.of((n >>> 24) & 0xff, (n >>> 16) & 0xff, (n >>> 8) & 0xff, n & 0xff)
}

/** SPEC §3.1: every field of a hash or signature input is a 4-byte big-endian length, then the bytes. */
export function lengthPrefixed(bytes: Uint8Array): Uint8Array {
  return concatBytes(u32(bytes.length), bytes)
}

/** The value of each base64url character (RFC 4648 §5), -1 for any other code unit. */
const BASE64URL_VALUE = new Int8Array(128).fill(-1)
const BASE64URL_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
for (let i = 0; i < 64; i++) BASE64URL_VALUE[BASE64URL_ALPHABET.charCodeAt(i)] = i
const BASE64URL_TEXT = /^[A-Za-z0-9_-]*$/

/**
 * Inputs up to this size (hashes, signatures, keys: the verifier's map keys, several per
 * envelope) are copied into one scratch Buffer and encoded from there. `Buffer.from(bytes.buffer)`
 * over a small typed array makes V8 move its bytes off the heap and a Buffer object each time,
 * which cost more than the encoding: 0.48 µs against 0.19 for 32 bytes, measured (Node 24).
 */
const SCRATCH_BASE64_BYTES = 96
const SCRATCH_BASE64 = Buffer.allocUnsafeSlow(SCRATCH_BASE64_BYTES)

/** RFC 4648 §5 base64url, no padding. */
export function toBase64url(bytes: Uint8Array): string {
  const n = bytes.length
  if (n > SCRATCH_BASE64_BYTES) return Buffer.from(bytes.buffer, bytes.byteOffset, n).toString('base64url')
  // Synchronous, never re-entered: the scratch is free again once the string is made.
  SCRATCH_BASE64.set(bytes)
  return SCRATCH_BASE64.toString('base64url', 0, n)
}

/**
 * Whether `text` is the one strict base64url encoding (SPEC §3.2) of some bytes (of `length`
 * bytes, if given): only the 64 URL-safe characters, no padding, a possible length, and the unused
 * trailing bits zero. Checked on the characters alone, without decoding (the verifier
 * checks thousands of these per game).
 */
export function isBase64url(text: string, length?: number): boolean {
  const n = text.length
  if (n % 4 === 1) return false
  if (length !== undefined && n !== Math.ceil((length * 4) / 3)) return false
  // The engine's regular expressions scan a whole line far faster than a loop over its characters.
  if (!BASE64URL_TEXT.test(text)) return false
  if (n === 0) return true
  // A final group of 2 characters holds 1 byte (4 unused bits), of 3 characters 2 bytes (2 unused).
  const last = BASE64URL_VALUE[text.charCodeAt(n - 1)] ?? -1
  const unusedMask = n % 4 === 2 ? 0x0f : n % 4 === 3 ? 0x03 : 0
  return (last & unusedMask) === 0
}

/**
 * Strict base64url (SPEC §3.2, `isBase64url`) decoded; undefined if not.
 *
 * A text is strict exactly when it is the encoding of what it decodes to: Node's decoder skips
 * characters outside the alphabet, reads the other alphabet's `+` and `/`, padding, and a last
 * character's unused bits, while its encoder writes only the one strict form; so any other text
 * comes back different. One native pass each way costs less than scanning the text first (a
 * transcript line of a setup is 10,700 characters; measured 38 µs against 63 a game).
 */
export function fromBase64url(text: string, length?: number): Uint8Array | undefined {
  const decoded = Buffer.from(text, 'base64url')
  if ((length !== undefined && decoded.length !== length) || decoded.toString('base64url') !== text) return undefined
  return new Uint8Array(decoded)
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')
}

export function fromHex(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'hex'))
}

/** Whether two public values (hashes, ids, signatures) are the same bytes; not for secrets (see below). */
export function equalBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}

/** Compares in time independent of where the inputs differ (salted openings, hashes). */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  const n = a.length
  let diff = 0
  let i = 0
  // Long values (a setup vector, 8,000 bytes, at each reveal) four bytes at a time: every word is
  // still compared, wherever they differ. Views at any offset (a decoded envelope's fields are
  // views of its bytes) through DataViews: 2.5 µs for 8,000 bytes against 1.6 aligned and 8.5
  // byte by byte (measured, Node 24).
  if (n >= 64) {
    const words = n >>> 2
    if (a.byteOffset % 4 === 0 && b.byteOffset % 4 === 0) {
      const wa = new Int32Array(a.buffer, a.byteOffset, words)
      const wb = new Int32Array(b.buffer, b.byteOffset, words)
      for (let j = 0; j < words; j++) diff |= (wa[j] ?? 0) ^ (wb[j] ?? 0)
    } else {
      const va = new DataView(a.buffer, a.byteOffset, n)
      const vb = new DataView(b.buffer, b.byteOffset, n)
      for (let j = 0; j < 4 * words; j += 4) diff |= va.getInt32(j, true) ^ vb.getInt32(j, true)
    }
    i = words * 4
  }
  for (; i < n; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0)
  return diff === 0
}
