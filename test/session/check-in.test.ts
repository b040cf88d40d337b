/**
 * A check-in's pause (PROTOCOL-4.md §4, games across days; `resume --check-in`, `watch`): the
 * session does every step it can and returns, paused, once the other side owes the next step; under
 * `watch` (pauseOnDecision) also when its own player has not decided, so a person's move is never
 * waited for unattended, while a bot's is made. It never claims.
 */
import { describe, expect, it } from 'vitest'
import { generateKeyPair } from '../../src/core/commit/keys.js'
import { seededSecrets } from '../../src/core/commit/secrets.js'
import { memoryChannelPair } from '../../src/core/session/channel.js'
import { VirtualClock } from '../../src/core/session/clock.js'
import { memoryStore } from '../../src/games/spaceships/protocol/file.js'
import { seededRandom } from '../../src/games/spaceships/rules/rng.js'
import { runSession } from '../../src/games/spaceships/session/session.js'
import { type PlayerStrategy, randomStrategy } from '../../src/games/spaceships/session/strategy.js'
import { TERMS } from './helpers.js'
import { decodeEnvelope } from '../../src/games/spaceships/protocol/envelope.js'
import { turnReport } from '../../src/games/spaceships/ui/screen.js'

/** A person who is not there: never decides. */
const AWAY: PlayerStrategy = { setup: () => new Promise(() => undefined), record: () => new Promise(() => undefined) }

/** One side's session inputs, its keys and secrets seeded by `seed`, on `clock`. */
function sideOf(seed: string, role: 'A' | 'B', clock: VirtualClock) {
  const secrets = seededSecrets(seed)
  return {
    role,
    keys: generateKeyPair(secrets),
    secrets,
    store: memoryStore(),
    clock,
    version: 4 as const,
    terms: TERMS,
  }
}

async function checkIn(
  player: PlayerStrategy,
  pauseOnDecision: boolean,
  other: PlayerStrategy = randomStrategy(seededRandom('b')),
  o: { awaitDecision?: boolean; clock?: VirtualClock; paused?: () => void } = {},
) {
  const clock = o.clock ?? new VirtualClock()
  const pair = memoryChannelPair(undefined, clock)
  const side = (role: 'A' | 'B') => sideOf(`check-in/${role}`, role, clock)
  const stopB = new AbortController()
  const b = runSession({
    ...side('B'),
    channel: pair.ends[1],
    strategy: other,
    signal: stopB.signal,
  })
  const a = runSession({
    ...side('A'),
    channel: pair.ends[0],
    strategy: player,
    checkIn: { quietMs: 2_000, pauseOnDecision, ...(o.awaitDecision === true ? { awaitDecision: true } : {}) },
  })
  const [ra] = await clock.settle([a])
  o.paused?.()
  stopB.abort()
  await clock.settle([b])
  return ra
}

