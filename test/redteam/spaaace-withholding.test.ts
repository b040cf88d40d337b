/**
 * Red team, Spaaace! among peers: one cheater withholds (protocol/SPAAACE-PEERS.md §14 vectors 6
 * and 7, one-cheater halves). Withholding from one player hides nothing (§8: each envelope an
 * honest node holds is forwarded once to every peer); what reaches no honest seal in time is out
 * (§5.2), never an offence (§9 "not offences, ever"); a commitment without its reveal is `withheld`
 * (§5.3 rule 4, S-62). One player alone cannot hold a tick open (§7.3, §12): every game completes
 * on time.
 */
import { describe, expect, it } from 'vitest'
import {
  type RedTeamGame,
  dropping,
  hasPart,
  holdingBack,
  redTeamGame,
  secureOutcome,
  timesOf,
} from './spaaace-helpers.js'

const CHEATER = 4
const TICKS = 3

/** When an honest game of the same length ends (the tick times are fixed by the genesis, §3.1). */
function onTime(g: RedTeamGame): void {
  // §7.3: every tick settles by R_t + SKEW_MS + 2·Δ (3·Δ + 3·SKEW_MS for a late seal cut).
  const last = timesOf(g, TICKS)
  const m = g.genesis.genesis.timing.marginMs
  expect(g.endedAt, 'the game ended no later than an honest one may').toBeLessThanOrEqual(last.revealCut + 3 * m + 3000)
}

describe('red team: a commitment withheld from some players, a reveal withheld (§5.2, §5.3, §8, S-61, S-62)', () => {
  it('p5 sends its commitment early to p1 only: p1 forwards it, every seal holds it, it counts (§8, §5.3)', async () => {
    const only: string[] = []
    const g = await redTeamGame({
      seed: 'rt-early-to-one',
      ticks: TICKS,
      cheaters: {
        [CHEATER]: {
          route: dropping((e, to) => {
            if (!hasPart(e, 'commit', 1) || to === 0) return false
            only.push(e.id)
            return true
          }),
        },
      },
    })
    expect(only.length, 'the commitment was kept from p2..p4').toBeGreaterThan(0)
    secureOutcome(g, {
      end: 'complete',
      offences: { [CHEATER]: [] },
      submissions: { [CHEATER]: { 1: 'orders' } },
      settledTo: TICKS,
    })
    onTime(g)
  })

  it('p5 sends its commitment to p1 only, after every honest seal: out, p5 missing, no offence, no delay (§5.2, S-61)', async () => {
    const late = holdingBack(
      (e) => hasPart(e, 'commit', 1),
      (ctx) => timesOf(ctx, 1).commitCut + 300,
    )
    const g = await redTeamGame({
      seed: 'rt-late-to-one',
      ticks: TICKS,
      cheaters: {
        [CHEATER]: { publish: late.publish, route: dropping((e, to) => late.held.includes(e.id) && to !== 0) },
      },
    })
    expect(late.held.length, 'the commitment was held back').toBeGreaterThan(0)
    secureOutcome(g, {
      end: 'complete',
      offences: { [CHEATER]: [] },
      submissions: { [CHEATER]: { 1: 'missing' } },
      settledTo: TICKS,
    })
    // The late commitment reached every honest node (forwarded by p1), and still counted nowhere.
    for (const i of g.honest) {
      const d = g.result.peers[i]?.decision()
      expect(d?.ticks[0]?.committed[CHEATER], `p${i + 1}: p5 committed in tick 1`).toBe(false)
    }
    onTime(g)
  })

  it('p5 sends its reveal to p1 only: p1 forwards it, every close holds it, its orders count (§8, §14 vector 8)', async () => {
    const kept: string[] = []
    const g = await redTeamGame({
      seed: 'rt-reveal-to-one',
      ticks: TICKS,
      cheaters: {
        [CHEATER]: {
          route: dropping((e, to) => {
            if (!hasPart(e, 'reveal', 1) || to === 0) return false
            kept.push(e.id)
            return true
          }),
        },
      },
    })
    expect(kept.length, 'the reveal was kept from p2..p4').toBeGreaterThan(0)
    secureOutcome(g, {
      end: 'complete',
      offences: { [CHEATER]: [] },
      submissions: { [CHEATER]: { 1: 'orders' } },
      settledTo: TICKS,
    })
    onTime(g)
  })

  it('p5 commits and never reveals: withheld (S-62), every tick settles on time, no offence', async () => {
    const g = await redTeamGame({
      seed: 'rt-reveal-withheld',
      ticks: TICKS,
      cheaters: { [CHEATER]: { shape: (parts) => parts.filter((p) => p.type !== 'reveal') } },
    })
    secureOutcome(g, {
      end: 'complete',
      offences: { [CHEATER]: [] },
      submissions: { [CHEATER]: { 1: 'withheld', 2: 'withheld', 3: 'withheld' } },
      settledTo: TICKS,
    })
    onTime(g)
  })
})
