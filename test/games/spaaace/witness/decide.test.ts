/**
 * protocol/SPAAACE-WITNESSED.md §7, the rule that decides a witnessed game, over the cases of §13
 * that are decided from the chain as read (the notary's own faults are the log reader's, §6.3).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { GameState, Submission } from '../../../../src/games/spaaace/rules/types.js'
import { genesis as genesisState } from '../../../../src/games/spaaace/rules/state.js'
import { playTick } from '../../../../src/games/spaaace/rules/tick.js'
import { rulesTerms } from '../../../../src/games/spaaace/peers/genesis.js'
import { ordersOf } from '../../../../src/games/spaaace/peers/parts.js'
import { closingHash } from '../../../../src/games/spaaace/peers/state-bytes.js'
import { decideWitnessed, tickOfTime } from '../../../../src/games/spaaace/witness/decide.js'
import {
  type Scenario,
  commitPart,
  complaint,
  evidence,
  honestTick,
  mark,
  ordersFor,
  receipt,
  revealPart,
  seeds,
  sign,
  times,
  witnessedScenario,
} from './scenario.js'

const all = (n: number): number[] => [...Array(n).keys()]

/** The engine's closing states on the orders of `ordersFor`, with `absent` players missing per tick. */
function reference(
  s: Scenario,
  ticks: number,
  submission: (t: number, q: number) => Submission | undefined = () => undefined,
): GameState[] {
  const n = s.genesis.genesis.keys.length
  const states = [genesisState(n, rulesTerms(s.genesis.genesis))]
  for (let t = 1; t <= ticks; t++) {
    const before = states[t - 1] as GameState
    const subs = all(n).map((q): Submission => {
      if (before.players[q]?.status !== 'active') return { kind: 'missing' }
      const given = submission(t, q)
      if (given !== undefined) return given
      const p = ordersOf(ordersFor(t, q), n, q)
      if (!p.ok) throw new Error(p.reason)
      return { kind: 'orders', orders: p.orders }
    })
    states.push(playTick(before, subs).state)
  }
  return states
}

function honestGame(n: number, ticks: number): Scenario {
  const s = witnessedScenario(n, ticks)
  for (let t = 1; t <= ticks; t++) honestTick(s, t, all(n))
  seeds(s, all(n), ticks)
  return s
}

describe('witnessed decision: honest games (SPAAACE-WITNESSED §7.4, §13.2)', () => {
  it('honest-5: every tick final, states equal the engine on the same orders, complete, no offence', () => {
    const s = honestGame(5, 3)
    const d = decideWitnessed(evidence(s))
    const ref = reference(s, 3)
    expect(d.ticks.map((x) => x.status)).toEqual(['final', 'final', 'final'])
    d.ticks.forEach((x, i) => {
      expect(x.stateHash).toEqual(closingHash(s.genesis.game, ref[i + 1] as GameState))
    })
    expect(d.offences).toEqual([])
    expect(d.end).toMatchObject({ kind: 'complete', tick: 3, provisional: false })
    expect(d.end.kind === 'complete' && d.end.winners).toEqual(ref[3]?.winners)
    expect(d.unauthenticated).toEqual([])
    expect(d.unreceipted).toEqual([])
  })

  it('a tick whose chain passes R_t but not F_t is provisional; one not past R_t is open (§7.4)', () => {
    const s = witnessedScenario(3, 5)
    honestTick(s, 1, all(3))
    honestTick(s, 2, all(3))
    let d = decideWitnessed(evidence(s))
    expect(d.ticks.map((x) => x.status)).toEqual(['final', 'provisional', 'open'])
    expect(d.end).toEqual({ kind: 'ongoing', lastFinal: 1, lastReceipt: s.now })
    mark(s, 3, 0, times(s, 3).C + 1)
    d = decideWitnessed(evidence(s))
    expect(d.ticks.map((x) => x.status)).toEqual(['final', 'final', 'open'])
  })

  it('an envelope signed but not receipted counts for nothing and is listed as unreceipted (§7.1, §13.15)', () => {
    const s = witnessedScenario(3, 3)
    const late = sign(s, 2, [commitPart(s, 2, 1)])
    honestTick(s, 1, [0, 1])
    const d = decideWitnessed(evidence(s))
    expect(d.ticks[0]?.submissions?.[2]).toEqual({ kind: 'missing' })
    expect(d.unreceipted).toEqual([late.id])
    expect(d.offences).toEqual([])
  })
})

