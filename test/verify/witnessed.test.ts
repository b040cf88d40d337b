/**
 * A witnessed game decided by its notary's receipts (PROTOCOL-4.md §4.4, §4.5; SPEC §12.7a): each
 * result, and the converse of every check: an honest claimant after D wins, an honest side whose
 * late envelope was receipted before the claim is not convicted of lateness, a claim counts at its
 * request's position whatever is receipted before its stop, an answer to a stop nobody can place
 * never makes the answerer lose, a notary fault never convicts a player, removing receipt lines
 * never convicts anyone; and `witnessedDue`, what a node computes to request a claim, agrees with
 * the verifier's D to the millisecond.
 */
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { toBase64url } from '../../src/core/commit/bytes.js'
import { signClaim } from '../../src/core/notary/claim.js'
import { NOTARY_DOMAIN } from '../../src/games/spaceships/protocol/domain.js'
import type { SealedEnvelope } from '../../src/games/spaceships/protocol/envelope.js'
import { formatTranscript, memoryStore } from '../../src/games/spaceships/protocol/file.js'
import { type Role, otherRole } from '../../src/games/spaceships/protocol/messages.js'
import { gatherEvidence } from '../../src/games/spaceships/verify/evidence.js'
import { type Verdict, verifyFiles, verifyTranscript } from '../../src/games/spaceships/verify/verify.js'
import { walk } from '../../src/games/spaceships/verify/walk.js'
import {
  OUTAGE_MIN_MS,
  cutWalk,
  isoTime,
  outageMs,
  stepMs,
  witnessedDue,
  witnessedPrelude,
} from '../../src/games/spaceships/verify/witnessed.js'
import { WITNESS_MARGIN_MS } from '../../src/games/spaceships/witness/registrar.js'
import { renderVerdict, verdictLine } from '../../src/cli/verify.js'
import { endedInTurn, outcomeLine } from '../../src/games/spaceships/ui/panel.js'
import { SETUP_A, SETUP_B } from '../helpers.js'
import { oracle } from '../protocol/build-vectors.js'
import {
  Case,
  NotaryLog,
  type Stage,
  W_STEP_MS,
  W_T0,
  W_TERMS,
  type WitnessedPlay,
  signStop,
  stageOf,
  witnessedFile,
  witnessedPlay,
} from '../protocol/witnessed-builder.js'
import { playInMemory } from '../session/helpers.js'

let stage: Stage
let play: WitnessedPlay

beforeAll(async () => {
  // The witnessed vectors' game (test/protocol/build-vectors-witnessed.ts), played the same way.
  const name = 'v4-w'
  const g = await playInMemory(`vector/${name}`, {
    version: 4,
    stores: [memoryStore(), memoryStore()],
    terms: W_TERMS,
    strategies: [oracle(SETUP_A, SETUP_B, `v/${name}/a`), oracle(SETUP_B, SETUP_A, `v/${name}/b`)],
  })
  play = witnessedPlay(`vector/${name}`, formatTranscript(g.a.transcript))
  stage = stageOf(play)
}, 60_000)

const verdictOf = (c: Case | readonly (SealedEnvelope | Uint8Array)[]): Verdict =>
  verifyTranscript(c instanceof Case ? c.file() : witnessedFile(c))

/** The side a verdict goes against, if any: the offender, the resigner, the one that abandoned or lost on time. */
function loser(v: Verdict): Role | undefined {
  switch (v.status) {
    case 'offence':
      return v.offence.offender
    case 'resigned':
    case 'abandoned':
      return v.by
    case 'complete':
    case 'adjudicated':
      return v.winner === 'draw' ? undefined : otherRole(v.winner)
    default:
      return undefined
  }
}

const notesOf = (v: Verdict): readonly string[] => (v.status === 'unreadable' ? [] : v.notes)

const bytesOf = (lines: readonly (SealedEnvelope | Uint8Array)[]): Uint8Array[] =>
  lines.map((l) => (l instanceof Uint8Array ? l : l.bytes))

