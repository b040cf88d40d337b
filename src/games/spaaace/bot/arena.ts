/**
 * The Spaaace! arena: whole games played in memory by bots, with the rules engine alone, to
 * measure them. Pure and seeded: the same options play the same games to the same closing states.
 *
 * Each bot's order set goes through the record's reader (`submissionFor`, S-37) before the engine
 * sees it, as a real player's text would, so a malformed set counts as malformed (S-37, S-80: the
 * player is removed) and is reported; the engine itself takes whatever order set it is given.
 */
import { seededRng, type Rng } from '../referee/random.js'
import { genesis } from '../rules/state.js'
import { playTick } from '../rules/tick.js'
import {
  DEFAULT_TERMS,
  LIMITS,
  type GameState,
  type OrderSet,
  type PlayerIndex,
  type Submission,
  type Terms,
} from '../rules/types.js'
import { submissionFor, type SpaaaceBot } from './bot.js'

export interface ArenaOptions {
  /** The bots, one per seat: 3 to 16 (S-01). */
  readonly lineup: readonly SpaaaceBot[]
  readonly games: number
  /** The only randomness: in game g, seat s draws from `seededRng(`${seed}/${g}/${s}`)`. */
  readonly seed: string
  /** Default: the rules' defaults (S-90). */
  readonly terms?: Terms
  /**
   * Whether seat s takes roster place (s + g) mod K in game g (default true): the roster orders
   * the starting sectors and the initiations (S-21, S-40), so no seat keeps the first place.
   */
  readonly rotate?: boolean
  /** Called with every order set of every bot, before the tick is played (tests watch through it). */
  readonly observe?: (move: ArenaMove) => void
}

/** One order set of one bot. */
export interface ArenaMove {
  readonly game: number
  readonly seat: number
  readonly player: PlayerIndex
  readonly state: GameState
  readonly orders: OrderSet
  readonly submission: Submission
}

/** A malformed set a bot sent (S-37). */
export interface IllegalOrders {
  readonly game: number
  readonly tick: number
  readonly seat: number
  readonly reason: string
}

export interface ArenaGame {
  readonly game: number
  /** Roster place to seat. */
  readonly roster: readonly number[]
  readonly ticks: number
  /** The winning seats, in seat order (S-50, S-51, S-82). */
  readonly winners: readonly number[]
  readonly closing: GameState
}

export interface Standing {
  readonly seat: number
  readonly bot: string
  /** Games this seat won, alone or with others (S-50, S-51 let winners win together). */
  readonly wins: number
  readonly soleWins: number
  /** Mean fame at the end (S-43). */
  readonly meanFame: number
}

export interface ArenaReport {
  readonly games: readonly ArenaGame[]
  /** In seat order. */
  readonly standings: readonly Standing[]
  /** Games that ended with no winner (S-51: no fame above 0). */
  readonly noWinner: number
  readonly illegal: readonly IllegalOrders[]
  readonly meanTicks: number
}

/** One game: roster place i is played by `lineup[roster[i]]`, drawing from `rngs[roster[i]]`. */
function playGame(
  game: number,
  lineup: readonly SpaaaceBot[],
  roster: readonly number[],
  rngs: readonly Rng[],
  terms: Terms,
  illegal: IllegalOrders[],
  observe: ArenaOptions['observe'],
): ArenaGame {
  let state = genesis(roster.length, terms)
  while (!state.ended) {
    const now = state
    const subs = roster.map((seat, player): Submission => {
      if (now.players[player]?.status !== 'active') return { kind: 'missing' }
      const bot = lineup[seat]
      const rng = rngs[seat]
      if (bot === undefined || rng === undefined) throw new RangeError(`no bot at seat ${seat}`)
      const orders = bot.orders({ self: player, state: now }, rng)
      const submission = submissionFor(orders, player, roster.length)
      if (submission.kind === 'malformed') illegal.push({ game, tick: now.tick + 1, seat, reason: submission.reason })
      observe?.({ game, seat, player, state: now, orders, submission })
      return submission
    })
    state = playTick(state, subs).state
  }
  const winners = state.winners.map((p) => roster[p] ?? -1).sort((a, b) => a - b)
  return { game, roster, ticks: state.tick, winners, closing: state }
}

/** Plays `games` games of the lineup and returns the standings. */
export function arena(options: ArenaOptions): ArenaReport {
  const { lineup, games, seed } = options
  const k = lineup.length
  if (k < LIMITS.minPlayers || k > LIMITS.maxPlayers)
    throw new RangeError(`a game has ${LIMITS.minPlayers} to ${LIMITS.maxPlayers} players, not ${k} (S-01)`)
  const terms = options.terms ?? DEFAULT_TERMS
  const illegal: IllegalOrders[] = []
  const played: ArenaGame[] = []
  for (let g = 0; g < games; g++) {
    const shift = (options.rotate ?? true) ? g % k : 0
    // Roster place i holds the seat s with (s + shift) mod k = i.
    const roster = Array.from({ length: k }, (_, i) => (i - shift + k) % k)
    const rngs = lineup.map((_, seat) => seededRng(`${seed}/${g}/${seat}`))
    played.push(playGame(g, lineup, roster, rngs, terms, illegal, options.observe))
  }
  const standings = lineup.map((bot, seat): Standing => {
    let wins = 0
    let soleWins = 0
    let fame = 0
    for (const p of played) {
      if (p.winners.includes(seat)) wins++
      if (p.winners.length === 1 && p.winners[0] === seat) soleWins++
      fame += p.closing.players[p.roster.indexOf(seat)]?.fame ?? 0
    }
    return { seat, bot: bot.name, wins, soleWins, meanFame: games === 0 ? 0 : fame / games }
  })
  return {
    games: played,
    standings,
    noWinner: played.filter((p) => p.winners.length === 0).length,
    illegal,
    meanTicks: games === 0 ? 0 : played.reduce((sum, p) => sum + p.ticks, 0) / games,
  }
}
