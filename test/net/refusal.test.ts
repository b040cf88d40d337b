/**
 * SPEC §2.2, §2.3: how a joiner paces its dials and when it stops dialling a game its host no
 * longer serves; the refusal frame's bytes; and the CLI's limit on repeated lines. Time is a
 * VirtualClock (or a plain number), so nothing here sleeps.
 */
import { describe, expect, it } from 'vitest'
import { LineLimiter, REPEAT_LINE_MS } from '../../src/cli/io.js'
import { seededSecrets } from '../../src/core/commit/secrets.js'
import {
  DialPacer,
  type NetEvent,
  NotServedError,
  REFUSALS_BEFORE_GIVING_UP,
  encodeRefusal,
  hostGame,
  joinGame,
  refusalOf,
} from '../../src/games/spaceships/net/game.js'
import { VirtualClock } from '../../src/core/session/clock.js'
import { memoryStore } from '../../src/games/spaceships/protocol/file.js'
import { LOOPBACK, NET_TERMS, bot, testIdentity } from './helpers.js'

/** Whether `p` has settled after every ready continuation has run (no time passes on the virtual clock). */
async function settled(p: Promise<unknown>): Promise<boolean> {
  let done = false
  void p.then(() => (done = true))
  for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r))
  return done
}

describe('the refusal frame (SPEC §2.3)', () => {
  it('is control kind 5 with its text; on the wire exactly the bytes SPEC §2.3 states', () => {
    const frame = encodeRefusal()
    const wire = Buffer.concat([Buffer.of(frame.length), frame])
      .toString('hex')
      .replace(/(..)(?!$)/g, '$1 ')
    expect(wire).toBe('1e 04 05 6e 6f 20 67 61 6d 65 20 68 65 72 65 20 66 6f 72 20 74 68 69 73 20 69 6e 76 69 74 65')
    expect(refusalOf(frame)).toBe('no game here for this invite')
  })

  it('is told from every other frame, and its text is shown only when printable ASCII', () => {
    expect(refusalOf(Uint8Array.of(0x03, 0, 2))).toBeUndefined()
    expect(refusalOf(Uint8Array.of(0x04, 0x01, 0x68, 0x69))).toBeUndefined()
    expect(refusalOf(Uint8Array.of(0x04))).toBeUndefined()
    expect(refusalOf(Uint8Array.of(0x04, 0x05))).toBe('')
    expect(refusalOf(encodeRefusal('over \u202e here'))).toBe('')
    expect(refusalOf(Uint8Array.of(0x04, 0x05, 0xff, 0x1b))).toBe('')
  })
})

describe("DialPacer: the joiner's waits between dials (SPEC §2.2, §2.3)", () => {
  it('a failed dial backs off from 250 ms, doubling to 5 s; an admitted stream starts it again and its loss is redialled at once', () => {
    const clock = new VirtualClock()
    const pacer = new DialPacer(clock)
    expect(pacer.waitLeft()).toBe(0)
    expect([1, 2, 3, 4, 5, 6, 7].map(() => pacer.failed())).toEqual([250, 500, 1000, 2000, 4000, 5000, 5000])
    pacer.admitted()
    expect(pacer.waitLeft()).toBe(0)
    expect(pacer.failed()).toBe(250)
  })

  it('a refused stream backs off from 1 s, doubling to 30 s, never past a quarter of the time left nor under 250 ms', () => {
    const clock = new VirtualClock()
    let left: number | undefined
    const pacer = new DialPacer(clock, () => left)
    // The waits it would keep to, were it not to give up after the third (the count is separate).
    const waits: number[] = []
    for (let i = 0; i < 7; i++) waits.push(pacer.refusedStream())
    expect(waits).toEqual([1000, 2000, 4000, 8000, 16_000, 30_000, 30_000])
    // A frame of the game starts the doubling again.
    pacer.served()
    expect(pacer.refusedStream()).toBe(1000)
    left = 2000
    const near = new DialPacer(clock, () => left)
    expect(near.refusedStream()).toBe(500)
    left = 100
    expect(near.refusedStream()).toBe(250)
  })

  it(`gives up after ${REFUSALS_BEFORE_GIVING_UP} refusals in a row; a frame of the game in between starts the count again`, () => {
    const pacer = new DialPacer(new VirtualClock())
    pacer.refusedStream()
    pacer.refusedStream()
    expect(pacer.gaveUp).toBe(false)
    pacer.served()
    pacer.refusedStream()
    pacer.refusedStream()
    expect(pacer.gaveUp).toBe(false)
    // Admitted by time alone is no proof the game is served: the count goes on.
    pacer.admitted()
    pacer.refusedStream()
    expect(pacer.gaveUp).toBe(true)
    expect(pacer.refused).toBe(3)
  })

  it('ready() lets the next dial start only when the wait is over, and a refusal noticed meanwhile pushes it back', async () => {
    const clock = new VirtualClock()
    const pacer = new DialPacer(clock)
    expect(await settled(pacer.ready())).toBe(true)
    // The stream ended before admission (a wait of 250 ms); 200 ms later its refusal is read (1 s from then).
    pacer.failed()
    const ready = pacer.ready()
    clock.advance(200)
    pacer.refusedStream()
    clock.advance(100)
    expect(await settled(ready)).toBe(false)
    clock.advance(899)
    expect(await settled(ready)).toBe(false)
    clock.advance(1)
    expect(await settled(ready)).toBe(true)
    // An aborted wait ends at once.
    pacer.refusedStream()
    const stop = new AbortController()
    const aborted = pacer.ready(stop.signal)
    stop.abort()
    expect(await settled(aborted)).toBe(true)
  })
})

