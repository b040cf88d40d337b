/**
 * Cells, coordinates and geometry of one 5x5x5 space (2.6.1 §1.2, §11.4; C-01..C-04).
 *
 * A cell is an index 0..124: colour * 25 + letter * 5 + number, each coordinate 0..4 in the
 * order written by the rules (R O Y G B; v w x y z; 1..5). Indices make the hot paths (bots,
 * verifier replay) cheap; the notation is only for people and for canonical bytes.
 */
import { type Result, type RuleViolation, fail, ok, violation } from './errors.js'

export const COLOURS = ['R', 'O', 'Y', 'G', 'B'] as const
export const LETTERS = ['v', 'w', 'x', 'y', 'z'] as const
export const NUMBERS = ['1', '2', '3', '4', '5'] as const
export type Colour = (typeof COLOURS)[number]
export type Letter = (typeof LETTERS)[number]
export type NumberChar = (typeof NUMBERS)[number]

/** Side of the space and number of cells (§1.2.1). */
export const SIDE = 5
export const CELL_COUNT = SIDE * SIDE * SIDE

/** A cell index in 0..CELL_COUNT-1. */
export type Cell = number
/** A coordinate triple [colour, letter, number], each 0..4. */
export type Coord = readonly [number, number, number]

export function cellOf(colour: number, letter: number, number: number): Cell {
  return colour * 25 + letter * 5 + number
}

export function coordOf(cell: Cell): Coord {
  return [Math.floor(cell / 25), Math.floor(cell / 5) % 5, cell % 5]
}

export function inSpace(colour: number, letter: number, number: number): boolean {
  return colour >= 0 && colour < SIDE && letter >= 0 && letter < SIDE && number >= 0 && number < SIDE
}

export const ALL_CELLS: readonly Cell[] = Array.from({ length: CELL_COUNT }, (_, i) => i)

const CELL_NAMES: readonly string[] = ALL_CELLS.map((cell) => {
  const [c, l, n] = coordOf(cell)
  return `${COLOURS[c] ?? ''}${LETTERS[l] ?? ''}${NUMBERS[n] ?? ''}`
})

/** The conventional name of a cell, e.g. `Rv1` (§11.4.4). */
export function formatCell(cell: Cell): string {
  const name = CELL_NAMES[cell]
  if (name === undefined) throw new RangeError(`not a cell index: ${cell}`)
  return name
}

/** Each colour's index by its character code, -1 for any other code below 128. */
const COLOUR_INDEX = new Int8Array(128).fill(-1)
for (const [i, c] of COLOURS.entries()) COLOUR_INDEX[c.charCodeAt(0)] = i
const LETTER_V = 'v'.charCodeAt(0)
const NUMBER_1 = '1'.charCodeAt(0)

/**
 * The cell a conventional name (`Rv1`, exactly as `formatCell` writes it) names, undefined for any
 * other text. Read from its three character codes: the verifier and the replay turn hundreds of
 * names into indices a game, and this costs less than a map lookup by the string.
 */
export function cellByName(text: string): Cell | undefined {
  if (text.length !== 3) return undefined
  const colour = COLOUR_INDEX[text.charCodeAt(0)] ?? -1
  const letter = text.charCodeAt(1) - LETTER_V
  const number = text.charCodeAt(2) - NUMBER_1
  if (colour < 0 || letter < 0 || letter >= SIDE || number < 0 || number >= SIDE) return undefined
  return cellOf(colour, letter, number)
}

/**
 * Parses exactly one cell: three characters, colour letter number, case-sensitive (C-01,
 * §11.4.5). The error says which coordinate is wrong and what it must be.
 */
export function parseCell(text: string): Result<Cell, RuleViolation> {
  const hit = cellByName(text)
  if (hit !== undefined) return ok(hit)
  if (text.length !== 3) {
    return fail(
      violation(
        'cell.syntax',
        'C-01 §11.4.4',
        text,
        'a cell is exactly three characters: colour, letter, number, e.g. Rv1',
      ),
    )
  }
  const [c, l] = [text[0] ?? '', text[1] ?? '']
  if (!(COLOURS as readonly string[]).includes(c)) {
    const hint = (COLOURS as readonly string[]).includes(c.toUpperCase())
      ? ` (colours are capitals: ${c.toUpperCase()})`
      : ''
    return fail(violation('cell.colour', 'C-01 §11.4.1', text, `colour must be one of R O Y G B${hint}`))
  }
  if (!(LETTERS as readonly string[]).includes(l)) {
    const hint = (LETTERS as readonly string[]).includes(l.toLowerCase())
      ? ` (letters are lower case: ${l.toLowerCase()})`
      : ''
    return fail(violation('cell.letter', 'C-01 §11.4.2', text, `letter must be one of v w x y z${hint}`))
  }
  return fail(violation('cell.number', 'C-01 §11.4.3', text, 'number must be 1..5'))
}

