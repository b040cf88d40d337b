/**
 * The game protocol between a local player and a remote peer over an abstract channel
 * (protocol/SPEC.md §6). Both sides run this code. The schedule and every check are the
 * verifier's own (`verify/game.ts`), applied to each envelope as it is persisted, so what a node
 * accepts live is exactly what an audit accepts.
 *
 * A session is a loop over events: the peer's envelopes (authenticated and in order), the local
 * player's decisions, deadlines and the channel's state. When it is this side's turn to send, it
 * sends what the schedule asks as soon as it has it; when it is the peer's, it waits, and claims
 * when the deadline passes (SPEC §6.6). Everything persisted is the state: a restarted process
 * rebuilds it from its transcript and journal (`restore`) and carries on.
 */
import { componentLogger } from '../../../core/log.js'
import { toBase64url } from '../../../core/commit/bytes.js'
import { SEED_BYTES, SideSecrets } from '../protocol/commitments.js'
import { type KeyPair, publicKeyProblem } from '../../../core/commit/keys.js'
import type { SecretSource } from '../../../core/commit/secrets.js'
import { type CheckedRecord, readRecord } from '../rules/legality.js'
import { formatRecord } from '../rules/record.js'
import { burnoutsOf, resolveIncoming, withBurnouts } from '../rules/resolve.js'
import { type Ruleset, parseRuleset } from '../rules/ruleset.js'
import { type Setup, formatSetup, readSetup } from '../rules/setup.js'
import { type PlayerState, initialPlayerState } from '../rules/state.js'
import { decodeFramed, encodeUnsigned, frameEnvelope } from '../protocol/codec.js'
import {
  type SealedEnvelope,
  decodeFrameWith,
  envelopeHash,
  gameIdOf,
  seal,
  signatureValid,
} from '../protocol/envelope.js'
import { describeProtocolError } from '../../../core/wire/errors.js'
import type { TranscriptStore } from '../protocol/file.js'
import { type FrameContext, decodeFrame, encodeEnvelopeFrame, encodeResume } from '../protocol/frame.js'
import {
  type Hello,
  LIMITS,
  type Part,
  type Results,
  type Role,
  ROLE_INDEX,
  type StopReason,
  type Terms,
  type VerdictPart,
  otherRole,
} from '../protocol/messages.js'
import { GameState, isStopEnvelope } from '../verify/game.js'
import type { ProtocolOffence } from '../verify/offence.js'
import { beamExchanges, cellValues, revealedSetup, visibleAspectsOf } from '../verify/replay.js'
import type { Due } from '../verify/schedule.js'
import { type Verdict, verifyEnvelopes } from '../verify/verify.js'
import type { Channel } from '../../../core/session/channel.js'
import { type Clock, systemClock } from '../../../core/session/clock.js'
import {
  type PlayerStrategy,
  type Resignation,
  type TurnContext,
  type TurnSummary,
  gameSecret,
  isResignation,
} from './strategy.js'
import { type Salts, aspectsMessage, flashcubeMessage, noFlashcube, resultsMessage } from './wire.js'

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
  /** A rematch frame that arrived during the game (SPEC §2.4): the node answers it once the game is over. */
  | { readonly kind: 'rematch'; readonly control: 'rematch-offer' | 'rematch-accept' | 'rematch-decline' }
  /** Bytes from the peer that are not evidence (SPEC §2.1), and what was done about them. */
  | { readonly kind: 'ignored'; readonly detail: string }

export interface SessionOptions {
  readonly role: Role
  readonly keys: KeyPair
  /** A: the terms it offers. B: the terms it agreed to (the invite's); a hello with other terms is refused. */
  readonly terms: Terms
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
  /** Stops the session from outside: it stops the game by a claim, as when a deadline passes. */
  readonly signal?: AbortSignal
  /**
   * A game whose stop this side had already sent when the session began (a provisional result
   * being settled, SPEC §12.7): how long to wait for the peer to hold every envelope of this side
   * and for this side to hold the peer's stop. Default `replyMs`.
   */
  readonly settleMs?: number
}

export interface SessionResult {
  /** The verdict of this side's own transcript (SPEC §12): its best evidence. */
  readonly verdict: Verdict
  readonly transcript: readonly Uint8Array[]
}

/** What the event loop reacts to. */
type Event =
  | { readonly kind: 'envelope'; readonly sealed: SealedEnvelope }
  /** The peer signed two envelopes at one place; both are persisted (SPEC §5.3). */
  | { readonly kind: 'equivocation'; readonly detail: string }
  /** Bytes that are not evidence: a malformed frame, a failed signature, another game's envelope (SPEC §2.1). */
  | { readonly kind: 'bad'; readonly detail: string }
  | { readonly kind: 'decision' }
  | { readonly kind: 'deadline' }
  /** The caller's signal: the loop stops the game at its next step; nothing else reacts to it. */
  | { readonly kind: 'aborted' }
  | { readonly kind: 'closed' }

class Queue<T> {
  private readonly items: T[] = []
  private waiter: ((t: T) => void) | undefined

  push(t: T): void {
    const w = this.waiter
    if (w !== undefined) {
      this.waiter = undefined
      w(t)
    } else this.items.push(t)
  }

  /** The next item if one is already queued. */
  poll(): T | undefined {
    return this.items.shift()
  }

  next(): Promise<T> {
    const t = this.items.shift()
    if (t !== undefined) return Promise.resolve(t)
    return new Promise((resolve) => (this.waiter = resolve))
  }

  /**
   * The next item, or `undefined` once `until` resolves first. A wait that loses the race leaves
   * no waiter behind: an item pushed later is queued, never handed to a wait nobody reads.
   */
  nextBefore(until: Promise<unknown>): Promise<T | undefined> {
    const t = this.items.shift()
    if (t !== undefined) return Promise.resolve(t)
    return new Promise((resolve) => {
      const take = (item: T): void => {
        resolve(item)
      }
      this.waiter = take
      void until.then(() => {
        if (this.waiter !== take) return
        this.waiter = undefined
        resolve(undefined)
      })
    })
  }
}

interface MyRecord {
  readonly text: string
  readonly record: CheckedRecord
}

export function runSession(o: SessionOptions): Promise<SessionResult> {
  return new Session(o).run()
}

