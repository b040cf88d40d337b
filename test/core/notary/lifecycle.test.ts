/**
 * NOTARY.md §7.5, §8 (PROTOCOL-4.md §4.6, §5.3, §5.4): complaints, fetching, sealing, retention,
 * restarts and limits. The database is reopened from its file: nothing is lost, the same receipts
 * come back, and the notary's time never goes back.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { toHex } from '../../../src/core/commit/bytes.js'
import { taggedHash } from '../../../src/core/commit/hash.js'
import { keyPairFromSecret } from '../../../src/core/commit/keys.js'
import { encodeComplaint, makeComplaint } from '../../../src/core/notary/complaint.js'
import { sealDeposit } from '../../../src/core/notary/deposit.js'
import { FLAG, encodeHeader, signHeader } from '../../../src/core/notary/header.js'
import { checkReceiptLog } from '../../../src/core/notary/log.js'
import { RETENTION_MS } from '../../../src/core/notary-service/limits.js'
import { sweepLoop } from '../../../src/core/notary-net/service.js'
import { Notary } from '../../../src/core/notary-service/notary.js'
import { NotaryStore } from '../../../src/core/notary-service/store.js'
import { VirtualClock } from '../../../src/core/session/clock.js'
import { A, B, DOMAIN, NOTARY, randomness, submission } from './helpers.js'
import { ANSWER_MS, hellos, testRegistrar } from './registrar.js'
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
const sub = (sender: 0 | 1, seq: number, o: Parameters<typeof submission>[2] = {}) =>
  submission(sender, seq, { game: G, ...o })
const put = (s: { header: Parameters<typeof encodeHeader>[0]; deposit: Uint8Array }, from = FROM_A) =>
  f.notary.submit(encodeHeader(s.header), s.deposit, from)
const code = (a: { kind: string; code?: string }) => (a.kind === 'refused' ? a.code : a.kind)

/** A's envelope at `seq` deposited so that B's wrap does not open (wrapped to a stranger's key). */
function falseDeposit(seq: number) {
  const honest = sub(0, seq)
  const stranger = keyPairFromSecret(new Uint8Array(32).fill(5))
  const d = sealDeposit({
    domain: DOMAIN,
    place: { game: G, sender: 0, seq, envelopeHash: honest.header.envelopeHash },
    envelope: honest.envelope,
    recipientKey: stranger.publicKey,
    senderKey: A.publicKey,
    floor: 256,
    randomness: randomness(`false ${seq}`),
  })
  if (!d.ok) throw new Error(d.error.message)
  const header = signHeader(DOMAIN, A, {
    ...honest.header,
    depositHash: taggedHash(DOMAIN.depositHash, d.value),
    depositBytes: d.value.length,
  })
  return { header, deposit: d.value }
}

function complaint(index: number, deposit: Uint8Array, by = B, sender: 0 | 1 = 1): Uint8Array {
  const c = makeComplaint(DOMAIN, by, { game: G, sender, index, deposit })
  if (!c.ok) throw new Error(c.error.message)
  return encodeComplaint(c.value)
}