describe('witnessed decision: the cut is the receipt time (§7.1, §13.3–§13.6)', () => {
  it('commit-after-cut: receipted at C_t + 1 it is out, the player missing, its reveal changes nothing', () => {
    const s = witnessedScenario(5, 2)
    const at = times(s, 1)
    for (const q of [0, 1, 3, 4]) receipt(s, sign(s, q, [commitPart(s, q, 1)]), at.start + 10 + q)
    receipt(s, sign(s, 2, [commitPart(s, 2, 1)]), at.C + 1)
    for (const q of all(5)) receipt(s, sign(s, q, [revealPart(s, q, 1)]), at.C + 100 + q)
    mark(s, 1, 1, at.R + 1)
    const d = decideWitnessed(evidence(s))
    expect(d.ticks[0]?.submissions?.[2]).toEqual({ kind: 'missing' })
    expect(d.ticks[0]?.committed).toEqual([true, true, false, true, true])
    expect(d.offences).toEqual([])
  })

  it('reveal-after-cut: receipted at R_t + 1 the player is withheld (S-62)', () => {
    const s = witnessedScenario(5, 2)
    const at = times(s, 1)
    for (const q of all(5)) receipt(s, sign(s, q, [commitPart(s, q, 1)]), at.start + 10 + q)
    for (const q of [0, 1, 3, 4]) receipt(s, sign(s, q, [revealPart(s, q, 1)]), at.C + 10 + q)
    receipt(s, sign(s, 2, [revealPart(s, 2, 1)]), at.R + 1)
    const d = decideWitnessed(evidence(s))
    expect(d.ticks[0]?.submissions?.[2]).toEqual({ kind: 'withheld' })
    expect(d.offences).toEqual([])
  })

  it('reveal-before-mark: an early reveal is in and counts (only its author can lose by it)', () => {
    const s = witnessedScenario(5, 2)
    const at = times(s, 1)
    for (const q of all(5)) receipt(s, sign(s, q, [commitPart(s, q, 1)]), at.start + 10 + q)
    receipt(s, sign(s, 1, [revealPart(s, 1, 1)]), at.C - 5000)
    mark(s, 1, 0, at.C + 1)
    for (const q of [0, 2, 3, 4]) receipt(s, sign(s, q, [revealPart(s, q, 1)]), at.C + 10 + q)
    mark(s, 1, 1, at.R + 1)
    const d = decideWitnessed(evidence(s))
    expect(d.ticks[0]?.submissions?.[1]?.kind).toBe('orders')
    expect(d.ticks[0]?.stateHash).toEqual(closingHash(s.genesis.game, reference(s, 1)[1] as GameState))
  })

  it('last-check-in: all away through ticks 3–5, one mark past R_5 decides them; everyone removed, no winner (S-81, S-82)', () => {
    const s = witnessedScenario(5, 10, 3)
    honestTick(s, 1, all(5))
    honestTick(s, 2, all(5))
    mark(s, 5, 1, times(s, 5).R + 1)
    const d = decideWitnessed(evidence(s))
    expect(d.ticks.map((x) => x.status)).toEqual(['final', 'final', 'final', 'final', 'provisional'])
    expect(d.ticks[2]?.submissions?.every((x) => x.kind === 'missing')).toBe(true)
    const last = d.ticks[4]?.outcome?.state
    expect(last?.ended).toBe(true)
    expect(last?.winners).toEqual([])
    expect(d.end).toMatchObject({ kind: 'complete', tick: 5, winners: [], provisional: true })
  })

  it('tick(τ) is the least t with τ ≤ R_t, maxTicks + 1 past the last (§2)', () => {
    const s = witnessedScenario(3, 4)
    expect(tickOfTime(s.genesis, times(s, 1).R)).toBe(1)
    expect(tickOfTime(s.genesis, times(s, 1).R + 1)).toBe(2)
    expect(tickOfTime(s.genesis, times(s, 2).start)).toBe(2)
    expect(tickOfTime(s.genesis, times(s, 4).R)).toBe(4)
    expect(tickOfTime(s.genesis, times(s, 4).R + 1)).toBe(5)
    expect(tickOfTime(s.genesis, times(s, 40).R)).toBe(5)
  })
})