class Session {
  private readonly me: Role
  private readonly them: Role
  private readonly clock: Clock
  private readonly ruleset: Ruleset
  private readonly events = new Queue<Event>()
  /** Aborted when the session ends: the receiver and any pending decision stop. */
  private readonly lifetime = new AbortController()
  private readonly mine: SealedEnvelope[] = []
  private readonly theirs: SealedEnvelope[] = []
  private readonly position = new Map<string, number>()
  private readonly ahead = new Map<number, Uint8Array>()
  /** How many of the peer's envelopes the loop has acted on (SPEC §11: at most `openEnvelopes` more are persisted). */
  private taken = 0
  /** Once this side has stopped: the peer's envelopes persisted stop at this `seq` (SPEC §11). */
  private persistBelow = Number.POSITIVE_INFINITY
  /** Whether an equivocation of the peer is already persisted: one is proof, more only grow the file (SPEC §11). */
  private equivocationHeld = false
  private state: GameState | undefined
  private secrets: SideSecrets | undefined
  private nonce: Uint8Array
  private readonly seed: Uint8Array
  private terms: Terms
  private setupChoice: { committed: Setup; played: Setup } | undefined
  private setupPromise: Promise<void> | undefined
  private readonly records = new Map<number, MyRecord | Resignation>()
  private readonly deciding = new Set<number>()
  private readonly states = new Map<number, PlayerState>()
  /** When this side last sent a phase envelope: the peer's deadline runs from it (SPEC §6.6). */
  private waitingSince: number
  private finished = false
  private refused = false
  private resendWindow = { start: 0, bytes: 0 }
  private chatWindow = { start: 0, count: 0 }
  /** The turn whose last envelope already waited for the player's next record (at most once a turn). */
  private aheadWaited = 0
  /** How many of this side's envelopes the peer is known to hold: its resume frames and acks say (SPEC §2.2). */
  private peerHeld = 0
  /** This side's stop was in its transcript when the session began: it only settles what the peer lacks. */
  private settling = false
  /** Settling: every envelope of this side from the peer's last resume frame on has been resent to it. */
  private resentAll = false
  /**
   * A resumed side does not claim before this (clock ms): the peer gets one reply window on the
   * resumed stream to deliver what it sent while this side was down (SPEC §2.2, §6.6).
   */
  private resumeGraceUntil = 0

  constructor(private readonly o: SessionOptions) {
    this.me = o.role
    this.them = otherRole(o.role)
    this.clock = o.clock ?? systemClock
    this.terms = o.terms
    const checked = termsProblem(o.terms)
    if (checked !== undefined) throw new Error(`unusable terms: ${checked}`)
    const r = parseRuleset(o.terms.ruleset)
    if (!r.ok) throw new Error(`unusable ruleset in the terms: ${r.error.message}`)
    this.ruleset = r.value
    // Secrets are drawn in a fixed order, so a journal replays them exactly (journal.ts).
    this.nonce = o.secrets.bytes(32)
    this.seed = o.secrets.bytes(SEED_BYTES)
    this.waitingSince = this.clock.now()
  }

  /* --------------------------------------------------------------------------------------- */
  /* The run                                                                                  */

  async run(): Promise<SessionResult> {
    this.restore()
    this.settling = this.myStop() !== undefined
    // A resumed game's clocks run from when its last envelope was persisted, not from the restart:
    // a deadline never moves (SPEC §6.6), and the player is shown the time truly left.
    const written = this.mine.length + this.theirs.length > 0 ? this.o.store.lastWrittenAt?.() : undefined
    if (written !== undefined) this.lastReceivedAt = this.waitingSince = Math.min(written, this.clock.now())
    if (this.mine.length + this.theirs.length > 0) this.resumeGraceUntil = this.clock.now() + this.terms.replyMs
    // A resumed side that already committed its setup gets it and every committed record back
    // from the journal before it receives or signs anything: a stop's reveal is built from them.
    if (this.state?.logs[this.me].setup !== undefined) await this.setupPromise
    void this.receive()
    const outer = (): void => {
      this.events.push({ kind: 'aborted' })
    }
    this.o.signal?.addEventListener('abort', outer, { once: true })
    try {
      await this.loop()
    } finally {
      this.o.signal?.removeEventListener('abort', outer)
      this.finished = true
      this.lifetime.abort()
      this.o.channel.close()
    }
    const transcript = this.o.store.envelopes()
    return { verdict: verifyEnvelopes(transcript), transcript }
  }

  private async loop(): Promise<void> {
    if (this.me === 'A' && this.mine.length === 0) await this.sendHello()
    for (;;) {
      if (this.failure !== undefined)
        throw this.failure instanceof Error ? this.failure : new Error('the session failed')
      if (this.refused) return
      const myStop = this.myStop()
      if (myStop !== undefined) return this.afterStop()
      if (this.theirStop() !== undefined) {
        await this.sendStop('answer', `${this.them} stopped`)
        continue
      }
      // A resignation is a stop, sent whenever the player gives up, whoever is due (SPEC §6.5):
      // the other player learns it at once rather than when this side's envelope falls due. Once
      // this side's setup is committed: a stop before it would be no game, not a resignation.
      if (this.state?.logs[this.me].setup !== undefined && [...this.records.values()].some(isResignation)) {
        await this.sendStop('resignation', 'resigned')
        continue
      }
      if (this.o.signal?.aborted === true) {
        // Before both hellos there is no game to stop: nothing more is signed.
        if (this.state === undefined) return
        await this.sendStop('claim', 'the local node stopped the game')
        continue
      }
      const due = this.due()
      if (due === undefined) return
      if (due.sender === this.me) {
        // What has already arrived is acted on first: nothing is answered before every check
        // that can be made is made (SPEC §6.7), and the answer acknowledges the last phase taken.
        const queued = this.events.poll()
        if (queued !== undefined) {
          await this.handle(queued, due)
          continue
        }
        if (this.mayCommitAhead(due) && this.aheadWaited !== due.turn) {
          // Give the player a moment to choose the next record, so its commitment rides along.
          this.aheadWaited = due.turn
          void this.startDecision(due.commitTurn ?? 0)
          const ev = await this.nextEvent(this.clock.now() + AHEAD_WAIT_MS)
          if (ev.kind !== 'deadline') await this.handle(ev, due)
          continue
        }
        const parts = this.partsFor(due)
        if (parts === 'resign') {
          await this.sendStop('resignation', 'resigned')
          continue
        }
        if (parts !== undefined) {
          await this.sendPhase(parts)
          continue
        }
        const ms =
          due.deadline === 'setup'
            ? this.terms.setupMs
            : due.deadline === 'turn'
              ? this.terms.turnMs
              : this.terms.replyMs
        this.emit({ kind: 'waiting', side: this.me, what: due.parts.join('+'), deadline: this.lastReceivedAt + ms })
        await this.handle(await this.events.next(), due)
        continue
      }
      // The peer's turn. A missing courtesy verdict at the very end is waited for, never claimed.
      const courtesy = due.phase === 'end' && due.parts.length === 1 && due.parts[0] === 'verdict'
      const deadline = Math.max(this.deadlineOf(due), this.resumeGraceUntil)
      this.emit({ kind: 'waiting', side: this.them, what: due.parts.join('+'), deadline })
      const ev = await this.nextEvent(deadline)
      if ((ev.kind === 'deadline' || ev.kind === 'aborted') && courtesy) return
      // An envelope stored as the deadline came is acted on before any claim: a claim never
      // acknowledges an envelope this side did not consider (SPEC §6.6, §12.7 rule 6).
      const stored = ev.kind === 'envelope' ? undefined : this.pendingEnvelope()
      if (stored !== undefined) {
        this.events.push(ev)
        await this.handle(stored, due)
        continue
      }
      await this.handle(ev, due)
    }
  }