describe('complaints (PROTOCOL-4.md §5.3, NOTARY.md §7.5)', () => {
  it('a false deposit: the complaint is receipted with the deposit; again, the same receipt; honest ones are refused', () => {
    f = fixture()
    registered(f)
    const bad = falseDeposit(1)
    receiptOf(put(bad))
    const c = complaint(1, bad.deposit)
    const r = receiptOf(f.notary.complain(c, FROM_B))
    expect(r).toMatchObject({ kind: 'complaint', index: 2 })
    if (r.kind === 'complaint') expect(toHex(r.deposit)).toBe(toHex(bad.deposit))
    expect(toHex(receiptOf(f.notary.complain(c, STRANGER)).bytes)).toBe(toHex(r.bytes))
    const honest = sub(0, 2)
    receiptOf(put(honest))
    expect(code(f.notary.complain(complaint(3, honest.deposit), FROM_B))).toBe('complaint-invalid')
    expect(code(f.notary.complain(complaint(1, bad.deposit, A, 0), FROM_A))).toBe('complaint-target')
    expect(checkReceiptLog(DOMAIN, f.notary.store.receipts(G, 0), NOTARY.publicKey).faults).toEqual([])
  })

  it('at most two complaints per side; no rule of time: a complaint after the complainant played on is receipted (PROTOCOL-4.md §5.3)', () => {
    f = fixture()
    registered(f)
    for (const seq of [1, 2, 3]) receiptOf(put(falseDeposit(seq)))
    receiptOf(f.notary.complain(complaint(1, falseDeposit(1).deposit), FROM_B))
    receiptOf(f.notary.complain(complaint(2, falseDeposit(2).deposit), FROM_B))
    expect(code(f.notary.complain(complaint(3, falseDeposit(3).deposit), FROM_B))).toBe('limit-complaints')
    f.close()
    f = fixture()
    registered(f)
    receiptOf(put(falseDeposit(1)))
    receiptOf(put(sub(1, 1), FROM_B))
    // B played on after A's false deposit: its complaint still proves A's offence.
    expect(receiptOf(f.notary.complain(complaint(1, falseDeposit(1).deposit), FROM_B))).toMatchObject({
      kind: 'complaint',
      index: 3,
    })
  })
})

describe('fetching, sealing and retention (PROTOCOL-4.md §4.6)', () => {
  it('a player fetches receipts with deposits; anyone else the receipts alone', () => {
    f = fixture()
    registered(f)
    const a1 = sub(0, 1)
    receiptOf(put(a1))
    const forB = f.notary.fetch(G, 0, FROM_B)
    expect(forB.kind === 'log' && forB.items.map((i) => i.deposit.length)).toEqual([0, a1.deposit.length])
    const forX = f.notary.fetch(G, 1, STRANGER)
    expect(forX).toMatchObject({ kind: 'log', more: false, items: [{ deposit: new Uint8Array() }] })
    expect(code(f.notary.fetch(new Uint8Array(32), 0, FROM_A))).toBe('unregistered')
  })

  it('the seal: refused while the game is not over, "not before" the answer deadline, then receipted; nothing after it', () => {
    f = fixture()
    registered(f)
    receiptOf(put(sub(0, 1)))
    expect(code(f.notary.seal(G, FROM_A))).toBe('not-over')
    const stop = receiptOf(put(sub(0, 2, { flags: FLAG.stop })))
    expect(f.notary.seal(G, FROM_B)).toEqual({ kind: 'not-before', time: stop.time + ANSWER_MS })
    expect(code(f.notary.seal(G, STRANGER))).toBe('not-a-player')
    f.clock.advance(ANSWER_MS)
    const seal = receiptOf(f.notary.seal(G, FROM_B))
    expect(seal).toMatchObject({ kind: 'seal', index: 3 })
    expect(toHex(receiptOf(f.notary.seal(G, FROM_A)).bytes)).toBe(toHex(seal.bytes))
    expect(code(put(sub(1, 1), FROM_B))).toBe('sealed')
    expect(code(put(sub(0, 2, { flags: FLAG.stop })))).toBe('receipt')
    expect(checkReceiptLog(DOMAIN, f.notary.store.receipts(G, 0), NOTARY.publicKey)).toMatchObject({
      sealed: true,
      faults: [],
    })
  })

  it('deposits are deleted RETENTION_MS after the seal and not a millisecond before; an unsealed log keeps them', async () => {
    f = fixture()
    registered(f)
    receiptOf(put(sub(0, 1, { flags: FLAG.end })))
    receiptOf(put(sub(1, 1, { flags: FLAG.end }), FROM_B))
    const seal = receiptOf(f.notary.seal(G, FROM_A))
    const open = (): number[] => {
      const l = f.notary.fetch(G, 0, FROM_A)
      return l.kind === 'log' ? l.items.map((i) => i.deposit.length) : []
    }
    const held = f.notary.store.bytesHeld()
    // The service's loop (hourly here) sweeps on the notary's clock: started a millisecond before
    // retention ends, its first sweep deletes nothing; the next, an hour later, both deposits.
    f.clock.advanceTo(seal.time + RETENTION_MS - 1)
    const stop = new AbortController()
    const loop = sweepLoop(f.notary, f.clock, stop.signal, 3_600_000)
    expect(open().filter((n) => n > 0)).toHaveLength(2)
    f.clock.advanceTo(seal.time + RETENTION_MS)
    expect(open().filter((n) => n > 0)).toHaveLength(2)
    f.clock.advance(3_600_000 - 1)
    await new Promise((r) => setImmediate(r))
    expect(open()).toEqual([0, 0, 0, 0])
    expect(f.notary.store.bytesHeld()).toBeLessThan(held)
    expect(f.notary.sweep()).toBe(0)
    stop.abort()
    await loop
    // Another game, never sealed, a year later: its deposits are all there.
    f.close()
    f = fixture()
    registered(f)
    receiptOf(put(sub(0, 1)))
    f.clock.advance(365 * 24 * 3_600_000)
    expect(f.notary.sweep()).toBe(0)
    expect(f.notary.fetch(G, 1, FROM_A)).toMatchObject({ items: [{ deposit: sub(0, 1).deposit }] })
  })
})

