/**
 * Red team, witnessed games against a real notary (PROTOCOL-4.md §4.4, §4.6, §5.1, §5.3; NOTARY.md
 * §7.5): a cheater owning its key sends the notary what an honest node never would (a claim with a
 * false deadline, a claim request it then plays across, a header whose flags lie, a deposit its
 * recipient cannot open, a second header at a receipted place), and the files the honest side keeps
 * are verified. Each test names the rule it checks and fails if the defence were missing; `it.fails`
 * marks a defect found (see the report on branch redteam-w).
 */
import fc from 'fast-check'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { encodeComplaint, makeComplaint } from '../../src/core/notary/complaint.js'
import { FLAG } from '../../src/core/notary/header.js'
import { decodeReceipt, receiptHash, signReceipt } from '../../src/core/notary/receipt.js'
import { NOTARY_DOMAIN } from '../../src/games/spaceships/protocol/domain.js'
import { ROLE_INDEX, otherRole } from '../../src/games/spaceships/protocol/messages.js'
import type { SealedEnvelope } from '../../src/games/spaceships/protocol/envelope.js'
import { verifyTranscript } from '../../src/games/spaceships/verify/verify.js'
import { witnessedDue } from '../../src/games/spaceships/verify/witnessed.js'
import {
  type Stage,
  W_NOTARY,
  W_TERMS,
  type WitnessedPlay,
  deadlineOf,
  signStop,
  witnessedFile,
} from '../protocol/witnessed-builder.js'
import { Live, vectorStage } from './witnessed-live.js'

let play: WitnessedPlay
let stage: Stage
/** The honest game's envelopes after the stage's prefix: B's step 4, then A's next, and so on. */
let after: readonly SealedEnvelope[]
const lives: Live[] = []

beforeAll(async () => {
  ;({ play, stage } = await vectorStage())
  after = play.envelopes.slice(stage.prefix.length)
}, 60_000)

afterEach(() => {
  for (const l of lives.splice(0)) l.close()
})

function live(): Live {
  const l = new Live(play)
  lives.push(l)
  return l
}

const fileOf = (lines: readonly Uint8Array[]) => verifyTranscript(witnessedFile(lines))

/** The next envelope of `side` after the prefix in the honest game. */
function nextOf(side: 'A' | 'B', skip = 0): SealedEnvelope {
  const s = after.filter((e) => e.envelope.sender === side && e.envelope.parts[0]?.t !== 'stop')[skip]
  if (s === undefined) throw new Error('no such envelope')
  return s
}

