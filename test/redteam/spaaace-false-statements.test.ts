/**
 * Red team, Spaaace! among peers: a cheater signs statements the evidence contradicts
 * (protocol/SPAAACE-PEERS.md §14 vectors 11 and 12). A closing hash that is not the state its own
 * envelope's past gives is a false closing hash, proven by that one signature (§5.6, §9, S-80):
 * counted, `equivocated`, removed. Any printable text may be committed (§4.3); orders that do not
 * parse, such as `bid 21` or `bid -10`, are `malformed` at the close cut (§5.3 rule 2, S-37):
 * replaced by the empty set and an offence, so the cheater is removed. Neither stalls anyone.
 */
import { describe, expect, it } from 'vitest'
import { falseClosingHash, label, redTeamGame, secureOutcome } from './spaaace-helpers.js'

const CHEATER = 4

describe('red team: false closing hash, malformed orders, bids out of range (§5.6, §9, S-37, S-80)', () => {
  it('p5 signs a false state(1): convicted by that signature alone, counted in tick 2, removed; the honest closing states stand', async () => {
    const g = await redTeamGame({
      seed: 'rt-false-hash',
      ticks: 3,
      cheaters: { [CHEATER]: { shape: falseClosingHash(1) } },
    })
    secureOutcome(g, {
      end: 'complete',
      // Its false state(1) rides with its commit(2), which its t_e (still 1: no correct state part,
      // §4.2) makes inadmissible: a violation (§9 (v)) on the same signature.
      offences: { [CHEATER]: ['false-state', 'violation'] },
      submissions: { [CHEATER]: { 1: 'orders', 2: 'equivocated' } },
      settledTo: 3,
    })
    for (const i of g.honest) {
      const d = g.result.peers[i]?.decision()
      const f = d?.offences.find((o) => o.kind === 'false-state')
      expect(f?.rule, label(i)).toBe('§5.6')
      expect(f?.counted, `${label(i)}: counted in tick 2`).toBe(2)
      // §5.6 rule 1: tick 1 canonical, signed by the four who signed the true hash.
      expect(d?.ticks[0]?.canonical?.signers, `${label(i)}: tick 1 signers`).toEqual([0, 1, 2, 3])
      expect(d?.ticks[1]?.outcome?.state.players.at(CHEATER)?.status).toBe('removed')
    }
  })

  for (const orders of ['bid 21', 'bid -10']) {
    it(`p5 commits and reveals “${orders}”: malformed (S-37), removed, no offence report, nobody else touched`, async () => {
      const g = await redTeamGame({
        seed: `rt-malformed-${orders}`,
        ticks: 3,
        cheaters: { [CHEATER]: { chooser: { choose: () => orders } } },
      })
      secureOutcome(g, {
        end: 'complete',
        offences: { [CHEATER]: [] },
        submissions: { [CHEATER]: { 1: 'malformed' } },
        settledTo: 3,
      })
      for (const i of g.honest) {
        const d = g.result.peers[i]?.decision()
        expect(d?.ticks[0]?.revealed[CHEATER], `${label(i)}: p5 revealed`).toBe(true)
        expect(d?.ticks[0]?.outcome?.state.players.at(CHEATER)?.status, label(i)).toBe('removed')
      }
    })
  }
})