describe('witnessed decision: void and false deposits (§7.2, §13.7–§13.9)', () => {
  it('a complaint by F_t voids the reveal: the author equivocated in t, removed, every file decides alike', () => {
    const s = witnessedScenario(5, 3)
    const r = honestTick(s, 1, all(5))
    const target = r.get(4)?.reveal ?? 0
    complaint(s, 1, target, times(s, 1).R + 3_600)
    honestTick(s, 2, [0, 1, 2, 3])
    const full = decideWitnessed(evidence(s))
    expect(full.voids).toEqual([target])
    expect(full.ticks[0]?.submissions?.[4]).toEqual({ kind: 'equivocated' })
    expect(full.offences).toEqual([expect.objectContaining({ player: 4, kind: 'false-deposit', counted: 1, tick: 1 })])
    expect(full.ticks[1]?.active).toEqual([0, 1, 2, 3])
    // p2's file never held the void content: it decides the same.
    const target4 = [...s.signed.values()].find((e) => e.envelope.author === 4 && e.envelope.seq === 2)
    const without = decideWitnessed(evidence(s, { drop: (id) => id === target4?.id }))
    expect(without.ticks.map((x) => x.stateHash)).toEqual(full.ticks.map((x) => x.stateHash))
  })

  it('a complaint after F_t leaves the envelope standing and counts in tick(τ_c) (§7.2 last sentence)', () => {
    const s = witnessedScenario(5, 4)
    const r = honestTick(s, 1, all(5))
    honestTick(s, 2, all(5))
    const target = r.get(4)?.reveal ?? 0
    complaint(s, 1, target, times(s, 2).R + 10)
    honestTick(s, 3, [0, 1, 2, 3])
    const d = decideWitnessed(evidence(s))
    expect(d.voids).toEqual([])
    expect(d.ticks[0]?.submissions?.[4]?.kind).toBe('orders')
    expect(d.offences).toEqual([expect.objectContaining({ player: 4, kind: 'false-deposit', counted: 3, tick: 1 })])
    expect(d.ticks[2]?.submissions?.[4]).toEqual({ kind: 'equivocated' })
  })

  it('a commitment voided before R_t needs no content: no file is a gap for it (§13.9)', () => {
    const s = witnessedScenario(3, 2)
    const at = times(s, 1)
    const c = sign(s, 2, [commitPart(s, 2, 1)])
    const index = receipt(s, c, at.start + 5)
    complaint(s, 0, index, at.start + 10)
    for (const q of [0, 1]) receipt(s, sign(s, q, [commitPart(s, q, 1)]), at.start + 20 + q)
    mark(s, 1, 0, at.C + 1)
    for (const q of [0, 1]) receipt(s, sign(s, q, [revealPart(s, q, 1)]), at.C + 20 + q)
    mark(s, 1, 1, at.R + 1)
    const d = decideWitnessed(evidence(s, { drop: (id) => id === c.id }))
    expect(d.ticks[0]?.status).toBe('provisional')
    expect(d.ticks[0]?.submissions?.[2]).toEqual({ kind: 'equivocated' })
  })
})

