/** Space battles: initiation (S-40), resolution (S-42) and fame (S-43). */
import { clamp, isPilotable, towardZero } from './state.js'
import { LIMITS, type Initiation, type PlayerIndex, type Ship, type Terms } from './types.js'

/** Why `attack` cannot take effect (S-40), or null when it does. */
export type InitiationRefusal =
  'allied' | 'not pilotable' | 'target not pilotable' | 'not in the same sector' | 'cooldown' | 'rematch'

/**
 * S-40: whether P's `attack Q` at the initiation step of tick `tick` takes effect. `initiations`
 * holds every earlier initiation S-40 looks back on and those made earlier in this step.
 */
export function initiationRefusal(
  p: PlayerIndex,
  q: PlayerIndex,
  tick: number,
  ships: readonly Ship[],
  allied: boolean,
  initiations: readonly Initiation[],
  terms: Terms,
): InitiationRefusal | null {
  const sp = ships[p]
  const sq = ships[q]
  if (sp === undefined || sq === undefined || !isPilotable(sp)) return 'not pilotable'
  if (!isPilotable(sq)) return 'target not pilotable'
  if (sp.sector !== sq.sector) return 'not in the same sector'
  if (allied) return 'allied'
  return recentRefusal(p, q, tick, initiations, terms)
}

/**
 * S-40's look back alone: whether an initiation of P or Q too recent (`cooldown`), or of the pair
 * (`rematch`), refuses P's `attack Q` in tick `tick`, whatever the ships' state. A screen asks it
 * with the initiations of earlier ticks only: this tick's can add refusals, never lift one.
 */
export function recentRefusal(
  p: PlayerIndex,
  q: PlayerIndex,
  tick: number,
  initiations: readonly Initiation[],
  terms: Terms,
): 'cooldown' | 'rematch' | null {
  const inStep = (i: Initiation): boolean => i.tick === tick
  const combatant = (x: PlayerIndex) => (i: Initiation) => i.a === x || i.b === x
  // Ticks t - battleCooldown .. t - 1, or earlier in this step.
  const cooling = (i: Initiation): boolean => inStep(i) || (i.tick >= tick - terms.battleCooldown && i.tick <= tick - 1)
  if (initiations.some((i) => cooling(i) && (combatant(p)(i) || combatant(q)(i)))) return 'cooldown'
  const pair = (i: Initiation): boolean => (i.a === p && i.b === q) || (i.a === q && i.b === p)
  if (initiations.some((i) => pair(i) && i.tick >= tick - terms.rematchTicks && i.tick <= tick - 1)) return 'rematch'
  return null
}

export interface BattleOutcome {
  readonly spent: readonly [number, number]
  readonly ships: readonly [Ship, Ship]
  /** 0 for the initiator, 1 for the target, null when both spent the same (S-42 step 3). */
  readonly winner: 0 | 1 | null
}

/** S-42: resolves a battle between ships `a` and `b` on bids that count after S-41. */
export function resolveBattle(a: Ship, b: Ship, bids: readonly [number, number]): BattleOutcome {
  // Step 1: each spends N = min(bid, energy).
  const na = Math.min(bids[0], a.energy)
  const nb = Math.min(bids[1], b.energy)
  // Step 2: each loses min(its armour, the other's N); step 3: spending decides.
  const ships = [
    { ...a, energy: a.energy - na, armour: a.armour - Math.min(a.armour, nb), engaging: false },
    { ...b, energy: b.energy - nb, armour: b.armour - Math.min(b.armour, na), engaging: false },
  ] as const
  return { spent: [na, nb], ships, winner: na > nb ? 0 : nb > na ? 1 : null }
}

/**
 * S-43: the fames of winner and loser after a battle with a winner, from their fames before it.
 * The winner rises by 1 if the loser is infamous, else falls by 1; the loser moves toward 0.
 */
export function fameAfter(winnerFame: number, loserFame: number): readonly [number, number] {
  const winner = clamp(winnerFame + (loserFame < 0 ? 1 : -1), -LIMITS.maxFame, LIMITS.maxFame)
  return [winner, towardZero(loserFame)]
}
