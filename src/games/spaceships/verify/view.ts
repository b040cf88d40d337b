/**
 * One file over 400 lines on purpose: `SideView` is one object, the public state of a space, that
 * `checkAspects` reads and the answer, report and flashcube checks extend in turn (what one learns
 * the next judges by); split apart, each check would need that private state opened to it.
 *
 * The public view of one player's space: what the other side knows of it from the wire, built
 * only from that player's own signed statements (its answers, reports, flashcube data and
 * kamikaze launches) and the other side's answers to its beams. It decides, before anything is
 * answered, whether the player's aspects break a public bound (protocol/SPEC.md §8) and whether
 * its answers, reports and flashcube data hold against its commitments (SPEC §12.4). Pure.
 *
 * What depends on hidden state (which cells fire a beam, which missiles are unfired, whether a
 * kamikaze launch cell is an eligible ship cell, hidden missile explosions) waits for the reveal
 * (`replay.ts`); SPEC §13.1 says what a cheater can learn meanwhile.
 */
import { SideCommitments } from '../protocol/commitments.js'
import { CELL_COUNT, FACE_NEIGHBOURS, beamLine, coordOf, formatCell } from '../rules/coords.js'
import { type FleetCounts, fleetMeasure } from '../rules/fleet.js'
import type { Ruleset } from '../rules/ruleset.js'
import { SHIP_TYPES, type ShipType, VARIANT_SHIP_TYPES, shapeProblem } from '../rules/ships.js'
import {
  type Aspects,
  type CellName,
  type Destruction,
  type Flashcube,
  type OffenceClass,
  type Results,
  type Role,
  ROLE_INDEX,
  SHIP_CODES,
  type ScanAnswer,
  type StrikeAnswer,
  cellIndex,
  knownCellIndex,
  type ProtocolVersion,
} from '../protocol/messages.js'
import { type ProtocolOffence, STAGE, type Stage } from './offence.js'
import { type FleetTable, fleetsOf } from './fleet-table.js'

/**
 * SPEC §8: the most strike tokens one ship of a type can give in a turn (C-12..C-14): its largest
 * conventional strike count, plus one if it carries missiles, or one kamikaze strike. Held equal to
 * the rules engine's entitlements over every placement and damage pattern by a test.
 */
export const MAX_TOKENS: Readonly<Record<'2.6.1' | 'classic', Partial<Record<ShipType, number>>>> = {
  '2.6.1': { DS: 1, KC: 3, FS: 2, PC: 2, MD: 2, HS: 1, LS: 0, AG: 2, LG: 1 },
  classic: { DS: 1, KC: 7, FS: 4, MD: 3, HF: 1 },
}

type Check = ProtocolOffence | undefined

/** SPEC §8's bounds that follow from the possible fleets alone (given the reported ships). */
interface FleetBounds {
  /** The most death stars not reported destroyed, over the possible fleets (beams, C-15). */
  deathStars: number
  /** Some possible fleet has a scout not reported destroyed (scans, C-16). */
  scouts: boolean
  /** The most strike tokens the ships not reported destroyed give, over the possible fleets (C-12..C-17). */
  strikes: number
  /** Every possible fleet has a death star not reported destroyed (the idle claim, C-26). */
  deathStarInEvery: boolean
}

/**
 * The legal fleets that hold the reported ships (`rows` of the fleet table, what they had to hold
 * in `need`), and over them the most and fewest death stars, the most scouts (HS and LS) and
 * strike tokens, all ships counted: -1 (and Infinity) when there are none.
 */
interface Possible {
  readonly reports: number
  readonly rows: Int32Array
  readonly need: Uint8Array
  readonly mostDS: number
  readonly fewestDS: number
  readonly mostScouts: number
  readonly mostStrikes: number
}

/** A ship the owner reported destroyed, by type and identity. */
interface Reported {
  readonly type: ShipType
  readonly id: number
}

