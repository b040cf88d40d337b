/**
 * SPAAACE-WITNESSED §6.3: every notary fault from crafted receipts under a notary key the test
 * owns, each with the index it voids from, and the decided chain truncated below `k*`.
 */
import { describe, expect, it } from 'vitest'
import { decodeComplaint } from '../../../../src/core/notary/complaint.js'
import { decodeHeader } from '../../../../src/core/notary/header.js'
import { signClaim } from '../../../../src/core/notary/claim.js'
import type { ReceiptBody } from '../../../../src/core/notary/receipt.js'
import {
  SPAAACE_LAYOUT,
  buildComplaint,
  cutTime,
  encodeGenesisBody,
  horizonOf,
  readWitnessLog,
} from '../../../../src/games/spaaace/witness/index.js'
import { signAccept } from '../../../../src/games/spaaace/peers/genesis.js'
import { ChainBuilder, envelopeOf, headerFor, keysOf, markWithTickZero, submissionOfW, witnessed } from './fixtures.js'
import { depositBytesOf } from '../../../../src/games/spaaace/witness/domain.js'
import { registerByOf } from '../../../../src/games/spaaace/witness/times.js'

const w = witnessed(3, { maxTicks: 5 })
const timing = w.genesis.genesis.timing
const C = (t: number): number => cutTime(timing, t, 0)
const R = (t: number): number => cutTime(timing, t, 1)

function envelopeBody(i: number, seq: number, end = false): ReceiptBody<number> {
  const s = submissionOfW(w, i, seq, { end })
  const h = decodeHeader(s.header, SPAAACE_LAYOUT)
  if (!h.ok) throw new Error(h.error.message)
  return { kind: 'envelope', header: h.value }
}

/** A good chain: genesis, each player's seq 1 and 2 before C_1, a mark of C_1. */
function good(): ChainBuilder {
  const b = new ChainBuilder(w.genesis.game)
  b.add({ kind: 'genesis-body', body: w.body }, timing.start - 60_000)
  for (let i = 0; i < 3; i++) b.add(envelopeBody(i, 1), timing.start + i)
  b.add({ kind: 'mark', t: 1, cut: 0 }, C(1) + 1)
  return b
}

const read = (b: ChainBuilder, extra: readonly Uint8Array[] = []) =>
  readWitnessLog([...b.receipts, ...extra], { genesis: w.genesis })

