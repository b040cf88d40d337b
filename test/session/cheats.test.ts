/**
 * Every cheat of issue 3, played by a cheating player against an honest one in memory, is caught
 * and attributed to the cheater with the right class (C-28) and turn, never to the honest player;
 * and a third party reading the honest player's transcript reaches the same verdict.
 */
import { describe, expect, test } from 'vitest'
import { SEED_BYTES, deriveSalt, fromBase64url, seededSecrets, toBase64url } from '../../src/commit/index.js'
import { partialOf } from '../../src/rules/coords.js'
import { entitlements } from '../../src/rules/state.js'
import { type Action, formatRecord } from '../../src/rules/record.js'
import { BEAM_LINES, directionIndexBetween } from '../../src/rules/coords.js'
import type { CheckedRecord } from '../../src/rules/legality.js'
import { randomRecord } from '../../src/rules/enumerate.js'
import { seededRandom } from '../../src/rules/rng.js'
import { DEFAULT_RULESET } from '../../src/rules/ruleset.js'
import { formatSetup, readSetup } from '../../src/rules/setup.js'
import type { Deviation, PlayerStrategy } from '../../src/session/index.js'
import { decodeEnvelope } from '../../src/transcript/envelope.js'
import { formatTranscript } from '../../src/transcript/file.js'
import { type Body, type FlashcubeAnswer, type OffenceClass, cellIndex } from '../../src/transcript/messages.js'
import { verifyTranscript } from '../../src/verify/index.js'
import { SETUP_A, SETUP_B } from '../helpers.js'
import { TERMS, playInMemory } from './helpers.js'

function fixed(text: string, seed: string): PlayerStrategy {
  const setup = readSetup(text, DEFAULT_RULESET)
  if (!setup.ok) throw new Error('bad test setup')
  const rng = seededRandom(seed)
  return { setup: () => setup.value, record: (ctx) => formatRecord(randomRecord(ctx.ruleset, ctx.state, ctx.turn, rng).actions) }
}

/** A record with extra actions appended, unchecked: what a cheater commits to and shows. */
function withExtra(honest: CheckedRecord, extra: readonly Action[], change: Partial<CheckedRecord>): { text: string; record: CheckedRecord } {
  return { text: formatRecord([...honest.actions, ...extra]), record: { ...honest, ...change } }
}

interface Expected {
  readonly cls: OffenceClass
  readonly turn: () => number
}

/** Plays A honest against B cheating; both the honest side's signed verdict and the verifier name B. */
async function expectCaught(name: string, deviation: Deviation, expected: Expected, terms = TERMS): Promise<void> {
  const g = await playInMemory(`cheat/${name}`, { terms, strategies: [fixed(SETUP_A, `${name}/a`), fixed(SETUP_B, `${name}/b`)], deviations: [undefined, deviation] })
  const honest = g.a.verdict
  expect(honest.status, JSON.stringify(honest)).toBe('offence')
  if (honest.status !== 'offence') return
  expect(honest.offence.offender).toBe('B')
  expect(honest.offence.class).toBe(expected.cls)
  expect(honest.offence.turn).toBe(expected.turn())
  const audit = verifyTranscript(formatTranscript(g.a.transcript))
  if (expected.cls !== 'invalid-signature') {
    // A third party reaches the same verdict from the honest player's transcript alone.
    expect(audit.status).toBe('offence')
    if (audit.status === 'offence') expect([audit.offence.offender, audit.offence.class, audit.offence.turn]).toEqual(['B', expected.cls, expected.turn()])
  }
}

/** Rewrites the first outgoing body that `pick` changes, and remembers its turn. */
function rewriteOnce(pick: (b: Body) => Body | undefined): { deviation: Deviation; turn: () => number } {
  let done = false
  let at = -1
  return {
    deviation: {
      outgoing(body, seal) {
        if (done) return [seal(body)]
        const changed = pick(body)
        if (changed === undefined) return [seal(body)]
        done = true
        at = 'turn' in body ? body.turn : 0
        return [seal(changed)]
      },
    },
    turn: () => at,
  }
}

