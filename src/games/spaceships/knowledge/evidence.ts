/**
 * Everything the wire has told one player about the opponent's space, as constraints on the
 * opponent's whole setup: the input of exact or sampled inference over fleets. Pure.
 *
 * The set of the opponent's destroyed cells is known exactly: its cells are destroyed only by our
 * strikes, whose results say so (hits, C-20 explosions), and by its own kamikaze launches, whose
 * deaths it must show (§5.4, C-19). Everything else about a cell is a fact of the setup: a miss
 * or an empty scan or flashcube entry says no ship is there, any other result says one is.
 */
import { CELL_COUNT, type Cell, parseCell } from '../rules/coords.js'
import type { Variant } from '../rules/ships.js'
import type { ShipType } from '../rules/ships.js'
import type { CellName } from '../protocol/messages.js'
import type { TurnSummary } from './summary.js'

/** A ship the opponent reported destroyed (C-23): its type, identity and every cell. */
export interface ReportedShip {
  readonly type: ShipType
  readonly id: number
  readonly cells: readonly Cell[]
}

export interface Evidence {
  /** 1 where no opponent ship can be: a miss, an empty scan, an empty flashcube entry. */
  readonly empty: Uint8Array
  /** 1 where an opponent ship cell is known to be (destroyed or not). */
  readonly occupied: Uint8Array
  /** 1 where an opponent ship cell is destroyed: exactly the destroyed cells (see above). */
  readonly destroyed: Uint8Array
  /** The type of the ship holding a cell, where a destruction report or flashcube named it. */
  readonly typeAt: readonly (ShipType | undefined)[]
  /** Ships reported destroyed, in the order reported. */
  readonly reported: readonly ReportedShip[]
  /**
   * Missile explosions (§8.1.4, C-20), the target first: each group lies in one ship whose type
   * carries missiles, since only an unfired missile explodes and explosions never leave its ship.
   */
  readonly explosions: readonly (readonly Cell[])[]
  /**
   * Whether every destroyed ship is reported (2.6.1 §2.2.4, C-23): then a ship not reported still
   * holds an undamaged cell. Classic has no destruction reports, so there a ship may be wholly
   * destroyed without anyone saying so.
   */
  readonly reportsDestruction: boolean
}

export function evidenceOf(variant: Variant, history: readonly TurnSummary[]): Evidence {
  const empty = new Uint8Array(CELL_COUNT)
  const occupied = new Uint8Array(CELL_COUNT)
  const destroyed = new Uint8Array(CELL_COUNT)
  const typeAt: (ShipType | undefined)[] = new Array<ShipType | undefined>(CELL_COUNT).fill(undefined)
  const reported: ReportedShip[] = []
  const explosions: Cell[][] = []
  // Names in a TurnSummary were decoded strictly; one that is not a cell teaches nothing.
  const cells = (names: readonly CellName[]): Cell[] =>
    names.flatMap((n) => {
      const c = parseCell(n)
      return c.ok ? [c.value] : []
    })
  const ship = (cs: readonly Cell[], dead: boolean): void => {
    for (const c of cs) {
      occupied[c] = 1
      if (dead) destroyed[c] = 1
    }
  }
  for (const t of history) {
    const strike = (target: CellName, a: { result: string; explosions: readonly CellName[] } | undefined): void => {
      if (a === undefined) return
      const [c] = cells([target])
      if (c === undefined) return
      // A hit destroys the cell; a duplicate hit finds it destroyed already (§5.2.3, §5.2.4).
      if (a.result === 'miss') empty[c] = 1
      else ship([c], true)
      const group = cells(a.explosions)
      if (group.length > 0) {
        ship(group, true)
        explosions.push(group)
      }
    }
    t.myAspects.strikes.forEach((target, i) => {
      strike(target, t.theirResults.strikes[i])
    })
    t.myAspects.beams.forEach((beam, b) => {
      beam.forEach((target, i) => {
        strike(target, t.theirResults.beams[b]?.[i])
      })
    })
    t.myAspects.scans.forEach((target, i) => {
      const r = t.theirResults.scans[i]?.result
      const [c] = cells([target])
      if (c === undefined || r === undefined) return
      if (r === 'empty') empty[c] = 1
      else ship([c], r === 'ship-destroyed')
    })
    for (const d of t.theirResults.destroyed) {
      const cs = cells(d.cells.map((o) => o.cell))
      ship(cs, true)
      for (const c of cs) typeAt[c] = d.type
      reported.push({ type: d.type, id: d.id, cells: cs })
    }
    // The opponent's kamikaze launch cells die before anything resolves (C-18, C-19).
    ship(cells(t.theirAspects.kamikaze), true)
    for (const report of t.theirFlashcube.reports)
      for (const a of report) {
        const [c] = cells([a.cell])
        if (c === undefined) continue
        if (a.kind === 'empty') empty[c] = 1
        else {
          ship([c], a.destroyed)
          typeAt[c] = a.type
        }
      }
  }
  return { empty, occupied, destroyed, typeAt, reported, explosions, reportsDestruction: variant !== 'classic' }
}
