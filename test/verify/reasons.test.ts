/**
 * SPEC §12.8 "Why a game is `incomplete`": every `incomplete` verdict's `reason` code and `detail`
 * text is one row of the spec's table, so a second team can give the same. And SPEC §12.1: a hello
 * key that is not usable is `no-game` (no game can be played with that hello), not `unverifiable`.
 */
import { readFileSync } from 'node:fs'
import { ed25519 } from '@noble/curves/ed25519.js'
import { describe, expect, it } from 'vitest'
import { toBase64url } from '../../src/core/commit/bytes.js'
import type { SealedEnvelope } from '../../src/games/spaceships/protocol/envelope.js'
import { TRANSCRIPT_MAGIC } from '../../src/games/spaceships/protocol/file.js'
import { type Verdict, verifyFiles } from '../../src/games/spaceships/verify/verify.js'
import { type TranscriptVector, handGame, unusableKey } from '../protocol/build-vectors.js'
import { TERMS } from '../session/helpers.js'

const SPEC = readFileSync(new URL('../../protocol/SPEC.md', import.meta.url), 'utf8')
const VECTORS = new URL('../../protocol/vectors/', import.meta.url)

interface Row {
  readonly code: string
  readonly detail: string
  readonly pattern: RegExp
}

/** The table of SPEC §12.8, each detail made a pattern: `<X>`, `<Y>` a role, `<k>`, `<n>`, `<t>` a number, anything else any text. */
function reasonTable(): Row[] {
  const at = SPEC.indexOf('**Why a game is `incomplete`.**')
  if (at < 0) return []
  const rows: Row[] = []
  for (const line of SPEC.slice(at).split('\n\n')[1]?.split('\n') ?? []) {
    const m = /^\| `([a-z-]+)` \| `(.+?)` \| /.exec(line)
    if (m === null) continue
    const detail = m[2] ?? ''
    const source = detail
      .split(/(<[a-z]+>|<[XY]>)/i)
      .map((piece) =>
        /^<[XY]>$/.test(piece)
          ? '(A|B)'
          : /^<[knt]>$/.test(piece)
            ? '(\\d+)'
            : /^<[a-z]+>$/i.test(piece)
              ? '(.+)'
              : piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
      )
      .join('')
    rows.push({ code: m[1] ?? '', detail, pattern: new RegExp(`^${source}$`) })
  }
  return rows
}

const file = (envelopes: readonly SealedEnvelope[]): string =>
  [TRANSCRIPT_MAGIC, ...envelopes.map((s) => toBase64url(s.bytes))].join('\n') + '\n'
const vector = (name: string): string => readFileSync(new URL(name, VECTORS), 'utf8')
const lines = (text: string): string[] => text.split('\n').slice(1, -1)
const verdict = (...contents: string[]): Verdict =>
  verifyFiles(contents.map((content, i) => ({ name: `f${i}`, content })))
const IDENTITY = Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? 1 : 0))
/** The least y < p (little-endian) with no x on the curve: canonical in form, and no point. */
const OFF_CURVE = ((): Uint8Array => {
  for (let y = 2; ; y++) {
    const bytes = Uint8Array.from({ length: 32 }, (_, i) => (i === 0 ? y : 0))
    try {
      ed25519.Point.fromBytes(bytes, false)
    } catch {
      return bytes
    }
  }
})()

function hellosOnly(name: string, o: Parameters<typeof handGame>[1] = {}): string {
  const g = handGame(`reasons/${name}`, o)
  return file([g.helloA, g.helloB])
}

