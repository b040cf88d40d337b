/**
 * The stream channel over bare libp2p stream pairs (SPEC §2.1, §2.2): frames in order with their
 * length prefix, a newer stream replacing an older one, refusals of oversized frames and bad
 * length prefixes, and no deadline of its own.
 */
import { streamPair } from '@libp2p/utils'
import { describe, expect, it } from 'vitest'
import { type StreamChannel, streamChannel } from '../../src/core/net/stream-channel.js'
import { LIMITS } from '../../src/games/spaceships/protocol/messages.js'

/** SPEC §2.1, §9: the largest frame a Spaceships peer accepts. */
const MAX_FRAME_BYTES = LIMITS.frameBytes
import type { Received } from '../../src/core/session/channel.js'

const never = new AbortController().signal
const frame = (n: number, size = 16): Uint8Array => new Uint8Array(size).fill(n)

async function connected(): Promise<{ a: StreamChannel; b: StreamChannel; detached: string[] }> {
  const detached: string[] = []
  const a = streamChannel({ maxFrameBytes: MAX_FRAME_BYTES, onDetach: () => detached.push('a') })
  const b = streamChannel({ maxFrameBytes: MAX_FRAME_BYTES, onDetach: () => detached.push('b') })
  const [x, y] = await streamPair()
  a.attach(x)
  b.attach(y)
  return { a, b, detached }
}

async function next(c: StreamChannel): Promise<Received> {
  return c.receive(never)
}

describe('the stream channel (SPEC §2.1, §2.2)', () => {
  it('a new stream is announced, then frames arrive whole and in order, both ways', async () => {
    const { a, b } = await connected()
    expect(await next(a)).toEqual({ kind: 'reconnected' })
    expect(await next(b)).toEqual({ kind: 'reconnected' })
    for (let i = 0; i < 20; i++) await a.send(frame(i, 1 + i * 97))
    await b.send(frame(99, 5000))
    for (let i = 0; i < 20; i++) expect(await next(b)).toEqual({ kind: 'frame', bytes: frame(i, 1 + i * 97) })
    expect(await next(a)).toEqual({ kind: 'frame', bytes: frame(99, 5000) })
    a.close()
    b.close()
  })

  it('a newer stream replaces the older one: the old one is aborted and reading goes on from the new one', async () => {
    const { a, b } = await connected()
    await next(a)
    await next(b)
    const [x, y] = await streamPair()
    a.attach(x)
    b.attach(y)
    expect(await next(a)).toEqual({ kind: 'reconnected' })
    expect(await next(b)).toEqual({ kind: 'reconnected' })
    await a.send(frame(7))
    expect(await next(b)).toEqual({ kind: 'frame', bytes: frame(7) })
    a.close()
    b.close()
  })

  it('a frame over the limit is refused unread as malformed, and the stream dropped (a new one may come)', async () => {
    const detached: string[] = []
    const c = streamChannel({ maxFrameBytes: MAX_FRAME_BYTES, onDetach: () => detached.push('c') })
    const [x, y] = await streamPair()
    c.attach(x)
    expect(await next(c)).toEqual({ kind: 'reconnected' })
    // Only the length prefix is sent: the frame is refused before any of it is read.
    const prefix: number[] = []
    for (let n = MAX_FRAME_BYTES + 1; ; n >>>= 7) {
      if (n < 0x80) {
        prefix.push(n)
        break
      }
      prefix.push((n & 0x7f) | 0x80)
    }
    y.send(Uint8Array.from(prefix))
    expect(await next(c)).toMatchObject({ kind: 'malformed', detail: expect.stringContaining('SPEC §2.1') as string })
    expect(detached).toEqual(['c'])
    expect(c.attached).toBe(false)
    c.close()
  })

  it('a length prefix longer than four bytes is refused as malformed', async () => {
    const c = streamChannel({ maxFrameBytes: MAX_FRAME_BYTES })
    const [x, y] = await streamPair()
    c.attach(x)
    await next(c)
    y.send(Uint8Array.of(0xff, 0xff, 0xff, 0xff, 0x7f))
    expect(await next(c)).toMatchObject({ kind: 'malformed' })
    c.close()
  })

  it('sending with no stream attached drops the frame quietly (resumption resends it); a stream ending is not the end of the game', async () => {
    const { a, b, detached } = await connected()
    await next(a)
    await next(b)
    b.close()
    await b.flushed()
    // a's stream ended from the other side: only a's session deadline decides anything.
    await expect.poll(() => detached).toEqual(['a'])
    expect(a.attached).toBe(false)
    expect(a.closed).toBe(false)
    await a.send(frame(1))
    const waiting = new AbortController()
    const pending = a.receive(waiting.signal)
    waiting.abort()
    expect(await pending).toEqual({ kind: 'aborted' })
    a.close()
  })

  it('after close: receive says closed, and a stream attached later is aborted at once', async () => {
    const c = streamChannel({ maxFrameBytes: MAX_FRAME_BYTES })
    c.close()
    expect(await next(c)).toEqual({ kind: 'closed' })
    const [x] = await streamPair()
    c.attach(x)
    expect(c.attached).toBe(false)
    expect(x.status).not.toBe('open')
  })
})
