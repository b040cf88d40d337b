/**
 * NOTARY.md §6 (PROTOCOL-4.md §4.1): reading a receipt log. The chain is read by `prev` from the
 * genesis in index order whatever the order of the input; each notary fault is reported at the
 * index it voids from; gaps are the receipts named and absent; what is not authenticated is set
 * aside. Hostile bytes never throw.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { toHex } from '../../../src/core/commit/bytes.js'
import { FLAG } from '../../../src/core/notary/header.js'
import { checkReceiptLog } from '../../../src/core/notary/log.js'
import { receiptHash } from '../../../src/core/notary/receipt.js'
import { A, B, DOMAIN, LogBuilder, NOTARY, claimRequest, keys, submission } from './helpers.js'

/** A claim stop of `sender` at `seq` (PROTOCOL-4.md §4.4 step 2), naming the claim receipt at `seen`. */
const claimStop = (sender: 0 | 1, seq: number, deadline: number, seen: number) => ({
  kind: 'envelope' as const,
  header: submission(sender, seq, { flags: FLAG.stop | FLAG.claim, deadline, seen }).header,
})
const claimOf = (sender: 0 | 1, seq: number, deadline: number, seen: number) => ({
  kind: 'claim' as const,
  claim: claimRequest(sender, seq, { deadline, seen }).claim,
})

/**
 * genesis, A1, B1, A2, B's claim receipt (seq 2, after its deadline, seeing 3), B2 (its claim stop,
 * naming the claim receipt at 4), seal: times rising.
 */
function honest(): LogBuilder {
  const log = new LogBuilder()
  log.genesis(1000)
  log.add({ kind: 'envelope', header: submission(0, 1).header }, 2000)
  log.add({ kind: 'envelope', header: submission(1, 1).header }, 3000)
  log.add({ kind: 'envelope', header: submission(0, 2).header }, 3000)
  log.add(claimOf(1, 2, 9000, 3), 9001)
  log.add(claimStop(1, 2, 9000, 4), 9001)
  log.add({ kind: 'seal' }, 9500)
  return log
}

const check = (receipts: readonly Uint8Array[], o = {}) =>
  checkReceiptLog(DOMAIN, receipts, NOTARY.publicKey, { playerKeys: [A.publicKey, B.publicKey], ...o })

