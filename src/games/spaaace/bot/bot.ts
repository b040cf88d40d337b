/**
 * The Spaaace! bots' interface (rules/spaaace.md). A bot is a pure function: from what its player
 * may know when it orders, and an injected source of randomness, the order set it commits to for
 * the next tick. No clock, no I/O; any search is bounded by a count of evaluations.
 *
 * What a player may know (S-60, S-70): every closing state is public (every player signs its
 * hash, and the open record prints it), so a bot is given the whole closing state of the last
 * tick. What is sealed is this tick's order sets, bids included, committed before any is revealed
 * (S-41, S-42): a bot is given none of them, so it cannot see an opponent's bid before its own.
 */
import type { Rng } from '../referee/random.js'
import { submissionOf } from '../referee/record.js'
import { formatOrderSet } from '../rules/orders.js'
import { EMPTY_ORDERS, type GameState, type OrderSet, type PlayerIndex, type Submission } from '../rules/types.js'

/** What player `self` knows when it orders for tick `state.tick + 1`: the public closing state (S-70). The terms are `state.terms`, bound at genesis (S-90). */
export interface BotView {
  readonly self: PlayerIndex
  readonly state: GameState
}

export interface SpaaaceBot {
  readonly name: string
  /**
   * The order set of `view.self` for tick `view.state.tick + 1`, for an active player of a game
   * that has not ended. Never malformed (S-37): `orderSetProblem` of it is null.
   */
  readonly orders: (view: BotView, rng: Rng) => OrderSet
}

/** Labels for a roster of `players` (3..16): the record's labels (rules appendix). */
export function seatLabels(players: number): string[] {
  return Array.from({ length: players }, (_, i) => `p${i + 1}`)
}

/**
 * What player `self` of a `players`-player roster would have counted for `orders` had it sent
 * them as text: the record's reading (`submissionOf`, which parses by S-37 as the engine's
 * reader does). An order set the text cannot carry (a self-target, a rank outside the galaxy, a
 * fraction, an N out of range, a repeated `ally`/`break`) reads as malformed; one the text
 * carries but not as given (which the round trip would change) is malformed too.
 */
export function submissionFor(orders: OrderSet, self: PlayerIndex, players: number): Submission {
  const roster = seatLabels(players)
  const text = formatOrderSet(orders, roster)
  const read = submissionOf(text, roster, self)
  if (read.kind !== 'orders') return read
  if (JSON.stringify(read.orders) !== JSON.stringify(canonical(orders)))
    return { kind: 'malformed', reason: `"${text}" does not read back as the order set given (S-37)` }
  return read
}

/** The reason `orders` is malformed for `self` in a `players`-player game (S-37), or null when it is well formed. */
export function orderSetProblem(orders: OrderSet, self: PlayerIndex, players: number): string | null {
  const s = submissionFor(orders, self, players)
  return s.kind === 'malformed' ? s.reason : null
}

/** The order set with its fields in the order the reader builds them, for comparison. */
function canonical(o: OrderSet): OrderSet {
  return {
    ...EMPTY_ORDERS,
    repair: o.repair,
    buy: o.buy,
    move: o.move === null ? null : [...o.move],
    attack: o.attack,
    bid: o.bid,
    claim: o.claim,
    alliances: o.alliances.map((a) => ({ kind: a.kind, other: a.other })),
  }
}
