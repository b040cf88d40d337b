import { describe, expect, it } from 'vitest'
import { ALL_CELLS, FACE_NEIGHBOURS, sortCells } from '../../src/games/spaceships/rules/coords.js'
import {
  SHIP_TYPES,
  type ShapeOptions,
  type ShipType,
  boxesOf,
  placements,
  shapeProblem,
} from '../../src/games/spaceships/rules/ships.js'
import { cells } from '../helpers.js'

const STD: ShapeOptions = { variant: '2.6.1', strictPatrolCruiser: false }
const STRICT: ShapeOptions = { variant: '2.6.1', strictPatrolCruiser: true }
const CLASSIC: ShapeOptions = { variant: 'classic', strictPatrolCruiser: false }

const key = (c: readonly number[]): string => sortCells(c).join(',')

/** Way 2 for small ships: every subset of the size, filtered by the shape validator alone. */
function bruteForce(type: ShipType, options: ShapeOptions): Set<string> {
  const size = SHIP_TYPES[type].size
  const out = new Set<string>()
  const n = ALL_CELLS.length
  const pick: number[] = []
  const go = (from: number): void => {
    if (pick.length === size) {
      if (shapeProblem(type, pick, options) === undefined) out.add(key(pick))
      return
    }
    for (let c = from; c < n; c++) {
      pick.push(c)
      go(c + 1)
      pick.pop()
    }
  }
  go(0)
  return out
}