describe("LineLimiter: a repeated condition is said at most once per 5 s (the CLI's event lines)", () => {
  it('holds back repeats within the period and counts them in the next line; kinds are independent', () => {
    let now = 0
    const limit = new LineLimiter(REPEAT_LINE_MS, () => now)
    expect(limit.take('lost')).toBe(0)
    expect(limit.take('restored')).toBe(0)
    now = 4999
    expect(limit.take('lost')).toBeUndefined()
    expect(limit.take('lost')).toBeUndefined()
    now = 5000
    expect(limit.take('lost')).toBe(2)
    expect(limit.take('restored')).toBe(0)
    now = 20_000
    expect(limit.take('lost')).toBe(0)
  })

  it('a flood of 7,174 lines of one kind in 12 s comes out as at most 3', () => {
    let now = 0
    const limit = new LineLimiter(REPEAT_LINE_MS, () => now)
    let said = 0
    for (let i = 0; i < 7174; i++) {
      now = Math.floor((i * 12_000) / 7174)
      if (limit.take('lost') !== undefined) said++
    }
    expect(said).toBe(3)
  })
})

describe('a joiner the host refuses (SPEC §2.3)', () => {
  it(`stops after ${REFUSALS_BEFORE_GIVING_UP} refused streams with NotServedError, having signed nothing (B before the hello); the host saw each refusal once`, async () => {
    const identity = await testIdentity('refused/host')
    const hostEvents: NetEvent[] = []
    const stop = new AbortController()
    let ready: (addrs: string[]) => void = () => undefined
    const listening = new Promise<string[]>((r) => (ready = r))
    const hosted = hostGame({
      identity,
      secrets: seededSecrets('refused/A'),
      store: memoryStore(),
      strategy: bot('refused/A'),
      listen: LOOPBACK,
      inviteId: '11111111111111111111111111111111',
      terms: NET_TERMS,
      waitMs: 30_000,
      signal: stop.signal,
      onEvent: (e) => hostEvents.push(e),
      onReady: (node) => {
        ready(node.getMultiaddrs().map(String))
      },
    })
    hosted.catch(() => undefined)
    const addrs = await listening
    const joinEvents: NetEvent[] = []
    const store = memoryStore()
    const started = Date.now()
    const joined = joinGame({
      identity: await testIdentity('refused/join'),
      secrets: seededSecrets('refused/B'),
      store,
      strategy: bot('refused/B'),
      listen: [],
      invite: { id: '22222222222222222222222222222222', peer: identity.peerId.toString(), addrs, terms: NET_TERMS },
      onEvent: (e) => joinEvents.push(e),
    })
    const error = await joined.then(
      () => undefined,
      (e: unknown) => e,
    )
    stop.abort()
    expect(error).toBeInstanceOf(NotServedError)
    expect((error as NotServedError).message).toBe(
      'the other side no longer serves this game (it refused our invite 3 times, saying "no game here for this invite")',
    )
    // Waits of 1 s and 2 s between the three streams: neither at once nor for long.
    expect(Date.now() - started).toBeGreaterThanOrEqual(3000)
    expect(Date.now() - started).toBeLessThan(15_000)
    expect(store.envelopes()).toHaveLength(0)
    // A refused stream is never reported as a connection.
    expect(joinEvents.filter((e) => e.kind === 'connected' || e.kind === 'disconnected')).toEqual([])
    expect(hostEvents.flatMap((e) => (e.kind === 'refused' ? [e.why] : []))).toEqual([
      'presented the wrong invite',
      'presented the wrong invite',
      'presented the wrong invite',
    ])
  }, 30_000)
})
