/**
 * Red team: how games end, after the commits that made stops tell the truth (SPEC §6.5, §12.7),
 * settle provisional results when the nodes meet again (§12.7, §2.2), send a resignation the
 * moment the player gives up (§6.5) and run a resumed game's clocks from when its last envelope
 * was persisted (§6.6). Three attackers: a cheater with its own key and a modified node, someone
 * editing published files without any key, and a player who simply stops. Every attack here fails;
 * each test shows the design holding.
 */
import { describe, expect, it } from 'vitest'
import { generateKeyPair } from '../../src/core/commit/keys.js'
import { seededSecrets } from '../../src/core/commit/secrets.js'
import { seededRandom } from '../../src/games/spaceships/rules/rng.js'
import { type Fault, memoryChannelPair } from '../../src/core/session/channel.js'
import { VirtualClock } from '../../src/core/session/clock.js'
import { type Journal, journaledStrategy, memoryJournal } from '../../src/games/spaceships/session/journal.js'
import { type SessionResult, runSession } from '../../src/games/spaceships/session/session.js'
import { type PlayerStrategy, RESIGN, randomStrategy } from '../../src/games/spaceships/session/strategy.js'
import { type SealedEnvelope, decodeEnvelope, seal } from '../../src/games/spaceships/protocol/envelope.js'
import { memoryStore } from '../../src/games/spaceships/protocol/file.js'
import { FRAME, encodeResume } from '../../src/games/spaceships/protocol/frame.js'
import { LIMITS, type Role } from '../../src/games/spaceships/protocol/messages.js'
import type { Verdict } from '../../src/games/spaceships/verify/verify.js'
import { TERMS, playInMemory } from '../session/helpers.js'
import { summary, verdictOf } from './helpers.js'

const terms = { ...TERMS, maxTurns: 6 }

function open(b: Uint8Array): SealedEnvelope {
  const d = decodeEnvelope(b)
  if (!d.ok) throw new Error('undecodable')
  return d.value
}
const senderOf = (b: Uint8Array): Role => open(b).envelope.sender
const isStop = (b: Uint8Array): boolean => open(b).envelope.parts[0]?.t === 'stop'
const ofSide = (t: readonly Uint8Array[], r: Role): Uint8Array[] => t.filter((x) => senderOf(x) === r)
/** A full envelope frame (SPEC §2.1): what any peer may send in place of a compact one. */
const fullFrame = (bytes: Uint8Array): Uint8Array => Uint8Array.of(FRAME.full, ...bytes)

/** Whether a verdict is final: one another file could not change (SPEC §12.7). */
function isFinal(v: Verdict): boolean {
  if (v.status === 'abandoned') return !v.provisional
  return v.status === 'complete' || v.status === 'resigned' || v.status === 'adjudicated' || v.status === 'offence'
}

/**
 * SPEC §12.7 "What a file editor can change": every file an editor can make of `full` by removing
 * lines, restricted to the removals that show no gap (the last envelopes of each side: removing
 * any other is a gap, rule 2). No such file convicts anyone, every rule-6 result without the
 * winner's stop is provisional, and every final result is the full evidence's own.
 */
function editorCannotForge(full: readonly Uint8Array[]): void {
  const whole = verdictOf(full)
  const chains = { A: ofSide(full, 'A'), B: ofSide(full, 'B') }
  for (let i = 0; i <= Math.min(4, chains.A.length - 1); i++) {
    for (let j = 0; j <= Math.min(4, chains.B.length - 1); j++) {
      const gone = new Set([...chains.A.slice(chains.A.length - i), ...chains.B.slice(chains.B.length - j)])
      const edited = full.filter((x) => !gone.has(x))
      const v = verdictOf(edited)
      const what = `removing A's last ${i} and B's last ${j}: ${summary(v)} (full: ${summary(whole)})`
      if (whole.status !== 'offence') expect(v.status, what).not.toBe('offence')
      if (v.status === 'abandoned' && v.how === 'stopped') {
        const winnerStop = edited.some((x) => senderOf(x) === v.winner && isStop(x))
        expect(v.provisional, what).toBe(!winnerStop)
      }
      if (v.status === 'abandoned' && v.how === 'no-reveal') expect(v.provisional, what).toBe(true)
      if (isFinal(v)) {
        expect(v.status, what).toBe(whole.status)
        expect('winner' in v ? v.winner : undefined, what).toBe('winner' in whole ? whole.winner : undefined)
      }
    }
  }
}

