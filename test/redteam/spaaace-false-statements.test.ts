/**
 * Red team, Spaaace! among peers: a cheater signs statements the evidence contradicts
 * (protocol/SPAAACE-PEERS.md §14 vectors 11 and 12). A closing hash that is not the state its own
 * envelope's past gives is a false closing hash, proven by that one signature (§5.6, §9, S-80):
 * counted, `equivocated`, removed. Any printable text may be committed (§4.3); orders that do not
 * parse, such as `bid 21` or `bid -10`, are `malformed` at the close cut (§5.3 rule 2, S-37):
 * replaced by the empty set and an offence, so the cheater is removed; a reveal that does not open
 * its commitment is a `mismatch` (§5.3 rule 3); a part of a tick beyond `t_e` is inadmissible, a
 * protocol violation (§4.2, §9 (v)). None of them stalls anyone.
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

  it('p5 reveals orders its commitment does not bind: mismatch (S-60, S-62), removed, nobody else touched (§5.3 rule 3, §14 vector 13)', async () => {
    const g = await redTeamGame({
      seed: 'rt-mismatch',
      ticks: 3,
      cheaters: {
        [CHEATER]: {
          shape: (parts) =>
            parts.map((p) =>
              p.type === 'reveal' && p.tick === 1 ? { ...p, orders: p.orders === '-' ? 'bid 0' : '-' } : p,
            ),
        },
      },
    })
    secureOutcome(g, {
      end: 'complete',
      offences: { [CHEATER]: [] },
      submissions: { [CHEATER]: { 1: 'mismatch' } },
      settledTo: 3,
    })
    for (const i of g.honest)
      expect(g.result.peers[i]?.decision().ticks[0]?.outcome?.state.players.at(CHEATER)?.status, label(i)).toBe(
        'removed',
      )
  })

  it('p5 signs seal(1000) in tick 1: an inadmissible part (§4.2, §9 (v)), convicted on that signature, counted in tick 1; t_e does not move (§14 vector 24)', async () => {
    let jumped = false
    const g = await redTeamGame({
      seed: 'rt-tick-jump',
      ticks: 3,
      cheaters: {
        [CHEATER]: {
          // Its chain never holds seal(1), so its node keeps trying: sign seal(1000) once, then no seal.
          shape: (parts) => {
            const out = parts.flatMap((p) =>
              p.type === 'seal' && p.tick === 1 ? (jumped ? [] : [{ ...p, tick: 1000 }]) : [p],
            )
            jumped ||= parts.some((p) => p.type === 'seal')
            return out
          },
        },
      },
    })
    secureOutcome(g, {
      end: 'complete',
      offences: { [CHEATER]: ['violation'] },
      submissions: { [CHEATER]: { 1: 'equivocated' } },
      settledTo: 3,
    })
    for (const i of g.honest) {
      const d = g.result.peers[i]?.decision()
      const v = d?.offences.find((o) => o.player === CHEATER && o.rule === '§9 (v)')
      expect(v?.counted, `${label(i)}: the inadmissible seal counted in tick 1`).toBe(1)
      // Its seal counted in no cut: the seal cut of tick 1 is the four honest seals.
      expect(d?.ticks[0]?.seals, label(i)).toEqual([0, 1, 2, 3])
    }
  })
})
