/**
 * Game state and what each player is entitled to at the start of a turn (2.6.1 §2.4, §4, §6, §8;
 * C-12..C-16). States are immutable values: resolution returns new ones.
 */
import {
  AXIAL_DIRECTIONS,
  CELL_COUNT,
  type Cell,
  DIRECTIONS,
  FACE_NEIGHBOURS,
  adjacent,
  directionIndexBetween,
} from './coords.js'
import type { Ruleset } from './ruleset.js'
import type { PlacedShip, Setup } from './setup.js'
import { SHIP_TYPES, formatShipName } from './ships.js'

export interface Ship extends PlacedShip {
  /** As written in records and reports: `KC`, `DS2` (C-05). */
  readonly name: string
}

export interface PlayerState {
  readonly ships: readonly Ship[]
  /** Ship index owning each cell, or -1 for empty space. */
  readonly shipAt: Int8Array
  /** 1 where a ship cell is destroyed (§3.8). */
  readonly destroyed: Uint8Array
  /** 1 where a missile has been fired (§8.1). */
  readonly fired: Uint8Array
  /** Per ship: its beam weapon has burnt out (§8.2.4, §8.4). */
  readonly burntOut: readonly boolean[]
  /** Own cells destroyed during the previous turn, any cause (C-16). */
  readonly lostLastTurn: number
}

/** Bytes of each slab `cellBytes` carves its arrays from. */
const SLAB_BYTES = 8192
let slab = new ArrayBuffer(SLAB_BYTES)
let slabUsed = 0

/**
 * A new per-cell array (CELL_COUNT bytes), a copy of `from` when given, carved from a shared slab
 * as Node's Buffer pool carves small Buffers. An array of its own would be a backing store
 * outside V8's heap (its size is above V8's 64 bytes in the heap), which costs more to make and
 * collect than what resolution does with it: 0.04 µs against 0.32 to make (Node 24), and no
 * collections the many states of a replay or a bot's search trigger. A slab lives while any of
 * its arrays does.
 */
export function cellBytes(from?: Uint8Array): Uint8Array {
  if (slabUsed + CELL_COUNT > SLAB_BYTES) {
    slab = new ArrayBuffer(SLAB_BYTES)
    slabUsed = 0
  }
  const out = new Uint8Array(slab, slabUsed, CELL_COUNT)
  // Eight-byte steps keep every array aligned.
  slabUsed += (CELL_COUNT + 7) & ~7
  if (from !== undefined) out.set(from)
  return out
}

export function initialPlayerState(setup: Setup): PlayerState {
  const shipAt = new Int8Array(CELL_COUNT).fill(-1)
  const ships: Ship[] = setup.map((s) => ({
    ...s,
    name: formatShipName(s.type, s.id, setup.filter((o) => o.type === s.type).length),
  }))
  ships.forEach((s, i) => {
    for (const c of s.cells) shipAt[c] = i
  })
  return {
    ships,
    shipAt,
    destroyed: cellBytes(),
    fired: cellBytes(),
    burntOut: ships.map(() => false),
    lostLastTurn: 0,
  }
}

export function undamagedCells(p: PlayerState, shipIndex: number): Cell[] {
  return (p.ships[shipIndex]?.cells ?? []).filter((c) => p.destroyed[c] === 0)
}

export function isShipDestroyed(p: PlayerState, shipIndex: number): boolean {
  return undamagedCells(p, shipIndex).length === 0
}

/** An unfired missile: an undamaged, unfired cell of a missile-carrying type (§8.1, C-13). */
export function isUnfiredMissile(p: PlayerState, cell: Cell): boolean {
  const s = p.shipAt[cell] ?? -1
  const ship = p.ships[s]
  return ship !== undefined && SHIP_TYPES[ship.type].missiles && p.destroyed[cell] === 0 && p.fired[cell] === 0
}

/** Remaining materiel: undamaged ship cells (§2.3.5, C-27). */
export function remainingMateriel(p: PlayerState): number {
  let n = 0
  for (let c = 0; c < CELL_COUNT; c++) if ((p.shipAt[c] ?? -1) >= 0 && p.destroyed[c] === 0) n++
  return n
}

export function fleetDestroyed(p: PlayerState): boolean {
  return p.ships.every((_, i) => isShipDestroyed(p, i))
}

