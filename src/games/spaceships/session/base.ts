/**
 * The session's state (SPEC §6): both chains as persisted, the game state the verifier's own checks
 * keep, this side's secrets and choices, and how a restarted process rebuilds them from its
 * transcript and journal (SPEC §2.2, §11).
 */
import { componentLogger } from '../../../core/log.js'
import { toBase64url } from '../../../core/commit/bytes.js'
import { SEED_BYTES, SideSecrets } from '../protocol/commitments.js'
import type { CheckedRecord } from '../rules/legality.js'
import { type Ruleset, parseRuleset } from '../rules/ruleset.js'
import type { Setup } from '../rules/setup.js'
import type { PlayerState } from '../rules/state.js'
import { frameEnvelope } from '../protocol/codec.js'
import { type SealedEnvelope, decodeFrameWith } from '../protocol/envelope.js'
import { describeProtocolError } from '../../../core/wire/errors.js'
import type { FrameContext } from '../protocol/frame.js'
import { nameProblem } from '../protocol/name.js'
import {
  LIMITS,
  PROTOCOL_VERSION,
  type ProtocolVersion,
  type Role,
  type Terms,
  otherRole,
} from '../protocol/messages.js'
import { versionOfEnvelopes } from '../protocol/file.js'
import { GameState, isStopEnvelope } from '../verify/game.js'
import { isReceiptLine } from '../verify/receipts.js'
import { type Clock, systemClock } from '../../../core/session/clock.js'
import type { DrawAcceptance, Resignation } from './strategy.js'
import { type SessionEvent, type SessionOptions, describeEvent } from './options.js'
import { type Event, Queue } from './queue.js'
import { termsProblem } from './terms.js'

/** Whether a turn's decision plays a record (a resignation or an accepted draw plays none). */
export function isPlayed(r: MyRecord | Resignation | DrawAcceptance | undefined): r is MyRecord {
  return r !== undefined && 'record' in r
}

export interface MyRecord {
  readonly text: string
  readonly record: CheckedRecord
}

/** The session's state: both chains, the game, this side's secrets and choices; persistence and resumption. */
export abstract class SessionBase {
  /** Both hellos held: the game id, the game state and this side's secrets (`compose.ts`). */
  protected abstract begin(): void

  protected readonly me: Role

  protected readonly them: Role

  protected readonly clock: Clock

  protected readonly ruleset: Ruleset

  protected readonly events = new Queue<Event>()

  /** Aborted when the session ends: the receiver and any pending decision stop. */
  protected readonly lifetime = new AbortController()

  protected readonly mine: SealedEnvelope[] = []

  protected readonly theirs: SealedEnvelope[] = []

  protected readonly position = new Map<string, number>()

  protected readonly ahead = new Map<number, Uint8Array>()

  /** How many of the peer's envelopes the loop has acted on (SPEC §11: at most `openEnvelopes` more are persisted). */
  protected taken = 0

  /** Once this side has stopped: the peer's envelopes persisted stop at this `seq` (SPEC §11). */
  protected persistBelow = Number.POSITIVE_INFINITY

  /** Whether an equivocation of the peer is already persisted: one is proof, more only grow the file (SPEC §11). */
  protected equivocationHeld = false

  protected state: GameState | undefined

  protected secrets: SideSecrets | undefined

  protected nonce: Uint8Array

  protected readonly seed: Uint8Array

  protected terms: Terms

  protected setupChoice: { committed: Setup; played: Setup } | undefined

  protected setupPromise: Promise<void> | undefined

  protected readonly records = new Map<number, MyRecord | Resignation | DrawAcceptance>()

  /** Version 4 (SPEC §7.11): the turn whose record came with an offer of a draw, until the offer is sent. */
  protected drawOfferFrom: number | undefined

  protected readonly deciding = new Set<number>()

  protected readonly states = new Map<number, PlayerState>()

  /** When this side last sent a phase envelope: the peer's deadline runs from it (SPEC §6.6). */
  protected waitingSince: number

  protected finished = false

  protected refused = false

