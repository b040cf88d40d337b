/**
 * A red-team reading of the witnessed decision (protocol/SPAAACE-WITNESSED.md §4.2, §7) and the
 * honest node's plan (§8.1–§8.2): a cheater with its key, a coalition, a key-less editor of files,
 * and a second team reading §7. Each test names the section it pins.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sign as signBytes } from '../../../../src/core/commit/keys.js'
import { SKEW_MS } from '../../../../src/games/spaaace/peers/domain.js'
import {
  type SealedEnvelope,
  encodeUnsigned,
  envelopeHash,
  sealEnvelope,
  signingMessage,
} from '../../../../src/games/spaaace/peers/envelope.js'
import type { Part } from '../../../../src/games/spaaace/peers/parts.js'
import {
  type CheckinStep,
  type OwnEnvelope,
  endIsFinal,
  planCheckin,
} from '../../../../src/games/spaaace/witness/checkin.js'
import {
  type WitnessedDecision,
  type WitnessedEvidence,
  decideWitnessed,
} from '../../../../src/games/spaaace/witness/decide.js'
import {
  type Scenario,
  commitPart,
  complaint,
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

const all = (n: number): number[] => [...Array(n).keys()]

/** The same bytes with one signature byte flipped: same identity (the hash is over the unsigned bytes), signature invalid. */
function badSig(e: SealedEnvelope): Uint8Array {
  const b = e.bytes.slice()
  b[b.length - 1] = (b[b.length - 1] ?? 0) ^ 1
  return b
}

/** Player `q` signs an envelope at `seq` naming `prev`, without moving its tip (a fork, or a raw edge). */
function signAt(s: Scenario, q: number, seq: number, prev: Uint8Array, parts: Part[]): SealedEnvelope {
  const key = s.keys[q]
  if (key === undefined) throw new Error('no such player')
  const e = sealEnvelope(key, { author: q, seq, game: s.genesis.game, prev, heads: [], parts })
  s.signed.set(e.id, e)
  return e
}

/** Bytes of an envelope of `q` whose header decodes and whose body does not, signed by `q` (or with `sig` given). */
function undecodable(s: Scenario, q: number, seq: number, prev: Uint8Array): { bytes: Uint8Array; hash: Uint8Array } {
  const key = s.keys[q]
  if (key === undefined) throw new Error('no such player')
  const valid = encodeUnsigned({
    author: q,
    seq,
    game: s.genesis.game,
    prev,
    heads: [],
    parts: [{ type: 'stop', tick: 1, reason: 'stalled' }],
  })
  const unsigned = new Uint8Array(valid.length + 3)
  unsigned.set(valid)
  unsigned.set([0xde, 0xad, 0xbe], valid.length)
  const sig = signBytes(key, signingMessage(unsigned))
  const bytes = new Uint8Array(unsigned.length + sig.length)
  bytes.set(unsigned)
  bytes.set(sig, unsigned.length)
  return { bytes, hash: envelopeHash(unsigned) }
}

/** The decision, stripped of nothing: used to compare two evidence orders. */
function decide(ev: WitnessedEvidence): WitnessedDecision {
  return decideWitnessed(ev)
}

function reorder(ev: WitnessedEvidence, f: (xs: Uint8Array[]) => Uint8Array[]): WitnessedEvidence {
  return { ...ev, envelopes: f([...ev.envelopes]) }
}

/** An outage at tick 2 of 5 players: tick 1 played, tick-2 commitments receipted, the notary silent. */
function outage(): { s: Scenario; votes: SealedEnvelope[] } {
  const s = witnessedScenario(5, 4)
  honestTick(s, 1, all(5))
  const at = times(s, 2)
  for (const q of all(5)) receipt(s, sign(s, q, [commitPart(s, q, 2)]), at.start + 5 + q)
  const votes = [0, 1, 2].map((q) => sign(s, q, [{ type: 'stop', tick: 2, reason: 'stalled' }]))
  return { s, votes }
}

describe('red team: order and duplicates never change the decision (§7 "in any order")', () => {
  it('a copy of an unreceipted vote with a broken signature, placed first, does not hide the vote (§7 authenticated, §7.6 rule 4)', () => {
    const { s, votes } = outage()
    const vote = votes[2] as SealedEnvelope
    const ev = evidence(s, { extra: [badSig(vote)] })
    const last = decide(ev)
    const first = decide(reorder(ev, (xs) => xs.reverse()))
    expect(last.end).toEqual({ kind: 'stalled', cause: 'outage', tick: 2, voters: [0, 1, 2] })
    expect(first).toEqual(last)
  })

  it('a copy of an unreceipted fork envelope with a broken signature, placed first, does not hide the fork (§7.3)', () => {
    const s = witnessedScenario(3, 2)
    honestTick(s, 1, all(3))
    const tip = s.tips[2] as SealedEnvelope
    const other = signAt(s, 2, tip.envelope.seq, tip.envelope.prev, [revealPart(s, 2, 1, 'buy 2')])
    const ev = evidence(s, { extra: [badSig(other)] })
    const last = decide(ev)
    const first = decide(reorder(ev, (xs) => xs.reverse()))
    expect(last.offences).toEqual([expect.objectContaining({ player: 2, kind: 'fork' })])
    expect(first).toEqual(last)
  })

  it('an envelope named by prev from one at the same seq is authenticated the same way in any order (§7 "a later … envelope")', () => {
    const s = witnessedScenario(3, 2)
    honestTick(s, 1, all(3))
    const tip = s.tips[2] as SealedEnvelope
    // B: p3's envelope at seq 3 with a broken signature; A: p3's own, also at seq 3, naming B by prev.
    const b = signAt(s, 2, 3, tip.hash, [{ type: 'stop', tick: 2, reason: 'stalled' }])
    s.signed.delete(b.id)
    const a = signAt(s, 2, 3, b.hash, [{ type: 'stop', tick: 2, reason: 'leaving' }])
    s.signed.delete(a.id)
    const ev = evidence(s, { extra: [a.bytes, badSig(b)] })
    const one = decide(ev)
    const two = decide(reorder(ev, (xs) => xs.reverse()))
    expect(two).toEqual(one)
  })
})