  /** Reacts to one event while `due` is the next step of the schedule. */
  private async handle(ev: Event, due: Due | undefined): Promise<void> {
    switch (ev.kind) {
      case 'decision':
      case 'aborted':
        return
      case 'envelope':
        this.tookEnvelope()
        return this.takeEnvelope(ev.sealed, due)
      case 'equivocation':
        return this.sendStop('accusation', ev.detail)
      case 'bad':
        this.emit({ kind: 'ignored', detail: ev.detail })
        // Not evidence; the side waiting for the peer stops, the side whose turn it is carries on (SPEC §6.5).
        if (due?.sender === this.them) await this.sendStop('claim', ev.detail)
        return
      case 'closed':
        if (due?.sender === this.them)
          await this.sendStop('claim', `the connection closed while waiting for ${due.parts.join('+')}`)
        return
      case 'deadline':
        if (this.o.signal?.aborted === true) return
        if (due?.sender === this.them) await this.sendStop('claim', `no ${due.parts.join('+')} within the deadline`)
        return
    }
  }

  /** A new envelope of the peer, authenticated and in order: a stop, or the due phase envelope. */
  private async takeEnvelope(s: SealedEnvelope, due: Due | undefined): Promise<void> {
    if (this.state === undefined) return this.takeHello(s)
    if (isStopEnvelope(s)) {
      const bad = this.state.applyStop(s)
      if (bad !== undefined) this.emit({ kind: 'ignored', detail: `${this.them}'s stop: ${bad.detail}` })
      const stop = s.envelope.parts[0]
      if (stop?.t === 'stop') this.emit({ kind: 'stopped', by: this.them, reason: stop.reason, detail: stop.detail })
      return
    }
    const off = this.state.applyPhase(s)
    if (off !== undefined) {
      await this.sendStop('accusation', describeOffence(off))
      return
    }
    const stop = this.o.deviation?.stopAfterReceiving?.(s)
    if (stop !== undefined) {
      await this.sendStop(stop, 'deviation: stopped instead of answering')
      return
    }
    if (due?.sender !== this.them) return
    this.afterProgress()
  }

  /* --------------------------------------------------------------------------------------- */
  /* Hellos (SPEC §6.1, §6.2)                                                                 */

  private hello(): Hello {
    return {
      t: 'hello',
      key: this.o.keys.publicKey,
      nonce: this.nonce,
      terms: this.me === 'A' ? this.terms : undefined,
    }
  }

  private async sendHello(): Promise<void> {
    const ack = this.me === 'B' ? this.theirs[0]?.hash : undefined
    await this.sendEnvelope([this.hello()], ack)
  }

  /** The peer's hello: checked, answered (B) or refused, and the game begun. */
  private async takeHello(s: SealedEnvelope): Promise<void> {
    const parts = s.envelope.parts
    const hello = parts[0]
    if (hello?.t !== 'hello' || s.envelope.seq !== 0) return this.refuse('version', 'the first envelope is not a hello')
    const expected = this.o.opponentKey
    if (expected !== undefined && toBase64url(expected) !== toBase64url(hello.key))
      return this.refuse('key', 'the hello is not signed by the peer this connection reached')
    if (this.me === 'B') {
      const terms = hello.terms
      if (terms === undefined || !sameTerms(terms, this.o.terms))
        return this.refuse('terms', 'the hello states other terms than the invite')
      await this.sendHello()
    } else {
      const mine = this.mine[0]
      if (mine === undefined || s.envelope.ack === undefined || toBase64url(s.envelope.ack) !== mine.id)
        return this.refuse('version', "B's hello does not acknowledge A's")
      if (parts.some((p) => p.t === 'refuse')) {
        this.refused = true
        return
      }
    }
    this.begin()
  }

  private async refuse(reason: 'version' | 'terms' | 'key', detail: string): Promise<void> {
    this.refused = true
    if (this.me === 'B' && this.mine.length === 0)
      await this.sendEnvelope([this.hello(), { t: 'refuse', reason, detail }], this.theirs[0]?.hash)
    else if (this.me === 'A' && this.mine.length === 1 && this.theirs.length === 1) {
      const a = this.mine[0]
      const b = this.theirs[0]
      if (a === undefined || b === undefined) return
      this.refusalGame = gameIdOf(a.hash, b.hash)
      await this.sendEnvelope([{ t: 'refuse', reason, detail }], b.hash)
    }
  }

  /** Both hellos held: the game id, the game state and this side's secrets. */
  private begin(): void {
    const helloA = this.me === 'A' ? this.mine[0] : this.theirs[0]
    const helloB = this.me === 'B' ? this.mine[0] : this.theirs[0]
    if (helloA === undefined || helloB === undefined || this.state !== undefined) return
    const terms = helloA.envelope.parts[0]?.t === 'hello' ? helloA.envelope.parts[0].terms : undefined
    if (terms === undefined) throw new Error("A's hello holds no terms")
    this.terms = terms
    const game = gameIdOf(helloA.hash, helloB.hash)
    this.state = new GameState(terms, game, helloA, helloB)
    this.secrets = new SideSecrets(this.seed, game, ROLE_INDEX[this.me])
    this.startSetup()
  }

  /* --------------------------------------------------------------------------------------- */
  /* What this side sends (SPEC §6.3, §7)                                                     */

  private due(): Due | undefined {
    if (this.state !== undefined) return this.state.due()
    // Before the game id: A has sent its hello and waits for B's; B waits for A's.
    return { sender: this.them, parts: ['hello'], turn: 0, deadline: 'reply', phase: 'hello' }
  }

  private deadlineOf(due: Due): number {
    const ms =
      due.deadline === 'setup' ? this.terms.setupMs : due.deadline === 'turn' ? this.terms.turnMs : this.terms.replyMs
    return this.waitingSince + ms
  }

