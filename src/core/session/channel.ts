/**
 * The session's view of the network: an ordered, reliable-while-connected channel of frames
 * (protocol/SPEC.md §2). Over libp2p it is a stream that can be replaced after a drop
 * (`net/stream-channel.ts`); in tests, a pair of in-memory ends, optionally with faults. Deadlines
 * are the session's (SPEC §6.6), so `receive` takes an abort signal and never times out by itself.
 */
import type { Clock } from './clock.js'

/**
 * What `receive` yields: a frame; `reconnected` when a new underlying stream has started (the
 * session then sends a resume frame, SPEC §2.2); `malformed` bytes that are not even a frame;
 * `closed` once the channel is closed and nothing more will arrive; `aborted` when the signal fired.
 */
export type Received =
  | { readonly kind: 'frame'; readonly bytes: Uint8Array }
  | { readonly kind: 'reconnected' }
  | { readonly kind: 'malformed'; readonly detail: string }
  | { readonly kind: 'closed' }
  | { readonly kind: 'aborted' }

export interface Channel {
  /** Sends a frame; resolves once it is handed to the transport (a frame sent while disconnected is dropped: resumption resends, SPEC §2.2). */
  send(frame: Uint8Array): Promise<void>
  receive(signal: AbortSignal): Promise<Received>
  close(): void
}

type Item = Exclude<Received, { kind: 'aborted' }>

/** A queue of received items with one waiting reader (the in-memory ends and the stream channel). */
export class Inbox {
  private readonly queue: Item[] = []
  private waiter: ((r: Received) => void) | undefined
  closed = false

  push(item: Item): void {
    const w = this.waiter
    if (w !== undefined) {
      this.waiter = undefined
      w(item)
    } else this.queue.push(item)
  }

  receive(signal: AbortSignal): Promise<Received> {
    const next = this.queue.shift()
    if (next !== undefined) return Promise.resolve(next)
    if (this.closed) return Promise.resolve({ kind: 'closed' })
    if (signal.aborted) return Promise.resolve({ kind: 'aborted' })
    return new Promise((resolve) => {
      const abort = (): void => {
        if (this.waiter === deliver) this.waiter = undefined
        resolve({ kind: 'aborted' })
      }
      const deliver = (r: Received): void => {
        signal.removeEventListener('abort', abort)
        resolve(r)
      }
      this.waiter = deliver
      signal.addEventListener('abort', abort, { once: true })
    })
  }

  close(): void {
    this.closed = true
    const w = this.waiter
    this.waiter = undefined
    w?.({ kind: 'closed' })
  }
}

/**
 * What a faulty link does to a frame sent from one end: deliver it, drop it, delay it (the link
 * stays first-in first-out, as a stream does), or (tests of reconnection) drop it and every later
 * one until `reconnect` is called on the pair.
 */
export type Fault = (
  frame: Uint8Array,
  from: 0 | 1,
  index: number,
) => 'deliver' | 'drop' | 'cut' | { readonly delay: number }

export interface MemoryPair {
  readonly ends: readonly [Channel, Channel]
  /** Restores a cut link: both ends see `reconnected` (as after a redial). */
  reconnect(): void
  /** Frames each end has sent, in order (tests count bytes and messages). */
  readonly sent: readonly [Uint8Array[], Uint8Array[]]
  /** Delivers `frame` to end `to` as if the other end had sent it, past any fault (tests of hostile peers). */
  inject(to: 0 | 1, frame: Uint8Array): void
}

/**
 * Two connected in-memory channel ends, with an optional fault on the link. Delays need `clock`
 * (a virtual clock in tests): a delayed frame, and every frame sent after it on the same side,
 * arrives once its time has come, in order.
 */
