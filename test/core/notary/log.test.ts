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
import { A, B, DOMAIN, LogBuilder, NOTARY, keys, submission } from './helpers.js'

/** genesis, A1, B1, A2, B2 (a claim after its deadline, seeing 4), seal: times rising. */
function honest(): LogBuilder {
  const log = new LogBuilder()
  log.genesis(1000)
  log.add({ kind: 'envelope', header: submission(0, 1).header }, 2000)
  log.add({ kind: 'envelope', header: submission(1, 1).header }, 3000)
  log.add({ kind: 'envelope', header: submission(0, 2).header }, 3000)
  log.add(
    { kind: 'envelope', header: submission(1, 2, { flags: FLAG.stop | FLAG.claim, deadline: 9000, seen: 3 }).header },
    9001,
  )
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
        fc.shuffledSubarray([...log.receipts, ...log.receipts], { minLength: 12, maxLength: 12 }),
        (shuffled) => {
          const r = check(shuffled)
          expect(r.chain.map((x) => x.index)).toEqual([0, 1, 2, 3, 4, 5])
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
    unsigned.add({ kind: 'envelope', header: badHeader }, 9400, { index: 5 })
    const input = [
      ...log.receipts.slice(0, 5),
      forger.receipts[0]!,
      unsigned.receipts[6]!,
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
    const r = check([...log.receipts, fork.receipts[3]!, after.receipts[6]!])
    expect(r.faults.map((f) => [f.kind, f.index])).toEqual([
      ['two-at-index', 3],
      ['time-decreasing', 3],
      // The fork's B2 and the log's B2 (at 4) are two receipts at one place as well.
      ['two-at-place', 4],
      ['after-seal', 6],
    ])
    // The chain stops where it forks: the decisions at 3 and above are void anyway (§4.1).
    expect(r.chain.map((x) => x.index)).toEqual([0, 1, 2])
  })

  it('faults: a claim receipted at or before its deadline, a claim not at seen + 1, two receipts at one place', () => {
    const log = new LogBuilder()
    log.genesis(1000)
    log.add({ kind: 'envelope', header: submission(0, 1).header }, 2000)
    log.add(
      { kind: 'envelope', header: submission(1, 1, { flags: FLAG.stop | FLAG.claim, deadline: 3000, seen: 1 }).header },
      3000,
    )
    log.add(
      { kind: 'envelope', header: submission(0, 2, { flags: FLAG.stop | FLAG.claim, deadline: 100, seen: 1 }).header },
      3100,
    )
    log.add({ kind: 'envelope', header: submission(0, 1, { size: 99 }).header }, 3200)
    const r = check(log.receipts)
    expect(r.faults.map((f) => [f.kind, f.index])).toEqual([
      ['claim-early', 2],
      ['claim-not-next', 3],
      ['two-at-place', 4],
    ])
    expect(r.chain).toHaveLength(5)
  })

  it("a seal the game's rule does not justify is a fault at the seal's index", () => {
    const log = honest()
    const r = check(log.receipts, { sealJustified: (before: readonly unknown[]) => before.length > 10 })
    expect(r.faults.map((f) => [f.kind, f.index, f.positions])).toEqual([['seal-unjustified', 5, [5]]])
    expect(check(log.receipts, { sealJustified: () => true }).faults).toEqual([])
  })

  it('hostile input: any bytes, any changed byte of any receipt, never throw', () => {
    const log = honest()
    fc.assert(
      fc.property(
        fc.array(fc.uint8Array({ maxLength: 400 }), { maxLength: 4 }),
        fc.nat({ max: 5 }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (junk, which, at, x) => {
          const changed = log.receipts.map((b) => b.slice())
          const target = changed[which]!
          target[at % target.length] = (target[at % target.length] ?? 0) ^ x
          const r = check([...changed, ...junk])
          expect(r.setAside.length).toBeGreaterThanOrEqual(1)
          expect(r.chain.length).toBeLessThanOrEqual(6)
        },
      ),
      { numRuns: 200 },
    )
  })
})