const resignAt = (turn: number, seed: string): PlayerStrategy => {
  const inner = randomStrategy(seededRandom(seed))
  return { setup: (r) => inner.setup(r), record: (ctx) => (ctx.turn === turn ? RESIGN : inner.record(ctx)) }
}

/** A player that thinks `ms` virtual milliseconds on turn `turn`, then plays `then`. */
const slowAt = (
  turn: number,
  ms: number,
  clock: () => VirtualClock | undefined,
  seed: string,
  then: 'play' | 'resign',
): PlayerStrategy => {
  const inner = randomStrategy(seededRandom(seed))
  return {
    setup: (r) => inner.setup(r),
    record: async (ctx) => {
      if (ctx.turn !== turn) return inner.record(ctx)
      await clock()?.sleep(ms)
      return then === 'resign' ? RESIGN : inner.record(ctx)
    },
  }
}

/* ------------------------------------------------------------------------------------------- */
/* Settling (SPEC §12.7, §2.2): a session that begins with its own stop already sent             */

/** B's seventh frame and everything after it, both ways, is lost: an outage longer than any deadline. */
const outage: Fault = (_frame, from, index) => (from === 1 && index === 6 ? 'cut' : 'deliver')

async function firstRound(
  seed: string,
  journals: readonly [Journal, Journal],
): Promise<[SessionResult, SessionResult]> {
  const clock = new VirtualClock()
  const pair = memoryChannelPair(outage, clock)
  const side = (role: Role, k: 0 | 1): Promise<SessionResult> => {
    const secrets = seededSecrets(`${seed}/${role}`)
    return runSession({
      role,
      keys: generateKeyPair(secrets),
      terms,
      secrets,
      store: memoryStore(),
      channel: pair.ends[k],
      clock,
      strategy: journaledStrategy(randomStrategy(seededRandom(`${seed}/${role}/bot`)), journals[k]),
    })
  }
  return clock.settle<[SessionResult, SessionResult]>([side('A', 0), side('B', 1)])
}

interface Settled {
  readonly result: SessionResult
  /** Virtual milliseconds the settling session ran. */
  readonly ran: number
  /** Frames the settling node sent. */
  readonly sent: readonly Uint8Array[]
}

/**
 * A settles from its stored transcript against a scripted B (a cheater holding B's key): once the
 * link is up, `script` is called every virtual second with the second's number and sends frames.
 */
async function settleAgainst(
  seed: string,
  stored: readonly Uint8Array[],
  journal: Journal,
  settleMs: number,
  script: (second: number, inject: (frame: Uint8Array) => void) => void,
): Promise<Settled> {
  const clock = new VirtualClock()
  const pair = memoryChannelPair(undefined, clock)
  const secrets = seededSecrets(`${seed}/A`)
  const stop = new AbortController()
  void (async () => {
    pair.reconnect()
    for (let s = 0; !stop.signal.aborted; s++) {
      script(s, (f) => {
        pair.inject(0, f)
      })
      await clock.sleep(1000, stop.signal).catch(() => undefined)
    }
  })()
  try {
    const [result] = await clock.settle<[SessionResult]>([
      runSession({
        role: 'A',
        keys: generateKeyPair(secrets),
        terms,
        secrets,
        store: memoryStore(stored),
        channel: pair.ends[0],
        clock,
        strategy: journaledStrategy(randomStrategy(seededRandom(`${seed}/A/bot`)), journal),
        settleMs,
      }),
    ])
    return { result, ran: clock.now(), sent: pair.sent[0] }
  } finally {
    stop.abort()
  }
}