export class SideView {
  private readonly commitments: SideCommitments
  private readonly classic: boolean
  /** Cells the owner's statements show destroyed (its answers, reports, kamikaze launches). */
  readonly destroyed = new Uint8Array(CELL_COUNT)
  /** Cells the owner's statements show empty (misses, empty scans, flashcube data). */
  readonly empty = new Uint8Array(CELL_COUNT)
  /** `destroyed` as it was before the answers `checkResults` is checking. */
  private readonly before = new Uint8Array(CELL_COUNT)
  /** Cells identified with a ship (reports, flashcube data), as `type` and `id`. */
  readonly identified = new Map<number, Reported>()
  readonly reported: Reported[] = []
  /** SPEC §8: the owner's beam firings that burnt out (C-21). */
  burnouts = 0
  /** SPEC §8: the owner's cells destroyed during the last turn whose results are known (C-16). */
  lostLastTurn = 0
  private readonly fleets: FleetTable
  /** The legal fleets that hold the reported ships, for `reported.length` reports. */
  private possible: Possible | undefined
  /** The bounds of SPEC §8 that rest on the reported ships only, for `reported.length` reports. */
  private bounds: { readonly reports: number; readonly value: FleetBounds } | undefined

  constructor(
    readonly owner: Role,
    readonly ruleset: Ruleset,
    game: Uint8Array,
    private readonly vector: Uint8Array,
    additional: number,
    readonly version: ProtocolVersion = 3,
  ) {
    this.commitments = new SideCommitments(game, ROLE_INDEX[owner], version)
    this.classic = ruleset.variant === 'classic'
    this.fleets = fleetsOf(ruleset, additional)
  }

  private offence(turn: number, cls: OffenceClass, stage: Stage, rule: string, detail: string): ProtocolOffence {
    return { offender: this.owner, class: cls, rule, turn, stage, detail }
  }

  private reportedCount(type: ShipType): number {
    return this.reported.filter((r) => r.type === type).length
  }

  /**
   * SPEC §8: what each type needs of a legal fleet to hold every reported ship (and `extra`): as
   * many ships as its reports, and at least its highest reported identity; undefined when a
   * reported type is not in the table at all.
   */
  private needs(extra?: Reported): Uint8Array | undefined {
    const { types } = this.fleets
    const need = new Uint8Array(types.length)
    const seen = new Uint8Array(types.length)
    for (const r of extra === undefined ? this.reported : [...this.reported, extra]) {
      const j = types.indexOf(r.type)
      if (j < 0) return undefined
      seen[j] = (seen[j] ?? 0) + 1
      need[j] = Math.max(need[j] ?? 0, seen[j] ?? 0, r.id)
    }
    return need
  }

  /** Whether legal fleet `row` meets `need`. */
  private holds(row: number, need: Uint8Array): boolean {
    const { types, counts } = this.fleets
    const at = row * types.length
    for (let j = 0; j < types.length; j++) if ((counts[at + j] ?? 0) < (need[j] ?? 0)) return false
    return true
  }

  /**
   * SPEC §8: the legal fleets that hold every reported ship, with what the bounds need of them
   * (`Possible`), in one pass. Reports only grow, and with them what a fleet must hold, so each set
   * is filtered from the one before: a cost fleet's 3,771 rows are read once at the start, and
   * fewer as ships are reported.
   */
  private possibleFleets(): Possible {
    if (this.possible?.reports === this.reported.length) return this.possible
    const { rows: count, types, counts } = this.fleets
    const width = types.length
    const strikes = strikeTokens(this.fleets, this.ruleset.variant)
    const [ds, hs, ls] = [types.indexOf('DS'), types.indexOf('HS'), types.indexOf('LS')]
    const col = (at: number, j: number): number => (j < 0 ? 0 : (counts[at + j] ?? 0))
    const before = this.possible
    const need = this.needs()
    const out = new Int32Array(before?.rows.length ?? count)
    let n = 0
    const next = { mostDS: -1, fewestDS: Infinity, mostScouts: -1, mostStrikes: -1 }
    if (need !== undefined) {
      // Reports only grow, and with them what a fleet must hold: the rows kept before meet the
      // need they were kept for, so only the columns whose need grew are read again.
      const grew: number[] = []
      for (let j = 0; j < width; j++) if ((need[j] ?? 0) > (before?.need[j] ?? 0)) grew.push(j)
      for (let k = 0; k < out.length; k++) {
        const i = before === undefined ? k : (before.rows[k] ?? 0)
        const at = i * width
        let g = 0
        while (g < grew.length && (counts[at + (grew[g] ?? 0)] ?? 0) >= (need[grew[g] ?? 0] ?? 0)) g++
        if (g < grew.length) continue
        out[n++] = i
        const d = col(at, ds)
        if (d > next.mostDS) next.mostDS = d
        if (d < next.fewestDS) next.fewestDS = d
        next.mostScouts = Math.max(next.mostScouts, col(at, hs) + col(at, ls))
        next.mostStrikes = Math.max(next.mostStrikes, strikes[i] ?? 0)
      }
    }
    const possible = {
      reports: this.reported.length,
      rows: out.subarray(0, n),
      need: need ?? new Uint8Array(width),
      ...next,
    }
    this.possible = possible
    return possible
  }

