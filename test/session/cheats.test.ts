/**
 * Cheats played by a cheating peer that signs with its own key, against an honest one, in memory:
 * each is caught and attributed with its class (C-28) and turn, never to the honest player; a
 * third party reading the honest transcript, or both merged, reaches the same verdict; and what
 * public knowledge can show is refused before anything is answered (SPEC §6.7, §8).
 */
import { describe, expect, it } from 'vitest'
import { SideSecrets } from '../../src/games/spaceships/protocol/commitments.js'
import { BEAM_LINES, directionIndexBetween, partialOf } from '../../src/games/spaceships/rules/coords.js'
import { randomRecord } from '../../src/games/spaceships/rules/enumerate.js'
import type { CheckedRecord } from '../../src/games/spaceships/rules/legality.js'
import { type Action, formatRecord } from '../../src/games/spaceships/rules/record.js'
import { seededRandom } from '../../src/games/spaceships/rules/rng.js'
import { CLASSIC_RULESET, DEFAULT_RULESET, type Ruleset } from '../../src/games/spaceships/rules/ruleset.js'
import { readSetup } from '../../src/games/spaceships/rules/setup.js'
import { entitlements } from '../../src/games/spaceships/rules/state.js'
import type { Deviation, SealOverride } from '../../src/games/spaceships/session/session.js'
import type { PlayerStrategy } from '../../src/games/spaceships/session/strategy.js'
import { type SealedEnvelope, decodeEnvelope, withSignature } from '../../src/games/spaceships/protocol/envelope.js'
import { formatTranscript } from '../../src/games/spaceships/protocol/file.js'
import {
  type FlashcubeAnswer,
  type OffenceClass,
  type Part,
  type Terms,
  cellIndex,
} from '../../src/games/spaceships/protocol/messages.js'
import { revealedSetup } from '../../src/games/spaceships/verify/replay.js'
import { type Verdict, verifyFiles } from '../../src/games/spaceships/verify/verify.js'
import { SETUP_A, SETUP_B } from '../helpers.js'
import { type PlayedGame, TERMS, playInMemory } from './helpers.js'

const SETUP_A_CLASSIC =
  'DS Rv1 Rv2 Rw1 Rw2 Ov1 Ov2 Ow1 Ow2\nKC Rv4 Rv5 Rw4 Rw5 Rx4 Rx5\nFS Bv1 Bv2 Bw1 Bw2\nMD Bz1 Bz2 Bz3\nHF Yy3 Yy4'
const SETUP_B_CLASSIC =
  'DS Gv1 Gv2 Gw1 Gw2 Bv1 Bv2 Bw1 Bw2\nKC Yz1 Yz2 Yz3 Gz1 Gz2 Gz3\nFS Rz2 Rz3 Ry2 Ry3\nMD Ox5 Oy5 Oz5\nHF Yx1 Yx2'

function fixed(text: string, seed: string, ruleset: Ruleset = DEFAULT_RULESET): PlayerStrategy {
  const setup = readSetup(text, ruleset)
  if (!setup.ok) throw new Error(`bad test setup: ${JSON.stringify(setup.error)}`)
  const rng = seededRandom(seed)
  return {
    setup: () => setup.value,
    record: (ctx) => formatRecord(randomRecord(ctx.ruleset, ctx.state, ctx.turn, rng).actions),
  }
}

interface Expected {
  readonly cls: OffenceClass
  /** The turn it is caught in; undefined when only the class matters (the first answer it spoils). */
  readonly turn: (() => number) | undefined
  /** The offence shows before the honest side answers it: nothing but a stop follows it. */
  readonly live: boolean
}

function verdictOf(...transcripts: (readonly Uint8Array[])[]): Verdict {
  return verifyFiles(transcripts.map((t, i) => ({ name: `f${i}`, content: formatTranscript(t) })))
}

function decoded(transcript: readonly Uint8Array[]): SealedEnvelope[] {
  return transcript.flatMap((b) => {
    const d = decodeEnvelope(b)
    return d.ok ? [d.value] : []
  })
}

/** A's envelopes after B's envelope `seq`, in file order: what the honest side sent once it held it. */
function answersAfter(transcript: readonly Uint8Array[], seq: number): string[] {
  const list = decoded(transcript)
  const at = list.findIndex((s) => s.envelope.sender === 'B' && s.envelope.seq === seq)
  return list
    .slice(at + 1)
    .filter((s) => s.envelope.sender === 'A')
    .map((s) => s.envelope.parts.map((p) => p.t).join('+'))
}

