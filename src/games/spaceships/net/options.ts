/**
 * What a caller of `hostGame` and `joinGame` hands in and gets back (protocol/SPEC.md §2): their
 * options (rematches included), the events they report, and the errors they end with.
 */
import type { Libp2p } from '@libp2p/interface'
import type { SecretSource } from '../../../core/commit/secrets.js'
import type { Identity } from '../../../core/net/identity.js'
import type { SealedEnvelope } from '../protocol/envelope.js'
import type { TranscriptStore } from '../protocol/file.js'
import type { ProtocolVersion, Role, Terms } from '../protocol/messages.js'
import type { WitnessEvent } from './witness.js'
import type { Journal } from '../session/journal.js'
import type { SessionEvent, SessionResult } from '../session/session.js'
import type { PlayerStrategy } from '../session/strategy.js'
import type { Invite } from './invite.js'

/** The host waited its whole `waitMs` and nobody with the invite came: no game began. */
export class NobodyJoinedError extends Error {
  constructor(readonly waitedMs: number) {
    super(`nobody joined within ${Math.round(waitedMs / 1000)} s`)
  }
}

/**
 * The host refused this game's invite on REFUSALS_BEFORE_GIVING_UP streams in a row (SPEC §2.3):
 * it serves another game now (a later rematch, or a new game) or has finished this one. The node
 * stopped dialling and signed no stop: the game stays unfinished, resumable should its host serve
 * it again.
 */
export class NotServedError extends Error {
  constructor(
    readonly game: string,
    readonly refusals: number,
    readonly said: string,
  ) {
    super(
      `the other side no longer serves this game (it refused our invite ${refusals} times${said === '' ? '' : `, saying "${said}"`})`,
    )
  }
}

export type NetEvent =
  | { kind: 'listening'; addrs: string[] }
  /** A stream to the opponent; `restored` when it replaces one that was lost (`deadline` as below). */
  | { kind: 'connected'; peer: string; relayed: boolean; restored: boolean; deadline: number | undefined }
  /** The stream was lost; `deadline` is when the message owed now is due (clock ms, SPEC §6.6), if one is. */
  | { kind: 'disconnected'; deadline: number | undefined }
  | { kind: 'refused'; peer: string; why: string }
  | { kind: 'redial-failed'; detail: string }
  /** A host's relay (SPEC §2.3): asking it for a slot, the slot granted, or the relay lost and dialled again. */
  | { kind: 'relay'; relay: string; status: 'reserving' | 'reserved' | 'lost' }

export interface NetGameCommon {
  readonly identity: Identity
  readonly secrets: SecretSource
  readonly store: TranscriptStore
  /** Journals secrets and the player's inputs so a restarted process resumes (journal.ts). */
  readonly journal?: Journal
  readonly strategy: PlayerStrategy
  readonly listen: readonly string[]
  /** Relay multiaddrs (with /p2p/ID) to reserve a slot on, for players behind NAT. */
  readonly relays?: readonly string[]
  /**
   * Called once for every envelope this side persists (SPEC §11), as soon as it is persisted:
   * 'sent' for its own (before it is sent), 'received' for the other side's (each authenticated
   * envelope it keeps, an equivocating one included if it decodes). Over rematches, each game's
   * envelopes in turn. A game resumed from its store does not report again what the store already
   * held when the call began (it was reported when persisted): read that from the store. An
   * exception it throws is logged and otherwise ignored; the envelope stays persisted and the game
   * goes on.
   */
  readonly onEnvelope?: (s: SealedEnvelope, direction: 'sent' | 'received') => void
  readonly onEvent?: (e: NetEvent) => void
  /** The session's own events: who is awaited and until when, stops, chat (session.ts). */
  readonly onSessionEvent?: (e: SessionEvent) => void
  /** Called once the node is up and (for a host) the invite's addresses are known. */
  readonly onReady?: (node: Libp2p) => void | Promise<void>
  /** Called once the opponent is known (a host learns it from the first valid join). */
  readonly onOpponent?: (peer: string) => void
  /**
   * Stops the game from outside. Before the session begins (a host waiting for its joiner) the
   * call rejects with the signal's reason; during the game the session stops it by a claim
   * (SPEC §6.5) and resolves with its result.
   */
  readonly signal?: AbortSignal
  /**
   * Given, once the game's channel exists, a way to send the opponent a line of chat (SPEC §2.4:
   * a control frame, never signed or persisted; at most `LIMITS.controlTextBytes` bytes).
   */
  readonly onChat?: (say: (text: string) => Promise<void>) => void
  /** Play again on this connection with the sides swapped, as long as both players want (SPEC §2.4). */
  readonly rematch?: Rematch
  /** This side's role in the game (a rematch swaps them); default A for a host, B for a joiner. */
  readonly side?: Role
  /** A game this side had already stopped: how long to wait for the other node to settle it (session.ts `settleMs`, SPEC §12.7). */
  readonly settleMs?: number
  /** A witnessed game: end it by an outage stop once the peer is an outage period past its deadline (session.ts `outage`). */
  readonly outage?: boolean
  /**
   * SPEC §1, §2: the protocol version of a new game, and so the protocol id the stream speaks; a
   * rematch plays the same. A game resumed from its store keeps the version the store holds; a
   * joiner plays its invite's. Default: `PROTOCOL_VERSION`.
   */
  readonly version?: ProtocolVersion
  /**
   * PROTOCOL-4.md §4: the addresses of the notary a witnessed game's terms name (each ending in
   * /p2p/ and its PeerId): this side submits its envelopes there and keeps the receipts.
   */
  readonly notary?: { readonly addrs: readonly string[] }
  /** What the link to the notary does (receipts, an outage and its end, refusals). */
  readonly onWitness?: (e: WitnessEvent) => void
  /**
   * This player's chosen name (SPEC §2.4 kind 6: printable ASCII, 1 to 32 bytes): the session
   * sends it once on each stream of a version 4 game, never on a version 3 one; the peer's comes
   * to `onSessionEvent` as a `name` event. Self-declared, and so proof of nothing.
   */
  readonly name?: string
}

/** The next game after a rematch both players accepted (SPEC §2.4): where it is kept and who plays it. */
export interface RematchGame {
  readonly store: TranscriptStore
  readonly journal?: Journal
  readonly strategy: PlayerStrategy
}

/**
 * Rematches on the game's connection (SPEC §2.4): each game's end goes to `ended` (the first
 * included); then `want` says whether this side offers (or accepts) another with the sides
 * swapped; when both do, `next` gives the new game's place and player, and it is played on the
 * same stream, the previous B as A.
 */
export interface Rematch {
  ended(result: SessionResult, game: string, side: Role): void | Promise<void>
  want(): Promise<boolean>
  next(side: Role, id: string): RematchGame | Promise<RematchGame>
  /** How long to wait for the other side's answer (default a minute). */
  readonly waitMs?: number
}

export interface HostOptions extends NetGameCommon {
  readonly inviteId: string
  readonly terms: Terms
  /** Known after the first join (or from a stored game when resuming). */
  readonly opponent?: string
  /** How long to wait for the joiner to connect the first time. */
  readonly waitMs: number
}

export interface JoinOptions extends NetGameCommon {
  readonly invite: Invite
}

/** A host's relay could not be reached or gave no slot: the reason, for one line. */
export class RelayError extends Error {}
