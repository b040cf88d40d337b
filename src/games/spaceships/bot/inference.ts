/**
 * Inference over the opponent's whole fleet: how likely each cell is to hold an undamaged ship
 * cell, given everything known (`Evidence`): over placements of the whole fleet at once, ships
 * never overlapping (§3.4), every known ship cell covered by some ship, no ship on a known empty
 * cell, ships reported destroyed exactly where reported (C-23), every other ship still holding an
 * undamaged cell (2.6.1), cells whose type was named held by a ship of that type (C-23, C-24),
 * each missile explosion inside one missile-carrying ship (C-20), and the fleet one of the legal
 * fleets (§3.7, C-10) that contains every ship reported.
 *
 * Every consistent setup counts equally, except that a fleet's prior does not depend on how many
 * placements its ships have: a type's placements each weigh 1 / (its number of placements), so
 * (say) the light-scout and heavy-scout fleets start equally likely, as a player choosing its
 * fleet first would make them.
 *
 * Exact when the consistent setups can be enumerated within `exactNodes` search nodes; otherwise
 * Markov chain Monte Carlo over consistent setups: Gibbs steps that move one ship (and may change
 * it to another type when the fleet stays legal: FS for PC, LS for HS), and Metropolis-Hastings
 * steps that move two or three ships at once, so that which ships explain the known ship cells
 * can change (with moves of two alone the chain stays away from some consistent setups: its
 * marginals stayed up to 0.8 away from exact enumeration even over 40 chains of 300 sweeps).
 * Marginals are Rao-Blackwellised: each Gibbs step adds the whole conditional distribution of
 * the moved ship, not just the placement drawn, so few sweeps give smooth estimates.
 *
 * All randomness comes from the injected source and all work is counted in nodes and sweeps, so
 * a seed gives the same belief on any machine at any load.
 */
import type { Evidence } from '../knowledge/evidence.js'
import { CELL_COUNT, type Cell, FACE_NEIGHBOURS } from '../rules/coords.js'
import { type FleetCounts, formatCounts, legalFleets } from '../rules/fleet.js'
import type { RandomSource } from '../rules/rng.js'
import type { Ruleset } from '../rules/ruleset.js'
import { ALL_SHIP_TYPES, SHIP_TYPES, type ShipType, placements } from '../rules/ships.js'

/** 125 cells as four 32-bit words. */
const WORDS = 4

export interface InferenceWork {
  /** Search nodes allowed for exact enumeration before sampling instead. */
  readonly exactNodes: number
  /** Independent chains, each started from its own random consistent setup. */
  readonly chains: number
  /** Sweeps per chain before its estimates count. */
  readonly burnIn: number
  /** Sweeps per chain that count. */
  readonly sweeps: number
  /** Search nodes allowed to find each chain's starting setup. */
  readonly startNodes: number
}

/**
 * A move's work: exact up to 60,000 nodes, else five chains of eight sweeps burnt in and six
 * counted: for the same sweeps, fewer and longer chains come closer to exact marginals, the
 * chains' random starts being far from typical setups.
 */
export const DEFAULT_WORK: InferenceWork = { exactNodes: 60_000, chains: 5, burnIn: 8, sweeps: 6, startNodes: 4_000 }

export interface Belief {
  /** Per cell: the probability that it holds an undamaged opponent ship cell. */
  readonly live: Float64Array
  /** Per ship type: per cell, the probability that it holds an undamaged cell of that type. */
  readonly liveByType: ReadonlyMap<ShipType, Float64Array>
  /** Expected undamaged opponent ship cells: its score if the game ended now (C-27). */
  readonly remaining: number
  /** How the belief was reached; `none` when no consistent setup was found (a lying opponent). */
  readonly method: 'exact' | 'sampled' | 'none'
}

/** Every placement of a type as cell masks and cell lists, built once per type and shape options. */
interface Table {
  readonly type: ShipType
  readonly size: number
  readonly count: number
  readonly masks: Uint32Array
  /** Per placement: the cells sharing a face with it, outside it. */
  readonly near: Uint32Array
  readonly cells: Uint8Array
  /** Prior weight of each placement (see the module comment). */
  readonly weight: number
}

