/**
 * The easy bot: a hunt-and-target player a beginner can beat. It hunts on a checkerboard (every
 * ship but a light scout or gunboat covers cells of both colours, §6), strikes next to the hits of
 * ships not yet reported destroyed, and strikes cells seen undamaged first; it reasons about no
 * ship shapes, fleets or missing cells. Its setup is a uniform random legal setup. Weapons as in
 * `plan.ts`, scans where it would next strike.
 */
import { ALL_CELLS, type Cell, FACE_NEIGHBOURS, coordOf } from '../rules/coords.js'
import { randomSetup } from '../rules/enumerate.js'
import { legalFleets } from '../rules/fleet.js'
import { formatRecord } from '../rules/record.js'
import { type RandomSource, randomInt } from '../rules/rng.js'
import { SHIP_TYPES } from '../rules/ships.js'
import { opponentKnowledge } from '../knowledge/knowledge.js'
import type { PlayerStrategy } from '../session/strategy.js'
import { planActions } from './plan.js'

export function easyStrategy(rng: RandomSource): PlayerStrategy {
  return {
    setup: (ruleset) => randomSetup(ruleset, rng),
    record(ctx) {
      const k = opponentKnowledge(ctx.history)
      const jitter = ALL_CELLS.map(() => randomInt(rng, 1000) / 1e6)
      const open = (c: Cell): boolean => k[c]?.kind === 'unknown' || k[c]?.kind === 'ship'
      // A hit whose ship is not known destroyed: its neighbours are where the rest of it may be.
      const wounded = (c: Cell): boolean => {
        const x = k[c]?.kind
        return x === 'hit' || x === 'explosion' || x === 'destroyed'
      }
      const value = (c: Cell): number => {
        if (k[c]?.kind === 'ship') return 3
        if ((FACE_NEIGHBOURS[c] ?? []).some(wounded)) return 2 + (jitter[c] ?? 0)
        const [x, y, z] = coordOf(c)
        return ((x + y + z) % 2 === 0 ? 1 : 0.5) + (jitter[c] ?? 0)
      }
      const fleetCells = Math.max(
        ...legalFleets(ctx.ruleset, 0).map((f) =>
          Object.entries(f).reduce((n, [t, m]) => n + SHIP_TYPES[t as keyof typeof SHIP_TYPES].size * m, 0),
        ),
      )
      const dead = ALL_CELLS.filter((c) => {
        const x = k[c]
        return wounded(c) || (x?.kind === 'identified' && x.destroyed)
      }).length
      return formatRecord(
        planActions(ctx, {
          strikable: open,
          strike: value,
          scannable: open,
          scan: value,
          theirRemaining: () => fleetCells - dead,
        }),
      )
    },
  }
}
