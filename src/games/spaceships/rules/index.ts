/**
 * `spaceships/rules`: the rules engine (rules 2.6.1 and classic), pure and deterministic: no I/O,
 * no crypto, no clock (DESIGN.md §4). Cells, setups and records in notation (protocol/NOTATION.md),
 * legality, resolution of a turn and scores.
 */
export { type Cell, ALL_CELLS, formatCell, parseCell } from './coords.js'
export { type EntitlementView, entitlementLine, entitlementView } from './entitlement-view.js'
export { type RandomGame, playRandomGame, randomRecord, randomSetup } from './enumerate.js'
export { type Result, type RuleViolation, type ViolationCode, describeViolation } from './errors.js'
export {
  type GameEnd,
  type GameState,
  type MatchKind,
  type PlayerIndex,
  type TurnReport,
  PLAYER_NAMES,
  matchScores,
  matchWinner,
  nextAdditional,
  playTurn,
  scoresOf,
  startGame,
} from './game.js'
export { type CheckedRecord, checkRecord, readRecord } from './legality.js'
export { type Action, type ActionRecord, formatRecord, parseRecord } from './record.js'
export type { DestructionReport, Exchange, FlashcubeEntry, PlayerTurn } from './resolve.js'
export { type RandomSource, seededRandom } from './rng.js'
export { type Ruleset, CLASSIC_RULESET, DEFAULT_RULESET, formatRuleset, parseRuleset } from './ruleset.js'
export {
  type NotationMode,
  type PlacedShip,
  type Setup,
  formatSetup,
  parseSetup,
  readSetup,
  validateSetup,
} from './setup.js'
export { type ShipType, type Variant, ALL_SHIP_TYPES, SHIP_TYPES } from './ships.js'
export { type Entitlements, type PlayerState, type Ship, entitlements, initialPlayerState } from './state.js'
