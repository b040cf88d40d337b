/**
 * A session channel over libp2p streams (protocol/SPEC.md §2.1, §2.2): each frame travels with an
 * unsigned-varint length prefix, at most the game protocol's frame limit (`maxFrameBytes`).
 *
 * The channel outlives any one stream. When a stream ends, the channel waits for the next one of
 * the same game (the joiner redials; the host accepts it) and tells the session `reconnected`; the
 * session then sends a resume frame and resends what the peer lacks (SPEC §2.2). A frame sent while
 * no stream is attached is dropped for that reason. Only the session's deadlines decide that a
 * peer has gone for good.
 */
import type { Stream } from '@libp2p/interface'
import { lpStream } from '@libp2p/utils'
import { type Channel, Inbox } from '../session/channel.js'

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
  /** The largest frame read or written (a game protocol's limit, e.g. SPEC §2.1, §9 `frameBytes`). */
  readonly maxFrameBytes: number
  /** Called when the current stream ends without the channel being closed (the joiner redials). */
  readonly onDetach?: () => void
}

export function streamChannel(options: StreamChannelOptions): StreamChannel {
  const inbox = new Inbox()
  let current: { stream: Stream; lp: ReturnType<typeof lpStream<Stream>> } | undefined
  let closed = false
  let closing: Promise<void> = Promise.resolve()
  const deliver: Inbox['push'] = (r) => {
    inbox.push(r)
  }

  const readLoop = async (stream: Stream, lp: ReturnType<typeof lpStream<Stream>>): Promise<void> => {
    for (;;) {
      let frame: Uint8Array
      try {
        frame = (await lp.read()).subarray()
      } catch (e) {
        if (current?.stream !== stream || closed) return
        const name = (e as Error).name
        if (
          name === 'InvalidDataLengthError' ||
          name === 'InvalidDataLengthLengthError' ||
          name === 'InvalidMessageLengthError'
        ) {
          // The stream cannot be read past a bad length prefix: report it, drop the stream, and let a new one come.
          deliver({
            kind: 'malformed',
            detail: `a frame over ${options.maxFrameBytes} bytes or with a bad length prefix (SPEC §2.1)`,
          })
          stream.abort(new Error('malformed frame'))
        }
        // However the stream ended, only the session's deadline decides that the peer is gone (SPEC §2.2).
        current = undefined
        options.onDetach?.()
        return
      }
      if (current?.stream !== stream) return
      deliver({ kind: 'frame', bytes: frame })
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
      const lp = lpStream(stream, { maxDataLength: options.maxFrameBytes, maxLengthLength: MAX_LENGTH_PREFIX_BYTES })
      current = { stream, lp }
      if (previous !== undefined) previous.stream.abort(new Error('replaced by a newer stream'))
      deliver({ kind: 'reconnected' })
      void readLoop(stream, lp)
    },
    async send(frame) {
      const c = current
      if (c === undefined || closed) return
      try {
        await c.lp.write(frame)
      } catch {
        // The stream died under us; resumption resends what the peer lacks (SPEC §2.2).
      }
    },
    receive: (signal) => inbox.receive(signal),
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
      inbox.close()
    },
  }
}