describe('red team: votes and voids (§7.2, §7.6 rule 4)', () => {
  it('a void envelope is no vote: a complaint in time removes it from the majority', () => {
    const s = witnessedScenario(5, 4)
    honestTick(s, 1, all(5))
    const at = times(s, 2)
    for (const q of all(5)) receipt(s, sign(s, q, [commitPart(s, q, 2)]), at.start + 5 + q)
    sign(s, 0, [{ type: 'stop', tick: 2, reason: 'stalled' }])
    sign(s, 1, [{ type: 'stop', tick: 2, reason: 'stalled' }])
    const index = receipt(s, sign(s, 4, [{ type: 'stop', tick: 2, reason: 'stalled' }]), at.start + 100)
    complaint(s, 3, index, at.start + 200)
    const d = decide(evidence(s))
    expect(d.voids).toEqual([index])
    expect(d.end.kind).toBe('ongoing')
  })
})

describe('red team: an early seed (§4.2 (w5): only the salt clause)', () => {
  it('a seed receipted while tick u is still open convicts nobody, whatever this evidence decides', () => {
    const s = witnessedScenario(3, 10)
    honestTick(s, 1, all(3))
    honestTick(s, 2, all(3))
    mark(s, 3, 0, times(s, 3).C + 1) // tick 2 final; tick 3 open
    receipt(s, sign(s, 1, [{ type: 'seed', seed: s.seeds[1] ?? new Uint8Array(32) }]), times(s, 3).C + 10)
    const d = decide(evidence(s))
    expect(d.ticks.map((x) => x.status)).toEqual(['final', 'final', 'open'])
    expect(d.offences).toEqual([])
  })
})

