/**
 * SPEC §12.7, rules 2 and 3: a refusal ends the game before it begins. Envelopes after a refusal
 * belong to no game, so what they name is not a gap of the game and what they hold convicts
 * nobody: B's refusal (its hello) and A's (its envelope at seq 1) both decide "no game" before the
 * gap and offence rules; only A's equivocation at the refusal's own place is an offence.
 */
import { describe, expect, it } from 'vitest'
import { toBase64url } from '../../src/core/commit/bytes.js'
import { TRANSCRIPT_MAGIC } from '../../src/games/spaceships/protocol/file.js'
import type { SealedEnvelope } from '../../src/games/spaceships/protocol/envelope.js'
import { verifyFiles } from '../../src/games/spaceships/verify/verify.js'
import { handGame, refusalThenMissing } from '../protocol/build-vectors.js'

const file = (envelopes: readonly SealedEnvelope[]): string =>
  [TRANSCRIPT_MAGIC, ...envelopes.map((s) => toBase64url(s.bytes))].join('\n') + '\n'

describe('a refusal before a gap (SPEC §12.7, rules 2 and 3)', () => {
  it("A's refusal followed by an envelope naming a missing one: refused, not a gap", () => {
    const v = verifyFiles([{ name: 'f', content: refusalThenMissing() }])
    // Before: `incomplete`, reason `gap` (rule 2 was applied before A's refusal).
    expect(v).toMatchObject({ status: 'incomplete', reason: 'refused' })
    expect(v.status === 'incomplete' && v.detail).toMatch(/^no game: A refused B's hello \(key: /)
  })

  it("B's refusal followed by an envelope naming a missing one: refused, as it was", () => {
    const g = handGame('refusal-test/b', { refuseB: { t: 'refuse', reason: 'terms', detail: 'other terms' } })
    // A's envelope 2, whose envelope 1 (after B's refusal) is missing.
    g.next('A', [{ t: 'stop', reason: 'claim', detail: '' }], g.helloB)
    const after = g.next('A', [{ t: 'stop', reason: 'claim', detail: '' }], g.helloB)
    const v = verifyFiles([{ name: 'f', content: file([g.helloA, g.helloB, after]) }])
    expect(v).toMatchObject({
      status: 'incomplete',
      reason: 'refused',
      detail: "no game: B refused A's hello (terms: other terms)",
    })
  })

  it("A's equivocation at the refusal's own place is an offence", () => {
    const g = handGame('refusal-test/equivocation')
    const refusal = g.next('A', [{ t: 'refuse', reason: 'key', detail: 'one' }], g.helloB)
    const other = handGame('refusal-test/equivocation')
    const second = other.next('A', [{ t: 'refuse', reason: 'key', detail: 'two' }], other.helloB)
    const v = verifyFiles([{ name: 'f', content: file([g.helloA, g.helloB, refusal, second]) }])
    expect(v.status === 'offence' && v.offence).toMatchObject({ offender: 'A', class: 'equivocation', seq: 1 })
  })
})
