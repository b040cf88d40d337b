/**
 * SPEC §6.3, the commitment ahead: a turn's last envelope may end with its sender's commitment to
 * the next turn, saving one sequential message a turn; a player still thinking is never waited
 * for; and a commitment where the schedule does not allow it is the sender's protocol violation.
 */
import { describe, expect, it } from 'vitest'
import { seededRandom } from '../../src/games/spaceships/rules/rng.js'
import { type PlayerStrategy, randomStrategy } from '../../src/games/spaceships/session/strategy.js'
import type { SealedEnvelope } from '../../src/games/spaceships/protocol/envelope.js'
import type { Part } from '../../src/games/spaceships/protocol/messages.js'
import { partsOf, summary, verdictOf } from '../redteam/helpers.js'
import { TERMS, playInMemory } from './helpers.js'

const terms = { ...TERMS, maxTurns: 12 }

/** Each envelope's sender, seq and part types, in the order A's file holds them. */
function sequence(transcript: readonly Uint8Array[]): string[] {
  return transcript.map(partsOf)
}

type Sealer = (p: readonly Part[]) => SealedEnvelope

/** B, rewriting its envelope that holds results of `turn`: what `rewrite` makes of its parts. */
function rewriteB(turn: number, rewrite: (parts: readonly Part[]) => Part[]) {
  let done = false
  return {
    outgoing(parts: readonly Part[], seal: Sealer) {
      const r = parts.find((p) => p.t === 'results')
      if (done || r?.t !== 'results' || r.turn !== turn) return [seal(parts)]
      done = true
      return [seal(rewrite(parts))]
    },
  }
}

describe('the commitment ahead (SPEC §6.3)', () => {
  it('the last turn waits for no decision about a turn that will not be played (SPEC §6.3, §6.4): a game between instant bots takes no time at all', async () => {
    // Before, the last turn's last envelope waited AHEAD_WAIT_MS for a commitment to turn N + 1
    // whose decision was never asked: 25 ms a game, a fifth of a short game over loopback.
    const g = await playInMemory('ahead/last-turn', { terms: { ...TERMS, maxTurns: 3 } })
    expect(g.a.verdict.status).toBe('complete')
    expect(g.clock.now()).toBe(0)
  })

  it('bots commit ahead: three messages a turn instead of four, and the game is as it would be without', async () => {
    const g = await playInMemory('ahead/bots', { terms })
    const seq = sequence(g.a.transcript)
    expect(seq.filter((p) => /:(results|flashcube)(\+flashcube)?\+commit$/.test(p)).length).toBeGreaterThan(3)
    // With the commitment ahead, the other side answers with its commitment and aspects at once.
    const i = seq.findIndex((p) => p.endsWith('+commit'))
    expect(seq[i + 1]).toMatch(/:commit\+aspects$/)
    expect(g.a.verdict.status).toBe('complete')
    expect(summary(verdictOf(g.a.transcript, g.b.transcript))).toBe(summary(g.a.verdict))
  })

  it('a player still thinking is not waited for: its results go alone, and both think at once', async () => {
    const inner = randomStrategy(seededRandom('ahead/slow/B'))
    const clock: { sleep?: (ms: number) => Promise<void> } = {}
    const slow: PlayerStrategy = {
      setup: (r) => inner.setup(r),
      record: async (ctx) => {
        await clock.sleep?.(5_000)
        return inner.record(ctx)
      },
    }
    const g = await playInMemory('ahead/slow', {
      terms,
      strategies: [undefined, slow],
      onLink: (_p, c) => {
        clock.sleep = (ms) => c.sleep(ms)
      },
    })
    const seq = sequence(g.a.transcript)
    expect(seq.filter((p) => p.startsWith('B') && p.endsWith('+commit'))).toEqual([])
    expect(g.a.verdict.status).toBe('complete')
  })

  it('a commitment ahead where the game ends after the turn is a protocol violation by its sender', async () => {
    const last = { ...TERMS, maxTurns: 2 }
    // Whichever side sends turn 2's results last (step 4) adds a commitment to turn 3.
    const late: string[] = []
    const ahead = (role: string) => ({
      outgoing(parts: readonly Part[], seal: Sealer) {
        const r = parts[0]
        if (r?.t !== 'results' || r.turn !== 2 || parts.at(-1)?.t === 'commit') return [seal(parts)]
        late.push(role)
        return [seal([...parts, { t: 'commit', turn: 3, record: new Uint8Array(32) }])]
      },
    })
    const g = await playInMemory('ahead/after-end', { terms: last, deviations: [ahead('A'), ahead('B')] })
    expect(late).toHaveLength(1)
    for (const v of [g.a.verdict, g.b.verdict, verdictOf(g.a.transcript, g.b.transcript)]) {
      expect(v.status).toBe('offence')
      if (v.status === 'offence') {
        expect([v.offence.offender, v.offence.class]).toEqual([late[0], 'protocol-violation'])
        expect(v.offence.detail).toMatch(/the game ends after turn 2/)
      }
    }
  })

  it('a commitment ahead naming another turn than the next is a protocol violation by its sender', async () => {
    const g = await playInMemory('ahead/wrong-turn', {
      terms,
      deviations: [
        undefined,
        rewriteB(1, (parts) => [
          ...parts.filter((p) => p.t !== 'commit'),
          { t: 'commit', turn: 5, record: new Uint8Array(32) },
        ]),
      ],
    })
    expect(summary(g.a.verdict)).toBe('offence B protocol-violation')
    expect(summary(verdictOf(g.a.transcript))).toBe('offence B protocol-violation')
  })
})
