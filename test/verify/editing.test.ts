/**
 * Whoever holds a transcript file can edit it, but without a player's key cannot make evidence
 * against that player (SPEC §5.4, §12): deleting, duplicating, reordering, altering or splicing in
 * lines of another game never yields an offence by an honest player, and merging the other
 * player's untouched file restores the true verdict.
 */
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { fromBase64url, toBase64url } from '../../src/core/commit/bytes.js'
import { decodeEnvelope, seal } from '../../src/games/spaceships/protocol/envelope.js'
import { TRANSCRIPTS, formatTranscript } from '../../src/games/spaceships/protocol/file.js'
import { transcriptHeader } from '../../src/core/transcript/file.js'
import { generateKeyPair } from '../../src/core/commit/keys.js'
import { seededSecrets } from '../../src/core/commit/secrets.js'
import { type Verdict, readEvidence, verifyFiles } from '../../src/games/spaceships/verify/verify.js'
import { TERMS, playInMemory } from '../session/helpers.js'

let fileA: string
let fileB: string
let foreign: string[]
let foreignHellos: string[]
let honest: Verdict

const verdict = (...files: string[]): Verdict => verifyFiles(files.map((content, i) => ({ name: `f${i}`, content })))
const lines = (file: string): string[] => file.split('\n').slice(1, -1)
/** A file of these lines under the header of the game's version (SPEC §11): the games here are version 4. */
const file = (ls: readonly string[]): string => [transcriptHeader(TRANSCRIPTS[4]), ...ls].join('\n') + '\n'

beforeAll(async () => {
  const g = await playInMemory('editing/1', { terms: { ...TERMS, maxTurns: 12 } })
  fileA = formatTranscript(g.a.transcript)
  fileB = formatTranscript(g.b.transcript)
  honest = g.a.verdict
  // Another game played with the same identities (the seeds derive the same keys).
  const other = await playInMemory('editing/1', { terms: { ...TERMS, maxTurns: 5, replyMs: 11_000 } })
  foreign = lines(formatTranscript(other.a.transcript))
  foreignHellos = foreign.filter((l) => {
    const d = decodeEnvelope(fromBase64url(l) ?? new Uint8Array())
    return d.ok && d.value.envelope.seq === 0
  })
})

type Edit =
  | { kind: 'delete'; at: number }
  | { kind: 'duplicate'; at: number; to: number }
  | { kind: 'swap'; at: number; to: number }
  | { kind: 'alter'; at: number; char: number; by: number }
  | { kind: 'truncate'; keep: number }
  | { kind: 'splice'; from: number; to: number }
  | { kind: 'first'; at: number }

const edit = fc.oneof(
  fc.record({ kind: fc.constant('delete' as const), at: fc.nat() }),
  fc.record({ kind: fc.constant('duplicate' as const), at: fc.nat(), to: fc.nat() }),
  fc.record({ kind: fc.constant('swap' as const), at: fc.nat(), to: fc.nat() }),
  fc.record({ kind: fc.constant('alter' as const), at: fc.nat(), char: fc.nat(), by: fc.integer({ min: 1, max: 63 }) }),
  fc.record({ kind: fc.constant('truncate' as const), keep: fc.nat() }),
  fc.record({ kind: fc.constant('splice' as const), from: fc.nat(), to: fc.nat() }),
  fc.record({ kind: fc.constant('first' as const), at: fc.nat() }),
)

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'

function apply(ls: string[], e: Edit): string[] {
  const out = [...ls]
  const n = out.length
  if (n === 0) return out
  const i = 'at' in e ? e.at % n : 0
  switch (e.kind) {
    case 'delete':
      out.splice(i, 1)
      break
    case 'duplicate':
      out.splice(e.to % (n + 1), 0, out[i] ?? '')
      break
    case 'swap': {
      const j = e.to % n
      ;[out[i], out[j]] = [out[j] ?? '', out[i] ?? '']
      break
    }
    case 'alter': {
      const line = out[i] ?? ''
      const c = e.char % line.length
      const next = ALPHABET[(ALPHABET.indexOf(line[c] ?? 'A') + e.by) % 64] ?? 'A'
      out[i] = line.slice(0, c) + next + line.slice(c + 1)
      break
    }
    case 'truncate':
      out.length = e.keep % n
      break
    case 'splice':
      out.splice(e.to % (n + 1), 0, foreign[e.from % foreign.length] ?? '')
      break
    case 'first':
      out.unshift(...out.splice(i, 1))
      break
  }
  return out
}

