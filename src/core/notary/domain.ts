/**
 * What the notary layer (protocol/NOTARY.md, PROTOCOL-4.md §4, §5) shares with the game that uses
 * it: the domain tags, passed in by the game (the core knows no game), and the coded errors every
 * function here returns instead of throwing.
 */
import type { DomainTag } from '../commit/hash.js'
import type { Reader } from '../wire/binary.js'
import type { ProtocolErrorCode } from '../wire/errors.js'

/**
 * How a game reads the notary's shared layouts (SPAAACE-WITNESSED.md §5, §6.1, §14): the two-player
 * reading of NOTARY.md (Spaceships, the default everywhere, so its bytes and errors never change),
 * or the n-player reading, where a header's or complaint's author byte is a roster index, a
 * deposit's `for` is a roster index, the game bounds flags, and receipts of kind 5 (mark) exist.
 */
export interface NotaryLayout {
  /** The highest author (complainant) index a decoder accepts: 1 (sides A, B) or 15. */
  readonly maxAuthor: number
  /**
   * Whether a header's flags, `deadline` and `seen` are judged by the game (n-player: any byte and
   * any u32/u64 decode, the registrar refuses with 27) instead of NOTARY.md §3.2's decoder rules.
   */
  readonly gameFlags: boolean
  /** Whether a wrap's `for` is the reader's roster index (n-player) or 0 recipient / 1 sender. */
  readonly wrapsByRoster: boolean
  /** The highest receipt kind that decodes: 4 (claim), or 5 (mark, SPAAACE-WITNESSED §6.1). */
  readonly maxKind: number
  /**
   * The game's reader of a genesis receipt's body (SPAAACE-WITNESSED §3: `u32 g ‖ genesis ‖
   * accept × n`), returning the body's bytes; absent: NOTARY.md §3.1's two hellos.
   */
  readonly genesisBody?: (r: Reader) => Uint8Array
}

/** NOTARY.md: two players, the layouts as Spaceships has always read them. */
export const TWO_PLAYER_LAYOUT: NotaryLayout = { maxAuthor: 1, gameFlags: false, wrapsByRoster: false, maxKind: 4 }

/**
 * The domain tags of a witnessed game (PROTOCOL-4.md §2, NOTARY.md §2). A game passes its table
 * as one `as const` object; Spaceships' protocol 4 values are `spaceships/4/<name>` with the names
 * of NOTARY.md §2 (`submission`, `receipt`, `receipt-hash`, `deposit`, `deposit-hash`, `complaint`,
 * `complaint-proof`, `claim`).
 */
export interface NotaryDomain {
  /** Signed by a player over a submission header (PROTOCOL-4.md §5.1). */
  readonly submission: DomainTag
  /** Signed by the notary over a receipt (§4.1). */
  readonly receipt: DomainTag
  /** A receipt's hash, which the next receipt names as `prev` (§4.1). */
  readonly receiptHash: DomainTag
  /** The HPKE `info` prefix of a deposit's two wraps (§5.2). */
  readonly deposit: DomainTag
  /** A deposit's hash in its header (§5.2). */
  readonly depositHash: DomainTag
  /** Signed by a player over a complaint (NOTARY.md §5: PROTOCOL-4.md §5.3 names no tag). */
  readonly complaint: DomainTag
  /** The Chaum-Pedersen challenge of a complaint's proof (§5.3). */
  readonly complaintProof: DomainTag
  /** Signed by a player over a claim request (PROTOCOL-4.md §4.4). */
  readonly claim: DomainTag
  /** The HPKE `info` prefix of a relayed content key (SPAAACE-WITNESSED §5.4); n-player games only. */
  readonly relay?: DomainTag
  /** How the game reads the shared layouts; absent: TWO_PLAYER_LAYOUT. */
  readonly layout?: NotaryLayout
}

/** The layout a domain's game reads with. */
export function layoutOf(domain: NotaryDomain): NotaryLayout {
  return domain.layout ?? TWO_PLAYER_LAYOUT
}

/** Codes beyond the decoders' (core/wire/errors.ts): keys, deposits, proofs (NOTARY.md §9). */
export const NOTARY_ERROR_CODES = [
  'key.length',
  'key.non-canonical',
  'key.small-order',
  'key.torsion',
  'deposit.size',
  'deposit.enc',
  'deposit.wrap',
  'deposit.body',
  'deposit.padding',
  'proof.point',
  'proof.scalar',
  'proof.equation',
  'complaint.place',
  'complaint.deposit',
  'complaint.opens',
  // SPAAACE-WITNESSED §5.2 step 5: the opened bytes are not the envelope the header names.
  'deposit.envelope',
] as const
export type NotaryErrorCode = ProtocolErrorCode | (typeof NOTARY_ERROR_CODES)[number]

export interface NotaryError {
  readonly code: NotaryErrorCode
  /** The offending field (`deposit.wrap[0]`, `header.flags`), `` for the whole input. */
  readonly field: string
  /** The section broken, e.g. `NOTARY.md §4` or `PROTOCOL-4.md §5.2`. */
  readonly rule: string
  readonly message: string
}

export type NotaryResult<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: NotaryError }

export function notaryError(code: NotaryErrorCode, field: string, rule: string, message: string): NotaryError {
  return { code, field, rule, message }
}

export function refused<T>(code: NotaryErrorCode, field: string, rule: string, message: string): NotaryResult<T> {
  return { ok: false, error: notaryError(code, field, rule, message) }
}

export function accepted<T>(value: T): NotaryResult<T> {
  return { ok: true, value }
}
