/**
 * Sampled inference, when the setups are too many to enumerate: Markov chain Monte Carlo over the
 * consistent setups (see `inference.ts`), from random starting setups, by Gibbs steps that move one
 * ship and Metropolis-Hastings steps that move two or three at once. One algorithm, kept whole.
 */
import type { Cell } from '../rules/coords.js'
import type { RandomSource } from '../rules/rng.js'
import { ALL_SHIP_TYPES, SHIP_TYPES, type ShipType } from '../rules/ships.js'
import type { InferenceWork } from './inference.js'
import { type Table, WORDS, hasBitAt, holds, meets, toggle, touching } from './inference-masks.js'
import {
  type Mass,
  type Problem,
  contactEnergy,
  emptyMass,
  massFor,
  multisetKey,
  nearCounts,
  withReported,
} from './inference-problem.js'

/** A uniform float in [0, 1) from the injected source. */
function uniform(rng: RandomSource): number {
  return rng.nextU32() / 0x100000000
}
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

export function sample(p: Problem, rng: RandomSource, work: InferenceWork, mass: Mass): void {
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