describe("file edits by someone without the players' keys (SPEC §5.4, §12.7)", () => {
  it("no edit of a file makes evidence against an honest player, and the other player's file overturns what the edit did", () => {
    expect(honest.status).toBe('complete')
    fc.assert(
      fc.property(fc.boolean(), fc.array(edit, { minLength: 1, maxLength: 4 }), (whichA, edits) => {
        const [target, other] = whichA ? [fileA, fileB] : [fileB, fileA]
        const edited = file(edits.reduce(apply, lines(target)))
        const alone = verdict(edited)
        expect(alone.status, JSON.stringify(alone)).not.toBe('offence')
        const merged = verdict(edited, other)
        expect(merged.status, JSON.stringify(merged)).not.toBe('offence')
        // Merging restores the true verdict. Only both hellos of a game the players really played,
        // spliced in, make a file name another game; an altered hello names none (SPEC §12.1).
        const holdsForeignGame = foreignHellos.every((h) => edited.includes(`\n${h}\n`))
        if (!holdsForeignGame || merged.status !== 'incomplete' || !merged.detail.includes('different games'))
          expect(merged.status === 'complete' && 'scores' in merged ? merged.scores : merged.status).toEqual(
            honest.status === 'complete' ? honest.scores : '',
          )
      }),
      { numRuns: 300 },
    )
  })

  it('a copy of an envelope with a signature byte changed is the same envelope: nothing changes (SPEC §5.3)', () => {
    const ls = lines(fileA)
    const b = fromBase64url(ls[5] ?? '') ?? new Uint8Array()
    b[b.length - 1] = (b[b.length - 1] ?? 0) ^ 1
    const v = verdict(file([...ls, toBase64url(b)]))
    expect(v.status).toBe('complete')
  })

  it('a hello with a signature byte changed still stands when its later envelopes bind it, and an honest file costs one signature check per player (SPEC §5.4, §12.2)', () => {
    const ls = lines(fileA)
    const helloBytes = fromBase64url(ls[0] ?? '') ?? new Uint8Array()
    helloBytes[helloBytes.length - 1] = (helloBytes[helloBytes.length - 1] ?? 0) ^ 0x10
    const altered = file([toBase64url(helloBytes), ...ls.slice(1)])
    expect({ ...verdict(altered), notes: [] }).toEqual({ ...honest, notes: [] })
    for (const content of [fileA, altered]) {
      const ev = readEvidence([{ name: 'f', content }])
      expect(ev.ok && ev.value.signatureChecks).toBe(2)
    }
    // With nothing of A after it, the altered hello binds nobody: the game cannot be verified.
    const alone = verdict(file([toBase64url(helloBytes), ls[1] ?? '']))
    expect(alone.status).toBe('incomplete')
    expect(alone.status === 'incomplete' && alone.reason).toBe('unverifiable')
  })

  it("deleting a line leaves a gap the verifier names, and merging the other player's file fills it", () => {
    const ls = lines(fileA)
    const v = verdict(file([...ls.slice(0, 10), ...ls.slice(11)]))
    expect(v.status).toBe('incomplete')
    if (v.status === 'incomplete') expect(v.reason).toBe('gap')
    expect(verdict(file([...ls.slice(0, 10), ...ls.slice(11)]), fileB).status).toBe('complete')
  })

  it('a hello or envelope of another game with the same identity is foreign: noted, never evidence (SPEC §12.1)', () => {
    const ls = lines(fileA)
    const v = verdict(file([...ls.slice(0, 4), foreign[0] ?? '', foreign[6] ?? '', ...ls.slice(4)]))
    expect(v.status).toBe('complete')
    if (v.status === 'complete') expect(v.notes.some((n) => n.includes('another game'))).toBe(true)
  })

  it("deleting one's own last envelopes leaves the other's acknowledgements naming what is missing: a gap, not an offence", () => {
    const ls = lines(fileB)
    const kept = ls.filter((l, i) => {
      const d = decodeEnvelope(fromBase64url(l) ?? new Uint8Array())
      return !(d.ok && d.value.envelope.sender === 'B' && i > ls.length - 6)
    })
    const v = verdict(file(kept))
    expect(v.status).not.toBe('offence')
  })

  it('re-signing its own chain with a fresh nonce makes another game, in which the other player signed nothing (SPEC §6.1)', () => {
    // B, holding its own key, re-signs its hello with another nonce and puts it first: the file now names a game A never played.
    const ls = lines(fileB)
    const helloB = ls
      .map((l) => decodeEnvelope(fromBase64url(l) ?? new Uint8Array()))
      .find((d) => d.ok && d.value.envelope.sender === 'B' && d.value.envelope.seq === 0)
    if (helloB === undefined || !helloB.ok) throw new Error('no hello')
    const e = helloB.value.envelope
    const hello = e.parts[0]
    if (hello?.t !== 'hello') throw new Error('no hello part')
    const keys = generateKeyPair(seededSecrets('editing/1/B'))
    const fresh = seal(keys, { ...e, parts: [{ ...hello, nonce: new Uint8Array(32).fill(9) }] })
    const v = verdict(file([ls[0] ?? '', toBase64url(fresh.bytes), ...ls.slice(1)]))
    expect(v.status).not.toBe('offence')
    expect(v.status).toBe('incomplete')
  })
})

