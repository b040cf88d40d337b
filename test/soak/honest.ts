/**
 * Soak (opt-in, `npm run soak`): a thousand honest games in memory on a virtual clock, in three
 * rulesets, each with its own seeded network faults (stalls that keep every exchange within the
 * deadline less the margin, duplicated frames). No honest player is ever accused (DESIGN.md
 * goal 1): every game is complete, both sides sign the same verdict, and a third party reaches it
 * from either file.
 */
import { describe, expect, it } from 'vitest'
import { randomInt, seededRandom } from '../../src/games/spaceships/rules/rng.js'
import { formatTranscript } from '../../src/games/spaceships/protocol/file.js'
import { LIMITS } from '../../src/games/spaceships/protocol/messages.js'
import { verifyFiles } from '../../src/games/spaceships/verify/verify.js'
import { TERMS, playInMemory } from '../session/helpers.js'

const MAX_TURNS = 30
const RULESETS = ['2.6.1 fleet=standard', 'classic fleet=standard', '2.6.1 fleet=cost:24 max=DS:1']

/** Games `from` to `to` (exclusive) of the soak; two files share the thousand on two workers. */
export function soak(from: number, to: number): void {
  describe(`soak: honest games ${from}..${to - 1} with network faults`, () => {
    it('no honest player is ever accused, and every verdict is the same on both sides and for the verifier', async () => {
      const statuses = new Map<string, number>()
      for (let i = from; i < to; i++) {
        const ruleset = RULESETS[i % RULESETS.length] ?? TERMS.ruleset
        const terms = { ...TERMS, ruleset, maxTurns: MAX_TURNS }
        const rng = seededRandom(`soak/faults/${i}`)
        // A reply deadline spans one frame each way: each may stall up to half the deadline less the margin.
        const stall = (terms.replyMs - LIMITS.marginMs) / 2
        let last: Uint8Array | undefined
        const g = await playInMemory(`soak/${i}`, {
          terms,
          // One frame in twenty stalls; the link stays in order.
          fault: (frame, from) => {
            if (from === 1) last = frame
            return randomInt(rng, 20) === 0 ? { delay: randomInt(rng, stall) } : 'deliver'
          },
          // B's last frame arrives again every second (a peer repeating itself).
          duplicates: () => (i % 4 === 0 ? last : undefined),
        })
        const key = JSON.stringify(g.a.verdict)
        expect(g.a.verdict.status, `game ${i}: ${key}`).toBe('complete')
        expect(JSON.stringify(g.b.verdict), `game ${i}`).toBe(key)
        expect(
          JSON.stringify(verifyFiles([{ name: 'b', content: formatTranscript(g.b.transcript) }])),
          `game ${i}`,
        ).toBe(key)
        statuses.set(g.a.verdict.status, (statuses.get(g.a.verdict.status) ?? 0) + 1)
      }
      expect([...statuses]).toEqual([['complete', to - from]])
    })
  })
}