  /** The parts of this side's due envelope, or undefined while a decision is pending. */
  private partsFor(due: Due): Part[] | 'resign' | undefined {
    const t = due.turn
    const out: Part[] = []
    for (const kind of due.parts) {
      switch (kind) {
        case 'setup': {
          if (this.setupChoice === undefined || this.secrets === undefined) return undefined
          out.push({ t: 'setup', cells: this.secrets.setupVector(cellValues(this.setupChoice.committed)) })
          break
        }
        case 'commit': {
          const r = this.records.get(t)
          if (r === undefined) {
            void this.startDecision(t)
            return undefined
          }
          if (isResignation(r)) return 'resign'
          out.push({ t: 'commit', turn: t, record: this.secrets?.recordCommitment(t, r.text) ?? new Uint8Array(32) })
          break
        }
        case 'aspects': {
          const r = this.records.get(t)
          if (r === undefined || isResignation(r)) return undefined
          out.push(aspectsMessage(this.ruleset, t, r.record))
          break
        }
        case 'results': {
          const theirAspects = this.state?.logs[this.them].aspects[t - 1]
          const r = this.records.get(t)
          const start = this.stateAt(t)
          if (theirAspects === undefined || r === undefined || isResignation(r) || start === undefined) return undefined
          out.push(
            resultsMessage(
              t,
              theirAspects,
              resolveIncoming(this.ruleset, start, r.record, visibleAspectsOf(theirAspects)),
              this.salts(),
            ),
          )
          break
        }
        case 'flashcube': {
          const theirResults = this.state?.logs[this.them].results[t - 1]
          const after = this.afterTurn(t)
          if (theirResults === undefined || after === undefined) return undefined
          out.push(flashcubeMessage(t, after, theirResults.destroyed, this.salts()))
          break
        }
        case 'reveal':
          out.push(this.reveal())
          break
        case 'verdict':
          out.push(this.verdictPart(out))
          break
        case 'hello':
        case 'refuse':
        case 'stop':
          return undefined
      }
    }
    return [...out, ...this.commitAhead(due, out)]
  }

  /**
   * SPEC §6.3: the commitment to the next turn, sent with this turn's last envelope when the
   * schedule allows it there and the player has already chosen its record (a bot at once; a person
   * rarely): one sequential message fewer a turn. Never waits for the player beyond `aheadWait`.
   */
  private commitAhead(due: Due, parts: readonly Part[]): Part[] {
    const t = due.commitTurn
    if (t === undefined || due.alternative?.at(-1) !== 'commit' || this.state === undefined) return []
    const r = this.records.get(t)
    if (r === undefined || isResignation(r)) return []
    const commit: Part = {
      t: 'commit',
      turn: t,
      record: this.secrets?.recordCommitment(t, r.text) ?? new Uint8Array(32),
    }
    return this.state.schedule.aheadProblem([...parts, commit]) === undefined ? [commit] : []
  }

  /** Whether this side could send its commitment ahead with `due`, if only its player had chosen. */
  private mayCommitAhead(due: Due): boolean {
    const t = due.commitTurn
    if (t === undefined || due.alternative?.at(-1) !== 'commit' || this.records.has(t)) return false
    // Never waits for a decision about a turn that will not be played (SPEC §6.4).
    return !this.endedWith(t - 1) && this.stateAt(t) !== undefined
  }

  private salts(): Salts {
    const s = this.secrets
    if (s === undefined) throw new Error('no secrets before the game id')
    return { occupancy: (c) => s.salt('occupancy', c), detail: (c) => s.salt('detail', c) }
  }

  private reveal(): Part {
    const setup = this.setupChoice?.played
    // Never a reveal from what is not known yet: it would contradict this side's own commitments.
    if (setup === undefined) throw new Error('this side would reveal before its setup is known')
    const records: string[] = []
    for (let t = 1; t <= (this.state?.logs[this.me].commits.length ?? 0); t++) {
      const r = this.records.get(t)
      // A deviating test node may have sent a commitment for a turn its player was never asked
      // about (a commitment ahead in the last turn): it reveals that turn empty, and is convicted.
      if (r === undefined && this.o.deviation !== undefined) {
        records.push('')
        continue
      }
      if (r === undefined) throw new Error(`this side would reveal before its record of turn ${t} is known`)
      records.push(isResignation(r) ? '' : r.text)
    }
    return { t: 'reveal', seed: this.seed, setup: revealedSetup(setup), records }
  }

  /** SPEC §7.10: this side's reading of the result, from its transcript and the parts about to be sent. */
  private verdictPart(before: readonly Part[]): VerdictPart {
    const provisional = before.length === 0 ? [] : [this.sealParts(before).bytes]
    return verdictPartOf(verifyEnvelopes([...this.o.store.envelopes(), ...provisional]))
  }

  /** Seals `parts` as this side's next envelope. */
  private sealParts(parts: readonly Part[], override: Partial<SealOverride> = {}): SealedEnvelope {
    const seq = override.seq ?? this.mine.length
    const prev = this.mine[seq - 1]?.hash
    const ack = override.ack ?? this.latestTheirs()?.hash
    return seal(this.o.keys, {
      sender: this.me,
      seq,
      game: seq >= 1 ? (override.game ?? this.state?.game ?? this.refusalGame) : undefined,
      prev: seq >= 1 ? prev : undefined,
      ack: this.me === 'A' && seq === 0 ? undefined : ack,
      parts,
    })
  }

  private latestTheirs(): SealedEnvelope | undefined {
    return this.theirs[this.theirs.length - 1]
  }

  private async sendPhase(parts: readonly Part[]): Promise<void> {
    // SPEC §6.3: a phase envelope acknowledges the last phase envelope, never a stray one after it.
    await this.sendEnvelope(parts, (this.state?.lastPhase ?? this.latestTheirs())?.hash)
    this.afterProgress()
    const last = this.mine[this.mine.length - 1]
    const stop = last === undefined ? undefined : this.o.deviation?.stopAfterSending?.(last)
    if (stop !== undefined) await this.sendStop(stop, 'deviation: stopped after sending')
  }

  /** Seals, persists, admits to the state and sends one envelope (or a deviation's replacements). */
  private async sendEnvelope(parts: readonly Part[], ack: Uint8Array | undefined): Promise<void> {
    const honest = this.sealParts(parts, ack === undefined ? {} : { ack })
    const dev = this.o.deviation?.outgoing?.(parts, (p, override) =>
      this.sealParts(p, { ...(ack === undefined ? {} : { ack }), ...override }),
    )
    const out = dev === undefined || dev === 'withhold' ? [honest] : dev
    const own = out[0] ?? honest
    if (own.envelope.seq > LIMITS.maxSeq)
      throw new Error(`this side would sign envelope ${own.envelope.seq}, past the last seq (SPEC §9)`)
    for (const s of out) this.persist(s)
    this.mine.push(own)
    this.position.set(own.id, own.envelope.seq)
    if (this.state !== undefined) {
      if (isStopEnvelope(own)) this.state.applyStop(own)
      else {
        const bad = this.state.applyPhase(own, { own: true })
        // An honest side's own envelope that the schedule does not take is a fault of this
        // program: stop rather than sign the same step again.
        if (this.o.deviation === undefined && this.state.lastPhase !== own)
          throw new Error(`own envelope ${own.envelope.seq} not admitted: ${bad?.detail ?? 'unknown'}`)
      }
    }
    for (const s of out) this.emit({ kind: 'envelope', sealed: s, direction: 'sent' })
    if (dev !== 'withhold') for (const s of out) await this.o.channel.send(encodeEnvelopeFrame(s, this.frames()))
    this.waitingSince = this.clock.now()
  }