/** Files that reach each `incomplete` the procedure gives. */
function cases(): Record<string, Verdict> {
  const honest = vector('honest-a.transcript')
  const waiting = handGame('reasons/stopped-waiting')
  return {
    'different games': verdict(honest, vector('refused.transcript')),
    "A's key": verdict(unusableKey()),
    "B's key": verdict(hellosOnly('key-b', { keyB: IDENTITY })),
    'not authenticated': verdict(vector('altered-hello-alone.transcript')),
    'not canonical': verdict(vector('non-canonical-ruleset.transcript')),
    unknown: verdict(hellosOnly('unknown', { terms: { ...TERMS, ruleset: '2.6.1 fleet=giant' } })),
    'does not decode': verdict(hellosOnly('no-decode', { terms: { ...TERMS, maxTurns: 0 } })),
    'other parts': verdict(hellosOnly('parts', { extraA: { t: 'stop', reason: 'claim', detail: '' } })),
    "A's hello missing": verdict(vector('missing-hello.transcript')),
    "B's hello missing": verdict([TRANSCRIPT_MAGIC, ...lines(honest).slice(0, 1)].join('\n') + '\n'),
    'hellos missing': verdict([TRANSCRIPT_MAGIC, ...lines(honest).slice(2, 6)].join('\n') + '\n'),
    'B refused': verdict(vector('refused.transcript')),
    'A refused': verdict(vector('refused-then-missing.transcript')),
    gap: verdict(vector('deleted-line.transcript')),
    'no setup': verdict(hellosOnly('no-setup')),
    'no setup, a stop': verdict(
      file([
        waiting.helloA,
        waiting.helloB,
        waiting.next('B', [{ t: 'stop', reason: 'claim', detail: '' }], waiting.helloA),
      ]),
    ),
    'nobody claimed': verdict(vector('truncated.transcript')),
  }
}

describe('why a game is incomplete (SPEC §12.8)', () => {
  it('a hello key that is not usable: no-game, and says whose (SPEC §5.2, §12.1)', () => {
    expect(verdict(unusableKey())).toMatchObject({
      status: 'incomplete',
      reason: 'no-game',
      detail: "no game: A's hello key is not usable (small-order; SPEC §5.2)",
    })
    expect(verdict(hellosOnly('key-b', { keyB: IDENTITY }))).toMatchObject({
      status: 'incomplete',
      reason: 'no-game',
      detail: "no game: B's hello key is not usable (small-order; SPEC §5.2)",
    })
  })

  it('a key with no point (y < p, no x): no-game as non-canonical, A first even when B fails a cheaper test (SPEC §5.2, §12.1)', () => {
    // The verifier tests x last, and only for a key no valid signature verified under: the
    // verdicts are those of testing both keys in full before anything.
    expect(verdict(hellosOnly('off-curve-b', { keyB: OFF_CURVE }))).toMatchObject({
      detail: "no game: B's hello key is not usable (non-canonical; SPEC §5.2)",
    })
    expect(verdict(hellosOnly('off-curve-a', { keyA: OFF_CURVE }))).toMatchObject({
      detail: "no game: A's hello key is not usable (non-canonical; SPEC §5.2)",
    })
    expect(verdict(hellosOnly('off-curve-a-identity-b', { keyA: OFF_CURVE, keyB: IDENTITY }))).toMatchObject({
      detail: "no game: A's hello key is not usable (non-canonical; SPEC §5.2)",
    })
    expect(verdict(hellosOnly('identity-a-off-curve-b', { keyA: IDENTITY, keyB: OFF_CURVE }))).toMatchObject({
      detail: "no game: A's hello key is not usable (small-order; SPEC §5.2)",
    })
  })

  it('every incomplete verdict is exactly one row of the table, with its code, and every row is reached', () => {
    const table = reasonTable()
    expect(table.length).toBeGreaterThanOrEqual(15)
    const reached = new Set<string>()
    const all: [string, Verdict][] = Object.entries(cases())
    const manifest = JSON.parse(vector('transcripts.json')) as TranscriptVector[]
    for (const m of manifest) all.push([m.files.join(' + '), verdict(...m.files.map(vector))])
    for (const [name, v] of all) {
      if (v.status !== 'incomplete') continue
      const rows = table.filter((r) => r.pattern.test(v.detail))
      expect(
        rows.map((r) => r.detail),
        `${name}: ${v.detail}`,
      ).toHaveLength(1)
      expect(rows[0]?.code, `${name}: ${v.detail}`).toBe(v.reason)
      reached.add(rows[0]?.detail ?? '')
    }
    expect(table.filter((r) => !reached.has(r.detail)).map((r) => r.detail)).toEqual([])
  })
})
