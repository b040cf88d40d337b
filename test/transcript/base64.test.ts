/**
 * Strict base64url (SPEC §3.2): short values are encoded through a scratch Buffer (`toBase64url`),
 * long ones from their own bytes; both are RFC 4648 §5 without padding, and decode back strictly.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fromBase64url, isBase64url, toBase64url } from '../../src/core/commit/bytes.js'
import { parseTranscript } from '../../src/core/transcript/file.js'

describe('base64url (SPEC §3.2)', () => {
  it('encodes every length on both sides of the scratch size exactly as node:buffer does, and decodes back', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 300 }), (b) => {
        const text = toBase64url(b)
        expect(text).toBe(Buffer.from(b).toString('base64url'))
        expect(isBase64url(text, b.length)).toBe(true)
        expect(fromBase64url(text)).toEqual(b)
      }),
      { numRuns: 2000 },
    )
  })

  it('decodes exactly the strict texts: any text over the alphabet, the other alphabet, padding, spaces, other characters', () => {
    // The rule read character by character (SPEC §3.2): `isBase64url`, then the bytes.
    const reference = (text: string, length?: number): Uint8Array | undefined =>
      isBase64url(text, length) ? new Uint8Array(Buffer.from(text, 'base64url')) : undefined
    const char = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.split(''))
    const odd = fc.constantFrom('+', '/', '=', ' ', '\n', '\r', '\t', '.', 'é', '\u0000', '\u{1F680}', 'A', 'Q', 'w')
    const text = fc.oneof(
      fc.string({ unit: char, maxLength: 60 }),
      fc.string({ unit: fc.oneof(char, odd), maxLength: 60 }),
      fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from(b).toString('base64url')),
      fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from(b).toString('base64')),
    )
    fc.assert(
      fc.property(text, fc.option(fc.nat(45)), (t, length) => {
        expect(fromBase64url(t, length ?? undefined)).toEqual(reference(t, length ?? undefined))
      }),
      { numRuns: 5000 },
    )
    // Unused bits set in the last character, and a length of 1 modulo 4.
    for (const t of ['AB', 'AAB', 'AAAAB', 'QR', 'A', 'AAAAA']) expect([t, fromBase64url(t)]).toEqual([t, reference(t)])
  })

  it("reads a transcript's lines as fromBase64url reads each, whatever the rows hold", () => {
    // parseTranscript decodes every line into one buffer of the file's; each must still be exactly
    // the strict decoding of its row, or refused as not strict (SPEC §3.2, §11).
    const format = { name: 't', version: 1, maxBytes: 1 << 20, maxLines: 1000 }
    const char = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'.split(''))
    const odd = fc.constantFrom('+', '/', '=', ' ', '\r', '\t', '.', 'é', 'Ł', '\u0000', '\u{1F680}', 'A', 'Q', 'w')
    const row = fc.oneof(
      fc.string({ unit: fc.oneof(char, odd), maxLength: 60 }),
      fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b).toString('base64url')),
      fc.uint8Array({ maxLength: 40 }).map((b) => Buffer.from(b).toString('base64')),
    )
    fc.assert(
      fc.property(fc.array(row, { maxLength: 12 }), fc.boolean(), (rows, asBytes) => {
        const text = ['t 1', ...rows].join('\n') + '\n'
        const parsed = parseTranscript(format, asBytes ? new TextEncoder().encode(text) : text)
        if (!parsed.ok) throw new Error('the header reads')
        // Bytes are read as latin1 (one character a byte): what each row is, read that way.
        const read = asBytes ? Buffer.from(text, 'utf8').toString('latin1').split('\n').slice(1, -1) : rows
        expect(parsed.value.lines.map((l) => l.bytes)).toEqual(
          read.map((r) => (r === '' ? undefined : fromBase64url(r))),
        )
      }),
      { numRuns: 3000 },
    )
  })

  it('encodes a view into a larger buffer as the view alone', () => {
    const whole = Uint8Array.from({ length: 200 }, (_, i) => (i * 37) & 0xff)
    for (const [from, to] of [
      [0, 0],
      [1, 2],
      [3, 35],
      [7, 71],
      [10, 190],
    ] as const)
      expect(toBase64url(whole.subarray(from, to))).toBe(Buffer.from(whole.slice(from, to)).toString('base64url'))
  })
})
