/**
 * How games end when they do not end normally (SPEC §6.5, §6.6, §12.7), played by two sessions in
 * memory on a virtual clock: resignation, quitting with and without a reveal, early claims, a
 * claimant that withholds its own envelope, stalls shorter and longer than the deadline. In every
 * case an honest player is never convicted, quitting never pays, and both players' files agree
 * once merged.
 */
import { describe, expect, it } from 'vitest'
import { seededRandom } from '../../src/games/spaceships/rules/rng.js'
import type { MemoryPair } from '../../src/core/session/channel.js'
import type { VirtualClock } from '../../src/core/session/clock.js'
import type { SessionEvent } from '../../src/games/spaceships/session/session.js'
import { RESIGN, type PlayerStrategy, randomStrategy } from '../../src/games/spaceships/session/strategy.js'
import { LIMITS } from '../../src/games/spaceships/protocol/messages.js'
import type { Verdict } from '../../src/games/spaceships/verify/verify.js'
import { partsOf, verdictOf } from '../redteam/helpers.js'
import { TERMS, playInMemory } from './helpers.js'

const terms = { ...TERMS, maxTurns: 60 }

function summary(v: Verdict): string {
  switch (v.status) {
    case 'offence':
      return `offence ${v.offence.offender} ${v.offence.class}`
    case 'abandoned':
      return `abandoned ${v.by} ${v.how} -> ${v.winner}`
    case 'resigned':
      return `resigned ${v.by} -> ${v.winner}`
    case 'adjudicated':
      return `adjudicated ${v.scores.join('-')} -> ${v.winner}`
    case 'complete':
      return `complete ${v.scores.join('-')} -> ${v.winner}`
    case 'incomplete':
      return `incomplete ${v.reason}`
    case 'unreadable':
      return 'unreadable'
  }
}

const resignAt = (turn: number, seed: string): PlayerStrategy => {
  const inner = randomStrategy(seededRandom(seed))
  return { setup: (r) => inner.setup(r), record: (ctx) => (ctx.turn === turn ? RESIGN : inner.record(ctx)) }
}

function stopCount(events: readonly SessionEvent[]): number {
  return events.filter((e) => e.kind === 'stopped').length
}

