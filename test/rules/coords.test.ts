import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  ALL_CELLS,
  BEAM_LINES,
  DIRECTIONS,
  FACE_NEIGHBOURS,
  LOOSE_NEIGHBOURS,
  adjacent,
  beamLine,
  cellByName,
  coordOf,
  formatCell,
  isAdjacentSet,
  looselyAdjacent,
  parseCell,
} from '../../src/games/spaceships/rules/coords.js'
import {
  ADJACENCY_DEFINITIONS,
  computeDirectionBetween,
  directionIndexBetween,
} from '../../src/games/spaceships/rules/coords.js'
import { cell, cells } from '../helpers.js'

describe('cells and notation (2.6.1 §11.4, C-01)', () => {
  it('C-01: all 125 cells round-trip through their three-character names', () => {
    expect(ALL_CELLS).toHaveLength(125)
    const seen = new Set<string>()
    for (const c of ALL_CELLS) {
      const name = formatCell(c)
      expect(name).toMatch(/^[ROYGB][vwxyz][1-5]$/)
      seen.add(name)
      expect(parseCell(name)).toEqual({ ok: true, value: c })
    }
    expect(seen.size).toBe(125)
  })

  it("§11.4.4: coordinates are written colour, letter, number in the rules' orders", () => {
    expect(coordOf(cell('Rv1'))).toEqual([0, 0, 0])
    expect(coordOf(cell('Bz5'))).toEqual([4, 4, 4])
    expect(coordOf(cell('Yx3'))).toEqual([2, 2, 2])
    expect(coordOf(cell('Ow4'))).toEqual([1, 1, 3])
  })

  it.each([
    ['rv1', 'cell.colour', /capitals/],
    ['Rv0', 'cell.number', /1\.\.5/],
    ['Rv6', 'cell.number', /number must be 1\.\.5/],
    ['Ra1', 'cell.letter', /v w x y z/],
    ['RV1', 'cell.letter', /lower case/],
    ['Rv', 'cell.syntax', /three characters/],
    ['Rv12', 'cell.syntax', /three characters/],
    ['', 'cell.syntax', /three characters/],
  ])('C-01 §11.4.5: %s is not a cell (%s)', (text, code, message) => {
    const r = parseCell(text)
    expect(r.ok).toBe(false)
    if (r.ok) return
    expect(r.error.code).toBe(code)
    expect(r.error.subject).toBe(text)
    expect(r.error.rule).toContain('C-01')
    expect(r.error.message).toMatch(message)
  })

  it('C-01: arbitrary strings are parsed or rejected with a coded error, never thrown', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 6 }), (s) => {
        const r = parseCell(s)
        if (r.ok) expect(formatCell(r.value)).toBe(s)
        else expect(r.error.code).toMatch(/^cell\./)
      }),
    )
  })
})

describe('adjacency (2.6.1 §1.2.3..§1.2.6, C-02, C-03)', () => {
  it('C-02: a cell is never adjacent to itself, and nothing wraps', () => {
    for (const c of ALL_CELLS) {
      expect(adjacent(c, c)).toBe(false)
      expect(looselyAdjacent(c, c)).toBe(false)
    }
    expect(adjacent(cell('Rv1'), cell('Rv5'))).toBe(false)
    expect(adjacent(cell('Rv1'), cell('Bv1'))).toBe(false)
    expect(looselyAdjacent(cell('Rv1'), cell('Bz5'))).toBe(false)
  })

  it('§1.2.3, §1.2.4, C-04: the start-up tables equal the definitions for all 15,625 ordered pairs, neighbour lists in index order', () => {
    for (const a of ALL_CELLS) {
      for (const b of ALL_CELLS) {
        expect(adjacent(a, b)).toBe(ADJACENCY_DEFINITIONS.adjacent(a, b))
        expect(looselyAdjacent(a, b)).toBe(ADJACENCY_DEFINITIONS.looselyAdjacent(a, b))
        expect(directionIndexBetween(a, b)).toBe(computeDirectionBetween(a, b))
      }
      expect(FACE_NEIGHBOURS[a]).toEqual(ALL_CELLS.filter((b) => ADJACENCY_DEFINITIONS.adjacent(a, b)))
      expect(LOOSE_NEIGHBOURS[a]).toEqual(ALL_CELLS.filter((b) => ADJACENCY_DEFINITIONS.looselyAdjacent(a, b)))
    }
  })

  it('§1.2.3: face adjacency has exactly 3 x 4 x 25 = 300 pairs, corner cells 3 neighbours, centre 6', () => {
    const pairs = FACE_NEIGHBOURS.reduce((n, list) => n + list.length, 0) / 2
    expect(pairs).toBe(300)
    expect(FACE_NEIGHBOURS[cell('Rv1')]).toHaveLength(3)
    expect(FACE_NEIGHBOURS[cell('Yx3')]).toHaveLength(6)
  })

  it('§1.2.4 C-02: loose adjacency counts match the closed form (corner 7, centre 26)', () => {
    expect(LOOSE_NEIGHBOURS[cell('Rv1')]).toHaveLength(7)
    expect(LOOSE_NEIGHBOURS[cell('Yx3')]).toHaveLength(26)
    // Pairs: (per axis, 5 positions give 5 + 2*4 = 13 ordered within-1 pairs) 13^3 minus 125 self pairs, halved.
    const pairs = LOOSE_NEIGHBOURS.reduce((n, list) => n + list.length, 0) / 2
    expect(pairs).toBe((13 ** 3 - 125) / 2)
  })

  it('C-03: a set is adjacent when each cell has an adjacent partner; connectivity not required', () => {
    expect(isAdjacentSet(cells('Rv1 Rv2 Rv4 Rv5'))).toBe(true) // two separate pairs
    expect(isAdjacentSet(cells('Rv1 Rv2 Rv3 Rv5'))).toBe(false) // Rv5 alone
    expect(isAdjacentSet(cells('Rv1'))).toBe(false) // a single cell is not a set of several
  })
})