describe('restarts and limits (NOTARY.md §8)', () => {
  it('reopened from its file: the same receipts, resubmissions answered alike, the chain goes on, time never back', () => {
    f = fixture()
    registered(f)
    const a1 = sub(0, 1)
    const r1 = receiptOf(put(a1))
    f.clock.advance(10_000)
    const b1 = receiptOf(put(sub(1, 1), FROM_B))
    const before = f.notary.store.receipts(G, 0).map(toHex)
    f.reopen()
    expect(f.notary.store.receipts(G, 0).map(toHex)).toEqual(before)
    expect(toHex(receiptOf(put(a1)).bytes)).toBe(toHex(r1.bytes))
    // The machine's clock is back at T0 after the restart: receipts keep the last time signed.
    const behind = new VirtualClock(T0)
    f.notary.store.close()
    f.notary = new Notary({ keys: NOTARY, registrar: testRegistrar, clock: behind, store: new NotaryStore(f.path) })
    const a2 = receiptOf(put(sub(0, 2)))
    expect(a2).toMatchObject({ index: 3, time: b1.time })
    const report = checkReceiptLog(DOMAIN, f.notary.store.receipts(G, 0), NOTARY.publicKey, {
      playerKeys: [A.publicKey, B.publicKey],
    })
    expect(report).toMatchObject({ faults: [], gaps: [] })
    expect(report.chain).toHaveLength(4)
  })

  it('limits, each refused by its code: requests per peer per minute, open games, bytes held', () => {
    f = fixture({ submissionsPerPeerPerMinute: 3 })
    registered(f)
    receiptOf(put(sub(0, 1)))
    receiptOf(put(sub(0, 2)))
    expect(code(put(sub(0, 3)))).toBe('limit-rate')
    expect(code(put(sub(0, 3), FROM_B))).toBe('receipt')
    f.clock.advance(60_000)
    expect(code(put(sub(0, 4)))).toBe('receipt')
    f.close()
    f = fixture({ openGames: 1 })
    registered(f)
    const second = hellos(A.publicKey, B.publicKey, NOTARY.publicKey, 'second')
    expect(code(f.notary.register(second.helloA, second.helloB, FROM_A))).toBe('limit-games')
    f.close()
    f = fixture({ bytesHeld: 2000 })
    registered(f)
    expect(code(put(sub(0, 1, { size: 3000 })))).toBe('limit-bytes')
  })
})
