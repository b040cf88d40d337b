/**
 * Strict base64url (SPEC §3.2): short values are encoded through a scratch Buffer (`toBase64url`),
 * long ones from their own bytes; both are RFC 4648 §5 without padding, and decode back strictly.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { fromBase64url, isBase64url, toBase64url } from '../../src/core/commit/bytes.js'

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
