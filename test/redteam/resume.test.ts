/**
 * Red team: a process that dies and resumes from its transcript and journal (SPEC §2.2) must sign
 * exactly what it would have signed. The journal gives back the setup and records asynchronously
 * (the strategy is awaited); a session that resumes owing a reveal (SPEC §6.3 end steps) or an
 * answer to the peer's stop (SPEC §6.5) must not build its reveal before the journal has served
 * them, or the reveal holds an empty setup and empty records and the honest side is convicted on
 * its own signature (illegal-setup / commitment-mismatch).
 */
import { describe, expect, it } from 'vitest'
import { seededRandom } from '../../src/games/spaceships/rules/rng.js'
import { type Journal, memoryJournal } from '../../src/games/spaceships/session/journal.js'
import type { SessionResult } from '../../src/games/spaceships/session/session.js'
import { type PlayerStrategy, RESIGN, randomStrategy } from '../../src/games/spaceships/session/strategy.js'
import { decodeEnvelope } from '../../src/games/spaceships/protocol/envelope.js'
import type { Role } from '../../src/games/spaceships/protocol/messages.js'
import { TERMS } from '../session/helpers.js'
import { resumedGame, summary, verdictOf } from './helpers.js'

const terms = { ...TERMS, maxTurns: 4 }

function partsOfBytes(b: Uint8Array): { sender: Role; parts: string[] } {
  const d = decodeEnvelope(b)
  if (!d.ok) throw new Error('undecodable')
  return { sender: d.value.envelope.sender, parts: d.value.envelope.parts.map((p) => p.t) }
}

/** Both sides resumed over one in-memory link (see `resumedGame`). */
function play(
  seed: string,
  stored: readonly [readonly Uint8Array[], readonly Uint8Array[]],
  journals: readonly [Journal, Journal],
  inner?: (role: Role) => PlayerStrategy,
): Promise<[SessionResult, SessionResult]> {
  return resumedGame(seed, terms, stored, journals, inner === undefined ? {} : { inner })
}

/** The prefix of `file` before the first envelope of `who` holding a part of type `part`. */
function before(file: readonly Uint8Array[], who: Role, part: string): Uint8Array[] {
  const i = file.findIndex((b) => {
    const p = partsOfBytes(b)
    return p.sender === who && p.parts.includes(part)
  })
  expect(i).toBeGreaterThan(0)
  return file.slice(0, i)
}

describe('red team: resuming from disk (SPEC §2.2, §6.3, §6.5, §12.7)', () => {
  // The attack this guards against: the resumed side signs a reveal (or a stop carrying one) before the journal has
  // given back its setup and records; shown on seed 'redteam/resume/reveal': A (N) signs a reveal
  // with no ships, which does not even decode (a protocol-violation on A's signature), and B, resumed
  // too, claims with a reveal whose records of turns 2-4 are empty: B is convicted of a
  // commitment-mismatch. Two honest players, one crash, and the verdict is an offence.
  it('SPEC §2.2 §6.3: an honest side that crashes while it owes its reveal resumes and reveals its real setup', async () => {
    const seed = 'redteam/resume/reveal'
    const journals = [memoryJournal(), memoryJournal()] as const
    const [a, b] = await play(seed, [[], []], journals)
    expect(a.verdict.status).toBe('complete')
    // Whoever reveals first (N) dies just before persisting its reveal; the other side had all but it.
    const first = partsOfBytes(
      a.transcript.find((x) => partsOfBytes(x).parts.includes('reveal')) ?? new Uint8Array(),
    ).sender
    const cut: [Uint8Array[], Uint8Array[]] = [
      before(a.transcript, first, 'reveal'),
      before(b.transcript, first, 'reveal'),
    ]
    const [a2, b2] = await play(seed, cut, journals)
    // Both honest: the resumed game must end as the uninterrupted one did.
    expect(summary(a2.verdict)).toBe(summary(a.verdict))
    expect(summary(b2.verdict)).toBe(summary(b.verdict))
    expect(summary(verdictOf(a2.transcript, b2.transcript))).toBe(summary(a.verdict))
  })

  // The attack this guards against: the resumed side answers the peer's stop (SPEC §6.5) at once, from the loop's first
  // step, with a reveal built before the journal served anything: the winner of a resigned game
  // is convicted of an offence on its own signature (rule 1 outranks rule 5).
  it("SPEC §2.2 §6.5 §12.7: an honest side that crashes holding the peer's resignation resumes and answers with its real reveal", async () => {
    const seed = 'redteam/resume/answer'
    const journals = [memoryJournal(), memoryJournal()] as const
    const inner = (role: Role): PlayerStrategy => {
      const bot = randomStrategy(seededRandom(`${seed}/${role}/bot`))
      return role === 'A'
        ? bot
        : { setup: (r) => bot.setup(r), record: (ctx) => (ctx.turn === 3 ? RESIGN : bot.record(ctx)) }
    }
    const [a, b] = await play(seed, [[], []], journals, inner)
    expect(summary(a.verdict)).toBe('resigned B -> A')
    // A persisted B's resignation and died before its answer; B's process holds all it sent.
    const cut: [Uint8Array[], Uint8Array[]] = [
      before(a.transcript, 'A', 'stop'),
      b.transcript.filter((x) => partsOfBytes(x).sender === 'B' || !partsOfBytes(x).parts.includes('stop')),
    ]
    expect(partsOfBytes(cut[0].at(-1) ?? new Uint8Array()).parts[0]).toBe('stop')
    const [a2] = await play(seed, cut, journals, inner)
    expect(summary(a2.verdict)).toBe('resigned B -> A')
  })

  // The attack this guards against (found by the trust issue): the joiner dies after persisting
  // the host's hello and before persisting its own. Resumed, it holds A's hello as already acted
  // on and waits for a hello it never sends; A, whose hello B holds, resends nothing; both end "no
  // game" after two reply deadlines, though neither did anything wrong.
  it.each([
    ['the joiner alone', false],
    ['both sides', true],
  ] as const)(
    "SPEC §2.2 §6.1: %s dies after B persisted A's hello and before its own: B sends its hello on resuming and the game is played",
    async (_name, both) => {
      const seed = `redteam/resume/hello/${both ? 'both' : 'b'}`
      const journals = [memoryJournal(), memoryJournal()] as const
      const [a] = await play(seed, [[], []], journals)
      expect(a.verdict.status).toBe('complete')
      const helloA = a.transcript[0] ?? new Uint8Array()
      expect(partsOfBytes(helloA)).toEqual({ sender: 'A', parts: ['hello'] })
      // A keeps running in the first case (its store is whole up to its hello); B's file holds only A's hello.
      const [a2, b2] = await play(seed, [[helloA], [helloA]], both ? journals : [memoryJournal(), journals[1]])
      expect(summary(b2.verdict)).toBe(summary(a.verdict))
      expect(summary(a2.verdict)).toBe(summary(a.verdict))
      expect(summary(verdictOf(a2.transcript, b2.transcript))).toBe(summary(a.verdict))
    },
  )
})
