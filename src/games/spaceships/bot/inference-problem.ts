/**
 * The inference problem for one decision, built from the evidence: the placements each type may
 * take, the known ship cells the unreported ships must cover, the fleets still consistent, and the
 * contact prior; and the probability mass that exact enumeration and sampling accumulate over it.
 */
import type { Evidence } from '../knowledge/evidence.js'
import { CELL_COUNT, FACE_NEIGHBOURS } from '../rules/coords.js'
import { type FleetCounts, formatCounts, legalFleets } from '../rules/fleet.js'
import type { Ruleset } from '../rules/ruleset.js'
import { ALL_SHIP_TYPES, SHIP_TYPES, type ShipType } from '../rules/ships.js'
import { type Table, WORDS, holds, maskOf, meets, tableOf, touching, within } from './inference-masks.js'

/** The inference problem for one decision: what must be explained and what each type may do. */
export interface Problem {
  readonly tables: ReadonlyMap<ShipType, Table>
  /** Placements of each type allowed by everything but the other ships. */
  readonly allowed: ReadonlyMap<ShipType, Int32Array>
  /** Known ship cells that no reported ship explains: the unreported ships must cover them. */
  readonly need: Uint32Array
  readonly needCount: number
  /** The unreported ships of each consistent fleet. */
  readonly fleets: readonly (readonly ShipType[])[]
  /** Keys of those multisets, to know which type changes keep the fleet consistent. */
  readonly fleetKeys: ReadonlySet<string>
  readonly destroyed: Uint8Array
  /** Cells of the reported ships, and per cell how many of them it shares a face with. */
  readonly reportedOcc: Uint32Array
  readonly reportedNear: Uint8Array
  /** The prior's weight of a setup is exp(-contactPenalty x contacts) (see `contactEnergy`). */
  readonly contactPenalty: number
  /** exp(-contactPenalty x k), by k. */
  readonly contactWeight: Float64Array
}

export function multisetKey(types: readonly ShipType[]): string {
  const counts: Partial<Record<ShipType, number>> = {}
  for (const t of types) counts[t] = (counts[t] ?? 0) + 1
  return formatCounts(counts)
}

export function problemOf(ruleset: Ruleset, ev: Evidence, contactPenalty: number): Problem {
  const reportedCells = new Uint8Array(CELL_COUNT)
  const reportedCount = new Map<ShipType, number>()
  for (const r of ev.reported) {
    for (const c of r.cells) reportedCells[c] = 1
    reportedCount.set(r.type, (reportedCount.get(r.type) ?? 0) + 1)
  }
  const need = new Uint8Array(CELL_COUNT)
  for (let c = 0; c < CELL_COUNT; c++) if (ev.occupied[c] === 1 && reportedCells[c] === 0) need[c] = 1
  const namedTypes = new Set<ShipType>()
  for (let c = 0; c < CELL_COUNT; c++) {
    const t = ev.typeAt[c]
    if (t !== undefined && reportedCells[c] === 0) namedTypes.add(t)
  }
  const destroyedMask = maskOf(ev.destroyed)
  const groups = ev.explosions.map((g) =>
    maskOf(Uint8Array.from({ length: CELL_COUNT }, (_, c) => (g.includes(c) ? 1 : 0))),
  )
  const tables = new Map<ShipType, Table>()
  const allowed = new Map<ShipType, Int32Array>()
  const allowedFor = (type: ShipType): Int32Array => {
    const have = allowed.get(type)
    if (have !== undefined) return have
    const table = tableOf(type, ruleset)
    tables.set(type, table)
    const banned = new Uint8Array(CELL_COUNT)
    for (let c = 0; c < CELL_COUNT; c++) {
      const named = ev.typeAt[c]
      if (ev.empty[c] === 1 || reportedCells[c] === 1 || (named !== undefined && named !== type)) banned[c] = 1
    }
    const bannedMask = maskOf(banned)
    const missiles = SHIP_TYPES[type].missiles
    const out: number[] = []
    for (let i = 0; i < table.count; i++) {
      if (meets(table, i, bannedMask)) continue
      // 2.6.1: a wholly destroyed ship would have been reported (C-23).
      if (ev.reportsDestruction && within(table, i, destroyedMask)) continue
      // C-20: an explosion stays inside one ship, and only a missile explodes.
      if (groups.some((g) => meets(table, i, g) && (!missiles || !holds(table, i, g)))) continue
      out.push(i)
    }
    const list = Int32Array.from(out)
    allowed.set(type, list)
    return list
  }
  const needCount = need.reduce((n, v) => n + v, 0)
  const fleets: ShipType[][] = []
  for (const f of legalFleets(ruleset, 0)) {
    const free = unreportedShips(f, reportedCount)
    if (free === undefined) continue
    if ([...namedTypes].some((t) => !free.includes(t))) continue
    if (ev.explosions.length > 0 && !free.some((t) => SHIP_TYPES[t].missiles)) continue
    if (free.reduce((n, t) => n + SHIP_TYPES[t].size, 0) < needCount) continue
    if (free.some((t) => allowedFor(t).length === 0)) continue
    fleets.push(free)
  }
  const reportedNear = new Uint8Array(CELL_COUNT)
  for (const r of ev.reported) {
    const around = new Set(r.cells.flatMap((c) => FACE_NEIGHBOURS[c] ?? []).filter((c) => !r.cells.includes(c)))
    for (const c of around) reportedNear[c] = (reportedNear[c] ?? 0) + 1
  }
  const contactWeight = Float64Array.from({ length: 8 * CELL_COUNT }, (_, k) => Math.exp(-contactPenalty * k))
  return {
    tables,
    allowed,
    need: maskOf(need),
    needCount,
    fleets,
    fleetKeys: new Set(fleets.map(multisetKey)),
    destroyed: ev.destroyed,
    reportedOcc: maskOf(reportedCells),
    reportedNear,
    contactPenalty,
    contactWeight,
  }
}

