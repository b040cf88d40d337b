/**
 * `spaceships/referee`: adjudicates an open game record (protocol/GAME-RECORD.md) turn by turn, or
 * names its first illegal setup or record with the player, the turn and the rule. Pure.
 */
export type {
  Adjudication,
  DestructionView,
  EndView,
  ExchangeView,
  FlashcubeView,
  GameView,
  OffenceView,
  PlayerName,
  PlayerTurnView,
  TurnView,
} from './adjudicate.js'
export { adjudicate } from './adjudicate.js'
export { type FileError, type GameRecordFile, formatGameRecord, parseGameRecord } from './file.js'
export { renderAdjudication } from './render.js'
export { randomGameRecord } from './simulate.js'
