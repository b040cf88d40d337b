/**
 * Replaying a player's side once it has revealed its seed, setup and records (protocol/SPEC.md
 * §12.5). A side's state follows from its own setup and records and the other side's visible
 * aspects, so each revealed side is checked on its own; and when both revealed, the game is
 * played out by the rules engine over every turn both committed (SPEC §12.7, adjudication).
 */
import { type CellValue, EMPTY_CELL, SideSecrets } from '../protocol/commitments.js'
import { constantTimeEqual } from '../../../core/commit/bytes.js'
import { CELL_COUNT, formatCell } from '../rules/coords.js'
import { describeViolation } from '../rules/errors.js'
import { onlyScans } from '../rules/game.js'
import { type CheckedRecord, readRecord } from '../rules/legality.js'
import {
  type Exchange,
  type VisibleAspects,
  burnoutsOf,
  flashcubeEntry,
  resolveIncoming,
  resolveTurn,
  withBurnouts,
} from '../rules/resolve.js'
import type { Ruleset } from '../rules/ruleset.js'
import { type Setup, validateSetup } from '../rules/setup.js'
import { type PlayerState, fleetDestroyed, initialPlayerState, remainingMateriel } from '../rules/state.js'
import {
  type Aspects,
  type CellName,
  type Results,
  type RevealedShip,
  ROLE_INDEX,
  type StrikeAnswer,
  SHIP_CODES,
  cellIndex,
  type ProtocolVersion,
} from '../protocol/messages.js'
import type { SideLog } from './log.js'
import { type ProtocolOffence, STAGE, type Stage } from './offence.js'

/** The committed value of every cell of a setup (SPEC §4.2). */
export function cellValues(setup: Setup): CellValue[] {
  const out: CellValue[] = new Array<CellValue>(CELL_COUNT).fill(EMPTY_CELL)
  for (const s of setup) {
    // One value per ship, shared by its cells (values are read, never changed).
    const value = { occupied: true, type: SHIP_CODES[s.type], id: s.id }
    for (const c of s.cells) out[c] = value
  }
  return out
}

/** A setup as a reveal carries it (SPEC §7.8): every identity written, canonical order. */
export function revealedSetup(setup: Setup): RevealedShip[] {
  return [...setup]
    .sort((a, b) => SHIP_CODES[a.type] - SHIP_CODES[b.type] || a.id - b.id)
    .map((s) => ({ type: s.type, id: s.id, cells: [...s.cells].sort((x, y) => x - y) }))
}

export function visibleAspectsOf(a: Aspects): VisibleAspects {
  return {
    beams: a.beams.map((b) => b.map(cellIndex)),
    strikes: a.strikes.map(cellIndex),
    scans: a.scans.map(cellIndex),
    kamikaze: a.kamikaze.map(cellIndex),
  }
}

/** Only the results matter for burn-out (C-21): rebuilt from the other side's answers to a player's beams. */
export function beamExchanges(results: Results, aspects: Aspects): Exchange[] {
  return results.beams.flatMap((answers, beam) =>
    answers.map((a, i) => ({
      kind: 'beam-strike' as const,
      target: cellIndex(aspects.beams[beam]?.[i] ?? 'Rv1'),
      beam,
      result: a.result,
      explosions: [],
    })),
  )
}

// Loops, not every(): these run for each list of each turn of both replays.
function sameCells(shown: readonly CellName[], expected: readonly number[]): boolean {
  if (shown.length !== expected.length) return false
  for (let i = 0; i < shown.length; i++) if (cellIndex(shown[i] ?? '') !== expected[i]) return false
  return true
}

/** Whether the explosions answered are the engine's, cell by cell, in order. */
function sameExplosions(engine: readonly number[], answered: readonly CellName[]): boolean {
  if (engine.length !== answered.length) return false
  for (let i = 0; i < engine.length; i++) if (formatCell(engine[i] ?? 0) !== answered[i]) return false
  return true
}

