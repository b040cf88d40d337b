/**
 * No honest transcript holds a signed false statement. The only statement a player signs about the
 * game's result is its courtesy verdict part (SPEC §7.10). Found by the trust issue: the side
 * revealing second computed its part from its transcript plus its reveal without the verdict part
 * the schedule wants with it (§6.3), read that as its own protocol violation, and signed "the other
 * side wins": 462 of 464 CLI transcripts and the published vector honest-a.transcript. Verifiers
 * ignore the part, so no result changed; a third party must still never see an honest player sign
 * a falsehood. Each part is checked against what the verifier decides from the evidence its signer
 * held when it signed (its own transcript up to and including that envelope).
 */
import { readFileSync, readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { decodeEnvelope } from '../../src/games/spaceships/protocol/envelope.js'
import { parseTranscript } from '../../src/games/spaceships/protocol/file.js'
import type { Role, VerdictPart } from '../../src/games/spaceships/protocol/messages.js'
import { verdictPartOf } from '../../src/games/spaceships/session/terms.js'
import { verifyEnvelopes } from '../../src/games/spaceships/verify/verify.js'
import { TERMS, playInMemory } from '../session/helpers.js'

const VECTORS = new URL('../../protocol/vectors/', import.meta.url)

/** Each verdict part `owner` signed in its own file, with what the evidence it held then gives. */
function statements(
  file: readonly Uint8Array[],
  owner: Role,
): { signed: VerdictPart; true: VerdictPart; seq: number }[] {
  const out: { signed: VerdictPart; true: VerdictPart; seq: number }[] = []
  for (const [i, bytes] of file.entries()) {
    const d = decodeEnvelope(bytes)
    // Envelopes of another version are of another game (SPEC §12.1): not statements about this one.
    if (!d.ok || d.value.envelope.sender !== owner || bytes[0] !== file[0]?.[0]) continue
    for (const p of d.value.envelope.parts)
      if (p.t === 'verdict')
        out.push({ signed: p, true: verdictPartOf(verifyEnvelopes(file.slice(0, i + 1))), seq: d.value.envelope.seq })
  }
  return out
}

const claim = (v: VerdictPart): string => `${v.outcome} ${v.winner} ${v.scores.join('-')}`

describe('no signed false statement (SPEC §7.10)', () => {
  it('fresh honest version 3 games: every verdict part either side signs states what its own transcript decides', async () => {
    let parts = 0
    for (let g = 0; g < 12; g++) {
      const { a, b } = await playInMemory(`statements/${g}`, { version: 3, terms: { ...TERMS, maxTurns: 3 + (g % 5) } })
      expect(a.verdict.status).toBe('complete')
      for (const [side, r] of [
        ['A', a],
        ['B', b],
      ] as const)
        for (const s of statements(r.transcript, side)) {
          parts++
          expect(claim(s.signed), `game ${g}, ${side}'s envelope ${s.seq}`).toBe(claim(s.true))
          expect(s.signed.outcome).toBe('complete')
        }
    }
    // Both sides sign one each in every game (SPEC §6.3 end steps 2 and 3).
    expect(parts).toBe(24)
  })

  it('version 4: nothing either side signs states a result; the game ends reveal, reveal, close (SPEC §6.3, PROTOCOL-4.md §8)', async () => {
    for (let g = 0; g < 6; g++) {
      const { a, b } = await playInMemory(`statements/v4/${g}`, {
        version: 4,
        terms: { ...TERMS, maxTurns: 3 + (g % 5) },
      })
      expect(a.verdict.status).toBe('complete')
      for (const [side, r] of [
        ['A', a],
        ['B', b],
      ] as const) {
        expect(statements(r.transcript, side)).toHaveLength(0)
        const ends = r.transcript
          .map((bytes) => decodeEnvelope(bytes))
          .flatMap((d) => (d.ok ? [d.value.envelope.parts.map((p) => p.t).join('+')] : []))
          .slice(-3)
        expect(ends).toEqual(['reveal', 'reveal', 'close'])
      }
    }
  })

  it('every vector: the only false statements are the legacy courtesy parts the version 3 vectors keep (SPEC §7.10)', () => {
    let parts = 0
    const legacy: string[] = []
    for (const name of readdirSync(VECTORS).filter((f) => f.endsWith('.transcript'))) {
      const parsed = parseTranscript(readFileSync(new URL(name, VECTORS)))
      if (!parsed.ok) continue
      const file = parsed.value.lines.flatMap((l) => (l.bytes === undefined ? [] : [l.bytes]))
      // A file edited without a key into deciding nothing (a line deleted, a hello missing) is not
      // what its writer held when it signed.
      const whole = verifyEnvelopes(file).status
      if (whole === 'incomplete' || whole === 'unreadable') continue
      for (const side of ['A', 'B'] as const)
        for (const s of statements(file, side)) {
          parts++
          if (claim(s.signed) === claim(s.true)) continue
          // The pre-0.5 node's part beside its own reveal, which read its envelope without the part.
          expect(s.signed.detail, `${name}: ${side}'s envelope ${s.seq}`).toMatch(
            new RegExp(
              `^protocol-violation by ${side} in turn \\d+ \\(SPEC .6\\.3\\): reveal sent where reveal\\+verdict was due$`,
            ),
          )
          legacy.push(`${name} ${side}${s.seq}`)
        }
    }
    expect(parts).toBeGreaterThanOrEqual(18)
    expect(legacy.length).toBeGreaterThan(0)
  })
})
