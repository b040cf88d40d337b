/**
 * Ship types, their shapes and every legal placement of each (2.6.1 §6, classic §6; C-05, C-08,
 * C-09). Tables are `as const` so a type code is a literal union, like chess.js piece tables.
 */
import {
  ALL_CELLS,
  type Cell,
  FACE_NEIGHBOURS,
  SIDE,
  adjacent,
  cellOf,
  coordOf,
  isAdjacentSet,
  sortCells,
} from './coords.js'

export const SHIP_TYPES = {
  DS: { name: 'death star', size: 8, cost: 8, missiles: false, beam: true, scanner: false, neverKamikaze: false },
  KC: { name: 'kill cruiser', size: 6, cost: 6, missiles: false, beam: false, scanner: false, neverKamikaze: false },
  FS: { name: 'flying saucer', size: 4, cost: 4, missiles: false, beam: false, scanner: false, neverKamikaze: false },
  PC: { name: 'patrol cruiser', size: 4, cost: 4, missiles: false, beam: false, scanner: false, neverKamikaze: false },
  MD: {
    name: 'missile destroyer',
    size: 3,
    cost: 3,
    missiles: true,
    beam: false,
    scanner: false,
    neverKamikaze: false,
  },
  HS: { name: 'heavy scout', size: 2, cost: 3, missiles: false, beam: false, scanner: true, neverKamikaze: false },
  // §6.8.2: a light scout never entitles its player to a kamikaze strike.
  LS: { name: 'light scout', size: 1, cost: 3, missiles: false, beam: false, scanner: true, neverKamikaze: true },
  AG: { name: 'assault gunboat', size: 2, cost: 2, missiles: true, beam: false, scanner: false, neverKamikaze: false },
  LG: { name: 'light gunboat', size: 1, cost: 1, missiles: true, beam: false, scanner: false, neverKamikaze: false },
  // Classic §6.5: the heavy fighter. Classic has no costs; 2 is its cell count, never used as cost.
  HF: { name: 'heavy fighter', size: 2, cost: 2, missiles: false, beam: false, scanner: false, neverKamikaze: false },
} as const

export type ShipType = keyof typeof SHIP_TYPES
export const ALL_SHIP_TYPES = Object.keys(SHIP_TYPES) as readonly ShipType[]

export function isShipType(text: string): text is ShipType {
  return Object.hasOwn(SHIP_TYPES, text)
}

export type Variant = '2.6.1' | 'classic'

/** Types that exist in each variant (2.6.1 §6; classic §6). */
export const VARIANT_SHIP_TYPES: Readonly<Record<Variant, readonly ShipType[]>> = {
  '2.6.1': ['DS', 'KC', 'FS', 'PC', 'MD', 'HS', 'LS', 'AG', 'LG'],
  classic: ['DS', 'KC', 'FS', 'MD', 'HF'],
}

export interface ShapeOptions {
  readonly variant: Variant
  /** C-09 option: a patrol cruiser must be a solid bar of four. */
  readonly strictPatrolCruiser: boolean
}

/** Sizes of the bounding box of a set of cells along each axis, sorted ascending. */
function boundingDims(cells: readonly Cell[]): [number, number, number] {
  const lo = [SIDE, SIDE, SIDE]
  const hi = [-1, -1, -1]
  for (const cell of cells) {
    const co = coordOf(cell)
    for (let a = 0; a < 3; a++) {
      lo[a] = Math.min(lo[a] ?? 0, co[a] ?? 0)
      hi[a] = Math.max(hi[a] ?? 0, co[a] ?? 0)
    }
  }
  const dims = [0, 1, 2].map((a) => (hi[a] ?? 0) - (lo[a] ?? 0) + 1).sort((x, y) => x - y)
  return [dims[0] ?? 0, dims[1] ?? 0, dims[2] ?? 0]
}

/** True when the distinct cells fill exactly an axis-aligned box of the given sorted dims. */
function isBox(cells: readonly Cell[], dims: readonly [number, number, number]): boolean {
  const [a, b, c] = boundingDims(cells)
  return a === dims[0] && b === dims[1] && c === dims[2] && cells.length === a * b * c
}

/** The six orientations of a 3x2x1 box and the one of a cube, as extents per axis. */
const KC_EXTENTS: readonly (readonly [number, number, number])[] = [
  [3, 2, 1],
  [3, 1, 2],
  [2, 3, 1],
  [1, 3, 2],
  [2, 1, 3],
  [1, 2, 3],
]
const CUBE_EXTENT = [2, 2, 2] as const
const FS_EXTENTS: readonly (readonly [number, number, number])[] = [
  [2, 2, 1],
  [2, 1, 2],
  [1, 2, 2],
]