/** Whether the aspects shown are the record's, list by list and cell by cell, in order. */
function sameAspects(shown: Aspects, expected: VisibleAspects): boolean {
  return (
    shown.beams.length === expected.beams.length &&
    shown.beams.every((b, i) => sameCells(b, expected.beams[i] ?? [])) &&
    sameCells(shown.strikes, expected.strikes) &&
    sameCells(shown.scans, expected.scans) &&
    sameCells(shown.kamikaze, expected.kamikaze)
  )
}

function strikeText(e: Exchange): string {
  return e.kind === 'kamikaze-death'
    ? ''
    : `${e.result}${'explosions' in e && e.explosions.length > 0 ? ` with explosions ${e.explosions.map(formatCell).join(' ')}` : ''}`
}

export interface SideReplay {
  readonly offence: ProtocolOffence | undefined
  /** The revealed setup, when it is legal and opens the commitment. */
  readonly setup: Setup | undefined
  /** The checked record of each replayed turn (index t - 1). */
  readonly records: readonly CheckedRecord[]
  /** State after the last turn replayed in full. */
  readonly state: PlayerState | undefined
  /** Turns replayed in full (both sides' messages present). */
  readonly turns: number
  /**
   * The state after each turn replayed in full (index t - 1), every answer, report and flashcube
   * entry of the turn checked equal to the engine's: `playCommitted` starts from them.
   */
  readonly states: readonly PlayerState[]
}

/**
 * Replays `own`, which has revealed, against `other`'s visible aspects and answers, over the turns
 * the logs cover. Returns the first offence of `own` in turn order (SPEC §12.5). `revealTurn` is the
 * turn by place of the envelope that carried the reveal (SPEC §12.6), where a wrong record count ranks.
 */