  protected resendWindow = { start: 0, bytes: 0 }
  /** A resume frame has been answered on the current stream (one is, SPEC §2.2). */
  protected resumeAnswered = false
  /** The peer's name arrived on this stream (SPEC §2.4 kind 6: one per stream). */
  protected nameHeard = false

  protected chatWindow = { start: 0, count: 0 }

  /** The turn whose last envelope already waited for the player's next record (at most once a turn). */
  protected aheadWaited = 0

  /** How many of this side's envelopes the peer is known to hold: its resume frames and acks say (SPEC §2.2). */
  protected peerHeld = 0

  /** This side's stop was in its transcript when the session began: it only settles what the peer lacks. */
  protected settling = false

  /** Settling: every envelope of this side from the peer's last resume frame on has been resent to it. */
  protected resentAll = false

  /**
   * A resumed side does not claim before this (clock ms): the peer gets one reply window on the
   * resumed stream to deliver what it sent while this side was down (SPEC §2.2, §6.6).
   */
  protected resumeGraceUntil = 0

  protected readonly decisionAbort = new AbortController()

  /** An error of the local player or of a resumed game's journal: it ends the session (nothing more is signed). */
  protected failure: unknown

  /** The game id a refusal of B's hello is signed in (no game state exists for it). */
  protected refusalGame: Uint8Array | undefined

  /** When the peer's last envelope arrived: this side's own deadline runs from about then. */
  protected lastReceivedAt = 0

  protected finishedCalled = false

  /** A check-in ended with the peer to move next (SessionOptions.checkIn): the game goes on. */
  protected paused = false

  /**
   * The other side never met this one: its hello did not come (the host could not be reached, the
   * joiner never answered) within the reply time. Before both hellos there is no game (SPEC §6.2),
   * so nothing is signed for it: the session ends and the invite stays good.
   */
  protected unmet = false

  /** PROTOCOL-4.md §4.4: the notary said "not before" this time (notary ms) for this side's claim. */
  protected claimNotBefore = 0

  /** The last `waiting` event a witnessed wait emitted (it wakes often; it says each wait once). */
  protected lastWaiting = ''

  /** SPEC §5.1: the game's version; a resumed game's is the one its transcript holds. */
  protected readonly version: ProtocolVersion

  constructor(protected readonly o: SessionOptions) {
    this.me = o.role
    this.them = otherRole(o.role)
    this.clock = o.clock ?? systemClock
    this.terms = o.terms
    const held = o.store.envelopes()
    this.version = held.length > 0 ? versionOfEnvelopes(held) : (o.version ?? PROTOCOL_VERSION)
    const named = o.name === undefined ? undefined : nameProblem(o.name)
    if (named !== undefined) throw new Error(`unusable name: ${named.message}`)
    const checked = termsProblem(o.terms, this.version)
    if (checked !== undefined) throw new Error(`unusable terms: ${checked}`)
    const r = parseRuleset(o.terms.ruleset)
    if (!r.ok) throw new Error(`unusable ruleset in the terms: ${r.error.message}`)
    this.ruleset = r.value
    // Secrets are drawn in a fixed order, so a journal replays them exactly (journal.ts).
    this.nonce = o.secrets.bytes(32)
    this.seed = o.secrets.bytes(SEED_BYTES)
    this.waitingSince = this.clock.now()
  }

  protected latestTheirs(): SealedEnvelope | undefined {
    return this.theirs[this.theirs.length - 1]
  }

  protected myStop(): SealedEnvelope | undefined {
    return this.state?.stops[this.me] ?? this.mine.find(isStopEnvelope)
  }

  /** The peer's stop, once the loop has acted on it (a stop merely stored is not answered yet). */
  protected theirStop(): SealedEnvelope | undefined {
    return this.state?.stops[this.them] ?? this.theirs.slice(0, this.taken).find(isStopEnvelope)
  }

  protected frames(): FrameContext {
    return {
      version: this.version,
      game: this.state?.game,
      hashAt: (role, seq) => (role === this.me ? this.mine : this.theirs)[seq]?.hash,
      positionOf: (id) => this.position.get(id),
      sigAt: (role, seq) => (role === this.me ? this.mine : this.theirs)[seq]?.envelope.sig,
    }
  }

