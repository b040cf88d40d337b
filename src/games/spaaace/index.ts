/**
 * `spaceships/spaaace`: the Spaaace! rules engine (`../shared/rules/spaaace.md`, tags S-nn) and
 * the open-game referee that reads the rules' appendix record (docs/SPAAACE-REFEREE.md), and the
 * bots (a random one, a sensible one) with their arena. Pure:
 * no I/O, no clock, randomness only from an injected seed.
 */
export {
  type AllianceOrder,
  type Battle,
  type Claim,
  type GameState,
  type NumericTerm,
  type Offence,
  type OffenceRule,
  type OptionTerm,
  type OrderSet,
  type PlayerIndex,
  type PlayerState,
  type PlayerStatus,
  type Ship,
  type Submission,
  type Terms,
  DEFAULT_TERMS,
  EMPTY_ORDERS,
  LIMITS,
  NUMERIC_TERMS,
  OFFENCE_RULES,
  OPTIONS,
} from './rules/types.js'
export { type ParsedOrders, ORDER_WORDS, type OrderWord, formatOrderSet, parseOrderSet } from './rules/orders.js'
export { genesis, sectorCount, termsProblem, wormholeOf } from './rules/state.js'
export { type TickEvent, type TickOutcome, playTick } from './rules/tick.js'
export { type BattleOutcome, fameAfter, resolveBattle } from './rules/battle.js'
export { type RefereeResult, type RefereeTick, referee } from './referee/referee.js'
export { closingStateJson } from './referee/json.js'
export { describeTick } from './referee/words.js'
export { type Rng, randomRecord, seededRng } from './referee/random.js'
export { type BotView, type SpaaaceBot, orderSetProblem, seatLabels, submissionFor } from './bot/bot.js'
export { randomBot, randomOrderSet } from './bot/random.js'
export { DEFAULT_BUDGET, type SensibleChoice, sensibleBot, sensibleChoice } from './bot/sensible.js'
export {
  type ArenaGame,
  type ArenaMove,
  type ArenaOptions,
  type ArenaReport,
  type IllegalOrders,
  type Standing,
  arena,
} from './bot/arena.js'
export {
  SCREEN_COLUMNS,
  type ScreenInput,
  type Seat,
  type StandingRow,
  orderGuide,
  renderScreen,
  seatName,
  standings,
  standingsLines,
  tellTick,
  timeText,
} from './ui/screen.js'
export {
  type Answer,
  type LocalGameOptions,
  type LocalGameResult,
  type OrderPrompter,
  type SeatPlayer,
  playLocalGame,
  readAnswer,
  recordHead,
} from './ui/game.js'
// The many-player protocol's bytes (protocol/SPAAACE-PEERS.md §2, §3, §4, §10), as the `peers`
// namespace: every name it holds is listed in peers/peers.ts.
import * as peers from './peers/peers.js'
export { peers }
