/**
 * Provisional results, settled (SPEC §12.7, §2.2, §6.5): a result that rests on the absence of the
 * other side's envelope is provisional; when the two nodes meet again, each resends what the other
 * lacks, a side that receives the other's stop answers it with its reveal, and both transcripts then
 * decide the same result. Two honest players are never both told they won.
 */
import { describe, expect, it } from 'vitest'
import { generateKeyPair } from '../../src/core/commit/keys.js'
import { seededSecrets } from '../../src/core/commit/secrets.js'
import { seededRandom } from '../../src/games/spaceships/rules/rng.js'
import { type Fault, memoryChannelPair } from '../../src/core/session/channel.js'
import { VirtualClock } from '../../src/core/session/clock.js'
import { type Journal, journaledStrategy, memoryJournal } from '../../src/games/spaceships/session/journal.js'
import { type SessionEvent, type SessionResult, runSession } from '../../src/games/spaceships/session/session.js'
import { randomStrategy } from '../../src/games/spaceships/session/strategy.js'
import { decodeEnvelope } from '../../src/games/spaceships/protocol/envelope.js'
import { memoryStore } from '../../src/games/spaceships/protocol/file.js'
import type { Role } from '../../src/games/spaceships/protocol/messages.js'
import { TERMS } from './helpers.js'
import { summary, verdictOf } from '../redteam/helpers.js'

const terms = { ...TERMS, maxTurns: 6 }
/** B's seventh frame and everything after it, both ways, is lost: an outage longer than any deadline. */
const outage: Fault = (_frame, from, index) => (from === 1 && index === 6 ? 'cut' : 'deliver')

interface Round {
  readonly results: [SessionResult, SessionResult]
  readonly events: [SessionEvent[], SessionEvent[]]
}

/** Both sides over one in-memory link, each from its stored transcript; a link made anew is reconnected. */
async function round(
  seed: string,
  stored: readonly [readonly Uint8Array[], readonly Uint8Array[]],
  journals: readonly [Journal, Journal],
  o: { fault?: Fault; settleMs?: number; meetAfterMs?: number; writtenAgoMs?: number } = {},
): Promise<Round & { elapsed: number }> {
  const clock = new VirtualClock(10_000_000)
  const pair = memoryChannelPair(o.fault, clock)
  const events: [SessionEvent[], SessionEvent[]] = [[], []]
  const side = (role: Role, k: 0 | 1): Promise<SessionResult> => {
    const secrets = seededSecrets(`${seed}/${role}`)
    return runSession({
      role,
      keys: generateKeyPair(secrets),
      terms,
      secrets,
      // A store that knows when it was last written (the file's mtime), long ago when asked.
      store: {
        ...memoryStore(stored[k]),
        ...(o.writtenAgoMs === undefined ? {} : { lastWrittenAt: () => 10_000_000 - (o.writtenAgoMs ?? 0) }),
      },
      channel: pair.ends[k],
      clock,
      strategy: journaledStrategy(randomStrategy(seededRandom(`${seed}/${role}/bot`)), journals[k]),
      onEvent: (e) => events[k].push(e),
      ...(o.settleMs === undefined ? {} : { settleMs: o.settleMs }),
    })
  }
  const run = clock.settle<[SessionResult, SessionResult]>([side('A', 0), side('B', 1)])
  // The nodes meet again when the second one is started, later than the reply window (SPEC §6.5).
  if (stored[0].length > 0)
    void clock.sleep(o.meetAfterMs ?? 0).then(() => {
      pair.reconnect()
    })
  return { results: await run, events, elapsed: clock.now() - 10_000_000 }
}

const sender = (b: Uint8Array): Role | undefined => {
  const d = decodeEnvelope(b)
  return d.ok ? d.value.envelope.sender : undefined
}
const isStop = (b: Uint8Array): boolean => {
  const d = decodeEnvelope(b)
  return d.ok && d.value.envelope.parts[0]?.t === 'stop'
}