  private async sendStop(reason: StopReason, detail: string): Promise<void> {
    if (this.myStop() !== undefined) return
    const log = this.state?.logs[this.me]
    const parts: Part[] = [{ t: 'stop', reason, detail: asciiDetail(detail) }]
    if (log?.setup !== undefined && log.reveal === undefined) parts.push(this.reveal())
    // A stop acknowledges the last envelope of the peer this side acted on, never one merely stored.
    await this.sendEnvelope(parts, (this.theirs[this.taken - 1] ?? this.latestTheirs())?.hash)
    this.persistBelow = this.taken + LIMITS.afterStopEnvelopes
    this.emit({ kind: 'stopped', by: this.me, reason, detail })
    this.decisionAbort.abort()
  }

  private myStop(): SealedEnvelope | undefined {
    return this.state?.stops[this.me] ?? this.mine.find(isStopEnvelope)
  }

  /** The peer's stop, once the loop has acted on it (a stop merely stored is not answered yet). */
  private theirStop(): SealedEnvelope | undefined {
    return this.state?.stops[this.them] ?? this.theirs.slice(0, this.taken).find(isStopEnvelope)
  }

  /**
   * After this side's stop: keep receiving for `replyMs` and persist what arrives (SPEC §6.5), until
   * the peer stops too. A session that began already stopped settles a provisional result (SPEC
   * §12.7): it also waits, up to `settleMs`, until the peer holds every envelope of this side, so
   * the two transcripts end up holding the same evidence and decide the same result.
   */
  private async afterStop(): Promise<void> {
    const until = this.clock.now() + (this.settling ? (this.o.settleMs ?? this.terms.replyMs) : this.terms.replyMs)
    const done = (): boolean =>
      this.refused ||
      // A settle its command no longer needs ends at once (its own stop is long sent).
      (this.settling && this.o.signal?.aborted === true) ||
      // Settled once this side holds the peer's stop and the peer holds, or was just resent, every
      // envelope of this side (a peer that stopped acknowledges nothing more).
      (this.theirStop() !== undefined && (!this.settling || this.peerHeld >= this.mine.length || this.resentAll))
    while (!done()) {
      const ev = await this.nextEvent(until)
      if (ev.kind === 'deadline' || ev.kind === 'closed') return
      // A settle its command no longer needs ends when stopped from outside; a live game stopped
      // from outside still waits for the answer to the claim it just made (SPEC §6.5).
      if (ev.kind === 'aborted' && this.settling) return
      if (ev.kind === 'envelope' && this.state !== undefined) {
        this.tookEnvelope()
        if (isStopEnvelope(ev.sealed)) this.state.applyStop(ev.sealed)
        else this.state.applyPhase(ev.sealed)
      }
    }
  }

  /* --------------------------------------------------------------------------------------- */
  /* The player's decisions, and this side's own state (which it never sends)                 */

  private readonly decisionAbort = new AbortController()

  private startSetup(): void {
    if (this.setupPromise !== undefined) return
    this.setupPromise = (async () => {
      // Before the setup, fresh or resumed: the player's randomness for this game comes from the
      // seed the reveal discloses (strategy.ts `gameSecret`), so a finished game can be replayed.
      this.o.strategy.begin?.(gameSecret(this.seed))
      // The setup is due by setupMs from the hello that made it due (SPEC §6.6), shown to a person.
      const honest = await this.o.strategy.setup(
        this.ruleset,
        this.decisionAbort.signal,
        this.lastReceivedAt + this.terms.setupMs,
      )
      const valid = readSetup(
        formatSetup(honest),
        this.ruleset,
        this.terms.match.additional[ROLE_INDEX[this.me]],
        'strict',
      )
      if (!valid.ok && this.o.deviation?.setup === undefined)
        throw new Error(`the local player chose an illegal setup: ${valid.error.map((v) => v.message).join('; ')}`)
      this.setupChoice = this.o.deviation?.setup?.(honest) ?? { committed: honest, played: honest }
      this.states.set(1, initialPlayerState(this.setupChoice.played))
      this.checkRestoredSetup()
      // A resumed game: the journal gives back every committed turn's record, in order, checked.
      const committed = this.state?.logs[this.me].commits.length ?? 0
      for (let t = 1; t <= committed; t++) await this.startDecision(t)
      this.events.push({ kind: 'decision' })
    })().catch((e: unknown) => {
      this.failure ??= e
      this.events.push({ kind: 'decision' })
    })
  }

  /** Asks the player for turn `t`'s record once everything of turn `t - 1` is known. */
  private startDecision(t: number): Promise<void> {
    if (this.records.has(t) || this.deciding.has(t) || this.endedWith(t - 1)) return Promise.resolve()
    const state = this.stateAt(t)
    if (state === undefined || this.setupChoice === undefined) return Promise.resolve()
    this.deciding.add(t)
    const ctx: TurnContext = {
      role: this.me,
      ruleset: this.ruleset,
      turn: t,
      state,
      history: this.history(t - 1),
      signal: this.decisionAbort.signal,
      deadline: this.lastReceivedAt + this.terms.turnMs,
      deadlineNow: () => {
        const due = this.due()
        const mine = due?.sender === this.me && due.turn === t && due.parts.includes('commit')
        return mine ? this.lastReceivedAt + this.terms.turnMs : undefined
      },
    }
    return (async () => {
      const choice = await this.o.strategy.record(ctx)
      if (this.records.has(t)) return
      if (isResignation(choice)) this.records.set(t, choice)
      else {
        const checked = readRecord(this.ruleset, state, t, choice, 'lenient')
        const dev = this.o.deviation?.record?.(ctx, checked.ok ? checked.value : undefined)
        if (dev !== undefined) this.records.set(t, dev)
        else if (!checked.ok)
          throw new Error(
            `the local player chose an illegal record for turn ${t}: ${checked.error.map((v) => v.message).join('; ')}`,
          )
        else this.records.set(t, { text: formatRecord(checked.value.actions), record: checked.value })
      }
      this.checkRestoredRecord(t)
      this.events.push({ kind: 'decision' })
    })().catch((e: unknown) => {
      this.failure ??= e
      this.events.push({ kind: 'decision' })
    })
  }

