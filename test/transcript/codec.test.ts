import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeEnvelopeBytes, encodeUnsigned } from '../../src/games/spaceships/protocol/codec.js'
import { LIMITS } from '../../src/games/spaceships/protocol/messages.js'
import { envelopeBytes, unsigned } from './arbitraries.js'

const sig = new Uint8Array(64).fill(3)
const hex = (b: Uint8Array): string => Buffer.from(b).toString('hex')

describe('the binary codec (SPEC §3, §5.1, §7)', () => {
  it('every envelope decodes to itself and re-encodes to the same bytes', () => {
    fc.assert(
      fc.property(unsigned, (u) => {
        const b = envelopeBytes(u, sig)
        const d = decodeEnvelopeBytes(b)
        expect(d.ok, d.ok ? '' : JSON.stringify(d.error)).toBe(true)
        if (!d.ok) return
        expect(d.value.parts).toEqual(u.parts)
        expect(hex(new Uint8Array([...encodeUnsigned(d.value), ...d.value.sig]))).toBe(hex(b))
      }),
      { numRuns: 400 },
    )
  })

  it('one value, one encoding: bytes changed anywhere either fail to decode or decode to a value that encodes to exactly those bytes', () => {
    fc.assert(
      fc.property(unsigned, fc.nat(), fc.integer({ min: 1, max: 255 }), (u, at, flip) => {
        const b = envelopeBytes(u, sig)
        const i = at % (b.length - 64)
        b[i] = (b[i] ?? 0) ^ flip
        const d = decodeEnvelopeBytes(b)
        if (d.ok) expect(hex(new Uint8Array([...encodeUnsigned(d.value), ...d.value.sig]))).toBe(hex(b))
      }),
      { numRuns: 2000 },
    )
  })

  it('hostile bytes never throw: every failure is a coded error naming a field and a section', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 300 }),
          unsigned.chain((u) => fc.nat().map((cut) => envelopeBytes(u, sig).subarray(0, cut % 400))),
        ),
        (b) => {
          const d = decodeEnvelopeBytes(b)
          if (!d.ok) {
            expect(d.error.code).toMatch(/^(wire|field)\./)
            expect(d.error.rule).toMatch(/^§/)
          }
        },
      ),
      { numRuns: 2000 },
    )
  })

  it('names the field and rule of each kind of malformation (SPEC §10)', () => {
    const base = {
      sender: 'A' as const,
      seq: 3,
      game: new Uint8Array(32),
      prev: new Uint8Array(32),
      ack: new Uint8Array(32),
    }
    const enc = (parts: Parameters<typeof encodeUnsigned>[0]['parts']): Uint8Array =>
      envelopeBytes({ ...base, parts }, sig)
    const err = (b: Uint8Array): string => {
      const d = decodeEnvelopeBytes(b)
      return d.ok ? 'ok' : `${d.error.code} ${d.error.field} ${d.error.rule}`
    }
    // A cell index past 124.
    const aspects = enc([{ t: 'aspects', turn: 1, idle: false, beams: [], strikes: ['Rv1'], scans: [], kamikaze: [] }])
    const at = aspects.length - 64 - 3
    aspects[at] = 200
    expect(err(aspects)).toBe('field.range parts[0].strikes[0] §7.5')
    // Trailing bytes after the parts.
    const trailing = enc([{ t: 'commit', turn: 1, record: new Uint8Array(32) }])
    expect(err(new Uint8Array([...trailing.subarray(0, trailing.length - 64), 0, ...sig]))).toBe(
      'wire.trailing parts §5.1',
    )
    // Text outside printable ASCII.
    const stop = enc([{ t: 'stop', reason: 'claim', detail: 'ab' }])
    stop[stop.length - 64 - 1] = 0x0a
    expect(err(stop)).toBe('field.text parts[0].detail §7.9')
    // Report cells out of order.
    const results = enc([
      {
        t: 'results',
        turn: 1,
        fleetDestroyed: false,
        beams: [],
        strikes: [],
        scans: [],
        destroyed: [
          {
            type: 'HS',
            id: 1,
            cells: [
              { cell: 'Rv1', salt: new Uint8Array(16) },
              { cell: 'Rv2', salt: new Uint8Array(16) },
            ],
          },
        ],
      },
    ])
    // The first report cell: before the second cell and its salt (1 + 16 bytes each), then the signature.
    const first = results.length - 64 - 2 * 17
    results[first] = 9
    expect(err(results)).toBe('field.order parts[0].destroyed[0].cells[1] §7.6')
    // An unknown version and an unknown part type.
    const v = enc([{ t: 'stop', reason: 'claim', detail: '' }])
    v[0] = 1
    expect(err(v)).toBe('wire.version version §5.1')
  })

  it('a salt of any length but 16 bytes is refused by the encoder, so a side never signs bytes that do not decode (SPEC §4.1, §7.6, §7.7)', () => {
    const base = {
      sender: 'B' as const,
      seq: 3,
      game: new Uint8Array(32),
      prev: new Uint8Array(32),
      ack: new Uint8Array(32),
    }
    for (const n of [0, 15, 17, 32]) {
      const salt = new Uint8Array(n)
      const parts = [
        {
          t: 'results' as const,
          turn: 1,
          fleetDestroyed: false,
          beams: [],
          strikes: [{ result: 'miss' as const, salt, explosions: [] }],
          scans: [],
          destroyed: [],
        },
        {
          t: 'results' as const,
          turn: 1,
          fleetDestroyed: false,
          beams: [],
          strikes: [],
          scans: [{ result: 'empty' as const, salt }],
          destroyed: [],
        },
        {
          t: 'results' as const,
          turn: 1,
          fleetDestroyed: false,
          beams: [],
          strikes: [],
          scans: [],
          destroyed: [{ type: 'HS' as const, id: 1, cells: [{ cell: 'Rv1', salt }] }],
        },
        { t: 'flashcube' as const, turn: 1, reports: [[{ cell: 'Rv1', kind: 'empty' as const, salt }]] },
      ]
      for (const p of parts) expect(() => encodeUnsigned({ ...base, parts: [p] })).toThrow(/a salt is 16 bytes/)
    }
    expect(
      decodeEnvelopeBytes(
        envelopeBytes(
          {
            ...base,
            parts: [{ t: 'flashcube', turn: 1, reports: [[{ cell: 'Rv1', kind: 'empty', salt: new Uint8Array(16) }]] }],
          },
          sig,
        ),
      ).ok,
    ).toBe(true)
  })

  it('only an envelope with a reveal may exceed 64 KiB, and nothing may exceed 1 MiB (SPEC §9)', () => {
    const long = 'x'.repeat(1000)
    const base = {
      sender: 'A' as const,
      seq: 3,
      game: new Uint8Array(32),
      prev: new Uint8Array(32),
      ack: new Uint8Array(32),
    }
    const big = envelopeBytes(
      {
        ...base,
        parts: [
          {
            t: 'reveal',
            seed: new Uint8Array(32),
            setup: [{ type: 'LS', id: 1, cells: [0] }],
            records: Array.from({ length: 100 }, () => long),
          },
        ],
      },
      sig,
    )
    expect(big.length).toBeGreaterThan(LIMITS.envelopeBytes)
    expect(decodeEnvelopeBytes(big).ok).toBe(true)
    const huge = new Uint8Array(LIMITS.revealEnvelopeBytes + 1)
    huge[0] = 2
    const d = decodeEnvelopeBytes(huge)
    expect(d.ok ? 'ok' : d.error.code).toBe('wire.too-large')
  })
})