describe('red team: offences of removed players (§7.3, BD-17’s reading)', () => {
  /** 3 players, `absentTicks = 1`: p2 and p3 miss tick 1, are removed, and the game ends at 1 (S-81, S-82). */
  function endedAtOne(): Scenario {
    const s = witnessedScenario(3, 5, 1)
    const at = times(s, 1)
    receipt(s, sign(s, 0, [commitPart(s, 0, 1)]), at.start + 1)
    mark(s, 1, 0, at.C + 1)
    receipt(s, sign(s, 0, [revealPart(s, 0, 1)]), at.C + 2)
    mark(s, 1, 1, at.R + 1)
    return s
  }

  it('a conviction the notary receipted beyond a fault it signed later still convicts the winner (§7.6 rule 2)', () => {
    // p1 wins at tick 1; a complaint that holds against its commit deposit was receipted after the
    // end, and the notary then signed a fault below that complaint. The decided chain stops below
    // the fault, the complaint with it; the conviction stands.
    const s = endedAtOne()
    mark(s, 2, 0, times(s, 2).C + 1)
    const fault = { kind: 'two-at-index', index: s.chain.length + 1, detail: 'x' }
    const beyond = [{ index: s.chain.length + 2, target: 1 }]
    const clean = decide({ ...evidence(s, { fault }) })
    expect(clean.end).toMatchObject({ kind: 'complete', tick: 1, winners: [0], fault })
    const d = decide({ ...evidence(s, { fault }), complaintsBeyond: beyond })
    expect(d.end).toMatchObject({ kind: 'complete', tick: 1, winners: [], fault })
    expect(d.offences).toEqual([
      expect.objectContaining({ player: 0, kind: 'false-deposit', tick: 1, receipts: [1, beyond[0]?.index] }),
    ])
    expect(d.offences[0]?.counted).toBeUndefined()
    // The decided ticks stand: p1 played tick 1 as it did.
    expect(d.ticks.map((x) => x.stateHash)).toEqual(clean.ticks.map((x) => x.stateHash))
    // Without a fault there is nothing beyond the decided chain to read.
    expect(decide({ ...evidence(s), complaintsBeyond: beyond }).end).toMatchObject({ winners: [0] })
  })

  it('a seed outside the decided chain that does not give its reveals’ salts convicts under a notary fault; a true one does not (§7.6 rule 2, (w5))', () => {
    const s = endedAtOne()
    mark(s, 2, 0, times(s, 2).C + 1)
    const fault = { kind: 'two-at-index', index: s.chain.length + 1, detail: 'x' }
    // p1's seed envelope, signed but never receipted in the decided chain (the notary forked first).
    const wrongSeed = sign(s, 0, [{ type: 'seed', seed: new Uint8Array(32).fill(7) }])
    const d = decide(evidence(s, { fault }))
    expect(d.end).toMatchObject({ kind: 'complete', tick: 1, winners: [], fault })
    expect(d.offences).toEqual([
      expect.objectContaining({ player: 0, kind: 'violation', rule: '§4.2 (w5)', tick: 1, envelopes: [wrongSeed.id] }),
    ])
    // Without a fault the seed waits for its receipt; nothing is read beyond the decided chain.
    expect(decide(evidence(s)).offences).toEqual([])
    // The true seed convicts nobody.
    const t = endedAtOne()
    mark(t, 2, 0, times(t, 2).C + 1)
    sign(t, 0, [{ type: 'seed', seed: t.seeds[0] ?? new Uint8Array(32) }])
    const honest = decide(evidence(t, { fault }))
    expect(honest.offences).toEqual([])
    expect(honest.end).toMatchObject({ winners: [0] })
  })

  it('a winner whose receipted envelope after the end is in no file wins provisionally: that envelope could convict it (§7.6 rule 3)', () => {
    // p1 wins at tick 1, then signs a seed that gives no salt of its reveal, and the notary receipts
    // it. Whoever publishes a file without that line must not make p1's win read final.
    const s = endedAtOne()
    const wrongSeed = sign(s, 0, [{ type: 'seed', seed: new Uint8Array(32).fill(7) }])
    receipt(s, wrongSeed, times(s, 1).R + 10)
    mark(s, 2, 0, times(s, 2).C + 1)
    const whole = decide(evidence(s))
    expect(whole.end).toMatchObject({ kind: 'complete', tick: 1, winners: [], provisional: false })
    expect(whole.offences).toEqual([expect.objectContaining({ player: 0, rule: '§4.2 (w5)' })])
    const cut = decide(evidence(s, { drop: (id) => id === wrongSeed.id }))
    expect(cut.offences).toEqual([])
    // The state of tick 1 is final (a node's seed is owed, §8.2); the win is the reader's provisional one.
    expect(cut.end).toMatchObject({ kind: 'complete', tick: 1, winners: [0], provisional: false, lacking: [0] })
    expect(endIsFinal(cut)).toBe(true)
    // Its true seed, held: the win is final.
    const t = endedAtOne()
    receipt(t, sign(t, 0, [{ type: 'seed', seed: t.seeds[0] ?? new Uint8Array(32) }]), times(t, 1).R + 10)
    mark(t, 2, 0, times(t, 2).C + 1)
    expect(decide(evidence(t)).end).toMatchObject({ kind: 'complete', winners: [0], provisional: false })
    expect(decide(evidence(t)).end).not.toHaveProperty('lacking')
  })

  it('a player removed before the tick of its envelope is not reported, in any tick after the end', () => {
    for (const tick of [2, 3, 5]) {
      const s = endedAtOne()
      mark(s, tick, 0, times(s, tick).C + 1)
      const bad = undecodable(s, 2, 1, s.accepts[2]?.hash ?? new Uint8Array(32))
      s.chain.push({
        kind: 'envelope',
        index: s.chain.length + 1,
        time: s.now + 1,
        author: 2,
        seq: 1,
        envelopeHash: bad.hash,
      })
      const d = decide(evidence(s, { extra: [bad.bytes] }))
      expect(d.end).toMatchObject({ kind: 'complete', tick: 1, winners: [0], provisional: false })
      expect(d.offences).toEqual([])
    }
  })

  it('a player removed at step 9 of the ending tick is not reported for an envelope two ticks later', () => {
    const s = witnessedScenario(3, 5, 1)
    const at = times(s, 1)
    for (const q of [0, 1]) receipt(s, sign(s, q, [commitPart(s, q, 1)]), at.start + 1 + q)
    mark(s, 1, 0, at.C + 1)
    for (const q of [0, 1]) receipt(s, sign(s, q, [revealPart(s, q, 1)]), at.C + 2 + q)
    mark(s, 1, 1, at.R + 1)
    // Not ended: p3 is removed, p1 and p2 go on; tick 2 played by p1 only: p2 removed, the game ends at 2.
    const t2 = times(s, 2)
    receipt(s, sign(s, 0, [commitPart(s, 0, 2)]), t2.start + 1)
    mark(s, 2, 0, t2.C + 1)
    receipt(s, sign(s, 0, [revealPart(s, 0, 2)]), t2.C + 2)
    mark(s, 2, 1, t2.R + 1)
    mark(s, 4, 0, times(s, 4).C + 1)
    const tip = s.tips[1] as SealedEnvelope
    const bad = undecodable(s, 1, tip.envelope.seq + 1, tip.hash)
    s.chain.push({
      kind: 'envelope',
      index: s.chain.length + 1,
      time: s.now + 1,
      author: 1,
      seq: tip.envelope.seq + 1,
      envelopeHash: bad.hash,
    })
    const d = decide(evidence(s, { extra: [bad.bytes] }))
    expect(d.end).toMatchObject({ kind: 'complete', tick: 2, provisional: false })
    // p2 was removed at step 9 of tick 2, before the tick (4) of its envelope: not reported.
    expect(d.offences).toEqual([])
  })
})

/** One node's own envelopes as the plan reads them (§8.1: its journal and the receipts of its chain). */
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