describe('witnessed decision: offences from the offender’s own signatures (§4.2, §7.3)', () => {
  it('fork: a second envelope at a receipted place convicts, never counts, and its author cannot win (§13.12)', () => {
    const s = witnessedScenario(3, 1)
    const at = times(s, 1)
    const tip = s.tips[2]
    const c = sign(s, 2, [commitPart(s, 2, 1)])
    if (tip !== undefined) s.tips[2] = tip
    const other = sign(s, 2, [commitPart(s, 2, 1, 'buy 2')])
    s.tips[2] = c
    s.chain.length = 0
    receipt(s, c, at.start + 5)
    for (const q of [0, 1]) receipt(s, sign(s, q, [commitPart(s, q, 1)]), at.start + 20 + q)
    mark(s, 1, 0, at.C + 1)
    for (const q of all(3)) receipt(s, sign(s, q, [revealPart(s, q, 1)]), at.C + 20 + q)
    mark(s, 1, 1, at.R + 1)
    mark(s, 2, 0, times(s, 2).C + 1)
    const d = decideWitnessed(evidence(s))
    expect(d.offences).toEqual([expect.objectContaining({ player: 2, kind: 'fork', rule: '§7.3 fork' })])
    expect(d.offences[0]?.counted).toBeUndefined()
    expect(d.ticks[0]?.submissions?.[2]?.kind).toBe('orders')
    expect(d.end.kind === 'complete' && d.end.winners.includes(2)).toBe(false)
    expect(d.offences[0]?.envelopes).toEqual(
      [c.id, other.id].sort((a, b) => Buffer.from(a, 'base64url').compare(Buffer.from(b, 'base64url'))),
    )
  })

  it('unused machinery (w1): a head, or a seal part, is a violation counted in its tick (§13.19)', () => {
    for (const variant of ['head', 'seal'] as const) {
      const s = witnessedScenario(5, 2)
      const at = times(s, 1)
      const parts =
        variant === 'seal' ? [commitPart(s, 3, 1), { type: 'seal' as const, tick: 1 }] : [commitPart(s, 3, 1)]
      receipt(s, sign(s, 3, parts, variant === 'head'), at.start + 5)
      for (const q of [0, 1, 2, 4]) receipt(s, sign(s, q, [commitPart(s, q, 1)]), at.start + 20 + q)
      mark(s, 1, 0, at.C + 1)
      mark(s, 1, 1, at.R + 1)
      const d = decideWitnessed(evidence(s))
      expect(d.offences).toEqual([expect.objectContaining({ player: 3, rule: '§4.2 (w1)', counted: 1 })])
      expect(d.ticks[0]?.submissions?.[3]).toEqual({ kind: 'equivocated' })
    }
  })

  it('chain order (w3): a reveal with no commitment before it, a second commit of one tick', () => {
    const s = witnessedScenario(3, 2)
    const at = times(s, 1)
    receipt(s, sign(s, 0, [commitPart(s, 0, 1)]), at.start + 1)
    receipt(s, sign(s, 0, [commitPart(s, 0, 1, 'buy 2')]), at.start + 2)
    receipt(s, sign(s, 1, [revealPart(s, 1, 1)]), at.start + 3)
    mark(s, 1, 1, at.R + 1)
    const d = decideWitnessed(evidence(s))
    expect(d.offences.map((o) => [o.player, o.rule, o.counted])).toEqual([
      [0, '§4.2 (w3)', 1],
      [1, '§4.2 (w3)', 1],
    ])
  })

  it('a file lacking an earlier envelope does not judge "no commitment before" (no conviction from missing evidence)', () => {
    const s = witnessedScenario(3, 3)
    honestTick(s, 1, all(3))
    const commit = [...s.signed.values()].find((e) => e.envelope.author === 1 && e.envelope.seq === 1)
    const d = decideWitnessed(evidence(s, { drop: (id) => id === commit?.id }))
    expect(d.offences).toEqual([])
    expect(d.ticks[0]).toMatchObject({ status: 'gap', missing: [expect.objectContaining({ author: 1, seq: 1 })] })
  })

  it('broken chain (w4): a receipted envelope whose prev is not the receipted one below it (§13.13)', () => {
    const s = witnessedScenario(3, 2)
    const at = times(s, 1)
    const tip = s.tips[2]
    sign(s, 2, [commitPart(s, 2, 1, 'buy 3')]) // signed, never receipted
    const c = sign(s, 2, [commitPart(s, 2, 1)])
    s.tips[2] = tip ?? c
    // Receipted at seq 2 with no receipt at seq 1 would be the notary's seq-skipped; here the
    // envelope at seq 1 is receipted and the one at seq 2 names another.
    const first = sign(s, 2, [{ type: 'stop', tick: 1, reason: 'stalled' }])
    receipt(s, first, at.start + 1)
    receipt(s, c, at.start + 2)
    for (const q of [0, 1]) receipt(s, sign(s, q, [commitPart(s, q, 1)]), at.start + 20 + q)
    mark(s, 1, 1, at.R + 1)
    const d = decideWitnessed(evidence(s))
    // The envelope its prev names sits at seq 1 beside the receipted one: a fork as well, never counted.
    expect(d.offences).toEqual([
      expect.objectContaining({ player: 2, rule: '§4.2 (w4)', counted: 1 }),
      expect.objectContaining({ player: 2, rule: '§7.3 fork' }),
    ])
  })

  it('seed-early: a seed in tick 3 of 10 is no offence (only its author loses its secrecy); an envelope after it is (w3)', () => {
    const early = (thenCommit: boolean): ReturnType<typeof decideWitnessed> => {
      const s = witnessedScenario(3, 10)
      honestTick(s, 1, all(3))
      honestTick(s, 2, all(3))
      receipt(s, sign(s, 1, [{ type: 'seed', seed: s.seeds[1] ?? new Uint8Array(32) }]), times(s, 3).start + 5)
      if (thenCommit) receipt(s, sign(s, 1, [commitPart(s, 1, 3)]), times(s, 3).start + 6)
      honestTick(s, 3, [0, 2])
      return decideWitnessed(evidence(s))
    }
    expect(early(false).offences).toEqual([])
    expect(early(false).ticks[2]?.submissions?.[1]).toEqual({ kind: 'missing' })
    expect(early(true).offences).toEqual([expect.objectContaining({ player: 1, rule: '§4.2 (w3)', counted: 3 })])
  })

  it('a seed that does not give a reveal’s salt, after the end: convicted, never counted', () => {
    const s = witnessedScenario(3, 2)
    honestTick(s, 1, all(3))
    honestTick(s, 2, all(3))
    mark(s, 3, 0, times(s, 3).C + 1)
    receipt(s, sign(s, 0, [{ type: 'seed', seed: s.seeds[0] ?? new Uint8Array(32) }]), s.now + 1)
    receipt(s, sign(s, 1, [{ type: 'seed', seed: new Uint8Array(32).fill(7) }]), s.now + 1)
    const d = decideWitnessed(evidence(s))
    expect(d.offences).toEqual([expect.objectContaining({ player: 1, rule: '§4.2 (w5)' })])
    expect(d.offences[0]?.counted).toBeUndefined()
    expect(d.end.kind === 'complete' && d.end.winners.includes(1)).toBe(false)
  })
})

