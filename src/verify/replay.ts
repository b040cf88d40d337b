/**
 * Replaying one player's side of a game once it has revealed its seed, setup and records
 * (protocol/SPEC.md §11.3). A side's whole state follows from its own setup and records and the
 * opponent's visible aspects, so each revealed side is checked on its own: a player who stops
 * and reveals can still show it was honest as far as its own reveal shows.
 */
import { type CommitmentContext, commitSetup, recordCommitment, recordSalt, EMPTY_DETAIL, SEED_BYTES, type CellValue } from '../commit/commitments.js'
import { constantTimeEqual, fromBase64url } from '../commit/bytes.js'
import { HASH_BYTES } from '../commit/hash.js'
import { CELL_COUNT, formatCell } from '../rules/coords.js'
import { describeViolation } from '../rules/errors.js'
import { onlyScans } from '../rules/game.js'
import { readRecord } from '../rules/legality.js'
import { type Exchange, type VisibleAspects, burnoutsOf, flashcubeEntry, resolveIncoming, withBurnouts } from '../rules/resolve.js'
import type { Ruleset } from '../rules/ruleset.js'
import { type Setup, formatSetup, parseSetup, validateSetup } from '../rules/setup.js'
import { type PlayerState, fleetDestroyed, initialPlayerState, remainingMateriel } from '../rules/state.js'
import { type Aspects, type FlashcubeAnswer, type Results, cellIndex } from '../transcript/messages.js'
import { shipDetail } from './exposure.js'
import type { SideLog } from './log.js'
import type { ProtocolOffence } from './offence.js'

/** The committed value of every cell of a setup (SPEC §4.2). */
export function cellValues(setup: Setup): CellValue[] {
  const out: CellValue[] = Array.from({ length: CELL_COUNT }, () => ({ occupied: false, detail: EMPTY_DETAIL }))
  for (const s of setup) for (const c of s.cells) out[c] = { occupied: true, detail: shipDetail(s.type, s.id) }
  return out
}

export function visibleAspectsOf(a: Aspects): VisibleAspects {
  return { beams: a.beams.map((b) => b.map(cellIndex)), strikes: a.strikes.map(cellIndex), scans: a.scans.map(cellIndex), kamikaze: a.kamikaze.map(cellIndex) }
}

/** Only the results matter for burn-out (C-21): rebuilt from the opponent's answers to a player's beams. */
export function beamExchanges(results: Results, aspects: Aspects): Exchange[] {
  return results.beams.flatMap((answers, beam) => answers.map((a, i) => ({ kind: 'beam-strike' as const, target: cellIndex(aspects.beams[beam]?.[i] ?? 'Rv1'), beam, result: a.result, explosions: [] })))
}

function sameAspects(shown: Aspects, expected: VisibleAspects): boolean {
  const v = visibleAspectsOf(shown)
  return JSON.stringify([v.beams, v.strikes, v.scans, v.kamikaze]) === JSON.stringify([expected.beams, expected.strikes, expected.scans, expected.kamikaze])
}

function strikeText(e: Exchange): string {
  return e.kind === 'kamikaze-death' ? '' : `${e.result}${'explosions' in e && e.explosions.length > 0 ? ` with explosions ${e.explosions.map(formatCell).join(' ')}` : ''}`
}

export interface SideReplay {
  readonly offence: ProtocolOffence | undefined
  /** State after the last turn replayed. */
  readonly state: PlayerState | undefined
  readonly turns: number
}

/**
 * Replays `own` (which has revealed) against `other`'s visible aspects, answers and reports, for
 * the turns both logs cover. Returns the first offence by `own`, in turn order.
 */