describe('provisional results settled when the nodes meet again (SPEC §12.7, §2.2)', () => {
  it('an outage longer than the deadline: each side claims and its own file says it wins provisionally; met again, both files decide one adjudication', async () => {
    const seed = 'settle/outage'
    const journals = [memoryJournal(), memoryJournal()] as const
    const first = await round(seed, [[], []], journals, { fault: outage })
    const [a, b] = first.results
    // Each side's own evidence: the other stopped answering and has not revealed (rule 7).
    expect(a.verdict).toMatchObject({ status: 'abandoned', how: 'no-reveal', winner: 'A', provisional: true })
    expect(b.verdict).toMatchObject({ status: 'abandoned', how: 'no-reveal', winner: 'B', provisional: true })
    const second = await round(seed, [a.transcript, b.transcript], journals, {
      settleMs: 60_000,
      meetAfterMs: 3 * terms.replyMs,
    })
    const [a2, b2] = second.results
    // Both stops crossed: each stopped of its own accord, nobody is convicted of lateness (rule 8).
    expect(a2.verdict).toMatchObject({ status: 'adjudicated', stoppedBy: ['A', 'B'] })
    expect(summary(b2.verdict)).toBe(summary(a2.verdict))
    expect(summary(verdictOf(a2.transcript))).toBe(summary(verdictOf(a2.transcript, b2.transcript)))
    // Settling signs nothing: each side only resent what it had.
    expect(a2.transcript.filter((x) => sender(x) === 'A')).toEqual(a.transcript.filter((x) => sender(x) === 'A'))
    expect(b2.transcript.filter((x) => sender(x) === 'B')).toEqual(b.transcript.filter((x) => sender(x) === 'B'))
  })

  it("a killed joiner returns after the host's claim: it learns the end from the host's node, answers with its reveal, never plays on, and both files decide one result", async () => {
    const seed = 'settle/killed'
    const journals = [memoryJournal(), memoryJournal()] as const
    const first = await round(seed, [[], []], journals, { fault: outage })
    const [a] = first.results
    expect(a.verdict).toMatchObject({ status: 'abandoned', by: 'B', how: 'no-reveal', provisional: true })
    // B was killed during the outage, before its own deadline: its disk holds everything up to
    // its stop, which it never got to sign.
    const bDisk = first.results[1].transcript.filter((x) => !(sender(x) === 'B' && isStop(x)))
    const second = await round(seed, [a.transcript, bDisk], journals, {
      settleMs: 60_000,
      meetAfterMs: 3 * terms.replyMs,
    })
    const [a2, b2] = second.results
    expect(a2.verdict).toMatchObject({ status: 'adjudicated', stoppedBy: ['A'] })
    expect(summary(b2.verdict)).toBe(summary(a2.verdict))
    // B's one new envelope is its answer to A's stop: it learned the end and played no move.
    const signed = b2.transcript.filter((x) => sender(x) === 'B').slice(bDisk.filter((x) => sender(x) === 'B').length)
    expect(signed.length).toBe(1)
    expect(signed.every(isStop)).toBe(true)
    expect(second.events[1].some((e) => e.kind === 'stopped' && e.by === 'A')).toBe(true)
  })

  it('a side that settles waits no longer than settleMs for a node that never comes back, and its result stays provisional', async () => {
    const seed = 'settle/alone'
    const journals = [memoryJournal(), memoryJournal()] as const
    const [a] = (await round(seed, [[], []], journals, { fault: outage })).results
    const clock = new VirtualClock()
    const pair = memoryChannelPair(undefined, clock)
    const secrets = seededSecrets(`${seed}/A`)
    const start = clock.now()
    const [alone] = await clock.settle<[SessionResult]>([
      runSession({
        role: 'A',
        keys: generateKeyPair(secrets),
        terms,
        secrets,
        store: memoryStore(a.transcript),
        channel: pair.ends[0],
        clock,
        strategy: journaledStrategy(randomStrategy(seededRandom(`${seed}/A/bot`)), journals[0]),
        settleMs: 45_000,
      }),
    ])
    expect(clock.now() - start).toBe(45_000)
    expect(alone.verdict).toMatchObject({ status: 'abandoned', provisional: true })
    expect(alone.transcript).toEqual(a.transcript)
  })
})