/**
 * Contacts of a setup: over every ship, the cells of other ships sharing a face with it. The
 * prior weighs a setup by exp(-penalty x contacts): players tend to keep ships apart, since a
 * found ship betrays the ships touching it. These are the terms that involve placement i of
 * table t, given the other ships' cells `others` and, per cell, how many of them it touches.
 */
export function contactEnergy(t: Table, i: number, others: Uint32Array, nearCount: Uint8Array): number {
  let e = touching(t, i, others)
  for (let j = 0; j < t.size; j++) e += nearCount[t.cells[i * t.size + j] ?? 0] ?? 0
  return e
}

/** Per cell, how many of the reported ships and the placed ships not in `skip` it touches. */
export function nearCounts(
  p: Problem,
  types: readonly ShipType[],
  place: Int32Array,
  skip: readonly number[],
): Uint8Array {
  const nc = p.reportedNear.slice()
  for (let s = 0; s < types.length; s++) {
    const i = place[s] ?? -1
    if (skip.includes(s) || i < 0) continue
    const t = p.tables.get(types[s] as ShipType) as Table
    for (let w = 0; w < WORDS; w++) {
      let bits = t.near[i * WORDS + w] ?? 0
      while (bits !== 0) {
        const low = bits & -bits
        const c = w * 32 + 31 - Math.clz32(low)
        nc[c] = (nc[c] ?? 0) + 1
        bits ^= low
      }
    }
  }
  return nc
}

export function withReported(p: Problem, occ: Uint32Array): Uint32Array {
  const m = new Uint32Array(WORDS)
  for (let w = 0; w < WORDS; w++) m[w] = (occ[w] ?? 0) | (p.reportedOcc[w] ?? 0)
  return m
}

/** The fleet's ships less those reported destroyed, or undefined if the fleet lacks one of them. */
function unreportedShips(f: FleetCounts, reported: ReadonlyMap<ShipType, number>): ShipType[] | undefined {
  const out: ShipType[] = []
  for (const t of ALL_SHIP_TYPES) {
    const n = (f[t] ?? 0) - (reported.get(t) ?? 0)
    if (n < 0) return undefined
    for (let i = 0; i < n; i++) out.push(t)
  }
  return out
}

/**
 * Accumulated probability mass per placement, per type, and the mass of whole setups it came
 * from: each setup adds its weight to `total` and to the placement of each of its ships.
 */
export interface Mass {
  readonly byType: Map<ShipType, Float64Array>
  total: number
}

export function massFor(mass: Mass, t: Table): Float64Array {
  let m = mass.byType.get(t.type)
  if (m === undefined) {
    m = new Float64Array(t.count)
    mass.byType.set(t.type, m)
  }
  return m
}

export const emptyMass = (): Mass => ({ byType: new Map(), total: 0 })