describe('PROTOCOL-4.md §4.4 rule 5: lost on time', () => {
  it('an honest claimant whose claim request is receipted after D wins: the owing side lost on time, finally', () => {
    const c = new Case(stage)
    c.claimByA(c.D + 1, c.D + 2)
    const v = verdictOf(c)
    expect(v).toMatchObject({
      status: 'abandoned',
      how: 'time',
      by: 'B',
      winner: 'A',
      claimedBy: 'A',
      provisional: false,
    })
    expect(v.status !== 'unreadable' && v.witnessed).toMatchObject({ result: 5, final: true, unwitnessed: undefined })
    // The detail names the step, D and the claim receipt's time.
    expect(v.status === 'abandoned' && v.detail).toContain(`by ${isoTime(c.D)}`)
    expect(v.status === 'abandoned' && v.detail).toContain(`receipted at ${isoTime(c.D + 1)}`)
    expect(v.status === 'abandoned' && v.detail).toContain('results of turn 1')
  })

  it('the boundary: a claim receipt at D exactly is early (rule 8), one millisecond later is in time (rule 5)', () => {
    const atD = new Case(stage)
    atD.claimByA(atD.D, atD.D + 1, atD.D - 1)
    expect(verdictOf(atD)).toMatchObject({ status: 'abandoned', how: 'stopped', by: 'A', winner: 'B' })
    const after = new Case(stage)
    after.claimByA(after.D + 1, after.D + 1)
    expect(verdictOf(after)).toMatchObject({ status: 'abandoned', how: 'time', by: 'B' })
  })

  it('a claim request receipted after D counts at its own position: the owed envelope receipted before the stop does not rebut it', () => {
    const c = new Case(stage)
    c.claimByA(c.D + 5_000, c.D + 60_000, c.D, (k) => k.receipted(stage.b4, k.D + 30_000))
    expect(verdictOf(c)).toMatchObject({ status: 'abandoned', how: 'time', by: 'B', winner: 'A' })
  })

  it('the claim stop answered by B, the answer receipted first: s0 is still the claim, at its claim receipt', () => {
    const c = new Case(stage)
    const claimIndex = c.log.last + 1
    c.push(c.log.claim('A', stage.a3.envelope.seq + 1, c.D, c.log.last, c.D + 100))
    const stop = signStop(play, 'A', 'claim', stage.prefix, stage.b2)
    const answer = signStop(play, 'B', 'answer', stage.prefix, stop)
    c.receipted(answer, c.D + 200)
    c.receipted(stop, c.D + 300, { claim: { deadline: c.D, seen: claimIndex } })
    expect(verdictOf(c)).toMatchObject({ status: 'abandoned', how: 'time', by: 'B', winner: 'A' })
  })

  it('a claim stop that answers a stop arriving after the claim receipt is still s0: the least position decides', () => {
    // A's claim request is receipted after D; B's resignation reaches A before A signs its stop,
    // which acknowledges it (so it answers, SPEC §6.5); B's resignation is receipted later. The
    // claim receipt is the least position: s0 is A's claim, whatever answers what.
    const c = new Case(stage)
    const claimIndex = c.log.last + 1
    c.push(c.log.claim('A', stage.a3.envelope.seq + 1, c.D, c.log.last, c.D + 100))
    const resignation = signStop(play, 'B', 'resignation', stage.prefix, stage.a3)
    c.push(resignation)
    c.receipted(signStop(play, 'A', 'claim', stage.prefix, resignation), c.D + 300, {
      claim: { deadline: c.D, seen: claimIndex },
    })
    c.push(c.log.envelope(resignation, c.D + 400))
    expect(verdictOf(c)).toMatchObject({ status: 'abandoned', how: 'time', by: 'B', winner: 'A' })
  })
})

