/**
 * What the notary's request handlers share (NOTARY.md §7.5): who asks, a game as the notary holds
 * it, and refusals.
 */
import type { NotaryResponse, RefusalCode } from '../notary/messages.js'
import type { Receipt } from '../notary/receipt.js'
import type { GameRegistration } from './registrar.js'

/** Who asks: the connection's PeerId (for rates) and its Ed25519 key when it has one. */
export interface Requester {
  readonly peer: string
  readonly key: Uint8Array | undefined
}

/** A registered game as the notary holds it in memory: the game's answers and the decoded log. */
export interface GameState {
  readonly game: Uint8Array
  /** The game's answers, read with authors as numbers (a two-player game's are sides). */
  readonly reg: GameRegistration<number>
  readonly log: Receipt<number>[]
  sealed: boolean
}

export function refusal(code: RefusalCode, message: string): NotaryResponse {
  return { kind: 'refused', code, message }
}