  /** SPEC §8: whether some legal fleet holds every reported ship and `extra` (a new report). */
  private somePossibleFleet(extra: Reported): boolean {
    const need = this.needs(extra)
    if (need === undefined) return false
    // Among the fleets that hold the ships reported so far; the first that holds `extra` too decides.
    for (const i of this.possibleFleets().rows) if (this.holds(i, need)) return true
    return false
  }

  /**
   * SPEC §8 over the possible fleets (those that hold every reported ship): computed once per
   * set of reported ships (reports only grow), not per turn, in one pass over the table.
   */
  private fleetBounds(): FleetBounds {
    if (this.bounds?.reports === this.reported.length) return this.bounds.value
    const { types } = this.fleets
    const p = this.possibleFleets()
    // A possible fleet holds every reported ship (at least as many of each type as were
    // reported), so its ships not reported destroyed are its counts less the reports, and the
    // strike tokens they give its whole fleet's less the reported ships': the bounds follow from
    // the most and fewest over the possible fleets, less the reports.
    const reported = (t: ShipType): number => (types.includes(t) ? this.reportedCount(t) : 0)
    let reportedStrikes = 0
    for (const t of types) reportedStrikes += this.reportedCount(t) * (MAX_TOKENS[this.ruleset.variant][t] ?? 0)
    const value: FleetBounds =
      p.rows.length === 0
        ? { deathStars: 0, scouts: false, strikes: 0, deathStarInEvery: true }
        : {
            deathStars: p.mostDS - reported('DS'),
            scouts: p.mostScouts - reported('HS') - reported('LS') > 0,
            strikes: p.mostStrikes - reportedStrikes,
            deathStarInEvery: p.fewestDS - reported('DS') > 0,
          }
    this.bounds = { reports: this.reported.length, value }
    return value
  }

