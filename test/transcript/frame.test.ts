import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { fromBase64url } from '../../src/commit/bytes.js'
import { type SealedEnvelope, decodeEnvelope, signatureValid } from '../../src/transcript/envelope.js'
import { deflateRawSync } from 'node:zlib'
import { FRAME_COMPACT, FRAME_COMPACT_DEFLATED, type FrameContext, decodeFrame, encodeFrame } from '../../src/transcript/frame.js'
import type { Role } from '../../src/transcript/messages.js'
import { playInMemory } from '../session/helpers.js'

/** What a side holds after the first `n` envelopes of a transcript (in the order it persisted them). */
function contextAfter(envelopes: readonly SealedEnvelope[], n: number): FrameContext {
  const held = envelopes.slice(0, n)
  const chain = (r: Role): SealedEnvelope[] => held.filter((s) => s.envelope.from === r)
  // The game id is known once both hellos are (SPEC §6.1).
  const bothHellos = chain('A').length > 0 && chain('B').length > 0
  const game = bothHellos ? (envelopes.find((s) => s.envelope.game !== '')?.envelope.game ?? '') : ''
  return {
    game,
    hashAt: (r, at) => chain(r)[at]?.hash,
    positionOf: (hash) => {
      const s = held.find((x) => x.hash === hash)
      return s === undefined ? undefined : s.envelope.seq
    },
  }
}

const text = (b: Uint8Array | string): string => (typeof b === 'string' ? b : new TextDecoder().decode(b))

describe('frames on a game stream (SPEC §2.1)', () => {
  let envelopes: SealedEnvelope[] = []
  let keys: Record<Role, Uint8Array>
  beforeAll(async () => {
    const g = await playInMemory('frames/honest')
    envelopes = g.a.transcript.map((l) => {
      const d = decodeEnvelope(l)
      if (!d.ok) throw new Error('honest transcript unreadable')
      return d.value
    })
    const keyOf = (r: Role): Uint8Array => {
      const hello = envelopes.find((s) => s.envelope.from === r && s.envelope.body.t === 'hello')?.envelope.body
      return fromBase64url(hello?.t === 'hello' ? hello.key : '') ?? new Uint8Array()
    }
    keys = { A: keyOf('A'), B: keyOf('B') }
  })

  it('every envelope of an honest game rebuilds to its exact line; all but the hellos travel compact, at well under half the bytes', () => {
    let full = 0
    let framed = 0
    envelopes.forEach((s, i) => {
      const ctx = contextAfter(envelopes, i)
      const frame = encodeFrame(s, ctx)
      const hello = s.envelope.body.t === 'hello'
      // Bodies of 1 KiB or more (the setup commitment, the reveal, large results) travel deflated.
      const large = Buffer.byteLength(JSON.stringify(s.envelope.body)) >= 1024
      expect(frame[0], `${i} ${s.envelope.body.t}`).toBe(hello ? 0x7b : large ? FRAME_COMPACT_DEFLATED : FRAME_COMPACT)
      if (s.envelope.body.t === 'setup') expect(frame.length).toBeLessThan(0.8 * Buffer.byteLength(s.line))
      const back = decodeFrame(frame, s.envelope.from, ctx)
      expect(back.ok).toBe(true)
      if (back.ok) expect(text(back.line)).toBe(s.line)
      if (!hello && s.envelope.body.t !== 'setup' && s.envelope.body.t !== 'reveal') {
        full += Buffer.byteLength(s.line)
        framed += frame.length
      }
    })
    expect(framed / full).toBeLessThan(0.5)
  })

  it('a compact frame changed in any byte never yields a different envelope that the sender signed', () => {
    const turnEnvelopes = envelopes.map((s, i) => [s, i] as const).filter(([s]) => s.envelope.body.t === 'results' || s.envelope.body.t === 'commit')
    fc.assert(
      fc.property(fc.constantFrom(...turnEnvelopes), fc.nat(), fc.integer({ min: 1, max: 255 }), ([s, i], where, flip) => {
        const ctx = contextAfter(envelopes, i)
        const frame = encodeFrame(s, ctx).slice()
        const at = where % frame.length
        frame[at] = (frame[at] ?? 0) ^ flip
        const back = decodeFrame(frame, s.envelope.from, ctx)
        if (!back.ok) return
        const d = decodeEnvelope(back.line)
        if (!d.ok) return
        // A rebuilt line either is the original or fails the sender's signature.
        if (d.value.line !== s.line) expect(signatureValid(d.value.envelope, keys[s.envelope.from])).toBe(false)
      }),
      { numRuns: 1500 },
    )
  })

  it('hostile frames are refused with a coded error naming the rule, and never throw', () => {
    const ctx = contextAfter(envelopes, 6)
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.constantFrom<Role>('A', 'B'), (bytes, sender) => {
        const r = decodeFrame(bytes, sender, ctx)
        if (!r.ok) expect(['wire.frame', 'wire.utf8']).toContain(r.error.code)
      }),
      { numRuns: 2000 },
    )
    const cases: [Uint8Array, RegExp][] = [
      [new Uint8Array(), /empty/],
      [Uint8Array.of(0x03, 1, 0), /unknown frame form 0x03/],
      [Uint8Array.of(FRAME_COMPACT, 0x81, 0x00, 0), /not minimal/],
      [Uint8Array.of(FRAME_COMPACT, 0x80, 0x80, 0x80, 0x80, 0x01), /longer than 4 bytes/],
      [Uint8Array.of(FRAME_COMPACT, 2, 99), /ack names envelope 98 of/],
      [Uint8Array.of(FRAME_COMPACT, 90, 0), /does not hold/],
      [Uint8Array.of(FRAME_COMPACT, 2, 0, 1, 2, 3), /inside the signature/],
    ]
    for (const [bytes, message] of cases) {
      const r = decodeFrame(bytes, 'B', ctx)
      expect(r.ok).toBe(false)
      if (!r.ok) {
        expect(r.error).toMatchObject({ code: 'wire.frame', rule: '§2.1' })
        expect(r.error.message).toMatch(message)
      }
    }
    // A deflate bomb: 3 KB that would inflate to 2 MiB, past the 1 MiB envelope limit (SPEC §8).
    const bomb = decodeFrame(new Uint8Array([FRAME_COMPACT_DEFLATED, 2, 0, ...new Uint8Array(64), ...deflateRawSync(new Uint8Array(2 << 20))]), 'B', ctx)
    expect(!bomb.ok && bomb.error).toMatchObject({ code: 'wire.frame', rule: '§2.1' })
    const early = decodeFrame(Uint8Array.of(FRAME_COMPACT, 1, 0), 'B', contextAfter(envelopes, 1))
    expect(!early.ok && early.error.message).toMatch(/before the game id is known/)
  })
})