/**
 * Honest nodes that check in only when their own plan says (`next`), with a notary whose clock is
 * theirs: §8.1's steps in order (a mark, then the plan again on the chain with it, then acting).
 * Every player chooses as soon as asked. Returns the steps signed, per player.
 */
function playByPlans(
  s: Scenario,
  first: readonly (number | undefined)[],
  until: number,
  late: (q: number, k: number) => number = () => 0,
): Map<number, CheckinStep[]> {
  const n = s.genesis.genesis.keys.length
  const chosen = all(n).map(() => new Set<number>())
  const done = new Map<number, CheckinStep[]>(all(n).map((q) => [q, []]))
  const queue: { at: number; q: number }[] = all(n).flatMap((q) => {
    const at = first[q]
    return at === undefined ? [] : [{ at, q }]
  })
  let sealed = false
  for (let guard = 0; guard < 10_000 && queue.length > 0; guard++) {
    queue.sort((a, b) => a.at - b.at || a.q - b.q)
    const { at, q } = queue.shift() as { at: number; q: number }
    if (at > until) break
    const now = Math.max(at, s.now)
    let next: number | undefined
    for (let round = 0; round < 20; round++) {
      const plan = planCheckin({
        genesis: s.genesis,
        self: q,
        now,
        chain: s.chain,
        decision: decideWitnessed(evidence(s)),
        own: ownOf(s, q),
        chosen: chosen[q] as Set<number>,
        sealed,
      })
      next = plan.next
      let again = false
      for (const step of plan.steps) {
        if (step.kind === 'mark') {
          mark(s, step.t, step.cut, now)
          again = true
          break
        }
        if (step.kind === 'choose') {
          chosen[q]?.add(step.t)
          again = true
          break
        }
        done.get(q)?.push(step)
        if (step.kind === 'commit') receipt(s, sign(s, q, [commitPart(s, q, step.t)]), now)
        if (step.kind === 'reveal') receipt(s, sign(s, q, [revealPart(s, q, step.t)]), now)
        if (step.kind === 'seed')
          receipt(s, sign(s, q, [{ type: 'seed', seed: s.seeds[q] ?? new Uint8Array(32) }]), now)
        if (step.kind === 'seal' && !sealed) {
          const seeded = new Set(s.chain.flatMap((r) => (r.kind === 'envelope' ? [r.author] : [])))
          if (
            [...s.signed.values()].filter((e) => e.envelope.parts.some((p) => p.type === 'seed')).length === n &&
            seeded.size === n
          ) {
            s.chain.push({ kind: 'seal', index: s.chain.length + 1, time: now })
            sealed = true
          }
        }
      }
      if (!again) break
    }
    if (next !== undefined && next > at) queue.push({ at: next + late(q, guard), q })
  }
  return done
}

describe('red team: the honest node’s plan carries a game to its final end (§8.1–§8.3, §10.3)', () => {
  it('three nodes checking in only when their plans say: every tick final with everyone’s orders, seeds, no offence', () => {
    const s = witnessedScenario(3, 3)
    const start = times(s, 1).start
    playByPlans(s, [start + 1, start + 2, start + 3], times(s, 6).R)
    const d = decideWitnessed(evidence(s))
    expect(d.offences).toEqual([])
    expect(d.ticks.map((x) => x.status)).toEqual(['final', 'final', 'final'])
    for (const x of d.ticks) expect(x.submissions?.map((y) => y.kind)).toEqual(['orders', 'orders', 'orders'])
    expect(d.end).toMatchObject({ kind: 'complete', tick: 3, provisional: false })
    const seeded = [...s.signed.values()].filter((e) => e.envelope.parts.some((p) => p.type === 'seed'))
    expect(seeded.map((e) => e.envelope.author).sort()).toEqual([0, 1, 2])
  })
})

describe('red team: plans, properties (§8, §10.3)', () => {
  it('whoever of the players checks in, a little late or not at all: nobody honest is convicted, the end is final, every present player’s orders count', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 3, max: 5 }),
        fc.integer({ min: 1, max: 3 }),
        fc.array(fc.option(fc.nat({ max: 20_000 }), { nil: undefined }), { minLength: 5, maxLength: 5 }),
        fc.nat({ max: SKEW_MS - 2 }),
        (n, maxTicks, offsets, slack) => {
          const present = offsets.slice(0, n)
          fc.pre(present.some((x) => x !== undefined))
          const s = witnessedScenario(n, maxTicks, 3)
          const start = times(s, 1).start
          playByPlans(
            s,
            present.map((x) => (x === undefined ? undefined : start + 1 + x)),
            times(s, maxTicks + 3).R,
            (q, k) => (q * 7 + k * 13) % (slack + 1),
          )
          const d = decideWitnessed(evidence(s))
          expect(d.offences).toEqual([])
          expect(d.end).toMatchObject({ kind: 'complete', provisional: false })
          for (const x of d.ticks) {
            expect(x.status).toBe('final')
            for (const q of x.active)
              expect(x.submissions?.[q]?.kind).toBe(present[q] === undefined ? 'missing' : 'orders')
          }
        },
      ),
      // Each run plays a whole game, deciding from scratch at every check-in: 8 runs keep `npm test`
      // in its budget; WITNESS_PLAN_RUNS raises it for a longer search.
      { numRuns: Number(process.env['WITNESS_PLAN_RUNS'] ?? 8) },
    )
  }, 120_000)
})