describe('PROTOCOL-4.md §4.4: an honest side is never convicted of lateness it did not commit', () => {
  it('a late envelope receipted before the claim request rebuts the claim: the claimant owes, and B is not convicted', () => {
    const c = new Case(stage)
    c.receipted(stage.b4, c.D + 2_000)
    c.claimByA(c.D + 5_000, c.D + 5_500)
    const v = verdictOf(c)
    expect(loser(v)).toBe('A')
    expect(v).toMatchObject({ status: 'abandoned', how: 'stopped', by: 'A' })
    expect(v.status === 'abandoned' && v.detail).toContain('while its own')
  })

  it("the claimant's file lacks the late envelope a receipt below the claim names: a gap, never B lost on time", () => {
    const c = new Case(stage)
    c.receipted(stage.b4, c.D + 2_000)
    c.claimByA(c.D + 5_000, c.D + 5_500)
    const withoutB4 = c.lines.filter((l) => l !== stage.b4)
    const v = verdictOf(withoutB4)
    expect(v).toMatchObject({ status: 'incomplete', reason: 'gap' })
    expect(v.status === 'incomplete' && v.detail).toContain(`B's envelope ${stage.b4.envelope.seq}`)
    // B's own file holds it: merged, the claim is A's while it owed.
    const merged = verifyFiles([
      { name: 'a', content: witnessedFile(withoutB4) },
      { name: 'b', content: witnessedFile([...stage.prefix, stage.b4]) },
    ])
    expect(merged).toMatchObject({ status: 'abandoned', how: 'stopped', by: 'A' })
  })

  it('playing on waives a lateness: A acknowledges B’s late envelope with its next one, and nothing decides against B', () => {
    const c = new Case(stage)
    c.receipted(stage.b4, c.D + 50_000)
    const next = play.envelopes[stage.prefix.length + 1]
    if (next === undefined || next.envelope.sender !== 'A') throw new Error('A’s next envelope')
    c.receipted(next, c.D + 51_000)
    const v = verdictOf(c)
    expect(v).toMatchObject({ status: 'incomplete', reason: 'no-claim' })
    expect(v.status === 'incomplete' && v.detail).toContain('B owes')
  })

  it('an answer to a stop nobody can place (no claim receipt, no receipt of its own) never makes the answerer lose', () => {
    // A's bogus claim (no claim request) is never receipted; B, due, answers it with its reveal.
    const c = new Case(stage)
    const bogus = signStop(play, 'A', 'claim', stage.prefix, stage.b2)
    c.push(bogus)
    c.receipted(signStop(play, 'B', 'answer', stage.prefix, bogus), c.D + 1_000)
    const v = verdictOf(c)
    expect(loser(v)).toBe('A')
    expect(v).toMatchObject({ status: 'abandoned', how: 'stopped', by: 'A', winner: 'B' })
    // Nothing receipted at all: no stop has a position, nobody claimed (rule 9), nobody convicted.
    const unplaced = new Case(stage)
    unplaced.push(bogus, signStop(play, 'B', 'answer', stage.prefix, bogus))
    expect(verdictOf(unplaced)).toMatchObject({ status: 'incomplete', reason: 'no-claim' })
  })

  it('property: removing receipt lines never convicts anyone (the claimant is never the loser; only gaps or no claim appear)', () => {
    const lost = new Case(stage)
    lost.claimByA(lost.D + 5_000, lost.D + 5_500)
    const after = new Case(stage)
    after.claimByA(after.D + 5_000, after.D + 6_000, after.D, (k) => k.receipted(stage.b4, k.D + 5_500))
    const cases = [lost, after]
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: cases.length - 1 }),
        fc.array(fc.boolean(), { minLength: 16, maxLength: 16 }),
        (which, drop) => {
          const c = cases[which] ?? lost
          const receipts = new Set(c.log.receipts)
          let k = 0
          const kept = c.lines.filter(
            (l) => !(l instanceof Uint8Array && receipts.has(l) && drop[k++ % drop.length] === true),
          )
          const v = verdictOf(kept)
          expect(loser(v), JSON.stringify(v)).not.toBe('A')
          // B loses only on time (every receipt it rests on is there), never by an offence.
          if (loser(v) === 'B') expect(v).toMatchObject({ status: 'abandoned', how: 'time' })
          else expect(v.status).toBe('incomplete')
        },
      ),
      { numRuns: 60 },
    )
  })
})

