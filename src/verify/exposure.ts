/**
 * What one player's answers disclose, checked the moment they arrive (DESIGN.md goal 2;
 * protocol/SPEC.md §11.2). A strike, beam strike or scan result is opened against the occupancy
 * commitment; whether it is a hit or a duplicate hit follows from what the owner has already
 * claimed destroyed (every cause of destruction is visible: hits, listed explosions and its own
 * kamikaze deaths). Destruction reports and flashcube data are opened against the detail
 * commitments. Everything that depends on hidden state waits for the reveal (`replaySide`).
 */
import { type CommitmentContext, EMPTY_DETAIL, detailValue, occupancyValue, opens } from '../commit/commitments.js'
import { fromBase64url } from '../commit/bytes.js'
import { CELL_COUNT, FACE_NEIGHBOURS, formatCell } from '../rules/coords.js'
import type { Ruleset } from '../rules/ruleset.js'
import { VARIANT_SHIP_TYPES, shapeProblem } from '../rules/ships.js'
import { SALT_BYTES } from '../commit/commitments.js'
import { type Aspects, type CellName, type Destruction, type Flashcube, type Results, type Role, type ScanAnswer, type StrikeAnswer, cellIndex } from '../transcript/messages.js'
import type { ProtocolOffence } from './offence.js'

/** The other side's running knowledge of one player's space, built only from that player's claims. */
export interface Exposure {
  readonly owner: Role
  readonly ruleset: Ruleset
  readonly ctx: CommitmentContext
  /** The owner's setup commitment vector. */
  readonly commitments: Uint8Array
  /** Cells the owner has claimed destroyed. */
  readonly destroyed: Uint8Array
  /** Ships the owner has reported destroyed, as `${type}${id}`. */
  readonly reported: Set<string>
}

export function newExposure(owner: Role, ruleset: Ruleset, ctx: CommitmentContext, commitments: Uint8Array): Exposure {
  return { owner, ruleset, ctx, commitments, destroyed: new Uint8Array(CELL_COUNT), reported: new Set() }
}

export function shipDetail(type: string, id: number): string {
  return `${type}${id}`
}

type Check = ProtocolOffence | undefined

function offence(e: Exposure, turn: number, cls: ProtocolOffence['class'], rule: string, detail: string): ProtocolOffence {
  return { offender: e.owner, class: cls, rule, turn, detail }
}

function saltOf(text: string): Uint8Array {
  return fromBase64url(text, SALT_BYTES) ?? new Uint8Array(SALT_BYTES)
}

/** Opens an occupancy answer: the claimed value must open; the other value opening means the answer lied. */
function openOccupancy(e: Exposure, turn: number, cell: number, claimedOccupied: boolean, salt: string, what: string): Check {
  const s = saltOf(salt)
  if (opens(e.commitments, 'occupancy', e.ctx, cell, occupancyValue(claimedOccupied), s)) return undefined
  if (opens(e.commitments, 'occupancy', e.ctx, cell, occupancyValue(!claimedOccupied), s)) {
    return offence(e, turn, 'false-visible-result', claimedOccupied ? '2.6.1 §5.2.2 C-20' : '2.6.1 §5.2.3 C-20', `${what} on ${formatCell(cell)}: the opening shows the cell ${claimedOccupied ? 'is empty' : 'holds a ship'}`)
  }
  return offence(e, turn, 'commitment-mismatch', 'SPEC §4.2 §7.3', `${what} on ${formatCell(cell)}: the salt opens neither occupancy value`)
}

/**
 * Checks the owner's answers to the other side's aspects of `turn`, and its destruction reports,
 * then records the cells they claim destroyed. `ownAspects` are the owner's own aspects this turn
 * (its kamikaze launch cells are destroyed by its own hand, C-18).
 */
