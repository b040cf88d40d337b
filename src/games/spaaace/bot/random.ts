/**
 * The random bot: a well-formed order set (S-37) drawn at random, blind to everything in the
 * state but its own ship's sector and the size of the galaxy. It is the baseline the arena
 * measures the sensible bot against.
 *
 * The legal order sets are infinitely many (a path may be any length), so "uniform" is per item:
 * each order (`repair`, `buy`, `move`, `attack`, `bid`, `claim`) is in the set with probability
 * 1/2, its number uniform over the range S-37 allows (`repair`/`buy` 1..20, `bid` 0..20), its
 * target uniform over the other players of the roster; each other player is named by `ally`, by
 * `break`, or by neither, with probability 1/3 each; a path is 1 to 3 steps, each to a sector
 * drawn uniformly among those adjacent at that moment (S-11, S-33), so that the ship does move
 * (uniform ranks would nearly always stop at the first step, S-38).
 *
 * (The referee's generator, `randomOrders` in referee/random.ts, is not used: it is not exported,
 * and it is tilted toward sensible play, bidding when a battle awaits and claiming at fame 10.)
 */
import type { Rng } from '../referee/random.js'
import { isAdjacent, sectorCount, wormholeOf } from '../rules/state.js'
import { LIMITS, type AllianceOrder, type OrderSet } from '../rules/types.js'
import type { BotView, SpaaaceBot } from './bot.js'

/** An integer uniform in lo..hi. */
export function uniformInt(rng: Rng, lo: number, hi: number): number {
  return lo + Math.min(hi - lo, Math.floor(rng.next() * (hi - lo + 1)))
}

function coin(rng: Rng): boolean {
  return rng.next() < 0.5
}

function pickFrom<T>(rng: Rng, items: readonly T[]): T {
  const x = items[uniformInt(rng, 0, items.length - 1)]
  if (x === undefined) throw new RangeError('pick from nothing')
  return x
}

/** The random order set of `view.self`; every draw from `rng`, in a fixed order. */
export function randomOrderSet({ self, state }: BotView, rng: Rng): OrderSet {
  const n = state.players.length
  const sectors = sectorCount(n)
  const others = [...state.players.keys()].filter((i) => i !== self)
  const alliances: AllianceOrder[] = []
  for (const other of others) {
    const r = uniformInt(rng, 0, 2)
    if (r === 1) alliances.push({ kind: 'ally', other })
    if (r === 2) alliances.push({ kind: 'break', other })
  }
  const repair = coin(rng) ? uniformInt(rng, 1, LIMITS.maxOrderN) : null
  const buy = coin(rng) ? uniformInt(rng, 1, LIMITS.maxOrderN) : null
  let move: number[] | null = null
  if (coin(rng)) {
    const wormhole = wormholeOf(state.terms, n, state.tick + 1)
    let at = state.ships[self]?.sector ?? 1
    move = []
    for (let k = uniformInt(rng, 1, 3); k > 0; k--) {
      const from = at
      const next = Array.from({ length: sectors }, (_, r) => r + 1).filter((r) => isAdjacent(from, r, wormhole))
      at = pickFrom(rng, next)
      move.push(at)
    }
  }
  const attack = coin(rng) ? pickFrom(rng, others) : null
  const bid = coin(rng) ? uniformInt(rng, 0, LIMITS.maxOrderN) : null
  const claim = coin(rng)
  return { repair, buy, move, attack, bid, claim, alliances }
}

export const randomBot: SpaaaceBot = { name: 'random', orders: randomOrderSet }
