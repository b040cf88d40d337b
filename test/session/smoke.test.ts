import { expect, test } from 'vitest'
import { playInMemory, TERMS } from './helpers.js'
import { verifyEnvelopes } from '../../src/verify/verify.js'

test('smoke: honest random games in memory complete identically on both sides', async () => {
  const statuses: string[] = []
  for (const ruleset of ['2.6.1 fleet=standard', 'classic fleet=standard']) {
    for (let i = 0; i < 10; i++) {
      const g = await playInMemory(`smoke/${ruleset}/${i}`, { terms: { ...TERMS, ruleset } })
      statuses.push(`${ruleset} ${i}: ${g.a.verdict.status} ${'reason' in g.a.verdict ? g.a.verdict.reason : ''} ${'turn' in g.a.verdict ? g.a.verdict.turn : ''} ${g.a.transcript.length}`)
      if (g.a.verdict.status !== 'complete') console.log(JSON.stringify(g.a.verdict))
      expect(g.a.verdict.status).toBe('complete')
      expect(JSON.stringify(g.a.verdict)).toBe(JSON.stringify(g.b.verdict))
      expect(JSON.stringify(verifyEnvelopes(g.b.transcript))).toBe(JSON.stringify(g.a.verdict))
    }
  }
  console.log(statuses.join('\n'))
})
