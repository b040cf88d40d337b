/**
 * protocol/SPAAACE-WITNESSED.md §8.1–§8.2: the honest node's plan at a check-in, from its chain,
 * its own envelopes and its clock.
 */
import { describe, expect, it } from 'vitest'
import { SKEW_MS } from '../../../../src/games/spaaace/peers/domain.js'
import { tickLength } from '../../../../src/games/spaaace/peers/domain.js'
import { tickTimes } from '../../../../src/games/spaaace/peers/genesis.js'
import {
  type FetchOutcome,
  type OwnEnvelope,
  outageVote,
  planCheckin,
  revealGuard,
} from '../../../../src/games/spaaace/witness/checkin.js'
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

function input(s: Scenario, q: number, now: number, chosen: number[] = [], fetches: FetchOutcome[] = []) {
  return {
    genesis: s.genesis,
    self: q,
    now,
    chain: s.chain,
    decision: decideWitnessed(evidence(s)),
    own: ownOf(s, q),
    chosen: new Set(chosen),
    sealed: false,
    fetches,
  }
}

function plan(s: Scenario, q: number, now: number, chosen: number[] = [], fetches: FetchOutcome[] = []) {
  return planCheckin(input(s, q, now, chosen, fetches))
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

  describe('the outage vote (§8.2): stop(s, 1) once R_s + OUTAGE_MS has passed and the last three fetches after R_s brought nothing past it', () => {
    // Tick 1 played and settled; the notary then passes nothing: tick 2 is the open tick s.
    const setup = () => {
      const s = witnessedScenario(3, 4)
      honestTick(s, 1, [0, 1, 2])
      mark(s, 2, 0, times(s, 2).C + 1)
      const R = times(s, 2).R
      const due = R + tickLength(s.genesis.genesis.timing)
      return { s, R, due }
    }
    const failed = (at: number): FetchOutcome => ({ at, past: null })

    it('due: the plan votes for s, after the mark it asks first', () => {
      const { s, R, due } = setup()
      const fetches = [failed(R + 1), { at: R + 2, past: times(s, 2).C + 1 }, failed(due)]
      expect(outageVote(input(s, 0, due + 1, [], fetches))).toBe(2)
      expect(plan(s, 0, due + 1, [], fetches).steps).toEqual([
        { kind: 'mark', t: 3, cut: 0 },
        { kind: 'vote', t: 2 },
      ])
    })

    it('not due (each converse): at R_s + OUTAGE_MS, with two fetches, a fetch before R_s, a fetch that passed R_s, a vote signed, a seed signed', () => {
      const { s, R, due } = setup()
      const three = [failed(R + 1), failed(R + 2), failed(due)]
      expect(outageVote(input(s, 0, due, [], three))).toBeUndefined()
      expect(outageVote(input(s, 0, due + 1, [], three.slice(1)))).toBeUndefined()
      expect(outageVote(input(s, 0, due + 1, [], [failed(R), ...three.slice(1)]))).toBeUndefined()
      expect(outageVote(input(s, 0, due + 1, [], [...three.slice(0, 2), { at: due, past: R + 1 }]))).toBeUndefined()
      const voted = setup()
      sign(voted.s, 0, [{ type: 'stop', tick: 2, reason: 'stalled' }])
      expect(outageVote(input(voted.s, 0, due + 1, [], three))).toBeUndefined()
      // Another player's vote is no reason not to vote.
      expect(outageVote(input(voted.s, 1, due + 1, [], three))).toBe(2)
      const seeded = setup()
      seeds(seeded.s, [0], 2)
      expect(outageVote(input(seeded.s, 0, due + 1, [], three))).toBeUndefined()
    })

    it('not due once the chain passes R_s (the notary came back): the tick is no longer open', () => {
      const { s, R, due } = setup()
      mark(s, 2, 1, R + 1)
      expect(outageVote(input(s, 0, due + 1, [], [failed(R + 1), failed(R + 2), failed(due)]))).toBeUndefined()
    })
  })
})
