/**
 * What the notary needs to know of a game, and only the game can say (NOTARY.md §7.5): the game
 * implements a `Registrar`, the core stays game-agnostic. Every method is a pure function of its
 * arguments (the notary calls `register` again on the stored hellos after a restart, so it must
 * give the same answer for the same bytes).
 */
import type { NotaryDomain } from '../notary/domain.js'
import type { Side, SubmissionHeader } from '../notary/header.js'
import type { Receipt } from '../notary/receipt.js'

/**
 * A game the notary may register, as the game reads its two hellos or its genesis body. The
 * fields after `sealWhen` are SPAAACE-WITNESSED §9.3's, for n-player games; each one absent keeps
 * NOTARY.md's two-player rule (so Spaceships' registration is what it was).
 */
export interface GameRegistration<S extends number = Side> {
  /** The game id both hellos (the genesis) fix (32 bytes). */
  readonly game: Uint8Array
  /** The players' keys in author order: A and B, or the roster (Ed25519, 32 bytes each). */
  readonly keys: readonly Uint8Array[]
  /** The notary key A's terms name (PROTOCOL-4.md §3). */
  readonly notaryKey: Uint8Array
  /** PROTOCOL-4.md §5.2: the padding floor of an opened envelope (4,096 for a turn, else 256). */
  paddingFloor(envelope: Uint8Array): number
  /**
   * PROTOCOL-4.md §5.3: whether `envelope` is an envelope of this game at the header's sender and
   * `seq`, whose hash is the header's `envelopeHash`.
   */
  envelopeMatches(envelope: Uint8Array, header: SubmissionHeader<S>): boolean
  /**
   * PROTOCOL-4.md §4.6: the earliest time at which the log may be sealed (an end-step receipt of
   * each side after both reveals: the last one's time; a receipted stop: its answer step's
   * deadline, or the answer's receipt time), or undefined while the log does not show the game over.
   */
  sealWhen(log: readonly Receipt<S>[]): number | undefined
  /** §3, §9.2: the last time the game may be registered (`G_1`; refusal 25 after it). */
  readonly registerBy?: number
  /** §9.2: `C_{maxTicks+1} + L`, refused (26) further than MAX_HORIZON_MS from the notary's now. */
  readonly horizon?: number
  /** §6.2: the highest `t` a mark may name (`maxTicks + 1`); absent: marks are refused (28). */
  readonly maxMarkTick?: number
  /** §6.2: `X(t, cut)`: `C_t` for cut 0, `R_t` for cut 1. */
  cutTime?(t: number, cut: 0 | 1): number
  /** §9.2: the highest `seq` receipted while the notary's time is `now` (`SEQ_W(tick(now))`, refusal 29). */
  seqBound?(now: number): number
  /** §5.1: the one deposit size of the game (`DEP(n)`, refusal 7). */
  readonly depositBytes?: number
  /** §5.1: whether a header's flags, `deadline` and `seen` are allowed (refusal 27 otherwise). */
  flagsAllowed?(header: SubmissionHeader<S>): boolean
  /** §9.2: false when the game has no claims (a claim request is refused 28 `unsupported`). */
  readonly claims?: boolean
  /** §5.3: complaint receipts per (complainant, author); absent: two per side (NOTARY.md §5.4). */
  readonly complaintsPerPair?: number
}

/** `S` as in GameRegistration: a side for two-player registrars, `number` for n-player ones. */
export type Registration<S extends number = Side> =
  { readonly ok: true; readonly game: GameRegistration<S> } | { readonly ok: false; readonly reason: string }

export interface Registrar {
  /** The game's domain tags (NOTARY.md §2). */
  readonly domain: NotaryDomain
  /**
   * PROTOCOL-4.md §4.1: checks two hellos: B's acknowledges A's, A's terms name a notary, neither
   * refuses, both decode. The notary itself checks the key named is its own and both keys usable.
   */
  register(helloA: Uint8Array, helloB: Uint8Array): Registration
}

/**
 * An n-player game's registrar (SPAAACE-WITNESSED §9.3): registration by one genesis body, read
 * by the game's layout (the domain's). Pure, as `Registrar`.
 */
export interface GenesisRegistrar {
  readonly domain: NotaryDomain
  readonly genesisBody: true
  /** §3: the body decodes and gives the game; the registration, or why not. */
  register(body: Uint8Array): Registration<number>
}

export type AnyRegistrar = Registrar | GenesisRegistrar

export const isGenesisRegistrar = (r: AnyRegistrar): r is GenesisRegistrar => 'genesisBody' in r
