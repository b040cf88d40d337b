/**
 * The hard bot: targets from inference over the opponent's whole fleet (`inference.ts`), and a
 * setup chosen to be slow to find by that same inference.
 *
 * Each turn the evidence (every miss, hit, duplicate hit, scan, explosion, kamikaze death,
 * destruction report and flashcube entry) gives the probability that each cell holds an undamaged
 * ship cell, exact or sampled. Every weapon uses it (`plan.ts`): beams, rows, missiles and
 * conventional strikes go where the expected hits are greatest; kamikaze strikes when behind the
 * opponent's expected materiel; scans where their result is least predictable (a scan's result is
 * a function of the setup, so its information about the setup is the entropy of the result).
 *
 * Setup: the legal setup, among `setupCandidates` random ones, that the inference's own opening
 * beliefs rank lowest: the least expected hits over its cells before anything is known, plus a
 * cost for each face contact between ships (one ship found would lead to the next). Candidates are
 * uniform random legal setups, so every legal setup can still be chosen.
 *
 * Deterministic for a seed: all randomness comes from the injected source and all work is counted
 * (search nodes, sweeps, candidates), never timed.
 */
import { evidenceOf } from '../knowledge/evidence.js'
import { ALL_CELLS, CELL_COUNT, type Cell, FACE_NEIGHBOURS } from '../rules/coords.js'
import { randomSetup } from '../rules/enumerate.js'
import { formatRecord, type Action } from '../rules/record.js'
import { type RandomSource, randomInt, seededRandom } from '../rules/rng.js'
import { type Ruleset, formatRuleset } from '../rules/ruleset.js'
import type { Setup } from '../rules/setup.js'
import type { ShipType } from '../rules/ships.js'
import { opponentKnowledge } from '../knowledge/knowledge.js'
import type { PlayerStrategy, TurnContext } from '../session/strategy.js'
import { DEFAULT_WORK, type InferenceWork, inferFleet } from './inference.js'
import { planActions } from './plan.js'
import { targetWeights } from './strong.js'

export interface HardOptions {
  /** The inference's work per decision (nodes and sweeps, never time). */
  readonly work?: InferenceWork
  /** Random legal setups compared when choosing the setup. */
  readonly setupCandidates?: number
}

/** What a face contact between two ships costs a setup, in expected hits. */
const CONTACT_COST = 0.05

/** The opening belief per ruleset: fixed for the ruleset, so computed once, from a fixed seed. */
const openingCache = new Map<string, Float64Array>()

function openingBelief(ruleset: Ruleset): Float64Array {
  const key = formatRuleset(ruleset)
  const cached = openingCache.get(key)
  if (cached !== undefined) return cached
  const live = inferFleet(ruleset, evidenceOf(ruleset.variant, []), seededRandom(`opening ${key}`), { ...DEFAULT_WORK, exactNodes: 0, sweeps: 60 }).live
  openingCache.set(key, live)
  return live
}

/** How easily the inference would find a setup: its expected hits plus a cost per contact. */
export function exposure(setup: Setup, opening: Float64Array): number {
  const owner = new Int16Array(CELL_COUNT).fill(-1)
  setup.forEach((s, i) => {
    for (const c of s.cells) owner[c] = i
  })
  let score = 0
  for (let c = 0; c < CELL_COUNT; c++) {
    const o = owner[c] ?? -1
    if (o < 0) continue
    score += opening[c] ?? 0
    for (const d of FACE_NEIGHBOURS[c] ?? []) if ((owner[d] ?? -1) >= 0 && owner[d] !== o) score += CONTACT_COST
  }
  return score
}

export function hardStrategy(rng: RandomSource, options: HardOptions = {}): PlayerStrategy {
  const work = options.work ?? DEFAULT_WORK
  const candidates = options.setupCandidates ?? 48
  return {
    setup(ruleset) {
      const opening = openingBelief(ruleset)
      let best = randomSetup(ruleset, rng)
      let score = exposure(best, opening)
      for (let i = 1; i < candidates; i++) {
        const s = randomSetup(ruleset, rng)
        const sc = exposure(s, opening)
        if (sc < score) [best, score] = [s, sc]
      }
      return best
    },
    record(ctx) {
      return formatRecord(hardActions(ctx, rng, work))
    },
  }
}

/** Binary entropy of a probability, in bits. */
function entropy(p: number): number {
  if (p <= 0 || p >= 1) return 0
  return -(p * Math.log2(p) + (1 - p) * Math.log2(1 - p))
}

export function hardActions(ctx: TurnContext, rng: RandomSource, work: InferenceWork): Action[] {
  const ev = evidenceOf(ctx.ruleset.variant, ctx.history)
  const belief = inferFleet(ctx.ruleset, ev, rng, work)
  let live = belief.live
  let theirRemaining = belief.remaining
  if (belief.method === 'none') {
    // Nothing the rules allow explains what the opponent said (it lied, or brought ships the
    // ruleset does not tell us of): fall back on the per-type estimate, which needs no consistency.
    const reported = new Map<ShipType, number>()
    for (const r of ev.reported) reported.set(r.type, (reported.get(r.type) ?? 0) + 1)
    const w = targetWeights(ctx.ruleset, opponentKnowledge(ctx.history), reported)
    let sum = 0
    for (const v of w) sum += Math.min(v, 1)
    live = w
    theirRemaining = sum
  }
  // Seeded jitter breaks ties without favouring low cell numbers.
  const jitter = ALL_CELLS.map(() => randomInt(rng, 1000) / 1e9)
  const p = (c: Cell): number => live[c] ?? 0
  return planActions(ctx, {
    strikable: (c) => p(c) > 0,
    strike: (c) => p(c) + (jitter[c] ?? 0),
    scannable: (c) => entropy(p(c)) > 0,
    scan: (c) => entropy(p(c)) + (jitter[c] ?? 0),
    theirRemaining: () => theirRemaining,
  })
}