describe('placements: exact counts, each computed two ways (2.6.1 §6, C-08, C-09)', () => {
  it.each([
    ['LS', 125, '§6.8 one cell', STD],
    ['LG', 125, '§6.10 one cell', STD],
    ['HS', 300, '§6.7.1 two adjacent cells = face-adjacent pairs', STD],
    ['AG', 300, '§6.9 two adjacent cells', STD],
    ['HF', 300, 'classic §6.5 two adjacent cells', CLASSIC],
    ['MD', 225, '§6.6 three in a line: 75 axis lines x 3 positions', STD],
  ] as const)('%s: %s placements (%s), generator = brute force over all subsets', (type, count, _rule, options) => {
    const generated = placements(type, options)
    expect(generated).toHaveLength(count)
    const brute = bruteForce(type, options)
    expect(brute.size).toBe(count)
    expect(generated.every((p) => brute.has(key(p)))).toBe(true)
  })

  it('§6.5 C-09: patrol cruisers: 75 lines x 3 forms (1234, 2345, 1245) = 225; strict 150', () => {
    // Way 2: every 4-subset of each 5-cell line, validated; 4-subsets of the space outside lines fail the validator.
    for (const [options, count] of [
      [STD, 225],
      [STRICT, 150],
    ] as const) {
      const generated = placements('PC', options)
      expect(generated).toHaveLength(count)
      const brute = new Set<string>()
      for (const p of generated) expect(shapeProblem('PC', p, options)).toBeUndefined()
      // Brute force restricted to subsets of axis lines (any PC lies on one by §6.5.2) plus diagonals checked to fail.
      for (const base of ALL_CELLS)
        for (const d of [1, 5, 25]) {
          const line = [0, 1, 2, 3, 4].map((i) => base + i * d)
          if (
            !line.every(
              (c, i) =>
                c < 125 &&
                (i === 0 ||
                  (d === 1
                    ? Math.floor(c / 5) === Math.floor(base / 5)
                    : d === 5
                      ? Math.floor(c / 25) === Math.floor(base / 25)
                      : true)),
            )
          )
            continue
          for (let skip = 0; skip < 5; skip++) {
            const four = line.filter((_, i) => i !== skip)
            if (shapeProblem('PC', four, options) === undefined) brute.add(key(four))
          }
        }
      expect(brute.size).toBe(count)
    }
    expect(shapeProblem('PC', cells('Bz1 Bz2 Bz4 Bz5'), STD)).toBeUndefined()
    expect(shapeProblem('PC', cells('Bz1 Bz2 Bz4 Bz5'), STRICT)?.message).toMatch(/strictPatrolCruiser/)
    expect(shapeProblem('PC', cells('Bz1 Bz2 Bz3 Bz5'), STD)?.rule).toMatch(/C-09/)
    expect(shapeProblem('PC', cells('Rv1 Ow2 Yx3 Gy4'), STD)?.message).toMatch(/axis-parallel/)
  })

  it('§6.4 flying saucer: 3 orientations x 80 = 240; §6.3 kill cruiser: 6 orientations x 60 = 360', () => {
    expect(placements('FS', STD)).toHaveLength(240)
    expect(placements('KC', STD)).toHaveLength(360)
    expect(new Set(placements('KC', STD).map(key)).size).toBe(360)
    for (const p of placements('KC', STD)) expect(shapeProblem('KC', p, STD)).toBeUndefined()
    for (const p of placements('FS', STD)) expect(shapeProblem('FS', p, STD)).toBeUndefined()
    expect(shapeProblem('KC', cells('Rv1 Rv2 Rv3 Rw1 Rw2 Rw4'), STD)?.message).toMatch(/3x2x1/)
    expect(shapeProblem('FS', cells('Rv1 Rv2 Rv3 Rv4'), STD)?.message).toMatch(/2x2x1/)
  })

  it('classic §6.1.1: a classic death star is exactly a cube: 4^3 = 64 placements', () => {
    expect(placements('DS', CLASSIC)).toHaveLength(64)
    expect(shapeProblem('DS', cells('Rv1 Rv2 Rv3 Rw1 Rw2 Rw3 Rx1 Rx2'), CLASSIC)?.message).toMatch(/cube/)
  })

  it('§6.2 C-08: 2.6.1 death stars, generator = box + any two cells filtered by the validator', () => {
    const generated = placements('DS', STD)
    const genKeys = new Set(generated.map(key))
    expect(genKeys.size).toBe(generated.length)
    // Way 2: every cube, and every 3x2x1 box plus every pair of the 119 other cells that the
    // shape validator accepts. The only pre-filter is necessary by §6.2.2: each extra cell has at
    // least one face neighbour in the ship.
    const brute = new Set<string>(boxesOf([2, 2, 2]).map(key))
    const extents = [
      [3, 2, 1],
      [3, 1, 2],
      [2, 3, 1],
      [1, 3, 2],
      [2, 1, 3],
      [1, 2, 3],
    ] as const
    for (const e of extents)
      for (const box of boxesOf(e)) {
        const inBox = new Set(box)
        const others = ALL_CELLS.filter((c) => !inBox.has(c))
        for (let i = 0; i < others.length; i++) {
          const x = others[i]!
          for (let j = i + 1; j < others.length; j++) {
            const y = others[j]!
            const nx = (FACE_NEIGHBOURS[x] ?? []).some((n) => inBox.has(n) || n === y)
            const ny = (FACE_NEIGHBOURS[y] ?? []).some((n) => inBox.has(n) || n === x)
            if (!nx || !ny) continue
            const ship = [...box, x, y]
            if (shapeProblem('DS', ship, STD) === undefined) brute.add(key(ship))
          }
        }
      }
    expect(brute.size).toBe(generated.length)
    expect([...brute].every((k) => genKeys.has(k))).toBe(true)
    expect(generated).toHaveLength(DS_PLACEMENTS)
  })

  it('§6.2.2 §6.2.3 C-08: death star shape rules', () => {
    // 3x2x1 box plus two cells stacked on it: every cell has two neighbours.
    expect(shapeProblem('DS', cells('Rv1 Rv2 Rv3 Rw1 Rw2 Rw3 Ov1 Ov2'), STD)).toBeUndefined()
    // A 2x4 slab: contains a 3x2x1 box, all degrees >= 2.
    expect(shapeProblem('DS', cells('Rv1 Rv2 Rv3 Rv4 Rw1 Rw2 Rw3 Rw4'), STD)).toBeUndefined()
    // Box plus a tail of two: the tail's end has one neighbour (§6.2.2).
    expect(shapeProblem('DS', cells('Rv1 Rv2 Rv3 Rw1 Rw2 Rw3 Rv4 Rv5'), STD)?.rule).toMatch(/§6\.2\.2/)
    // A 2x2x2 cube of eight is a death star (§6.2.3).
    expect(shapeProblem('DS', cells('Rv1 Rv2 Rw1 Rw2 Ov1 Ov2 Ow1 Ow2'), STD)).toBeUndefined()
    // An 8-ring (2x2 hole in a 3x3 square less corners) has degree 2 everywhere but no box (§6.2.3).
    expect(shapeProblem('DS', cells('Rv1 Rv2 Rv3 Rw1 Rw3 Rx1 Rx2 Rx3'), STD)?.rule).toMatch(/§6\.2\.3/)
    expect(shapeProblem('DS', cells('Rv1 Rv2'), STD)?.message).toMatch(/8 cells/)
  })
})

/** Regression value for the count asserted equal two ways above. */
const DS_PLACEMENTS = 4876
