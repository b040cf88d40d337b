/**
 * Group commit (NOTARY.md §8; notary-service/group-commit.ts): submissions handled together share
 * one transaction and are answered only once its COMMIT has returned, so a crash (here: the
 * database closed with the group open, which rolls it back as a dying process does) loses only
 * receipts nobody was given, and every receipt given is found again after a reopen. The COMMIT is
 * run by the test (an injected schedule), never by waiting.
 */
import { DatabaseSync } from 'node:sqlite'
import { afterEach, describe, expect, it } from 'vitest'
import { toHex } from '../../../src/core/commit/bytes.js'
import { encodeHeader } from '../../../src/core/notary/header.js'
import type { NotaryResponse } from '../../../src/core/notary/messages.js'
import { GroupCommit } from '../../../src/core/notary-service/group-commit.js'
import { submission } from './helpers.js'
import { FROM_A, FROM_B, WITNESSED, type Fixture, fixture, receiptOf, registered } from './service-helpers.js'

let f: Fixture
afterEach(() => {
  f.close()
})
const G = WITNESSED.game
const sub = (sender: 0 | 1, seq: number) => submission(sender, seq, { game: G })

/** A group commit whose COMMIT runs when the test says (`commit()`), counting how often it was asked. */
function manual(fx: Fixture): { group: GroupCommit; commit: () => void; scheduled: () => number } {
  const pending: (() => void)[] = []
  let scheduled = 0
  const group = new GroupCommit(fx.notary, (c) => {
    scheduled++
    pending.push(c)
  })
  return {
    group,
    commit: () => {
      pending.splice(0).forEach((c) => {
        c()
      })
    },
    scheduled: () => scheduled,
  }
}

/** Settles what is settled now: every promise callback already due has run after this. */
async function drain(): Promise<void> {
  for (let i = 0; i < 10; i++) await Promise.resolve()
}

/** The receipts another connection reads from the file: what is durable, not what the group holds. */
function durableReceipts(path: string): string[] {
  const db = new DatabaseSync(path, { readOnly: true })
  try {
    return (db.prepare('SELECT bytes FROM receipts WHERE game = ? ORDER BY idx').all(G) as { bytes: Uint8Array }[]).map(
      (r) => toHex(r.bytes),
    )
  } finally {
    db.close()
  }
}

function tracked(p: Promise<NotaryResponse>): { settled: () => boolean; value: Promise<NotaryResponse> } {
  let settled = false
  const value = p.finally(() => {
    settled = true
  })
  return { settled: () => settled, value }
}

describe('group commit (NOTARY.md §8)', () => {
  it('a group is answered only after its one COMMIT; a reopen finds every receipt it returned', async () => {
    f = fixture()
    registered(f)
    const { group, commit, scheduled } = manual(f)
    const subs = [sub(0, 1), sub(1, 1), sub(0, 2), sub(1, 2)]
    const answers = subs.map((s, i) =>
      tracked(group.run(() => f.notary.submit(encodeHeader(s.header), s.deposit, i % 2 === 0 ? FROM_A : FROM_B))),
    )
    // A fetch in the same group reads its uncommitted receipts, so it waits for the COMMIT too.
    const fetched = tracked(group.run(() => f.notary.fetch(G, 0, FROM_A)))
    await drain()
    expect(scheduled()).toBe(1)
    expect(group.pending).toBe(5)
    expect(answers.some((a) => a.settled()) || fetched.settled()).toBe(false)
    expect(durableReceipts(f.path)).toHaveLength(1)
    commit()
    const receipts = (await Promise.all(answers.map((a) => a.value))).map(receiptOf)
    expect(receipts.map((r) => r.index)).toEqual([1, 2, 3, 4])
    expect(await fetched.value).toMatchObject({ kind: 'log', more: false })
    const onDisk = durableReceipts(f.path)
    expect(onDisk).toHaveLength(5)
    for (const r of receipts) expect(onDisk).toContain(toHex(r.bytes))
    // Restarted from the file: the same receipts, and each resubmission gets its receipt back.
    f.reopen()
    expect(f.notary.store.receipts(G, 0).map(toHex)).toEqual(onDisk)
    subs.forEach((s, i) => {
      const again = f.notary.submit(encodeHeader(s.header), s.deposit, FROM_A)
      expect(toHex(receiptOf(again).bytes)).toBe(toHex(receipts[i]?.bytes ?? new Uint8Array()))
    })
  })

  it('a crash before the COMMIT loses the group, none of whose answers left; the resubmissions are receipted', async () => {
    f = fixture()
    registered(f)
    const { group, commit } = manual(f)
    const subs = [sub(0, 1), sub(1, 1)]
    const answers = subs.map((s) =>
      tracked(group.run(() => f.notary.submit(encodeHeader(s.header), s.deposit, FROM_A))),
    )
    await drain()
    expect(answers.some((a) => a.settled())).toBe(false)
    // The process dies: its connection goes with the open transaction (SQLite rolls it back).
    f.reopen()
    commit()
    for (const a of answers) await expect(a.value).rejects.toThrow(/closed before the group committed/)
    expect(durableReceipts(f.path)).toHaveLength(1)
    const again = subs.map((s) => receiptOf(f.notary.submit(encodeHeader(s.header), s.deposit, FROM_A)))
    expect(again.map((r) => r.index)).toEqual([1, 2])
  })

  it('a COMMIT that fails answers nobody, and the notary forgets the logs that held the group', async () => {
    f = fixture()
    registered(f)
    const { group, commit } = manual(f)
    const store = f.notary.store
    const real = store.commitGroup.bind(store)
    let failing = true
    store.commitGroup = () => {
      if (!failing) {
        real()
        return
      }
      // As the store does when SQLite's COMMIT fails: roll back, then throw.
      store.rollbackGroup()
      throw new Error('disk I/O error')
    }
    const a1 = sub(0, 1)
    const first = tracked(group.run(() => f.notary.submit(encodeHeader(a1.header), a1.deposit, FROM_A)))
    commit()
    await expect(first.value).rejects.toThrow('disk I/O error')
    expect(durableReceipts(f.path)).toHaveLength(1)
    // Had the notary kept its log in memory, index 1 would look taken and A's seq 1 receipted.
    failing = false
    const again = group.run(() => f.notary.submit(encodeHeader(a1.header), a1.deposit, FROM_A))
    commit()
    expect(receiptOf(await again)).toMatchObject({ index: 1 })
    expect(durableReceipts(f.path)).toHaveLength(2)
  })
})