export function memoryChannelPair(fault?: Fault, clock?: Clock): MemoryPair {
  const inboxes = [new Inbox(), new Inbox()] as const
  const sent: [Uint8Array[], Uint8Array[]] = [[], []]
  /** Per direction: when the last delayed frame is due, so later frames never overtake it. */
  const busyUntil = [0, 0]
  let cut = false
  const end = (me: 0 | 1): Channel => {
    const peer = me === 0 ? 1 : 0
    return {
      send(frame) {
        const index = sent[me].length
        sent[me].push(frame)
        if (inboxes[me].closed || inboxes[peer].closed) return Promise.resolve()
        const what = cut ? 'drop' : (fault?.(frame, me, index) ?? 'deliver')
        if (what === 'cut') cut = true
        if (what === 'drop' || what === 'cut') return Promise.resolve()
        const now = clock?.now() ?? 0
        const delay = typeof what === 'object' ? what.delay : 0
        const at = Math.max(now + delay, busyUntil[me] ?? 0)
        if (at <= now || clock === undefined) inboxes[peer].push({ kind: 'frame', bytes: frame })
        else {
          busyUntil[me] = at
          void clock.sleep(at - now).then(() => {
            inboxes[peer].push({ kind: 'frame', bytes: frame })
          })
        }
        return Promise.resolve()
      },
      receive: (signal) => inboxes[me].receive(signal),
      close() {
        inboxes[me].close()
        // As a stream does, the close reaches the peer after every frame sent before it.
        const now = clock?.now() ?? 0
        const pending = busyUntil[me] ?? 0
        if (clock === undefined || pending <= now) inboxes[peer].close()
        else
          void clock.sleep(pending - now).then(() => {
            inboxes[peer].close()
          })
      },
    }
  }
  return {
    ends: [end(0), end(1)],
    sent,
    inject(to, frame) {
      inboxes[to].push({ kind: 'frame', bytes: frame })
    },
    reconnect() {
      cut = false
      for (const i of inboxes) if (!i.closed) i.push({ kind: 'reconnected' })
    },
  }
}

/**
 * A channel that also delivers frames from a second source (a witnessed game's notary, PROTOCOL-4.md
 * §4.4: the other side's envelopes opened from its deposits): sends go to `primary`; `receive`
 * yields whichever source has something first. A receive that loses the race is kept for the next
 * call, never abandoned, so no frame is lost between the two. `closed` is reported only once both
 * sources are closed: a witnessed game goes on through the notary when the peer's stream ends.
 */
export function withSecondSource(primary: Channel, extra: Inbox): Channel {
  const life = new AbortController()
  type Tagged = readonly ['primary' | 'extra', Received]
  let fromPrimary: Promise<Tagged> | undefined
  let fromExtra: Promise<Tagged> | undefined
  const closed = { primary: false, extra: false }
  return {
    send: (frame) => primary.send(frame),
    async receive(signal) {
      for (;;) {
        if (closed.primary && closed.extra) return { kind: 'closed' }
        if (signal.aborted || life.signal.aborted) return { kind: 'aborted' }
        if (!closed.primary) fromPrimary ??= primary.receive(life.signal).then((r) => ['primary', r] as const)
        if (!closed.extra) fromExtra ??= extra.receive(life.signal).then((r) => ['extra', r] as const)
        let onAbort: () => void = () => undefined
        const stop = new Promise<'aborted'>((resolve) => {
          onAbort = () => {
            resolve('aborted')
          }
          signal.addEventListener('abort', onAbort, { once: true })
        })
        const racers: Promise<Tagged | 'aborted'>[] = [stop]
        if (fromPrimary !== undefined) racers.push(fromPrimary)
        if (fromExtra !== undefined) racers.push(fromExtra)
        const won = await Promise.race(racers)
        signal.removeEventListener('abort', onAbort)
        if (won === 'aborted') return { kind: 'aborted' }
        const [source, got] = won
        if (source === 'primary') fromPrimary = undefined
        else fromExtra = undefined
        if (got.kind === 'aborted') return got
        if (got.kind === 'closed') {
          closed[source] = true
          continue
        }
        return got
      }
    },
    close() {
      life.abort()
      extra.close()
      primary.close()
    },
  }
}
