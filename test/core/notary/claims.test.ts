/**
 * Claims in two steps at the notary (PROTOCOL-4.md §4.4; NOTARY.md §7.5 "claim" and "submit",
 * §8). Step 1, the claim request: each check in its order with its answer ("not before" the
 * deadline, the newer receipts, refusals), then the claim receipt, which a repeat gets back,
 * across a restart too. Step 2, the claim header: receipted only when its `seen` names the claim
 * receipt of its sender, seq and deadline, else claim-unrequested. The log the notary signs has no
 * fault.
 */
import { DatabaseSync } from 'node:sqlite'
import { afterEach, describe, expect, it } from 'vitest'
import { toHex } from '../../../src/core/commit/bytes.js'
import { encodeClaim } from '../../../src/core/notary/claim.js'
import { FLAG, encodeHeader } from '../../../src/core/notary/header.js'
import { checkReceiptLog } from '../../../src/core/notary/log.js'
import { CLAIM_RECEIPT_BYTES } from '../../../src/core/notary/receipt.js'
import { Notary } from '../../../src/core/notary-service/notary.js'
import { NotaryStore } from '../../../src/core/notary-service/store.js'
import { A, B, DOMAIN, NOTARY, claimRequest, submission } from './helpers.js'
import { ANSWER_MS, testRegistrar } from './registrar.js'
import {
  FROM_A,
  FROM_B,
  STRANGER,
  T0,
  WITNESSED,
  type Fixture,
  fixture,
  receiptOf,
  registered,
} from './service-helpers.js'

let f: Fixture
afterEach(() => {
  f.close()
})
const G = WITNESSED.game
const D = T0 + 60_000
const sub = (sender: 0 | 1, seq: number, o: Parameters<typeof submission>[2] = {}) =>
  submission(sender, seq, { game: G, ...o })
const put = (s: ReturnType<typeof sub>, from = FROM_A) => f.notary.submit(encodeHeader(s.header), s.deposit, from)
const ask = (sender: 0 | 1, seq: number, o: { deadline: number; seen: number }, from = FROM_B) =>
  f.notary.claim(claimRequest(sender, seq, { game: G, ...o }).bytes, from)
const code = (a: { kind: string; code?: string }) => (a.kind === 'refused' ? a.code : a.kind)
/** B's claim stop at `seq`, its header naming the claim receipt at `seen` (PROTOCOL-4.md §4.4 step 2). */
const stop = (seq: number, deadline: number, seen: number) =>
  sub(1, seq, { flags: FLAG.stop | FLAG.claim, deadline, seen })
const faults = () =>
  checkReceiptLog(DOMAIN, f.notary.store.receipts(G, 0), NOTARY.publicKey, { playerKeys: [A.publicKey, B.publicKey] })
    .faults

/** The game registered and A's envelope 1 receipted at T0 (index 1): B owes, its deadline D. */
function owed(): void {
  f = fixture()
  registered(f)
  receiptOf(put(sub(0, 1)))
}

