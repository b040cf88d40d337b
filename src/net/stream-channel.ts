/**
 * A session channel over libp2p streams (protocol/SPEC.md §2.1, §2.2): each message is one envelope line
 * in an unsigned-varint length-prefixed frame of at most `LIMITS.envelopeBytes` bytes.
 *
 * The channel outlives any one stream. When a connection drops, the channel waits for the next
 * stream of the same game (the dialer redials; the listener accepts it) and tells the session
 * `reconnected`, and the session retransmits what the peer has not acknowledged (SPEC §2.2).
 * Messages sent while no stream is attached are dropped for that reason: they are in the
 * transcript and go out again on the next stream. Only the session's deadlines decide that a peer
 * has gone for good.
 */
import type { Stream } from '@libp2p/interface'
import { lpStream } from '@libp2p/utils'
import type { Channel, Received } from '../session/channel.js'
import { LIMITS } from '../transcript/messages.js'

/** SPEC §2.1: the largest frame a peer accepts (the largest envelope line). */
export const MAX_FRAME_BYTES = LIMITS.envelopeBytes
/** SPEC §2.1: a longer varint length prefix is refused unread. */
export const MAX_LENGTH_PREFIX_BYTES = 4

export interface StreamChannel extends Channel {
  /** Uses `stream` from now on (a newer stream replaces an older one). */
  attach(stream: Stream): void
  readonly attached: boolean
  readonly closed: boolean
  /** After `close`: resolves once the last frames are flushed and the stream's write side closed. */
  flushed(): Promise<void>
}

export interface StreamChannelOptions {
  /** Called when the current stream ends without the peer finishing (the dialer redials). */
  readonly onDetach?: () => void
}

type Waiter = (r: Received) => void

export function streamChannel(options: StreamChannelOptions = {}): StreamChannel {
  const queue: Received[] = []
  let waiter: Waiter | undefined
  let current: { stream: Stream; lp: ReturnType<typeof lpStream<Stream>> } | undefined
  let closed = false
  let reconnectPending = false
  let closing: Promise<void> = Promise.resolve()

  const deliver = (r: Received): void => {
    const w = waiter
    if (w !== undefined) {
      waiter = undefined
      w(r)
    } else queue.push(r)
  }

  const readLoop = async (stream: Stream, lp: ReturnType<typeof lpStream<Stream>>): Promise<void> => {
    for (;;) {
      let frame: Uint8Array
      try {
        frame = (await lp.read()).subarray()
      } catch (e) {
        if (current?.stream !== stream || closed) return
        const name = (e as Error).name
        if (name === 'InvalidDataLengthError' || name === 'InvalidDataLengthLengthError' || name === 'InvalidMessageLengthError') {
          deliver({ malformed: `a frame over ${MAX_FRAME_BYTES} bytes or with a bad length prefix (SPEC §2.1)` })
          return
        }
        // However the stream ended (a crash, a dropped link, a peer that stopped), only the
        // session's deadline decides that the peer has gone for good (SPEC §2.2): a peer that
        // finished properly has sent its verdict, after which nothing more is read.
        current = undefined
        options.onDetach?.()
        return
      }
      if (current?.stream !== stream) return
      deliver(frame)
    }
  }

  return {
    get attached() {
      return current !== undefined
    },
    get closed() {
      return closed
    },
    attach(stream) {
      if (closed) {
        stream.abort(new Error('the game is over'))
        return
      }
      const previous = current
      const lp = lpStream(stream, { maxDataLength: MAX_FRAME_BYTES, maxLengthLength: MAX_LENGTH_PREFIX_BYTES })
      current = { stream, lp }
      if (previous !== undefined) previous.stream.abort(new Error('replaced by a newer stream'))
      reconnectPending = true
      if (waiter !== undefined) {
        reconnectPending = false
        deliver('reconnected')
      }
      void readLoop(stream, lp)
    },
    async send(message) {
      const c = current
      if (c === undefined || closed) return
      try {
        await c.lp.write(message)
      } catch {
        // The stream died under us; the message goes out again after the reconnection.
      }
    },
    receive(timeoutMs) {
      if (reconnectPending) {
        reconnectPending = false
        return Promise.resolve('reconnected')
      }
      const next = queue.shift()
      if (next !== undefined) return Promise.resolve(next)
      if (closed) return Promise.resolve('closed')
      return new Promise<Received>((resolve) => {
        const timer = setTimeout(() => {
          waiter = undefined
          resolve('timeout')
        }, timeoutMs)
        waiter = (r) => {
          clearTimeout(timer)
          resolve(r)
        }
      })
    },
    flushed: () => closing,
    close() {
      if (closed) return
      closed = true
      const c = current
      current = undefined
      if (c !== undefined)
        closing = c.stream.close().catch(() => {
          c.stream.abort(new Error('closing'))
        })
      const w = waiter
      waiter = undefined
      w?.('closed')
    },
  }
}
