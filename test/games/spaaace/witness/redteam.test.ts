/**
 * A red-team reading of the witnessed decision (protocol/SPAAACE-WITNESSED.md §4.2, §7) and the
 * honest node's plan (§8.1–§8.2): a cheater with its key, a coalition, a key-less editor of files,
 * and a second team reading §7. Each test names the section it pins.
 */
import { describe, expect, it } from 'vitest'
import { sign as signBytes } from '../../../../src/core/commit/keys.js'
import {
  type SealedEnvelope,
  encodeUnsigned,
  envelopeHash,
  sealEnvelope,
  signingMessage,
} from '../../../../src/games/spaaace/peers/envelope.js'
import type { Part } from '../../../../src/games/spaaace/peers/parts.js'
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

describe('red team: (w5) a seed before the end is final (§4.2 "what a reader judges")', () => {
  it('a seed receipted in tick u is judged once tick u − 1 is decided, even if tick u is still open', () => {
    const s = witnessedScenario(3, 10)
    honestTick(s, 1, all(3))
    honestTick(s, 2, all(3))
    mark(s, 3, 0, times(s, 3).C + 1) // tick 2 final; tick 3 open
    receipt(s, sign(s, 1, [{ type: 'seed', seed: s.seeds[1] ?? new Uint8Array(32) }]), times(s, 3).C + 10)
    const d = decide(evidence(s))
    expect(d.ticks.map((x) => x.status)).toEqual(['final', 'final', 'open'])
    expect(d.offences).toEqual([expect.objectContaining({ player: 1, rule: '§4.2 (w5)', tick: 3 })])
    expect(d.offences[0]?.counted).toBeUndefined()
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
