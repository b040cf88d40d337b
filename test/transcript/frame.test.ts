import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { toBase64url } from '../../src/core/commit/bytes.js'
import { type SealedEnvelope, decodeEnvelope, signatureValid } from '../../src/games/spaceships/protocol/envelope.js'
import {
  FRAME,
  type FrameContext,
  decodeFrame,
  encodeControl,
  encodeEnvelopeFrame,
  encodeResume,
} from '../../src/games/spaceships/protocol/frame.js'
import { LIMITS, type Role } from '../../src/games/spaceships/protocol/messages.js'
import { deflateRawSync } from 'node:zlib'
import { TERMS, playInMemory } from '../session/helpers.js'

let chains: Record<Role, SealedEnvelope[]>
let ctx: FrameContext
let game: Uint8Array

beforeAll(async () => {
  const g = await playInMemory('frames/1', { terms: { ...TERMS, maxTurns: 20 } })
  chains = { A: [], B: [] }
  for (const b of g.a.transcript) {
    const d = decodeEnvelope(b)
    if (d.ok) chains[d.value.envelope.sender].push(d.value)
  }
  game = chains.A[1]?.envelope.game ?? new Uint8Array(32)
  const position = new Map<string, number>()
  for (const r of ['A', 'B'] as const) chains[r].forEach((s, i) => position.set(s.id, i))
  ctx = {
    version: chains.A[0]?.envelope.version ?? 4,
    game,
    hashAt: (role, seq) => chains[role][seq]?.hash,
    positionOf: (id) => position.get(id),
  }
})

const keyOf = (r: Role): Uint8Array => {
  const h = chains[r][0]?.envelope.parts[0]
  return h?.t === 'hello' ? h.key : new Uint8Array(32)
}

describe('frames on a game stream (SPEC §2.1)', () => {
  it('every envelope of a game rebuilds from its frame to its exact bytes; all but the hellos travel compact', () => {
    let full = 0
    let framed = 0
    for (const r of ['A', 'B'] as const) {
      for (const s of chains[r]) {
        const f = encodeEnvelopeFrame(s, ctx)
        if (s.envelope.seq === 0) expect(f[0]).toBe(FRAME.full)
        else expect([FRAME.compact, FRAME.deflated]).toContain(f[0])
        const d = decodeFrame(f, r, ctx)
        expect(d.ok && d.value.kind === 'envelope' ? toBase64url(d.value.bytes) : 'fail').toBe(toBase64url(s.bytes))
        full += s.bytes.length
        framed += f.length
      }
    }
    // game, prev and ack are 96 bytes an envelope the receiver holds already.
    expect(framed).toBeLessThan(full * 0.85)
  })

  it('a compact frame changed in any byte never yields a different envelope that its sender signed', () => {
    const list = chains.B.slice(1)
    fc.assert(
      fc.property(fc.nat(list.length - 1), fc.nat(), fc.integer({ min: 1, max: 255 }), (which, at, flip) => {
        const s = list[which] as SealedEnvelope
        const f = encodeEnvelopeFrame(s, ctx)
        const i = at % f.length
        f[i] = (f[i] ?? 0) ^ flip
        const d = decodeFrame(f, 'B', ctx)
        if (!d.ok || d.value.kind !== 'envelope') return
        const e = decodeEnvelope(d.value.bytes)
        if (e.ok && e.value.id !== s.id) expect(signatureValid(e.value, keyOf('B'))).toBe(false)
      }),
      { numRuns: 1500 },
    )
  })

  it('hostile frames are refused with a coded error naming the rule, and never throw', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 200 }), fc.constantFrom<Role>('A', 'B'), (bytes, sender) => {
        const d = decodeFrame(bytes, sender, ctx)
        if (!d.ok) expect(d.error.code).toMatch(/^wire\./)
      }),
      { numRuns: 2000 },
    )
    const bad = (bytes: Uint8Array, c: FrameContext = ctx): string => {
      const d = decodeFrame(bytes, 'A', c)
      return d.ok ? 'ok' : d.error.message
    }
    expect(bad(new Uint8Array())).toBe('an empty frame')
    expect(bad(Uint8Array.of(0x09))).toContain('unknown frame form')
    expect(bad(Uint8Array.of(FRAME.compact, 0, 1, 0x80, 0x80, 0x80, 0x80, 0x01))).toContain('varint longer')
    expect(bad(Uint8Array.of(FRAME.compact, 0, 1, 0x81, 0x00))).toContain('not minimal')
    expect(bad(Uint8Array.of(FRAME.compact, 0, 1, 1), { ...ctx, game: undefined })).toContain('before the game id')
    expect(bad(Uint8Array.of(FRAME.compact, 0x0f, 0xff, 1))).toContain('does not hold')
    expect(bad(Uint8Array.of(FRAME.control))).toContain('without its kind')
    // SPEC §2.4: a kind this side does not know is not malformed: it is ignored, whatever its text.
    expect(decodeFrame(Uint8Array.of(FRAME.control, 9, 0x07), 'A', ctx)).toEqual({
      ok: true,
      value: { kind: 'unknown-control', code: 9 },
    })
    // SPEC §2.4: a known kind whose text breaks the rules is dropped with a coded error, never
    // malformed (§2.1 would have the side waiting for its peer stop the game over a line of chat).
    const dropped = (bytes: number[]): string => {
      const d = decodeFrame(Uint8Array.from([FRAME.control, ...bytes]), 'A', ctx)
      if (!d.ok || d.value.kind !== 'bad-control') return `not dropped: ${JSON.stringify(d)}`
      return `${d.value.control} ${d.value.error.code} ${d.value.error.message}`
    }
    expect(dropped([1, 0x07])).toBe('chat field.text control text holds control characters')
    expect(dropped([1, 0xc3])).toBe('chat field.text control text is not UTF-8')
    expect(dropped([1, ...new Array<number>(281).fill(0x61)])).toBe('chat field.length control text over 280 bytes')
    expect(dropped([2, 0x61])).toBe('rematch-offer field.text only chat frames carry text')
  })

  it('a deflated frame inflating past the largest envelope is refused (a deflate bomb, SPEC §2.1)', () => {
    const bomb = deflateRawSync(new Uint8Array(LIMITS.revealEnvelopeBytes + 10))
    const f = new Uint8Array([FRAME.deflated, 0, 1, 1, ...new Uint8Array(64), ...bomb])
    const d = decodeFrame(f, 'A', ctx)
    expect(d.ok ? 'ok' : d.error.message).toContain('raw DEFLATE data of at most')
  })

  it('resume and control frames round-trip (SPEC §2.2, §2.4)', () => {
    const r = decodeFrame(encodeResume(300), 'A', ctx)
    expect(r.ok && r.value).toEqual({ kind: 'resume', held: 300 })
    const c = decodeFrame(encodeControl('chat', 'good game ☺'), 'B', ctx)
    expect(c.ok && c.value).toEqual({ kind: 'control', control: 'chat', text: 'good game ☺' })
    expect(() => encodeControl('chat', 'x'.repeat(281))).toThrow()
  })
})