/** Plays A honest against B cheating; A's verdict, a third party and both files merged all name B. */
async function expectCaught(
  name: string,
  deviation: Deviation,
  expected: Expected,
  terms: Terms = TERMS,
  ruleset: Ruleset = DEFAULT_RULESET,
): Promise<PlayedGame> {
  const classic = ruleset.variant === 'classic'
  const strategies = [
    fixed(classic ? SETUP_A_CLASSIC : SETUP_A, `${name}/a`, ruleset),
    fixed(classic ? SETUP_B_CLASSIC : SETUP_B, `${name}/b`, ruleset),
  ] as const
  const g = await playInMemory(`cheat/${name}`, { terms, strategies, deviations: [undefined, deviation] })
  for (const v of [g.a.verdict, verdictOf(g.a.transcript), verdictOf(g.a.transcript, g.b.transcript)]) {
    expect(v.status, JSON.stringify(v)).toBe('offence')
    if (v.status !== 'offence') return g
    expect([v.offence.offender, v.offence.class, v.offence.turn]).toEqual([
      'B',
      expected.cls,
      expected.turn?.() ?? v.offence.turn,
    ])
    expect(v.winner).toBe('A')
  }
  if (expected.live && g.a.verdict.status === 'offence') {
    // SPEC §6.7: an offence public knowledge shows is answered by a stop, never by openings.
    expect(answersAfter(g.a.transcript, g.a.verdict.offence.seq ?? -1)[0]).toMatch(/^stop/)
  }
  return g
}

/** Rewrites the first part `pick` changes, and remembers its turn. */
function rewriteOnce(pick: (p: Part) => Part | undefined): { deviation: Deviation; turn: () => number } {
  let done = false
  let at = -1
  return {
    deviation: {
      outgoing(parts, seal) {
        if (done) return [seal(parts)]
        let changed = false
        const out = parts.map((p) => {
          const q = changed ? undefined : pick(p)
          if (q === undefined) return p
          changed = true
          at = 'turn' in p ? p.turn : 0
          return q
        })
        done = changed
        return [seal(out)]
      },
    },
    turn: () => at,
  }
}

function withExtra(
  honest: CheckedRecord,
  extra: readonly Action[],
  change: Partial<CheckedRecord>,
): { text: string; record: CheckedRecord } {
  return { text: formatRecord([...honest.actions, ...extra]), record: { ...honest, ...change } }
}

describe('cheats found by an opening, live (SPEC §12.4)', () => {
  it('a hit answered as a miss (2.6.1 §5.2.3)', async () => {
    const r = rewriteOnce((p) => {
      if (p.t !== 'results') return undefined
      const i = p.strikes.findIndex((s) => s.result === 'hit' && s.explosions.length === 0)
      return i < 0
        ? undefined
        : { ...p, strikes: p.strikes.map((s, j) => (j === i ? { ...s, result: 'miss' as const } : s)) }
    })
    await expectCaught('lie-result', r.deviation, { cls: 'false-visible-result', turn: r.turn, live: true })
  })

  it('a false scan result (2.6.1 §8.3.4.1, C-22)', async () => {
    const r = rewriteOnce((p) => {
      if (p.t !== 'results' || p.scans.length === 0) return undefined
      const flip = { empty: 'ship', ship: 'empty', 'ship-destroyed': 'ship' } as const
      return { ...p, scans: p.scans.map((s, j) => (j === 0 ? { result: flip[s.result], salt: s.salt } : s)) }
    })
    await expectCaught('lie-scan', r.deviation, { cls: 'false-visible-result', turn: r.turn, live: true })
  })

  it('a destruction report with valid openings of a ship still standing (C-23)', async () => {
    // B reports its heavy scout destroyed in turn 1 with openings that are genuinely its own.
    let side: SideSecrets | undefined
    const cheat: Deviation = {
      outgoing(parts, seal) {
        const honest = seal(parts)
        const results = parts.find((p) => p.t === 'results')
        if (side === undefined && honest.envelope.game !== undefined)
          side = new SideSecrets(cheatSeed.value, honest.envelope.game, 1)
        if (results?.t !== 'results' || results.turn !== 1 || side === undefined) return [honest]
        const s = side
        const cells = ['Yx1', 'Yx2'].map((c) => ({ cell: c, salt: s.salt('detail', cellIndex(c)) }))
        return [
          seal(
            parts.map((p) =>
              p.t === 'results' ? { ...p, destroyed: [...p.destroyed, { type: 'HS' as const, id: 1, cells }] } : p,
            ),
          ),
        ]
      },
    }
    const cheatSeed: { value: Uint8Array } = { value: new Uint8Array(32) }
    // The session draws its nonce then its seed from the secret source; replay the draws to know the seed.
    const { seededSecrets } = await import('../../src/core/commit/secrets.js')
    const src = seededSecrets('cheat/false-report/B')
    src.bytes(32) // the key
    src.bytes(32) // the nonce
    cheatSeed.value = src.bytes(32)
    await expectCaught('false-report', cheat, { cls: 'false-destruction-report', turn: () => 1, live: true })
  })

  it('false flashcube data (C-24)', async () => {
    const r = rewriteOnce((p) => {
      if (p.t !== 'flashcube' || p.reports.length === 0) return undefined
      const lie = (x: FlashcubeAnswer): FlashcubeAnswer =>
        x.kind === 'ship'
          ? { ...x, destroyed: !x.destroyed }
          : { cell: x.cell, kind: 'ship', type: 'LS', id: 1, destroyed: false, salt: x.salt }
      return {
        ...p,
        reports: p.reports.map((entries, i) => (i === 0 ? entries.map((x, j) => (j === 0 ? lie(x) : x)) : entries)),
      }
    })
    await expectCaught('false-flashcube', r.deviation, { cls: 'false-flashcube-data', turn: r.turn, live: true })
  })
})