describe('cheats are caught and attributed (C-28)', () => {
  test('a false visible result: a hit answered as a miss (2.6.1 §5.2.3)', async () => {
    const r = rewriteOnce((b) => {
      if (b.t !== 'results') return undefined
      const i = b.strikes.findIndex((s) => s.result === 'hit' && s.explosions.length === 0)
      if (i < 0) return undefined
      return { ...b, strikes: b.strikes.map((s, j) => (j === i ? { ...s, result: 'miss' as const } : s)) }
    })
    await expectCaught('lie-result', r.deviation, { cls: 'false-visible-result', turn: r.turn })
  })

  test('a false scan result (2.6.1 §8.6, C-22)', async () => {
    const r = rewriteOnce((b) => {
      if (b.t !== 'results') return undefined
      if (b.scans.length === 0) return undefined
      const flip = { empty: 'ship', ship: 'empty', 'ship-destroyed': 'ship' } as const
      return { ...b, scans: b.scans.map((s, j) => (j === 0 ? { result: flip[s.result], salt: s.salt } : s)) }
    })
    await expectCaught('lie-scan', r.deviation, { cls: 'false-visible-result', turn: r.turn })
  })

  test('more strikes than entitled (C-17)', async () => {
    const deviation: Deviation = {
      record(ctx, honest) {
        if (ctx.turn !== 2) return { text: formatRecord(honest.actions), record: honest }
        const extra: Action[] = Array.from({ length: honest.entitlements.conventionalPool + 1 }, (_, i) => ({ kind: 'strike', target: i }))
        return withExtra(honest, extra, { strikes: [...honest.strikes, ...extra.map((_, i) => i)] })
      },
    }
    await expectCaught('too-many', deviation, { cls: 'illegal-record', turn: () => 2 })
  })

  test('a missile fired again from a cell already fired (2.6.1 §8.1, C-13)', async () => {
    let launched: { cell: number; turn: number } | undefined
    let cheatedIn = -1
    const deviation: Deviation = {
      record(ctx, honest) {
        const first = honest.missileLaunches[0]
        if (launched === undefined && first !== undefined) launched = { cell: first, turn: ctx.turn }
        if (launched === undefined || ctx.turn <= launched.turn || cheatedIn > 0) return { text: formatRecord(honest.actions), record: honest }
        cheatedIn = ctx.turn
        const missile: Action = { kind: 'missile', launch: partialOf(launched.cell), target: 62 }
        return withExtra(honest, [missile], { strikes: [...honest.strikes, 62], missileLaunches: [...honest.missileLaunches, launched.cell] })
      },
    }
    await expectCaught('missile-twice', deviation, { cls: 'illegal-record', turn: () => cheatedIn })
  })

  test('a beam from a death star without a firing pair in that direction (2.6.1 §8.2, C-15)', async () => {
    const deviation: Deviation = {
      record(ctx, honest) {
        if (ctx.turn !== 1) return { text: formatRecord(honest.actions), record: honest }
        const ds = ctx.state.ships.findIndex((s) => s.type === 'DS')
        const allowed = entitlements(ctx.ruleset, ctx.state, 1).ships[ds]?.beamDirections ?? []
        const line = BEAM_LINES.find((l) => !allowed.includes(directionIndexBetween(l[0], l[1]))) ?? BEAM_LINES[0]!
        const beam: Action = { kind: 'beam', ends: [line[0], line[2]], tag: { type: 'DS', id: 1 } }
        return withExtra({ ...honest, actions: honest.actions.filter((a) => a.kind !== 'beam') }, [beam], { beams: [{ targets: line, ship: ds, direction: directionIndexBetween(line[0], line[1]) }] })
      },
    }
    await expectCaught('bad-beam', deviation, { cls: 'illegal-record', turn: () => 1 })
  })

  test('a kamikaze strike from a ship that still has a conventional strike (2.6.1 §4.5, C-14)', async () => {
    const deviation: Deviation = {
      record(ctx, honest) {
        if (ctx.turn !== 1) return { text: formatRecord(honest.actions), record: honest }
        const ds = ctx.state.ships.find((s) => s.type === 'DS')!
        const launch = ds.cells[0]!
        const k: Action = { kind: 'kamikaze', launch, target: 0 }
        return withExtra(honest, [k], { strikes: [...honest.strikes, 0], kamikazeLaunches: [launch] })
      },
    }
    await expectCaught('bad-kamikaze', deviation, { cls: 'illegal-record', turn: () => 1 })
  })

  test('a setup changed after committing (SPEC §4.2)', async () => {
    const other = readSetup(SETUP_A, DEFAULT_RULESET)
    if (!other.ok) throw new Error('bad setup')
    const r = rewriteOnce((b) => (b.t === 'reveal' ? { ...b, setup: formatSetup(other.value) } : undefined))
    await expectCaught('changed-setup', r.deviation, { cls: 'commitment-mismatch', turn: () => 0 })
  })

  test('a revealed record that does not match its commitment (SPEC §4.3)', async () => {
    const r = rewriteOnce((b) => (b.t === 'reveal' ? { ...b, records: b.records.map((x, i) => (i === 2 ? '' : x)) } : undefined))
    await expectCaught('changed-record', r.deviation, { cls: 'commitment-mismatch', turn: () => 3 })
  })

  test('a false destruction report with valid openings of a ship still standing (C-23)', async () => {
    const secrets = seededSecrets('cheat/false-report/B')
    secrets.bytes(32) // the key
    const seed = secrets.bytes(SEED_BYTES)
    const deviation: Deviation = {
      outgoing(body, seal) {
        if (body.t !== 'results' || body.turn !== 1) return [seal(body)]
        const game = fromBase64url(seal(body).envelope.game)!
        const cells = ['Yx1', 'Yx2'].map((c) => ({ cell: c, salt: toBase64url(deriveSalt(seed, { gameId: game, player: 1 }, 'detail', cellIndex(c))) }))
        return [seal({ ...body, destroyed: [...body.destroyed, { type: 'HS', id: 1, cells }] })]
      },
    }
    await expectCaught('false-report', deviation, { cls: 'false-destruction-report', turn: () => 1 })
  })

  test('a destruction hidden (C-23)', async () => {
    const r = rewriteOnce((b) => (b.t === 'results' && b.destroyed.length > 0 ? { ...b, destroyed: [], fleetDestroyed: false } : undefined))
    await expectCaught('hidden-destruction', r.deviation, { cls: 'false-destruction-report', turn: r.turn })
  })

  test('false flashcube data (C-24)', async () => {
    const r = rewriteOnce((b) => {
      if (b.t !== 'flashcube' || b.reports.length === 0) return undefined
      const lie = (x: FlashcubeAnswer): FlashcubeAnswer =>
        x.kind === 'ship' ? { ...x, destroyed: !x.destroyed } : { cell: x.cell, kind: 'ship', type: 'LS', id: 1, destroyed: false, salt: x.salt }
      return { ...b, reports: b.reports.map((entries, i) => (i === 0 ? entries.map((x, j) => (j === 0 ? lie(x) : x)) : entries)) }
    })
    await expectCaught('false-flashcube', r.deviation, { cls: 'false-flashcube-data', turn: r.turn })
  })

  test('a false claim of termination (2.6.1 §2.3.2, C-26)', async () => {
    const r = rewriteOnce((b) => (b.t === 'aspects' && b.turn === 2 ? { ...b, idle: true } : undefined))
    await expectCaught('false-idle', r.deviation, { cls: 'illegal-record', turn: () => 2 })
  })

  test('a message replayed from another game (SPEC §6.1)', async () => {
    const other = toBase64url(new Uint8Array(32).fill(7))
    const deviation: Deviation = { outgoing: (body, seal) => [body.t === 'commit' && body.turn === 2 ? seal(body, other) : seal(body)] }
    await expectCaught('replayed', deviation, { cls: 'protocol-violation', turn: () => 2 })
  })

  test('equivocation: two signed messages at one sequence number (SPEC §5.2)', async () => {
    const deviation: Deviation = { outgoing: (body, seal) => (body.t === 'results' && body.turn === 3 ? [seal(body), seal({ ...body, fleetDestroyed: !body.fleetDestroyed })] : [seal(body)]) }
    await expectCaught('equivocate', deviation, { cls: 'equivocation', turn: () => 3 })
  })

  test('an invalid signature (SPEC §5.1)', async () => {
    const deviation: Deviation = {
      outgoing(body, seal) {
        const s = seal(body)
        if (body.t !== 'commit' || body.turn !== 2) return [s]
        const bad = s.line.replace(/"sig":"(.)/, (_m, c: string) => `"sig":"${c === 'A' ? 'B' : 'A'}`)
        const d = decodeEnvelope(bad)
        return d.ok ? [d.value] : [s]
      },
    }
    await expectCaught('bad-sig', deviation, { cls: 'invalid-signature', turn: () => 2 })
  })

  test('a player that stops answering is recorded as abandoning, the other as honest (DESIGN goal 4)', async () => {
    let silent = false
    const deviation: Deviation = {
      outgoing(body, seal) {
        silent ||= body.t === 'results' && body.turn === 3
        return silent ? [] : [seal(body)]
      },
    }
    const terms = { ...TERMS, replyMs: 1000, turnMs: 1000 }
    const g = await playInMemory('cheat/silent', { terms, strategies: [fixed(SETUP_A, 's/a'), fixed(SETUP_B, 's/b')], deviations: [undefined, deviation] })
    for (const v of [g.a.verdict, verifyTranscript(formatTranscript(g.a.transcript))]) {
      expect(v.status).toBe('incomplete')
      if (v.status !== 'incomplete') continue
      expect(v.stoppedBy).toBe('B')
      expect(v.honest).toEqual(['A'])
      expect(v.last.B).toBe('aspects of turn 3')
    }
  })
})