describe('SPAAACE-WITNESSED §6.3: reading a log', () => {
  it('a good chain: the game exists, no fault, the decided chain is the chain, typed receipts', () => {
    const log = read(good())
    expect(log.exists).toBe(true)
    expect(log.faults).toEqual([])
    expect(log.kStar).toBe(Infinity)
    expect(log.decided.map((r) => r.kind)).toEqual(['genesis', 'envelope', 'envelope', 'envelope', 'mark'])
    const e = log.decided[2]
    expect(e?.kind === 'envelope' && [e.author, e.seq, e.flags]).toEqual([1, 1, 0])
    const m = log.decided[4]
    expect(m?.kind === 'mark' && [m.t, m.cut]).toEqual([1, 0])
  })

  it('genesis-invalid (k = 0): an accept not signed by its roster key; the game does not exist', () => {
    const accepts = w.players.map((k, i) => signAccept(i === 1 ? keysOf('stranger') : k, w.genesis.game, i).bytes)
    const b = new ChainBuilder(w.genesis.game)
    b.add({ kind: 'genesis-body', body: encodeGenesisBody(w.genesis.bytes, accepts) }, 1)
    const log = read(b)
    expect(log.faults.map((f) => [f.kind, f.index])).toEqual([['genesis-invalid', 0]])
    expect(log.exists).toBe(false)
    expect(log.decided).toEqual([])
  })

  it('foreign-kind: a claim receipt (validly signed by a player), at its index; decided chain below it', () => {
    const b = good()
    const claim = signClaim(SPAAACE_NOTARY_DOMAIN, w.players[0] ?? (undefined as never), {
      game: w.genesis.game,
      sender: 0,
      seq: 2,
      deadline: 0,
      seen: 0,
    })
    b.add({ kind: 'claim', claim }, C(1) + 2)
    const log = read(b)
    // N §6's claim faults may name it too; foreign-kind always does, at its index.
    expect(log.faults.map((f) => [f.kind, f.index])).toContainEqual(['foreign-kind', 5])
    expect(log.kStar).toBe(5)
    expect(log.decided.length).toBe(5)
    expect(log.chain[5]?.kind).toBe('foreign')
  })

  it('seq-skipped: an author at seq 3 with no receipt at 2; decided chain truncated at it', () => {
    const b = good()
    b.add(envelopeBody(2, 3), C(1) + 5)
    b.add(envelopeBody(0, 2), C(1) + 6)
    const log = read(b)
    expect(log.faults.map((f) => [f.kind, f.index])).toEqual([['seq-skipped', 5]])
    expect(log.kStar).toBe(5)
    expect(log.decided.length).toBe(5)
    expect(log.chain.length).toBe(7)
  })

  it('mark-early, mark-range, two-marks, each at its index', () => {
    const early = good()
    early.add({ kind: 'mark', t: 1, cut: 1 }, R(1))
    expect(read(early).faults.map((f) => [f.kind, f.index])).toEqual([['mark-early', 5]])
    const range = good()
    range.add({ kind: 'mark', t: 7, cut: 0 }, horizonOf(timing, 5) + 10)
    expect(read(range).faults.map((f) => [f.kind, f.index])).toEqual([['mark-range', 5]])
    const two = good()
    two.add({ kind: 'mark', t: 1, cut: 0 }, C(1) + 3)
    expect(read(two).faults.map((f) => [f.kind, f.index])).toEqual([['two-marks', 5]])
  })

  it("receipt-invalid (§6.3 item 4): bytes the notary signed that do not decode, or whose header is not its author's, are its fault at the index they name; the same bytes unsigned by it, or of another game, are only set aside", () => {
    // A mark with t = 0 does not decode (§6.1), whatever signs it.
    const markT0 = markWithTickZero
    const t0 = good()
    const bad = t0.addEdited({ kind: 'mark', t: 1, cut: 1 }, R(1) + 1, markT0)
    const log = read(t0)
    expect(log.faults.map((f) => [f.kind, f.index])).toEqual([['receipt-invalid', 5]])
    expect(log.faults[0]?.detail).toMatch(/does not decode/)
    expect(log.kStar).toBe(5)
    expect(log.decided.length).toBe(5)
    expect(log.setAside.map((x) => x.position)).toEqual([5])
    // Twice in the evidence (two files): one fault.
    expect(read(t0, [bad.slice()]).faults.map((f) => f.kind)).toEqual(['receipt-invalid'])

    // A header whose player signature is broken, receipted and signed by the notary.
    const broken = good()
    broken.addEdited(envelopeBody(0, 2), C(1) + 2, (u) => {
      const out = u.slice()
      out[out.length - 1] = (out[out.length - 1] ?? 0) ^ 1
      return out
    })
    const b = read(broken)
    expect(b.faults.map((f) => [f.kind, f.index])).toEqual([['receipt-invalid', 5]])
    expect(b.faults[0]?.detail).toMatch(/player signature is not valid/)

    // The same bytes under a signature that is not the notary's: set aside, no fault, a gap at most.
    const forged = good()
    forged.addEdited({ kind: 'mark', t: 1, cut: 1 }, R(1) + 1, markT0)
    const last = forged.receipts.pop() ?? new Uint8Array()
    const unsigned = last.slice()
    unsigned[unsigned.length - 1] = (unsigned[unsigned.length - 1] ?? 0) ^ 1
    const f = read(forged, [unsigned])
    expect(f.faults).toEqual([])
    expect(f.setAside).toHaveLength(1)
    // Of another game, signed by the notary: not this game's log at all.
    const other = new ChainBuilder(new Uint8Array(32).fill(7))
    other.add({ kind: 'genesis-body', body: w.body }, timing.start - 60_000)
    const foreign = other.addEdited({ kind: 'mark', t: 1, cut: 1 }, R(1) + 1, markT0)
    expect(read(good(), [foreign]).faults).toEqual([])
    // Too short to name an index (no fixed head and signature): set aside, no fault.
    expect(read(good(), [bad.subarray(0, 100)]).faults).toEqual([])
  })

  it('header-invalid (§6.3 item 4, §5.1): an envelope receipt whose header the notary must refuse (flags, deadline, seen, depositBytes), at its index', () => {
    const deposit = new Uint8Array(depositBytesOf(3))
    const cases: [string, Parameters<typeof headerFor>[4]][] = [
      ['a stop flag', { flags: 1 }],
      ['a claim flag', { flags: 2 }],
      ['an unknown flag', { flags: 16 }],
      ['a deadline', { deadline: 5 }],
      ['a seen', { seen: 3 }],
      ['another size', { depositBytes: depositBytesOf(4) }],
    ]
    for (const [what, o] of cases) {
      const b = good()
      b.add({ kind: 'envelope', header: headerFor(w, 0, envelopeOf(w, 0, 2), deposit, o) }, C(1) + 2)
      const log = read(b)
      // A claim flag also raises N §6's claim-unrequested at the same index: k* is the same.
      expect(
        log.faults.map((f) => [f.kind, f.index]),
        what,
      ).toContainEqual(['header-invalid', 5])
      expect(log.kStar, what).toBe(5)
    }
    // The end flag alone is the seed's (§8.2): no fault.
    const end = good()
    end.add({ kind: 'envelope', header: headerFor(w, 0, envelopeOf(w, 0, 2), deposit, { flags: 4 }) }, C(1) + 2)
    expect(read(end).faults).toEqual([])
  })

  it('genesis-invalid (k = 0): a genesis receipted after G_1, when the notary must refuse to register (§3, §9.2 refusal 25)', () => {
    const b = new ChainBuilder(w.genesis.game)
    b.add({ kind: 'genesis-body', body: w.body }, registerByOf(timing) + 1)
    const log = read(b)
    expect(log.faults.map((f) => [f.kind, f.index])).toEqual([['genesis-invalid', 0]])
    expect(log.exists).toBe(false)
    const inTime = new ChainBuilder(w.genesis.game)
    inTime.add({ kind: 'genesis-body', body: w.body }, registerByOf(timing))
    expect(read(inTime).faults).toEqual([])
  })

  it('two-at-place: two envelope receipts for one (author, seq), at the higher index', () => {
    const b = good()
    const again = submissionOfW(w, 1, 1, { end: true })
    const h = decodeHeader(again.header, SPAAACE_LAYOUT)
    if (!h.ok) throw new Error(h.error.message)
    b.add({ kind: 'envelope', header: h.value }, C(1) + 4)
    // The second receipt at seq 1 also skips back: both faults name index 5.
    expect(read(b).faults.map((f) => [f.kind, f.index])).toEqual([
      ['two-at-place', 5],
      ['seq-skipped', 5],
    ])
  })

  it('two-at-index and time-decreasing (N §6) with n players', () => {
    const b = good()
    const third = readWitnessLog(b.receipts, { genesis: w.genesis }).chain[3]
    const fork = b.add({ kind: 'mark', t: 1, cut: 1 }, R(1) + 1, {
      index: 4,
      prev: third === undefined ? new Uint8Array(32) : hashOf(third.receipt.bytes),
    })
    expect(read(b, [fork]).faults.map((f) => [f.kind, f.index])).toEqual([['two-at-index', 4]])
    const back = good()
    back.add(envelopeBody(0, 2), C(1) - 100)
    expect(read(back).faults.map((f) => [f.kind, f.index])).toEqual([['time-decreasing', 5]])
  })

  it('seal-unjustified: a seal before sealWhen; a seal after every player’s end flag is not', () => {
    const early = good()
    early.add({ kind: 'seal' }, C(1) + 10)
    expect(read(early).faults.map((f) => [f.kind, f.index])).toEqual([['seal-unjustified', 5]])
    const ok = good()
    for (let i = 0; i < 3; i++) ok.add(envelopeBody(i, 2, true), C(1) + 10 + i)
    ok.add({ kind: 'seal' }, C(1) + 20)
    expect(read(ok).faults).toEqual([])
    expect(read(ok).sealed).toBe(true)
  })

  it('complaint-invalid: a receipted complaint about an honest deposit; a held complaint is typed', () => {
    const b = good()
    const s = submissionOfW(w, 2, 2)
    const h = decodeHeader(s.header, SPAAACE_LAYOUT)
    if (!h.ok) throw new Error(h.error.message)
    b.add({ kind: 'envelope', header: h.value }, C(1) + 3)
    const c = buildComplaint(w.players[0] ?? (undefined as never), {
      game: w.genesis.game,
      complainant: 0,
      index: 5,
      deposit: s.deposit,
    })
    if (!c.ok) throw new Error(c.error.message)
    const dc = decodeComplaint(c.value.bytes, SPAAACE_LAYOUT)
    if (!dc.ok) throw new Error(dc.error.message)
    b.add({ kind: 'complaint', complaint: dc.value, deposit: s.deposit }, C(1) + 4)
    const log = read(b)
    expect(log.faults.map((f) => [f.kind, f.index])).toEqual([['complaint-invalid', 6]])
    expect(log.decided.length).toBe(6)
    const r = log.chain[6]
    expect(r?.kind === 'complaint' && [r.complainant, r.target, r.author, r.holds]).toEqual([0, 5, 2, false])
  })
})