  /** SPEC §8: whether the owner's aspects of `turn` break a public bound; checked before any answer. */
  checkAspects(turn: number, a: Aspects): Check {
    const bad = (rule: string, detail: string): ProtocolOffence =>
      this.offence(turn, 'illegal-record', STAGE.record, rule, detail)
    const bounds = this.fleetBounds()
    const repDS = this.reportedCount('DS')
    // 1. Beams: their shape, and no more than the death stars that may still fire.
    for (const [i, b] of a.beams.entries()) {
      const cells = b.map(cellIndex)
      if (this.classic) {
        if (!isRow(cells))
          return bad(
            'classic §6.1.3 SPEC §8',
            `beam ${i + 1} (${b.join(' ')}) is not the five cells of one row in ascending order`,
          )
      } else {
        const line = cells.length === 3 ? beamLine(cells[0] ?? 0, cells[2] ?? 0) : undefined
        if (line === undefined || line.cells[1] !== cells[1])
          return bad(
            '2.6.1 §8.2.1 C-04 C-15 SPEC §8',
            `beam ${i + 1} (${b.join(' ')}) is not three loosely adjacent cells in a straight line, written end, middle, end`,
          )
      }
    }
    const beamBound = bounds.deathStars - Math.max(0, this.burnouts - repDS)
    if (a.beams.length > Math.max(0, beamBound))
      return bad(
        '2.6.1 §8.2 C-15 C-21 SPEC §8',
        `${a.beams.length} beam firings; at most ${Math.max(0, beamBound)} death stars may still fire`,
      )
    // 2. Scans: exactly bounded in 2.6.1 (C-16); none in classic.
    const scanBound = this.classic ? 0 : !bounds.scouts ? 0 : turn === 1 ? 1 : Math.max(1, this.lostLastTurn)
    if (a.scans.length > scanBound)
      return bad(
        this.classic ? 'classic §4 SPEC §8' : '2.6.1 §8.3.1 C-16 SPEC §8',
        `${a.scans.length} scans; at most ${scanBound} ${this.classic ? '(classic has no scanner)' : turn === 1 ? 'in turn 1' : `after ${this.lostLastTurn} own cells lost last turn`}`,
      )
    // 3. Kamikaze launch cells: undamaged ship cells, one per ship, never a death star's or light scout's.
    const launches = new Set<number>()
    const ships = new Set<string>()
    for (const [ki, k] of a.kamikaze.entries()) {
      const c = cellIndex(k)
      if (this.empty[c] === 1) return bad('2.6.1 §4.5.2 C-14 SPEC §8', `kamikaze launch cell ${k} is known to be empty`)
      if (this.destroyed[c] === 1)
        return bad('2.6.1 §4.5.2 C-14 SPEC §8', `kamikaze launch cell ${k} is known to be destroyed`)
      const id = this.identified.get(c)
      if (id !== undefined && SHIP_TYPES[id.type].neverKamikaze)
        return bad('2.6.1 §6.8.2 C-14 SPEC §8', `kamikaze from ${k}, a light scout`)
      if (id?.type === 'DS')
        return bad(
          '2.6.1 §6.2.4 C-14 SPEC §8',
          `kamikaze from ${k}, a death star (it always has a conventional strike)`,
        )
      if (launches.has(c)) return bad('C-17 SPEC §8', `two kamikaze strikes from ${k}`)
      launches.add(c)
      // Version 4 (SPEC §7.5): the launch cell's opening proves the ship cell it costs (2.6.1 §4.5.2).
      if (this.version === 4) {
        const salt = a.kamikazeSalts?.[ki] ?? new Uint8Array()
        if (!this.commitments.opensOccupancy(this.vector, c, true, salt))
          return this.commitments.opensOccupancy(this.vector, c, false, salt)
            ? bad('2.6.1 §4.5.2 C-14 SPEC §7.5', `kamikaze launch cell ${k}: the opening shows the cell is empty`)
            : this.offence(
                turn,
                'commitment-mismatch',
                STAGE.record,
                'SPEC §4.2 §7.5',
                `kamikaze launch cell ${k}: the salt opens neither occupancy value`,
              )
      }
      if (id !== undefined) {
        const name = `${id.type}${id.id}`
        if (ships.has(name)) return bad('C-17 SPEC §8', `two kamikaze strikes from ${name}`)
        ships.add(name)
      }
    }
    if (a.kamikaze.length > a.strikes.length)
      return bad('C-17 SPEC §8', `${a.kamikaze.length} kamikaze launches but ${a.strikes.length} strike targets`)
    // 4. Strike tokens: at most what the ships not reported destroyed could give.
    const strikeBound = bounds.strikes
    if (a.strikes.length > strikeBound)
      return bad(
        'C-12 C-13 C-14 C-17 SPEC §8',
        `${a.strikes.length} strikes; the ships not reported destroyed give at most ${strikeBound}`,
      )
    // 5. The idle claim: only scans, and (2.6.1) no death star that still gives a strike.
    if (a.idle && (a.beams.length > 0 || a.strikes.length > 0 || a.kamikaze.length > 0))
      return bad('2.6.1 §2.3.2 C-26 SPEC §8', 'a no-actions claim with actions other than scans')
    if (a.idle && !this.classic && bounds.deathStarInEvery)
      return bad(
        '2.6.1 §2.3.2 §6.2.4 C-26 SPEC §8',
        'a no-actions claim while a death star not reported destroyed still gives a strike',
      )
    return undefined
  }

