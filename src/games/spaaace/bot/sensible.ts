/**
 * The sensible bot: plays to win by the rules, one tick at a time, from the public closing state.
 *
 * How a game is won, and what follows for play:
 * - S-51, S-50: the greatest fame above 0 at `maxTicks` wins, or a claim at fame 10 that stands
 *   two ticks with the ship pilotable. So fame is all that counts; coins, energy and armour are
 *   means.
 * - S-43: a winner's fame rises by 1 only if the loser is infamous, and falls by 1 otherwise; the
 *   loser moves one point toward 0. So the bot attacks only players whose defeat raises its fame
 *   (`fameAfter`: in practice the infamous), and in a battle it bids to win only when winning is
 *   worth more to it than losing; otherwise it bids 0, which ties with a 0 bid (no change) or
 *   loses (toward 0) at no cost in energy.
 * - S-42: the winner is who spent more, and spending is min(bid, energy); both energies are public
 *   and neither ship gains or buys energy while engaging (S-23, S-70 step 2, S-32). So with more
 *   energy than the opponent it bids the opponent's energy + 1, a certain win at the least cost;
 *   with no more, it bids all it has.
 * - S-40: a battle starts only between pilotable ships in one sector after the moves, outside the
 *   cooldown and rematch windows, and not between allies. The bot checks its attack with the
 *   engine's own `initiationRefusal` on the positions it expects (the target stays where it is).
 * - S-04, S-31: allies cannot attack each other, and a declaration is broken at step 1, before the
 *   initiations of step 7. So it declares alliance with every player whose defeat would not raise
 *   its fame (a shield, when they declare too), breaks with the others (so it can attack them in
 *   the same tick), and declares alliance with everyone while its claim stands.
 * - S-30, S-32, S-22: armour costs 1 coin a point, energy 2, and a defeated ship is not pilotable
 *   (no energy income, no moves, no attack, no claim). So it repairs all damage first, buys the
 *   energy an attack needs, and otherwise buys only with coins beyond a full repair's worth.
 * - S-33, S-11: moving costs 1 energy a step, so a move is weighed against the energy left to bid.
 * - S-50: at fame 10 it claims, and while its claim stands it attacks nobody and keeps as far as it
 *   can from ships that could reach it, since any attack on it stops the claim.
 *
 * The search: each plan is a sector to move to (within the energy it has) and a player to attack
 * there, or none; each is scored once (an evaluation) by its expected change of fame (the
 * opponent's spend taken uniform over what its energy allows; a target that is free to move
 * taken to stay with probability 1/2), less a small cost per step and a penalty for sectors near
 * ships that may attack. At most `budget` plans are scored, nearest sectors first, staying put
 * first of all; ties are broken by `rng`.
 */
import { fameAfter, initiationRefusal } from '../rules/battle.js'
import { isAdjacent, isPilotable, sectorCount, wormholeOf } from '../rules/state.js'
import { EMPTY_ORDERS, LIMITS, type AllianceOrder, type OrderSet, type PlayerIndex, type Ship } from '../rules/types.js'
import type { Rng } from '../referee/random.js'
import type { BotView, SpaaaceBot } from './bot.js'

/** Plans scored per decision by default: every sector and target of a 16-player game (18 x 16). */
export const DEFAULT_BUDGET = 288

/** The order set chosen and the work it took. */
export interface SensibleChoice {
  readonly orders: OrderSet
  /** Plans scored, at most the budget. */
  readonly evaluations: number
}

/** Score of a step moved: small, so that of equal plans the shorter is taken. */
const STEP_COST = 0.02
/** Penalty per opponent that could attack the ship where it ends, without and with a standing claim. */
const THREAT = 0.05
const CLAIM_THREAT = 1
/** Pull toward a sector near a player worth attacking, for the ticks after this one. */
const APPROACH = 0.1
/** Probability that a target free to move stays where it is. */
const STAY = 0.5

/** Distances (steps) from `from` to every rank in this tick's galaxy (S-11, S-33), in order of discovery. */
function distances(from: number, sectors: number, wormhole: readonly [number, number] | null): Map<number, number> {
  const dist = new Map<number, number>([[from, 0]])
  const queue = [from]
  for (let at = queue.shift(); at !== undefined; at = queue.shift()) {
    const d = dist.get(at) ?? 0
    for (let r = 1; r <= sectors; r++) {
      if (dist.has(r) || !isAdjacent(at, r, wormhole)) continue
      dist.set(r, d + 1)
      queue.push(r)
    }
  }
  return dist
}

