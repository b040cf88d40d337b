/**
 * protocol/SPAAACE-WITNESSED.md §8.1–§8.2: the honest node's plan at a check-in, from its chain,
 * its own envelopes and its clock.
 */
import { describe, expect, it } from 'vitest'
import { SKEW_MS } from '../../../../src/games/spaaace/peers/domain.js'
import { tickTimes } from '../../../../src/games/spaaace/peers/genesis.js'
import { type OwnEnvelope, planCheckin, revealGuard } from '../../../../src/games/spaaace/witness/checkin.js'
import { decideWitnessed } from '../../../../src/games/spaaace/witness/decide.js'
import {
  type Scenario,
  commitPart,
  evidence,
  honestTick,
  mark,
  receipt,
  revealPart,
  seeds,
  sign,
  times,
  witnessedScenario,
} from './scenario.js'

function ownOf(s: Scenario, q: number): OwnEnvelope[] {
  const receipts = new Map<number, number>()
  for (const r of s.chain) if (r.kind === 'envelope' && r.author === q) receipts.set(r.seq, r.time)
  return [...s.signed.values()]
    .filter((e) => e.envelope.author === q)
    .sort((a, b) => a.envelope.seq - b.envelope.seq)
    .map((e) => {
      const time = receipts.get(e.envelope.seq)
      return { seq: e.envelope.seq, parts: e.envelope.parts, ...(time === undefined ? {} : { receiptTime: time }) }
    })
}

function plan(s: Scenario, q: number, now: number, chosen: number[] = []) {
  return planCheckin({
    genesis: s.genesis,
    self: q,
    now,
    chain: s.chain,
    decision: decideWitnessed(evidence(s)),
    own: ownOf(s, q),
    chosen: new Set(chosen),
    sealed: false,
  })
}

describe('check-in plan (SPAAACE-WITNESSED §8.2)', () => {
  it('commit window: choose, then commit once chosen, never after G_t', () => {
    const s = witnessedScenario(3, 3)
    const at = tickTimes(s.genesis.genesis.timing, 1)
    expect(plan(s, 0, at.start + 10).steps).toEqual([{ kind: 'choose', t: 1, guard: at.guard }])
    expect(plan(s, 0, at.start + 10, [1]).steps).toEqual([{ kind: 'commit', t: 1 }])
    expect(plan(s, 0, at.guard + 1, [1]).steps).toEqual([])
    expect(plan(s, 0, at.start + 10, [1]).window).toEqual({ t: 1, phase: 'commit', until: at.guard })
  })

  it('reveal: only with a receipt past C_t (a mark first) and its commitment in, and only until Q_t', () => {
    const s = witnessedScenario(3, 3)
    const at = times(s, 1)
    receipt(s, sign(s, 0, [commitPart(s, 0, 1)]), at.start + 10)
    const after = at.C + SKEW_MS + 5
    expect(plan(s, 0, after).steps).toEqual([{ kind: 'mark', t: 1, cut: 0 }])
    mark(s, 1, 0, at.C + 1)
    expect(plan(s, 0, after).steps).toEqual([{ kind: 'reveal', t: 1 }])
    expect(plan(s, 0, revealGuard(s.genesis, 1) + 1).steps).toEqual([])
  })

  it('no reveal of a commitment receipted after C_t (it is out: a reveal would only disclose orders)', () => {
    const s = witnessedScenario(3, 3)
    const at = times(s, 1)
    receipt(s, sign(s, 0, [commitPart(s, 0, 1)]), at.C + 1)
    expect(plan(s, 0, at.C + SKEW_MS + 5).steps).toEqual([])
  })

  it('a reveal signed once is never planned again (read from its own chain, §8.5)', () => {
    const s = witnessedScenario(3, 3)
    const at = times(s, 1)
    receipt(s, sign(s, 0, [commitPart(s, 0, 1)]), at.start + 10)
    mark(s, 1, 0, at.C + 1)
    sign(s, 0, [revealPart(s, 0, 1)])
    expect(plan(s, 0, at.C + SKEW_MS + 5).steps).toEqual([])
  })

  it('the next tick is chosen on S_{t−1} only once the chain passes R_{t−1} (a mark first)', () => {
    const s = witnessedScenario(3, 3)
    const at = times(s, 1)
    for (const q of [0, 1, 2]) receipt(s, sign(s, q, [commitPart(s, q, 1)]), at.start + 10 + q)
    mark(s, 1, 0, at.C + 1)
    for (const q of [0, 1, 2]) receipt(s, sign(s, q, [revealPart(s, q, 1)]), at.C + 10 + q)
    const t2 = tickTimes(s.genesis.genesis.timing, 2)
    expect(plan(s, 0, t2.start + 10).steps).toEqual([{ kind: 'mark', t: 1, cut: 1 }])
    mark(s, 1, 1, at.R + 1)
    expect(plan(s, 0, t2.start + 10).steps).toEqual([{ kind: 'choose', t: 2, guard: t2.guard }])
  })

  it('the end final: the seed, then the seal; a seed already signed is not signed again', () => {
    const s = witnessedScenario(3, 2)
    honestTick(s, 1, [0, 1, 2])
    honestTick(s, 2, [0, 1, 2])
    const late = times(s, 3).C + SKEW_MS + 5
    expect(plan(s, 0, late).steps).toEqual([{ kind: 'mark', t: 3, cut: 0 }])
    mark(s, 3, 0, times(s, 3).C + 1)
    expect(plan(s, 0, late).steps).toEqual([{ kind: 'seed' }, { kind: 'seal' }])
    seeds(s, [0], 3)
    expect(plan(s, 0, late + 10).steps).toEqual([{ kind: 'seal' }])
  })
})