describe('lines and beams (2.6.1 §8.2.1, C-04)', () => {
  it('C-04: there are exactly 13 directions: 3 axial, 6 face-diagonal, 4 body-diagonal', () => {
    expect(DIRECTIONS).toHaveLength(13)
    const weight = (d: readonly number[]): number => d.filter((v) => v !== 0).length
    expect(DIRECTIONS.filter((d) => weight(d) === 1)).toHaveLength(3)
    expect(DIRECTIONS.filter((d) => weight(d) === 2)).toHaveLength(6)
    expect(DIRECTIONS.filter((d) => weight(d) === 3)).toHaveLength(4)
  })

  it('C-04: beam target lines counted two ways agree: 603 = 225 axial + 270 face-diagonal + 108 body-diagonal', () => {
    // Way 1: the engine's enumeration {p, p+d, p+2d}.
    const engine = new Set(BEAM_LINES.map((l) => [...l].sort((a, b) => a - b).join(',')))
    expect(BEAM_LINES).toHaveLength(603)
    expect(engine.size).toBe(603)
    // Way 2: brute force over every triple of cells: loosely adjacent as a set and collinear.
    const brute = new Set<string>()
    const n = ALL_CELLS.length
    for (let a = 0; a < n; a++)
      for (let b = a + 1; b < n; b++) {
        if (!looselyAdjacent(a, b)) continue
        for (let c = b + 1; c < n; c++) {
          if (!isAdjacentSet([a, b, c], looselyAdjacent)) continue
          const [pa, pb, pc] = [coordOf(a), coordOf(b), coordOf(c)]
          const u = [pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]]
          const v = [pc[0] - pa[0], pc[1] - pa[1], pc[2] - pa[2]]
          const cross = [u[1]! * v[2]! - u[2]! * v[1]!, u[2]! * v[0]! - u[0]! * v[2]!, u[0]! * v[1]! - u[1]! * v[0]!]
          if (cross.every((x) => x === 0)) brute.add([a, b, c].join(','))
        }
      }
    expect(brute.size).toBe(603)
    expect([...brute].every((k) => engine.has(k))).toBe(true)
  })

  it('§11.5.2: a beam is written by its two end cells; order is kept for resolution (C-19)', () => {
    expect(beamLine(cell('Rv1'), cell('Rv3'))?.cells).toEqual(cells('Rv1 Rv2 Rv3'))
    expect(beamLine(cell('Rv3'), cell('Rv1'))?.cells).toEqual(cells('Rv3 Rv2 Rv1'))
    expect(beamLine(cell('Rv1'), cell('Yx3'))?.cells).toEqual(cells('Rv1 Ow2 Yx3'))
    expect(beamLine(cell('Rv1'), cell('Rv2'))).toBeUndefined() // adjacent, not ends of three
    expect(beamLine(cell('Rv1'), cell('Rv4'))).toBeUndefined()
    expect(beamLine(cell('Rv1'), cell('Rw3'))).toBeUndefined() // not a straight line of cells
    expect(beamLine(cell('Rv1'), cell('Rv1'))).toBeUndefined()
  })
})

describe('cellByName', () => {
  it('is the cell whose conventional name the text is, and undefined for any other text', () => {
    const byName = new Map(ALL_CELLS.map((c) => [formatCell(c), c]))
    for (const c of ALL_CELLS) expect(cellByName(formatCell(c))).toBe(c)
    // Every three characters near the alphabet's edges, and any text at all.
    const near = 'QRSNOPXYZFGHABCuvwxyz{0123456rvb\u0152\u0176'.split('')
    for (const a of near)
      for (const b of near) for (const d of near) expect(cellByName(a + b + d)).toBe(byName.get(a + b + d))
    fc.assert(
      fc.property(fc.string({ maxLength: 5 }), (t) => {
        expect(cellByName(t)).toBe(byName.get(t))
      }),
    )
  })
})