/** B's envelopes A lacks, from B's own file: what an honest B resends on A's resume frame. */
function missingAtA(a: readonly Uint8Array[], b: readonly Uint8Array[]): Uint8Array[] {
  const held = ofSide(a, 'B').length
  return ofSide(b, 'B').slice(held)
}

describe('red team: settling a provisional result (SPEC §12.7, §2.2, §11)', () => {
  const seed = 'redteam/stops-settle/outage'
  const journals = [memoryJournal(), memoryJournal()] as const
  const first = firstRound(seed, journals)

  it('the outage leaves each side a provisional win (rule 7) that one merge settles', async () => {
    const [a, b] = await first
    expect(a.verdict).toMatchObject({ status: 'abandoned', how: 'no-reveal', winner: 'A', provisional: true })
    expect(b.verdict).toMatchObject({ status: 'abandoned', how: 'no-reveal', winner: 'B', provisional: true })
    expect(verdictOf(a.transcript, b.transcript)).toMatchObject({ status: 'adjudicated', stoppedBy: ['A', 'B'] })
  })

  it('SPEC §2.2 §12.7: a forged resume frame claiming a huge `held` ends the settling early for the liar only; A signs nothing and its file decides the merged result', async () => {
    const [a, b] = await first
    const missing = missingAtA(a.transcript, b.transcript)
    const s = await settleAgainst(seed, a.transcript, journals[0], 60_000, (sec, send) => {
      if (sec === 0) send(encodeResume(0xffff))
      if (sec === 1) for (const m of missing) send(fullFrame(m))
    })
    // A resent nothing (B claimed to hold it all), signed nothing, and stopped waiting once it held B's stop.
    expect(ofSide(s.result.transcript, 'A')).toEqual(ofSide(a.transcript, 'A'))
    expect(s.sent.filter((f) => f[0] !== FRAME.resume)).toEqual([])
    expect(s.ran).toBeLessThan(5_000)
    expect(summary(s.result.verdict)).toBe(summary(verdictOf(a.transcript, b.transcript)))
    expect(isFinal(s.result.verdict)).toBe(true)
  })

  it('SPEC §2.2: resume frames with `held = 0` every second make A resend within RESEND_BUDGET per replyMs, sign nothing, and give up at settleMs', async () => {
    const [a] = await first
    const settleMs = 45_000
    const s = await settleAgainst(seed, a.transcript, journals[0], settleMs, (_sec, send) => {
      for (let k = 0; k < 20; k++) send(encodeResume(0))
    })
    expect(s.ran).toBe(settleMs)
    expect(s.result.transcript).toEqual(a.transcript)
    const bytes = s.sent.reduce((n, f) => n + f.length, 0)
    expect(bytes).toBeLessThanOrEqual(LIMITS.resendBudgetBytes * Math.ceil(settleMs / terms.replyMs + 1))
    // The result stays what it was: provisional, since B's stop never came (SPEC §12.7).
    expect(s.result.verdict).toMatchObject({ status: 'abandoned', provisional: true })
  })

  it('SPEC §11 §6.5: a cheater that keeps signing after its stop adds at most AFTER_STOP_ENVELOPES lines, in one settle or many, and convicts only itself', async () => {
    const [a, b] = await first
    const keysB = generateKeyPair(seededSecrets(`${seed}/B`))
    const bChain = ofSide(b.transcript, 'B').map(open)
    const last = bChain.at(-1)
    const aStop = ofSide(a.transcript, 'A').map(open).at(-1)
    if (last === undefined || aStop === undefined) throw new Error('no chains')
    // Envelopes after B's stop, each linked to the one before and acknowledging A's stop.
    const extra: SealedEnvelope[] = []
    for (let k = 0; k < 12; k++) {
      const prev = extra.at(-1) ?? last
      extra.push(
        seal(keysB, {
          sender: 'B',
          seq: prev.envelope.seq + 1,
          game: last.envelope.game,
          prev: prev.hash,
          ack: aStop.hash,
          parts: [{ t: 'stop', reason: 'claim', detail: `after stop ${k}` }],
        }),
      )
    }
    const missing = missingAtA(a.transcript, b.transcript)
    let stored = a.transcript
    for (let round = 0; round < 3; round++) {
      const s = await settleAgainst(seed, stored, journals[0], 20_000, (sec, send) => {
        if (sec !== 0) return
        send(encodeResume(0))
        for (const m of missing) send(fullFrame(m))
        for (const e of extra) send(fullFrame(e.bytes))
      })
      expect(s.ran).toBeLessThanOrEqual(20_000)
      expect(ofSide(s.result.transcript, 'A')).toEqual(ofSide(a.transcript, 'A'))
      stored = s.result.transcript
    }
    // Bounded across every settle: B's envelopes after A's stop are at most AFTER_STOP_ENVELOPES.
    const aStopAt = stored.findIndex((x) => senderOf(x) === 'A' && isStop(x))
    expect(stored.slice(aStopAt + 1).filter((x) => senderOf(x) === 'B').length).toBeLessThanOrEqual(
      LIMITS.afterStopEnvelopes,
    )
    const v = verdictOf(stored)
    expect(v.status === 'offence' ? v.offence.offender : 'B').toBe('B')
    expect('winner' in v ? v.winner : undefined).not.toBe('B')
  })

  it("SPEC §5.1 §6.5: a cheater answering the settle with stops whose acks name odd envelopes (A's hello, nothing) convicts or harms only itself", async () => {
    const [a, b] = await first
    const keysB = generateKeyPair(seededSecrets(`${seed}/B`))
    const missing = missingAtA(a.transcript, b.transcript).map(open)
    // B's envelopes A lacks end with B's stop; the cheater signs another stop in its place.
    const keep = missing.slice(0, -1)
    const before = keep.at(-1) ?? ofSide(a.transcript, 'B').map(open).at(-1)
    if (before === undefined) throw new Error('no chain')
    const aHello = open(ofSide(a.transcript, 'A')[0] ?? new Uint8Array())
    for (const ack of [aHello.hash, new Uint8Array(32).fill(9)]) {
      const forged = seal(keysB, {
        sender: 'B',
        seq: before.envelope.seq + 1,
        game: before.envelope.game,
        prev: before.hash,
        ack,
        parts: [{ t: 'stop', reason: 'answer', detail: 'odd ack' }, ...(missing.at(-1)?.envelope.parts.slice(1) ?? [])],
      })
      const s = await settleAgainst(seed, a.transcript, journals[0], 20_000, (sec, send) => {
        if (sec !== 0) return
        send(encodeResume(0))
        for (const m of keep) send(fullFrame(m.bytes))
        send(fullFrame(forged.bytes))
      })
      expect(ofSide(s.result.transcript, 'A')).toEqual(ofSide(a.transcript, 'A'))
      for (const v of [s.result.verdict, verdictOf(s.result.transcript, b.transcript)]) {
        if (v.status === 'offence') expect(v.offence.offender, summary(v)).toBe('B')
        expect('winner' in v ? v.winner : 'A', summary(v)).not.toBe('B')
      }
    }
  })

  it('SPEC §12.7: every file an editor can cut from the settled transcripts convicts nobody, and is final only when it agrees with the full evidence', async () => {
    const [a, b] = await first
    editorCannotForge([...a.transcript, ...ofSide(b.transcript, 'B').filter((x) => !a.transcript.includes(x))])
  })
})