  /** The next event, or `deadline` once `at` (clock time) has passed. */
  protected async nextEvent(at: number | undefined): Promise<Event> {
    if (at === undefined) return this.events.next()
    const stop = new AbortController()
    try {
      return (
        (await this.events.nextBefore(this.clock.sleep(at - this.clock.now(), stop.signal))) ?? { kind: 'deadline' }
      )
    } finally {
      // A reason given: otherwise each of the many waits of a game builds a DOMException and its stack.
      stop.abort(WAIT_OVER)
    }
  }

  protected persist(s: SealedEnvelope): void {
    this.persistBytes(s.bytes)
  }

  protected persistBytes(bytes: Uint8Array): void {
    this.o.store.append(bytes)
  }

  /**
   * Rebuilds the state from the envelopes a previous run of this game persisted: the same checks
   * admit them in the same order, and the journal gives back the secrets and the player's inputs,
   * checked against what was signed, so a resumed node never signs a second envelope at a place.
   */
  protected restore(): void {
    const stored = this.o.store.envelopes()
    if (stored.length === 0) return
    for (const bytes of stored) {
      // PROTOCOL-4.md §2: a witnessed game's file also holds the notary's receipts.
      if (isReceiptLine(bytes)) continue
      const d = frameEnvelope(bytes)
      if (!d.ok)
        throw new Error(`the stored transcript holds an unreadable envelope: ${describeProtocolError(d.error)}`)
      const s = decodeFrameWith(d.value)
      if (!s.ok)
        throw new Error(`the stored transcript holds an undecodable envelope: ${describeProtocolError(s.error)}`)
      const e = s.value.envelope
      const chain = e.sender === this.me ? this.mine : this.theirs
      if (e.seq < chain.length) {
        if (e.sender === this.them && chain[e.seq]?.id !== s.value.id) this.equivocationHeld = true
        continue
      }
      if (e.seq !== chain.length) throw new Error(`the stored transcript skips ${e.sender}'s envelope ${chain.length}`)
      chain.push(s.value)
      this.position.set(s.value.id, e.seq)
      if (e.sender === this.them) this.notePeerAck(s.value)
      if (this.state === undefined && this.mine.length >= 1 && this.theirs.length >= 1) this.begin()
      if (this.state === undefined || e.seq === 0) continue
      if (isStopEnvelope(s.value)) {
        this.state.applyStop(s.value)
        if (e.sender === this.me) this.persistBelow = this.theirs.length + LIMITS.afterStopEnvelopes
      } else this.state.applyPhase(s.value, { own: e.sender === this.me })
    }
    this.taken = this.theirs.length
    const hello = this.mine[0]?.envelope.parts[0]
    if (hello?.t === 'hello' && toBase64url(hello.nonce) !== toBase64url(this.nonce))
      throw new Error(
        'resuming with other secrets than the stored game was played with: the journal is missing or belongs to another game',
      )
  }

  /** The peer's envelope acknowledges one of this side's: the peer holds it and every one before it. */
  protected notePeerAck(s: SealedEnvelope): void {
    const ack = s.envelope.ack === undefined ? undefined : toBase64url(s.envelope.ack)
    const at = ack === undefined ? undefined : this.position.get(ack)
    if (at !== undefined && this.mine[at]?.id === ack) this.notePeerHeld(at + 1)
  }

  protected notePeerHeld(held: number): void {
    if (held <= this.peerHeld) return
    this.peerHeld = held
    // A settling side waits on this (afterStop); any event wakes its loop to look again.
    if (this.settling) this.events.push({ kind: 'decision' })
  }

  protected emit(e: SessionEvent): void {
    if (log.enabled) log('%s %s', this.me, describeEvent(e))
    this.o.onEvent?.(e)
  }
}

const log = componentLogger('session')

/** The reason a finished wait's timer is cancelled with (never surfaced: the sleep just ends). */
const WAIT_OVER = new Error('the wait is over')
