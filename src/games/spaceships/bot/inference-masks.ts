/**
 * The placements of a ship type as bit masks over the 125 cells, and the word-wise tests on them
 * (meets, holds, within, touching) that the inference of `inference.ts` is built on.
 */
import { CELL_COUNT, type Cell, FACE_NEIGHBOURS } from '../rules/coords.js'
import type { Ruleset } from '../rules/ruleset.js'
import { SHIP_TYPES, type ShipType, placements } from '../rules/ships.js'

/** 125 cells as four 32-bit words. */
export const WORDS = 4
/** Every placement of a type as cell masks and cell lists, built once per type and shape options. */
export interface Table {
  readonly type: ShipType
  readonly size: number
  readonly count: number
  readonly masks: Uint32Array
  /** Per placement: the cells sharing a face with it, outside it. */
  readonly near: Uint32Array
  readonly cells: Uint8Array
  /** Prior weight of each placement (see the comment of `inference.ts`). */
  readonly weight: number
}

const tableCache = new Map<string, Table>()

export function tableOf(type: ShipType, ruleset: Ruleset): Table {
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

export function maskOf(flags: Uint8Array): Uint32Array {
  const m = new Uint32Array(WORDS)
  for (let c = 0; c < CELL_COUNT; c++) if (flags[c] === 1) m[c >>> 5] = (m[c >>> 5] ?? 0) | (1 << (c & 31))
  return m
}

/** Placement i of a table meets mask m. */
export function meets(t: Table, i: number, m: Uint32Array): boolean {
  const o = i * WORDS
  return (
    ((t.masks[o] ?? 0) & (m[0] ?? 0)) !== 0 ||
    ((t.masks[o + 1] ?? 0) & (m[1] ?? 0)) !== 0 ||
    ((t.masks[o + 2] ?? 0) & (m[2] ?? 0)) !== 0 ||
    ((t.masks[o + 3] ?? 0) & (m[3] ?? 0)) !== 0
  )
}

/** Placement i of a table holds every cell of mask m. */
export function holds(t: Table, i: number, m: Uint32Array): boolean {
  const o = i * WORDS
  return (
    ((m[0] ?? 0) & ~(t.masks[o] ?? 0)) === 0 &&
    ((m[1] ?? 0) & ~(t.masks[o + 1] ?? 0)) === 0 &&
    ((m[2] ?? 0) & ~(t.masks[o + 2] ?? 0)) === 0 &&
    ((m[3] ?? 0) & ~(t.masks[o + 3] ?? 0)) === 0
  )
}

/** Every cell of placement i of a table is in mask m. */
export function within(t: Table, i: number, m: Uint32Array): boolean {
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
export function touching(t: Table, i: number, m: Uint32Array): number {
  const o = i * WORDS
  return (
    popcount((t.near[o] ?? 0) & (m[0] ?? 0)) +
    popcount((t.near[o + 1] ?? 0) & (m[1] ?? 0)) +
    popcount((t.near[o + 2] ?? 0) & (m[2] ?? 0)) +
    popcount((t.near[o + 3] ?? 0) & (m[3] ?? 0))
  )
}

export function toggle(occ: Uint32Array, t: Table, i: number): void {
  for (let w = 0; w < WORDS; w++) occ[w] = (occ[w] ?? 0) ^ (t.masks[i * WORDS + w] ?? 0)
}
export function hasBitAt(t: Table, i: number, c: Cell): boolean {
  return ((t.masks[i * WORDS + (c >>> 5)] ?? 0) & (1 << (c & 31))) !== 0
}