describe('PROTOCOL-4.md §4.4 rule 6: resigned', () => {
  it('the first receipted resignation loses, and two that crossed are ordered by their receipts', () => {
    const { prefix, a3, b2 } = stage
    const bFirst = new Case(stage)
    bFirst.receipted(signStop(play, 'B', 'resignation', prefix, a3), bFirst.D - 60_000)
    bFirst.receipted(signStop(play, 'A', 'resignation', prefix, b2), bFirst.D - 59_000)
    expect(verdictOf(bFirst)).toMatchObject({ status: 'resigned', by: 'B', winner: 'A', provisional: false })
    const aFirst = new Case(stage)
    aFirst.receipted(signStop(play, 'A', 'resignation', prefix, b2), aFirst.D - 60_000)
    aFirst.receipted(signStop(play, 'B', 'resignation', prefix, a3), aFirst.D - 59_000)
    expect(verdictOf(aFirst)).toMatchObject({ status: 'resigned', by: 'A', winner: 'B', provisional: false })
  })

  it('a resignation is never a witnessed claim, even with a claim receipt at its place', () => {
    const c = new Case(stage)
    c.push(c.log.claim('A', stage.a3.envelope.seq + 1, c.D, c.log.last, c.D + 1_000))
    c.receipted(signStop(play, 'A', 'resignation', stage.prefix, stage.b2), c.D + 2_000)
    expect(verdictOf(c)).toMatchObject({ status: 'resigned', by: 'A', winner: 'B' })
  })
})

describe('PROTOCOL-4.md §4.4 rule 7, §4.5: outages', () => {
  it('a valid outage stop placed by its answer’s receipt, OUTAGE_MS after D with nothing between: decided as unwitnessed', () => {
    const c = new Case(stage)
    const stop = signStop(play, 'A', 'outage', stage.prefix, stage.b2)
    c.push(stop)
    c.receipted(signStop(play, 'B', 'answer', stage.prefix, stop), c.D + outageMs(W_TERMS))
    const v = verdictOf(c)
    expect(v).toMatchObject({ status: 'adjudicated', stoppedBy: ['A'], due: 'B' })
    expect(v.status !== 'unreadable' && v.witnessed).toMatchObject({ result: 7, final: false })
    expect(notesOf(v).some((n) => n.startsWith('decided as unwitnessed: the notary receipted nothing between'))).toBe(
      true,
    )
    // One millisecond short of the outage period: not valid, a stop of A's own accord (rule 8).
    const short = new Case(stage)
    short.push(stop)
    short.receipted(signStop(play, 'B', 'answer', stage.prefix, stop), short.D + outageMs(W_TERMS) - 1)
    expect(verdictOf(short)).toMatchObject({ status: 'abandoned', how: 'stopped', by: 'A', winner: 'B' })
  })

  it('a receipt between D and the outage stop’s time makes it invalid', () => {
    const c = new Case(stage)
    const stop = signStop(play, 'A', 'outage', stage.prefix, stage.b2)
    // A claim request of B, at a place none of its stops takes, receipted after D: the notary
    // answered, so no outage.
    c.push(c.log.claim('B', stage.b2.envelope.seq + 5, c.D, c.log.last, c.D + 10))
    c.push(stop)
    c.receipted(signStop(play, 'B', 'answer', stage.prefix, stop), c.D + outageMs(W_TERMS) + 5_000)
    const v = verdictOf(c)
    expect(v).toMatchObject({ status: 'abandoned', how: 'stopped', by: 'A' })
    expect(v.status === 'abandoned' && v.detail).toContain('not valid')
  })

  it('an outage stop by the side that owes the step is its own stop, whatever the notary did (rule 8)', () => {
    const c = new Case(stage)
    c.receipted(signStop(play, 'B', 'outage', stage.prefix, stage.a3), c.D + outageMs(W_TERMS) + 1_000, {
      outage: true,
    })
    expect(verdictOf(c)).toMatchObject({ status: 'abandoned', how: 'stopped', by: 'B', winner: 'A' })
  })

  it('no stop placed and an unreceipted valid outage stop of the side not due: decided as unwitnessed (version 3 rule 7, provisional)', () => {
    const c = new Case(stage)
    c.push(signStop(play, 'A', 'outage', stage.prefix, stage.b2))
    const v = verdictOf(c)
    expect(v).toMatchObject({ status: 'abandoned', how: 'no-reveal', by: 'B', provisional: true })
    expect(v.status !== 'unreadable' && v.witnessed?.result).toBe(7)
    // A receipt at or after D (B's claim request, refused by nobody) and the unreceipted outage is not valid: no result.
    const busy = new Case(stage)
    busy.push(busy.log.claim('B', stage.b2.envelope.seq + 1, busy.D - 1, busy.log.last, busy.D))
    busy.push(signStop(play, 'A', 'outage', stage.prefix, stage.b2))
    expect(verdictOf(busy)).toMatchObject({ status: 'incomplete', reason: 'no-claim' })
  })

  it('OUTAGE_MS is max(replyMs, 600,000 ms); ms(step) by the deadline kind, answering a stop max(replyMs, turnMs)', () => {
    expect(OUTAGE_MIN_MS).toBe(600_000)
    expect(outageMs({ ...W_TERMS, replyMs: 10_000 })).toBe(600_000)
    expect(outageMs({ ...W_TERMS, replyMs: 900_000 })).toBe(900_000)
    const t = { ...W_TERMS, setupMs: 3, turnMs: 5, replyMs: 7 }
    expect([stepMs(t, 'setup'), stepMs(t, 'turn'), stepMs(t, 'reply'), stepMs(t, 'answer')]).toEqual([3, 5, 7, 7])
  })
})