describe('the claim request (PROTOCOL-4.md §4.4 step 1, NOTARY.md §7.5 "claim")', () => {
  it('early: "not before" deadline + 1, at and before the deadline; then the claim receipt at seen + 1, with the request as body', () => {
    owed()
    expect(ask(1, 1, { deadline: D, seen: 1 })).toEqual({ kind: 'not-before', time: D + 1 })
    f.clock.advanceTo(D)
    expect(ask(1, 1, { deadline: D, seen: 1 })).toEqual({ kind: 'not-before', time: D + 1 })
    expect(f.notary.store.receipts(G, 2)).toEqual([])
    f.clock.advanceTo(D + 1)
    const request = claimRequest(1, 1, { game: G, deadline: D, seen: 1 })
    const r = receiptOf(f.notary.claim(request.bytes, FROM_B))
    expect(r).toMatchObject({ kind: 'claim', index: 2, time: D + 1 })
    expect(r.kind === 'claim' && toHex(encodeClaim(r.claim))).toBe(toHex(request.bytes))
    expect(r.bytes.length).toBe(CLAIM_RECEIPT_BYTES)
    expect(faults()).toEqual([])
  })

  it('a stale seen: the newer receipts from seen + 1, before the deadline is looked at (NOTARY.md §12)', () => {
    owed()
    receiptOf(put(sub(0, 2)))
    expect(ask(1, 1, { deadline: D, seen: 0 })).toEqual({ kind: 'newer', receipts: f.notary.store.receipts(G, 1) })
    expect(ask(1, 1, { deadline: D, seen: 1 })).toEqual({ kind: 'newer', receipts: f.notary.store.receipts(G, 2) })
    expect(f.notary.store.receipts(G, 2)).toHaveLength(1)
    f.clock.advanceTo(D + 1)
    expect(ask(1, 1, { deadline: D, seen: 1 })).toMatchObject({ kind: 'newer' })
    expect(receiptOf(ask(1, 1, { deadline: D, seen: 2 }))).toMatchObject({ kind: 'claim', index: 3 })
  })

  it('a repeat at a place with a claim receipt gets that receipt, whatever its deadline, seen and asker, even sealed', () => {
    owed()
    f.clock.advanceTo(D + 1)
    const r = receiptOf(ask(1, 1, { deadline: D, seen: 1 }))
    f.clock.advance(5000)
    expect(toHex(receiptOf(ask(1, 1, { deadline: D, seen: 1 }, STRANGER)).bytes)).toBe(toHex(r.bytes))
    // Another deadline, a later seen, a seen above the log: the same receipt (PROTOCOL-4.md §4.4).
    for (const o of [
      { deadline: D + 4000, seen: 2 },
      { deadline: 0, seen: 0 },
      { deadline: D, seen: 99 },
    ])
      expect(toHex(receiptOf(ask(1, 1, o)).bytes)).toBe(toHex(r.bytes))
    expect(f.notary.store.receipts(G, 0)).toHaveLength(3)
    receiptOf(put(stop(1, D, 2), FROM_B))
    f.clock.advance(ANSWER_MS)
    receiptOf(f.notary.seal(G, FROM_A))
    expect(toHex(receiptOf(ask(1, 1, { deadline: D, seen: 1 })).bytes)).toBe(toHex(r.bytes))
    expect(code(ask(0, 2, { deadline: D, seen: 4 }, FROM_A))).toBe('sealed')
  })

  it('refused, each with its code in its order: limit-rate, malformed, unregistered, signature, seq, claim-seen', () => {
    f = fixture({ submissionsPerPeerPerMinute: 8 })
    registered(f)
    receiptOf(put(sub(0, 1)))
    f.clock.advanceTo(D + 1)
    const good = claimRequest(1, 1, { game: G, deadline: D, seen: 1 }).bytes
    expect(code(f.notary.claim(good.subarray(1), FROM_B))).toBe('malformed')
    const kind = good.slice()
    kind[0] = 1
    expect(f.notary.claim(kind, FROM_B)).toMatchObject({ kind: 'refused', code: 'malformed' })
    expect(code(f.notary.claim(claimRequest(1, 1, { deadline: D, seen: 1 }).bytes, FROM_B))).toBe('unregistered')
    // Signed by A for B's place; and B's signature with its seen changed.
    expect(code(f.notary.claim(claimRequest(1, 1, { game: G, deadline: D, seen: 1, by: A }).bytes, FROM_B))).toBe(
      'signature',
    )
    const changed = good.slice()
    changed[47] = (changed[47] ?? 0) ^ 1
    expect(code(f.notary.claim(changed, FROM_B))).toBe('signature')
    // The stop's place is B's next seq (1): not 2; and A's place 1 is receipted (its next is 2).
    expect(code(ask(1, 2, { deadline: D, seen: 1 }))).toBe('seq')
    expect(code(ask(0, 1, { deadline: D, seen: 1 }))).toBe('seq')
    // A seen above the log's last index, checked before the time and the staleness.
    expect(code(ask(1, 1, { deadline: D + 10 ** 9, seen: 2 }))).toBe('claim-seen')
    expect(code(ask(1, 1, { deadline: D, seen: 1 }))).toBe('limit-rate')
    expect(code(f.notary.claim(good, FROM_A))).toBe('receipt')
  })

  it('limit-bytes before the log is looked at: a claim receipt is CLAIM_RECEIPT_BYTES held', () => {
    owed()
    const held = f.notary.store.bytesHeld()
    const limited = (bytesHeld: number) =>
      new Notary({
        keys: NOTARY,
        registrar: testRegistrar,
        clock: f.clock,
        store: f.notary.store,
        limits: { bytesHeld },
      })
    const request = claimRequest(1, 1, { game: G, deadline: D, seen: 0 }).bytes
    expect(code(limited(held + CLAIM_RECEIPT_BYTES - 1).claim(request, FROM_B))).toBe('limit-bytes')
    expect(code(limited(held + CLAIM_RECEIPT_BYTES).claim(request, FROM_B))).toBe('newer')
    f.clock.advanceTo(D + 1)
    const n = limited(held + CLAIM_RECEIPT_BYTES)
    receiptOf(n.claim(claimRequest(1, 1, { game: G, deadline: D, seen: 1 }).bytes, FROM_B))
    expect(f.notary.store.bytesHeld()).toBe(held + CLAIM_RECEIPT_BYTES)
  })
})