  /**
   * The occupancy openings `checkResults` makes if every answer holds, hashed ahead four at a time
   * (`SideCommitments.prepareOccupancy`): answers to beams, their explosions (version 4), strikes
   * and scans. A cache only: the checks below still open each cell in order, and one that was not
   * hashed ahead (a cell name that does not read, say) is hashed when it is opened.
   */
  private prepareOpenings(r: Results, incoming: Aspects): void {
    const openings: { cell: number; occupied: boolean; salt: Uint8Array }[] = []
    const cell = (name: CellName | undefined): number | undefined =>
      name === undefined ? undefined : knownCellIndex(name)
    const strike = (target: CellName | undefined, a: StrikeAnswer | undefined): void => {
      const c = cell(target)
      if (a === undefined || c === undefined) return
      openings.push({ cell: c, occupied: a.result !== 'miss', salt: a.salt })
      if (this.version !== 4) return
      for (let i = 1; i < a.explosions.length; i++) {
        const x = cell(a.explosions[i])
        const salt = a.explosionSalts?.[i - 1]
        if (x !== undefined && salt !== undefined) openings.push({ cell: x, occupied: true, salt })
      }
    }
    for (let b = 0; b < incoming.beams.length; b++) {
      const targets = incoming.beams[b] ?? []
      for (let i = 0; i < targets.length; i++) strike(targets[i], r.beams[b]?.[i])
    }
    for (let i = 0; i < incoming.strikes.length; i++) strike(incoming.strikes[i], r.strikes[i])
    for (let i = 0; i < incoming.scans.length; i++) {
      const c = cell(incoming.scans[i])
      const a = r.scans[i]
      if (a !== undefined && c !== undefined) openings.push({ cell: c, occupied: a.result !== 'empty', salt: a.salt })
    }
    this.commitments.prepareOccupancy(openings)
  }

  /** Opens an occupancy answer: the implied value must open; the other value opening means the answer lied. */
  private openOccupancy(turn: number, cell: number, occupied: boolean, salt: Uint8Array, what: string): Check {
    if (this.commitments.opensOccupancy(this.vector, cell, occupied, salt)) return undefined
    if (this.commitments.opensOccupancy(this.vector, cell, !occupied, salt)) {
      return this.offence(
        turn,
        'false-visible-result',
        STAGE.results,
        occupied ? '2.6.1 §5.2.2 C-20' : '2.6.1 §5.2.3 C-20',
        `${what} on ${formatCell(cell)}: the opening shows the cell ${occupied ? 'is empty' : 'holds a ship'}`,
      )
    }
    return this.offence(
      turn,
      'commitment-mismatch',
      STAGE.results,
      'SPEC §4.2 §12.4',
      `${what} on ${formatCell(cell)}: the salt opens neither occupancy value`,
    )
  }