export function replaySide(ruleset: Ruleset, ctx: CommitmentContext, own: SideLog, other: SideLog): SideReplay {
  const role = own.role
  const fail = (turn: number, cls: ProtocolOffence['class'], rule: string, detail: string, key?: string): SideReplay => ({
    offence: { offender: role, class: cls, rule, turn, detail, ...(key !== undefined && own.seqs.has(key) ? { seq: own.seqs.get(key) } : {}) },
    state: undefined,
    turns: turn,
  })
  const reveal = own.reveal
  if (reveal === undefined || own.setup === undefined) return { offence: undefined, state: undefined, turns: 0 }
  const seed = fromBase64url(reveal.seed, SEED_BYTES) ?? new Uint8Array(SEED_BYTES)
  const written = parseSetup(reveal.setup, 'strict')
  if (!written.ok) return fail(0, 'protocol-violation', 'SPEC §7.5', `revealed setup is not in strict notation: ${written.error.map(describeViolation).join('; ')}`, 'reveal')
  const valid = validateSetup(written.value, ruleset)
  if (!valid.ok) return fail(0, 'illegal-setup', valid.error[0]?.rule ?? '§3', valid.error.map(describeViolation).join('; '), 'reveal')
  if (formatSetup(valid.value) !== reveal.setup) return fail(0, 'protocol-violation', 'SPEC §7.5', 'revealed setup is not in canonical form', 'reveal')
  const committed = fromBase64url(own.setup.cells) ?? new Uint8Array()
  if (!constantTimeEqual(commitSetup(ctx, cellValues(valid.value), seed), committed)) {
    return fail(0, 'commitment-mismatch', 'SPEC §4.2', 'the revealed setup and seed do not open the setup commitment: the setup was changed after committing', 'reveal')
  }
  if (reveal.records.length !== own.commits.length) return fail(own.commits.length, 'protocol-violation', 'SPEC §7.5', `revealed ${reveal.records.length} records for ${own.commits.length} committed turns`, 'reveal')
  let state = initialPlayerState(valid.value)
  // Turns whose every message of both sides is present; a partial last turn is checked as far as it goes.
  const turns = own.commits.length
  for (let turn = 1; turn <= turns; turn++) {
    const text = reveal.records[turn - 1] ?? ''
    const commit = own.commits[turn - 1]
    const expected = fromBase64url(commit?.record ?? '', HASH_BYTES) ?? new Uint8Array()
    if (!constantTimeEqual(recordCommitment(ctx, turn, text, recordSalt(seed, ctx, turn)), expected)) {
      return fail(turn, 'commitment-mismatch', 'SPEC §4.3', `the revealed record "${text}" does not open the turn's record commitment`, `commit:${turn}`)
    }
    const checked = readRecord(ruleset, state, turn, text, 'strict')
    if (!checked.ok) return fail(turn, 'illegal-record', checked.error[0]?.rule ?? '§4', `"${text}": ${checked.error.map(describeViolation).join('; ')}`, `commit:${turn}`)
    const record = checked.value
    const shown = own.aspects[turn - 1]
    if (shown === undefined) return { offence: undefined, state, turns: turn - 1 }
    const aspects = { beams: record.beams.map((b) => b.targets), strikes: record.strikes, scans: record.scans, kamikaze: record.kamikazeLaunches }
    if (!sameAspects(shown, aspects)) return fail(turn, 'commitment-mismatch', '2.6.1 §2.2.2 SPEC §7.2', `the visible aspects shown differ from those of the committed record "${text}"`, `aspects:${turn}`)
    const idle = record.entitlements.onlyKamikazeAndScans && onlyScans(ruleset, record)
    if (shown.idle !== idle) return fail(turn, 'illegal-record', '2.6.1 §2.3.2 C-26', idle ? 'the no-actions claim was not made although it held' : 'false no-actions claim: the player had other actions or recorded more than scans', `aspects:${turn}`)
    const incoming = other.aspects[turn - 1]
    const answers = own.results[turn - 1]
    if (incoming === undefined || answers === undefined) return { offence: undefined, state, turns: turn - 1 }
    const half = resolveIncoming(ruleset, state, record, visibleAspectsOf(incoming))
    const given = [...answers.beams.flat(), ...answers.strikes]
    const truth = half.exchanges.filter((e) => e.kind === 'beam-strike' || e.kind === 'strike')
    for (let i = 0; i < truth.length; i++) {
      const t = truth[i]
      const g = given[i]
      if (t === undefined || g === undefined) continue
      if (t.result !== g.result || t.explosions.map(formatCell).join(' ') !== g.explosions.join(' ')) {
        return fail(turn, 'false-visible-result', '2.6.1 §5.2 C-20', `${t.kind} on ${formatCell(t.target)}: answered ${g.result}${g.explosions.length > 0 ? ` with explosions ${g.explosions.join(' ')}` : ''}, the replay gives ${strikeText(t)}`, `results:${turn}`)
      }
    }
    const scans = half.exchanges.filter((e) => e.kind === 'scan')
    for (let i = 0; i < scans.length; i++) {
      const t = scans[i]
      if (t?.kind === 'scan' && t.result !== answers.scans[i]?.result) return fail(turn, 'false-visible-result', '2.6.1 §8.6 C-22', `scan on ${formatCell(t.target)}: answered ${answers.scans[i]?.result}, the replay gives ${t.result}`, `results:${turn}`)
    }
    const reported = answers.destroyed.map((r) => `${shipDetail(r.type, r.id)}:${r.cells.map((c) => c.cell).join(' ')}`).join(', ')
    const actual = half.destructions.map((r) => `${shipDetail(r.type, state.ships[r.ship]?.id ?? 0)}:${r.cells.map(formatCell).join(' ')}`).join(', ')
    if (reported !== actual) return fail(turn, 'false-destruction-report', '2.6.1 §2.2.4 C-23', `reported destroyed [${reported}], the replay gives [${actual}]`, `results:${turn}`)
    if (answers.fleetDestroyed !== fleetDestroyed(half.state)) return fail(turn, 'false-destruction-report', '2.6.1 §2.3.1 C-25', answers.fleetDestroyed ? 'claimed the whole fleet destroyed, but a ship survives' : 'did not claim the fleet destroyed, but every ship is', `results:${turn}`)
    const theirAnswers = other.results[turn - 1]
    const burnouts = theirAnswers === undefined ? [] : burnoutsOf(ruleset, record.beams.map((b) => b.ship), beamExchanges(theirAnswers, shown))
    state = withBurnouts(half.state, burnouts)
    const flash = own.flashcubes[turn - 1]
    if (theirAnswers === undefined || flash === undefined) return { offence: undefined, state, turns: turn - 1 }
    for (let r = 0; r < theirAnswers.destroyed.length; r++) {
      const report = theirAnswers.destroyed[r]
      for (let i = 0; i < (report?.cells.length ?? 0); i++) {
        const cell = cellIndex(report?.cells[i]?.cell ?? 'Rv1')
        const t = flashcubeEntry(state, cell)
        const g: FlashcubeAnswer | undefined = flash.reports[r]?.[i]
        const same = g !== undefined && (t.kind === 'empty' ? g.kind === 'empty' : g.kind === 'ship' && g.type === t.type && g.id === (state.ships[state.shipAt[cell] ?? -1]?.id ?? 0) && g.destroyed === t.destroyed)
        if (!same) return fail(turn, 'false-flashcube-data', '2.6.1 §7.2 C-24', `flashcube data for ${formatCell(cell)} is wrong: the replay gives ${t.kind === 'empty' ? 'empty' : `${t.destroyed ? 'destroyed' : 'undamaged'} ${t.type}`}`, `flashcube:${turn}`)
      }
    }
  }
  return { offence: undefined, state, turns }
}

export function scoreOf(state: PlayerState): number {
  return remainingMateriel(state)
}
