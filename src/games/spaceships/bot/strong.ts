/**
 * The medium bot: a session strategy that sees only what its side knows. Its approximations are
 * what the hard bot (`hard.ts`) does exactly: ship types are treated independently and the
 * opponent's fleet as its expected composition.
 *
 * Targeting is a probability map over the opponent's space: for every ship type the opponent may
 * still have undestroyed, every legal placement consistent with what is known (no known-empty
 * cell, no cell of a ship already identified as another, not wholly destroyed) is counted, and a
 * placement that explains known-but-unattributed ship cells (hits, scans, explosions, kamikaze
 * deaths) counts `EXPLAIN_WEIGHT` times more per such cell, which is the likelihood of those
 * observations under that placement, up to normalisation. The sum over placements covering a
 * cell, times the expected number of such ships, estimates the chance the cell holds an undamaged
 * ship cell. Cells seen undamaged by a scan or flashcube are certain targets. Weapons as in
 * `plan.ts`, scans at the next best cells (so the next turn's strikes are sure).
 *
 * Setup: among 16 random legal setups (every legal setup reachable), the one whose ships touch
 * each other least, so that finding one ship gives away as little as possible of another.
 *
 * Deterministic for a seed: ties are broken by a seeded jitter, and no search depends on the clock.
 */
import { ALL_CELLS, type Cell, FACE_NEIGHBOURS } from '../rules/coords.js'
import { randomSetup } from '../rules/enumerate.js'
import { legalFleets } from '../rules/fleet.js'
import { formatRecord, type Action } from '../rules/record.js'
import { type RandomSource, randomInt } from '../rules/rng.js'
import type { Ruleset } from '../rules/ruleset.js'
import type { Setup } from '../rules/setup.js'
import { ALL_SHIP_TYPES, SHIP_TYPES, type ShipType, placements } from '../rules/ships.js'
import { type Knowledge, opponentKnowledge } from '../knowledge/knowledge.js'
import type { PlayerStrategy, TurnContext } from '../session/strategy.js'
import { planActions } from './plan.js'

/** How much more likely a placement is per known ship cell it explains. */
const EXPLAIN_WEIGHT = 40
const SETUP_CANDIDATES = 16

/** Expected number of ships of each type in the opponent's fleet, over the legal fleets. */
function expectedFleet(ruleset: Ruleset): Map<ShipType, number> {
  const fleets = legalFleets(ruleset, 0)
  const out = new Map<ShipType, number>()
  for (const f of fleets) for (const t of ALL_SHIP_TYPES) out.set(t, (out.get(t) ?? 0) + (f[t] ?? 0) / fleets.length)
  for (const [t, n] of out) if (n === 0) out.delete(t)
  return out
}

type CellFact = 'unknown' | 'empty' | 'live' | 'dead' | 'dead-identified'

function factOf(k: Knowledge): CellFact {
  switch (k.kind) {
    case 'unknown':
      return 'unknown'
    case 'empty':
      return 'empty'
    case 'ship':
      return 'live'
    case 'hit':
    case 'explosion':
    case 'destroyed':
      return 'dead'
    case 'identified':
      return k.destroyed ? 'dead-identified' : 'live'
  }
}

/** Per cell: the estimated weight of an undamaged opponent ship cell there (relative). */
export function targetWeights(
  ruleset: Ruleset,
  knowledge: readonly Knowledge[],
  reportedDestroyed: ReadonlyMap<ShipType, number>,
): Float64Array {
  const facts = knowledge.map(factOf)
  const identifiedType = knowledge.map((k) => (k.kind === 'identified' ? k.type : undefined))
  const weights = new Float64Array(ALL_CELLS.length)
  for (const [type, expected] of expectedFleet(ruleset)) {
    const alive = expected - (reportedDestroyed.get(type) ?? 0)
    if (alive <= 0) continue
    const list = placements(type, ruleset)
    const cover = new Float64Array(ALL_CELLS.length)
    let total = 0
    for (const cells of list) {
      let w = 1
      let undamaged = 0
      let ok = true
      for (const c of cells) {
        const f = facts[c]
        const id = identifiedType[c]
        if (f === 'empty' || f === 'dead-identified' || (id !== undefined && id !== type)) {
          ok = false
          break
        }
        if (f === 'dead' || f === 'live') w *= EXPLAIN_WEIGHT
        if (f !== 'dead') undamaged++
      }
      if (!ok || undamaged === 0) continue
      total += w
      for (const c of cells) if (facts[c] !== 'dead') cover[c] = (cover[c] ?? 0) + w
    }
    if (total === 0) continue
    for (let c = 0; c < cover.length; c++) weights[c] = (weights[c] ?? 0) + (alive * (cover[c] ?? 0)) / total
  }
  for (let c = 0; c < facts.length; c++) {
    if (facts[c] === 'live') weights[c] = 1e6
    else if (facts[c] !== 'unknown') weights[c] = 0
  }
  return weights
}

/** Face contacts between different ships: fewer means one found ship betrays less of another. */
function contacts(setup: Setup): number {
  const owner = new Int16Array(ALL_CELLS.length).fill(-1)
  setup.forEach((s, i) => {
    for (const c of s.cells) owner[c] = i
  })
  let n = 0
  for (let c = 0; c < owner.length; c++) {
    const o = owner[c] ?? -1
    if (o < 0) continue
    for (const d of FACE_NEIGHBOURS[c] ?? []) if ((owner[d] ?? -1) >= 0 && owner[d] !== o) n++
  }
  return n
}

export function strongStrategy(rng: RandomSource): PlayerStrategy {
  return {
    setup(ruleset) {
      let best = randomSetup(ruleset, rng)
      let score = contacts(best)
      for (let i = 1; i < SETUP_CANDIDATES; i++) {
        const s = randomSetup(ruleset, rng)
        const sc = contacts(s)
        if (sc < score) [best, score] = [s, sc]
      }
      return best
    },
    record(ctx) {
      return formatRecord(chooseActions(ctx, rng))
    },
  }
}

/** This turn's actions, from the placement-count weights (see the module comment). */
export function chooseActions(ctx: TurnContext, rng: RandomSource): Action[] {
  const knowledge = opponentKnowledge(ctx.history)
  const reported = new Map<ShipType, number>()
  for (const t of ctx.history)
    for (const d of t.theirResults.destroyed) reported.set(d.type, (reported.get(d.type) ?? 0) + 1)
  const w = targetWeights(ctx.ruleset, knowledge, reported)
  // Seeded jitter breaks ties without favouring low cell numbers.
  const jitter = ALL_CELLS.map(() => randomInt(rng, 1000) / 1e9)
  const score = (c: Cell): number => (w[c] ?? 0) + (jitter[c] ?? 0)
  const useful = (c: Cell): boolean => (w[c] ?? 0) > 0
  return planActions(ctx, {
    strikable: useful,
    strike: score,
    scannable: useful,
    scan: score,
    theirRemaining: () => estimatedRemaining(ctx.ruleset, knowledge),
  })
}

/** Undamaged opponent ship cells, expected: the fleet's cells less every known destroyed cell. */
function estimatedRemaining(ruleset: Ruleset, knowledge: readonly Knowledge[]): number {
  let cells = 0
  for (const [t, n] of expectedFleet(ruleset)) cells += n * SHIP_TYPES[t].size
  const dead = knowledge.filter(
    (k) =>
      k.kind === 'hit' || k.kind === 'explosion' || k.kind === 'destroyed' || (k.kind === 'identified' && k.destroyed),
  ).length
  return cells - dead
}