/** Size of a maximum matching in the face-adjacency graph of a few cells (C-12, §4.4.1). */
export function maximumMatching(cells: readonly Cell[]): number {
  const n = cells.length
  // A ship's cells: the search below runs on bit sets of them, without allocating (the replay
  // asks for every ship's entitlements each turn). More than 30 cells (no ship has) take the lists.
  if (n > 30) return matchingOfList(cells)
  const neighbours = new Int32Array(n)
  for (let i = 0; i < n; i++)
    for (let j = i + 1; j < n; j++)
      if (adjacent(cells[i] ?? 0, cells[j] ?? 0)) {
        neighbours[i] = (neighbours[i] ?? 0) | (1 << j)
        neighbours[j] = (neighbours[j] ?? 0) | (1 << i)
      }
  // The first cell left is unmatched, or matched with each adjacent cell left in turn.
  const go = (rest: number): number => {
    if (rest === 0) return 0
    const first = 31 - Math.clz32(rest & -rest)
    const others = rest & ~(1 << first)
    let best = go(others)
    for (let pick = others & (neighbours[first] ?? 0); pick !== 0; pick &= pick - 1)
      best = Math.max(best, 1 + go(others & ~(pick & -pick)))
    return best
  }
  return go(n === 0 ? 0 : -1 >>> (32 - n))
}

/** The same search on lists of cells. */
function matchingOfList(cells: readonly Cell[]): number {
  const [first, ...others] = cells
  if (first === undefined) return 0
  let best = matchingOfList(others)
  for (const other of others) {
    if (!adjacent(first, other)) continue
    best = Math.max(best, 1 + matchingOfList(others.filter((c) => c !== other)))
  }
  return best
}

/** Every distinct adjacent pair of cells (classic §4.3.1). */
export function adjacentPairs(cells: readonly Cell[]): number {
  let n = 0
  for (let i = 0; i < cells.length; i++)
    for (let j = i + 1; j < cells.length; j++) if (adjacent(cells[i] ?? 0, cells[j] ?? 0)) n++
  return n
}

export interface ShipEntitlement {
  readonly ship: number
  readonly name: string
  /** Conventional strikes this ship adds to the pool (C-12). */
  readonly conventional: number
  /** Unfired missiles the ship may launch one of (C-13); empty when none. */
  readonly missileCells: readonly Cell[]
  /** Cells the ship may kamikaze from (C-14); empty when not entitled. */
  readonly kamikazeCells: readonly Cell[]
  /** Indices into DIRECTIONS the ship's beam may fire along (C-15); classic: any row it meets. */
  readonly beamDirections: readonly number[]
}

export interface Entitlements {
  readonly ships: readonly ShipEntitlement[]
  /** Conventional strike pool: any target, not attributed to ships (C-12, §4.7). */
  readonly conventionalPool: number
  /** Scans available (C-16); 0 without an undestroyed scanner. */
  readonly scans: number
  /** "No possible actions other than kamikaze strikes and scans" (§2.3.2, C-26). */
  readonly onlyKamikazeAndScans: boolean
}

/** Beam directions a 2.6.1 death star may fire in (C-15): pairs of undamaged loose neighbours. */
function beamDirections(cells: readonly Cell[]): number[] {
  const dirs = new Set<number>()
  for (let i = 0; i < cells.length; i++)
    for (let j = i + 1; j < cells.length; j++) {
      const d = directionIndexBetween(cells[i] ?? 0, cells[j] ?? 0)
      if (d >= 0) dirs.add(d)
    }
  return [...dirs].sort((a, b) => a - b)
}

/** What a ship's entitlement was computed from, with it (`shipEntitlement`). */
interface ShipEntitlementOf {
  readonly classic: boolean
  readonly burntOut: boolean
  /** Bit k: the ship's k-th cell is destroyed; fired, likewise. */
  readonly destroyed: number
  readonly fired: number
  readonly value: ShipEntitlement
}

/**
 * The last entitlement computed for each ship of a fleet (by index). A ship's entitlement follows
 * from its own cells' damage and firing, its beam's burn-out and the variant alone; states are
 * values that share their fleet, and a replay asks for every ship's entitlement every turn while
 * most ships stay as they were. Weakly held: gone with the fleet.
 */
const shipEntitlements = new WeakMap<readonly Ship[], (ShipEntitlementOf | undefined)[]>()

