/**
 * Version 4's draw (SPEC §7.11, §7.12, §12.7): an offer ends the envelope that completes a turn,
 * the other side accepts it instead of its next commitment, both reveal, and every reader decides
 * "complete, agreed-draw, drawn" from either file. Declined by playing on, it changes nothing.
 */
import { describe, expect, it } from 'vitest'
import { decodeEnvelope } from '../../src/games/spaceships/protocol/envelope.js'
import { formatTranscript } from '../../src/games/spaceships/protocol/file.js'
import { seededRandom } from '../../src/games/spaceships/rules/rng.js'
import {
  ACCEPT_DRAW,
  type PlayerStrategy,
  offerDraw,
  randomStrategy,
  recordText,
} from '../../src/games/spaceships/session/strategy.js'
import { verifyFiles } from '../../src/games/spaceships/verify/verify.js'
import { TERMS, playInMemory } from './helpers.js'
import { journaledStrategy, memoryJournal } from '../../src/games/spaceships/session/journal.js'
import { DEFAULT_RULESET } from '../../src/games/spaceships/rules/ruleset.js'
import { initialPlayerState } from '../../src/games/spaceships/rules/state.js'

const terms = { ...TERMS, maxTurns: 30 }

/** A random player that offers a draw with its record of turn `at`. */
function offering(seed: string, at: number): PlayerStrategy {
  const inner = randomStrategy(seededRandom(seed))
  return {
    setup: (r) => inner.setup(r),
    record: async (ctx) => {
      const text = recordText(await inner.record(ctx)) ?? ''
      return ctx.turn === at && ctx.mayOfferDraw === true ? offerDraw(text) : text
    },
  }
}

/** A random player that accepts any offer standing when it decides, or declines by playing on. */
function answering(seed: string, accept: boolean): PlayerStrategy {
  const inner = randomStrategy(seededRandom(seed))
  return {
    setup: (r) => inner.setup(r),
    record: (ctx) => (accept && ctx.drawOffered?.() === true ? ACCEPT_DRAW : inner.record(ctx)),
  }
}

const partsOf = (transcript: readonly Uint8Array[]): string[] =>
  transcript.flatMap((b) => {
    const d = decodeEnvelope(b)
    return d.ok ? [`${d.value.envelope.sender}:${d.value.envelope.parts.map((p) => p.t).join('+')}`] : []
  })

describe('a draw offered and accepted (version 4, SPEC §7.11, §7.12)', () => {
  it("the offerer's record prompt still open when the acceptance ends the game is withdrawn (its signal aborts), and nothing of it is used", async () => {
    let withdrawn = 0
    let offeredAt = 0
    const inner = offering('draw/open/b', 1)
    // B from turn 2 on: a person still thinking when the game ends (its prompt answers only once
    // withdrawn), so it commits nothing ahead, and A, first to move in turn 2, accepts instead.
    const thinking: PlayerStrategy = {
      setup: (r) => inner.setup(r),
      record: (ctx) => {
        if (ctx.turn === 1) {
          offeredAt = 1
          return inner.record(ctx)
        }
        return new Promise((resolve) =>
          ctx.signal?.addEventListener('abort', () => {
            withdrawn++
            resolve('')
          }),
        )
      },
    }
    const g = await playInMemory('draw/open', {
      version: 4,
      terms,
      strategies: [answering('draw/open/a', true), thinking],
    })
    expect(offeredAt).toBe(1)
    const v = g.b.verdict
    expect(v.status === 'complete' && v.reason, JSON.stringify(v).slice(0, 300)).toBe('agreed-draw')
    expect(withdrawn).toBe(1)
  })

  it("a withdrawn prompt journals nothing: a resume would replay it as the turn's choice", async () => {
    const journal = memoryJournal()
    const stop = new AbortController()
    stop.abort()
    const person = journaledStrategy(
      { setup: () => Promise.reject(new Error('unused')), record: () => Promise.resolve('') },
      journal,
    )
    const ctx = { role: 'A', ruleset: DEFAULT_RULESET, turn: 2, state: initialPlayerState([]), history: [] } as const
    await person.record({ ...ctx, signal: stop.signal })
    expect(journal.entries()).toEqual([])
    await person.record({ ...ctx, turn: 3 })
    expect(journal.entries()).toEqual([{ k: 'record', turn: 3, text: '' }])
  })

  it('accepted: the game ends after the turns both committed, both reveal, and both files decide a draw', async () => {
    let accepted = 0
    for (let i = 0; i < 6; i++) {
      const events: string[] = []
      const g = await playInMemory(`draw/${i}`, {
        version: 4,
        terms,
        strategies: [offering(`draw/${i}/a`, 2), answering(`draw/${i}/b`, true)],
      })
      for (const e of g.events[1]) if (e.kind === 'draw') events.push(`${e.by} ${e.what}`)
      const v = g.a.verdict
      if (v.status !== 'complete' || v.reason !== 'agreed-draw') {
        // The game ended by the rules before A's offer could ride on a turn it completes.
        expect(v.status).toBe('complete')
        continue
      }
      accepted++
      expect(v.winner).toBe('draw')
      expect(events).toEqual(['A offered'])
      expect(JSON.stringify(g.b.verdict)).toBe(JSON.stringify(v))
      const parts = partsOf(g.a.transcript)
      const at = parts.findIndex((p) => p.endsWith('+offer'))
      // The offer stands until B's next commitment, in whose place B accepts (SPEC §7.11, §7.12).
      const acceptedAt = parts.findIndex((p, i) => i > at && p.startsWith('B:') && p.includes('accept'))
      expect(parts.slice(at + 1, acceptedAt).some((p) => p.startsWith('B:') && p.includes('commit'))).toBe(false)
      expect(parts.slice(acceptedAt + 1)).toEqual(['A:reveal', 'B:reveal', 'A:close'])
      const files = [
        { name: 'a', content: formatTranscript(g.a.transcript) },
        { name: 'b', content: formatTranscript(g.b.transcript) },
      ]
      for (const f of [[files[0]!], [files[1]!], files]) expect(JSON.stringify(verifyFiles(f))).toMatch(/"agreed-draw"/)
    }
    expect(accepted).toBeGreaterThanOrEqual(4)
  }, 60_000)

  it('declined: the other side plays on, the offer lapses, and the game ends by the rules', async () => {
    const g = await playInMemory('draw/declined', {
      version: 4,
      terms,
      strategies: [offering('draw/declined/a', 2), answering('draw/declined/b', false)],
    })
    expect(g.a.verdict.status).toBe('complete')
    expect(g.a.verdict.status === 'complete' && g.a.verdict.reason).not.toBe('agreed-draw')
    const said = g.events[0].flatMap((e) => (e.kind === 'draw' ? [`${e.by} ${e.what}`] : []))
    expect(said).toEqual(['B declined'])
    expect(partsOf(g.a.transcript).filter((p) => p.includes('offer'))).toHaveLength(1)
  }, 30_000)
})