describe('a cheater owning its key, at a real notary (PROTOCOL-4.md §4.4)', () => {
  it('a claim with a false deadline is receipted (the notary cannot know D) but loses for the claimant: rule 8, early claim', () => {
    const l = live()
    const t = l.prefix(stage)
    const D = deadlineOf(t, W_TERMS.replyMs)
    const q = stage.a3.envelope.seq + 1
    // A claims B's step 4 with deadline 0, long before D: the notary's checks (time above the
    // claimed deadline, seen the last index) pass.
    const c = l.claim('A', q, 0, l.last, t + 100)
    expect(c.kind).toBe('receipt')
    const stop = signStop(play, 'A', 'claim', stage.prefix, stage.b2)
    expect(l.submit(stop, t + 200, { claim: { deadline: 0, seen: Live.index(c) } }).kind).toBe('receipt')
    expect(t + 100).toBeLessThan(D)
    const v = fileOf(l.lines)
    expect(v).toMatchObject({ status: 'abandoned', how: 'stopped', by: 'A', winner: 'B' })
    expect(v.status !== 'unreadable' && v.witnessed).toMatchObject({ result: 8, final: true })
  })

  it('a claim request at a seq, then playing on at that seq: the claim receipt claims nothing, and the stop it was for cannot follow (§4.4 step 1, §5.1)', () => {
    const l = live()
    const t = l.prefix(stage)
    const q = stage.a3.envelope.seq + 1
    const c = l.claim('A', q, 0, l.last, t + 100)
    expect(c.kind).toBe('receipt')
    // B plays its step 4; A plays on at q across its own claim receipt (a claim receipt takes no place).
    expect(l.submit(stage.b4, t + 200).kind).toBe('receipt')
    const a5 = nextOf('A')
    expect(a5.envelope.seq).toBe(q)
    expect(l.submit(a5, t + 300).kind).toBe('receipt')
    // Asking again at q returns the stale receipt, appending nothing.
    const again = l.claim('A', q, 5, l.last, t + 400)
    expect(again.kind === 'receipt' && Live.index(again)).toBe(Live.index(c))
    // The claim stop at q is refused (the place is A's phase envelope's): it could only be an equivocation.
    const stop = signStop(play, 'A', 'claim', [...stage.prefix, stage.b4], stage.b4)
    const refused = l.notary.handle(
      { kind: 'submit', ...l.submission(stop, { claim: { deadline: 0, seen: Live.index(c) } }) },
      l.as('A'),
    )
    expect(refused).toMatchObject({ kind: 'refused', code: 'place-taken' })
    // Nobody stopped: B is convicted of nothing.
    const v = fileOf(l.lines)
    expect(v).toMatchObject({ status: 'incomplete', reason: 'no-claim' })
  })

  it('resubmitting: the same header gets its receipt back, a second header at a receipted place is refused, a second claim request at a claimed place gets the first receipt (§5.1, §4.4 step 1)', () => {
    const l = live()
    const t = l.prefix(stage)
    l.clock.advanceTo(t + 100)
    const sub = l.submission(stage.b4)
    const first = l.keep(l.notary.handle({ kind: 'submit', ...sub }, l.as('B')))
    expect(first.kind).toBe('receipt')
    // The same header again (from either player: headers prove themselves): the same receipt.
    expect(l.notary.handle({ kind: 'submit', ...sub }, l.as('A'))).toEqual(first)
    // Another header at the same place: a fresh deposit (another hash), the same envelope.
    const second = l.notary.handle({ kind: 'submit', ...l.submission(stage.b4) }, l.as('B'))
    expect(second).toMatchObject({ kind: 'refused', code: 'place-taken' })
    const lines = l.lines.length
    // A claim of B (while A owes its step 5): receipted with B's false deadline, once.
    const q = stage.b4.envelope.seq + 1
    const c1 = l.claim('B', q, 0, l.last, t + 200)
    const c2 = l.claim('B', q, 999, l.last, t + 300)
    expect(c1.kind === 'receipt' && c2.kind === 'receipt' && Live.index(c1) === Live.index(c2)).toBe(true)
    expect(l.lines.length).toBe(lines + 1)
  })
})

describe('a header whose flags lie (PROTOCOL-4.md §4.6, §5.1)', () => {
  it('a phase envelope flagged stop does not let its sender have the log sealed mid-game: the other side plays on and can still claim, and the staller loses on time', () => {
    const l = live()
    const t = l.prefix(stage)
    // B submits its (honest, phase) step 4 with the stop flag set: the notary cannot see the envelope.
    expect(l.submit(stage.b4, t + 100, { flags: (f) => f | FLAG.stop }).kind).toBe('receipt')
    const a5 = nextOf('A')
    expect(l.submit(a5, t + 200).kind).toBe('receipt')
    // sealTime (registrar.ts) reads "a receipted stop, then the other side's next receipt": the game
    // looks over, and B's seal request is granted at once.
    const seal = l.seal('B', t + 300)
    // B now stalls. A's node waits for D and claims.
    const due = witnessedDue(l.lines)
    expect(due?.side).toBe('B')
    const D = due?.deadline ?? 0
    const claim = l.claim('A', a5.envelope.seq + 1, D, l.last, D + 1)
    // The defence: either the seal is refused (the log does not show the game over), or the
    // claim is still receipted. Today: the seal is receipted and the claim is refused `sealed`.
    expect(claim.kind, JSON.stringify(claim)).toBe('receipt')
    expect(seal).toMatchObject({ kind: 'refused', code: 'not-over' })
  })
})

