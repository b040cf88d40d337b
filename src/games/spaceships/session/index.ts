/**
 * `spaceships/session`: one player's side of the game protocol (protocol/SPEC.md §6) over any
 * message channel: in memory, over libp2p (`spaceships/net`), or one of your own. A strategy
 * chooses the setup and the records; the session commits, signs, checks the other side, persists
 * every envelope before it is sent or acted on, and ends with this side's verdict.
 */
export {
  type SessionEvent,
  type SessionOptions,
  type SessionResult,
  describeOffence,
  runSession,
  termsProblem,
} from './session.js'
export { type Channel, type MemoryPair, type Received, memoryChannelPair } from '../../../core/session/channel.js'
export {
  type PlayerStrategy,
  type Resignation,
  type TurnContext,
  type TurnSummary,
  RESIGN,
  isResignation,
  randomStrategy,
} from './strategy.js'
export { type Clock, VirtualClock, systemClock } from '../../../core/session/clock.js'
export { StorageError, fileStore } from './store.js'
export { type Journal, fileJournal, journaledSecrets, journaledStrategy, memoryJournal } from './journal.js'
export { type TranscriptStore, formatTranscript, memoryStore, parseTranscript } from '../protocol/file.js'
export { type MatchTerms, type Role, type Terms, DEFAULT_TERMS, SINGLE_GAME } from '../protocol/messages.js'
export { type KeyPair, generateKeyPair, keyPairFromSecret } from '../../../core/commit/keys.js'
export { type SecretSource, seededSecrets, systemSecrets } from '../../../core/commit/secrets.js'