  /**
   * SPEC §12.4.3: the owner's answers to the other side's `incoming` aspects of `turn`, and its
   * destruction reports; then what they show is learnt. `ownAspects` are the owner's own aspects
   * this turn (its kamikaze launch cells are destroyed by its own hand, C-18).
   */
  checkResults(turn: number, r: Results, ownAspects: Aspects, incoming: Aspects): Check {
    const shape = (detail: string): ProtocolOffence =>
      this.offence(turn, 'protocol-violation', STAGE.results, 'SPEC §7.6', detail)
    if (
      r.beams.length !== incoming.beams.length ||
      r.beams.some((b, i) => b.length !== (incoming.beams[i]?.length ?? -1))
    )
      return shape('beam answers do not match the beam strikes shown, firing by firing')
    if (r.strikes.length !== incoming.strikes.length)
      return shape(`${r.strikes.length} strike answers for ${incoming.strikes.length} strikes`)
    if (r.scans.length !== incoming.scans.length)
      return shape(`${r.scans.length} scan answers for ${incoming.scans.length} scans`)
    this.prepareOpenings(r, incoming)
    // The cells destroyed before this turn's answers, in a scratch of the view's own (read by the
    // checks below only, never kept).
    const before = this.before
    before.set(this.destroyed)
    const live = this.destroyed
    if (!this.classic) for (const k of ownAspects.kamikaze) live[cellIndex(k)] = 1
    // C-19: 2.6.1 judges against the live state; classic against the state at the start of the turn.
    const judge = this.classic ? before : live
    const strikeOne = (target: CellName, a: StrikeAnswer, what: string): Check => {
      const cell = cellIndex(target)
      const bad = this.openOccupancy(turn, cell, a.result !== 'miss', a.salt, what)
      if (bad !== undefined) return bad
      if (a.result !== 'miss') {
        const expected = judge[cell] === 1 ? 'duplicate-hit' : 'hit'
        if (a.result !== expected)
          return this.offence(
            turn,
            'false-visible-result',
            STAGE.results,
            '2.6.1 §5.2.3 §5.2.4 C-20',
            `${what} on ${target}: answered ${a.result}, but the cell was ${judge[cell] === 1 ? 'already' : 'not yet'} destroyed`,
          )
      }
      if (a.explosions.length > 0) {
        const neighbours = FACE_NEIGHBOURS[cell] ?? []
        const rest = a.explosions.slice(1).map(cellIndex)
        const ordered = rest.every(
          (c, i) => neighbours.includes(c) && (i === 0 || c > (rest[i - 1] ?? -1)) && judge[c] === 0,
        )
        if (a.result !== 'hit' || a.explosions[0] !== target || !ordered) {
          return this.offence(
            turn,
            'false-visible-result',
            STAGE.results,
            '2.6.1 §8.1.4 C-20',
            `${what} on ${target}: explosions must start at the target, then undamaged face neighbours in ascending order, and only on a hit`,
          )
        }
        // Version 4 (SPEC §7.6): each explosion cell after the target opens as a ship cell.
        if (this.version === 4)
          for (const [i, c] of rest.entries()) {
            const opened = this.openOccupancy(
              turn,
              c,
              true,
              a.explosionSalts?.[i] ?? new Uint8Array(),
              `${what} explosion`,
            )
            if (opened !== undefined) return opened
          }
      }
      if (a.result === 'miss') this.empty[cell] = 1
      if (a.result === 'hit') live[cell] = 1
      for (const x of a.explosions) live[cellIndex(x)] = 1
      return undefined
    }
    for (let b = 0; b < incoming.beams.length; b++) {
      const targets = incoming.beams[b] ?? []
      for (let i = 0; i < targets.length; i++) {
        const answer = r.beams[b]?.[i]
        const bad =
          answer === undefined ? shape('a beam answer is missing') : strikeOne(targets[i] ?? '', answer, 'beam strike')
        if (bad !== undefined) return bad
      }
    }
    for (let i = 0; i < incoming.strikes.length; i++) {
      const answer = r.strikes[i]
      const bad =
        answer === undefined
          ? shape('a strike answer is missing')
          : strikeOne(incoming.strikes[i] ?? '', answer, 'strike')
      if (bad !== undefined) return bad
    }
    for (let i = 0; i < incoming.scans.length; i++) {
      const target = incoming.scans[i] ?? ''
      const a: ScanAnswer | undefined = r.scans[i]
      if (a === undefined) return shape('a scan answer is missing')
      const cell = cellIndex(target)
      const bad = this.openOccupancy(turn, cell, a.result !== 'empty', a.salt, 'scan')
      if (bad !== undefined) return bad
      if (a.result === 'empty') this.empty[cell] = 1
      else {
        const expected = judge[cell] === 1 ? 'ship-destroyed' : 'ship'
        if (a.result !== expected)
          return this.offence(
            turn,
            'false-visible-result',
            STAGE.results,
            '2.6.1 §8.3.4.1 C-22',
            `scan on ${target}: answered ${a.result}, but the cell was ${judge[cell] === 1 ? 'already' : 'not yet'} destroyed`,
          )
      }
    }
    if (this.classic) for (const k of ownAspects.kamikaze) live[cellIndex(k)] = 1
    const reports = this.checkReports(turn, before, r)
    if (reports !== undefined) return reports
    let lost = 0
    for (let c = 0; c < CELL_COUNT; c++) if (live[c] === 1 && before[c] === 0) lost++
    this.lostLastTurn = lost
    return undefined
  }