describe('games that do not end normally (SPEC §12.7)', () => {
  it('a resignation is sent the moment the player gives up, whoever is due (SPEC §6.5): the other side learns it while it still thinks', async () => {
    // A never decides turn 1 (a person at the prompt); B resigns at once, while A owes its move.
    const thinking: PlayerStrategy = (() => {
      const inner = randomStrategy(seededRandom('resign-now/a'))
      return {
        setup: (r) => inner.setup(r),
        record: (ctx) =>
          ctx.turn === 1
            ? new Promise((_resolve, reject) =>
                ctx.signal?.addEventListener('abort', () => {
                  reject(new Error('withdrawn'))
                }),
              )
            : inner.record(ctx),
      }
    })()
    const g = await playInMemory('resign-now', { terms, strategies: [thinking, resignAt(1, 'resign-now/b')] })
    expect(summary(g.a.verdict)).toBe('resigned B -> A')
    expect(summary(g.b.verdict)).toBe('resigned B -> A')
    // Nothing waited for A's deadline: the game ended within moments of the resignation.
    expect(g.clock.now()).toBeLessThan(terms.turnMs / 10)
    expect(g.events[0].some((e) => e.kind === 'stopped' && e.by === 'B' && e.reason === 'resignation')).toBe(true)
  })

  it("two resignations that cross are both players giving up: adjudicated on the committed turns, never a loss for whichever is A; one alone, without the winner's stop, is provisional (rule 5, SPEC §12.7)", async () => {
    const clock: { now?: () => number; sleep?: (ms: number) => Promise<void> } = {}
    const resignAtTime = (seed: string): PlayerStrategy => {
      const inner = randomStrategy(seededRandom(seed))
      // Both players give up at the same moment, in turn 3: the stops cross on the wire.
      return {
        setup: (r) => inner.setup(r),
        record: async (ctx) =>
          ctx.turn === 3 ? (await clock.sleep?.(20_000 - (clock.now?.() ?? 0)), RESIGN) : inner.record(ctx),
      }
    }
    const g = await playInMemory('resign-crossed', {
      terms,
      strategies: [resignAtTime('resign-crossed/a'), resignAtTime('resign-crossed/b')],
      onLink: (_pair, c) => {
        clock.now = () => c.now()
        clock.sleep = (ms) => c.sleep(Math.max(0, ms))
      },
    })
    for (const v of [g.a.verdict, g.b.verdict, verdictOf(g.a.transcript, g.b.transcript)])
      expect(v).toMatchObject({ status: 'adjudicated', stoppedBy: ['A', 'B'] })
    // Someone deletes A's crossing resignation (nothing acknowledges it) from B's file: B's alone
    // remains, and it says it is provisional, never a final loss.
    const lastOfA = g.b.transcript.map((x) => partsOf(x).startsWith('A')).lastIndexOf(true)
    expect(verdictOf(g.b.transcript.filter((_, i) => i !== lastOfA))).toMatchObject({
      status: 'resigned',
      by: 'B',
      provisional: true,
    })
  })

  it('a resignation loses, and the resigner still reveals so its play is checked (rule 5)', async () => {
    const g = await playInMemory('stops/resign', { terms, strategies: [undefined, resignAt(4, 'stops/resign/B')] })
    for (const v of [g.a.verdict, g.b.verdict, verdictOf(g.a.transcript, g.b.transcript)])
      expect(summary(v)).toBe('resigned B -> A')
    expect(g.a.transcript.map(partsOf).some((p) => p.startsWith('B') && p.includes('stop+reveal'))).toBe(true)
  })

  it('a quitter that never reveals loses; its reveal produced later makes it an adjudication, nobody convicted (rule 7, then 8)', async () => {
    let sent = 0
    const g = await playInMemory('stops/quit', {
      terms,
      // B signs and keeps everything from its 12th envelope on, and sends none of it.
      deviations: [undefined, { outgoing: () => (++sent >= 12 ? 'withhold' : undefined) as never }],
    })
    expect(summary(g.a.verdict)).toBe('abandoned B no-reveal -> A')
    if (g.a.verdict.status === 'abandoned') expect(g.a.verdict.claimedBy).toBe('A')
    // B's own file holds its reveal (signed, kept): with it, the game is decided on the committed turns.
    expect(summary(verdictOf(g.a.transcript, g.b.transcript)).startsWith('adjudicated')).toBe(true)
  })

  it('an early claim convicts nobody: both reveal, and the committed turns are scored (rule 8)', async () => {
    const g = await playInMemory('stops/early', {
      terms,
      deviations: [undefined, { stopAfterSending: (s) => (s.envelope.seq === 9 ? 'claim' : undefined) }],
    })
    const merged = verdictOf(g.a.transcript, g.b.transcript)
    expect(merged.status).toBe('adjudicated')
    expect(summary(g.a.verdict)).toBe(summary(merged))
    expect(summary(g.b.verdict)).toBe(summary(merged))
  })

  it('a player that stops instead of answering what it provably holds abandons, and loses (rule 6)', async () => {
    const g = await playInMemory('stops/owing', {
      terms,
      deviations: [undefined, { stopAfterReceiving: (s) => (s.envelope.seq === 8 ? 'claim' : undefined) }],
    })
    for (const v of [g.a.verdict, g.b.verdict, verdictOf(g.a.transcript, g.b.transcript)])
      expect(summary(v)).toBe('abandoned B stopped -> A')
  })

  it('a claimant that withholds its own last envelope gains nothing: its own file says adjudicated, the other file says it lost, merged they agree (SPEC §12.7)', async () => {
    let n = 0
    const g = await playInMemory('stops/withhold', {
      terms,
      deviations: [{ outgoing: () => (++n === 9 ? 'withhold' : undefined) as never }, undefined],
    })
    const merged = verdictOf(g.a.transcript, g.b.transcript)
    expect(merged.status).toBe('adjudicated')
    expect(summary(g.b.verdict)).toBe('abandoned A no-reveal -> B')
    expect(['adjudicated', 'abandoned']).toContain(g.a.verdict.status)
    expect(g.a.verdict.status === 'offence' || g.b.verdict.status === 'offence').toBe(false)
  })

  it('a stall shorter than the deadline less the margin never changes the result (SPEC §6.6)', async () => {
    const plain = await playInMemory('stops/stall', { terms })
    const stall = terms.replyMs - LIMITS.marginMs
    const g = await playInMemory('stops/stall', {
      terms,
      fault: (_f, from, i) => (from === 1 && i >= 6 && i <= 8 ? { delay: stall } : 'deliver'),
    })
    expect(summary(g.a.verdict)).toBe(summary(plain.a.verdict))
    expect(summary(g.b.verdict)).toBe(summary(plain.b.verdict))
    expect(stopCount(g.events[0]) + stopCount(g.events[1])).toBe(0)
  })

  it('a stall past the deadline ends the game with the same result in both files, and nobody is convicted of lateness', async () => {
    const g = await playInMemory('stops/stall-long', {
      terms,
      fault: (_f, from, i) => (from === 1 && i === 8 ? { delay: terms.replyMs + 2 * LIMITS.marginMs } : 'deliver'),
    })
    expect(g.a.verdict.status).toBe('adjudicated')
    expect(summary(g.b.verdict)).toBe(summary(g.a.verdict))
    expect(summary(verdictOf(g.a.transcript, g.b.transcript))).toBe(summary(g.a.verdict))
  })

  it('nothing the late side does moves the deadline: its duplicates every second, and the claim still comes at the deadline (SPEC §6.6)', async () => {
    let lastFromB: Uint8Array | undefined
    // B's player walks away in turn 3 and never records it; its node stays up, and B's last frame arrives again every second.
    const inner = randomStrategy(seededRandom('stops/dups/B'))
    const away: PlayerStrategy = {
      setup: (r) => inner.setup(r),
      record: (ctx) => (ctx.turn === 3 ? new Promise<string>(() => undefined) : inner.record(ctx)),
    }
    const g = await playInMemory('stops/dups', {
      terms,
      strategies: [undefined, away],
      fault: (frame, from) => {
        if (from === 1) lastFromB = frame
        return 'deliver'
      },
      duplicates: () => lastFromB,
    })
    const waits = g.events[0].filter(
      (e): e is Extract<SessionEvent, { kind: 'waiting' }> => e.kind === 'waiting' && e.side === 'B',
    )
    const deadline = waits[waits.length - 1]?.deadline ?? Number.NaN
    const claimedAt = g.claimTimes.A ?? Number.NaN
    expect(claimedAt - deadline).toBeGreaterThanOrEqual(0)
    expect(claimedAt - deadline).toBeLessThanOrEqual(LIMITS.marginMs)
    // B's node is up and answers the claim with its reveal: lateness is never convicted, the committed turns are scored.
    expect(g.a.verdict.status).toBe('adjudicated')
    expect(summary(g.b.verdict)).toBe(summary(g.a.verdict))
  })
})

