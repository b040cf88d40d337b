/**
 * SPEC §11 (what a writer persists) against a cheater that owns its key: every envelope it signs
 * is authenticated, so if the honest player persisted all of them, the cheater would decide how
 * large the honest transcript gets, and past the file limit (SPEC §9: 16 MiB) the honest player's
 * own evidence would be `unreadable`, the proof of the cheat with it. The writer persists at most
 * `openEnvelopes` of the peer's envelopes it has not acted on, at most `afterStopEnvelopes` after
 * its own stop, and one equivocation. Also SPEC §6.3/§6.7: an envelope that arrived while this
 * side was deciding is acted on before this side answers, and an answer acknowledges the last
 * phase envelope, never a stray one.
 */
import { describe, expect, it } from 'vitest'
import { generateKeyPair } from '../../src/core/commit/keys.js'
import { seededSecrets } from '../../src/core/commit/secrets.js'
import { type SealedEnvelope, seal } from '../../src/games/spaceships/protocol/envelope.js'
import { LIMITS, type Part } from '../../src/games/spaceships/protocol/messages.js'
import { TERMS, playInMemory } from '../session/helpers.js'
import { partsOf, summary, verdictOf } from './helpers.js'

const terms = { ...TERMS, maxTurns: 30 }

/** A reveal part near `MAX_ENVELOPE`: the largest envelope a sender may sign. */
function bigReveal(): Part {
  return {
    t: 'reveal',
    seed: new Uint8Array(32),
    setup: [{ type: 'DS', id: 1, cells: [0] }],
    records: Array.from({ length: 1000 }, () => 'a'.repeat(1000)),
  }
}

function keysOf(seed: string) {
  return generateKeyPair(seededSecrets(`${seed}/B`))
}

/** B's envelopes chained after `first`, each near 1 MiB and out of turn: validly signed (in `first`'s version unless told). */
function chainedFlood(
  seed: string,
  first: SealedEnvelope,
  n: number,
  version = first.envelope.version,
): SealedEnvelope[] {
  const keys = keysOf(seed)
  const out: SealedEnvelope[] = []
  let prev = first
  for (let i = 1; i <= n; i++) {
    const s = seal(keys, {
      version,
      sender: 'B',
      seq: first.envelope.seq + i,
      game: first.envelope.game,
      prev: prev.hash,
      ack: first.envelope.ack,
      parts: [bigReveal()],
    })
    out.push(s)
    prev = s
  }
  return out
}

/** B's envelopes all at the seq of `at`, each different (equivocation n times over), each near 1 MiB. */
function equivocations(seed: string, at: SealedEnvelope, n: number): SealedEnvelope[] {
  const keys = keysOf(seed)
  return Array.from({ length: n }, (_, i) =>
    seal(keys, {
      version: at.envelope.version,
      sender: 'B',
      seq: at.envelope.seq,
      game: at.envelope.game,
      prev: at.envelope.prev,
      ack: at.envelope.ack,
      parts: [{ ...bigReveal(), seed: new Uint8Array(32).fill(i + 1) } as Part],
    }),
  )
}

function bytesOf(transcript: readonly Uint8Array[]): number {
  return transcript.reduce((n, b) => n + b.length, 0)
}

type Sealer = (parts: readonly Part[]) => SealedEnvelope

/** Plays a game in which B, in place of its turn-2 commit, sends what `instead` makes of it. */
async function floodedGame(seed: string, instead: (parts: readonly Part[], sealParts: Sealer) => SealedEnvelope[]) {
  let done = false
  const g = await playInMemory(seed, {
    terms,
    deviations: [
      undefined,
      {
        outgoing(parts, sealParts) {
          const c = parts.find((p) => p.t === 'commit')
          if (done || c?.t !== 'commit' || c.turn < 2) return [sealParts(parts)]
          done = true
          return instead(parts, sealParts)
        },
      },
    ],
  })
  expect(done).toBe(true)
  return g
}

/** The honest commit, then what `extra` makes of it. */
function after(extra: (honest: SealedEnvelope) => SealedEnvelope[]) {
  return (parts: readonly Part[], sealParts: Sealer): SealedEnvelope[] => {
    const honest = sealParts(parts)
    return [honest, ...extra(honest)]
  }
}

