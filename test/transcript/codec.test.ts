/** Hostile bytes never crash the decoder or the verifier; they get coded errors (SPEC §9). */
import { readFileSync } from 'node:fs'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { PROTOCOL_ERROR_CODES, decodeEnvelope, formatTranscript, parseTranscript } from '../../src/transcript/index.js'
import { verifyTranscript } from '../../src/verify/index.js'

const honest = readFileSync(new URL('../../protocol/vectors/honest.transcript', import.meta.url), 'utf8')
const lines = honest.split('\n').slice(1, -1)

describe('envelope decoding (SPEC §3.4, §5, §9)', () => {
  test('every line of the honest vector decodes and re-encodes to itself', () => {
    for (const l of lines) {
      const d = decodeEnvelope(l)
      expect(d.ok).toBe(true)
      if (d.ok) expect(d.value.line).toBe(l)
    }
  })

  test('random bytes are refused with a coded error', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 2000 }), (bytes) => {
        const d = decodeEnvelope(bytes)
        expect(d.ok).toBe(false)
        if (!d.ok) expect(PROTOCOL_ERROR_CODES).toContain(d.error.code)
      }),
    )
  })

  test('a mutated valid envelope is refused with a coded error naming a field, or is still canonical', () => {
    fc.assert(
      fc.property(fc.constantFrom(...lines), fc.nat(), fc.integer({ min: 0, max: 127 }), (line, at, code) => {
        const i = at % line.length
        const mutated = line.slice(0, i) + String.fromCharCode(code) + line.slice(i + 1)
        const d = decodeEnvelope(mutated)
        if (d.ok) expect(d.value.line).toBe(mutated)
        else {
          expect(PROTOCOL_ERROR_CODES).toContain(d.error.code)
          expect(typeof d.error.field).toBe('string')
        }
      }),
      { numRuns: 2000 },
    )
  })

  test('whitespace, key order and number forms that are not canonical are refused (SPEC §3.4)', () => {
    const l = lines[3] ?? ''
    const obj = JSON.parse(l) as Record<string, unknown>
    expect(decodeEnvelope(JSON.stringify(obj, null, 1)).ok).toBe(false)
    const { v, ...rest } = obj
    const reordered = decodeEnvelope(JSON.stringify({ ...rest, v }))
    expect(!reordered.ok && reordered.error.code).toBe('wire.not-canonical')
    const float = decodeEnvelope(l.replace('"v":1', '"v":1.0'))
    expect(!float.ok && float.error.code).toBe('wire.not-canonical')
    const extra = decodeEnvelope(l.replace('"v":1', '"v":1,"x":2'))
    expect(!extra.ok && extra.error).toMatchObject({ code: 'field.unknown', field: 'x' })
  })

  test('size limits hold before parsing (SPEC §8)', () => {
    const d = decodeEnvelope(new Uint8Array(2 * 1024 * 1024).fill(0x20))
    expect(!d.ok && d.error.code).toBe('wire.too-large')
  })
})

describe('the verifier on hostile transcripts (SPEC §11)', () => {
  test('dropped, duplicated and swapped lines give a verdict, never a throw', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: lines.length - 1 }), { maxLength: 6 }), fc.nat({ max: 2 }), (picks, op) => {
        const copy = [...lines]
        for (const p of picks) {
          if (op === 0) copy.splice(p % copy.length, 1)
          else if (op === 1) copy.splice(p % copy.length, 0, copy[p % copy.length] ?? '')
          else {
            const j = (p * 7) % copy.length
            const t = copy[p % copy.length] ?? ''
            copy[p % copy.length] = copy[j] ?? ''
            copy[j] = t
          }
        }
        const v = verifyTranscript(formatTranscript(copy))
        expect(['complete', 'offence', 'incomplete', 'unreadable']).toContain(v.status)
      }),
      { numRuns: 25 },
    )
  })

  test('duplicated lines (a retransmission) change nothing', () => {
    const dup = [...lines.slice(0, 30), ...lines.slice(20, 30), ...lines.slice(30)]
    expect(verifyTranscript(formatTranscript(dup))).toEqual(verifyTranscript(honest))
  })

  test('a file without the header is unreadable', () => {
    const p = parseTranscript(lines.join('\n'))
    expect(!p.ok && p.error).toMatchObject({ line: 1, error: { code: 'file.header' } })
  })

  test('read from bytes, each line hashes exactly as read; a byte-order mark or bad UTF-8 is refused at its line (SPEC §3.4, §10)', () => {
    const bytes = new TextEncoder().encode(honest)
    const fromBytes = parseTranscript(bytes)
    const fromText = parseTranscript(honest)
    expect(fromBytes.ok && fromText.ok && fromBytes.value.map((s) => s.hash)).toEqual(fromText.ok && fromText.value.map((s) => s.hash))
    const bom = parseTranscript('\uFEFF' + honest)
    expect(!bom.ok && bom.error).toMatchObject({ line: 1, error: { code: 'file.header' } })
    const lineBom = parseTranscript(formatTranscript([...lines.slice(0, 3), '\uFEFF' + (lines[3] ?? ''), ...lines.slice(4)]))
    expect(!lineBom.ok && lineBom.error.line).toBe(5)
    const broken = new Uint8Array([...new TextEncoder().encode(formatTranscript(lines.slice(0, 2))), 0xc3, 0x28, 0x0a])
    const bad = parseTranscript(broken)
    expect(!bad.ok && bad.error).toMatchObject({ line: 4, error: { code: 'wire.utf8' } })
  })
})