export function replaySide(
  ruleset: Ruleset,
  game: Uint8Array,
  additional: number,
  own: SideLog,
  other: SideLog,
  revealTurn: number,
  version: ProtocolVersion = 3,
): SideReplay {
  const role = own.role
  const records: CheckedRecord[] = []
  const states: PlayerState[] = []
  const known: { setup: Setup | undefined } = { setup: undefined }
  const fail = (
    turn: number,
    cls: ProtocolOffence['class'],
    stage: Stage,
    rule: string,
    detail: string,
    key: string,
  ): SideReplay => {
    const seq = own.seqs.get(key)
    return {
      offence: { offender: role, class: cls, rule, turn, stage, detail, ...(seq === undefined ? {} : { seq }) },
      setup: known.setup,
      records,
      state: undefined,
      turns: turn,
      states,
    }
  }
  const reveal = own.reveal
  if (reveal === undefined || own.setup === undefined)
    return { offence: undefined, setup: undefined, records, state: undefined, turns: 0, states }
  const valid = validateSetup(
    reveal.setup.map((s) => ({ type: s.type, id: s.id, cells: s.cells, text: `${s.type}${s.id}` })),
    ruleset,
    additional,
  )
  if (!valid.ok)
    return fail(
      0,
      'illegal-setup',
      STAGE.setup,
      valid.error[0]?.rule ?? '§3',
      valid.error.map(describeViolation).join('; '),
      'setup',
    )
  const secrets = new SideSecrets(reveal.seed, game, ROLE_INDEX[role], version)
  if (!constantTimeEqual(secrets.setupVector(cellValues(valid.value)), own.setup.cells)) {
    return fail(
      0,
      'commitment-mismatch',
      STAGE.setup,
      'SPEC §4.2',
      'the revealed setup and seed do not open the setup commitment: the setup was changed after committing',
      'setup',
    )
  }
  known.setup = valid.value
  if (reveal.records.length !== own.commits.length)
    return fail(
      revealTurn,
      'protocol-violation',
      STAGE.reveal,
      'SPEC §7.8',
      `revealed ${reveal.records.length} records for ${own.commits.length} committed turns`,
      'reveal',
    )
  let state = initialPlayerState(valid.value)
  let turns = 0
  const done = (): SideReplay => ({ offence: undefined, setup: known.setup, records, state, turns, states })
  // Every record's commitment at once (four turns a lane, SideSecrets.recordCommitments); each is
  // still compared in turn order below, so the first that fails is the one reported.
  const committed = secrets.recordCommitments(reveal.records.slice(0, own.commits.length))
  for (let turn = 1; turn <= own.commits.length; turn++) {
    const text = reveal.records[turn - 1] ?? ''
    const commit = own.commits[turn - 1]
    const made = committed[turn - 1] ?? secrets.recordCommitment(turn, text)
    if (commit === undefined || !constantTimeEqual(made, commit.record)) {
      return fail(
        turn,
        'commitment-mismatch',
        STAGE.record,
        'SPEC §4.3',
        `the revealed record "${text}" does not open the turn's record commitment`,
        `commit:${turn}`,
      )
    }
    const checked = readRecord(ruleset, state, turn, text, 'strict')
    if (!checked.ok)
      return fail(
        turn,
        'illegal-record',
        STAGE.record,
        checked.error[0]?.rule ?? '§4',
        `"${text}": ${checked.error.map(describeViolation).join('; ')}`,
        `commit:${turn}`,
      )
    const record = checked.value
    records.push(record)
    const shown = own.aspects[turn - 1]
    if (shown === undefined) return done()
    const aspects = {
      beams: record.beams.map((b) => b.targets),
      strikes: record.strikes,
      scans: record.scans,
      kamikaze: record.kamikazeLaunches,
    }
    if (!sameAspects(shown, aspects))
      return fail(
        turn,
        'commitment-mismatch',
        STAGE.record,
        '2.6.1 §2.2.2 SPEC §7.5',
        `the visible aspects shown differ from those of the committed record "${text}"`,
        `aspects:${turn}`,
      )
    const idle = record.entitlements.onlyKamikazeAndScans && onlyScans(ruleset, record)
    if (shown.idle !== idle)
      return fail(
        turn,
        'illegal-record',
        STAGE.record,
        '2.6.1 §2.3.2 C-26',
        idle
          ? 'the no-actions claim was not made although it held'
          : 'false no-actions claim: the player had other actions or recorded more than scans',
        `aspects:${turn}`,
      )
    const incoming = other.aspects[turn - 1]
    const answers = own.results[turn - 1]
    if (incoming === undefined || answers === undefined) return done()
    const half = resolveIncoming(ruleset, state, record, visibleAspectsOf(incoming))
    // The answers in C-19 order, as the engine lists its exchanges: beam strikes, then strikes.
    const given: StrikeAnswer[] = []
    for (const b of answers.beams) for (const a of b) given.push(a)
    for (const a of answers.strikes) given.push(a)
    const truth = half.exchanges.filter((e) => e.kind === 'beam-strike' || e.kind === 'strike')
    for (let i = 0; i < truth.length; i++) {
      const t = truth[i]
      const g = given[i]
      if (t === undefined || g === undefined) continue
      if (t.result !== g.result || !sameExplosions(t.explosions, g.explosions)) {
        return fail(
          turn,
          'false-visible-result',
          STAGE.results,
          '2.6.1 §5.2 C-20',
          `${t.kind} on ${formatCell(t.target)}: answered ${g.result}${g.explosions.length > 0 ? ` with explosions ${g.explosions.join(' ')}` : ''}, the replay gives ${strikeText(t)}`,
          `results:${turn}`,
        )
      }
    }
    const scans = half.exchanges.filter((e) => e.kind === 'scan')
    for (let i = 0; i < scans.length; i++) {
      const t = scans[i]
      if (t?.kind === 'scan' && t.result !== answers.scans[i]?.result)
        return fail(
          turn,
          'false-visible-result',
          STAGE.results,
          '2.6.1 §8.3.4.1 C-22',
          `scan on ${formatCell(t.target)}: answered ${answers.scans[i]?.result}, the replay gives ${t.result}`,
          `results:${turn}`,
        )
    }
    const reported = answers.destroyed.map((r) => `${r.type}${r.id}:${r.cells.map((c) => c.cell).join(' ')}`).join(', ')
    const actual = [...half.destructions]
      .sort(
        (x, y) =>
          SHIP_CODES[x.type] - SHIP_CODES[y.type] || (state.ships[x.ship]?.id ?? 0) - (state.ships[y.ship]?.id ?? 0),
      )
      .map(
        (r) =>
          `${r.type}${state.ships[r.ship]?.id ?? 0}:${[...r.cells]
            .sort((a, b) => a - b)
            .map(formatCell)
            .join(' ')}`,
      )
      .join(', ')
    if (reported !== actual)
      return fail(
        turn,
        'false-destruction-report',
        STAGE.results,
        '2.6.1 §2.2.4 C-23',
        `reported destroyed [${reported}], the replay gives [${actual}]`,
        `results:${turn}`,
      )
    if (answers.fleetDestroyed !== fleetDestroyed(half.state))
      return fail(
        turn,
        'false-destruction-report',
        STAGE.results,
        '2.6.1 §2.3.1 C-25',
        answers.fleetDestroyed
          ? 'claimed the whole fleet destroyed, but a ship survives'
          : 'did not claim the fleet destroyed, but every ship is',
        `results:${turn}`,
      )
    const theirAnswers = other.results[turn - 1]
    if (theirAnswers === undefined) return done()
    state = withBurnouts(
      half.state,
      burnoutsOf(
        ruleset,
        record.beams.map((b) => b.ship),
        beamExchanges(theirAnswers, shown),
      ),
    )
    if (theirAnswers.destroyed.length > 0) {
      const flash = own.flashcubes.get(turn)
      if (flash === undefined) return done()
      for (let r = 0; r < theirAnswers.destroyed.length; r++) {
        const report = theirAnswers.destroyed[r]
        for (let i = 0; i < (report?.cells.length ?? 0); i++) {
          const cell = cellIndex(report?.cells[i]?.cell ?? 'Rv1')
          const t = flashcubeEntry(state, cell)
          const g = flash.reports[r]?.[i]
          const same =
            g !== undefined &&
            (t.kind === 'empty'
              ? g.kind === 'empty'
              : g.kind === 'ship' &&
                g.type === t.type &&
                g.id === (state.ships[state.shipAt[cell] ?? -1]?.id ?? 0) &&
                g.destroyed === t.destroyed)
          if (!same)
            return fail(
              turn,
              'false-flashcube-data',
              STAGE.flashcube,
              '2.6.1 §7.2 C-24',
              `flashcube data for ${formatCell(cell)} is wrong: the replay gives ${t.kind === 'empty' ? 'empty' : `${t.destroyed ? 'destroyed' : 'undamaged'} ${t.type}`}`,
              `flashcube:${turn}`,
            )
        }
      }
    }
    turns = turn
    states.push(state)
  }
  return done()
}