describe('red team: the seed after a notary fault (§8.2, §4.2 (w5), §11 "cannot convict anyone")', () => {
  it('a node that holds a fault stall signs no seed, and a seed the notary places early on a branch convicts nobody', () => {
    const s = witnessedScenario(3, 5)
    honestTick(s, 1, all(3))
    const at = times(s, 2)
    for (const q of all(3)) receipt(s, sign(s, q, [commitPart(s, q, 2)]), at.start + 5 + q)
    // p1 holds a second receipt at the next index (two-at-index): its decided chain stops below it.
    const k = s.chain.length + 1
    const fault = { kind: 'two-at-index', index: k, detail: 'two receipts at one index' }
    const faulted = { ...evidence(s), fault }
    const held = decideWitnessed(faulted)
    expect(held.end).toMatchObject({ kind: 'stalled', cause: 'notary-fault', tick: 1 })
    const steps = planCheckin({
      genesis: s.genesis,
      self: 0,
      now: at.start + 100,
      chain: s.chain,
      decision: held,
      own: ownOf(s, 0),
      chosen: new Set(),
      sealed: false,
    }).steps
    expect(steps).toEqual([])
    // A notary that receipts an honest seed at index k on the branch it shows p2 (the first draft's
    // early-seed clause made that a conviction of honest p1 in p2's file): no offence now.
    receipt(s, sign(s, 0, [{ type: 'seed', seed: s.seeds[0] ?? new Uint8Array(32) }]), at.start + 100)
    mark(s, 2, 1, at.R + 1)
    const branch = decideWitnessed(evidence(s))
    expect(branch.offences).toEqual([])
  })
})

describe('red team: undecided at a gap below a notary fault (§7.6 rule 2, §8.2)', () => {
  it('the node signs nothing more and stops, as at a notary-fault stall (a notary withholding the content would keep it polling)', () => {
    const s = witnessedScenario(3, 5)
    honestTick(s, 1, all(3))
    const at = times(s, 2)
    for (const q of all(3)) receipt(s, sign(s, q, [commitPart(s, q, 2)]), at.start + 5 + q)
    const fault = { kind: 'two-at-index', index: s.chain.length + 1, detail: 'two receipts at one index' }
    // p2's tick-1 reveal is in no file this node holds: tick 1 is a gap below the fault.
    const reveal = [...s.signed.values()].find(
      (e) => e.envelope.author === 1 && e.envelope.parts.some((p) => p.type === 'reveal'),
    )
    const d = decideWitnessed({ ...evidence(s, { drop: (id) => id === reveal?.id }), fault })
    expect(d.end).toMatchObject({ kind: 'ongoing', gap: 'content', fault })
    const plan = planCheckin({
      genesis: s.genesis,
      self: 0,
      now: at.start + 100,
      chain: s.chain,
      decision: d,
      own: ownOf(s, 0),
      chosen: new Set(),
      sealed: false,
    })
    expect(plan.steps).toEqual([])
    expect(plan.next).toBeUndefined()
  })
})

describe('red team: the plan never breaks its own chain order (§8.2, §4.2 (w3))', () => {
  /** p1 plays tick 1; in tick 2 it commits (or not) and never reveals; it commits and reveals tick 3. */
  function ahead(commitsTwo: boolean): Scenario {
    const s = witnessedScenario(3, 5)
    honestTick(s, 1, all(3))
    const at2 = times(s, 2)
    if (commitsTwo) receipt(s, sign(s, 0, [commitPart(s, 0, 2)]), at2.start + 1)
    for (const q of [1, 2]) receipt(s, sign(s, q, [commitPart(s, q, 2)]), at2.start + 5 + q)
    mark(s, 2, 0, at2.C + 1)
    for (const q of [1, 2]) receipt(s, sign(s, q, [revealPart(s, q, 2)]), at2.C + 5 + q)
    mark(s, 2, 1, at2.R + 1)
    const at3 = times(s, 3)
    receipt(s, sign(s, 0, [commitPart(s, 0, 3)]), at3.start + 5)
    mark(s, 3, 0, at3.C + 1)
    receipt(s, sign(s, 0, [revealPart(s, 0, 3)]), at3.C + 5)
    return s
  }
  const plan = (s: Scenario, now: number, chosen: number[]) =>
    planCheckin({
      genesis: s.genesis,
      self: 0,
      now,
      chain: s.chain,
      decision: decideWitnessed(evidence(s)),
      own: ownOf(s, 0),
      chosen: new Set(chosen),
      sealed: false,
    }).steps.filter((x) => x.kind !== 'mark')

  it('a clock set back into an earlier tick’s commit window signs no commit below one already signed', () => {
    const s = ahead(false)
    expect(plan(s, times(s, 2).start + 10, [2])).toEqual([])
  })

  it('a clock set back into an earlier tick’s reveal window signs no reveal below one already signed', () => {
    const s = ahead(true)
    expect(plan(s, times(s, 2).C + SKEW_MS + 5, [])).toEqual([])
  })
})

