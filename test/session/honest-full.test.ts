/** Whole honest games, to their natural end (2.6.1 §2.3), in both variants; no one is accused. */
import { expect, test } from 'vitest'
import { formatTranscript } from '../../src/transcript/file.js'
import { verifyTranscript } from '../../src/verify/index.js'
import { TERMS, playInMemory } from './helpers.js'

test.each([
  ['2.6.1 fleet=standard', 12],
  ['classic fleet=standard', 8],
])('%s: %i whole random games are complete, identical on both sides and for the verifier', async (ruleset, games) => {
  for (let i = 0; i < games; i++) {
    const g = await playInMemory(`full/${ruleset}/${i}`, { terms: { ...TERMS, ruleset } })
    expect(g.a.verdict.status, JSON.stringify(g.a.verdict)).toBe('complete')
    expect(g.b.verdict).toEqual(g.a.verdict)
    expect(verifyTranscript(formatTranscript(g.a.transcript))).toEqual(g.a.verdict)
    if (g.a.verdict.status === 'complete') expect(g.a.verdict.reason).not.toBe('turn-limit')
  }
}, 300_000)