/** A shortest path from `from` to `to` (the ranks entered), by the distances from `from`. */
function pathTo(
  from: number,
  to: number,
  dist: ReadonlyMap<number, number>,
  sectors: number,
  wormhole: readonly [number, number] | null,
): number[] {
  const path: number[] = []
  for (let at = to; at !== from;) {
    path.unshift(at)
    const d = dist.get(at) ?? 0
    let prev = from
    for (let r = 1; r <= sectors; r++)
      if (dist.get(r) === d - 1 && isAdjacent(r, at, wormhole)) {
        prev = r
        break
      }
    at = prev
  }
  return path
}

/** The sensible order set of `view.self`, with the number of plans scored (at most `budget`). */
export function sensibleChoice({ self, state }: BotView, rng: Rng, budget: number = DEFAULT_BUDGET): SensibleChoice {
  const { terms } = state
  const n = state.players.length
  const t = state.tick + 1
  const me = state.players[self]
  const ship = state.ships[self]
  if (me === undefined || ship === undefined) return { orders: EMPTY_ORDERS, evaluations: 0 }
  const others = [...state.players.keys()].filter((i) => i !== self && state.players[i]?.status === 'active')
  const fameOf = (i: PlayerIndex): number => state.players[i]?.fame ?? 0
  const shipOf = (i: PlayerIndex): Ship => state.ships[i] ?? ship
  /** My change of fame if I beat `q`, and if `q` beats me (S-43). */
  const gains = (q: PlayerIndex): { win: number; lose: number } => ({
    win: fameAfter(me.fame, fameOf(q))[0] - me.fame,
    lose: fameAfter(fameOf(q), me.fame)[1] - me.fame,
  })
  const worthBeating = (q: PlayerIndex): boolean => {
    const g = gains(q)
    return g.win > g.lose && g.win > 0
  }

  // S-41, S-42: the bid in the battle awaiting mine, if any.
  let bid: number | null = null
  const battle = state.awaiting.find((b) => b.a === self || b.b === self)
  if (battle !== undefined) {
    const q = battle.a === self ? battle.b : battle.a
    const g = gains(q)
    bid = g.win > g.lose ? Math.min(ship.energy, shipOf(q).energy + 1, LIMITS.maxOrderN) : 0
  }

  // S-50: claim at fame 10 (or -10 under `infamyWins`) when no claim of mine stands.
  const extreme = me.fame === LIMITS.maxFame || (terms.infamyWins && me.fame === -LIMITS.maxFame)
  const standing = state.claims.some((c) => c.player === self)
  const claim = extreme && !standing
  const claiming = standing || claim

  // S-04, S-31: allied with all but those worth beating; with everyone while claiming.
  const declared = new Set(state.declarations.filter(([p]) => p === self).map(([, q]) => q))
  const alliances: AllianceOrder[] = []
  for (const q of others) {
    const want = claiming || !worthBeating(q)
    if (want && !declared.has(q)) alliances.push({ kind: 'ally', other: q })
    if (!want && declared.has(q)) alliances.push({ kind: 'break', other: q })
  }

  // S-24, S-70 step 2, S-30: income, energy, then a repair of all damage, cut to the coins.
  const pilotableNow = isPilotable(ship)
  const coins = me.coins + terms.income
  const energy = pilotableNow ? Math.min(LIMITS.maxEnergy, ship.energy + LIMITS.tickEnergy) : ship.energy
  const repairWanted = ship.engaging ? 0 : LIMITS.maxArmour - ship.armour
  const repairPoints = Math.min(repairWanted, Math.floor(coins / LIMITS.armourPrice))
  const coinsLeft = coins - repairPoints * LIMITS.armourPrice
  // After the repair, can the ship buy and move this tick (S-32, S-33)?
  const canAct = !ship.engaging && ship.armour + repairPoints > 0
  const affordable = canAct
    ? Math.min(Math.floor(coinsLeft / LIMITS.energyPrice), LIMITS.maxEnergy - energy, LIMITS.maxOrderN)
    : 0

  // The plans: a sector (nearest first) and a target there, or none.
  const sectors = sectorCount(n)
  const wormhole = wormholeOf(terms, n, t)
  const dist = canAct ? distances(ship.sector, sectors, wormhole) : new Map([[ship.sector, 0]])
  const reachable = [...dist].filter(([, d]) => d <= energy + affordable)
  // Where the others may be able to attack from: their sectors now; engaging ships cannot move.
  const threatsAt = (d: number): number => {
    let sum = 0
    for (const q of others) {
      const s = shipOf(q)
      if (s.armour === 0) continue
      const reach = s.engaging ? 0 : claiming ? s.energy + LIMITS.tickEnergy : 1
      if (Math.abs(s.sector - d) <= reach) sum += claiming ? CLAIM_THREAT : THREAT
    }
    return sum
  }
  // S-40 on the positions expected after the moves and battles of this tick (no ship engaging).
  const expected = state.ships.map((s) => ({ ...s, engaging: false }))
  const targets = others.filter((q) => worthBeating(q) && shipOf(q).armour > 0)

  interface Plan {
    readonly sector: number
    readonly target: PlayerIndex | null
    readonly buy: number
    readonly score: number
  }
  let evaluations = 0
  let best: Plan[] = []
  const consider = (plan: Plan): void => {
    const top = best[0]
    if (top === undefined || plan.score > top.score + 1e-9) best = [plan]
    else if (Math.abs(plan.score - top.score) <= 1e-9) best.push(plan)
  }
  search: for (const [sector, steps] of reachable) {
    for (const target of [null, ...(claiming ? [] : targets)]) {
      if (evaluations >= budget) break search
      evaluations++
      let score = -STEP_COST * steps - threatsAt(sector)
      let buy: number
      if (target === null) {
        // Between fights: keep a full repair's worth of coins, and go near those worth beating.
        const spare = Math.floor(Math.max(0, coinsLeft - LIMITS.maxArmour) / LIMITS.energyPrice)
        buy = Math.min(affordable, spare)
        if (energy + buy < steps) continue
        for (const q of targets) score += APPROACH / (1 + Math.abs(shipOf(q).sector - sector))
      } else {
        const ts = shipOf(target)
        const mine: Ship = { ...ship, sector, armour: ship.armour + repairPoints, engaging: false }
        const ships = expected.map((s, i) => (i === self ? mine : s))
        if (initiationRefusal(self, target, t, ships, false, state.initiations, terms) !== null) continue
        // Its energy at the resolution: now, plus this tick's income, plus what it could buy.
        const theirsNow = isPilotable(ts) ? Math.min(LIMITS.maxEnergy, ts.energy + LIMITS.tickEnergy) : ts.energy
        const theirCoins = (state.players[target]?.coins ?? 0) + terms.income
        const theirsMost = isPilotable(ts)
          ? Math.min(LIMITS.maxEnergy, theirsNow + Math.floor(theirCoins / LIMITS.energyPrice))
          : theirsNow
        // Buy what makes the win certain, if it can; else all it can.
        const want = Math.min(LIMITS.maxEnergy, theirsMost + 1) + steps - energy
        buy = Math.max(0, Math.min(affordable, want))
        const spend = Math.min(LIMITS.maxEnergy, energy + buy) - steps
        if (spend < 0) continue
        const pWin = spend > theirsMost ? 1 : Math.min(1, spend / (theirsNow + 1))
        const g = gains(target)
        const stay = ts.engaging ? 1 : STAY
        const value = stay * (pWin * g.win + (1 - pWin) * g.lose)
        if (value <= 0) continue
        score += value
      }
      consider({ sector, target, buy, score })
    }
  }
  const chosen: Plan = best.length === 0 ? { sector: ship.sector, target: null, buy: 0, score: 0 } : pick(rng, best)
  const move = chosen.sector === ship.sector ? null : pathTo(ship.sector, chosen.sector, dist, sectors, wormhole)
  const orders: OrderSet = {
    repair: repairWanted > 0 ? Math.min(repairWanted, LIMITS.maxOrderN) : null,
    buy: chosen.buy > 0 ? chosen.buy : null,
    move,
    attack: chosen.target,
    bid,
    claim,
    alliances,
  }
  return { orders, evaluations }
}

function pick<T>(rng: Rng, items: readonly T[]): T {
  const x = items[Math.min(items.length - 1, Math.floor(rng.next() * items.length))]
  if (x === undefined) throw new RangeError('pick from nothing')
  return x
}

/** The sensible bot with a budget of `budget` plans scored per decision. */
export function sensibleBot(budget: number = DEFAULT_BUDGET): SpaaaceBot {
  return { name: 'sensible', orders: (view, rng) => sensibleChoice(view, rng, budget).orders }
}
