/**
 * Exact inference: every consistent setup enumerated within a node budget, each adding its prior
 * weight to the mass of its placements.
 */
import { type Table, WORDS, hasBitAt, meets, toggle, touching } from './inference-masks.js'
import { type Mass, type Problem, massFor, withReported } from './inference-problem.js'

/**
 * Every consistent setup of every consistent fleet, each weighted by its prior; returns false when
 * the node budget runs out first. Branches first on which ship covers the lowest uncovered known
 * ship cell, then places the ships left, so that each labelled setup is met exactly once.
 */
export function enumerate(p: Problem, budget: number, mass: Mass): boolean {
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