describe('red team: a cheater cannot grow the honest transcript past the file limit (SPEC §11)', () => {
  it('fourteen chained 1 MiB envelopes out of turn: the honest file keeps the first (the evidence) and at most two after its stop, stays readable and convicts B', async () => {
    const g = await floodedGame(
      'redteam/flood',
      after((honest) => chainedFlood('redteam/flood', honest, 14)),
    )
    const bytes = bytesOf(g.a.transcript)
    const floodKept = g.a.transcript.filter((b) => b.length > 500_000).length
    expect(floodKept).toBeLessThanOrEqual(1 + LIMITS.afterStopEnvelopes)
    expect(bytes).toBeLessThan(LIMITS.fileBytes / 2)
    // The first flood envelope, out of turn, is the earliest offence (SPEC §12.6): B's own session
    // then signs its stop at that envelope's seq, an equivocation ranked by its place after it.
    expect(summary(g.a.verdict)).toBe('offence B protocol-violation')
    expect(summary(verdictOf(g.a.transcript))).toBe('offence B protocol-violation')
  }, 60_000)

  it('one stray envelope while A decides: A accuses B at once, never answers it, never signs the same step twice', async () => {
    const g = await floodedGame(
      'redteam/stray',
      after((honest) => chainedFlood('redteam/stray', honest, 1)),
    )
    const mine = g.a.transcript.map(partsOf).filter((p) => p.startsWith('A'))
    // A's last envelope is its accusation; before it, no phase step is signed twice.
    expect(mine[mine.length - 1]).toMatch(/^A\d+:stop\+reveal$/)
    expect(new Set(mine.map((p) => p.replace(/^A\d+:/, ''))).size).toBeGreaterThan(1)
    expect(mine.length).toBeLessThan(12)
    // The stray envelope, out of turn, convicts B (SPEC §12.6); B's own session then signs its stop
    // at the stray's seq, two envelopes at one place, an equivocation ranked by its place after it.
    expect(summary(g.a.verdict)).toBe('offence B protocol-violation')
    expect(summary(verdictOf(g.a.transcript))).toBe('offence B protocol-violation')
  }, 30_000)

  it('thirty 1 MiB equivocations at one seq: one is kept as proof, the verdict is equivocation by B', async () => {
    const g = await floodedGame(
      'redteam/equivocate',
      after((honest) => equivocations('redteam/equivocate', honest, 30)),
    )
    expect(g.a.transcript.filter((b) => b.length > 500_000).length).toBe(1)
    expect(bytesOf(g.a.transcript)).toBeLessThan(LIMITS.fileBytes / 4)
    expect(summary(verdictOf(g.a.transcript))).toBe('offence B equivocation')
  }, 60_000)

  it('envelopes of the other version chained onto the game (SPEC §5.1, §12.1): not of the game, never acted on; nobody honest is convicted and A keeps none', async () => {
    const g = await floodedGame(
      'redteam/other-version',
      after((honest) => chainedFlood('redteam/other-version', honest, 3, honest.envelope.version === 4 ? 3 : 4)),
    )
    expect(g.a.transcript.filter((b) => b.length > 500_000)).toHaveLength(0)
    const v = verdictOf(g.a.transcript)
    expect(summary(v)).not.toMatch(/offence A/)
    expect(summary(v)).toBe(summary(g.a.verdict))
  }, 60_000)

  it('envelopes after its own stop: B stops, then sends more; A keeps at most two of them', async () => {
    const seed = 'redteam/after-stop'
    // B resigns in place of its commit, then floods after its stop.
    const g = await floodedGame(seed, (parts, sealParts) => {
      const stop = sealParts([
        { t: 'stop', reason: 'resignation', detail: 'resigned' },
        ...parts.filter((p) => p.t === 'reveal'),
      ])
      return [stop, ...chainedFlood(seed, stop, 10)]
    })
    expect(g.a.transcript.filter((b) => b.length > 500_000).length).toBeLessThanOrEqual(LIMITS.afterStopEnvelopes)
    expect(bytesOf(g.a.transcript)).toBeLessThan(LIMITS.fileBytes / 4)
    expect(summary(verdictOf(g.a.transcript))).toMatch(/^offence B /)
  }, 60_000)
})