/* ------------------------------------------------------------------------------------------- */
/* What a file editor can change (SPEC §12.7), over the ways an honest pair's game ends           */

describe('red team: a file editor without any key (SPEC §12.7)', () => {
  const t60 = { ...TERMS, maxTurns: 60 }
  const cases: [string, () => ReturnType<typeof playInMemory>][] = [
    [
      'a resignation (rule 5)',
      () =>
        playInMemory('redteam/edit/resign', {
          terms: t60,
          strategies: [undefined, resignAt(3, 'redteam/edit/resign/B')],
        }),
    ],
    [
      'a quitter that stops while it owes (rule 6)',
      () =>
        playInMemory('redteam/edit/owing', {
          terms: t60,
          deviations: [undefined, { stopAfterReceiving: (s) => (s.envelope.seq === 8 ? 'claim' : undefined) }],
        }),
    ],
    [
      'a stall past the deadline (rule 8)',
      () =>
        playInMemory('redteam/edit/stall', {
          terms: t60,
          fault: (_f, from, i) => (from === 1 && i === 8 ? { delay: t60.replyMs + 2 * LIMITS.marginMs } : 'deliver'),
        }),
    ],
    [
      'an early claim (rule 8)',
      () =>
        playInMemory('redteam/edit/early', {
          terms: t60,
          deviations: [undefined, { stopAfterSending: (s) => (s.envelope.seq === 9 ? 'claim' : undefined) }],
        }),
    ],
    ['a complete game (rule 4)', () => playInMemory('redteam/edit/complete', { terms })],
  ]
  for (const [name, play] of cases) {
    it(`${name}: no edit convicts anyone or makes a final result the full evidence does not`, async () => {
      const g = await play()
      const merged = [
        ...g.a.transcript,
        ...g.b.transcript.filter(
          (x) => !g.a.transcript.some((y) => y.length === x.length && y.every((v, k) => v === x[k])),
        ),
      ]
      editorCannotForge(g.a.transcript)
      editorCannotForge(g.b.transcript)
      editorCannotForge(merged)
    })
  }
})