describe('a node that returns after a long absence (SPEC §2.2, §6.6)', () => {
  const killed = async (
    seed: string,
  ): Promise<{ a: SessionResult; bDisk: Uint8Array[]; journals: readonly [Journal, Journal] }> => {
    const journals = [memoryJournal(), memoryJournal()] as const
    const [a, b] = (await round(seed, [[], []], journals, { fault: outage })).results
    return { a, bDisk: b.transcript.filter((x) => !(sender(x) === 'B' && isStop(x))), journals }
  }

  it('gives the other node one reply window to deliver what it sent meanwhile before it claims: it learns the stop and answers it, and never claims against an envelope that merely did not reach it', async () => {
    const { a, bDisk, journals } = await killed('settle/grace')
    // B's disk was last written an hour ago: its deadline for A passed long since.
    const met = await round('settle/grace', [a.transcript, bDisk], journals, {
      settleMs: 60_000,
      meetAfterMs: terms.replyMs / 2,
      writtenAgoMs: 3_600_000,
    })
    const [a2, b2] = met.results
    const signed = b2.transcript.filter((x) => sender(x) === 'B').slice(bDisk.filter((x) => sender(x) === 'B').length)
    expect(signed).toHaveLength(1)
    expect(a2.verdict).toMatchObject({ status: 'adjudicated', stoppedBy: ['A'] })
    expect(summary(b2.verdict)).toBe(summary(a2.verdict))
  })

  it('a settling node whose peer stopped on its own while away ends once it has resent everything, not at the end of settleMs', async () => {
    const { a, bDisk, journals } = await killed('settle/crossed')
    // The nodes meet after B's grace (B has claimed by then, and the stops cross) but before B's
    // own reply window after its claim ends.
    const met = await round('settle/crossed', [a.transcript, bDisk], journals, {
      settleMs: 120_000,
      meetAfterMs: 1.5 * terms.replyMs,
      writtenAgoMs: 3_600_000,
    })
    const [a2, b2] = met.results
    expect(a2.verdict).toMatchObject({ status: 'adjudicated', stoppedBy: ['A', 'B'] })
    expect(summary(b2.verdict)).toBe(summary(a2.verdict))
    expect(met.elapsed).toBeLessThan(1.5 * terms.replyMs + 5_000)
  })
})

describe("a resumed game's clock (SPEC §6.6)", () => {
  it('runs from when the last envelope was persisted, not from the restart: the player is shown the deadline it really has', async () => {
    const seed = 'settle/clock'
    const journals = [memoryJournal(), memoryJournal()] as const
    const [a, b] = (await round(seed, [[], []], journals, { fault: outage })).results
    // B was killed after its last envelope; its disk was last written 45 s before it resumes.
    const bDisk = b.transcript.filter((x) => !(sender(x) === 'B' && isStop(x)))
    const clock = new VirtualClock(1_000_000)
    const pair = memoryChannelPair(undefined, clock)
    const secrets = seededSecrets(`${seed}/B`)
    const deadlines: number[] = []
    const inner = journaledStrategy(randomStrategy(seededRandom(`${seed}/B/bot`)), journals[1])
    const store = { ...memoryStore(bDisk), lastWrittenAt: () => clock.now() - 45_000 }
    const strategy = {
      ...inner,
      record: (ctx: Parameters<typeof inner.record>[0]) => {
        if (ctx.deadline !== undefined) deadlines.push(ctx.deadline)
        return inner.record(ctx)
      },
    }
    const secretsA = seededSecrets(`${seed}/A`)
    const ran = clock.settle<[SessionResult, SessionResult]>([
      runSession({
        role: 'A',
        keys: generateKeyPair(secretsA),
        terms,
        secrets: secretsA,
        store: memoryStore(a.transcript),
        channel: pair.ends[0],
        clock,
        strategy: journaledStrategy(randomStrategy(seededRandom(`${seed}/A/bot`)), journals[0]),
        settleMs: 5_000,
      }),
      runSession({
        role: 'B',
        keys: generateKeyPair(secrets),
        terms,
        secrets,
        store,
        channel: pair.ends[1],
        clock,
        strategy,
      }),
    ])
    await ran
    // The turns B's journal gives back are asked with the deadline of its persisted clock.
    expect(deadlines.length).toBeGreaterThan(0)
    expect(deadlines[0]).toBe(1_000_000 - 45_000 + terms.turnMs)
  })
})
