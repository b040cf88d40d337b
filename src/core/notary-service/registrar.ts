/**
 * What the notary needs to know of a game, and only the game can say (NOTARY.md §7.5): the game
 * implements a `Registrar`, the core stays game-agnostic. Every method is a pure function of its
 * arguments (the notary calls `register` again on the stored hellos after a restart, so it must
 * give the same answer for the same bytes).
 */
import type { NotaryDomain } from '../notary/domain.js'
import type { SubmissionHeader } from '../notary/header.js'
import type { Receipt } from '../notary/receipt.js'

/** A game the notary may register, as the game reads its two hellos. */
export interface GameRegistration {
  /** The game id both hellos fix (32 bytes). */
  readonly game: Uint8Array
  /** The hello keys of A and B (Ed25519, 32 bytes each). */
  readonly keys: readonly [Uint8Array, Uint8Array]
  /** The notary key A's terms name (PROTOCOL-4.md §3). */
  readonly notaryKey: Uint8Array
  /** PROTOCOL-4.md §5.2: the padding floor of an opened envelope (4,096 for a turn, else 256). */
  paddingFloor(envelope: Uint8Array): number
  /**
   * PROTOCOL-4.md §5.3: whether `envelope` is an envelope of this game at the header's sender and
   * `seq`, whose hash is the header's `envelopeHash`.
   */
  envelopeMatches(envelope: Uint8Array, header: SubmissionHeader): boolean
  /**
   * PROTOCOL-4.md §4.6: the earliest time at which the log may be sealed (an end-step receipt of
   * each side after both reveals: the last one's time; a receipted stop: its answer step's
   * deadline, or the answer's receipt time), or undefined while the log does not show the game over.
   */
  sealWhen(log: readonly Receipt[]): number | undefined
}

export type Registration =
  { readonly ok: true; readonly game: GameRegistration } | { readonly ok: false; readonly reason: string }

export interface Registrar {
  /** The game's domain tags (NOTARY.md §2). */
  readonly domain: NotaryDomain
  /**
   * PROTOCOL-4.md §4.1: checks two hellos: B's acknowledges A's, A's terms name a notary, neither
   * refuses, both decode. The notary itself checks the key named is its own and both keys usable.
   */
  register(helloA: Uint8Array, helloB: Uint8Array): Registration
}
