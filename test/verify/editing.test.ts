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
import { TRANSCRIPT_MAGIC, formatTranscript } from '../../src/games/spaceships/protocol/file.js'
import { generateKeyPair } from '../../src/core/commit/keys.js'
import { seededSecrets } from '../../src/core/commit/secrets.js'
import { type Verdict, readEvidence, verifyFiles } from '../../src/games/spaceships/verify/verify.js'
import { TERMS, playInMemory } from '../session/helpers.js'

let fileA: string
let fileB: string
let foreign: string[]
let honest: Verdict

const verdict = (...files: string[]): Verdict => verifyFiles(files.map((content, i) => ({ name: `f${i}`, content })))
const lines = (file: string): string[] => file.split('\n').slice(1, -1)
const file = (ls: readonly string[]): string => [TRANSCRIPT_MAGIC, ...ls].join('\n') + '\n'

beforeAll(async () => {
  const g = await playInMemory('editing/1', { terms: { ...TERMS, maxTurns: 12 } })
  fileA = formatTranscript(g.a.transcript)
  fileB = formatTranscript(g.b.transcript)
  honest = g.a.verdict
  // Another game played with the same identities (the seeds derive the same keys).
  const other = await playInMemory('editing/1', { terms: { ...TERMS, maxTurns: 5, replyMs: 11_000 } })
  foreign = lines(formatTranscript(other.a.transcript))
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
        // Unless the edit made the file name another game, merging restores the true verdict.
        if (merged.status !== 'incomplete' || !merged.detail.includes('different games'))
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
