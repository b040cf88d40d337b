/**
 * SPEC §6.1, §12.1, NOTATION.md "Rulesets": a hello states its ruleset in the canonical form only.
 * A's hello with a ruleset out of the canonical order, or one no parser knows, does not decode, so
 * the files name no game; the verdict says so of A's hello, not that B's hello is missing when B's
 * hello, answering it, is in the file.
 */
import { describe, expect, it } from 'vitest'
import { toBase64url } from '../../src/core/commit/bytes.js'
import { TRANSCRIPT_MAGIC } from '../../src/games/spaceships/protocol/file.js'
import type { SealedEnvelope } from '../../src/games/spaceships/protocol/envelope.js'
import { verifyFiles } from '../../src/games/spaceships/verify/verify.js'
import { handGame, nonCanonicalRuleset } from '../protocol/build-vectors.js'
import { TERMS } from '../session/helpers.js'

const file = (envelopes: readonly SealedEnvelope[]): string =>
  [TRANSCRIPT_MAGIC, ...envelopes.map((s) => toBase64url(s.bytes))].join('\n') + '\n'

function helloWith(ruleset: string, maxTurns = 40): string {
  const g = handGame(`hello-ruleset/${ruleset}/${maxTurns}`, { terms: { ...TERMS, maxTurns, ruleset } })
  return file([g.helloA, g.helloB])
}

describe("A's hello with a ruleset that is not canonical, or unknown (SPEC §6.1, §12.1)", () => {
  it('words out of the canonical order: no game, because A’s hello states a ruleset that is not canonical', () => {
    // Before: "no game: B's hello (acknowledging A's) is missing", though B's hello is in the file.
    expect(verifyFiles([{ name: 'f', content: nonCanonicalRuleset() }])).toMatchObject({
      status: 'incomplete',
      reason: 'no-game',
      detail:
        'no game: A\'s hello states a ruleset that is not canonical ("2.6.1 strictPatrolCruiser fleet=standard"; canonically "2.6.1 fleet=standard strictPatrolCruiser")',
    })
  })

  it('a ruleset no parser knows: no game, because A’s hello states an unknown ruleset', () => {
    const v = verifyFiles([{ name: 'f', content: helloWith('2.6.1 fleet=giant') }])
    expect(v).toMatchObject({ status: 'incomplete', reason: 'no-game' })
    expect(v.status === 'incomplete' && v.detail).toMatch(
      /^no game: A's hello states an unknown ruleset \("2\.6\.1 fleet=giant": /,
    )
  })

  it('a canonical ruleset but another field out of range: A’s hello does not decode', () => {
    const v = verifyFiles([{ name: 'f', content: helloWith('2.6.1 fleet=standard', 0) }])
    expect(v).toMatchObject({ status: 'incomplete', reason: 'no-game' })
    expect(v.status === 'incomplete' && v.detail).toMatch(/^no game: A's hello does not decode \(field\.range at /)
  })

  it('the canonical form is a game', () => {
    expect(verifyFiles([{ name: 'f', content: helloWith('2.6.1 fleet=standard strictPatrolCruiser') }])).toMatchObject({
      status: 'incomplete',
      reason: 'no-game',
      detail: 'no game: A never committed its setup',
    })
  })
})