describe('a deposit its recipient cannot open (PROTOCOL-4.md §5.3)', () => {
  it('the notary receipts the complaint of a garbled recipient wrap, and the owed envelope stays unheld in the recipient’s file', () => {
    const l = live()
    const t = l.prefix(stage)
    const r = l.submit(stage.b4, t + 100, { garbleRecipientWrap: true, hold: true })
    expect(r.kind).toBe('receipt')
    const c = l.complain('A', Live.index(r), t + 200)
    expect(c.kind).toBe('receipt')
  })

  it('a complaint receipt that holds is evidence of the offence false-deposit by the header’s signer (rule 1), not a gap: the verifier re-checks it from the receipt alone', () => {
    const l = live()
    const t = l.prefix(stage)
    const r = l.submit(stage.b4, t + 100, { garbleRecipientWrap: true, hold: true })
    const c = l.complain('A', Live.index(r), t + 200)
    expect(c.kind).toBe('receipt')
    // A's file: B's step 4 never arrived (B withholds it from the stream), its receipt and A's complaint receipt.
    const v = fileOf(l.lines)
    expect(v.status, JSON.stringify(v)).toBe('offence')
    if (v.status !== 'offence') return
    expect(v.offence).toMatchObject({ offender: 'B', class: 'false-deposit', seq: stage.b4.envelope.seq, stage: 0 })
    expect(v.offence.detail).toContain(`receipt ${Live.index(c)}`)
    expect(v.winner).toBe('A')
    expect(v.witnessed?.result).toBe(1)
  })

  it('a garbled deposit planted at the cheater’s next place before the honest side’s step is complained of after that step is receipted (no rule of time: PROTOCOL-4.md §5.3), and the planter loses by false-deposit', () => {
    const l = live()
    l.register()
    let t = l.clock.now()
    const upToA3 = stage.prefix.slice(2, -1)
    for (const s of upToA3) expect(l.submit(s, (t += 1_000)).kind).toBe('receipt')
    // B, not due, plants a garbled deposit at the place its step 4 will take.
    const planted = l.submit(stage.b4, (t += 1_000), { garbleRecipientWrap: true, hold: true })
    expect(planted.kind).toBe('receipt')
    // A plays its step 3 as an honest node does: it never held B's planted envelope, so it
    // acknowledges nothing of it (its ack is B's step 2).
    expect(Buffer.from(stage.a3.envelope.ack ?? []).equals(Buffer.from(stage.b2.hash))).toBe(true)
    expect(l.submit(stage.a3, (t += 1_000)).kind).toBe('receipt')
    // B stalls. A cannot open B's step 4 and cannot claim across its receipt (witnessedDue lists
    // it unopened); its complaint is receipted, and proves B's offence.
    expect(witnessedDue(l.lines)?.unopened).toEqual([Live.index(planted)])
    const c = l.complain('A', Live.index(planted), t + 60_000)
    expect(c.kind, JSON.stringify(c)).toBe('receipt')
    const v = fileOf(l.lines)
    expect(v.status === 'offence' && v.offence).toMatchObject({ offender: 'B', class: 'false-deposit' })
  })
})

describe('a complaint against an honest header (PROTOCOL-4.md §5.3: an honest deposit always opens)', () => {
  it('is never receipted by the notary (complaint-invalid), and, forged into a file by a faulty notary, never convicts the honest sender: it is a notary fault complaint-invalid', () => {
    const l = live()
    const t = l.prefix(stage)
    // Every honest envelope the prefix receipted, of either side, at any time after.
    const targets = l.lines.flatMap((bytes) => {
      const d = decodeReceipt(bytes)
      return d.ok && d.value.kind === 'envelope' ? [d.value] : []
    })
    expect(targets.length).toBeGreaterThanOrEqual(3)
    const last = l.lines.filter((b) => b[0] === 0x84).at(-1) ?? new Uint8Array()
    fc.assert(
      fc.property(fc.constantFrom(...targets), fc.integer({ min: 1, max: 86_400_000 }), (target, later) => {
        const sender = target.header.sender
        const complainant = otherRole(sender === 0 ? 'A' : 'B')
        const deposit = l.deposits.get(target.index)
        if (deposit === undefined) throw new Error('no deposit')
        const c = makeComplaint(NOTARY_DOMAIN, play.keys[complainant], {
          game: play.game,
          sender: ROLE_INDEX[complainant],
          index: target.index,
          deposit,
        })
        if (!c.ok) throw new Error(c.error.message)
        // The notary judges it: the deposit opens as its header says.
        const answer = l.notary.handle({ kind: 'complain', complaint: encodeComplaint(c.value) }, l.as(complainant))
        expect(answer).toMatchObject({ kind: 'refused', code: 'complaint-invalid' })
        // A faulty notary receipts it all the same, and the complainant's file holds the receipt.
        const forged = signReceipt(NOTARY_DOMAIN, W_NOTARY, {
          game: play.game,
          index: Live.indexOf(last) + 1,
          prev: receiptHash(NOTARY_DOMAIN, last),
          time: t + later,
          kind: 'complaint',
          complaint: c.value,
          deposit,
        })
        const v = fileOf([...l.lines, forged])
        expect(v.status).not.toBe('offence')
        expect(v.status !== 'unreadable' && v.witnessed?.unwitnessed).toContain('complaint-invalid')
      }),
      { numRuns: 12, seed: 4 },
    )
  })
})