describe('cheats found at the reveal (SPEC §12.5)', () => {
  it('a missile fired again from a cell already fired (2.6.1 §8.1, C-13)', async () => {
    let launched: { cell: number; turn: number } | undefined
    let cheatedIn = -1
    const deviation: Deviation = {
      record(ctx, honest) {
        if (honest === undefined) throw new Error('honest record expected')
        const first = honest.missileLaunches[0]
        if (launched === undefined && first !== undefined) launched = { cell: first, turn: ctx.turn }
        if (launched === undefined || ctx.turn <= launched.turn || cheatedIn > 0)
          return { text: formatRecord(honest.actions), record: honest }
        cheatedIn = ctx.turn
        const missile: Action = { kind: 'missile', launch: partialOf(launched.cell), target: 62 }
        // Within the public bound: one strike token in place of a conventional one.
        const actions = honest.actions.filter(
          (a, i) => !(a.kind === 'strike' && i === honest.actions.findIndex((b) => b.kind === 'strike')),
        )
        return {
          text: formatRecord([...actions, missile]),
          record: {
            ...honest,
            strikes: [...honest.strikes.slice(1), 62],
            missileLaunches: [...honest.missileLaunches, launched.cell],
          },
        }
      },
    }
    await expectCaught('missile-twice', deviation, { cls: 'illegal-record', turn: () => cheatedIn, live: false })
  })

  it('a beam from a death star without a firing pair in that direction (2.6.1 §8.2, C-15)', async () => {
    const deviation: Deviation = {
      record(ctx, honest) {
        if (honest === undefined) throw new Error('honest record expected')
        if (ctx.turn !== 1) return { text: formatRecord(honest.actions), record: honest }
        const ds = ctx.state.ships.findIndex((s) => s.type === 'DS')
        const allowed = entitlements(ctx.ruleset, ctx.state, 1).ships[ds]?.beamDirections ?? []
        const line = BEAM_LINES.find((l) => !allowed.includes(directionIndexBetween(l[0], l[1]))) ?? BEAM_LINES[0]
        if (line === undefined) throw new Error('no beam line')
        const beam: Action = { kind: 'beam', ends: [line[0], line[2]], tag: { type: 'DS', id: 1 } }
        return withExtra({ ...honest, actions: honest.actions.filter((a) => a.kind !== 'beam') }, [beam], {
          beams: [{ targets: line, ship: ds, direction: directionIndexBetween(line[0], line[1]) }],
        })
      },
    }
    await expectCaught('bad-beam', deviation, { cls: 'illegal-record', turn: () => 1, live: false })
  })

  it('a kamikaze strike from a ship that still has a conventional strike (2.6.1 §4.5, C-14)', async () => {
    const deviation: Deviation = {
      record(ctx, honest) {
        if (honest === undefined) throw new Error('honest record expected')
        if (ctx.turn !== 1) return { text: formatRecord(honest.actions), record: honest }
        const kc = ctx.state.ships.find((s) => s.type === 'KC')
        const launch = kc?.cells[0] ?? 0
        const k: Action = { kind: 'kamikaze', launch, target: 0 }
        // In place of one conventional strike, so the token count stays within the public bound.
        const actions = honest.actions.filter(
          (a, i) => !(a.kind === 'strike' && i === honest.actions.findIndex((b) => b.kind === 'strike')),
        )
        return {
          text: formatRecord([...actions, k]),
          record: { ...honest, strikes: [...honest.strikes.slice(1), 0], kamikazeLaunches: [launch] },
        }
      },
    }
    await expectCaught('bad-kamikaze', deviation, { cls: 'illegal-record', turn: () => 1, live: false })
  })

  it('a setup revealed other than the one committed (SPEC §4.2)', async () => {
    const other = readSetup(SETUP_A, DEFAULT_RULESET)
    if (!other.ok) throw new Error('bad setup')
    const r = rewriteOnce((p) => (p.t === 'reveal' ? { ...p, setup: revealedSetup(other.value) } : undefined))
    await expectCaught(
      'changed-setup',
      r.deviation,
      { cls: 'commitment-mismatch', turn: () => 0, live: false },
      { ...TERMS, maxTurns: 6 },
    )
  })

  it('a player that commits one setup and plays another is caught by the first answer the two setups disagree on (SPEC §4.2, C-20)', async () => {
    const other = readSetup(SETUP_A, DEFAULT_RULESET)
    if (!other.ok) throw new Error('bad setup')
    const deviation: Deviation = { setup: (honest) => ({ committed: honest, played: other.value }) }
    // Live, the first answer that the committed setup contradicts is accused at once; the cheater's
    // reveal then shows the earlier offence, the setup itself (turn 0 ranks first, SPEC §12.6).
    const g = await expectCaught('played-other-setup', deviation, {
      cls: 'commitment-mismatch',
      turn: () => 0,
      live: false,
    })
    const accusation = g.events[0].find((e) => e.kind === 'stopped' && e.by === 'A')
    expect(accusation).toMatchObject({ reason: 'accusation' })
    const stop = decoded(g.a.transcript)
      .flatMap((s) => (s.envelope.sender === 'A' ? s.envelope.parts : []))
      .find((p) => p.t === 'stop')
    expect(stop?.t === 'stop' ? stop.detail : '').toMatch(/^false-visible-result by B in turn \d+/)
  })

  it('a revealed record that does not open its commitment (SPEC §4.3)', async () => {
    const r = rewriteOnce((p) =>
      p.t === 'reveal' ? { ...p, records: p.records.map((x, i) => (i === 2 ? '' : x)) } : undefined,
    )
    await expectCaught(
      'changed-record',
      r.deviation,
      { cls: 'commitment-mismatch', turn: () => 3, live: false },
      { ...TERMS, maxTurns: 6 },
    )
  })

  it('a destruction hidden (C-23)', async () => {
    const r = rewriteOnce((p) =>
      p.t === 'results' && p.destroyed.length > 0 && !p.fleetDestroyed ? { ...p, destroyed: [] } : undefined,
    )
    await expectCaught('hidden-destruction', r.deviation, {
      cls: 'false-destruction-report',
      turn: r.turn,
      live: false,
    })
  })
})