describe('red team: floods stay linear (§7, R4)', () => {
  it('a fork flood of 3,000 signed envelopes at one place, 3,000 junk copies, and a 300-tick game of 8 decide in seconds', () => {
    const s = witnessedScenario(3, 2)
    honestTick(s, 1, all(3))
    const tip = s.tips[2] as SealedEnvelope
    const key = s.keys[2]
    if (key === undefined) throw new Error('no key')
    const extra: Uint8Array[] = []
    for (let i = 0; i < 3000; i++) {
      const e = sealEnvelope(key, {
        author: 2,
        seq: tip.envelope.seq,
        game: s.genesis.game,
        prev: tip.envelope.prev,
        heads: [],
        parts: [revealPart(s, 2, 1, `buy ${i % 10}`), { type: 'stop', tick: i + 1, reason: 'late' }],
      })
      extra.push(e.bytes, badSig(e))
    }
    let started = performance.now()
    const flooded = decideWitnessed(evidence(s, { extra }))
    const floodMs = performance.now() - started
    expect(flooded.offences).toEqual([expect.objectContaining({ player: 2, kind: 'fork' })])

    const long = witnessedScenario(8, 300, 3)
    for (let t = 1; t <= 300; t++) honestTick(long, t, all(8))
    started = performance.now()
    const d = decideWitnessed(evidence(long))
    const longMs = performance.now() - started
    expect(d.ticks.length).toBe(300)
    expect(floodMs).toBeLessThan(15_000)
    expect(longMs).toBeLessThan(5_000)
  }, 120_000)
})

describe('red team: key-less edits, duplicates, order, truncation (properties, §7.4 "Monotone", §13.18)', () => {
  /** Five players over 4 ticks: p1–p3 honest; p5's tick-1 reveal voided by p2's complaint; p4 seeds early at tick 3, then commits. */
  function mixed(): Scenario {
    const s = witnessedScenario(5, 4)
    const r = honestTick(s, 1, all(5))
    complaint(s, 1, r.get(4)?.reveal ?? 0, times(s, 1).R + 100)
    honestTick(s, 2, [0, 1, 2, 3])
    receipt(s, sign(s, 3, [{ type: 'seed', seed: s.seeds[3] ?? new Uint8Array(32) }]), times(s, 3).start + 1)
    receipt(s, sign(s, 3, [commitPart(s, 3, 3)]), times(s, 3).start + 2)
    honestTick(s, 3, [0, 1, 2])
    honestTick(s, 4, [0, 1, 2])
    seeds(s, [0, 1, 2], 4)
    return s
  }
  const s = mixed()
  const full = decideWitnessed(evidence(s))
  const honest = new Set([0, 1, 2])

  it('the full evidence: p5 void and removed at 1, p4 (w3) counted at 3, honest players never convicted', () => {
    expect(full.offences.map((o) => [o.player, o.rule, o.counted])).toEqual([
      [3, '§4.2 (w3)', 3],
      [4, '§7.3 false-deposit', 1],
    ])
    expect(full.end).toMatchObject({ kind: 'complete', tick: 4, provisional: false })
  })

  it('any subset, edit, duplicate or order of the files: never throws, never convicts an honest player, never a different final state or final end', () => {
    const envs = [...s.signed.values()].map((e) => e.bytes)
    const edit = fc.record({
      which: fc.nat(),
      kind: fc.constantFrom('flip', 'truncate', 'extend', 'dup', 'junk'),
      at: fc.nat(),
      byte: fc.integer({ min: 1, max: 255 }),
    })
    fc.assert(
      fc.property(
        fc.nat({ max: s.chain.length }),
        fc.array(fc.boolean(), { minLength: envs.length, maxLength: envs.length }),
        fc.array(edit, { maxLength: 8 }),
        fc.nat(),
        (keep, kept, edits, seed) => {
          const files = envs.filter((_, i) => kept[i] !== false)
          for (const e of edits) {
            const src = envs[e.which % envs.length] ?? new Uint8Array(0)
            if (e.kind === 'dup') files.push(src)
            else if (e.kind === 'junk') files.push(new Uint8Array(e.at % 300).fill(e.byte))
            else if (e.kind === 'truncate') files.push(src.slice(0, e.at % src.length))
            else if (e.kind === 'extend') files.push(Uint8Array.from([...src, e.byte]))
            else {
              const b = src.slice()
              const i = e.at % b.length
              b[i] = (b[i] ?? 0) ^ e.byte
              files.push(b)
            }
          }
          // A deterministic shuffle.
          const order = files.map((f, i) => ({ f, k: (i * 2654435761 + seed) % 4294967296 }))
          order.sort((a, b) => a.k - b.k)
          const ev: WitnessedEvidence = {
            ...evidence(s, { chain: s.chain.slice(0, keep) }),
            envelopes: order.map((o) => o.f),
          }
          const d = decideWitnessed(ev)
          for (const o of d.offences) expect(honest.has(o.player)).toBe(false)
          d.ticks.forEach((x, i) => {
            if (x.status === 'final') expect(x.stateHash).toEqual(full.ticks[i]?.stateHash)
          })
          if (d.end.kind === 'complete' && !d.end.provisional) expect(d.end).toEqual(full.end)
          // Order and duplicates never matter.
          expect(decideWitnessed({ ...ev, envelopes: [...order.map((o) => o.f)].reverse() })).toEqual(d)
        },
      ),
      { numRuns: 80 },
    )
  }, 120_000)
})