describe('a link that drops messages (SPEC §2.2)', () => {
  /** A random player that thinks `ms` virtual milliseconds before each move. */
  const thinking = (seed: string, clock: () => VirtualClock | undefined, ms: number): PlayerStrategy => {
    const inner = randomStrategy(seededRandom(seed))
    return {
      setup: (r) => inner.setup(r),
      record: async (ctx) => {
        await clock()?.sleep(ms)
        return inner.record(ctx)
      },
    }
  }
  for (const [name, from] of [
    ['B', 1],
    ['A', 0],
  ] as const) {
    it(`an envelope of ${name} lost with the connection, the link restored while the players think: resent at once on the resume frame, nobody accused, the same result`, async () => {
      const play = (cut: boolean): ReturnType<typeof playInMemory> => {
        let clock: VirtualClock | undefined
        let link: MemoryPair | undefined
        let lost = false
        return playInMemory(`lost/${name}`, {
          terms,
          strategies: [thinking(`lost/${name}/A`, () => clock, 5000), thinking(`lost/${name}/B`, () => clock, 5000)],
          onLink: (pair, c) => {
            clock = c
            link = pair
          },
          // The 9th frame of one side is lost with the link; the link comes back 2 s later, mid-think.
          fault: (_frame, side, index) => {
            if (!cut || lost || side !== from || index !== 9) return 'deliver'
            lost = true
            void clock?.sleep(2000).then(() => link?.reconnect())
            return 'cut'
          },
        })
      }
      const plain = await play(false)
      const g = await play(true)
      for (const v of [g.a.verdict, g.b.verdict, verdictOf(g.a.transcript, g.b.transcript)])
        expect(v.status, summary(v)).not.toBe('offence')
      expect(summary(g.a.verdict)).toBe(summary(g.b.verdict))
      expect(summary(g.a.verdict)).toBe(summary(plain.a.verdict))
      expect(stopCount(g.events[0]) + stopCount(g.events[1])).toBe(0)
    })
  }
})
