/**
 * DESIGN.md goal 1, the other way round: honest players are never accused. Half 2 of 1,000
 * random honest games between random legal players, in memory with the full protocol. Games are
 * capped at 40 turns (an agreed `maxTurns`, SPEC §6.4) so the thousand fit in CI; whole games
 * run in `honest-full.test.ts`.
 */
import { expect, test } from 'vitest'
import { formatTranscript } from '../../src/transcript/file.js'
import { verifyTranscript } from '../../src/verify/index.js'
import { TERMS, playInMemory } from './helpers.js'

test('500 random honest games end complete on both sides, and the verifier agrees', async () => {
  const terms = { ...TERMS, maxTurns: 40 }
  let complete = 0
  for (let i = 0; i < 500; i++) {
    const g = await playInMemory(`honest/2/${i}`, { terms })
    expect(g.a.verdict, `game ${i}`).toEqual(g.b.verdict)
    expect(g.a.verdict.status, `game ${i}: ${JSON.stringify(g.a.verdict)}`).toBe('complete')
    if (i % 50 === 0) expect(verifyTranscript(formatTranscript(g.b.transcript))).toEqual(g.a.verdict)
    complete++
  }
  expect(complete).toBe(500)
}, 600_000)