describe('two signed envelopes at one place (SPEC §5.3)', () => {
  it('equivocation is proven by the two envelopes, both kept in the honest transcript', async () => {
    const deviation: Deviation = {
      outgoing: (parts, seal) => {
        const r = parts.find((p) => p.t === 'results')
        return r?.t === 'results' && r.turn === 3
          ? [seal(parts), seal(parts.map((p) => (p.t === 'results' ? { ...p, fleetDestroyed: !p.fleetDestroyed } : p)))]
          : [seal(parts)]
      },
    }
    await expectCaught('equivocate', deviation, { cls: 'equivocation', turn: () => 3, live: false })
  })
})

describe('bytes that are not evidence are refused, never answered, and convict nobody (SPEC §2.1, §5.4)', () => {
  for (const [name, spoil] of [
    [
      'a broken signature',
      (s: SealedEnvelope): SealedEnvelope =>
        withSignature(
          s,
          s.envelope.sig.map((b, i) => (i === 0 ? b ^ 1 : b)),
        ),
    ],
    ['an envelope signed for another game', undefined],
  ] as const) {
    it(name, async () => {
      let done = false
      const deviation: Deviation = {
        outgoing(parts, seal) {
          if (done || !parts.some((p) => p.t === 'commit' && p.turn === 2)) return [seal(parts)]
          done = true
          const bad =
            spoil === undefined
              ? seal(parts, { game: new Uint8Array(32).fill(7) } satisfies Partial<SealOverride>)
              : spoil(seal(parts))
          return [bad]
        },
      }
      const g = await playInMemory(`cheat/not-evidence/${name}`, { deviations: [undefined, deviation] })
      for (const v of [g.a.verdict, g.b.verdict, verdictOf(g.a.transcript, g.b.transcript)])
        expect(v.status).not.toBe('offence')
      // The honest side claimed at once: it never answered the bad envelope.
      expect(g.events[0].some((e) => e.kind === 'stopped' && e.by === 'A' && e.reason === 'claim')).toBe(true)
      // The refused bytes are not in the honest transcript.
      expect(
        decoded(g.a.transcript)
          .filter((s) => s.envelope.sender === 'B')
          .every((s) => s.envelope.parts.every((p) => p.t !== 'commit' || p.turn !== 2)),
      ).toBe(true)
    })
  }
})