describe('the receipt log (NOTARY.md §6)', () => {
  it('an honest log in any order, with duplicates: the whole chain, sealed, no fault, no gap', () => {
    const log = honest()
    fc.assert(
      fc.property(
        fc.shuffledSubarray([...log.receipts, ...log.receipts], { minLength: 14, maxLength: 14 }),
        (shuffled) => {
          const r = check(shuffled)
          expect(r.chain.map((x) => x.index)).toEqual([0, 1, 2, 3, 4, 5, 6])
          expect(r.chain.map((x) => toHex(x.bytes))).toEqual(log.receipts.map(toHex))
          expect(r).toMatchObject({ sealed: true, faults: [], gaps: [], setAside: [] })
        },
      ),
      { numRuns: 30 },
    )
  })

  it('a missing receipt is a gap at its index, with its hash; the chain stops before it', () => {
    const log = honest()
    const r = check(log.receipts.filter((_, i) => i !== 2))
    expect(r.chain.map((x) => x.index)).toEqual([0, 1])
    expect(r.gaps.map((g) => [g.index, toHex(g.hash)])).toEqual([[2, toHex(receiptHash(DOMAIN, log.receipts[2]!))]])
    expect(r.sealed).toBe(false)
  })

  it('set aside: a receipt signed by another key, a header not signed by its sender, another game, garbage', () => {
    const log = honest()
    const forger = new LogBuilder(keys('forger'))
    forger.genesis()
    const foreignGame = new LogBuilder(NOTARY, new Uint8Array(32).fill(7))
    foreignGame.genesis()
    const badHeader = { ...submission(0, 3).header, sig: submission(1, 3).header.sig }
    const unsigned = new LogBuilder()
    unsigned.receipts.push(...log.receipts)
    unsigned.add({ kind: 'envelope', header: badHeader }, 9400, { index: 6 })
    const input = [
      ...log.receipts.slice(0, 5),
      forger.receipts[0]!,
      unsigned.receipts[7]!,
      foreignGame.receipts[0]!,
      Uint8Array.of(0x84, 9),
    ]
    const r = check(input)
    expect(r.setAside.map((s) => s.position)).toEqual([5, 8, 6, 7])
    expect(r.setAside.map((s) => s.reason)).toEqual([
      "the notary's signature is not valid",
      expect.stringMatching(/^wire\.truncated|^field\.range/),
      "the header's player signature is not valid (PROTOCOL-4.md §4.1)",
      'a receipt of another game',
    ])
    expect(r.chain).toHaveLength(5)
    expect(r.faults).toEqual([])
  })

  it('faults: two receipts at one index, a time going back, a receipt after the seal', () => {
    const log = honest()
    const fork = new LogBuilder()
    fork.receipts.push(...log.receipts.slice(0, 3))
    fork.add({ kind: 'envelope', header: submission(1, 2).header }, 1500)
    const after = new LogBuilder()
    after.receipts.push(...log.receipts)
    after.add({ kind: 'envelope', header: submission(0, 3).header }, 9600)
    const r = check([...log.receipts, fork.receipts[3]!, after.receipts[7]!])
    expect(r.faults.map((f) => [f.kind, f.index])).toEqual([
      ['two-at-index', 3],
      ['time-decreasing', 3],
      // The fork's B2 and the log's B2 (at 5) are two receipts at one place as well.
      ['two-at-place', 5],
      ['after-seal', 7],
    ])
    // The chain stops where it forks: the decisions at 3 and above are void anyway (§4.1).
    expect(r.chain.map((x) => x.index)).toEqual([0, 1, 2])
  })

  it('claim faults (PROTOCOL-4.md §4.1, §4.4; NOTARY.md §6): early, not next, two claims at a place, unrequested headers', () => {
    const log = new LogBuilder()
    log.genesis(1000)
    log.add({ kind: 'envelope', header: submission(0, 1).header }, 2000)
    // 2: B's claim receipted at its deadline, not above it.
    log.add(claimOf(1, 1, 3000, 1), 3000)
    // 3: A's claim receipted at 3 though its request saw 1 (not seen + 1).
    log.add(claimOf(0, 2, 100, 1), 3100)
    // 4: B's stop naming its claim receipt at 2: no fault, and a claim receipt and its stop's
    // envelope receipt at one (sender, seq) are not two at a place.
    log.add(claimStop(1, 1, 3000, 2), 3200)
    // 5: a second claim receipt of B at seq 1.
    log.add(claimOf(1, 1, 3300, 4), 3400)
    // 6: A's stop at seq 2 naming A's claim receipt at 3, with another deadline.
    log.add(claimStop(0, 2, 99, 3), 3500)
    // 7: A's stop at seq 3 naming an envelope receipt; 8: B's at seq 2 naming a later index.
    log.add(claimStop(0, 3, 100, 1), 3600)
    log.add(claimStop(1, 2, 3000, 9), 3700)
    const r = check(log.receipts)
    expect(r.faults.map((f) => [f.kind, f.index, f.positions])).toEqual([
      ['claim-early', 2, [2]],
      ['claim-not-next', 3, [3]],
      ['two-claims-at-place', 5, [2, 5]],
      ['claim-unrequested', 6, [6, 3]],
      ['claim-unrequested', 7, [7, 1]],
      ['claim-unrequested', 8, [8]],
    ])
    expect(r.chain).toHaveLength(9)
    expect(r.setAside).toEqual([])
  })

  it("a claim header naming the claim receipt of another side, at another seq, or the claim's own place twice", () => {
    const log = new LogBuilder()
    log.genesis(1000)
    log.add({ kind: 'envelope', header: submission(0, 1).header }, 2000)
    log.add(claimOf(1, 1, 3000, 1), 3001)
    // A's stop at seq 2 naming B's claim receipt: another sender.
    log.add(claimStop(0, 2, 3000, 2), 3100)
    // B's stop at seq 2 naming B's claim receipt of seq 1: another seq.
    log.add(claimStop(1, 2, 3000, 2), 3200)
    // B's stop at seq 1, rightly; then a second envelope receipt at B's seq 1 (two at a place).
    log.add(claimStop(1, 1, 3000, 2), 3300)
    log.add({ kind: 'envelope', header: submission(1, 1).header }, 3400)
    expect(check(log.receipts).faults.map((f) => [f.kind, f.index])).toEqual([
      ['claim-unrequested', 3],
      ['claim-unrequested', 4],
      ['two-at-place', 6],
    ])
  })

  it('claim-unrequested is judged along the chain: beyond a gap it is not proven (the gap is reported)', () => {
    const log = new LogBuilder()
    log.genesis(1000)
    log.add({ kind: 'envelope', header: submission(0, 1).header }, 2000)
    log.add(claimOf(1, 1, 3000, 1), 3001)
    log.add(claimStop(1, 1, 3000, 2), 3100)
    expect(check(log.receipts)).toMatchObject({ faults: [], gaps: [] })
    const r = check(log.receipts.filter((_, i) => i !== 2))
    expect(r.faults).toEqual([])
    expect(r.gaps.map((g) => g.index)).toEqual([2])
    expect(r.chain).toHaveLength(2)
  })

  it("a claim receipt whose request is not signed by its sender's hello key is set aside, as a header is", () => {
    const log = new LogBuilder()
    log.genesis(1000)
    log.add({ kind: 'envelope', header: submission(0, 1).header }, 2000)
    const forged = claimRequest(1, 1, { deadline: 3000, seen: 1, by: A }).claim
    log.add({ kind: 'claim', claim: forged }, 3001)
    log.add(claimStop(1, 1, 3000, 2), 3100)
    const r = check(log.receipts)
    expect(r.setAside).toEqual([
      { position: 2, reason: "the claim's player signature is not valid (PROTOCOL-4.md §4.1)" },
    ])
    // Set aside, it is a gap under the stop that names it, and proves nothing against the notary.
    expect(r.gaps.map((g) => g.index)).toEqual([2])
    expect(r.faults).toEqual([])
    // Without the players' keys the reader cannot tell: the receipt stands.
    expect(checkReceiptLog(DOMAIN, log.receipts, NOTARY.publicKey)).toMatchObject({ setAside: [], faults: [] })
  })

  it("a seal the game's rule does not justify is a fault at the seal's index", () => {
    const log = honest()
    const r = check(log.receipts, { sealJustified: (before: readonly unknown[]) => before.length > 10 })
    expect(r.faults.map((f) => [f.kind, f.index, f.positions])).toEqual([['seal-unjustified', 6, [6]]])
    expect(check(log.receipts, { sealJustified: () => true }).faults).toEqual([])
  })

  it('hostile input: any bytes, any changed byte of any receipt, never throw', () => {
    const log = honest()
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 400 }), { maxLength: 4 }),
        fc.nat({ max: 6 }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (junk, which, at, x) => {
          const changed = log.receipts.map((b) => b.slice())
          const target = changed[which]!
          target[at % target.length] = (target[at % target.length] ?? 0) ^ x
          const r = check([...changed, ...junk])
          expect(r.setAside.length).toBeGreaterThanOrEqual(1)
          expect(r.chain.length).toBeLessThanOrEqual(7)
        },
      ),
      { numRuns: 200 },
    )
  })
})