  private checkReports(turn: number, before: Uint8Array, r: Results): Check {
    const bad = (rule: string, detail: string): ProtocolOffence =>
      this.offence(turn, 'false-destruction-report', STAGE.results, rule, detail)
    if (this.classic) {
      if (r.destroyed.length > 0)
        return this.offence(
          turn,
          'protocol-violation',
          STAGE.results,
          'SPEC §7.6',
          'classic games have no destruction reports',
        )
      return undefined
    }
    // The detail openings below if every report holds, hashed ahead (a cache, as `prepareOpenings`).
    const openings: { cell: number; type: number; id: number; salt: Uint8Array }[] = []
    for (const d of r.destroyed)
      for (const c of d.cells) {
        const cell = knownCellIndex(c.cell)
        if (cell !== undefined) openings.push({ cell, type: SHIP_CODES[d.type], id: d.id, salt: c.salt })
      }
    this.commitments.prepareDetail(openings)
    for (const d of r.destroyed) {
      const name = `${d.type}${d.id}`
      const cells = d.cells.map((c) => cellIndex(c.cell))
      if (!VARIANT_SHIP_TYPES[this.ruleset.variant].includes(d.type))
        return bad('2.6.1 §6 C-23', `${d.type} is not a ship of this variant`)
      if (this.reported.some((x) => x.type === d.type && x.id === d.id))
        return bad('2.6.1 §2.2.4 C-23', `${name} was already reported destroyed`)
      if (!this.somePossibleFleet(d))
        return bad('2.6.1 §3.6 C-05 C-23 SPEC §8', `no legal fleet holds ${name} besides the ships already reported`)
      for (const c of d.cells) {
        if (!this.commitments.opensDetail(this.vector, cellIndex(c.cell), SHIP_CODES[d.type], d.id, c.salt))
          return bad('2.6.1 §2.2.4 C-23', `report of ${name}: the detail opening of ${c.cell} does not show ${name}`)
      }
      const standing = cells.filter((c) => this.destroyed[c] !== 1)
      if (standing.length > 0)
        return bad(
          '2.6.1 §2.2.4 C-23',
          `report of ${name}: ${standing.map(formatCell).join(' ')} not destroyed by any answer or kamikaze launch`,
        )
      if (cells.every((c) => before[c] === 1))
        return bad('2.6.1 §2.2.4 C-23', `report of ${name}: no cell of it was destroyed this turn (a late report)`)
      const shapeBad = shapeProblem(d.type, cells, this.ruleset)
      if (shapeBad !== undefined)
        return bad(
          `2.6.1 §3.5 ${shapeBad.rule} C-23`,
          `report of ${name} does not list the whole ship: ${shapeBad.message}`,
        )
      this.reported.push({ type: d.type, id: d.id })
      for (const c of cells) this.identified.set(c, { type: d.type, id: d.id })
    }
    // SPEC §8: every legal fleet has the same measure, so the fleet is gone exactly when the reports reach it.
    const total = this.fleets.measure
    const gone = fleetMeasure(countsOf(this.reported), this.ruleset.variant) === total
    if (r.fleetDestroyed !== gone)
      return bad(
        '2.6.1 §2.3.1 C-25 SPEC §8',
        r.fleetDestroyed
          ? 'claimed the whole fleet destroyed, but the reports do not cover a whole fleet'
          : 'the reports cover the whole fleet, but the fleet was not claimed destroyed',
      )
    return undefined
  }

