/**
 * DESIGN.md goal 1 the other way round: honest players are never accused. Whole random games in
 * both rulesets end complete and identical on both sides; a third party reaches the same verdict
 * from either file and from both merged. (The thousand-game soak is `npm run soak`.)
 */
import { describe, expect, it } from 'vitest'
import { formatTranscript } from '../../src/games/spaceships/protocol/file.js'
import { verifyFiles } from '../../src/games/spaceships/verify/verify.js'
import { TERMS, playInMemory } from './helpers.js'

const GAMES = 12

describe('honest games (DESIGN.md goal 1)', () => {
  for (const [version, ruleset] of [
    [3, '2.6.1 fleet=standard'],
    [3, 'classic fleet=standard'],
    [3, '2.6.1 fleet=cost:24 max=DS:1'],
    [4, '2.6.1 fleet=standard'],
    [4, 'classic fleet=standard'],
    [4, '2.6.1 fleet=cost:24 max=DS:1'],
  ] as const) {
    it(`version ${version}, ${ruleset}: ${GAMES} whole random games are complete, identical on both sides and for the verifier`, async () => {
      for (let i = 0; i < GAMES; i++) {
        const g = await playInMemory(`honest/${ruleset}/${i}`, { version, terms: { ...TERMS, ruleset } })
        expect(g.a.transcript[0]?.[0]).toBe(version)
        expect(g.a.verdict.status, JSON.stringify(g.a.verdict)).toBe('complete')
        const key = JSON.stringify(g.a.verdict)
        expect(JSON.stringify(g.b.verdict)).toBe(key)
        const files = {
          a: { name: 'a', content: formatTranscript(g.a.transcript) },
          b: { name: 'b', content: formatTranscript(g.b.transcript) },
        }
        expect(JSON.stringify(verifyFiles([files.b]))).toBe(key)
        const merged = verifyFiles([files.a, files.b])
        expect(merged.status === 'complete' ? [merged.scores, merged.winner, merged.turn] : merged.status).toEqual(
          g.a.verdict.status === 'complete' ? [g.a.verdict.scores, g.a.verdict.winner, g.a.verdict.turn] : '',
        )
      }
    }, 120_000)
  }
})
