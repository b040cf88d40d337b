/**
 * Red team on the commitment ahead (SPEC §6.3): attacks that fail, kept as coverage. A commitment
 * ahead at step 5 of the last turn is its sender's protocol violation (the step-4 case is in
 * test/session/ahead.test.ts); a cheater who commits ahead, which makes the honest side the due
 * side (SPEC §12.7 rule 6), and stops at once gets no abandonment pinned on the honest side; a
 * commitment ahead followed by aspects of another record is a commitment-mismatch at the reveal.
 */
import { describe, expect, it } from 'vitest'
import type { SealedEnvelope } from '../../src/games/spaceships/protocol/envelope.js'
import type { Part } from '../../src/games/spaceships/protocol/messages.js'
import { TERMS, playInMemory } from '../session/helpers.js'
import { partsOf, summary, verdictOf } from './helpers.js'

type Sealer = (p: readonly Part[]) => SealedEnvelope

describe('red team: the commitment ahead (SPEC §6.3, §12.7)', () => {
  it("SPEC §6.3 §6.4: a commitment ahead with step-5 flashcube data of the last turn is its sender's protocol violation, live and in every file", async () => {
    // Seed 'rt/c' plays step 5 in turn 6 (A sends flashcube data); with maxTurns 6 the game ends there.
    const terms = { ...TERMS, maxTurns: 6 }
    let added = false
    const ahead = {
      outgoing(parts: readonly Part[], seal: Sealer) {
        const f = parts[0]
        if (added || f?.t !== 'flashcube' || f.turn !== 6 || parts.length !== 1) return [seal(parts)]
        added = true
        return [seal([...parts, { t: 'commit', turn: 7, record: new Uint8Array(32) }])]
      },
    }
    const g = await playInMemory('rt/c', { terms, deviations: [ahead, undefined] })
    expect(added).toBe(true)
    for (const v of [g.a.verdict, g.b.verdict, verdictOf(g.a.transcript, g.b.transcript), verdictOf(g.b.transcript)]) {
      expect(summary(v)).toBe('offence A protocol-violation')
      if (v.status === 'offence') expect(v.offence.detail).toMatch(/game ends after turn 6/)
    }
    // B sent nothing after the illegal envelope but its accusation.
    const seq = g.b.transcript.map(partsOf)
    const i = seq.findLastIndex((p) => /^A\d+:flashcube\+commit$/.test(p))
    expect(seq.slice(i + 1).filter((p) => p.startsWith('B'))).toEqual([expect.stringMatching(/^B\d+:stop\+reveal$/)])
  })

  it('SPEC §12.7 rule 6: a cheater that commits ahead (so the honest side is due) and stops at once never gets the honest side called the abandoner', async () => {
    const terms = { ...TERMS, maxTurns: 12 }
    for (const when of [2, 3, 5]) {
      const g = await playInMemory(`redteam/ahead-stop/${when}`, {
        terms,
        deviations: [
          undefined,
          {
            stopAfterSending: (s) =>
              s.envelope.parts.at(-1)?.t === 'commit' &&
              s.envelope.parts.length > 1 &&
              s.envelope.parts[0]?.t !== 'commit' &&
              s.envelope.seq >= when
                ? 'claim'
                : undefined,
          },
        ],
      })
      const seq = g.a.transcript.map(partsOf)
      expect(seq.some((p) => p.startsWith('B') && p.endsWith('+commit') && !p.includes(':commit'))).toBe(true)
      for (const v of [g.a.verdict, g.b.verdict, verdictOf(g.a.transcript, g.b.transcript)]) {
        expect(`${when}: ${summary(v)}`).not.toMatch(/abandoned A|offence A/)
        // Stopping early is adjudicated on the committed turns (SPEC §13.3): B may win on materiel, never by A's "abandonment".
        expect(`${when}: ${summary(v)}`).toMatch(/^\d: adjudicated/)
      }
    }
  })

  it('SPEC §12.5: a commitment ahead to one record, then the aspects of another, is a commitment-mismatch by its sender at the reveal', async () => {
    const terms = { ...TERMS, maxTurns: 8 }
    // B's commitment ahead to turn 3 binds other bytes than the record whose aspects it then shows.
    let swapped = false
    const g = await playInMemory('redteam/ahead-swap', {
      terms,
      deviations: [
        undefined,
        {
          outgoing(parts: readonly Part[], seal: Sealer) {
            const last = parts.at(-1)
            if (swapped || last?.t !== 'commit' || last.turn !== 3 || parts[0]?.t === 'commit') return [seal(parts)]
            swapped = true
            return [seal([...parts.slice(0, -1), { ...last, record: new Uint8Array(32).fill(9) }])]
          },
        },
      ],
    })
    expect(swapped).toBe(true)
    for (const v of [g.a.verdict, g.b.verdict, verdictOf(g.a.transcript, g.b.transcript)]) {
      expect(summary(v)).toBe('offence B commitment-mismatch')
      if (v.status === 'offence') expect(v.offence.turn).toBe(3)
    }
  })
})
