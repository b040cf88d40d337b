/**
 * A stop envelope whose `ack` names an envelope that never existed. Live, a session admits a stop
 * without looking at its ack (GameState.applyStop), persists it and answers it; the verifier then
 * reads the unknown ack as a gap (SPEC §12.3, §12.7 rule 2) and says "incomplete" for every file,
 * merged or not. A loser can so turn abandonment (or a withheld reveal) into "nobody wins".
 */
import { describe, expect, it } from 'vitest'
import { TERMS, playInMemory } from '../session/helpers.js'
import { summary, verdictOf, winnerOf } from './helpers.js'

const terms = { ...TERMS, maxTurns: 60 }
const bogus = new Uint8Array(32).fill(7)

describe('red team: a stop that acknowledges a fabricated envelope', () => {
  it('a quitter who owes its turn and stops with a made-up ack still loses', async () => {
    let done = false
    const g = await playInMemory('redteam/bogus-ack', {
      terms,
      deviations: [
        undefined,
        {
          // B owes commit+aspects of turn 3: instead it stops (no reveal), acknowledging nothing real.
          outgoing(parts, seal) {
            const c = parts.find((p) => p.t === 'commit')
            if (done || c?.t !== 'commit' || c.turn < 3) return [seal(parts)]
            done = true
            return [seal([{ t: 'stop', reason: 'claim', detail: 'x' }], { ack: bogus })]
          },
        },
      ],
    })
    expect(done).toBe(true)
    const own = g.a.verdict
    const merged = verdictOf(g.a.transcript, g.b.transcript)
    // B stopped instead of playing and never revealed: it must lose, not leave the game undecided.
    expect(summary(own)).not.toMatch(/^incomplete/)
    expect(winnerOf(own)).toBe('A')
    expect(winnerOf(merged)).toBe('A')
  })

  it('a signed resignation whose ack names a fabricated envelope still loses', async () => {
    let done = false
    const g = await playInMemory('redteam/bogus-ack-resign', {
      terms,
      deviations: [
        undefined,
        {
          outgoing(parts, seal) {
            const c = parts.find((p) => p.t === 'commit')
            if (done || c?.t !== 'commit' || c.turn < 3) return [seal(parts)]
            done = true
            return [seal([{ t: 'stop', reason: 'resignation', detail: 'x' }], { ack: bogus })]
          },
        },
      ],
    })
    expect(done).toBe(true)
    expect(summary(g.a.verdict)).not.toMatch(/^incomplete/)
    expect(winnerOf(g.a.verdict)).toBe('A')
  })

  it('a phase envelope with a fabricated ack (refused live), then a withheld reveal, still loses', async () => {
    // SPEC §6.3: a phase envelope whose ack is not the other's previous one is a protocol-violation;
    // A accuses live and reveals. B then signs but never sends anything more (its reveal withheld).
    let cheated = false
    const g = await playInMemory('redteam/bogus-ack-phase', {
      terms,
      deviations: [
        undefined,
        {
          outgoing(parts, seal) {
            if (cheated) return 'withhold'
            const c = parts.find((p) => p.t === 'commit')
            if (c?.t !== 'commit' || c.turn < 3) return [seal(parts)]
            cheated = true
            return [seal(parts, { ack: bogus })]
          },
        },
      ],
    })
    expect(cheated).toBe(true)
    // A's own file: B broke the schedule and never revealed: B must lose (§12.7 rule 1 or 7), not "incomplete".
    expect(summary(g.a.verdict)).not.toMatch(/^incomplete/)
    expect(winnerOf(g.a.verdict)).toBe('A')
  })
})