/** A missile launch cell written with 1 to 3 coordinate values (§11.5.3, C-06, C-07). */
export interface PartialCell {
  readonly colour?: number
  readonly letter?: number
  readonly number?: number
}

export function matchesPartial(cell: Cell, p: PartialCell): boolean {
  const [c, l, n] = coordOf(cell)
  return (
    (p.colour === undefined || p.colour === c) &&
    (p.letter === undefined || p.letter === l) &&
    (p.number === undefined || p.number === n)
  )
}

/** A cell written in full as a partial cell: the canonical missile launch (C-06). */
export function partialOf(cell: Cell): PartialCell {
  const [colour, letter, number] = coordOf(cell)
  return { colour, letter, number }
}

export function formatPartial(p: PartialCell): string {
  return (
    (p.colour === undefined ? '' : (COLOURS[p.colour] ?? '')) +
    (p.letter === undefined ? '' : (LETTERS[p.letter] ?? '')) +
    (p.number === undefined ? '' : (NUMBERS[p.number] ?? ''))
  )
}

export function isFullPartial(p: PartialCell): boolean {
  return p.colour !== undefined && p.letter !== undefined && p.number !== undefined
}

/**
 * Reads 1 to 3 coordinate values in the order colour, letter, number, each at most once. Returns
 * the partial cell and how many characters it used, so `m1Ox3` (joined, lenient) can be split.
 */
export function readPartial(text: string): { partial: PartialCell; used: number } {
  let colour: number | undefined
  let letter: number | undefined
  let number: number | undefined
  let i = 0
  const ci = (COLOURS as readonly string[]).indexOf(text[i] ?? '')
  if (ci >= 0) {
    colour = ci
    i++
  }
  const li = (LETTERS as readonly string[]).indexOf(text[i] ?? '')
  if (li >= 0) {
    letter = li
    i++
  }
  const ni = (NUMBERS as readonly string[]).indexOf(text[i] ?? '')
  if (ni >= 0) {
    number = ni
    i++
  }
  const partial: { colour?: number; letter?: number; number?: number } = {}
  if (colour !== undefined) partial.colour = colour
  if (letter !== undefined) partial.letter = letter
  if (number !== undefined) partial.number = number
  return { partial, used: i }
}

// ---------------------------------------------------------------------------------------------
// Adjacency (§1.2.3..§1.2.6, C-02, C-03)

// Coordinate differences without allocating: these run 15,625 times each at start-up, which is
// on the path of every command's cold start.
const dc = (a: Cell, b: Cell): number => Math.abs(Math.floor(a / 25) - Math.floor(b / 25))
const dl = (a: Cell, b: Cell): number => Math.abs((Math.floor(a / 5) % 5) - (Math.floor(b / 5) % 5))
const dn = (a: Cell, b: Cell): number => Math.abs((a % 5) - (b % 5))

function computeAdjacent(a: Cell, b: Cell): boolean {
  return dc(a, b) + dl(a, b) + dn(a, b) === 1
}

function computeLooselyAdjacent(a: Cell, b: Cell): boolean {
  return a !== b && dc(a, b) <= 1 && dl(a, b) <= 1 && dn(a, b) <= 1
}

/**
 * 125 x 125 lookup tables and neighbour lists, filled from each cell's 26 neighbour offsets
 * rather than by testing all 15,625 pairs: they are built at start-up, which is on the path of
 * every command's cold start. `test/rules/coords.test.ts` holds them equal to the
 * definitions above, pair by pair.
 */