export function checkAnswers(e: Exposure, turn: number, ownAspects: Aspects, incoming: Aspects, results: Results): Check {
  const classic = e.ruleset.variant === 'classic'
  if (results.beams.length !== incoming.beams.length || results.beams.some((b, i) => b.length !== (incoming.beams[i]?.length ?? -1))) {
    return offence(e, turn, 'protocol-violation', 'SPEC §7.3', 'beam results do not match the beam strikes shown, firing by firing')
  }
  if (results.strikes.length !== incoming.strikes.length) return offence(e, turn, 'protocol-violation', 'SPEC §7.3', `${results.strikes.length} strike results for ${incoming.strikes.length} strikes`)
  if (results.scans.length !== incoming.scans.length) return offence(e, turn, 'protocol-violation', 'SPEC §7.3', `${results.scans.length} scan results for ${incoming.scans.length} scans`)
  const before = e.destroyed.slice()
  const live = e.destroyed
  if (!classic) for (const k of ownAspects.kamikaze) live[cellIndex(k)] = 1
  // C-19: 2.6.1 judges against the live state; classic against the state at the start of the turn.
  const judge = classic ? before : live
  const strikeOne = (target: CellName, a: StrikeAnswer, what: string): Check => {
    const cell = cellIndex(target)
    const bad = openOccupancy(e, turn, cell, a.result !== 'miss', a.salt, what)
    if (bad !== undefined) return bad
    if (a.result !== 'miss') {
      const expected = judge[cell] === 1 ? 'duplicate-hit' : 'hit'
      if (a.result !== expected) return offence(e, turn, 'false-visible-result', '2.6.1 §5.2.3 §5.2.4 C-20', `${what} on ${target}: answered ${a.result}, but the cell was ${judge[cell] === 1 ? 'already' : 'not yet'} destroyed`)
    }
    if (a.explosions.length > 0) {
      const neighbours = FACE_NEIGHBOURS[cell] ?? []
      const rest = a.explosions.slice(1).map(cellIndex)
      const ordered = rest.every((c, i) => neighbours.includes(c) && (i === 0 || neighbours.indexOf(c) > neighbours.indexOf(rest[i - 1] ?? -1)) && judge[c] === 0)
      if (a.result !== 'hit' || a.explosions[0] !== target || !ordered) {
        return offence(e, turn, 'false-visible-result', '2.6.1 §8.1.4 C-20', `${what} on ${target}: explosions must start at the target, then undamaged face neighbours in canonical order, and only on a hit`)
      }
    }
    if (a.result === 'hit') live[cell] = 1
    for (const x of a.explosions) live[cellIndex(x)] = 1
    return undefined
  }
  for (let b = 0; b < incoming.beams.length; b++) {
    const targets = incoming.beams[b] ?? []
    for (let i = 0; i < targets.length; i++) {
      const bad = strikeOne(targets[i] ?? '', results.beams[b]?.[i] as StrikeAnswer, 'beam strike')
      if (bad !== undefined) return bad
    }
  }
  for (let i = 0; i < incoming.strikes.length; i++) {
    const bad = strikeOne(incoming.strikes[i] ?? '', results.strikes[i] as StrikeAnswer, 'strike')
    if (bad !== undefined) return bad
  }
  for (let i = 0; i < incoming.scans.length; i++) {
    const target = incoming.scans[i] ?? ''
    const a = results.scans[i] as ScanAnswer
    const cell = cellIndex(target)
    const bad = openOccupancy(e, turn, cell, a.result !== 'empty', a.salt, 'scan')
    if (bad !== undefined) return bad
    if (a.result !== 'empty') {
      const expected = judge[cell] === 1 ? 'ship-destroyed' : 'ship'
      if (a.result !== expected) return offence(e, turn, 'false-visible-result', '2.6.1 §8.6 C-22', `scan on ${target}: answered ${a.result}, expected ${expected}`)
    }
  }
  if (classic) for (const k of ownAspects.kamikaze) live[cellIndex(k)] = 1
  return checkReports(e, turn, before, results.destroyed)
}