describe('the claim header (PROTOCOL-4.md §4.4 step 2, NOTARY.md §7.5 "submit")', () => {
  it('without a claim receipt: claim-unrequested, whatever the time and seen (no freshness answers any more)', () => {
    owed()
    expect(put(stop(1, D, 1), FROM_B)).toMatchObject({ kind: 'refused', code: 'claim-unrequested' })
    f.clock.advanceTo(D + 1)
    expect(code(put(stop(1, D, 0), FROM_B))).toBe('claim-unrequested')
    expect(code(put(stop(1, D, 1), FROM_B))).toBe('claim-unrequested')
    expect(code(put(stop(1, D, 7), FROM_B))).toBe('claim-unrequested')
    expect(f.notary.store.receipts(G, 2)).toEqual([])
  })

  it("naming the claim receipt of its sender, seq and deadline: receipted; naming another receipt, another's claim, another deadline: claim-unrequested", () => {
    owed()
    f.clock.advanceTo(D + 1)
    const c = receiptOf(ask(1, 1, { deadline: D, seen: 1 }))
    expect(c.index).toBe(2)
    expect(code(put(stop(1, D, 1), FROM_B))).toBe('claim-unrequested')
    expect(code(put(stop(1, D + 1, 2), FROM_B))).toBe('claim-unrequested')
    expect(code(put(stop(1, D - 1, 2), FROM_B))).toBe('claim-unrequested')
    expect(code(put(stop(1, D, 3), FROM_B))).toBe('claim-unrequested')
    // A's claim receipt does not stand for B's stop.
    receiptOf(put(sub(0, 2)))
    f.clock.advance(1000)
    const ofA = receiptOf(ask(0, 3, { deadline: D, seen: 3 }, FROM_A))
    expect(code(put(stop(1, D, ofA.index), FROM_B))).toBe('claim-unrequested')
    const r = receiptOf(put(stop(1, D, 2), FROM_B))
    expect(r).toMatchObject({ kind: 'envelope', index: 5, header: { sender: 1, seq: 1, seen: 2, deadline: D } })
    expect(toHex(receiptOf(put(stop(1, D, 2), FROM_A)).bytes)).toBe(toHex(r.bytes))
    // A claim receipt is not an envelope: B's next envelope seq is 2, A's is 3.
    expect(code(ask(1, 1, { deadline: D, seen: 5 }))).toBe('receipt')
    expect(code(ask(1, 3, { deadline: D, seen: 5 }))).toBe('seq')
    expect(faults()).toEqual([])
  })
})

describe('claim receipts across a restart (NOTARY.md §8)', () => {
  it('reopened from its file: the claim receipt is found at its place, a repeat gets it, and the stop naming it is receipted', () => {
    owed()
    f.clock.advanceTo(D + 1)
    const c = receiptOf(ask(1, 1, { deadline: D, seen: 1 }))
    f.reopen()
    expect(f.notary.store.claimAt(G, 1, 1)).toEqual({ index: 2, bytes: c.bytes })
    expect(f.notary.store.claimAt(G, 1, 2)).toBeUndefined()
    expect(f.notary.store.claimAt(G, 0, 1)).toBeUndefined()
    f.clock.advance(1000)
    expect(toHex(receiptOf(ask(1, 1, { deadline: D + 9, seen: 0 })).bytes)).toBe(toHex(c.bytes))
    f.reopen()
    expect(receiptOf(put(stop(1, D, 2), FROM_B))).toMatchObject({ kind: 'envelope', index: 3 })
    expect(f.notary.store.lastSeq(G, 1)).toBe(1)
    expect(faults()).toEqual([])
  })

  it('a database of the schema before claims opens, gains the claim columns, and keeps what it held', () => {
    owed()
    const before = f.notary.store.receipts(G, 0)
    f.notary.store.close()
    // The first schema's receipts table, rebuilt around the rows held (no claim columns).
    const db = new DatabaseSync(f.path)
    db.exec(`
      DROP INDEX receipts_claim;
      CREATE TABLE receipts_old (
        game BLOB NOT NULL, idx INTEGER NOT NULL, bytes BLOB NOT NULL, sender INTEGER, seq INTEGER,
        complainant INTEGER, PRIMARY KEY (game, idx)
      ) STRICT;
      INSERT INTO receipts_old SELECT game, idx, bytes, sender, seq, complainant FROM receipts;
      DROP TABLE receipts;
      ALTER TABLE receipts_old RENAME TO receipts;
      CREATE UNIQUE INDEX receipts_place ON receipts (game, sender, seq) WHERE sender IS NOT NULL;
    `)
    const columns = (d: DatabaseSync) =>
      (d.prepare('PRAGMA table_info(receipts)').all() as { name: string }[]).map((r) => r.name)
    expect(columns(db)).not.toContain('claim_seq')
    db.close()
    f.notary = new Notary({ keys: NOTARY, registrar: testRegistrar, clock: f.clock, store: new NotaryStore(f.path) })
    expect(f.notary.store.receipts(G, 0).map(toHex)).toEqual(before.map(toHex))
    f.clock.advanceTo(D + 1)
    const c = receiptOf(ask(1, 1, { deadline: D, seen: 1 }))
    f.reopen()
    expect(f.notary.store.claimAt(G, 1, 1)?.index).toBe(c.index)
    const again = new DatabaseSync(f.path)
    expect(columns(again)).toEqual(expect.arrayContaining(['claim_sender', 'claim_seq']))
    again.close()
  })
})