describe('what public knowledge shows is refused before anything is answered (SPEC §8, §6.7)', () => {
  const overBound = (
    name: string,
    change: (
      ctx: Parameters<NonNullable<Deviation['record']>>[0],
      honest: CheckedRecord,
    ) => { text: string; record: CheckedRecord } | undefined,
    ruleset: Ruleset = DEFAULT_RULESET,
  ): Promise<PlayedGame> => {
    let turn = -1
    const deviation: Deviation = {
      record(ctx, honest) {
        if (honest === undefined) throw new Error('honest record expected')
        const c = turn < 0 ? change(ctx, honest) : undefined
        if (c === undefined) return { text: formatRecord(honest.actions), record: honest }
        turn = ctx.turn
        return c
      },
    }
    const terms = { ...TERMS, ruleset: ruleset.variant === 'classic' ? 'classic fleet=standard' : TERMS.ruleset }
    return expectCaught(name, deviation, { cls: 'illegal-record', turn: () => turn, live: true }, terms, ruleset)
  }
  const cells = (n: number): number[] => Array.from({ length: n }, (_, i) => i)
  const scanActions = (n: number): Action[] => cells(n).map((target) => ({ kind: 'scan', target }))

  it('125 scans in one turn (C-16): no occupancy is opened', () =>
    overBound('scans-125', (_ctx, h) => ({
      text: formatRecord([...h.actions, ...scanActions(125)]),
      record: { ...h, scans: cells(125) },
    })))

  it('a scan in a classic game, which has no scanner (classic §4)', () =>
    overBound(
      'scan-classic',
      (_ctx, h) => ({ text: formatRecord([...h.actions, ...scanActions(1)]), record: { ...h, scans: [5] } }),
      CLASSIC_RULESET,
    ))

  it('sixteen beams from one death star (C-15)', () =>
    overBound('beams-16', (_ctx, h) => {
      const lines = BEAM_LINES.slice(0, 16)
      return {
        text: formatRecord(h.actions),
        record: {
          ...h,
          beams: lines.map((l) => ({ targets: l, ship: 0, direction: directionIndexBetween(l[0], l[1]) })),
        },
      }
    }))

  it('a beam that is not three cells in a straight line (2.6.1 §8.2.1, C-04)', () =>
    overBound('beam-shape', (_ctx, h) => ({
      text: formatRecord(h.actions),
      record: { ...h, beams: [{ targets: [0, 1, 7], ship: 0, direction: 0 }] },
    })))

  it('more strike tokens than the whole fleet could give (C-12, C-17)', () =>
    overBound('strikes-10', (_ctx, h) => ({ text: formatRecord(h.actions), record: { ...h, strikes: cells(10) } })))

  it('a kamikaze launch from a cell the cheater answered as a miss (2.6.1 §4.5.2)', () =>
    overBound('kamikaze-empty', (ctx, h) => {
      // A cell of B's own space that A struck and B answered as a miss.
      const missed = ctx.history
        .flatMap((t) => t.theirAspects.strikes)
        .find((c) => (ctx.state.shipAt[cellIndex(c)] ?? -1) < 0)
      if (missed === undefined || ctx.turn < 2) return undefined
      return {
        text: formatRecord(h.actions),
        record: { ...h, strikes: [...h.strikes, 3], kamikazeLaunches: [cellIndex(missed)] },
      }
    }))

  it('a no-actions claim while a death star not reported destroyed still strikes (C-26)', async () => {
    const r = rewriteOnce((p) =>
      p.t === 'aspects' && p.turn === 2 ? { ...p, idle: true, beams: [], strikes: [], kamikaze: [] } : undefined,
    )
    await expectCaught('false-idle', r.deviation, { cls: 'illegal-record', turn: () => 2, live: true })
  })
})