function checkReports(e: Exposure, turn: number, before: Uint8Array, reports: readonly Destruction[]): Check {
  if (e.ruleset.variant === 'classic' && reports.length > 0) return offence(e, turn, 'protocol-violation', 'SPEC §7.3 classic', 'classic games have no destruction reports')
  for (const r of reports) {
    const name = shipDetail(r.type, r.id)
    const cells = r.cells.map((c) => cellIndex(c.cell))
    if (!VARIANT_SHIP_TYPES[e.ruleset.variant].includes(r.type)) return offence(e, turn, 'false-destruction-report', '2.6.1 §6', `${r.type} is not a ship of this variant`)
    if (cells.some((c, i) => i > 0 && c <= (cells[i - 1] ?? -1))) return offence(e, turn, 'protocol-violation', 'SPEC §7.3', `report of ${name}: cells must be in ascending cell order, each once`)
    if (e.reported.has(name)) return offence(e, turn, 'false-destruction-report', '2.6.1 §2.2.4 C-23', `${name} was already reported destroyed`)
    for (const c of r.cells) {
      if (!opens(e.commitments, 'detail', e.ctx, cellIndex(c.cell), detailValue(name), saltOf(c.salt))) {
        return offence(e, turn, 'false-destruction-report', '2.6.1 §2.2.4 C-23', `report of ${name}: the detail opening of ${c.cell} does not show ${name}`)
      }
    }
    const standing = cells.filter((c) => e.destroyed[c] !== 1)
    if (standing.length > 0) return offence(e, turn, 'false-destruction-report', '2.6.1 §2.2.4 C-23', `report of ${name}: ${standing.map(formatCell).join(' ')} not destroyed by any result or kamikaze death`)
    if (cells.every((c) => before[c] === 1)) return offence(e, turn, 'false-destruction-report', '2.6.1 §2.2.4 C-23', `report of ${name}: no cell of it was destroyed this turn (a late report)`)
    const shape = shapeProblem(r.type, cells, e.ruleset)
    if (shape !== undefined) return offence(e, turn, 'false-destruction-report', `2.6.1 §3.5 ${shape.rule} C-23`, `report of ${name} does not list the whole ship: ${shape.message}`)
    e.reported.add(name)
  }
  return undefined
}

/** Checks the owner's flashcube data for the other side's destruction reports of `turn` (C-24). */
export function checkFlashcube(e: Exposure, turn: number, otherReports: readonly Destruction[], flashcube: Flashcube): Check {
  if (flashcube.reports.length !== otherReports.length || flashcube.reports.some((entries, i) => entries.length !== (otherReports[i]?.cells.length ?? -1) || entries.some((x, j) => x.cell !== otherReports[i]?.cells[j]?.cell))) {
    return offence(e, turn, 'protocol-violation', 'SPEC §7.4', 'flashcube data must answer every destruction report, cell by cell in the same order')
  }
  for (const entries of flashcube.reports) {
    for (const x of entries) {
      const cell = cellIndex(x.cell)
      const value = x.kind === 'empty' ? EMPTY_DETAIL : shipDetail(x.type, x.id)
      if (!opens(e.commitments, 'detail', e.ctx, cell, detailValue(value), saltOf(x.salt))) {
        return offence(e, turn, 'false-flashcube-data', '2.6.1 §7.2 C-24', `flashcube data for ${x.cell}: the detail opening does not show ${value === EMPTY_DETAIL ? 'an empty cell' : value}`)
      }
      const destroyed = e.destroyed[cell] === 1
      if ((x.kind === 'ship' && x.destroyed !== destroyed) || (x.kind === 'empty' && destroyed)) {
        return offence(e, turn, 'false-flashcube-data', '2.6.1 §7.2.2 C-24', `flashcube data for ${x.cell}: the cell is ${destroyed ? '' : 'not '}destroyed by the owner's own answers`)
      }
    }
  }
  return undefined
}
