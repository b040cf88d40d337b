/**
 * Red team: an envelope that arrives at the very moment the waiting side's deadline fires (SPEC
 * §6.6). The waiting side claims (SPEC §6.5); if its stop acknowledged an envelope merely
 * persisted, not acted on, a late envelope persisted between the deadline firing and the claim
 * being sealed would make the honest claimant's stop acknowledge the envelope that made it due,
 * and SPEC §12.7 rule 6 would read that as the claimant abandoning: the honest side would lose on
 * a network delay, and a late peer could aim for it. A stored envelope is acted on before any
 * claim, and a stop acknowledges only what was acted on.
 */
import { describe, expect, it } from 'vitest'
import { TERMS, playInMemory } from '../session/helpers.js'
import { partsOf, summary, verdictOf } from './helpers.js'

const terms = { ...TERMS, maxTurns: 6 }

/** B's frame number `index` is delayed so that it lands `offset` ms after A's deadline for it. */
function landOnDeadline(index: number, offset: number) {
  let lastA = 0
  return (_f: Uint8Array, from: 0 | 1, i: number, now: () => number): 'deliver' | { delay: number } => {
    if (from === 0) {
      lastA = now()
      return 'deliver'
    }
    return i === index ? { delay: lastA + terms.replyMs + offset - now() } : 'deliver'
  }
}

describe('red team: an envelope landing on the deadline (SPEC §6.6, §12.7 rule 6)', () => {
  // The attack this guards against: with offset 0 the frame (B's results of turn 1, with its commitment ahead, frame 3)
  // is delivered by the same clock tick that fires A's deadline; A's claim then acknowledges it, and
  // every verdict says "abandoned A": the honest side that waited the whole deadline loses.
  it('SPEC §6.5 §6.6 §12.7: an honest claim made as the late envelope lands never reads as the claimant abandoning', async () => {
    for (const offset of [-1, 0, 1]) {
      let clockNow: () => number = () => 0
      const fault = landOnDeadline(3, offset)
      const g = await playInMemory('redteam/deadline-race', {
        terms,
        onLink: (_p, c) => {
          clockNow = () => c.now()
        },
        fault: (f, from, i) => fault(f, from, i, clockNow),
      })
      const seq = g.a.transcript.map(partsOf)
      const merged = verdictOf(g.a.transcript, g.b.transcript)
      for (const v of [g.a.verdict, g.b.verdict, merged]) {
        // B was (at best) on time to the millisecond: A, which only waited, must never lose.
        expect(`${offset}: ${summary(v)} ${seq.join(' ')}`).not.toMatch(/abandoned A|offence A|-> B /)
      }
    }
  })
})
