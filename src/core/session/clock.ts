/**
 * Time, injected. Deadlines decide games (protocol/SPEC.md §6.6), so the session never reads the
 * system clock itself: production passes `systemClock`; tests pass a `VirtualClock` and run
 * deadline, stall and late-message scenarios instantly and deterministically.
 */

export interface Clock {
  /** Milliseconds on this clock's time line. */
  now(): number
  /** Resolves once `ms` have passed on this clock (at once for `ms <= 0`), or as soon as `signal` aborts. */
  sleep(ms: number, signal?: AbortSignal): Promise<void>
}

export const systemClock: Clock = {
  now: () => performance.timeOrigin + performance.now(),
  sleep(ms, signal) {
    return new Promise((resolve) => {
      if (signal?.aborted === true || ms <= 0) {
        resolve()
        return
      }
      // A ref'd timer: a process waiting only on a deadline must not exit before it.
      const timer = setTimeout(done, ms)
      function done(): void {
        clearTimeout(timer)
        signal?.removeEventListener('abort', done)
        resolve()
      }
      signal?.addEventListener('abort', done, { once: true })
    })
  },
}

interface Timer {
  readonly at: number
  readonly seq: number
  readonly fire: () => void
}

/**
 * A clock that moves only when told: `advance` fires the sleeps that fall due, in time order.
 * `settle` drives a set of promises to completion, jumping to the next sleep whenever nothing else
 * can run, so a test of a ten-minute deadline takes no time and always behaves the same.
 */
export class VirtualClock implements Clock {
  private time: number
  private readonly timers: Timer[] = []
  private counter = 0

  constructor(start = 0) {
    this.time = start
  }

  now(): number {
    return this.time
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted === true || ms <= 0) {
        resolve()
        return
      }
      const timer: Timer = {
        at: this.time + ms,
        seq: this.counter++,
        fire: () => {
          signal?.removeEventListener('abort', cancel)
          resolve()
        },
      }
      const cancel = (): void => {
        const i = this.timers.indexOf(timer)
        if (i >= 0) this.timers.splice(i, 1)
        resolve()
      }
      signal?.addEventListener('abort', cancel, { once: true })
      this.timers.push(timer)
      this.timers.sort((a, b) => a.at - b.at || a.seq - b.seq)
    })
  }

  /** The time of the earliest pending sleep. */
  next(): number | undefined {
    return this.timers[0]?.at
  }

  get pending(): number {
    return this.timers.length
  }

  /** Moves time forward by `ms`, firing every sleep that falls due on the way, in order. */
  advance(ms: number): void {
    this.advanceTo(this.time + ms)
  }

  advanceTo(t: number): void {
    for (;;) {
      const first = this.timers[0]
      if (first === undefined || first.at > t) break
      this.timers.shift()
      this.time = Math.max(this.time, first.at)
      first.fire()
    }
    this.time = Math.max(this.time, t)
  }

  /**
   * Runs until every promise in `work` has settled: lets all other pending work run (I/O-free
   * promise chains settle within a few event-loop turns), and when nothing moves, jumps to the next
   * sleep. Throws if nothing can move and nothing is pending (a deadlock), or after `maxJumps`.
   */
  async settle<T extends readonly unknown[]>(
    work: { readonly [K in keyof T]: Promise<T[K]> },
    maxJumps = 100_000,
  ): Promise<T> {
    let settled = 0
    const all = Promise.allSettled(work).then((r) => {
      settled = 1
      return r
    })
    for (let jumps = 0; ; jumps++) {
      // Give every ready continuation its turn before moving time.
      for (let i = 0; i < 4 && settled === 0; i++) await new Promise((r) => setImmediate(r))
      if (settled === 1) break
      const next = this.next()
      if (next === undefined) {
        // Nothing pending on this clock: real I/O may still be under way (a disk write); give it time.
        await new Promise((r) => setTimeout(r, 1))
        if (this.next() === undefined && settled === 0 && jumps > maxJumps)
          throw new Error('virtual clock: nothing can move')
        continue
      }
      if (jumps > maxJumps) throw new Error(`virtual clock: still running after ${maxJumps} jumps`)
      this.advanceTo(next)
    }
    const results = await all
    return results.map((r) => {
      if (r.status === 'rejected') throw r.reason
      return r.value
    }) as unknown as T
  }
}
