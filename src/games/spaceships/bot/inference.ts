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
 *
 * In parts: placements as bit masks (`inference-masks.ts`), the problem built from the evidence
 * (`inference-problem.ts`), exact enumeration (`inference-exact.ts`) and sampling
 * (`inference-sample.ts`); this file holds the entry point and the belief read from the mass.
 */
import type { Evidence } from '../knowledge/evidence.js'
import { CELL_COUNT } from '../rules/coords.js'
import type { RandomSource } from '../rules/rng.js'
import type { Ruleset } from '../rules/ruleset.js'
import type { ShipType } from '../rules/ships.js'
import type { Table } from './inference-masks.js'
import { type Mass, type Problem, emptyMass, problemOf } from './inference-problem.js'
import { enumerate } from './inference-exact.js'
import { sample } from './inference-sample.js'

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
