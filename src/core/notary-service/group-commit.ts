/**
 * Group commit for the notary's service (NOTARY.md §8: "a receipt ... committed in one durable
 * transaction before the receipt leaves the notary"; the "commits may be grouped").
 *
 * An fsync costs milliseconds on a disk and the notary's thread waits for it, so one per receipt
 * caps a notary at a few hundred receipts a second whatever its CPU (bench: notary-rate.ts). Here
 * the requests handled in one turn of the event loop share one transaction: the first opens it,
 * each is handled in it as before (the same checks in the same order, NOTARY.md §7.5, each write
 * in a savepoint of its own), and once the turn's I/O is handled (`setImmediate`) one COMMIT makes
 * them all durable. Only then does any of them get its answer: not only the receipts but every
 * answer computed in the group, since a refusal or a log may have read what the group wrote. While
 * the COMMIT blocks the thread, requests queue in the kernel and make the next group, so a group
 * grows with the load and an idle notary answers after one turn.
 *
 * A crash before the COMMIT returns loses the group and nothing else; none of its answers has
 * left, so no receipt anyone holds is lost, and the resubmissions are receipted again (§7.6). A
 * COMMIT that fails is rolled back, the notary forgets the logs it holds in memory (they held the
 * group's receipts; it reads them again from the file), and every request of the group fails
 * unanswered (service.ts resets its stream: the client resubmits).
 */
import type { Notary } from './notary.js'

/** When the group's COMMIT runs: after the current turn's I/O (a test passes its own). */
export type Schedule = (commit: () => void) => void

interface Waiting {
  readonly resolve: () => void
  readonly reject: (e: unknown) => void
}

export class GroupCommit {
  private waiting: Waiting[] = []

  constructor(
    private readonly notary: Notary,
    private readonly schedule: Schedule = (commit) => void setImmediate(commit),
  ) {}

  /** How many answers wait for the open group's COMMIT. */
  get pending(): number {
    return this.waiting.length
  }

  /** Runs `work` (one request's handling) in the open group, opening one; its result once committed. */
  run<T>(work: () => T): Promise<T> {
    let result: T
    try {
      if (!this.notary.store.inGroup) {
        this.notary.store.beginGroup()
        this.schedule(() => {
          this.commit()
        })
      }
      result = work()
    } catch (e) {
      // Its own writes were rolled back to its savepoint; the logs in memory may be ahead of them.
      this.notary.forget()
      return Promise.reject(e instanceof Error ? e : new Error(String(e)))
    }
    return new Promise<T>((resolve, reject) =>
      this.waiting.push({
        resolve: () => {
          resolve(result)
        },
        reject,
      }),
    )
  }

  /** Commits the open group, then answers its requests (or fails them all if the COMMIT fails). */
  commit(): void {
    const waiting = this.waiting
    this.waiting = []
    if (!this.notary.store.inGroup) {
      // The store was closed with the group open (a shutdown): rolled back, so nobody is answered.
      for (const w of waiting) w.reject(new Error('the database closed before the group committed'))
      return
    }
    try {
      this.notary.store.commitGroup()
    } catch (e) {
      this.notary.forget()
      for (const w of waiting) w.reject(e)
      return
    }
    for (const w of waiting) w.resolve()
  }
}