/* ------------------------------------------------------------------------------------------- */
/* Early resignation (SPEC §6.5)                                                                 */

describe('red team: a resignation sent whoever is due (SPEC §6.5, §12.7 rule 5)', () => {
  const t60 = { ...TERMS, maxTurns: 60 }

  it("a resignation crossing the other side's claim: the resigner loses, nobody is convicted, every file agrees", async () => {
    let clock: VirtualClock | undefined
    // Every frame is 2 s on the wire. B owes turn 3 and resigns about 1 s after A's deadline: A's
    // claim is then on its way to B, and B's resignation crosses it.
    const g = await playInMemory('redteam/resign-cross-claim', {
      terms: t60,
      strategies: [undefined, slowAt(3, t60.turnMs - 1000, () => clock, 'redteam/resign-cross-claim/B', 'resign')],
      onLink: (_p, c) => (clock = c),
      fault: () => ({ delay: 2000 }),
    })
    const stops = (k: 0 | 1, by: Role): string[] =>
      g.events[k].flatMap((e) => (e.kind === 'stopped' && e.by === by ? [e.reason] : []))
    expect(stops(0, 'A')).toEqual(['claim'])
    expect(stops(1, 'B')).toEqual(['resignation'])
    for (const v of [g.a.verdict, g.b.verdict, verdictOf(g.a.transcript, g.b.transcript)])
      expect(summary(v)).toBe('resigned B -> A')
  })

  it("a resignation crossing the phase envelope the other side is sending: A's envelope after B's stop is no offence, B loses in every file", async () => {
    let clock: VirtualClock | undefined
    // A thinks 3 s on turn 3; B resigns 2.9 s into it, and A's envelope is 200 ms on the wire.
    const g = await playInMemory('redteam/resign-cross-phase', {
      terms: t60,
      strategies: [
        slowAt(3, 3000, () => clock, 'redteam/resign-cross-phase/A', 'play'),
        slowAt(3, 2900, () => clock, 'redteam/resign-cross-phase/B', 'resign'),
      ],
      onLink: (_p, c) => (clock = c),
      fault: () => ({ delay: 200 }),
    })
    for (const v of [g.a.verdict, g.b.verdict, verdictOf(g.a.transcript, g.b.transcript)])
      expect(summary(v)).toBe('resigned B -> A')
    editorCannotForge(g.a.transcript)
    editorCannotForge(g.b.transcript)
  })

  it('a resignation from a commitment-ahead decision, before this side sent its results: the resigner still reveals every committed record and loses', async () => {
    const g = await playInMemory('redteam/resign-ahead', {
      terms: t60,
      strategies: [resignAt(4, 'redteam/resign-ahead/A'), undefined],
    })
    for (const v of [g.a.verdict, g.b.verdict, verdictOf(g.a.transcript, g.b.transcript)])
      expect(summary(v)).toBe('resigned A -> B')
  })
})

