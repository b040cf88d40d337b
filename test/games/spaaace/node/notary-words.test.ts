/**
 * A notary's refusal as a player reads it (NOTARY.md §7.1, G_1): its instants, which the notary
 * writes as milliseconds since 1970, are said as UTC times.
 */
import { describe, expect, it } from 'vitest'
import { withInstants } from '../../../../src/games/spaaace/node/witnessed.js'

describe("a notary's message with its instants in words", () => {
  it('registration closed at 1795740624199 (G_1) reads as a time', () => {
    expect(withInstants('registration closed at 1795740624199 (G_1)')).toBe(
      'registration closed at 2026-11-27T00:50:24Z (G_1)',
    )
    // Other numbers are left as they are.
    expect(withInstants('seq 12 of 300 bytes')).toBe('seq 12 of 300 bytes')
  })
})
