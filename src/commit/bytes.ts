/**
 * Byte helpers for canonical encodings (protocol/SPEC.md §3): UTF-8, big-endian integers,
 * length-prefixed fields, strict base64url, constant-time comparison.
 */

const encoder = new TextEncoder()

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

/** RFC 4648 §5 base64url, no padding. */
export function toBase64url(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64url')
}

const BASE64URL = /^[A-Za-z0-9_-]*$/

/**
 * Strict base64url (SPEC §3.2): only the 64 URL-safe characters, no padding, and the one
 * encoding that re-encodes to itself (unused trailing bits zero). Undefined otherwise.
 */
export function fromBase64url(text: string, length?: number): Uint8Array | undefined {
  if (!BASE64URL.test(text) || text.length % 4 === 1) return undefined
  const bytes = new Uint8Array(Buffer.from(text, 'base64url'))
  if (toBase64url(bytes) !== text) return undefined
  if (length !== undefined && bytes.length !== length) return undefined
  return bytes
}

export function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('hex')
}

export function fromHex(text: string): Uint8Array {
  return new Uint8Array(Buffer.from(text, 'hex'))
}

/** Compares in time independent of where the inputs differ (salted openings, hashes). */
export function constantTimeEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  let diff = 0
  for (let i = 0; i < a.length; i++) diff |= (a[i] ?? 0) ^ (b[i] ?? 0)
  return diff === 0
}