  /** An error of the local player or of a resumed game's journal: it ends the session (nothing more is signed). */
  private failure: unknown
  /** The game id a refusal of B's hello is signed in (no game state exists for it). */
  private refusalGame: Uint8Array | undefined
  /** When the peer's last envelope arrived: this side's own deadline runs from about then. */
  private lastReceivedAt = 0

  /** After every envelope: start thinking about the next turn as soon as its information is complete. */
  private afterProgress(): void {
    const state = this.state
    if (state === undefined || state.schedule.end !== undefined) {
      if (state?.schedule.end !== undefined) this.finish()
      return
    }
    const next = state.logs[this.me].commits.length + 1
    if (this.stateAt(next) !== undefined) void this.startDecision(next)
  }

  private finishedCalled = false

  private finish(): void {
    if (this.finishedCalled || this.state === undefined) return
    const end = this.state.schedule.end
    const state = end === undefined ? undefined : this.stateAt(end.turn + 1)
    if (state === undefined || end === undefined) return
    this.finishedCalled = true
    void this.o.strategy.finished?.({
      role: this.me,
      ruleset: this.ruleset,
      turn: end.turn,
      state,
      history: this.history(end.turn),
    })
  }

  /**
   * Whether turn `t` is the game's last (SPEC §6.4): the player is never asked for a turn that
   * will not be played, even when its state is known before the schedule has marked the end.
   */
  private endedWith(t: number): boolean {
    if (t < 1 || this.state === undefined) return false
    if (t >= this.terms.maxTurns) return true
    const logs = this.state.logs
    return [logs.A, logs.B].some((l) => l.results[t - 1]?.fleetDestroyed === true || l.aspects[t - 1]?.idle === true)
  }

  /** This side's state at the start of turn `t`, once everything of turn `t - 1` is known. */
  private stateAt(t: number): PlayerState | undefined {
    const known = this.states.get(t)
    if (known !== undefined) return known
    if (t <= 1) return undefined
    const before = this.afterTurn(t - 1)
    if (before === undefined) return undefined
    // Turn t - 1 is over for this side only once its flashcube data is in, when it reported a
    // destruction; its own results may not be sent yet (a commitment ahead rides with them).
    const mine = this.state?.logs[this.me].results[t - 2] ?? this.resultsToSend(t - 1)
    if (mine === undefined || (mine.destroyed.length > 0 && !this.state?.logs[this.them].flashcubes.has(t - 1)))
      return undefined
    this.states.set(t, before)
    return before
  }

  /** This side's state at the end of turn `t`: once the peer's aspects and answers of it are known. */
  /** This side's results of turn `t`, as it will send them (the other's aspects are in). */
  private resultsToSend(t: number): Results | undefined {
    const theirAspects = this.state?.logs[this.them].aspects[t - 1]
    const r = this.records.get(t)
    const start = this.stateAt(t)
    if (theirAspects === undefined || r === undefined || isResignation(r) || start === undefined) return undefined
    return resultsMessage(
      t,
      theirAspects,
      resolveIncoming(this.ruleset, start, r.record, visibleAspectsOf(theirAspects)),
      this.salts(),
    )
  }

  private afterTurn(t: number): PlayerState | undefined {
    const start = this.stateAt(t)
    const r = this.records.get(t)
    const logs = this.state?.logs
    const theirAspects = logs?.[this.them].aspects[t - 1]
    const theirResults = logs?.[this.them].results[t - 1]
    const myAspects = logs?.[this.me].aspects[t - 1]
    if (
      start === undefined ||
      r === undefined ||
      isResignation(r) ||
      theirAspects === undefined ||
      theirResults === undefined ||
      myAspects === undefined
    )
      return undefined
    const half = resolveIncoming(this.ruleset, start, r.record, visibleAspectsOf(theirAspects))
    return withBurnouts(
      half.state,
      burnoutsOf(
        this.ruleset,
        r.record.beams.map((b) => b.ship),
        beamExchanges(theirResults, myAspects),
      ),
    )
  }

  /** What this side learnt in turns 1..`upTo`, in wire form (for the player). */
  private history(upTo: number): TurnSummary[] {
    const logs = this.state?.logs
    if (logs === undefined) return []
    const out: TurnSummary[] = []
    for (let t = 1; t <= upTo; t++) {
      const myAspects = logs[this.me].aspects[t - 1]
      const theirAspects = logs[this.them].aspects[t - 1]
      const theirResults = logs[this.them].results[t - 1]
      // This side's own results of the last turn may not be sent yet (a commitment ahead rides with them).
      const myResults = logs[this.me].results[t - 1] ?? this.resultsToSend(t)
      if (
        myAspects === undefined ||
        theirAspects === undefined ||
        theirResults === undefined ||
        myResults === undefined
      )
        break
      out.push({
        turn: t,
        myAspects,
        theirAspects,
        theirResults,
        myReports: myResults.destroyed,
        theirFlashcube: logs[this.them].flashcubes.get(t) ?? noFlashcube(t),
      })
    }
    return out
  }

  /* --------------------------------------------------------------------------------------- */
  /* Receiving (SPEC §2.1, §2.2)                                                              */

  /** Frames from the peer, turned into events, until the session ends or this side cannot persist. */
  private async receive(): Promise<void> {
    try {
      await this.receiveFrames()
    } catch (e) {
      this.failure ??= e
      this.events.push({ kind: 'decision' })
    }
  }

  private async receiveFrames(): Promise<void> {
    for (;;) {
      const r = await this.o.channel.receive(this.lifetime.signal)
      if (this.finished) return
      switch (r.kind) {
        case 'aborted':
          return
        case 'closed':
          this.events.push({ kind: 'closed' })
          return
        case 'reconnected':
          await this.o.channel.send(encodeResume(this.theirs.length))
          continue
        case 'malformed':
          this.events.push({ kind: 'bad', detail: r.detail })
          continue
        case 'frame':
          await this.frame(r.bytes)
      }
    }
  }

  private frames(): FrameContext {
    return {
      game: this.state?.game,
      hashAt: (role, seq) => (role === this.me ? this.mine : this.theirs)[seq]?.hash,
      positionOf: (id) => this.position.get(id),
    }
  }

