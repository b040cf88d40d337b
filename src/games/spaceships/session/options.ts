/** The session's public options, events and results, and the deviations tests use (SPEC §6). */
import type { KeyPair } from '../../../core/commit/keys.js'
import type { SecretSource } from '../../../core/commit/secrets.js'
import type { CheckedRecord } from '../rules/legality.js'
import type { Setup } from '../rules/setup.js'
import type { SealedEnvelope } from '../protocol/envelope.js'
import type { TranscriptStore } from '../protocol/file.js'
import type { Part, ProtocolVersion, Role, StopReason, Terms } from '../protocol/messages.js'
import type { Verdict } from '../verify/verify.js'
import type { Channel } from '../../../core/session/channel.js'
import type { Clock } from '../../../core/session/clock.js'
import type { SigningLog } from '../../../core/session/journal.js'
import type { PlayerStrategy, TurnContext, TurnSummary } from './strategy.js'
import type { PlayerState } from '../rules/state.js'

/**
 * Ways to break the protocol on purpose, so tests can show every cheat is caught. An honest node
 * never sets these.
 */
export interface Deviation {
  /** Commit to one setup but play and reveal another. */
  setup?(honest: Setup): { committed: Setup; played: Setup }
  /** Commit to and show a record other than the honest one (unchecked). */
  record?(ctx: TurnContext, honest: CheckedRecord | undefined): { text: string; record: CheckedRecord }
  /**
   * Rewrite an envelope about to be sent: return the envelopes to persist and send instead (the
   * first stands in this side's chain), or `withhold` to sign and keep it without sending it.
   */
  outgoing?(
    parts: readonly Part[],
    seal: (parts: readonly Part[], override?: Partial<SealOverride>) => SealedEnvelope,
  ): readonly SealedEnvelope[] | 'withhold'
  /** Stop at once after sending this envelope (a claim made too early: the peer is not late yet). */
  stopAfterSending?(sent: SealedEnvelope): StopReason | undefined
  /** Stop at once after receiving this envelope instead of answering it (abandonment while owing). */
  stopAfterReceiving?(received: SealedEnvelope): StopReason | undefined
}

/** What a deviation may set when sealing: another game id (a replay), or a bad signature. */
export interface SealOverride {
  readonly game: Uint8Array
  readonly seq: number
  readonly ack: Uint8Array
}

export type SessionEvent =
  | { readonly kind: 'envelope'; readonly sealed: SealedEnvelope; readonly direction: 'sent' | 'received' }
  /** Waiting for `side`'s next envelope, which is due by `deadline` (clock time; SPEC §6.6). */
  | { readonly kind: 'waiting'; readonly side: Role; readonly what: string; readonly deadline: number }
  | { readonly kind: 'stopped'; readonly by: Role; readonly reason: StopReason; readonly detail: string }
  | { readonly kind: 'chat'; readonly text: string }
  /**
   * The name the peer gave itself (SPEC §2.4 kind 6, version 4): self-declared, proven by nothing;
   * the connection's PeerId is who it is. At most one per stream.
   */
  | { readonly kind: 'name'; readonly name: string }
  /** Version 4 (SPEC §7.11, §7.12): an offer of a draw signed by `by`, and what became of it. */
  | { readonly kind: 'draw'; readonly by: Role; readonly what: 'offered' | 'accepted' | 'declined' }
  /** A rematch frame that arrived during the game (SPEC §2.4): the node answers it once the game is over. */
  | { readonly kind: 'rematch'; readonly control: 'rematch-offer' | 'rematch-accept' | 'rematch-decline' }
  /** Bytes from the peer that are not evidence (SPEC §2.1), and what was done about them. */
  | { readonly kind: 'ignored'; readonly detail: string }

/**
 * A witnessed game's clock and claims (PROTOCOL-4.md §4.4), served by the node's link to the
 * notary. Time here is the notary's (receipt times); the node's clock only says when to ask.
 */
export interface SessionWitness {
  /** The side that owes the due step and its deadline `D`, by the cut walk over the store without a stop. */
  due(): { readonly side: Role; readonly deadline: number | undefined } | undefined
  /**
   * Step 1 of a claim: asks the notary to receipt a claim request for the place `seq` this side's
   * stop will take and the deadline `deadline`. Nothing is signed about the game before `granted`.
   */
  claim(seq: number, deadline: number, signal: AbortSignal): Promise<ClaimAnswer>
  /** Fetches what the notary's log holds that this side does not (the other side's envelopes are delivered on the channel). */
  refresh(signal: AbortSignal): Promise<void>
  /**
   * PROTOCOL-4.md §5.3: an offence of the other side the log proves (a complaint receipt of this
   * side that holds: its deposit did not open), in words for the accusation; undefined otherwise.
   */
  offence(): string | undefined
}

/** The notary's answer to a claim request, as the session acts on it (PROTOCOL-4.md §4.4). */
export type ClaimAnswer =
  /** The claim receipt is held (appended to the transcript): sign the claim stop now. */
  | { readonly kind: 'granted' }
  /** The log had moved on: what it brought was taken (envelopes delivered); decide again. */
  | { readonly kind: 'newer' }
  /** The notary's time has not passed the deadline: ask again from `time` (notary ms). */
  | { readonly kind: 'not-before'; readonly time: number }
  /** Refused, or the notary unreachable: nothing was signed; play on and ask again later. */
  | { readonly kind: 'failed'; readonly detail: string }