describe('PROTOCOL-4.md §4.4 rule 8: stops of their sender’s own accord', () => {
  it('a stop with no claim receipt, and an accusation that proves no offence, lose for their sender', () => {
    const bare = new Case(stage)
    bare.receipted(signStop(play, 'A', 'claim', stage.prefix, stage.b2), bare.D + 5_000)
    expect(verdictOf(bare)).toMatchObject({
      status: 'abandoned',
      how: 'stopped',
      by: 'A',
      winner: 'B',
      provisional: false,
    })
    const accusation = new Case(stage)
    accusation.receipted(signStop(play, 'A', 'accusation', stage.prefix, stage.b2, 'nothing'), accusation.D + 5_000)
    const v = verdictOf(accusation)
    expect(v).toMatchObject({ status: 'abandoned', how: 'stopped', by: 'A' })
    expect(v.status === 'abandoned' && v.detail).toContain('proves no offence')
  })

  it('a claim by the side that owes the step loses for the claimant, even after D', () => {
    const c = new Case(stage)
    c.push(c.log.claim('B', stage.b2.envelope.seq + 1, c.D, c.log.last, c.D + 5_000))
    const claimIndex = c.log.last
    c.receipted(signStop(play, 'B', 'claim', stage.prefix, stage.a3), c.D + 5_500, {
      claim: { deadline: c.D, seen: claimIndex },
    })
    const v = verdictOf(c)
    expect(v).toMatchObject({ status: 'abandoned', how: 'stopped', by: 'B', winner: 'A' })
    expect(v.status === 'abandoned' && v.detail).toContain('while its own')
  })

  it("a claim receipt whose claim the claimant did not sign claims nothing: the notary's fault (receipt-invalid, NOTARY.md §6), which voids the witnessed decision, never B lost on time", () => {
    const c = new Case(stage)
    // A claim request at A's place signed by B's key, which a faulty notary receipted.
    const forged = signClaim(NOTARY_DOMAIN, play.keys.B, {
      game: play.game,
      sender: 0,
      seq: stage.a3.envelope.seq + 1,
      deadline: c.D,
      seen: c.log.last,
    })
    c.push(c.log.append({ kind: 'claim', claim: forged }, c.D + 5_000))
    const claimIndex = c.log.last
    c.receipted(signStop(play, 'A', 'claim', stage.prefix, stage.b2), c.D + 5_500, {
      claim: { deadline: c.D, seen: claimIndex },
    })
    const v = verdictOf(c)
    // Decided as unwitnessed (version 3's rules): A claimed and revealed, B has not revealed: provisional, not on time.
    expect(v).toMatchObject({ status: 'abandoned', how: 'no-reveal', by: 'B', provisional: true })
    expect(v.status !== 'unreadable' && v.witnessed?.result).toBeUndefined()
    expect(v.status !== 'unreadable' && v.witnessed?.unwitnessed).toContain(
      `a notary fault at receipt ${claimIndex} (receipt-invalid: a receipt the notary signed at index ${claimIndex} that no reader can take: the claim's player signature is not valid`,
    )
  })
})