/**
 * SPEC §12.7 (adjudication): both sides revealed and replayed without offence; plays out every
 * turn both committed with the rules engine, from both setups, and returns the scores after it.
 *
 * The turns both replays played in full need no second resolution: in each, each side's aspects
 * were checked equal to its record's and each side's answers, reports and flashcube data equal to
 * the engine's, so each replayed state is the state the engine reaches from both records (the
 * same halves, `resolveIncoming`, on the same inputs). The engine resolves only the turns after
 * them (those committed but not answered, when the game stopped).
 */
export function playCommitted(
  ruleset: Ruleset,
  a: SideReplay,
  b: SideReplay,
): { turn: number; scores: [number, number]; states: [PlayerState, PlayerState] } | undefined {
  if (a.setup === undefined || b.setup === undefined) return undefined
  const turns = Math.min(a.records.length, b.records.length)
  // The verdict asks only after replays without offence; any other caller gets the engine's full play.
  const clean = a.offence === undefined && b.offence === undefined
  const replayed = clean ? Math.min(turns, a.states.length, b.states.length) : 0
  const sa = a.states[replayed - 1]
  const sb = b.states[replayed - 1]
  const fromReplay = sa !== undefined && sb !== undefined
  let states: [PlayerState, PlayerState] = fromReplay
    ? [sa, sb]
    : [initialPlayerState(a.setup), initialPlayerState(b.setup)]
  for (let t = fromReplay ? replayed : 0; t < turns; t++) {
    const ra = a.records[t]
    const rb = b.records[t]
    if (ra === undefined || rb === undefined) break
    states = resolveTurn(ruleset, states, [ra, rb]).states
  }
  return { turn: turns, scores: [remainingMateriel(states[0]), remainingMateriel(states[1])], states }
}

export function scoreOf(state: PlayerState): number {
  return remainingMateriel(state)
}