export interface SessionOptions {
  readonly role: Role
  readonly keys: KeyPair
  /** A: the terms it offers. B: the terms it agreed to (the invite's); a hello with other terms is refused. */
  readonly terms: Terms
  /**
   * SPEC §1, §5.1: the protocol version of a new game (A states it in its hello; B plays only
   * this one). A resumed game keeps the version its transcript holds. Default: `PROTOCOL_VERSION`.
   */
  readonly version?: ProtocolVersion
  /**
   * A check-in of a game across days (PROTOCOL-4.md §4): the session does every step it can and
   * returns, paused, once the peer owes the next one and nothing has arrived for `quietMs`; it
   * never claims.
   */
  readonly checkIn?: {
    readonly quietMs: number
    /** `watch`: pause too when this side's player has not decided within `quietMs` (never wait for a person). */
    readonly pauseOnDecision?: boolean
    /**
     * A person checking in at a terminal: while the peer owes the next step, a record this side's
     * player is choosing (the prompt a commitment ahead opened, SPEC §6.3) is waited for instead
     * of pausing under the open prompt, so the move typed now is kept for the next check-in.
     */
    readonly awaitDecision?: boolean
  }
  readonly secrets: SecretSource
  /**
   * Where envelopes are persisted. If it already holds envelopes of this game (a restarted
   * process), the session rebuilds its state from them instead of playing them again; with the
   * same secrets and player inputs (see `journal.ts`) it carries on exactly (SPEC §2.2).
   */
  readonly store: TranscriptStore
  readonly channel: Channel
  readonly strategy: PlayerStrategy
  readonly clock?: Clock
  /** When set, only this opponent key is accepted in the hello (the connection's PeerId). */
  readonly opponentKey?: Uint8Array
  readonly deviation?: Deviation
  readonly onEvent?: (e: SessionEvent) => void
  /**
   * Stops the session from outside: it stops the game by a claim, as when a deadline passes; a
   * witnessed game is paused instead (nothing is signed: PROTOCOL-4.md §4.4).
   */
  readonly signal?: AbortSignal
  /**
   * A game whose stop this side had already sent when the session began (a provisional result
   * being settled, SPEC §12.7): how long to wait for the peer to hold every envelope of this side
   * and for this side to hold the peer's stop. Default `replyMs`.
   */
  readonly settleMs?: number
  /**
   * What this side has signed, known apart from the store (its journal, `journaledSigning`): a
   * session whose store holds fewer of its own envelopes than this says were sent refuses to run,
   * so that it never signs twice at one place (SPEC §2.2).
   */
  readonly signing?: SigningLog
  /**
   * This player's chosen name (SPEC §2.4 kind 6: printable ASCII, 1 to 32 bytes), sent once on
   * each stream of a version 4 game and never on a version 3 one (PROTOCOL-4.md §9).
   */
  readonly name?: string
  /**
   * PROTOCOL-4.md §4.4: the notary link of a witnessed game (terms that name a notary). A witnessed
   * game's session stops of its own accord only by a claim the notary receipted, an accusation or
   * a resignation; without this it never claims.
   */
  readonly witness?: SessionWitness
  /**
   * PROTOCOL-4.md §4.5, asked for by the player (never on its own: a node cut off from the notary
   * cannot know that the other side was too): end a witnessed game by an outage stop once the peer
   * is an outage period past a deadline the receipts give, its claims unreceipted.
   */
  readonly outage?: boolean
}

export interface SessionResult {
  /** The verdict of this side's own transcript (SPEC §12): its best evidence. */
  readonly verdict: Verdict
  /** A check-in paused with the peer to move (`SessionOptions.checkIn`): the verdict is of the game so far. */
  readonly paused?: true
  /**
   * The other side's hello never came within the reply time (the host unreachable, the joiner
   * silent): no game began, nothing was signed for it, and the invite stays good (SPEC §6.2).
   */
  readonly unmet?: true
  readonly transcript: readonly Uint8Array[]
  /**
   * A paused check-in: the last turn as this side knows it (its answers to the other side's
   * aspects may be in while the other side's to its own are not: their results are then empty),
   * with this side's state at the start of the game, for its ships' names.
   */
  readonly lastTurn?: {
    readonly turn: TurnSummary
    readonly state: PlayerState | undefined
    /** Whether the other side's answers to this side's aspects are in (else `turn.theirResults` is empty). */
    readonly answered: boolean
  }
}

/** One line per session event, for `DEBUG=spaceships:session`. */
export function describeEvent(e: SessionEvent): string {
  switch (e.kind) {
    case 'envelope':
      return `${e.direction} ${e.sealed.envelope.sender}${e.sealed.envelope.seq} ${e.sealed.envelope.parts.map((p) => p.t).join('+')}`
    case 'waiting':
      return `waiting for ${e.side}'s ${e.what} until ${new Date(e.deadline).toISOString()}`
    case 'stopped':
      return `${e.by} stopped (${e.reason}): ${e.detail}`
    case 'chat':
      return `chat: ${e.text}`
    case 'name':
      return `the peer calls itself ${JSON.stringify(e.name)}`
    case 'draw':
      return `draw ${e.what === 'offered' ? `offered by ${e.by}` : `${e.what} by ${e.by}`}`
    case 'rematch':
      return `heard ${e.control}`
    case 'ignored':
      return `ignored: ${e.detail}`
  }
}