describe('an altered hello is not a hello of any game (SPEC §12.1)', () => {
  const decoded = (l: string) => decodeEnvelope(fromBase64url(l) ?? new Uint8Array())
  const helloAt = (ls: readonly string[], sender: 'A' | 'B'): number =>
    ls.findIndex((l) => {
      const d = decoded(l)
      return d.ok && d.value.envelope.sender === sender && d.value.envelope.seq === 0
    })
  const flip = (l: string, at: number): string => {
    const b = fromBase64url(l) ?? new Uint8Array()
    b[at] = (b[at] ?? 0) ^ 1
    return toBase64url(b)
  }
  const same = (v: Verdict): unknown => ({ ...v, notes: [] })
  // Byte offsets (SPEC §5.1, §6.1): A's hello has its key at 6 and nonce at 38, then its terms;
  // B's hello its ack at 4, its key at 38 and nonce at 70. The last 64 bytes are the signature.
  const EDITS = { A: [6, 20, 38, 70, 72, 100], B: [4, 38, 50, 70, 100] }

  it('SPEC §12.1: a copy whose hello line was altered, merged with the intact file, is decided from the intact file, in either order', () => {
    for (const [target, other] of [
      [fileA, fileB],
      [fileB, fileA],
    ] as const) {
      const ls = lines(target)
      for (const sender of ['A', 'B'] as const) {
        const at = helloAt(ls, sender)
        for (const byte of EDITS[sender]) {
          const edited = file(ls.map((l, i) => (i === at ? flip(l, byte) : l)))
          const where = `${sender}'s hello, byte ${byte}`
          expect(verdict(edited).status, where).not.toBe('offence')
          const merged = verdict(edited, other)
          expect(same(merged), where).toEqual(same(honest))
          expect(same(verdict(other, edited)), where).toEqual(same(honest))
          // The altered line is set aside with a note naming it, not used to split the files.
          const notes = 'notes' in merged ? merged.notes : []
          expect(
            notes.some((n) => n.startsWith(`f0:${at + 2}: `) && n.includes('not evidence')),
            `${where}: ${notes.join('; ')}`,
          ).toBe(true)
        }
      }
    }
  })

  it('SPEC §12.1: an altered copy of a hello placed before the intact one in the same file names no game: the file alone is decided', () => {
    const ls = lines(fileA)
    for (const sender of ['A', 'B'] as const) {
      const at = helloAt(ls, sender)
      for (const byte of EDITS[sender]) {
        const edited = file([flip(ls[at] ?? '', byte), ...ls])
        expect(same(verdict(edited)), `${sender}'s hello, byte ${byte}`).toEqual(same(honest))
      }
    }
  })

  it("SPEC §12.1: a B hello answering A's hello under a key of the editor's own names a game only of the edited file: merged with the intact file, the game both files name is decided", () => {
    const ls = lines(fileB)
    const at = helloAt(ls, 'B')
    const helloB = decoded(ls[at] ?? '')
    if (!helloB.ok) throw new Error('no hello')
    const e = helloB.value.envelope
    const hello = e.parts[0]
    if (hello?.t !== 'hello') throw new Error('no hello part')
    const editor = generateKeyPair(seededSecrets('editing/editor'))
    const forged = seal(editor, { ...e, parts: [{ ...hello, key: editor.publicKey }] })
    const edited = file([toBase64url(forged.bytes), ...ls])
    // Alone, the file's first game is the editor's, in which A signed nothing after its hello: nobody convicted.
    expect(verdict(edited).status).not.toBe('offence')
    expect(same(verdict(edited, fileA))).toEqual(same(honest))
    expect(same(verdict(fileA, edited))).toEqual(same(honest))
  })
})