describe('red team: edge cases pinned (§4.2, §7.2, §7.3, §7.6)', () => {
  it('a header naming another player’s envelope: only the header’s signer is convicted, (w4), and the other keeps its place', () => {
    const s = witnessedScenario(3, 3)
    const at = times(s, 1)
    const c1 = sign(s, 1, [commitPart(s, 1, 1)])
    receipt(s, c1, at.start + 1)
    // p3 signs a header at its seq 1 whose envelopeHash is p2's commitment (it opened p2's deposit).
    s.chain.push({
      kind: 'envelope',
      index: s.chain.length + 1,
      time: at.start + 2,
      author: 2,
      seq: 1,
      envelopeHash: c1.hash,
    })
    receipt(s, sign(s, 0, [commitPart(s, 0, 1)]), at.start + 3)
    mark(s, 1, 0, at.C + 1)
    for (const q of [0, 1]) receipt(s, sign(s, q, [revealPart(s, q, 1)]), at.C + 2 + q)
    mark(s, 1, 1, at.R + 1)
    const d = decideWitnessed(evidence(s))
    expect(d.offences).toEqual([expect.objectContaining({ player: 2, rule: '§4.2 (w4)', counted: 1 })])
    expect(d.ticks[0]?.submissions?.map((x) => x.kind)).toEqual(['orders', 'orders', 'equivocated'])
    expect(d.offences[0]?.message).toContain('another place')
  })

  it('a complaint about a receipt that is no envelope receipt changes nothing', () => {
    const s = witnessedScenario(3, 2)
    honestTick(s, 1, all(3))
    const markIndex = s.chain.findIndex((r) => r.kind === 'mark') + 1
    complaint(s, 1, markIndex, times(s, 1).R + 10)
    complaint(s, 1, 999, times(s, 1).R + 11)
    const d = decideWitnessed(evidence(s))
    expect(d.offences).toEqual([])
    expect(d.voids).toEqual([])
  })

  it('two complaints in time and a late one about one envelope: one void, one false-deposit offence naming all, counted once in u', () => {
    const s = witnessedScenario(4, 3)
    const r = honestTick(s, 1, all(4))
    const target = r.get(3)?.commit ?? 0
    complaint(s, 0, target, times(s, 1).R + 10)
    complaint(s, 1, target, times(s, 1).R + 20)
    complaint(s, 2, target, times(s, 2).R + 20) // late: counted nowhere new
    honestTick(s, 2, [0, 1, 2])
    mark(s, 3, 0, times(s, 3).C + 1)
    const d = decideWitnessed(evidence(s))
    expect(d.voids).toEqual([target])
    // Void: as if it held no parts (§4.2), so p4's reveal has no commitment before it: (w3) too, same tick.
    expect(d.offences.map((o) => [o.player, o.rule, o.counted, o.receipts])).toEqual([
      [3, '§4.2 (w3)', 1, [9]],
      [3, '§7.3 false-deposit', 1, [target, 11, 12, 13]],
    ])
    expect(d.ticks[0]?.submissions?.[3]).toEqual({ kind: 'equivocated' })
  })

  it('fork at seq 0: a second accept signed by its author convicts it, never counted; the accept’s own copy is no fork', () => {
    const s = witnessedScenario(3, 2)
    honestTick(s, 1, all(3))
    const other = signAt(s, 1, 0, s.genesis.game, [{ type: 'accept' }])
    expect(other.id).toBe(s.accepts[1]?.id) // Ed25519 is deterministic: the same accept
    const withHead = sealEnvelope(s.keys[1] ?? s.keys[0]!, {
      author: 1,
      seq: 0,
      game: s.genesis.game,
      prev: s.genesis.game,
      heads: [{ author: 0, seq: 0, hash: s.accepts[0]?.hash ?? new Uint8Array(32) }],
      parts: [{ type: 'accept' }],
    })
    expect(decideWitnessed(evidence(s)).offences).toEqual([])
    const d = decideWitnessed(evidence(s, { extra: [withHead.bytes] }))
    expect(d.offences).toEqual([
      expect.objectContaining({ player: 1, kind: 'fork', message: 'two envelopes at seq 0' }),
    ])
    expect(d.offences[0]?.counted).toBeUndefined()
  })

  it('outage votes count only from players of A_s, for tick s itself', () => {
    const s = witnessedScenario(5, 4, 1)
    // Tick 1: p5 misses it and is removed (absentTicks 1); A_2 = p1..p4, M_2 = 3.
    honestTick(s, 1, [0, 1, 2, 3])
    const at = times(s, 2)
    for (const q of [0, 1, 2, 3]) receipt(s, sign(s, q, [commitPart(s, q, 2)]), at.start + 5 + q)
    sign(s, 0, [{ type: 'stop', tick: 2, reason: 'stalled' }])
    sign(s, 1, [{ type: 'stop', tick: 3, reason: 'stalled' }])
    sign(s, 4, [{ type: 'stop', tick: 2, reason: 'stalled' }])
    const fewer = decideWitnessed(evidence(s))
    expect(fewer.end.kind).toBe('ongoing')
    sign(s, 2, [{ type: 'stop', tick: 2, reason: 'late' }])
    sign(s, 3, [{ type: 'stop', tick: 2, reason: 'split' }])
    expect(decideWitnessed(evidence(s)).end).toEqual({ kind: 'stalled', cause: 'outage', tick: 2, voters: [0, 2, 3] })
  })

  it('commit ahead (R3): commit(3) at tick 1 counts at tick 3; a later commit(2) breaks (w3) in its own tick', () => {
    const s = witnessedScenario(3, 3)
    const at = times(s, 1)
    receipt(s, sign(s, 0, [commitPart(s, 0, 1)]), at.start + 1)
    receipt(s, sign(s, 0, [commitPart(s, 0, 3)]), at.start + 2)
    for (const q of [1, 2]) receipt(s, sign(s, q, [commitPart(s, q, 1)]), at.start + 3 + q)
    mark(s, 1, 0, at.C + 1)
    for (const q of all(3)) receipt(s, sign(s, q, [revealPart(s, q, 1)]), at.C + 2 + q)
    mark(s, 1, 1, at.R + 1)
    honestTick(s, 2, [1, 2])
    receipt(s, sign(s, 0, [revealPart(s, 0, 3)]), times(s, 3).C + 1)
    honestTick(s, 3, [1, 2])
    const d = decideWitnessed(evidence(s))
    expect(d.offences).toEqual([])
    expect(d.ticks[2]?.submissions?.[0]?.kind).toBe('orders')
    const s2 = witnessedScenario(3, 3)
    receipt(s2, sign(s2, 0, [commitPart(s2, 0, 3)]), times(s2, 1).start + 1)
    honestTick(s2, 1, [1, 2])
    receipt(s2, sign(s2, 0, [commitPart(s2, 0, 2)]), times(s2, 2).start + 1)
    honestTick(s2, 2, [1, 2])
    const d2 = decideWitnessed(evidence(s2))
    expect(d2.offences).toEqual([expect.objectContaining({ player: 0, rule: '§4.2 (w3)', counted: 2 })])
  })

  it('a cheater garbling three deposits in one tick, one more than COMPLAINTS_PER_PAIR lets anyone complain of, stalls nobody: the third is no gap (§7.3, §7.4)', () => {
    // Found by a second red-team reading: p3's seq 1 and 2 are void (complaints in time), its seq 3
    // cannot be complained of (the notary refuses a third complaint per pair) nor relayed, and no
    // file holds it. p3 is equivocated in tick 1 by its false-deposit, so its content cannot change S_1.
    const s = witnessedScenario(4, 1)
    const at = times(s, 1)
    const g1 = receipt(s, sign(s, 3, [commitPart(s, 3, 1)]), at.start + 100)
    const g2 = receipt(s, sign(s, 3, [commitPart(s, 3, 1, 'buy 1')]), at.start + 200)
    const g3 = sign(s, 3, [commitPart(s, 3, 1, 'buy 2')])
    receipt(s, g3, at.start + 300)
    honestTick(s, 1, [0, 1, 2])
    const revealOf1 = s.tips[1]?.id
    complaint(s, 0, g1, s.now + 1)
    complaint(s, 0, g2, s.now + 1)
    seeds(s, [0, 1, 2], 1)
    const d = decideWitnessed(evidence(s, { drop: (id) => id === g3.id }))
    expect(d.ticks.map((x) => x.status)).toEqual(['final'])
    expect(d.ticks[0]?.submissions?.[3]?.kind).toBe('equivocated')
    expect(d.offences.map((o) => [o.player, o.kind, o.counted])).toEqual([
      [3, 'false-deposit', 1],
      [3, 'false-deposit', 1],
    ])
    expect(d.end).toMatchObject({ kind: 'complete', tick: 1, provisional: false })
    expect(d.end.kind === 'complete' && d.end.winners).not.toContain(3)
    // The converse: an honest player's envelope the file lacks is still a gap.
    const honest = decideWitnessed(evidence(s, { drop: (id) => id === g3.id || id === revealOf1 }))
    expect(honest.ticks.map((x) => x.status)).toEqual(['gap'])
  })

  it("an honest player's vote stands when another player's void receipt names its envelope: void is per receipt (§7.2, §7.6 rule 4)", () => {
    // p2 has the notary receipt a header of its own place naming p0's stop(1) envelope, with a
    // deposit nobody opens; the complaints void p2's receipt. p0's envelope, never receipted at its
    // own place (the notary is out), is no void envelope: its outage vote counts.
    const s = witnessedScenario(3, 3)
    const at = times(s, 1)
    const vote0 = sign(s, 0, [{ type: 'stop', tick: 1, reason: 'stalled' }])
    sign(s, 1, [{ type: 'stop', tick: 1, reason: 'stalled' }])
    s.chain.push({
      kind: 'envelope',
      index: s.chain.length + 1,
      time: at.start + 100,
      author: 2,
      seq: 1,
      envelopeHash: vote0.hash,
    })
    const misplaced = s.chain.length
    complaint(s, 0, misplaced, at.start + 200)
    complaint(s, 1, misplaced, at.start + 300)
    const d = decideWitnessed(evidence(s))
    expect(d.voids).toEqual([misplaced])
    expect(d.end).toMatchObject({ kind: 'stalled', cause: 'outage', tick: 1, voters: [0, 1] })
  })
})
