/**
 * A file of copies costs what one line costs (SPEC §5.4, §9, §12.1): identical lines are one line,
 * read, framed, hashed and checked once, so the largest file a verifier reads (16,384 lines) is
 * decided in time linear in its size, whatever it repeats.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { fromBase64url, toBase64url } from '../../src/core/commit/bytes.js'
import { LIMITS } from '../../src/games/spaceships/protocol/messages.js'
import { TRANSCRIPT_MAGIC, parseTranscript } from '../../src/games/spaceships/protocol/file.js'
import { readEvidence, verifyFiles } from '../../src/games/spaceships/verify/verify.js'
import { reading } from '../../src/games/spaceships/verify/reading.js'

const honest = readFileSync(new URL('../../protocol/vectors/honest-a.transcript', import.meta.url), 'utf8')
const lines = honest.split('\n').slice(1, -1)
const helloOf = (sender: number): string =>
  lines.find((l) => {
    const b = fromBase64url(l) ?? new Uint8Array()
    return b[1] === sender && b[2] === 0 && b[3] === 0
  }) ?? ''
const copies = (n: number, ...of: string[]): string =>
  [TRANSCRIPT_MAGIC, ...Array.from({ length: n }, (_, i) => of[i % of.length] ?? '')].join('\n') + '\n'

/** The fastest of three runs, in ms: the least disturbed by other work on the machine. */
function fastest(content: string): number {
  let best = Infinity
  for (let i = 0; i < 3; i++) {
    const t = performance.now()
    verifyFiles([{ name: 'copies', content }])
    best = Math.min(best, performance.now() - t)
  }
  return best
}

describe('a file of copies of one line (SPEC §5.4, §9, §12.1)', () => {
  it("SPEC §5.4, §12.1: 16,384 copies of B's hello, the most lines a file holds, take about four times what 4,096 take, not sixteen", () => {
    expect(LIMITS.fileLines).toBe(16_384)
    const b = helloOf(1)
    const small = copies(4_096, b)
    const large = copies(16_384, b)
    expect(verifyFiles([{ name: 'copies', content: large }])).toMatchObject({
      status: 'incomplete',
      detail: "no game: A's hello, which B's hello acknowledges, is missing",
    })
    const tSmall = fastest(small)
    const tLarge = fastest(large)
    // Linear is 4x; quadratic 16x. The 25 ms absorbs the timer and a busy machine on small times.
    expect(tLarge, `4,096 copies ${tSmall.toFixed(1)} ms, 16,384 copies ${tLarge.toFixed(1)} ms`).toBeLessThan(
      5 * tSmall + 25,
    )
    expect(tLarge).toBeLessThan(1_000)
  })

  it('SPEC §12.1: distinct lines that share their signature (its last characters) are told apart, in linear time', () => {
    // Lines are keyed by their last characters first; lines that differ only before them are
    // compared whole. B's hello with one character of its key changed (bytes nobody signed),
    // 1,024 and 4,096 ways, and every such line once more as an identical copy.
    const b = helloOf(1)
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'
    const variants = (n: number): string[] =>
      Array.from(
        { length: n },
        (_, i) => b.slice(0, 40) + (alphabet[i % 64] ?? 'A') + (alphabet[(i >> 6) % 64] ?? 'A') + b.slice(42),
      )
    const file = (n: number): string => {
      const v = variants(n)
      return copies(2 * n, ...v, ...v)
    }
    const small = file(1_024)
    const large = file(4_096)
    const parsed = parseTranscript(large)
    if (!parsed.ok) throw new Error('unreadable')
    // Every distinct line read once, for both of its lines.
    const [items] = reading([{ name: 'variants', lines: parsed.value.lines, torn: false }], []).perFile
    expect(items?.length).toBe(4_096)
    expect(items?.every((it) => it.where.length === 2 && it.where[1]?.line === (it.where[0]?.line ?? 0) + 4_096)).toBe(
      true,
    )
    const tSmall = fastest(small)
    const tLarge = fastest(large)
    expect(tLarge, `1,024 variants ${tSmall.toFixed(1)} ms, 4,096 variants ${tLarge.toFixed(1)} ms`).toBeLessThan(
      5 * tSmall + 25,
    )
  })

  it('SPEC §5.4: copies of both hellos make one game whose hellos cost one signature check each, and a verdict on it', () => {
    const file = copies(16_384, helloOf(0), helloOf(1))
    const ev = readEvidence([{ name: 'copies', content: file }])
    if (!ev.ok) throw new Error('unreadable')
    expect(ev.value.signatureChecks).toBe(2)
    expect(ev.value.problem).toBeUndefined()
    const v = verifyFiles([{ name: 'copies', content: file }])
    expect(v).toMatchObject({ status: 'incomplete', detail: 'no game: A never committed its setup' })
    expect(v.status !== 'unreadable' && v.game).toBe(ev.value.game === undefined ? '' : toBase64url(ev.value.game))
  })
})