  private async frame(bytes: Uint8Array): Promise<void> {
    const d = decodeFrame(bytes, this.them, this.frames())
    if (!d.ok) {
      this.events.push({ kind: 'bad', detail: `a malformed frame: ${describeProtocolError(d.error)}` })
      return
    }
    const f = d.value
    if (f.kind === 'control') {
      // SPEC §2.4: conversation, not evidence; beyond CHAT_PER_SECOND a second it is dropped.
      const now = this.clock.now()
      if (now - this.chatWindow.start >= 1000) this.chatWindow = { start: now, count: 0 }
      if (f.control === 'chat' && ++this.chatWindow.count <= LIMITS.chatPerSecond)
        this.emit({ kind: 'chat', text: f.text })
      else if (f.control !== 'chat') this.emit({ kind: 'rematch', control: f.control })
      return
    }
    if (f.kind === 'resume') return this.resend(f.held)
    this.envelopeBytes(f.bytes)
    this.feedHeld()
  }

  /** Envelopes held ahead of a gap or of the open window go in once they may (SPEC §2.2, §11). */
  private feedHeld(): void {
    for (;;) {
      const seq = this.theirs.length
      const next = this.ahead.get(seq)
      if (next === undefined || seq >= this.taken + LIMITS.openEnvelopes || seq >= this.persistBelow) return
      this.ahead.delete(seq)
      this.envelopeBytes(next)
      if (this.theirs.length === seq) return
    }
  }

  /** A stored envelope of the peer not yet acted on, taken out of the queue of events (the rest keep their order). */
  private pendingEnvelope(): Event | undefined {
    if (this.theirs.length <= this.taken) return undefined
    const held: Event[] = []
    let found: Event | undefined
    for (let e = this.events.poll(); e !== undefined; e = this.events.poll()) {
      if (found === undefined && e.kind === 'envelope') found = e
      else held.push(e)
    }
    for (const e of held) this.events.push(e)
    return found
  }

  /** The loop acts on one more of the peer's envelopes: one more may be persisted (SPEC §11). */
  private tookEnvelope(): void {
    this.taken++
    this.feedHeld()
  }

  /** One envelope of the peer: dropped if held, held if ahead, else authenticated, persisted and queued. */
  private envelopeBytes(bytes: Uint8Array): void {
    const framed = frameEnvelope(bytes)
    if (!framed.ok) {
      this.events.push({ kind: 'bad', detail: `not an envelope: ${describeProtocolError(framed.error)}` })
      return
    }
    const f = framed.value
    if (f.sender !== this.them) {
      this.events.push({ kind: 'bad', detail: `an envelope claiming to be from ${f.sender}` })
      return
    }
    const id = toBase64url(envelopeHash(f.unsigned))
    // SPEC §2.2: a held envelope (any copy) is dropped before its signature is checked.
    if (this.position.has(id) && this.theirs[this.position.get(id) ?? -1]?.id === id) return
    // SPEC §11: nothing of the peer past the stop limit is persisted; an envelope past the open
    // window waits, like one ahead of a gap (§2.2), until the loop has acted on the earlier ones.
    if (f.seq >= this.persistBelow) return
    if (f.seq > this.theirs.length || f.seq >= this.taken + LIMITS.openEnvelopes) {
      if (this.ahead.size < LIMITS.heldEnvelopes && !this.ahead.has(f.seq)) this.ahead.set(f.seq, bytes)
      return
    }
    const decoded = decodeFrameWith(f)
    const key =
      f.seq === 0 && decoded.ok && decoded.value.envelope.parts[0]?.t === 'hello'
        ? decoded.value.envelope.parts[0].key
        : this.theirKey()
    if (key === undefined || publicKeyProblem(key) !== undefined) {
      this.events.push({ kind: 'bad', detail: `${this.them}'s hello key is not usable` })
      return
    }
    if (!signatureValid({ bytes }, key)) {
      this.events.push({ kind: 'bad', detail: `${this.them}'s envelope ${f.seq} fails its signature` })
      return
    }
    if (f.seq < this.theirs.length) {
      // A second signed envelope at a place already held: equivocation, and both are evidence (SPEC §5.3).
      if (f.seq >= 1 && this.state !== undefined && sameGame(f.unsigned, this.state.game) && !this.equivocationHeld) {
        this.equivocationHeld = true
        this.persistBytes(bytes)
        this.events.push({
          kind: 'equivocation',
          detail: `${this.them} signed two different envelopes at its place ${f.seq}`,
        })
      }
      return
    }
    if (!decoded.ok) {
      this.events.push({
        kind: 'bad',
        detail: `${this.them}'s envelope ${f.seq} does not decode: ${describeProtocolError(decoded.error)}`,
      })
      return
    }
    const s = decoded.value
    const e = s.envelope
    if (e.seq >= 1) {
      if (this.state === undefined || !sameGame(f.unsigned, this.state.game)) {
        this.events.push({ kind: 'bad', detail: `${this.them}'s envelope ${e.seq} names another game` })
        return
      }
      if (e.prev === undefined || toBase64url(e.prev) !== this.theirs[e.seq - 1]?.id) {
        this.events.push({
          kind: 'bad',
          detail: `${this.them}'s envelope ${e.seq} does not follow its envelope ${e.seq - 1}`,
        })
        return
      }
    }
    this.persist(s)
    this.theirs.push(s)
    this.position.set(s.id, e.seq)
    this.notePeerAck(s)
    this.lastReceivedAt = this.clock.now()
    this.emit({ kind: 'envelope', sealed: s, direction: 'received' })
    this.events.push({ kind: 'envelope', sealed: s })
  }

  private theirKey(): Uint8Array | undefined {
    const h = this.theirs[0]?.envelope.parts[0]
    return h?.t === 'hello' ? h.key : undefined
  }

  /** SPEC §2.2: this side's envelopes from `held` on, within the resend budget per `replyMs`. */
  private async resend(held: number): Promise<void> {
    this.notePeerHeld(held)
    const now = this.clock.now()
    if (now - this.resendWindow.start >= this.terms.replyMs) this.resendWindow = { start: now, bytes: 0 }
    for (const s of this.mine.slice(held)) {
      const frame = encodeEnvelopeFrame(s, this.frames())
      if (this.resendWindow.bytes + frame.length > LIMITS.resendBudgetBytes) return
      this.resendWindow.bytes += frame.length
      await this.o.channel.send(frame)
    }
    if (this.settling) {
      this.resentAll = true
      this.events.push({ kind: 'decision' })
    }
  }