const ADJACENT_TABLE = new Uint8Array(CELL_COUNT * CELL_COUNT)
const LOOSE_TABLE = new Uint8Array(CELL_COUNT * CELL_COUNT)
/** Index into DIRECTIONS of the line through two loosely adjacent cells, else -1 (filled below, once DIRECTIONS exists). */
const DIRECTION_TABLE = new Int8Array(CELL_COUNT * CELL_COUNT).fill(-1)
const faceNeighbours: Cell[][] = []
const looseNeighbours: Cell[][] = []
for (let a = 0; a < CELL_COUNT; a++) {
  const [c, l, n] = coordOf(a)
  const face: Cell[] = []
  const loose: Cell[] = []
  // (dc, dl, dn) in lexicographic order visits the neighbours in ascending cell index.
  for (let dc = -1; dc <= 1; dc++)
    for (let dl = -1; dl <= 1; dl++)
      for (let dn = -1; dn <= 1; dn++) {
        if ((dc === 0 && dl === 0 && dn === 0) || !inSpace(c + dc, l + dl, n + dn)) continue
        const b = cellOf(c + dc, l + dl, n + dn)
        LOOSE_TABLE[a * CELL_COUNT + b] = 1
        loose.push(b)
        if (Math.abs(dc) + Math.abs(dl) + Math.abs(dn) === 1) {
          ADJACENT_TABLE[a * CELL_COUNT + b] = 1
          face.push(b)
        }
      }
  faceNeighbours.push(face)
  looseNeighbours.push(loose)
}

/** Cells sharing a face: |d|1 = 1 (§1.2.3). */
export function adjacent(a: Cell, b: Cell): boolean {
  return ADJACENT_TABLE[a * CELL_COUNT + b] === 1
}

/** Distinct cells sharing a face, edge or vertex: every coordinate within 1 (§1.2.4, C-02). */
export function looselyAdjacent(a: Cell, b: Cell): boolean {
  return LOOSE_TABLE[a * CELL_COUNT + b] === 1
}

/** Face neighbours of each cell (no wrap, §1.2.6), in index order. */
export const FACE_NEIGHBOURS: readonly (readonly Cell[])[] = faceNeighbours
/** Loose neighbours of each cell, in index order. */
export const LOOSE_NEIGHBOURS: readonly (readonly Cell[])[] = looseNeighbours

/** The definitions the tables are built to match (for tests). */
export const ADJACENCY_DEFINITIONS = { adjacent: computeAdjacent, looselyAdjacent: computeLooselyAdjacent } as const

/**
 * A set of at least two cells is adjacent when every cell is adjacent to at least one other cell
 * of the set; connectivity is not required (§1.2.5, C-03).
 */
export function isAdjacentSet(cells: readonly Cell[], pred: (a: Cell, b: Cell) => boolean = adjacent): boolean {
  if (cells.length < 2) return false
  return cells.every((a) => cells.some((b) => pred(a, b)))
}

// ---------------------------------------------------------------------------------------------
// Lines (C-04)

/** A direction vector [dColour, dLetter, dNumber]. */
export type Direction = readonly [number, number, number]

/**
 * The 13 line directions through a cell up to sign: 3 axial, 6 face-diagonal, 4 body-diagonal
 * (C-04). Canonical sign: the first non-zero component is positive.
 */
export const DIRECTIONS: readonly Direction[] = (() => {
  const dirs: Direction[] = []
  for (let dc = -1; dc <= 1; dc++)
    for (let dl = -1; dl <= 1; dl++)
      for (let dn = -1; dn <= 1; dn++) {
        const first = dc !== 0 ? dc : dl !== 0 ? dl : dn
        if (first > 0) dirs.push([dc, dl, dn])
      }
  // Axial first, then face diagonals, then body diagonals: a stable, documented order.
  const weight = (d: Direction): number => Math.abs(d[0]) + Math.abs(d[1]) + Math.abs(d[2])
  return dirs.sort((a, b) => weight(a) - weight(b))
})()

/** DIRECTIONS index of each offset (dc, dl, dn) in {-1, 0, 1}^3, at (dc+1)*9 + (dl+1)*3 + (dn+1). */
const OFFSET_DIRECTION: readonly number[] = Array.from({ length: 27 }, (_, i) => {
  const d = [Math.floor(i / 9) - 1, (Math.floor(i / 3) % 3) - 1, (i % 3) - 1]
  return DIRECTIONS.findIndex(
    (e) =>
      (e[0] === d[0] && e[1] === d[1] && e[2] === d[2]) ||
      (e[0] === -(d[0] ?? 0) && e[1] === -(d[1] ?? 0) && e[2] === -(d[2] ?? 0)),
  )
})