const tableCache = new Map<string, Table>()

function tableOf(type: ShipType, ruleset: Ruleset): Table {
  const key = `${type}/${ruleset.variant}/${ruleset.strictPatrolCruiser ? 's' : 'l'}`
  const cached = tableCache.get(key)
  if (cached !== undefined) return cached
  const list = placements(type, ruleset)
  const size = SHIP_TYPES[type].size
  const masks = new Uint32Array(list.length * WORDS)
  const near = new Uint32Array(list.length * WORDS)
  const cells = new Uint8Array(list.length * size)
  const set = (m: Uint32Array, i: number, c: Cell): void => {
    m[i * WORDS + (c >>> 5)] = (m[i * WORDS + (c >>> 5)] ?? 0) | (1 << (c & 31))
  }
  list.forEach((p, i) => {
    p.forEach((c, j) => {
      set(masks, i, c)
      cells[i * size + j] = c
    })
    for (const c of p) for (const d of FACE_NEIGHBOURS[c] ?? []) if (!p.includes(d)) set(near, i, d)
  })
  const table = { type, size, count: list.length, masks, near, cells, weight: 1 / list.length }
  tableCache.set(key, table)
  return table
}

function maskOf(flags: Uint8Array): Uint32Array {
  const m = new Uint32Array(WORDS)
  for (let c = 0; c < CELL_COUNT; c++) if (flags[c] === 1) m[c >>> 5] = (m[c >>> 5] ?? 0) | (1 << (c & 31))
  return m
}

/** Placement i of a table meets mask m. */
function meets(t: Table, i: number, m: Uint32Array): boolean {
  const o = i * WORDS
  return (
    ((t.masks[o] ?? 0) & (m[0] ?? 0)) !== 0 ||
    ((t.masks[o + 1] ?? 0) & (m[1] ?? 0)) !== 0 ||
    ((t.masks[o + 2] ?? 0) & (m[2] ?? 0)) !== 0 ||
    ((t.masks[o + 3] ?? 0) & (m[3] ?? 0)) !== 0
  )
}

/** Placement i of a table holds every cell of mask m. */
function holds(t: Table, i: number, m: Uint32Array): boolean {
  const o = i * WORDS
  return (
    ((m[0] ?? 0) & ~(t.masks[o] ?? 0)) === 0 &&
    ((m[1] ?? 0) & ~(t.masks[o + 1] ?? 0)) === 0 &&
    ((m[2] ?? 0) & ~(t.masks[o + 2] ?? 0)) === 0 &&
    ((m[3] ?? 0) & ~(t.masks[o + 3] ?? 0)) === 0
  )
}

/** Every cell of placement i of a table is in mask m. */
function within(t: Table, i: number, m: Uint32Array): boolean {
  const o = i * WORDS
  return (
    ((t.masks[o] ?? 0) & ~(m[0] ?? 0)) === 0 &&
    ((t.masks[o + 1] ?? 0) & ~(m[1] ?? 0)) === 0 &&
    ((t.masks[o + 2] ?? 0) & ~(m[2] ?? 0)) === 0 &&
    ((t.masks[o + 3] ?? 0) & ~(m[3] ?? 0)) === 0
  )
}

function popcount(x: number): number {
  let v = x - ((x >>> 1) & 0x55555555)
  v = (v & 0x33333333) + ((v >>> 2) & 0x33333333)
  return Math.imul((v + (v >>> 4)) & 0x0f0f0f0f, 0x01010101) >>> 24
}

/** Cells of mask m that share a face with placement i (outside it). */
function touching(t: Table, i: number, m: Uint32Array): number {
  const o = i * WORDS
  return (
    popcount((t.near[o] ?? 0) & (m[0] ?? 0)) +
    popcount((t.near[o + 1] ?? 0) & (m[1] ?? 0)) +
    popcount((t.near[o + 2] ?? 0) & (m[2] ?? 0)) +
    popcount((t.near[o + 3] ?? 0) & (m[3] ?? 0))
  )
}