/** Every axis-aligned box of the given extents inside the space, cells sorted. */
export function boxesOf(extent: readonly [number, number, number]): Cell[][] {
  const out: Cell[][] = []
  const [ec, el, en] = extent
  for (let c = 0; c + ec <= SIDE; c++)
    for (let l = 0; l + el <= SIDE; l++)
      for (let n = 0; n + en <= SIDE; n++) {
        const box: Cell[] = []
        for (let i = 0; i < ec; i++)
          for (let j = 0; j < el; j++) for (let k = 0; k < en; k++) box.push(cellOf(c + i, l + j, n + k))
        out.push(sortCells(box))
      }
  return out
}

/** Does the set contain an axis-aligned box with these extents, anchored anywhere? */
function containsBox(set: ReadonlySet<Cell>, extent: readonly [number, number, number]): boolean {
  for (const anchor of set) {
    const [c, l, n] = coordOf(anchor)
    if (c + extent[0] > SIDE || l + extent[1] > SIDE || n + extent[2] > SIDE) continue
    let all = true
    for (let i = 0; i < extent[0] && all; i++)
      for (let j = 0; j < extent[1] && all; j++)
        for (let k = 0; k < extent[2] && all; k++) if (!set.has(cellOf(c + i, l + j, n + k))) all = false
    if (all) return true
  }
  return false
}

/** Every cell of the set is adjacent to at least `min` others of it (§6.2.2). */
function minDegreeAtLeast(cells: readonly Cell[], min: number): boolean {
  return cells.every((a) => cells.filter((b) => adjacent(a, b)).length >= min)
}

/** Collinear along one axis: two coordinates shared by every cell (C-04, axis-parallel). */
function onOneAxisLine(cells: readonly Cell[]): boolean {
  const coords = cells.map(coordOf)
  const first = coords[0]
  if (first === undefined) return false
  let sharedAxes = 0
  for (let a = 0; a < 3; a++) if (coords.every((co) => co[a] === first[a])) sharedAxes++
  return sharedAxes >= 2
}

/**
 * Whether a set of distinct cells has the shape required of a type, and if not, why. Cell count
 * is checked too. Citations are to the paragraph defining the shape.
 */
export interface ShapeProblem {
  readonly rule: string
  readonly message: string
}

function problem(message: string, rule: string): ShapeProblem {
  return { message, rule }
}

export function shapeProblem(type: ShipType, cells: readonly Cell[], options: ShapeOptions): ShapeProblem | undefined {
  const spec = SHIP_TYPES[type]
  if (cells.length !== spec.size) return problem(`a ${spec.name} has ${spec.size} cells, not ${cells.length}`, '§6.1.1')
  const set = new Set(cells)
  switch (type) {
    case 'DS':
      if (options.variant === 'classic') {
        return isBox(cells, [2, 2, 2]) ? undefined : problem('a classic death star is a 2x2x2 cube', 'classic §6.1.1')
      }
      if (!minDegreeAtLeast(cells, 2))
        return problem('every death star cell must be adjacent to at least two others', '§6.2.2 C-08')
      if (!containsBox(set, CUBE_EXTENT) && !KC_EXTENTS.some((e) => containsBox(set, e))) {
        return problem('a death star must contain a 2x2x2 cube or a 3x2x1 box', '§6.2.3 C-08')
      }
      return undefined
    case 'KC':
      return isBox(cells, [1, 2, 3]) ? undefined : problem('a kill cruiser is a 3x2x1 box', '§6.3.2')
    case 'FS':
      return isBox(cells, [1, 2, 2]) ? undefined : problem('a flying saucer is a 2x2x1 square', '§6.4.2')
    case 'PC':
      if (!onOneAxisLine(cells) || !isAdjacentSet(cells)) {
        return problem('a patrol cruiser is four adjacent cells on one axis-parallel line', '§6.5 C-09')
      }
      if (options.strictPatrolCruiser && !isBox(cells, [1, 1, 4])) {
        return problem('option strictPatrolCruiser: a patrol cruiser is a solid bar of four', 'C-09')
      }
      return undefined
    case 'MD':
      return onOneAxisLine(cells) && isAdjacentSet(cells)
        ? undefined
        : problem('a missile destroyer is three adjacent cells in a straight line', '§6.6.1 §6.6.2')
    case 'HS':
    case 'AG':
    case 'HF':
      return isAdjacentSet(cells)
        ? undefined
        : problem(`a ${spec.name} is two adjacent cells`, '§6.7.1 §6.9 classic §6.5')
    case 'LS':
    case 'LG':
      return undefined
  }
}