  /** The next event, or `deadline` once `at` (clock time) has passed. */
  private async nextEvent(at: number | undefined): Promise<Event> {
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

  /* --------------------------------------------------------------------------------------- */
  /* Persistence and resumption (SPEC §2.2, §11)                                               */

  private persist(s: SealedEnvelope): void {
    this.persistBytes(s.bytes)
  }

  private persistBytes(bytes: Uint8Array): void {
    this.o.store.append(bytes)
  }

  /**
   * Rebuilds the state from the envelopes a previous run of this game persisted: the same checks
   * admit them in the same order, and the journal gives back the secrets and the player's inputs,
   * checked against what was signed, so a resumed node never signs a second envelope at a place.
   */
  private restore(): void {
    const stored = this.o.store.envelopes()
    if (stored.length === 0) return
    for (const bytes of stored) {
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
  private notePeerAck(s: SealedEnvelope): void {
    const ack = s.envelope.ack === undefined ? undefined : toBase64url(s.envelope.ack)
    const at = ack === undefined ? undefined : this.position.get(ack)
    if (at !== undefined && this.mine[at]?.id === ack) this.notePeerHeld(at + 1)
  }

  private notePeerHeld(held: number): void {
    if (held <= this.peerHeld) return
    this.peerHeld = held
    // A settling side waits on this (afterStop); any event wakes its loop to look again.
    if (this.settling) this.events.push({ kind: 'decision' })
  }

  /** A resumed game: the journaled setup must be the one committed (never sign a second setup). */
  private checkRestoredSetup(): void {
    const log = this.state?.logs[this.me]
    if (log?.setup === undefined || this.secrets === undefined || this.setupChoice === undefined) return
    const vector = this.secrets.setupVector(cellValues(this.setupChoice.committed))
    if (toBase64url(vector) !== toBase64url(log.setup.cells))
      throw new Error(
        'resuming diverged: the journaled setup is not the one this side committed (is the journal of this game?)',
      )
  }

  /** A resumed game: a journaled record must be the one committed for its turn. */
  private checkRestoredRecord(t: number): void {
    const commit = this.state?.logs[this.me].commits[t - 1]
    const r = this.records.get(t)
    if (commit === undefined || r === undefined || isResignation(r) || this.secrets === undefined) return
    if (toBase64url(this.secrets.recordCommitment(t, r.text)) !== toBase64url(commit.record))
      throw new Error(`resuming diverged: the journaled record of turn ${t} is not the one this side committed`)
  }

  private emit(e: SessionEvent): void {
    if (log.enabled) log('%s %s', this.me, describeEvent(e))
    this.o.onEvent?.(e)
  }
}

function sameGame(unsigned: Uint8Array, game: Uint8Array): boolean {
  for (let i = 0; i < 32; i++) if (unsigned[4 + i] !== game[i]) return false
  return unsigned.length >= 36
}

/** Why terms cannot go into a hello (SPEC §6.1), or undefined: they are encoded and decoded strictly. */
export function termsProblem(terms: Terms): string | undefined {
  let bytes: Uint8Array
  try {
    bytes = encodeUnsigned({
      sender: 'A',
      seq: 0,
      game: undefined,
      prev: undefined,
      ack: undefined,
      parts: [{ t: 'hello', key: new Uint8Array(32), nonce: new Uint8Array(32), terms }],
    })
  } catch (e) {
    return (e as Error).message
  }
  const d = decodeFramed({ sender: 'A', seq: 0, unsigned: bytes, sig: new Uint8Array(64) })
  return d.ok ? undefined : describeProtocolError(d.error)
}

function sameTerms(a: Terms, b: Terms): boolean {
  return (
    toBase64url(
      encodeUnsigned({
        sender: 'A',
        seq: 0,
        game: undefined,
        prev: undefined,
        ack: undefined,
        parts: [{ t: 'hello', key: new Uint8Array(32), nonce: new Uint8Array(32), terms: a }],
      }),
    ) ===
    toBase64url(
      encodeUnsigned({
        sender: 'A',
        seq: 0,
        game: undefined,
        prev: undefined,
        ack: undefined,
        parts: [{ t: 'hello', key: new Uint8Array(32), nonce: new Uint8Array(32), terms: b }],
      }),
    )
  )
}

/** A detail text as the wire takes it (SPEC §3.1): printable ASCII, at most 200 bytes. */
function asciiDetail(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?').slice(0, LIMITS.detailBytes)
}

export function describeOffence(o: ProtocolOffence): string {
  return `${o.class} by ${o.offender} in turn ${o.turn} (${o.rule}): ${o.detail}`
}

/** SPEC §7.10: a verdict as a verdict part states it. */
export function verdictPartOf(v: Verdict): VerdictPart {
  const detail = (text: string): string => asciiDetail(text)
  switch (v.status) {
    case 'complete':
      return {
        t: 'verdict',
        outcome: 'complete',
        winner: v.winner,
        scores: v.scores,
        detail: detail(`${v.reason} after turn ${v.turn}`),
      }
    case 'resigned':
      return { t: 'verdict', outcome: 'resigned', winner: v.winner, scores: [0, 0], detail: detail(`${v.by} resigned`) }
    case 'offence':
      return {
        t: 'verdict',
        outcome: 'offence',
        winner: v.winner,
        scores: [0, 0],
        detail: detail(describeOffence(v.offence)),
      }
    case 'abandoned':
      return {
        t: 'verdict',
        outcome: v.how === 'stopped' ? 'abandoned' : 'no-reveal',
        winner: v.winner,
        scores: [0, 0],
        detail: detail(v.detail),
      }
    case 'adjudicated':
      return { t: 'verdict', outcome: 'adjudicated', winner: v.winner, scores: v.scores, detail: detail(v.detail) }
    case 'incomplete':
      return { t: 'verdict', outcome: 'incomplete', winner: 'none', scores: [0, 0], detail: detail(v.detail) }
    case 'unreadable':
      return { t: 'verdict', outcome: 'incomplete', winner: 'none', scores: [0, 0], detail: 'unreadable' }
  }
}

const log = componentLogger('session')

/**
 * How long the last envelope of a turn waits for the player's next record, so that its commitment
 * rides along (SPEC §6.3): about one one-way delay between two machines, so waiting never costs
 * more than the message it saves; a bot has chosen by then, a person has not and loses nothing.
 */
const AHEAD_WAIT_MS = 25

/** One line per session event, for `DEBUG=spaceships:session`. */
function describeEvent(e: SessionEvent): string {
  switch (e.kind) {
    case 'envelope':
      return `${e.direction} ${e.sealed.envelope.sender}${e.sealed.envelope.seq} ${e.sealed.envelope.parts.map((p) => p.t).join('+')}`
    case 'waiting':
      return `waiting for ${e.side}'s ${e.what} until ${new Date(e.deadline).toISOString()}`
    case 'stopped':
      return `${e.by} stopped (${e.reason}): ${e.detail}`
    case 'chat':
      return `chat: ${e.text}`
    case 'rematch':
      return `heard ${e.control}`
    case 'ignored':
      return `ignored: ${e.detail}`
  }
}

/** The reason a finished wait's timer is cancelled with (never surfaced: the sleep just ends). */
const WAIT_OVER = new Error('the wait is over')