function toggle(occ: Uint32Array, t: Table, i: number): void {
  for (let w = 0; w < WORDS; w++) occ[w] = (occ[w] ?? 0) ^ (t.masks[i * WORDS + w] ?? 0)
}

/** The inference problem for one decision: what must be explained and what each type may do. */
interface Problem {
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

function multisetKey(types: readonly ShipType[]): string {
  const counts: Partial<Record<ShipType, number>> = {}
  for (const t of types) counts[t] = (counts[t] ?? 0) + 1
  return formatCounts(counts)
}

function problemOf(ruleset: Ruleset, ev: Evidence, contactPenalty: number): Problem {
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
function contactEnergy(t: Table, i: number, others: Uint32Array, nearCount: Uint8Array): number {
  let e = touching(t, i, others)
  for (let j = 0; j < t.size; j++) e += nearCount[t.cells[i * t.size + j] ?? 0] ?? 0
  return e
}

/** Per cell, how many of the reported ships and the placed ships not in `skip` it touches. */
function nearCounts(p: Problem, types: readonly ShipType[], place: Int32Array, skip: readonly number[]): Uint8Array {
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

function withReported(p: Problem, occ: Uint32Array): Uint32Array {
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
interface Mass {
  readonly byType: Map<ShipType, Float64Array>
  total: number
}

function massFor(mass: Mass, t: Table): Float64Array {
  let m = mass.byType.get(t.type)
  if (m === undefined) {
    m = new Float64Array(t.count)
    mass.byType.set(t.type, m)
  }
  return m
}

const emptyMass = (): Mass => ({ byType: new Map(), total: 0 })

/** A uniform float in [0, 1) from the injected source. */
function uniform(rng: RandomSource): number {
  return rng.nextU32() / 0x100000000
}

// ---------------------------------------------------------------------------------------------
// Exact enumeration

/**
 * Every consistent setup of every consistent fleet, each weighted by its prior; returns false when
 * the node budget runs out first. Branches first on which ship covers the lowest uncovered known
 * ship cell, then places the ships left, so that each labelled setup is met exactly once.
 */
function enumerate(p: Problem, budget: number, mass: Mass): boolean {
  let nodes = 0
  for (const fleet of p.fleets) {
    const n = fleet.length
    const tables = fleet.map((t) => p.tables.get(t) as Table)
    const place = new Int32Array(n).fill(-1)
    const occ = new Uint32Array(WORDS)
    const found: { place: Int32Array; weight: number }[] = []
    const leaf = (): void => {
      let w = 1
      for (const t of tables) w *= t.weight
      if (p.contactPenalty > 0) {
        const all = withReported(p, occ)
        let e = 0
        tables.forEach((t, s) => {
          const i = place[s] ?? 0
          toggle(all, t, i)
          e += touching(t, i, all)
          toggle(all, t, i)
          for (let j = 0; j < t.size; j++) e += p.reportedNear[t.cells[i * t.size + j] ?? 0] ?? 0
        })
        w *= p.contactWeight[e] ?? 0
      }
      found.push({ place: place.slice(), weight: w })
    }
    const uncovered = (): number => {
      for (let w = 0; w < WORDS; w++) {
        const bits = (p.need[w] ?? 0) & ~(occ[w] ?? 0)
        if (bits !== 0) return w * 32 + (31 - Math.clz32(bits & -bits))
      }
      return -1
    }
    const rec = (): boolean => {
      if (++nodes > budget) return false
      const u = uncovered()
      if (u >= 0) {
        for (let s = 0; s < n; s++) {
          if (place[s] !== -1) continue
          const t = tables[s] as Table
          for (const i of p.allowed.get(t.type) ?? []) {
            if (!hasBitAt(t, i, u) || meets(t, i, occ)) continue
            place[s] = i
            toggle(occ, t, i)
            const ok = rec()
            toggle(occ, t, i)
            place[s] = -1
            if (!ok) return false
          }
        }
        return true
      }
      const s = place.indexOf(-1)
      if (s < 0) {
        leaf()
        return true
      }
      const t = tables[s] as Table
      for (const i of p.allowed.get(t.type) ?? []) {
        if (meets(t, i, occ)) continue
        place[s] = i
        toggle(occ, t, i)
        const ok = rec()
        toggle(occ, t, i)
        place[s] = -1
        if (!ok) return false
      }
      return true
    }
    if (!rec()) return false
    for (const f of found) {
      mass.total += f.weight
      f.place.forEach((i, s) => {
        const t = tables[s] as Table
        const m = massFor(mass, t)
        m[i] = (m[i] ?? 0) + f.weight
      })
    }
  }
  return true
}

function hasBitAt(t: Table, i: number, c: Cell): boolean {
  return ((t.masks[i * WORDS + (c >>> 5)] ?? 0) & (1 << (c & 31))) !== 0
}

// ---------------------------------------------------------------------------------------------
// Sampling

/** One chain's setup: a type and a placement per unreported ship, and their union. */
interface State {
  readonly types: ShipType[]
  readonly place: Int32Array
  readonly occ: Uint32Array
}

/**
 * A random consistent setup of the fleet by randomised backtracking (covering the known ship
 * cells first), or undefined when none is found within the node budget.
 */
function start(p: Problem, fleet: readonly ShipType[], rng: RandomSource, budget: number): State | undefined {
  const n = fleet.length
  const types = [...fleet]
  const tables = types.map((t) => p.tables.get(t) as Table)
  const place = new Int32Array(n).fill(-1)
  const occ = new Uint32Array(WORDS)
  let nodes = 0
  let left = fleet.reduce((k, t) => k + SHIP_TYPES[t].size, 0)
  const uncoveredCount = (): number => {
    let k = 0
    for (let w = 0; w < WORDS; w++) {
      let bits = (p.need[w] ?? 0) & ~(occ[w] ?? 0)
      while (bits !== 0) {
        bits &= bits - 1
        k++
      }
    }
    return k
  }
  const candidates = (): { s: number; i: number }[] => {
    const out: { s: number; i: number }[] = []
    let u = -1
    for (let w = 0; w < WORDS && u < 0; w++) {
      const bits = (p.need[w] ?? 0) & ~(occ[w] ?? 0)
      if (bits !== 0) u = w * 32 + (31 - Math.clz32(bits & -bits))
    }
    const next = place.indexOf(-1)
    for (let s = 0; s < n; s++) {
      if (place[s] !== -1 || (u < 0 && s !== next)) continue
      const t = tables[s] as Table
      for (const i of p.allowed.get(t.type) ?? [])
        if ((u < 0 || hasBitAt(t, i, u)) && !meets(t, i, occ)) out.push({ s, i })
    }
    return out
  }
  const rec = (): boolean => {
    if (++nodes > budget) return false
    if (place.indexOf(-1) < 0) return uncoveredCount() === 0
    if (uncoveredCount() > left) return false
    const cands = candidates()
    // Try candidates in random order, drawing lazily: most nodes succeed at the first try.
    for (let k = cands.length; k > 0; k--) {
      const j = Math.floor(uniform(rng) * k)
      const c = cands[j] as { s: number; i: number }
      cands[j] = cands[k - 1] as { s: number; i: number }
      const t = tables[c.s] as Table
      place[c.s] = c.i
      toggle(occ, t, c.i)
      left -= t.size
      if (rec()) return true
      left += t.size
      toggle(occ, t, c.i)
      place[c.s] = -1
      if (nodes > budget) return false
    }
    return false
  }
  return rec() ? { types, place, occ } : undefined
}

/** Scratch space for candidate lists, sized for the largest table. */
interface Scratch {
  type: Uint8Array
  index: Int32Array
  weight: Float64Array
}

function scratchOf(size: number): Scratch {
  return { type: new Uint8Array(size), index: new Int32Array(size), weight: new Float64Array(size) }
}

const TYPE_INDEX = new Map(ALL_SHIP_TYPES.map((t, i) => [t, i]))

/** Types ship s may change to with the fleet still consistent (its own type first). */
function alternatives(p: Problem, types: readonly ShipType[], s: number): ShipType[] {
  const own = types[s] as ShipType
  const out = [own]
  for (const t of p.tables.keys()) {
    if (t === own) continue
    const changed = [...types]
    changed[s] = t
    if (p.fleetKeys.has(multisetKey(changed))) out.push(t)
  }
  return out
}

/**
 * Gibbs step for ship s: its exact conditional distribution over placements (and allowed types)
 * given the other ships; adds that distribution to `mass` and moves the ship to a draw from it.
 */
function gibbs(
  p: Problem,
  st: State,
  s: number,
  alts: readonly ShipType[],
  rng: RandomSource,
  scratch: Scratch,
  mass: Mass,
): void {
  const own = p.tables.get(st.types[s] as ShipType) as Table
  const cur = st.place[s] ?? 0
  toggle(st.occ, own, cur)
  const must = new Uint32Array(WORDS)
  for (let w = 0; w < WORDS; w++) must[w] = (p.need[w] ?? 0) & ~(st.occ[w] ?? 0)
  const contacts = p.contactPenalty > 0
  const others = withReported(p, st.occ)
  const nc = contacts ? nearCounts(p, st.types, st.place, [s]) : p.reportedNear
  let k = 0
  let total = 0
  for (const type of alts) {
    const t = p.tables.get(type) as Table
    for (const i of p.allowed.get(type) ?? []) {
      if (meets(t, i, st.occ) || !holds(t, i, must)) continue
      const w = contacts ? t.weight * (p.contactWeight[contactEnergy(t, i, others, nc)] ?? 0) : t.weight
      scratch.type[k] = TYPE_INDEX.get(type) ?? 0
      scratch.index[k] = i
      scratch.weight[k] = w
      total += w
      k++
    }
  }
  if (total === 0) {
    // Every candidate weighs nothing in floating point: keep the ship where it is.
    toggle(st.occ, own, cur)
    return
  }
  // The current placement is always a candidate, so k >= 1 and total > 0.
  let r = uniform(rng) * total
  let chosen = k - 1
  for (let j = 0; j < k; j++) {
    const t = p.tables.get(ALL_SHIP_TYPES[scratch.type[j] ?? 0] as ShipType) as Table
    const m = massFor(mass, t)
    const i = scratch.index[j] ?? 0
    const w = scratch.weight[j] ?? 0
    m[i] = (m[i] ?? 0) + w / total
    if (r >= 0) {
      r -= w
      if (r < 0) chosen = j
    }
  }
  const type = ALL_SHIP_TYPES[scratch.type[chosen] ?? 0] as ShipType
  const t = p.tables.get(type) as Table
  st.types[s] = type
  st.place[s] = scratch.index[chosen] ?? 0
  toggle(st.occ, t, st.place[s] ?? 0)
}

/**
 * Metropolis-Hastings step moving a block of two or three ships together, so that which ship
 * explains a known ship cell can change (single moves cannot: a known cell left uncovered by one
 * ship must be covered by another in the same move), and the first may change type as in `gibbs`
 * (a fleet choice can be tied to where several ships are). With the other ships fixed, the known
 * ship cells they leave uncovered are the block's to cover. A type for the first ship is drawn
 * among its alternatives; then each ship but the last in turn: half the time a cell u still to
 * cover is drawn and the ship placed uniformly among its places clear of the others that cover
 * u, otherwise uniformly among all its clear places; the last ship uniformly among its clear
 * places that cover what is left. The move is accepted with the ratio of target times reverse
 * proposal over target times forward proposal (`walk` computes both), which is detailed balance
 * for the prior over consistent setups, so that prior stays stationary: the type draw is
 * symmetric (the first ship's alternatives are the types that complete the other ships' types to
 * a consistent fleet, the same set before and after), a proposal that fails is a rejection, and
 * the move is skipped only on a condition that the move itself cannot change (the other ships
 * explain every known ship cell, and the type drawn is the one it has).
 */
function blockMove(p: Problem, st: State, block: readonly number[], rng: RandomSource, scratch: Scratch): void {
  const k = block.length
  const first = block[0] ?? 0
  const alts = alternatives(p, st.types, first)
  const oldT = block.map((s) => p.tables.get(st.types[s] as ShipType) as Table)
  const newT = [...oldT]
  newT[0] = p.tables.get(alts[Math.floor(uniform(rng) * alts.length)] ?? (oldT[0] as Table).type) as Table
  const oldX = block.map((s) => st.place[s] ?? 0)
  block.forEach((_, j) => {
    toggle(st.occ, oldT[j] as Table, oldX[j] ?? 0)
  })
  const rest = st.occ.slice()
  const must = new Uint32Array(WORDS)
  for (let w = 0; w < WORDS; w++) must[w] = (p.need[w] ?? 0) & ~(rest[w] ?? 0)
  if (must.every((w) => w === 0) && newT[0] === oldT[0]) {
    // The block explains no known ship cell and keeps its types: Gibbs steps move it as well.
    block.forEach((_, j) => {
      toggle(st.occ, oldT[j] as Table, oldX[j] ?? 0)
    })
    return
  }
  /**
   * The probability that the proposal yields places xs for types ts, in block order; with
   * `draw`, the places are drawn into xs first. Zero when some ship has no place.
   */
  const walk = (ts: readonly Table[], xs: number[], draw: boolean): number => {
    const occ = rest.slice()
    const left = must.slice()
    let q = 1
    for (let j = 0; j < k; j++) {
      const t = ts[j] as Table
      const last = j === k - 1
      const todo: Cell[] = []
      for (let w = 0; w < WORDS; w++)
        for (let bits = left[w] ?? 0; bits !== 0; bits &= bits - 1) todo.push(w * 32 + 31 - Math.clz32(bits & -bits))
      const cover = new Int32Array(todo.length)
      let all = 0
      for (const i of p.allowed.get(t.type) ?? []) {
        if (meets(t, i, occ) || (last && !holds(t, i, left))) continue
        scratch.index[all++] = i
        if (!last)
          todo.forEach((u, r) => {
            if (hasBitAt(t, i, u)) cover[r] = (cover[r] ?? 0) + 1
          })
      }
      if (all === 0) return 0
      if (draw) {
        const r = Math.floor(uniform(rng) * todo.length)
        const u = todo[r] ?? -1
        let x = -1
        if (!last && todo.length > 0 && (cover[r] ?? 0) > 0 && uniform(rng) < 0.5) {
          let n = Math.floor(uniform(rng) * (cover[r] ?? 0))
          for (let m = 0; m < all && x < 0; m++) {
            const i = scratch.index[m] ?? 0
            if (hasBitAt(t, i, u) && n-- === 0) x = i
          }
        } else x = scratch.index[Math.floor(uniform(rng) * all)] ?? 0
        xs[j] = x
      }
      const x = xs[j] ?? 0
      if (last || todo.length === 0) q /= all
      else {
        let viaCell = 0
        todo.forEach((u, r) => {
          const c = cover[r] ?? 0
          viaCell += c === 0 ? 1 / all : hasBitAt(t, x, u) ? 1 / c : 0
        })
        q *= (0.5 * viaCell) / todo.length + 0.5 / all
      }
      toggle(occ, t, x)
      for (let w = 0; w < WORDS; w++) left[w] = (left[w] ?? 0) & ~(t.masks[x * WORDS + w] ?? 0)
    }
    return q
  }
  const newX: number[] = new Array<number>(k).fill(0)
  const forward = walk(newT, newX, true)
  let accept = false
  if (forward > 0) {
    const reverse = walk(oldT, [...oldX], false)
    let ratio = ((newT[0].weight / (oldT[0] as Table).weight) * reverse) / forward
    if (p.contactPenalty > 0) {
      // The prior's contact terms that involve the block, before and after (see `contactEnergy`).
      const others = withReported(p, rest)
      const nc = nearCounts(p, st.types, st.place, block)
      const energy = (ts: readonly Table[], xs: readonly number[]): number => {
        let e = 0
        ts.forEach((t, j) => {
          e += contactEnergy(t, xs[j] ?? 0, others, nc)
          ts.forEach((o, m) => {
            if (m === j) return
            const mask = new Uint32Array(WORDS)
            toggle(mask, o, xs[m] ?? 0)
            e += touching(t, xs[j] ?? 0, mask)
          })
        })
        return e
      }
      ratio *= Math.exp(-p.contactPenalty * (energy(newT, newX) - energy(oldT, oldX)))
    }
    accept = uniform(rng) < ratio
  }
  const [ts, xs] = accept ? [newT, newX] : [oldT, oldX]
  block.forEach((s, j) => {
    st.types[s] = (ts[j] as Table).type
    st.place[s] = xs[j] ?? 0
    toggle(st.occ, ts[j] as Table, xs[j] ?? 0)
  })
}

function sample(p: Problem, rng: RandomSource, work: InferenceWork, mass: Mass): void {
  let largest = 1
  for (const t of p.tables.values()) largest += t.count
  const scratch = scratchOf(largest)
  for (let c = 0; c < work.chains; c++) {
    const order = [...p.fleets.keys()]
    let st: State | undefined
    for (let tries = order.length; tries > 0 && st === undefined; tries--) {
      const j = Math.floor(uniform(rng) * tries)
      const f = order[j] ?? 0
      order[j] = order[tries - 1] ?? 0
      st = start(p, p.fleets[f] ?? [], rng, work.startNodes)
    }
    if (st === undefined) continue
    const n = st.types.length
    const discard = emptyMass()
    for (let sweep = 0; sweep < work.burnIn + work.sweeps; sweep++) {
      const into = sweep < work.burnIn ? discard : mass
      // A sweep moves every ship once, each adding its conditional distribution: one setup's worth.
      into.total += 1
      for (let s = 0; s < n; s++) gibbs(p, st, s, alternatives(p, st.types, s), rng, scratch, into)
      // Blocks of two, then of three: each ship with others drawn at random.
      for (const size of [2, 3])
        if (n >= size)
          for (let s = 0; s < n; s++) {
            const block = [s]
            while (block.length < size) {
              const other = Math.floor(uniform(rng) * n)
              if (!block.includes(other)) block.push(other)
            }
            blockMove(p, st, block, rng, scratch)
          }
    }
  }
}

// ---------------------------------------------------------------------------------------------

/** The belief over the opponent's setup from the evidence, exact or sampled within `work`. */
export function inferFleet(
  ruleset: Ruleset,
  ev: Evidence,
  rng: RandomSource,
  work: InferenceWork = DEFAULT_WORK,
  contactPenalty = 0,
): Belief {
  const p = problemOf(ruleset, ev, contactPenalty)
  let mass = emptyMass()
  let method: Belief['method'] = 'exact'
  if (!enumerate(p, work.exactNodes, mass)) {
    mass = emptyMass()
    method = 'sampled'
    sample(p, rng, work, mass)
  }
  return beliefOf(p, mass, mass.total > 0 ? method : 'none')
}

function beliefOf(p: Problem, mass: Mass, method: Belief['method']): Belief {
  const live = new Float64Array(CELL_COUNT)
  const liveByType = new Map<ShipType, Float64Array>()
  const total = mass.total
  let remaining = 0
  if (total > 0)
    for (const [type, m] of mass.byType) {
      const t = p.tables.get(type) as Table
      const byCell = new Float64Array(CELL_COUNT)
      for (let i = 0; i < t.count; i++) {
        const v = m[i] ?? 0
        if (v === 0) continue
        for (let j = 0; j < t.size; j++) {
          const c = t.cells[i * t.size + j] ?? 0
          if (p.destroyed[c] === 0) byCell[c] = (byCell[c] ?? 0) + v / total
        }
      }
      for (let c = 0; c < CELL_COUNT; c++) {
        live[c] = (live[c] ?? 0) + (byCell[c] ?? 0)
        remaining += byCell[c] ?? 0
      }
      liveByType.set(type, byCell)
    }
  return { live, liveByType, remaining, method }
}