// ---------------------------------------------------------------------------------------------
// Placements: every legal cell set of each type, the base of random setups and bot inference.

const placementCache = new Map<string, readonly (readonly Cell[])[]>()

function keyOf(cells: readonly Cell[]): string {
  return cells.join(',')
}

function generateDeathStars(options: ShapeOptions): Cell[][] {
  if (options.variant === 'classic') return boxesOf(CUBE_EXTENT)
  const found = new Map<string, Cell[]>()
  for (const cube of boxesOf(CUBE_EXTENT)) found.set(keyOf(cube), cube)
  // Any other death star is a 3x2x1 box plus two cells, each of which needs two neighbours in the
  // ship (§6.2.2) and so at least one in the box: both extras lie in the box's face neighbourhood.
  for (const extent of KC_EXTENTS)
    for (const box of boxesOf(extent)) {
      const inBox = new Set(box)
      const around = sortCells([...new Set(box.flatMap((c) => FACE_NEIGHBOURS[c] ?? []))].filter((c) => !inBox.has(c)))
      for (let i = 0; i < around.length; i++)
        for (let j = i + 1; j < around.length; j++) {
          const ship = sortCells([...box, around[i] ?? 0, around[j] ?? 0])
          const key = keyOf(ship)
          if (!found.has(key) && minDegreeAtLeast(ship, 2)) found.set(key, ship)
        }
    }
  return [...found.values()]
}

function generate(type: ShipType, options: ShapeOptions): Cell[][] {
  switch (type) {
    case 'DS':
      return generateDeathStars(options)
    case 'KC':
      return KC_EXTENTS.flatMap((e) => boxesOf(e))
    case 'FS':
      return FS_EXTENTS.flatMap((e) => boxesOf(e))
    case 'PC': {
      const out: Cell[][] = []
      const patterns = options.strictPatrolCruiser
        ? [
            [0, 1, 2, 3],
            [1, 2, 3, 4],
          ]
        : [
            [0, 1, 2, 3],
            [1, 2, 3, 4],
            [0, 1, 3, 4],
          ]
      for (const line of axisLines())
        for (const pattern of patterns) out.push(sortCells(pattern.map((i) => line[i] ?? 0)))
      return out
    }
    case 'MD':
      return axisLines().flatMap((line) => [0, 1, 2].map((s) => sortCells(line.slice(s, s + 3))))
    case 'HS':
    case 'AG':
    case 'HF':
      return ALL_CELLS.flatMap((a) => (FACE_NEIGHBOURS[a] ?? []).filter((b) => b > a).map((b) => [a, b]))
    case 'LS':
    case 'LG':
      return ALL_CELLS.map((a) => [a])
  }
}

/** The 75 axis-parallel lines of five cells, in coordinate order. */
export function axisLines(): Cell[][] {
  const lines: Cell[][] = []
  for (let axis = 0; axis < 3; axis++)
    for (let u = 0; u < SIDE; u++)
      for (let v = 0; v < SIDE; v++) {
        const line: Cell[] = []
        for (let t = 0; t < SIDE; t++) {
          const co = axis === 0 ? [t, u, v] : axis === 1 ? [u, t, v] : [u, v, t]
          line.push(cellOf(co[0] ?? 0, co[1] ?? 0, co[2] ?? 0))
        }
        lines.push(line)
      }
  return lines
}

/**
 * Every legal placement (sorted cell list) of a ship type, sorted by key, memoised. The same list
 * for the same options, so bots that index into it are deterministic.
 */
export function placements(type: ShipType, options: ShapeOptions): readonly (readonly Cell[])[] {
  const cacheKey = `${type}/${options.variant}/${options.strictPatrolCruiser ? 's' : 'l'}`
  const cached = placementCache.get(cacheKey)
  if (cached !== undefined) return cached
  const list = generate(type, options).sort((a, b) => {
    for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return (a[i] ?? 0) - (b[i] ?? 0)
    return 0
  })
  placementCache.set(cacheKey, list)
  return list
}

/** The type code with identity as written (C-05): `KC` alone, `DS2` among several. */
export function formatShipName(type: ShipType, id: number, countOfType: number): string {
  return countOfType >= 2 ? `${type}${id}` : type
}
