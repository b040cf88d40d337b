/**
 * The visible parts of a turn built from the rules engine's results (protocol/SPEC.md §7.5..§7.7),
 * shared by the session and by the benchmark's trusting baseline so both send exactly the same
 * content. The openings come from `salts`; the baseline passes none.
 */
import { SALT_BYTES } from '../protocol/commitments.js'
import { type Cell, formatCell } from '../rules/coords.js'
import { onlyScans } from '../rules/game.js'
import type { CheckedRecord } from '../rules/legality.js'
import { type IncomingResolution, aspectsOf, flashcubeEntry } from '../rules/resolve.js'
import type { Ruleset } from '../rules/ruleset.js'
import { type PlayerState, fleetDestroyed } from '../rules/state.js'
import {
  type Aspects,
  type Destruction,
  type Flashcube,
  type FlashcubeAnswer,
  type ProtocolVersion,
  type Results,
  SHIP_CODES,
  cellIndex,
} from '../protocol/messages.js'

/** Openings of one's own cells: occupancy (strikes, scans) and detail (reports, flashcube). */
export interface Salts {
  occupancy(cell: Cell): Uint8Array
  detail(cell: Cell): Uint8Array
}

const NO_SALT = new Uint8Array(SALT_BYTES)
export const NO_SALTS: Salts = { occupancy: () => NO_SALT, detail: () => NO_SALT }

/** The aspects of a record (SPEC §7.5); version 4 opens each kamikaze launch cell with `salts`. */
export function aspectsMessage(
  ruleset: Ruleset,
  turn: number,
  record: CheckedRecord,
  salts: Salts = NO_SALTS,
  version: ProtocolVersion = 3,
): Aspects {
  const shown = aspectsOf(record)
  const aspects: Aspects = {
    t: 'aspects',
    turn,
    idle: record.entitlements.onlyKamikazeAndScans && onlyScans(ruleset, record),
    beams: shown.beams.map((b) => b.map(formatCell)),
    strikes: shown.strikes.map(formatCell),
    scans: shown.scans.map(formatCell),
    kamikaze: shown.kamikaze.map(formatCell),
  }
  return version === 3 ? aspects : { ...aspects, kamikazeSalts: shown.kamikaze.map((c) => salts.occupancy(c)) }
}

/** Answers to the other side's aspects, in their order, and this side's destruction reports (SPEC §7.6). */
export function resultsMessage(
  turn: number,
  theirAspects: Aspects,
  half: IncomingResolution,
  salts: Salts,
  version: ProtocolVersion = 3,
): Results {
  // Version 4 (SPEC §7.6): each explosion cell after the target is opened too.
  const opened = (explosions: readonly Cell[]): { explosionSalts?: Uint8Array[] } =>
    version === 3 ? {} : { explosionSalts: explosions.slice(1).map((c) => salts.occupancy(c)) }
  const answers = half.exchanges.flatMap((e) =>
    e.kind === 'beam-strike' || e.kind === 'strike'
      ? [
          {
            e,
            a: {
              result: e.result,
              salt: salts.occupancy(e.target),
              explosions: e.explosions.map(formatCell),
              ...opened(e.explosions),
            },
          },
        ]
      : [],
  )
  const reports = half.destructions
    .map((r): Destruction => ({
      type: r.type,
      id: half.state.ships[r.ship]?.id ?? 1,
      cells: [...r.cells].sort((x, y) => x - y).map((c) => ({ cell: formatCell(c), salt: salts.detail(c) })),
    }))
    .sort((x, y) => SHIP_CODES[x.type] - SHIP_CODES[y.type] || x.id - y.id)
  return {
    t: 'results',
    turn,
    fleetDestroyed: fleetDestroyed(half.state),
    beams: theirAspects.beams.map((_, i) =>
      answers.filter((x) => x.e.kind === 'beam-strike' && x.e.beam === i).map((x) => x.a),
    ),
    strikes: answers.filter((x) => x.e.kind === 'strike').map((x) => x.a),
    scans: half.exchanges.flatMap((e) =>
      e.kind === 'scan' ? [{ result: e.result, salt: salts.occupancy(e.target) }] : [],
    ),
    destroyed: reports,
  }
}

/** Flashcube data: this side's contents at the cells of each of the other side's reports (SPEC §7.7, C-24). */
export function flashcubeMessage(
  turn: number,
  after: PlayerState,
  theirReports: readonly Destruction[],
  salts: Salts,
): Flashcube {
  return {
    t: 'flashcube',
    turn,
    reports: theirReports.map((r) =>
      r.cells.map((c): FlashcubeAnswer => {
        const cell = cellIndex(c.cell)
        const entry = flashcubeEntry(after, cell)
        const salt = salts.detail(cell)
        return entry.kind === 'empty'
          ? { cell: c.cell, kind: 'empty', salt }
          : {
              cell: c.cell,
              kind: 'ship',
              type: entry.type,
              id: after.ships[after.shipAt[cell] ?? -1]?.id ?? 1,
              destroyed: entry.destroyed,
              salt,
            }
      }),
    ),
  }
}

/** No flashcube data: the turn's summary when this side reported nothing. */
export function noFlashcube(turn: number): Flashcube {
  return { t: 'flashcube', turn, reports: [] }
}