describe('NOTARY.md §6 item 3: receipt-invalid, named the same whatever the order of files and lines', () => {
  it('three lines the notary signed at index 3 that no reader can take, in every order and split over two files: one verdict, naming the same fault', () => {
    const c = new Case(stage)
    c.claimByA(c.D + 5_000, c.D + 5_500)
    const three = c.log.receipts[3]
    const bad = [c.log.brokenHeader(3), c.log.unknownKind(3, 0xee), c.log.unknownKind(3, 0xef)]
    const body = c.lines.filter((l) => l !== three)
    const orders = [
      [0, 1, 2],
      [2, 1, 0],
      [1, 0, 2],
    ]
    const verdicts = orders.map((o) =>
      JSON.stringify(verdictOf([...o.map((i) => bad[i] ?? new Uint8Array()), ...body])),
    )
    const split = verifyFiles([
      { name: '', content: witnessedFile([...body, bad[2] ?? new Uint8Array()]) },
      { name: '', content: witnessedFile([bad[1] ?? new Uint8Array(), ...body, bad[0] ?? new Uint8Array()]) },
    ])
    for (const v of verdicts) expect(v).toBe(verdicts[0])
    const v = JSON.parse(verdicts[0] ?? '{}') as Verdict
    expect(v).toMatchObject({ status: 'abandoned', how: 'no-reveal', by: 'B' })
    expect(split.status !== 'unreadable' && split.witnessed?.unwitnessed).toBe(
      v.status !== 'unreadable' && v.witnessed?.unwitnessed,
    )
    expect(v.status !== 'unreadable' && v.witnessed?.unwitnessed).toMatch(
      /^a notary fault at receipt 3 \(receipt-invalid: a receipt the notary signed at index 3 that no reader can take: /,
    )
  })
})

describe('PROTOCOL-4.md §4.4 rule 9, rule 2 and notary faults', () => {
  it('no stop: incomplete, naming the due side, its step and D, provisional until the log is sealed', () => {
    const c = new Case(stage)
    const v = verdictOf(c)
    expect(v).toMatchObject({ status: 'incomplete', reason: 'no-claim' })
    expect(v.status === 'incomplete' && v.detail).toContain(
      `B owes its results of turn 1 (its envelope 3), due by ${isoTime(c.D)}`,
    )
    expect(v.status === 'incomplete' && v.detail).toContain('provisional until the notary seals its log')
  })

  it('a receipt missing below s0’s position is a gap; a missing receipt above it changes nothing', () => {
    const c = new Case(stage)
    c.claimByA(c.D + 5_000, c.D + 5_500)
    const below = verdictOf(c.lines.filter((l) => l !== c.log.receipts[4]))
    expect(below).toMatchObject({ status: 'incomplete', reason: 'gap' })
    expect(below.status === 'incomplete' && below.detail).toContain(
      "the notary's receipt 4, which its receipt 5 names, is missing",
    )
    // The stop's own receipt (above s0, the claim receipt) deleted: nothing names it, s0 stands.
    const above = verdictOf(c.lines.filter((l) => l !== c.log.receipts.at(-1)))
    expect(above).toMatchObject({ status: 'abandoned', how: 'time', by: 'B' })
  })

  it('a notary fault at or below s0’s position voids the witnessed decision (decided as unwitnessed, the fault named); above it, it does not', () => {
    const c = new Case(stage)
    c.claimByA(c.D + 5_000, c.D + 5_500)
    const s0 = c.log.last - 1
    const at = verdictOf([...c.lines, c.log.fork(s0, c.D + 5_001)])
    expect(at).toMatchObject({ status: 'abandoned', how: 'no-reveal', by: 'B', provisional: true })
    expect(at.status !== 'unreadable' && at.witnessed?.unwitnessed).toContain(
      `notary fault at receipt ${s0} (two-at-index`,
    )
    expect(notesOf(at).some((n) => n.startsWith('decided as unwitnessed: a notary fault'))).toBe(true)
    const above = verdictOf([...c.lines, c.log.fork(c.log.last, c.D + 5_501)])
    expect(above).toMatchObject({ status: 'abandoned', how: 'time', by: 'B', winner: 'A' })
  })

  it('a fault above a gap below s0 waits for the gap (the missing receipt may place a stop lower); one at or below it voids', () => {
    const c = new Case(stage)
    c.claimByA(c.D + 5_000, c.D + 5_500)
    const without2 = c.lines.filter((l) => l !== c.log.receipts[2])
    const above = verdictOf([...without2, c.log.fork(4, c.log.timeOf(4) + 1)])
    expect(above).toMatchObject({ status: 'incomplete', reason: 'gap' })
    const below = verdictOf([...without2, c.log.fork(1, c.log.timeOf(1) + 1)])
    expect(below).toMatchObject({ status: 'abandoned', how: 'no-reveal', by: 'B' })
    expect(below.status !== 'unreadable' && below.witnessed?.unwitnessed).toContain('notary fault at receipt 1')
  })

  it('a notary fault never convicts a player: every fork of every receipt of the lost-on-time log leaves A unconvicted', () => {
    const c = new Case(stage)
    c.claimByA(c.D + 5_000, c.D + 5_500)
    for (let i = 0; i < c.log.receipts.length; i++) {
      const v = verdictOf([...c.lines, c.log.fork(i, c.log.timeOf(i) + 7)])
      expect(loser(v), `fork at ${i}`).not.toBe('A')
    }
  })

  it('hostile receipts never throw: times beyond any date, bytes changed anywhere', () => {
    const c = new Case(stage)
    const far = 2 ** 53 - 1
    c.claimByA(far - 10, far)
    expect(() => verdictOf(c)).not.toThrow()
    const lines = bytesOf(c.lines)
    fc.assert(
      fc.property(fc.nat(), fc.nat(), fc.integer({ min: 1, max: 255 }), (line, at, x) => {
        const copy = lines.map((l) => l.slice())
        const target = copy[line % copy.length] ?? new Uint8Array(1)
        target[at % target.length] = (target[at % target.length] ?? 0) ^ x
        const text = ['spaceships-transcript 4', ...copy.map((l) => toBase64url(l))].join('\n') + '\n'
        expect(() => verifyTranscript(text)).not.toThrow()
        expect(() => witnessedDue(copy)).not.toThrow()
      }),
      { numRuns: 40 },
    )
  })
})

describe('witnessedDue: what a node computes to request a claim (PROTOCOL-4.md §4.4, "What an honest node does")', () => {
  it('names the owed step, its start, D, the reserves and the last index held; undefined once a stop is held', () => {
    const c = new Case(stage)
    const due = witnessedDue(bytesOf(c.lines))
    expect(due).toMatchObject({
      side: 'B',
      seq: 3,
      parts: ['results'],
      deadline: c.D,
      lastIndex: c.log.last,
      reserveLeft: { A: 120_000, B: 120_000 },
      unopened: [],
    })
    expect(due?.start).toBe((due?.deadline ?? 0) - stepMs(W_TERMS, 'reply') - 120_000 - WITNESS_MARGIN_MS)
    c.claimByA(c.D + 1, c.D + 2)
    expect(witnessedDue(bytesOf(c.lines))).toBeUndefined()
  })

  it('no deadline while the envelope that made the step due has no receipt; an unopened receipt is named', () => {
    const c = new Case(stage)
    const withoutLast = c.lines.filter((l) => l !== c.log.receipts.at(-1))
    expect(witnessedDue(bytesOf(withoutLast))).toMatchObject({ side: 'B', deadline: undefined, start: undefined })
    c.receipted(stage.b4, c.D - 1_000)
    const unopened = c.lines.filter((l) => l !== stage.b4)
    expect(witnessedDue(bytesOf(unopened))).toMatchObject({ side: 'B', unopened: [c.log.last] })
  })

  it('undefined for a game that is not witnessed or not begun', () => {
    expect(witnessedDue([])).toBeUndefined()
    expect(witnessedDue(stage.prefix.slice(0, 1).map((s) => s.bytes))).toBeUndefined()
  })

  it('property: at any cut, with any lateness drawing the reserves, the verifier decides a claim receipted at D + 1 as lost on time and one at D as early: both compute the same D', () => {
    // Every honest prefix after both setups and before the end steps.
    const phases = play.envelopes.slice(
      0,
      play.envelopes.findIndex((s) => s.envelope.parts.some((p) => p.t === 'reveal')),
    )
    fc.assert(
      fc.property(
        fc.integer({ min: 3, max: phases.length - 1 }),
        fc.array(fc.integer({ min: 0, max: 200_000 }), { minLength: phases.length, maxLength: phases.length }),
        (end, delays) => {
          const prefix = phases.slice(0, end + 1)
          const due0 = witnessedDue(bytesOf(prefix))
          if (due0 === undefined) return
          const run = (offset: number): Verdict | undefined => {
            const log = new NotaryLog(play)
            const lines: (SealedEnvelope | Uint8Array)[] = []
            let time = W_T0
            prefix.forEach((s, i) => {
              lines.push(s)
              if (i === 1) lines.push(log.genesis(time))
              if (i >= 2) {
                time += W_STEP_MS + (delays[i] ?? 0)
                lines.push(log.envelope(s, time))
              }
            })
            const due = witnessedDue(bytesOf(lines))
            if (due?.deadline === undefined) throw new Error('a receipted prefix has a deadline')
            // The verifier's cut at the claim's position, computed apart: the same D.
            const X = otherRole(due.side)
            const ack = prefix.filter((s) => s.envelope.sender === due.side).at(-1)
            if (ack === undefined) return undefined
            const mine = prefix.filter((s) => s.envelope.sender === X).at(-1)
            // At D itself only a node that states a lower deadline gets a claim receipt (the notary's
            // own check is against the stated one, PROTOCOL-4.md §4.4 step 1): one below D.
            const stated = offset > 0 ? due.deadline : due.deadline - 1
            lines.push(log.claim(X, (mine?.envelope.seq ?? 0) + 1, stated, due.lastIndex, due.deadline + offset))
            const claimIndex = log.last
            const stop = signStop(play, X, 'claim', prefix, ack)
            lines.push(
              stop,
              log.envelope(stop, due.deadline + offset + 1, { claim: { deadline: stated, seen: claimIndex } }),
            )
            const ev = gatherEvidence([
              {
                name: '',
                lines: bytesOf(lines).map((bytes, i) => ({ line: i + 2, bytes, error: undefined })),
                torn: false,
              },
            ])
            const helloA = ev.hellos.A
            const helloB = ev.hellos.B
            const hello = helloA?.envelope.parts[0]
            if (helloA === undefined || helloB === undefined || hello?.t !== 'hello' || hello.terms === undefined)
              throw new Error('hellos')
            const w = walk(ev, hello.terms, helloA, helloB)
            const pre = witnessedPrelude(ev, w.state, hello.terms)
            if (pre === undefined) throw new Error('witnessed')
            expect(pre.position).toBe(claimIndex)
            const cut = cutWalk({
              steps: w.steps,
              end: { due: w.state.due(), turn: w.state.schedule.turn },
              terms: hello.terms,
              log: pre.log,
              position: pre.position,
              below: pre.position,
            })
            expect(cut.deadline).toBe(due.deadline)
            expect(cut.reserveLeft).toEqual(due.reserveLeft)
            expect(cut.due?.sender).toBe(due.side)
            expect(cut.seq).toBe(due.seq)
            return verdictOf(lines)
          }
          expect(run(1)).toMatchObject({ status: 'abandoned', how: 'time', by: due0.side })
          expect(run(0)).toMatchObject({ status: 'abandoned', how: 'stopped', by: otherRole(due0.side) })
        },
      ),
      { numRuns: 25 },
    )
  })
})

describe('printing a witnessed verdict (spaceships verify, the panel)', () => {
  it('lost on time prints as "B lost on time", final unless the notary signs a conflicting receipt', () => {
    const c = new Case(stage)
    c.claimByA(c.D + 1, c.D + 2)
    const v = verdictOf(c)
    expect(verdictLine(v)).toBe('abandoned by B in turn 1 (B lost on time): A wins')
    expect(renderVerdict(v)).toContain(
      "witnessed: decided by the notary's receipts, final unless the notary signs a conflicting receipt",
    )
    expect(outcomeLine(v, 'A')).toContain('Your opponent (B) lost on time in turn 1')
    expect(outcomeLine(v, 'B')).toContain('You lost on time in turn 1')
    expect(endedInTurn(v)).toBe('lost on time in turn 1')
  })

  it('a game decided as unwitnessed says why; a running one that it waits for the seal', () => {
    const c = new Case(stage)
    expect(renderVerdict(verdictOf(c))).toContain('witnessed: provisional until the notary seals its log')
    c.claimByA(c.D + 5_000, c.D + 5_500)
    const forked = verdictOf([...c.lines, c.log.fork(3, c.log.timeOf(3) + 1)])
    expect(renderVerdict(forked)).toContain('witnessed, decided as unwitnessed: a notary fault at receipt 3')
  })
})
