/**
 * Red team, Spaaace! among peers: a coalition of two among five (protocol/SPAAACE-PEERS.md §12
 * "any two players", §14 vectors 6 and 16). Two can hold a tick open by the race (§5.0, §7.3): a
 * commitment of one held by one honest seal only, and the withheld seal of the other; the honest
 * nodes then vote at `R_t + STALL_MS` and the game ends stalled, with no winner and nobody accused
 * (§5.7, §6.7). Two that each cheat on their own signatures are each convicted and removed, and
 * the honest three finish the game (§9, S-80).
 */
import { describe, expect, it } from 'vitest'
import { stallMs } from '../../src/games/spaaace/peers/domain.js'
import {
  equivocator,
  falseClosingHash,
  label,
  raceGame,
  redTeamGame,
  secureOutcome,
  timesOf,
} from './spaaace-helpers.js'

const P4 = 3
const P5 = 4

describe('red team: a coalition of two among five (§5.0, §5.7, §7.3, §12, S-80)', () => {
  it('p5 races its commitment into p1’s seal only while p4 withholds its seal: open, then stalled at tick 1 by the honest votes, nobody accused (§14 vector 6)', async () => {
    const g = await raceGame('rt-coalition-race')
    secureOutcome(g, { end: 'stalled', offences: { [P4]: [], [P5]: [] }, settledTo: 0 })
    const t1 = timesOf(g, 1)
    const m = g.genesis.genesis.timing.marginMs
    for (const i of g.honest) {
      const d = g.result.peers[i]?.decision()
      // §5.2: p5's commitment is held by p1's seal only: yes = 2 (p1, its author), no = 2: open.
      expect(d?.ticks[0]?.status, `${label(i)}: tick 1`).toBe('open')
      expect(d?.ticks[0]?.seals, `${label(i)}: seals of tick 1`).toEqual([0, 1, 2, P5])
      // §5.7: stalled at tick 1, with p4's missing cut listed; §6.7: the three honest votes.
      expect(d?.end.kind === 'stalled' ? d.end.lacking : [], `${label(i)}: lacking`).toContain(P4)
      expect(d?.ticks[0]?.votes, `${label(i)}: votes`).toEqual(expect.arrayContaining([0, 1, 2]))
    }
    // §5.0: nobody kept waiting past R_t + STALL_MS + Δ + 2·SKEW_MS.
    expect(g.endedAt).toBeGreaterThanOrEqual(t1.revealCut + stallMs(m))
    expect(g.endedAt).toBeLessThanOrEqual(t1.revealCut + stallMs(m) + m + 2000)
  })

  it('p4 equivocates to some players and p5 signs a false closing hash: both convicted and removed, p1..p3 finish the game (§9, §5.6, S-80)', async () => {
    const g = await redTeamGame({
      seed: 'rt-coalition-two-offences',
      ticks: 4,
      cheaters: {
        [P4]: equivocator({ tick: 1, a: [0, 1], b: [2] }),
        [P5]: { shape: falseClosingHash(1) },
      },
    })
    secureOutcome(g, {
      end: 'complete',
      // p5's false state(1) rides with its commit(2): its t_e stays 1 (no correct state part, §4.2),
      // so that commit is inadmissible, a violation (§9 (v)) on the same signature.
      offences: { [P4]: ['fork'], [P5]: ['false-state', 'violation'] },
      submissions: { [P4]: { 1: 'equivocated' }, [P5]: { 2: 'equivocated' } },
      settledTo: 4,
    })
    for (const i of g.honest) {
      const d = g.result.peers[i]?.decision()
      // Removed at step 9 of the tick each offence counted in; the honest three go on (M = 2).
      expect(d?.ticks[2]?.active, `${label(i)}: A_3`).toEqual([0, 1, 2])
      expect(d?.ticks[2]?.majority).toBe(2)
    }
  })
})
