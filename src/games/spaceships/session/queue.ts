/** The session's event queue: what its loop reacts to, in order, and waits for with a deadline. */
import type { SealedEnvelope } from '../protocol/envelope.js'

/** What the event loop reacts to. */
export type Event =
  | { readonly kind: 'envelope'; readonly sealed: SealedEnvelope }
  /** The peer signed two envelopes at one place; both are persisted (SPEC §5.3). */
  | { readonly kind: 'equivocation'; readonly detail: string }
  /** Bytes that are not evidence: a malformed frame, a failed signature, another game's envelope (SPEC §2.1). */
  | { readonly kind: 'bad'; readonly detail: string }
  | { readonly kind: 'decision' }
  | { readonly kind: 'deadline' }
  /** The caller's signal: the loop stops the game at its next step; nothing else reacts to it. */
  | { readonly kind: 'aborted' }
  | { readonly kind: 'closed' }

export class Queue<T> {
  private readonly items: T[] = []
  private waiter: ((t: T) => void) | undefined

  push(t: T): void {
    const w = this.waiter
    if (w !== undefined) {
      this.waiter = undefined
      w(t)
    } else this.items.push(t)
  }

  /** The next item if one is already queued. */
  poll(): T | undefined {
    return this.items.shift()
  }

  next(): Promise<T> {
    const t = this.items.shift()
    if (t !== undefined) return Promise.resolve(t)
    return new Promise((resolve) => (this.waiter = resolve))
  }

  /**
   * The next item, or `undefined` once `until` resolves first. A wait that loses the race leaves
   * no waiter behind: an item pushed later is queued, never handed to a wait nobody reads.
   */
  nextBefore(until: Promise<unknown>): Promise<T | undefined> {
    const t = this.items.shift()
    if (t !== undefined) return Promise.resolve(t)
    return new Promise((resolve) => {
      const take = (item: T): void => {
        resolve(item)
      }
      this.waiter = take
      void until.then(() => {
        if (this.waiter !== take) return
        this.waiter = undefined
        resolve(undefined)
      })
    })
  }
}