describe('a check-in pauses (PROTOCOL-4.md §4)', () => {
  it('watch: a person who has not decided is not waited for: paused at its setup, nothing of its own signed but the hello', async () => {
    const r = await checkIn(AWAY, true)
    expect(r.paused).toBe(true)
    expect(r.transcript).toHaveLength(2)
  })

  it("a bot's decisions are made, and the session pauses only once the other side owes the next step", async () => {
    // The other side's player is away: after the hellos, it owes its setup.
    const r = await checkIn(randomStrategy(seededRandom('a')), true, AWAY)
    expect(r.paused).toBe(true)
    // A's bot made its setup, signed before the pause; B owes its own, and A never claims.
    expect(r.transcript).toHaveLength(3)
    expect(r.verdict.status).toBe('incomplete')
  })

  it('a person checking in at a terminal (awaitDecision) is not paused under the record prompt a commitment ahead opened: the record is chosen first (SPEC §6.3)', async () => {
    for (const awaitDecision of [false, true]) {
      const clock = new VirtualClock()
      const bot = randomStrategy(seededRandom('slow person'))
      const asked = { started: 0, chosen: 0 }
      // A person who takes 50 s to type each record: past the 25 ms a commitment ahead waits for,
      // so A's results at the end of turn 2 go alone and B moves first in turn 3 (SPEC §6.3).
      const slow: PlayerStrategy = {
        setup: (ruleset, signal, deadline) => bot.setup(ruleset, signal, deadline),
        record: async (ctx) => {
          asked.started++
          await clock.sleep(50_000)
          asked.chosen++
          return bot.record(ctx)
        },
      }
      // B commits ahead at once in turns 1 and 2 (so it moves first in turn 2), then takes a
      // minute a record: its turn-3 commitment is owed while A's turn-3 prompt is open.
      const other = randomStrategy(seededRandom('b'))
      const slowOther: PlayerStrategy = {
        setup: (ruleset, signal, deadline) => other.setup(ruleset, signal, deadline),
        record: async (ctx) => {
          if (ctx.turn >= 3) await clock.sleep(60_000)
          return other.record(ctx)
        },
      }
      const at = { started: 0, chosen: 0 }
      const r = await checkIn(slow, false, slowOther, { awaitDecision, clock, paused: () => Object.assign(at, asked) })
      expect(r.paused).toBe(true)
      expect(at.started).toBeGreaterThan(0)
      if (awaitDecision) expect(at.chosen, 'awaitDecision').toBe(at.started)
      else expect(at.chosen, 'without').toBeLessThan(at.started)
    }
  })

  it("a first mover that answered the other side's aspects and paused has their strikes and its own losses in lastTurn, its own strikes' answers unknown (SPEC §6.3 step 3)", async () => {
    const clock = new VirtualClock()
    const pair = memoryChannelPair(undefined, clock)
    const side = (role: 'A' | 'B') => sideOf(`check-in-report/${role}`, role, clock)
    // Nothing of B's reaches A after its turn-1 commitment and aspects (step 2): its results are owed.
    let armed = false
    let muted = false
    const end = pair.ends[1]
    const send = async (f: Uint8Array): Promise<void> => {
      if (muted) return
      await end.send(f)
      muted = armed
    }
    const stopB = new AbortController()
    const b = runSession({
      ...side('B'),
      channel: {
        ...end,
        send,
        close: () => {
          end.close()
        },
      },
      strategy: randomStrategy(seededRandom('report/b')),
      signal: stopB.signal,
      onEvent: (e) => {
        if (e.kind === 'envelope' && e.direction === 'sent' && e.sealed.envelope.parts.some((p) => p.t === 'aspects'))
          armed = true
      },
    })
    const a = runSession({
      ...side('A'),
      channel: pair.ends[0],
      strategy: randomStrategy(seededRandom('report/a')),
      checkIn: { quietMs: 2_000, pauseOnDecision: false },
    })
    const [ra] = await clock.settle([a])
    stopB.abort()
    await clock.settle([b])
    expect(ra.paused).toBe(true)
    const last = ra.lastTurn
    expect(last?.turn.turn).toBe(1)
    expect(last?.answered).toBe(false)
    if (last === undefined) return
    const sent = (role: 'A' | 'B', t: 'aspects' | 'results') =>
      ra.transcript
        .map((bytes) => decodeEnvelope(bytes))
        .flatMap((d) => (d.ok && d.value.envelope.sender === role ? d.value.envelope.parts : []))
        .find((p) => p.t === t)
    // What B did, and A's own answers to it (its losses), as signed; B's answers to A: none yet.
    expect(last.turn.theirAspects).toEqual(sent('B', 'aspects'))
    expect(last.turn.myAspects).toEqual(sent('A', 'aspects'))
    const results = sent('A', 'results')
    expect(results?.t).toBe('results')
    if (results?.t === 'results') expect(last.turn.myReports).toEqual(results.destroyed)
    expect(sent('B', 'results')).toBeUndefined()
    expect(last.turn.theirResults.strikes).toEqual([])
    // The report says so: each of A's strikes is answered with "?".
    const lines = turnReport(last.turn, last.state)
    expect(lines[0]).toMatch(/^Turn 1, yours: /)
    if (last.turn.myAspects.strikes.length > 0) expect(lines[0]).toContain(`${last.turn.myAspects.strikes[0]} ?`)
    expect(lines.some((l) => l.startsWith('Turn 1, theirs: '))).toBe(true)
  })
})
