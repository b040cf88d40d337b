/** The comparison of hashes, openings and setup vectors (`constantTimeEqual`): equality, on any views. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { constantTimeEqual } from '../../src/core/commit/bytes.js'

describe('constantTimeEqual', () => {
  it('is byte equality for any lengths and offsets, aligned or not, on both sides of its word path', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 0, maxLength: 300 }),
        fc.nat(7),
        fc.nat(7),
        fc.option(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 255 }))),
        (bytes, offA, offB, change) => {
          const a = new Uint8Array(bytes.length + offA)
          a.set(bytes, offA)
          const b = new Uint8Array(bytes.length + offB)
          b.set(bytes, offB)
          const va = a.subarray(offA)
          const vb = b.subarray(offB)
          if (change !== null && bytes.length > 0) {
            const at = change[0] % bytes.length
            vb[at] = (vb[at] ?? 0) ^ change[1]
            expect(constantTimeEqual(va, vb)).toBe(false)
          } else expect(constantTimeEqual(va, vb)).toBe(true)
          expect(constantTimeEqual(va, vb.subarray(0, Math.max(0, vb.length - 1)))).toBe(
            bytes.length === 0 ? true : false,
          )
        },
      ),
      { numRuns: 2000 },
    )
  })

  it('finds a difference in the last byte and in the first of an 8,000-byte setup vector', () => {
    const x = Uint8Array.from({ length: 8000 }, (_, i) => (i * 13) & 0xff)
    for (const at of [0, 3, 4, 7996, 7999]) {
      const y = x.slice()
      y[at] = (y[at] ?? 0) ^ 1
      expect(constantTimeEqual(x, y)).toBe(false)
    }
    expect(constantTimeEqual(x, x.slice())).toBe(true)
  })
})