describe('witnessed decision: ends (§7.6, §13.21)', () => {
  it('outage: a majority of A_s voting stop(s) with the chain short of R_s reads stalled (outage); a minority does not', () => {
    const s = witnessedScenario(5, 4)
    honestTick(s, 1, all(5))
    const at = times(s, 2)
    for (const q of all(5)) receipt(s, sign(s, q, [commitPart(s, q, 2)]), at.start + 5 + q)
    const votes = [0, 1, 2].map((q) => sign(s, q, [{ type: 'stop', tick: 2, reason: 'stalled' }]))
    expect(decideWitnessed(evidence(s)).end).toEqual({ kind: 'stalled', cause: 'outage', tick: 2, voters: [0, 1, 2] })
    const two = decideWitnessed(evidence(s, { drop: (id) => id === votes[2]?.id }))
    // Tick 1 is provisional only: the chain stops before F_1 = C_2.
    expect(two.end).toMatchObject({ kind: 'ongoing', lastFinal: 0 })
    // Lifted by any receipt past R_2 in a merged file.
    mark(s, 2, 1, at.R + 1)
    expect(decideWitnessed(evidence(s)).end.kind).toBe('ongoing')
  })

  it('a notary fault after the final end names the fault and keeps the end; before it, stalled at the first tick not final', () => {
    const s = honestGame(3, 2)
    const fault = { kind: 'two-at-index', index: 999, detail: 'x' }
    expect(decideWitnessed(evidence(s, { fault })).end).toMatchObject({ kind: 'complete', tick: 2, fault })
    const cut = s.chain.findIndex((r) => r.kind === 'mark' && r.t === 2 && r.cut === 1)
    const early = { kind: 'time-decreasing', index: cut + 1, detail: 'x' }
    const d = decideWitnessed(evidence(s, { fault: early, chain: s.chain.slice(0, cut) }))
    expect(d.end).toEqual({ kind: 'stalled', cause: 'notary-fault', tick: 2, fault: early })
  })

  it('not started without a genesis receipt that gives the game', () => {
    const s = honestGame(3, 1)
    expect(decideWitnessed({ ...evidence(s), started: false }).end).toEqual({ kind: 'not-started' })
  })
})

