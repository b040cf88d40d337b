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
 * Setup: a fleet drawn with a preference for more cells (`chooseFleet`), then the placement, among
 * `setupCandidates` random ones, that the inference's own opening belief ranks lowest: the least
 * expected hits over its cells before anything is known, plus a cost for each face contact between
 * ships (one ship found would lead to the next). Every fleet keeps a chance and candidates are
 * uniform random placements, so every legal setup can still be chosen.
 *
 * Deterministic for its randomness: every random choice and every tie comes from the injected
 * source (a fixed seed, or the side's per-game secret, `levels.ts`) and all work is counted
 * (search nodes, sweeps, candidates), never timed.
 */
import { evidenceOf } from '../knowledge/evidence.js'
import { ALL_CELLS, CELL_COUNT, type Cell, FACE_NEIGHBOURS, SIDE, cellOf, coordOf } from '../rules/coords.js'
import { randomPlacement, randomSetup } from '../rules/enumerate.js'
import { type FleetCounts, legalFleets } from '../rules/fleet.js'
import { formatRecord, type Action } from '../rules/record.js'
import { type RandomSource, randomInt, seededRandom } from '../rules/rng.js'
import { type Ruleset, formatRuleset } from '../rules/ruleset.js'
import type { Setup } from '../rules/setup.js'
import { SHIP_TYPES, type ShipType, placements } from '../rules/ships.js'
import { opponentKnowledge } from '../knowledge/knowledge.js'
import type { PlayerStrategy, TurnContext } from '../session/strategy.js'
import { type Belief, DEFAULT_WORK, type InferenceWork, inferFleet } from './inference.js'
import { planActions } from './plan.js'
import { targetWeights } from './strong.js'

export interface HardOptions {
  /** The inference's work per decision (nodes and sweeps, never time). */
  readonly work?: InferenceWork
  /** Random legal setups compared when choosing the setup. */
  readonly setupCandidates?: number
}

const SETUP_CANDIDATES = 48
/** How much likelier a fleet is per cell it has beyond the smallest (see `chooseFleet`). */
const FLEET_CELL_WEIGHT = 8
/**
 * The prior's penalty per contact between ships (`inferFleet`): players keep ships apart, the
 * medium bot most of all (its setup touches least of 16); measured best near 1.5 against it.
 */
const CONTACT_PENALTY = 1.5
/**
 * What a beam's burn-out costs, in hits: the beam fires three strikes a turn for the rest of the
 * game unless both end cells are hit at once (C-21), so a line whose two ends are both likely
 * hits pays for its extra hit with every later beam.
 */
const BURN_OUT_COST = 4

/** What a face contact between two ships costs a setup, in expected hits. */
const CONTACT_COST = 0.05

/**
 * The belief before anything is known depends on the ruleset alone, so it is computed once per
 * ruleset from a seed of its own (the same everywhere, whichever game asks first), with more
 * sweeps than a move gets, then averaged over the symmetries of the space (`symmetrised`).
 */
const openingCache = new Map<string, Belief>()

function openingBelief(ruleset: Ruleset): Belief {
  const key = formatRuleset(ruleset)
  const cached = openingCache.get(key)
  if (cached !== undefined) return cached
  const sampled = inferFleet(
    ruleset,
    evidenceOf(ruleset.variant, []),
    seededRandom(`opening ${key}`),
    { ...DEFAULT_WORK, exactNodes: 0, sweeps: 40 },
    CONTACT_PENALTY,
  )
  const belief = symmetrised(ruleset, sampled)
  openingCache.set(key, belief)
  return belief
}

/** Where a symmetry of the cube sends a cell: the axes permuted by `axes`, the bits of `flips` mirrored. */
function mapCell(c: Cell, axes: readonly number[], flips: number): Cell {
  const x = coordOf(c)
  const y = axes.map((a, k) => ((flips >> k) & 1 ? SIDE - 1 - (x[a] ?? 0) : (x[a] ?? 0)))
  return cellOf(y[0] ?? 0, y[1] ?? 0, y[2] ?? 0)
}

const AXIS_ORDERS = [
  [0, 1, 2],
  [0, 2, 1],
  [1, 0, 2],
  [1, 2, 0],
  [2, 0, 1],
  [2, 1, 0],
] as const
/** The 48 symmetries of the 5x5x5 space (2.6.1 §1.2), each as a cell permutation. */
const CUBE_SYMMETRIES: readonly Int16Array[] = AXIS_ORDERS.flatMap((axes) =>
  Array.from({ length: 8 }, (_, flips) => Int16Array.from(ALL_CELLS, (c) => mapCell(c, axes, flips))),
)

/**
 * Whether every legal placement of every ship type the ruleset may field stays legal under each
 * symmetry of the space (checked on generators of the group: an axis swap, an axis cycle and one
 * mirror). Orientation and handedness in the space are irrelevant (2.6.1 §1.2.2; a gapped patrol
 * cruiser too, C-09), so this holds for the rulesets known today; checked, not assumed, once per
 * ruleset.
 */
function placementsSymmetric(ruleset: Ruleset): boolean {
  const generators = [
    Int16Array.from(ALL_CELLS, (c) => mapCell(c, [1, 0, 2], 0)),
    Int16Array.from(ALL_CELLS, (c) => mapCell(c, [1, 2, 0], 0)),
    Int16Array.from(ALL_CELLS, (c) => mapCell(c, [0, 1, 2], 1)),
  ]
  const types = new Set(legalFleets(ruleset, 0).flatMap((f) => Object.keys(f) as ShipType[]))
  const keyOf = (cells: readonly Cell[]): string => [...cells].sort((a, b) => a - b).join(',')
  for (const t of types) {
    const list = placements(t, ruleset)
    const known = new Set(list.map(keyOf))
    for (const g of generators)
      for (const cells of list) if (!known.has(keyOf(cells.map((c) => g[c] ?? c)))) return false
  }
  return true
}

/**
 * The opening belief averaged over the 48 symmetries of the space. Before any evidence, the chance
 * that a cell holds a ship is the same for all cells a symmetry maps onto each other (each legal
 * setup has its mirror images, equally legal and equally likely for an opponent who does not favour
 * a corner); a sampled belief differs between such cells by its sampling noise alone (up to a few
 * hundredths in 2.6.1, as much as the gaps between classes of cells), and a fixed sample made that
 * noise pick the same first volley in every game. Averaged, those cells tie exactly, the estimate
 * is the better for it, and the per-game randomness breaks the ties (`hardActions`).
 */
function symmetrised(ruleset: Ruleset, b: Belief): Belief {
  if (!placementsSymmetric(ruleset)) return b
  const average = (v: Float64Array): Float64Array => {
    const out = new Float64Array(v.length)
    for (const g of CUBE_SYMMETRIES)
      for (let c = 0; c < v.length; c++) out[c] = (out[c] ?? 0) + (v[g[c] ?? c] ?? 0) / CUBE_SYMMETRIES.length
    return out
  }
  return { ...b, live: average(b.live), liveByType: new Map([...b.liveByType].map(([t, v]) => [t, average(v)])) }
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

/**
 * The fleet to play: each legal fleet weighs FLEET_CELL_WEIGHT per cell it has beyond the
 * smallest. The score is the materiel left (C-27), so a fleet starts ahead by its extra cells; and
 * a light scout left alone ends the game at once (C-26: it can neither strike nor kamikaze,
 * §6.8.2), while a heavy scout still strikes. Every legal fleet keeps a chance.
 */
function chooseFleet(ruleset: Ruleset, rng: RandomSource): FleetCounts {
  const fleets = legalFleets(ruleset, 0)
  const cells = fleets.map((f) => Object.entries(f).reduce((n, [t, k]) => n + SHIP_TYPES[t as ShipType].size * k, 0))
  const least = Math.min(...cells)
  const weights = cells.map((n) => FLEET_CELL_WEIGHT ** (n - least))
  let r = (rng.nextU32() / 0x100000000) * weights.reduce((a, b) => a + b, 0)
  for (let i = 0; i < fleets.length; i++) {
    r -= weights[i] ?? 0
    if (r < 0) return fleets[i] ?? {}
  }
  return fleets[fleets.length - 1] ?? {}
}

export function hardStrategy(rng: RandomSource, options: HardOptions = {}): PlayerStrategy {
  const work = options.work ?? DEFAULT_WORK
  const candidates = options.setupCandidates ?? SETUP_CANDIDATES
  return {
    setup(ruleset) {
      const opening = openingBelief(ruleset).live
      const fleet = chooseFleet(ruleset, rng)
      let best: Setup | undefined
      let score = Infinity
      for (let i = 0; i < candidates; i++) {
        // Every legal fleet fits in the space, so randomPlacement finds a setup; if it ever did
        // not, any random legal setup will do.
        const s = randomPlacement(ruleset, fleet, rng) ?? randomSetup(ruleset, rng)
        const sc = exposure(s, opening)
        if (sc < score) [best, score] = [s, sc]
      }
      return best ?? randomSetup(ruleset, rng)
    },
    record(ctx) {
      return formatRecord(hardActions(ctx, rng, work))
    },
  }
}

/**
 * The missile to launch first: the one whose explosion would cost most (C-20: a hit on an unfired
 * missile destroys its undamaged face neighbours in the ship too), so the middle of a destroyer
 * before its ends.
 */
function launchFirst(ctx: TurnContext, cells: readonly Cell[], tieBreak: (c: Cell) => number): Cell | undefined {
  const { state } = ctx
  const neighbours = (c: Cell): number =>
    (FACE_NEIGHBOURS[c] ?? []).filter((d) => state.shipAt[d] === state.shipAt[c] && state.destroyed[d] === 0).length
  return [...cells].sort((a, b) => neighbours(b) - neighbours(a) || tieBreak(b) - tieBreak(a))[0]
}

/** Binary entropy of a probability, in bits. */
function entropy(p: number): number {
  if (p <= 0 || p >= 1) return 0
  return -(p * Math.log2(p) + (1 - p) * Math.log2(1 - p))
}

export function hardActions(ctx: TurnContext, rng: RandomSource, work: InferenceWork): Action[] {
  const ev = evidenceOf(ctx.ruleset.variant, ctx.history)
  const belief =
    ctx.history.length === 0 ? openingBelief(ctx.ruleset) : inferFleet(ctx.ruleset, ev, rng, work, CONTACT_PENALTY)
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
  // Jitter from the game's randomness breaks ties (exact ones in the symmetrised opening, and
  // between equally likely cells later) without favouring low cell numbers or being predictable.
  const jitter = ALL_CELLS.map(() => randomInt(rng, 1000) / 1e9)
  const p = (c: Cell): number => live[c] ?? 0
  const strike = (c: Cell): number => p(c) + (jitter[c] ?? 0)
  return planActions(ctx, {
    strikable: (c) => p(c) > 0,
    strike,
    scannable: (c) => entropy(p(c)) > 0,
    scan: (c) => entropy(p(c)) + (jitter[c] ?? 0),
    theirRemaining: () => theirRemaining,
    // Expected hits less the expected cost of a burn-out (both ends hit; marginals as if apart).
    beam: (line) => line.reduce((sum, c) => sum + strike(c), 0) - BURN_OUT_COST * p(line[0] ?? 0) * p(line[2] ?? 0),
    launch: (cells) => launchFirst(ctx, cells, (c) => jitter[c] ?? 0),
  })
}
