/**
 * The abstract message channel a session runs over (DESIGN.md §4): ordered, reliable while it
 * lasts, carrying whole envelopes. In memory for tests; a libp2p stream in production.
 */
/**
 * What a receive yields: a message; `timeout` after the deadline; `closed` once the other end has
 * finished; `reconnected` after a new underlying connection (the receiver then retransmits what
 * the peer has not acknowledged, SPEC §2.2); or `malformed` bytes that are not even a frame.
 */
export type Received = Uint8Array | 'timeout' | 'closed' | 'reconnected' | { readonly malformed: string }

export interface Channel {
  send(message: Uint8Array): Promise<void>
  /** The next message, or `timeout` after `timeoutMs`, or `closed` once the other end has gone. */
  receive(timeoutMs: number): Promise<Received>
  close(): void
}

/** Two connected in-memory channel ends. */
export function memoryChannelPair(): [Channel, Channel] {
  const queues: [Uint8Array[], Uint8Array[]] = [[], []]
  const waiters: [((r: Received) => void) | undefined, ((r: Received) => void) | undefined] = [undefined, undefined]
  const closed = [false, false]
  const end = (me: 0 | 1): Channel => {
    const peer = me === 0 ? 1 : 0
    return {
      send(message) {
        if (closed[me] || closed[peer]) return Promise.resolve()
        const w = waiters[peer]
        if (w !== undefined) {
          waiters[peer] = undefined
          w(message)
        } else queues[peer].push(message)
        return Promise.resolve()
      },
      receive(timeoutMs) {
        const next = queues[me].shift()
        if (next !== undefined) return Promise.resolve(next)
        if (closed[me] || closed[peer]) return Promise.resolve('closed')
        return new Promise<Received>((resolve) => {
          const timer = setTimeout(() => {
            waiters[me] = undefined
            resolve('timeout')
          }, timeoutMs)
          waiters[me] = (r) => {
            clearTimeout(timer)
            resolve(r)
          }
        })
      },
      close() {
        closed[me] = true
        for (const k of [0, 1] as const) {
          const w = waiters[k]
          waiters[k] = undefined
          w?.('closed')
        }
      },
    }
  }
  return [end(0), end(1)]
}