describe('witnessed decision: key-less edits and merges (§7.4 monotone, §13.18)', () => {
  it('an envelope whose content is changed is unauthenticated and its tick a gap, never an offence', () => {
    const s = honestGame(3, 2)
    const victim = [...s.signed.values()].find((e) => e.envelope.author === 1 && e.envelope.seq === 2)
    const edited = victim?.bytes.slice() ?? new Uint8Array(0)
    edited[edited.length - 70] = (edited[edited.length - 70] ?? 0) ^ 1
    const d = decideWitnessed(evidence(s, { drop: (id) => id === victim?.id, extra: [edited] }))
    expect(d.offences).toEqual([])
    expect(d.ticks[0]?.status).toBe('gap')
    expect(d.unauthenticated.length).toBe(1)
  })

  it('an envelope whose signature bytes are changed is still authenticated by its receipt', () => {
    const s = honestGame(3, 2)
    const victim = [...s.signed.values()].find((e) => e.envelope.author === 1 && e.envelope.seq === 2)
    const edited = victim?.bytes.slice() ?? new Uint8Array(0)
    edited[edited.length - 1] = (edited[edited.length - 1] ?? 0) ^ 1
    const d = decideWitnessed(evidence(s, { drop: (id) => id === victim?.id, extra: [edited] }))
    expect(d.end).toMatchObject({ kind: 'complete', tick: 2 })
    expect(d.offences).toEqual([])
  })

  it('properties: the decision does not depend on input order; deleting envelopes or truncating the chain convicts nobody new and changes no final state', () => {
    const s = honestGame(4, 3)
    const full = decideWitnessed(evidence(s))
    const ids = [...s.signed.keys()]
    fc.assert(
      fc.property(
        fc.array(fc.nat({ max: ids.length - 1 }), { maxLength: 6 }),
        fc.nat({ max: s.chain.length }),
        fc.boolean(),
        (drop, keep, reverse) => {
          const gone = new Set(drop.map((i) => ids[i]))
          const ev = evidence(s, { drop: (id) => gone.has(id), chain: s.chain.slice(0, keep) })
          const d = decideWitnessed(reverse ? { ...ev, envelopes: [...ev.envelopes].reverse() } : ev)
          expect(d.offences).toEqual([])
          d.ticks.forEach((x, i) => {
            if (x.status === 'final') expect(x.stateHash).toEqual(full.ticks[i]?.stateHash)
          })
        },
      ),
      { numRuns: 60 },
    )
  })
})