  /** SPEC §12.4.4: the owner's flashcube data for the other side's reports of `turn` (C-24). */
  checkFlashcube(turn: number, f: Flashcube, otherReports: readonly Destruction[]): Check {
    if (
      f.reports.length !== otherReports.length ||
      f.reports.some(
        (entries, i) =>
          entries.length !== (otherReports[i]?.cells.length ?? -1) ||
          entries.some((x, j) => x.cell !== otherReports[i]?.cells[j]?.cell),
      )
    ) {
      return this.offence(
        turn,
        'protocol-violation',
        STAGE.flashcube,
        'SPEC §7.7',
        'flashcube data must answer every destruction report, cell by cell in the same order',
      )
    }
    const openings: { cell: number; type: number; id: number; salt: Uint8Array }[] = []
    for (const entries of f.reports)
      for (const x of entries) {
        const cell = knownCellIndex(x.cell)
        if (cell !== undefined)
          openings.push(
            x.kind === 'empty'
              ? { cell, type: 0, id: 0, salt: x.salt }
              : { cell, type: SHIP_CODES[x.type], id: x.id, salt: x.salt },
          )
      }
    this.commitments.prepareDetail(openings)
    for (const entries of f.reports) {
      for (const x of entries) {
        const cell = cellIndex(x.cell)
        const [type, id, name] =
          x.kind === 'empty' ? [0, 0, 'an empty cell'] : [SHIP_CODES[x.type], x.id, `${x.type}${x.id}`]
        if (!this.commitments.opensDetail(this.vector, cell, type, id, x.salt))
          return this.offence(
            turn,
            'false-flashcube-data',
            STAGE.flashcube,
            '2.6.1 §7.2 C-24',
            `flashcube data for ${x.cell}: the detail opening does not show ${name}`,
          )
        const destroyed = this.destroyed[cell] === 1
        if ((x.kind === 'ship' && x.destroyed !== destroyed) || (x.kind === 'empty' && destroyed)) {
          return this.offence(
            turn,
            'false-flashcube-data',
            STAGE.flashcube,
            '2.6.1 §7.2.2 C-24',
            `flashcube data for ${x.cell}: the cell is ${destroyed ? '' : 'not '}destroyed by the owner's own answers`,
          )
        }
        if (x.kind === 'empty') this.empty[cell] = 1
        else this.identified.set(cell, { type: x.type, id: x.id })
      }
    }
    return undefined
  }

  /** C-21: the other side's answers to the owner's beams of a turn; a firing whose two ends were hits burns out. */
  noteBeamAnswers(answers: readonly (readonly StrikeAnswer[])[]): void {
    if (this.classic) return
    for (const b of answers) if (b[0]?.result === 'hit' && b[b.length - 1]?.result === 'hit') this.burnouts++
  }
}

/** Each legal fleet's strike tokens with every ship alive (`MAX_TOKENS`), by table: made once per table, as the table is. */
const STRIKE_TOKENS = new WeakMap<FleetTable, Int32Array>()

function strikeTokens(table: FleetTable, variant: '2.6.1' | 'classic'): Int32Array {
  const known = STRIKE_TOKENS.get(table)
  if (known !== undefined) return known
  const width = table.types.length
  const tokens = table.types.map((t) => MAX_TOKENS[variant][t] ?? 0)
  const out = new Int32Array(table.rows)
  for (let i = 0; i < table.rows; i++) {
    let n = 0
    for (let j = 0; j < width; j++) n += (table.counts[i * width + j] ?? 0) * (tokens[j] ?? 0)
    out[i] = n
  }
  STRIKE_TOKENS.set(table, out)
  return out
}

function countsOf(list: readonly Reported[]): FleetCounts {
  const out: Partial<Record<ShipType, number>> = {}
  for (const r of list) out[r.type] = (out[r.type] ?? 0) + 1
  return out
}

/** Classic §6.1.3: the five cells of one axis-parallel row, in ascending index order. */
function isRow(cells: readonly number[]): boolean {
  if (cells.length !== 5) return false
  const co = cells.map(coordOf)
  for (let axis = 0; axis < 3; axis++) {
    const others = [0, 1, 2].filter((a) => a !== axis)
    if (co.every((c, i) => c[axis] === i && others.every((o) => c[o] === co[0]?.[o]))) return true
  }
  return false
}