/* ------------------------------------------------------------------------------------------- */
/* A resumed game's clocks (SPEC §6.6)                                                           */

describe("red team: a resumed game's clock from the file's modification time (SPEC §6.6)", () => {
  const seed = 'redteam/stops-settle/clock'
  const journals = [memoryJournal(), memoryJournal()] as const
  const first = firstRound(seed, journals)

  /** B was killed before its own claim; it resumes with its file's mtime at `written(now)`, A settles. */
  async function resumeB(
    written: (now: number) => number,
  ): Promise<{ a: SessionResult; b: SessionResult; bClaimedAt: number | undefined; start: number }> {
    const [a, b] = await first
    const bDisk = b.transcript.filter((x) => !(senderOf(x) === 'B' && isStop(x)))
    const start = 5_000_000
    const clock = new VirtualClock(start)
    const pair = memoryChannelPair(undefined, clock)
    /** When B stopped of its own accord (a claim, not its answer to A's stop). */
    let bClaimedAt: number | undefined
    const sideOf = (role: Role, k: 0 | 1, stored: readonly Uint8Array[], extra: object): Promise<SessionResult> => {
      const secrets = seededSecrets(`${seed}/${role}`)
      return runSession({
        role,
        keys: generateKeyPair(secrets),
        terms,
        secrets,
        store: { ...memoryStore(stored), lastWrittenAt: () => written(clock.now()) },
        channel: pair.ends[k],
        clock,
        strategy: journaledStrategy(randomStrategy(seededRandom(`${seed}/${role}/bot`)), journals[k]),
        ...extra,
      })
    }
    const run = clock.settle<[SessionResult, SessionResult]>([
      sideOf('A', 0, a.transcript, { settleMs: 30_000 }),
      sideOf('B', 1, bDisk, {
        onEvent: (e: { kind: string; by?: string; reason?: string }) => {
          if (e.kind === 'stopped' && e.by === 'B' && e.reason !== 'answer') bClaimedAt ??= clock.now()
        },
      }),
    ])
    void clock.sleep(500).then(() => {
      pair.reconnect()
    })
    const [a2, b2] = await run
    return { a: a2, b: b2, bClaimedAt, start }
  }

  it("an mtime in the future is clamped to now: B never claims before a whole deadline from its restart, answers A's stop, and both files decide one result", async () => {
    const r = await resumeB((now) => now + 10 * 365 * 24 * 3600 * 1000)
    expect(summary(r.b.verdict)).toBe(summary(r.a.verdict))
    expect(r.a.verdict).toMatchObject({ status: 'adjudicated', stoppedBy: ['A'] })
    expect(r.bClaimedAt).toBeUndefined()
    // B signed only its answer: never a second envelope at a place.
    const bNew = ofSide(r.b.transcript, 'B')
    expect(bNew.filter(isStop).length).toBe(1)
  })

  it('an mtime far in the past: B claims at once, but a claim convicts nobody (SPEC §6.6, §12.7); both files decide one result', async () => {
    const r = await resumeB(() => 0)
    for (const v of [r.a.verdict, r.b.verdict, verdictOf(r.a.transcript, r.b.transcript)]) {
      expect(v.status, summary(v)).not.toBe('offence')
      expect(v.status, summary(v)).toBe('adjudicated')
    }
    expect(summary(r.b.verdict)).toBe(summary(r.a.verdict))
  })
})
