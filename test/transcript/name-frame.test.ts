/**
 * SPEC §2.4, control kind 6 (PROTOCOL-4.md §9): a player's name, printable ASCII of 1 to 32 bytes.
 * Encoded as any control frame; a name that breaks the rule is dropped with a coded error, never a
 * malformed frame (a name must never stop a game), and no bytes make the decoder throw.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FRAME, decodeFrame, encodeControl } from '../../src/games/spaceships/protocol/frame.js'
import { NAME_MAX_BYTES, nameProblem, sameName } from '../../src/games/spaceships/protocol/name.js'

const none = { game: undefined, hashAt: () => undefined, positionOf: () => undefined }
const decode = (bytes: Uint8Array) => decodeFrame(bytes, 'A', none)
const printable = fc
  .array(fc.integer({ min: 0x20, max: 0x7e }), { minLength: 1, maxLength: NAME_MAX_BYTES })
  .map((cs) => String.fromCharCode(...cs))

describe('the name frame (SPEC §2.4, kind 6)', () => {
  it('is 0x04 0x06 then the name bytes, as the spec writes them out for "alice"', () => {
    expect(Buffer.from(encodeControl('name', 'alice')).toString('hex')).toBe('0406616c696365')
    expect(decode(Uint8Array.from(Buffer.from('0406616c696365', 'hex')))).toEqual({
      ok: true,
      value: { kind: 'control', control: 'name', text: 'alice' },
    })
  })

  it('round-trips every printable ASCII name of 1 to 32 bytes', () => {
    fc.assert(
      fc.property(printable, (name) => {
        expect(nameProblem(name)).toBeUndefined()
        expect(decode(encodeControl('name', name))).toEqual({
          ok: true,
          value: { kind: 'control', control: 'name', text: name },
        })
      }),
    )
  })

  it('a name of 0 or 33 bytes, or with a byte outside 0x20-0x7E, is dropped with a coded error, never malformed', () => {
    const cases: [number[], string, RegExp][] = [
      [[], 'field.length', /empty/],
      [Array<number>(33).fill(0x61), 'field.length', /33 bytes; a name is at most 32/],
      [[0x61, 0x1b, 0x5b, 0x32, 0x4a], 'field.text', /byte 1 is 0x1b/],
      [[0x61, 0x7f], 'field.text', /byte 1 is 0x7f/],
      [[0xc3, 0xa9], 'field.text', /byte 0 is 0xc3/],
      [[0x61, 0x00], 'field.text', /byte 1 is 0x00/],
    ]
    for (const [bytes, code, message] of cases) {
      const d = decode(Uint8Array.from([FRAME.control, 6, ...bytes]))
      expect(d.ok).toBe(true)
      if (!d.ok || d.value.kind !== 'bad-control') throw new Error(`not dropped: ${JSON.stringify(d)}`)
      expect(d.value.error).toMatchObject({ code, field: 'name', rule: '§2.4' })
      expect(d.value.error.message).toMatch(message)
    }
  })

  it('hostile bytes after the kind byte never throw, and decode to a name only when the rule holds', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (bytes) => {
        const d = decode(Uint8Array.from([FRAME.control, 6, ...bytes]))
        expect(d.ok).toBe(true)
        const good = bytes.length >= 1 && bytes.length <= NAME_MAX_BYTES && bytes.every((b) => b >= 0x20 && b <= 0x7e)
        expect(d.ok && d.value.kind).toBe(good ? 'control' : 'bad-control')
      }),
    )
  })

  it('refuses to encode a name that breaks the rule (callers check names where they are given)', () => {
    expect(() => encodeControl('name', '')).toThrow(/at least 1 byte/)
    expect(() => encodeControl('name', 'x'.repeat(33))).toThrow(/at most 32/)
    expect(() => encodeControl('name', 'al\u202eice')).toThrow(/U\+202E/)
    expect(() => encodeControl('name', 'élise')).toThrow(/printable ASCII/)
  })

  it('the other kinds keep their bytes; kind 5 (the refusal) and later kinds stay unknown to a game', () => {
    expect([...encodeControl('chat', 'hi')]).toEqual([0x04, 1, 0x68, 0x69])
    expect([...encodeControl('rematch-decline')]).toEqual([0x04, 4])
    for (const code of [5, 7, 255])
      expect(decode(Uint8Array.of(FRAME.control, code, 0x61))).toEqual({
        ok: true,
        value: { kind: 'unknown-control', code },
      })
  })

  it('two names are the same to a person whatever their case and spacing', () => {
    expect(sameName('Alice ', 'alice')).toBe(true)
    expect(sameName('al  ice', 'Al ice')).toBe(true)
    expect(sameName('alice', 'alicia')).toBe(false)
  })
})