/** Indices into DIRECTIONS of the axial directions, by axis: [colour, letter, number]. */
export const AXIAL_DIRECTIONS: readonly [number, number, number] = [
  DIRECTIONS.findIndex((d) => d[0] === 1 && d[1] === 0 && d[2] === 0),
  DIRECTIONS.findIndex((d) => d[0] === 0 && d[1] === 1 && d[2] === 0),
  DIRECTIONS.findIndex((d) => d[0] === 0 && d[1] === 0 && d[2] === 1),
]

/** The definition: the index of ±(b - a) in DIRECTIONS for loosely adjacent cells, else -1. */
export function computeDirectionBetween(a: Cell, b: Cell): number {
  if (!computeLooselyAdjacent(a, b)) return -1
  const [ac, al, an] = coordOf(a)
  const [bc, bl, bn] = coordOf(b)
  const d = [bc - ac, bl - al, bn - an]
  return DIRECTIONS.findIndex(
    (e) =>
      (e[0] === d[0] && e[1] === d[1] && e[2] === d[2]) ||
      (e[0] === -(d[0] ?? 0) && e[1] === -(d[1] ?? 0) && e[2] === -(d[2] ?? 0)),
  )
}

// Each neighbour offset's direction, looked up once, then written for every neighbour pair.
for (let a = 0; a < CELL_COUNT; a++) {
  for (const b of LOOSE_NEIGHBOURS[a] ?? []) {
    const [ac, al, an] = coordOf(a)
    const [bc, bl, bn] = coordOf(b)
    DIRECTION_TABLE[a * CELL_COUNT + b] = OFFSET_DIRECTION[(bc - ac + 1) * 9 + (bl - al + 1) * 3 + (bn - an + 1)] ?? -1
  }
}

/** Index into DIRECTIONS of the line through a and b (a !== b, loosely adjacent), else -1. */
export function directionIndexBetween(a: Cell, b: Cell): number {
  return DIRECTION_TABLE[a * CELL_COUNT + b] ?? -1
}

export function step(cell: Cell, d: Direction, k: number): Cell | undefined {
  const [c, l, n] = coordOf(cell)
  const [nc, nl, nn] = [c + d[0] * k, l + d[1] * k, n + d[2] * k]
  return inSpace(nc, nl, nn) ? cellOf(nc, nl, nn) : undefined
}

/**
 * Three loosely adjacent cells in a straight line: {p, p+d, p+2d} (C-04, §8.2.1). Given the two
 * written end cells, returns [first end, middle, second end] and the direction index, or
 * undefined when the two cells are not the ends of such a line.
 */
export function beamLine(
  end1: Cell,
  end2: Cell,
): { cells: readonly [Cell, Cell, Cell]; direction: number } | undefined {
  const [ac, al, an] = coordOf(end1)
  const [bc, bl, bn] = coordOf(end2)
  const d = [bc - ac, bl - al, bn - an]
  if (d.some((v) => v !== 0 && v !== 2 && v !== -2) || d.every((v) => v === 0)) return undefined
  const middle = cellOf(ac + (d[0] ?? 0) / 2, al + (d[1] ?? 0) / 2, an + (d[2] ?? 0) / 2)
  return { cells: [end1, middle, end2], direction: directionIndexBetween(end1, middle) }
}

/** Every beam target line {p, p+d, p+2d} with p before p+2d in index order. */
export const BEAM_LINES: readonly (readonly [Cell, Cell, Cell])[] = (() => {
  const lines: (readonly [Cell, Cell, Cell])[] = []
  for (const d of DIRECTIONS)
    for (const p of ALL_CELLS) {
      const q = step(p, d, 1)
      const r = step(p, d, 2)
      if (q !== undefined && r !== undefined) lines.push(p < r ? [p, q, r] : [r, q, p])
    }
  return lines
})()

/** Axis index 0 colour, 1 letter, 2 number. */
export type Axis = 0 | 1 | 2

/**
 * A full 5-cell axial row (classic beam, C-28 classic): the two fixed coordinates and the free
 * axis. Written as `b` plus the two fixed coordinate values in colour-letter-number order.
 */
export interface Row {
  readonly free: Axis
  readonly fixed: PartialCell
}

export function rowCells(row: Row): readonly Cell[] {
  return ALL_CELLS.filter((cell) => matchesPartial(cell, row.fixed))
}

export function sortCells(cells: readonly Cell[]): Cell[] {
  return [...cells].sort((a, b) => a - b)
}