/** Ship `i` of `p`'s entitlement (C-12..C-15): the one computed last when its inputs are the same. */
function shipEntitlement(
  p: PlayerState,
  i: number,
  classic: boolean,
  kept: (ShipEntitlementOf | undefined)[],
): ShipEntitlement {
  const ship = p.ships[i]
  const cells = ship?.cells ?? []
  // More cells than a mask holds (no ship has) are computed each time.
  if (ship === undefined || cells.length > 30) return computeShipEntitlement(p, i, classic)
  let destroyed = 0
  let fired = 0
  for (let k = 0; k < cells.length; k++) {
    const c = cells[k] ?? 0
    if (p.destroyed[c] !== 0) destroyed |= 1 << k
    if (p.fired[c] !== 0) fired |= 1 << k
  }
  const burntOut = p.burntOut[i] === true
  const known = kept[i]
  if (
    known !== undefined &&
    known.classic === classic &&
    known.burntOut === burntOut &&
    known.destroyed === destroyed &&
    known.fired === fired
  )
    return known.value
  const value = computeShipEntitlement(p, i, classic)
  kept[i] = { classic, burntOut, destroyed, fired, value }
  return value
}

function computeShipEntitlement(p: PlayerState, i: number, classic: boolean): ShipEntitlement {
  const ship = p.ships[i]
  if (ship === undefined) throw new RangeError(`no ship ${i}`)
  const live = undamagedCells(p, i)
  const spec = SHIP_TYPES[ship.type]
  if (live.length === 0)
    return { ship: i, name: ship.name, conventional: 0, missileCells: [], kamikazeCells: [], beamDirections: [] }
  // §6.2.4 (classic §6.1.2): a death star gives exactly one strike until destroyed.
  const conventional = ship.type === 'DS' ? 1 : classic ? adjacentPairs(live) : maximumMatching(live)
  const missileCells = live.filter((c) => isUnfiredMissile(p, c))
  // §4.5, C-14 (classic §4.4: no conventional strike suffices; missiles do not block it).
  const kamikaze = !spec.neverKamikaze && conventional === 0 && (classic || missileCells.length === 0)
  let beams: number[] = []
  if (spec.beam) {
    // Classic §6.1.3: only a wholly undamaged death star, along the three axes.
    if (classic) beams = live.length === ship.cells.length ? [...AXIAL_DIRECTIONS] : []
    else if (!p.burntOut[i]) beams = beamDirections(live)
  }
  return {
    ship: i,
    name: ship.name,
    conventional,
    missileCells,
    kamikazeCells: kamikaze ? live : [],
    beamDirections: beams,
  }
}

/** Entitlements from the state at the start of a turn (§2.4). `turn` counts from 1. */
export function entitlements(ruleset: Ruleset, p: PlayerState, turn: number): Entitlements {
  const classic = ruleset.variant === 'classic'
  let kept = shipEntitlements.get(p.ships)
  if (kept === undefined) {
    kept = []
    shipEntitlements.set(p.ships, kept)
  }
  const ships: ShipEntitlement[] = []
  for (let i = 0; i < p.ships.length; i++) ships.push(shipEntitlement(p, i, classic, kept))
  const conventionalPool = ships.reduce((n, s) => n + s.conventional, 0)
  const hasScanner = p.ships.some((s, i) => SHIP_TYPES[s.type].scanner && !isShipDestroyed(p, i))
  const scans = classic || !hasScanner ? 0 : turn <= 1 ? 1 : Math.max(1, p.lostLastTurn)
  const onlyKamikazeAndScans =
    conventionalPool === 0 && ships.every((s) => s.missileCells.length === 0 && s.beamDirections.length === 0)
  return { ships, conventionalPool, scans, onlyKamikazeAndScans }
}

export function describeDirection(index: number): string {
  const d = DIRECTIONS[index]
  if (d === undefined) return '?'
  // Signed axes, e.g. `+letter-number` (face diagonal) or `+colour+letter+number` (body diagonal).
  return ['colour', 'letter', 'number']
    .map((axis, a) => (d[a] === 0 ? '' : `${(d[a] ?? 0) > 0 ? '+' : '-'}${axis}`))
    .join('')
}

/** Face neighbours of `cell` in the same ship (missile explosions, §8.1.4.1). */
export function sameShipNeighbours(p: PlayerState, cell: Cell): Cell[] {
  const s = p.shipAt[cell] ?? -1
  return (FACE_NEIGHBOURS[cell] ?? []).filter((n) => (p.shipAt[n] ?? -1) === s)
}
