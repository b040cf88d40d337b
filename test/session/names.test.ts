/**
 * SPEC §2.4 kind 6, PROTOCOL-4.md §9: each side's name travels once per stream, after the resume
 * frame, on version 4 streams only (a version 3 node of package 0.4 would stop the game on it);
 * it reaches the other side as a `name` event and never a transcript. A name that breaks the rule,
 * a second one on a stream, or one on a version 3 stream is dropped, and the game is unchanged.
 */
import { describe, expect, it } from 'vitest'
import type { MemoryPair } from '../../src/core/session/channel.js'
import { FRAME, encodeControl } from '../../src/games/spaceships/protocol/frame.js'
import type { SessionEvent } from '../../src/games/spaceships/session/session.js'
import { playInMemory } from './helpers.js'

const isName = (f: Uint8Array): boolean => f[0] === FRAME.control && f[1] === 6
const names = (events: readonly SessionEvent[]): string[] => events.flatMap((e) => (e.kind === 'name' ? [e.name] : []))
const ignored = (events: readonly SessionEvent[]): string[] =>
  events.flatMap((e) => (e.kind === 'ignored' ? [e.detail] : []))

describe('names over a session (SPEC §2.4 kind 6)', () => {
  it('version 4: each side sends its name once per stream, right after its resume frame; neither transcript holds it', async () => {
    const plain = await playInMemory('names/v4', { version: 4 })
    let sent: readonly (readonly Uint8Array[])[] = [[], []]
    let link: MemoryPair | undefined
    const named = await playInMemory('names/v4', {
      version: 4,
      names: ['alice', 'Bob the Builder'],
      // A stream at the start, and a new one once A has sent its fifth frame (mid-game).
      fault: (_f, from, index) => (from === 0 && index === 5 && queueMicrotask(() => link?.reconnect()), 'deliver'),
      onLink: (pair) => {
        link = pair
        sent = pair.sent
        pair.reconnect()
      },
    })
    expect(names(named.events[0])).toEqual(['Bob the Builder', 'Bob the Builder'])
    expect(names(named.events[1])).toEqual(['alice', 'alice'])
    for (const [k, name] of [
      [0, 'alice'],
      [1, 'Bob the Builder'],
    ] as const) {
      const frames = sent[k] ?? []
      const at = frames.flatMap((f, i) => (isName(f) ? [i] : []))
      expect(at).toHaveLength(2)
      for (const i of at) {
        expect(frames[i - 1]?.[0]).toBe(FRAME.resume)
        expect(frames[i]).toEqual(encodeControl('name', name))
      }
    }
    // Conversation, not evidence: the game and both transcripts are those of the game without names.
    expect(named.a.verdict).toEqual(plain.a.verdict)
    expect(named.a.transcript).toEqual(plain.a.transcript)
    expect(named.b.transcript).toEqual(plain.b.transcript)
  })

  it('version 3: no name frame is ever sent, on any stream', async () => {
    let sent: readonly (readonly Uint8Array[])[] = [[], []]
    const g = await playInMemory('names/v3', {
      version: 3,
      names: ['alice', 'bob'],
      onLink: (pair) => {
        sent = pair.sent
        pair.reconnect()
      },
    })
    expect(g.a.verdict.status).toBe('complete')
    expect(sent[0]?.some((f) => f[0] === FRAME.resume)).toBe(true)
    expect([...(sent[0] ?? []), ...(sent[1] ?? [])].filter(isName)).toEqual([])
    expect(names(g.events[0])).toEqual([])
  })

  it('hostile names are dropped and noted: bytes outside printable ASCII, a second name on a stream; the game is as without them', async () => {
    const plain = await playInMemory('names/hostile', { version: 4 })
    let link: MemoryPair | undefined
    const hostile = await playInMemory('names/hostile', {
      version: 4,
      // A new stream once A has sent its fifth frame: there, one name and fifty more.
      fault: (_f, from, index) => {
        if (from === 0 && index === 5)
          queueMicrotask(() => {
            link?.reconnect()
            link?.inject(0, encodeControl('name', 'eve'))
            for (let i = 0; i < 50; i++) link?.inject(0, encodeControl('name', `eve ${i}`))
          })
        return 'deliver'
      },
      onLink: (pair) => {
        link = pair
        pair.inject(0, Uint8Array.from([FRAME.control, 6, 0x1b, 0x5b, 0x32, 0x4a]))
        pair.inject(0, encodeControl('name', 'mallory'))
      },
    })
    expect(ignored(hostile.events[0])).toEqual([
      'a name, dropped: field.text at name (SPEC §2.4): a name is printable ASCII; byte 0 is 0x1b',
    ])
    expect(names(hostile.events[0])).toEqual(['eve'])
    expect(hostile.a.verdict).toEqual(plain.a.verdict)
    expect(hostile.a.transcript).toEqual(plain.a.transcript)
  })

  it('a name on a version 3 stream is dropped and noted (version 3 has no kind 6)', async () => {
    const g = await playInMemory('names/v3-hostile', {
      version: 3,
      onLink: (pair) => {
        pair.inject(0, encodeControl('name', 'alice'))
      },
    })
    expect(names(g.events[0])).toEqual([])
    expect(ignored(g.events[0])).toEqual(['a name frame on a version 3 stream (SPEC §2.4)'])
    expect(g.a.verdict.status).toBe('complete')
  })
})
