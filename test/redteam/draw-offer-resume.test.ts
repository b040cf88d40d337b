/**
 * Red team: a draw offer is the player's choice for one envelope (SPEC §6.3 "Version 4: a draw",
 * §7.11). A process that dies after sending it and resumes from its transcript and journal
 * (SPEC §2.2) must not offer again: the journal gives back the turn's record with its offer, and
 * the offer it already signed must not be scheduled a second time.
 */
import { describe, expect, it } from 'vitest'
import { decodeEnvelope } from '../../src/games/spaceships/protocol/envelope.js'
import type { Role } from '../../src/games/spaceships/protocol/messages.js'
import { seededRandom } from '../../src/games/spaceships/rules/rng.js'
import { memoryJournal } from '../../src/games/spaceships/session/journal.js'
import {
  ACCEPT_DRAW,
  type PlayerStrategy,
  offerDraw,
  randomStrategy,
  recordText,
} from '../../src/games/spaceships/session/strategy.js'
import { TERMS } from '../session/helpers.js'
import { resumedGame, summary } from './helpers.js'

const terms = { ...TERMS, maxTurns: 30 }

function parts(b: Uint8Array): { sender: Role; parts: string[] } {
  const d = decodeEnvelope(b)
  if (!d.ok) throw new Error('undecodable')
  return { sender: d.value.envelope.sender, parts: d.value.envelope.parts.map((p) => p.t) }
}

const offers = (t: readonly Uint8Array[]): number => t.filter((b) => parts(b).parts.includes('offer')).length

describe('red team: a draw offer and a resumed node (SPEC §2.2, §6.3, §7.11)', () => {
  it('SPEC §2.2 §7.11: a node that resumes after its offer was declined does not offer a second draw its player never offered', async () => {
    const seed = 'redteam/draw-resume'
    // A offers with its record of turn 2, once. B declines that offer (it plays turn 3) and accepts any later one.
    const inner = (role: Role): PlayerStrategy => {
      const bot = randomStrategy(seededRandom(`${seed}/${role}/bot`))
      if (role === 'A')
        return {
          setup: (r) => bot.setup(r),
          record: async (ctx) => {
            const text = recordText(await bot.record(ctx)) ?? ''
            return ctx.turn === 2 ? offerDraw(text) : text
          },
        }
      return {
        setup: (r) => bot.setup(r),
        record: (ctx) => (ctx.turn >= 4 && ctx.drawOffered?.() === true ? ACCEPT_DRAW : bot.record(ctx)),
      }
    }
    const journals = [memoryJournal(), memoryJournal()] as const
    const [a] = await resumedGame(seed, terms, [[], []], journals, { inner })
    expect(a.verdict.status).toBe('complete')
    expect(a.verdict.status === 'complete' && a.verdict.reason).not.toBe('agreed-draw')
    expect(offers(a.transcript)).toBe(1)
    // Both processes die right after B's answer to the offer (its next commitment, declining) is persisted by both.
    const at = a.transcript.findIndex((b) => parts(b).parts.includes('offer'))
    // The offer stands until B commits (SPEC §7.11): B's first envelope with a commitment declines it.
    const decline = a.transcript.findIndex(
      (b, i) => i > at && parts(b).sender === 'B' && parts(b).parts.includes('commit'),
    )
    expect(decline).toBeGreaterThan(at)
    const cut = a.transcript.slice(0, decline + 1)
    // A resumes with its journal; B's journal at the crash held nothing past turn 3 (a fresh one
    // replays its seeded choices up to there), so B decides turn 4 anew and accepts what stands.
    const [a2, b2] = await resumedGame(seed, terms, [cut, cut], [journals[0], memoryJournal()], { inner })
    // Seen before the fix: A's resumed node re-arms the offer its journal gives back with the record
    // of turn 2 and sends it again with its results of turn 3; B accepts, and both files decide
    // "complete, agreed-draw" on a draw A's player offered once and B had declined.
    expect(offers(a2.transcript)).toBe(1)
    expect(a2.verdict.status === 'complete' && a2.verdict.reason).not.toBe('agreed-draw')
    expect(summary(b2.verdict)).toBe(summary(a2.verdict))
  }, 60_000)
})