import { receiptHash } from '../../../../src/core/notary/receipt.js'
import { SPAAACE_NOTARY_DOMAIN } from '../../../../src/games/spaaace/witness/index.js'
const hashOf = (bytes: Uint8Array): Uint8Array => receiptHash(SPAAACE_NOTARY_DOMAIN, bytes)

describe('SPAAACE-WITNESSED §6.3: a reader that reads one log again and again', () => {
  it('a memo of the receipts whose signatures held (a node reading its log at every check-in) changes no reading', () => {
    const b = good()
    // A header whose player signature fails, receipted by the notary: set aside on every reading.
    const forged = envelopeBody(1, 2)
    if (forged.kind !== 'envelope') throw new Error('an envelope body')
    const sig = Uint8Array.from(forged.header.sig)
    sig[0] = (sig[0] ?? 0) ^ 1
    b.add({ kind: 'envelope', header: { ...forged.header, sig } }, C(1) + 2)
    const good2 = b.add(envelopeBody(0, 2), C(1) + 3)
    // The same receipt with the notary's signature broken, and the receipt itself, in one file.
    const broken = Uint8Array.from(good2)
    broken[broken.length - 1] = (broken[broken.length - 1] ?? 0) ^ 1
    const receipts = [...b.receipts, broken]
    const plain = readWitnessLog(receipts, { genesis: w.genesis })
    expect(plain.setAside.map((x) => x.reason).sort()).toEqual([
      "the header's player signature is not valid (PROTOCOL-4.md §4.1)",
      "the notary's signature is not valid",
    ])
    const verified = new Set<string>()
    const first = readWitnessLog(receipts, { genesis: w.genesis, verified })
    // Every receipt but the two whose signatures fail is remembered, and only those.
    expect(verified.size).toBe(receipts.length - 2)
    const again = readWitnessLog(receipts, { genesis: w.genesis, verified })
    // The broken copy first this time: the memo knows the good bytes, never the broken ones.
    const reordered = readWitnessLog([broken, ...b.receipts], { genesis: w.genesis, verified })
    const plainReordered = readWitnessLog([broken, ...b.receipts], { genesis: w.genesis })
    expect(JSON.stringify(first)).toBe(JSON.stringify(plain))
    expect(JSON.stringify(again)).toBe(JSON.stringify(plain))
    expect(JSON.stringify(reordered)).toBe(JSON.stringify(plainReordered))
    expect(verified.size).toBe(receipts.length - 2)
  })
})
