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
 *
 * The session is one object whose parts each do one thing, a file each, each building on the one
 * before: `base.ts` (the state, persistence, resumption), `intake.ts` (receiving),
 * `player.ts` (the player's decisions and this side's own state), `compose.ts` (what this side
 * signs and sends), and here the loop that decides what happens next.
 */
import type { SealedEnvelope } from '../protocol/envelope.js'
import { isStopEnvelope } from '../verify/game.js'
import type { Due } from '../verify/schedule.js'
import { verifyEnvelopes } from '../verify/verify.js'
import { WITNESS_MARGIN_MS } from '../witness/registrar.js'
import { outageMs } from '../verify/witnessed.js'
import { isResignation } from './strategy.js'
import type { SessionOptions, SessionResult } from './options.js'
import type { Event } from './queue.js'
import { describeOffence } from './terms.js'
import { Composer } from './compose.js'
import { StorageError } from '../../../core/session/file-store.js'

export {
  type ClaimAnswer,
  type Deviation,
  type SealOverride,
  type SessionEvent,
  type SessionOptions,
  type SessionResult,
  type SessionWitness,
} from './options.js'
export { describeOffence, termsProblem, verdictPartOf } from './terms.js'

export function runSession(o: SessionOptions): Promise<SessionResult> {
  return new Session(o).run()
}

class Session extends Composer {
  async run(): Promise<SessionResult> {
    this.restore()
    const sent = this.o.signing?.count()
    if (sent !== undefined && sent > this.mine.length)
      throw new StorageError(
        `the transcript holds ${this.mine.length} of the ${sent} envelopes this node signed and sent (its journal says so): ` +
          'resuming would sign again at a place it has signed (SPEC §2.2); put the whole transcript back, or let the file of the other player decide the game',
      )
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
      // A record prompt still open (the game ended by an accepted draw while this player chose
      // its next move) is withdrawn: it stayed on the screen, redrawn into the end screen.
      this.decisionAbort.abort()
      this.o.channel.close()
    }
    // PROTOCOL-4.md §4.4: a witnessed verdict rests on the log; what the notary receipted meanwhile
    // (the other side's stop, its claim receipt) is fetched before this side decides, within a moment.
    const w = this.o.witness
    if (w !== undefined) {
      const enough = new AbortController()
      await Promise.race([
        w.refresh(enough.signal).catch(() => undefined),
        this.clock.sleep(FINAL_FETCH_MS, enough.signal).catch(() => undefined),
      ])
      enough.abort()
    }
    // A copy: a store may hand out the array it keeps appending to (the witness link adds receipts
    // after this), and the transcript returned is the one the verdict was reached on.
    const transcript = [...this.o.store.envelopes()]
    const last = this.paused ? this.lastTurnKnown() : undefined
    return {
      verdict: verifyEnvelopes(transcript),
      transcript,
      ...(this.paused ? { paused: true as const } : {}),
      ...(this.unmet ? { unmet: true as const } : {}),
      ...(last === undefined ? {} : { lastTurn: last }),
    }
  }

  protected async loop(): Promise<void> {
    if (this.me === 'A' && this.mine.length === 0) await this.sendHello()
    // B persisted A's hello and died before persisting its own (SPEC §2.2): the stored hello counts
    // as acted on, and A, whose hello B holds, resends nothing, so B answers it now.
    const helloA = this.theirs[0]
    if (this.me === 'B' && this.mine.length === 0 && helloA !== undefined) await this.takeHello(helloA)
    for (;;) {
      if (this.failure !== undefined)
        throw this.failure instanceof Error ? this.failure : new Error('the session failed')
      if (this.refused || this.unmet) return
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
        // PROTOCOL-4.md §4.4: a witnessed game is not stopped by its player quitting: it pauses,
        // nothing signed, and goes on at the next resume (only a receipted claim claims).
        if (this.witnessed) {
          this.paused = true
          return
        }
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
        this.emit({ kind: 'waiting', side: this.me, what: due.parts.join('+'), deadline: this.ownDeadline(ms) })
        // `spaceships watch`: the automatic steps are done; the player's own decision is not waited for.
        if (this.o.checkIn?.pauseOnDecision === true) {
          const ev = await this.nextEvent(this.clock.now() + this.o.checkIn.quietMs)
          if (ev.kind === 'deadline') {
            this.paused = true
            return
          }
          await this.handle(ev, due)
          continue
        }
        await this.handle(await this.events.next(), due)
        continue
      }
      // The peer's turn. A missing courtesy verdict (version 3) or close (version 4) at the very end
      // is waited for, never claimed: both reveals are in, and nothing the peer could still send
      // changes the result.
      const courtesy =
        due.phase === 'end' && due.parts.length === 1 && (due.parts[0] === 'verdict' || due.parts[0] === 'close')
      if (this.witnessed) {
        if (await this.waitWitnessed(due, courtesy)) return
        continue
      }
      // A check-in (PROTOCOL-4.md §4, games across days): once the peer owes the next step and
      // nothing more has come for a while, this side has done all it can: it pauses, never claims.
      const checkIn = this.o.checkIn
      if (checkIn !== undefined) {
        this.emit({ kind: 'waiting', side: this.them, what: due.parts.join('+'), deadline: this.deadlineOf(due) })
        const ev = await this.nextEvent(this.clock.now() + checkIn.quietMs)
        if (ev.kind === 'deadline') {
          if (this.choosingAhead()) continue
          this.paused = true
          return
        }
        await this.handle(ev, due)
        continue
      }
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
  protected async handle(ev: Event, due: Due | undefined): Promise<void> {
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
        // In a witnessed game nothing but a receipted deadline ends it (PROTOCOL-4.md §4.4).
        // Before both hellos there is no game to stop: the reply time decides whether they met.
        if (due?.sender === this.them && !this.witnessed && this.state !== undefined)
          await this.sendStop('claim', ev.detail)
        return
      case 'closed':
        if (due?.sender === this.them && this.state === undefined) this.unmet = true
        else if (due?.sender === this.them && !this.witnessed)
          await this.sendStop('claim', `the connection closed while waiting for ${due.parts.join('+')}`)
        return
      case 'deadline':
        if (this.o.signal?.aborted === true) return
        // SPEC §6.2: no hello from the other side in the reply time: they never met, and a stop
        // (B's would not even be a hello at seq 0) would end an invite that is still good.
        if (due?.sender === this.them && this.state === undefined) this.unmet = true
        else if (this.witnessed) return
        else if (due?.sender === this.them)
          await this.sendStop('claim', `no ${due.parts.join('+')} within the deadline`)
        return
    }
  }

  /**
   * The peer owes `due` in a witnessed game (PROTOCOL-4.md §4.4): wait for it, looking at the
   * notary's log now and then, and once the node's clock passes the deadline `D` the receipts give,
   * ask the notary for a claim; sign the claim stop only with its receipt. A check-in pauses when
   * nothing is left to do before `D`. True when the session is to return (paused).
   */
  /** A check-in's person at a terminal is typing a record while the peer owes the next step (`awaitDecision`). */
  private choosingAhead(): boolean {
    return this.o.checkIn?.awaitDecision === true && [...this.deciding].some((t) => !this.records.has(t))
  }

  protected async waitWitnessed(due: Due, courtesy: boolean): Promise<boolean> {
    const w = this.o.witness
    // PROTOCOL-4.md §5.3: a complaint receipt proves the peer's false deposit; rule 1 decides.
    const offence = w?.offence()
    if (offence !== undefined) {
      await this.sendStop('accusation', offence)
      return false
    }
    // D is never below `lower`: its start is the receipt of the envelope this side sent at
    // `waitingSince`, and its step's time is at least the terms' for it. The receipts' D walks the
    // whole transcript (the verifier's own reckoning, so a claim is never early by another's), so a
    // running node reckons it only from `lower` on; a check-in, which has no time to wait, at once.
    const lower = this.deadlineOf(due) + WITNESS_MARGIN_MS
    const now = this.clock.now()
    const owed = w !== undefined && (now >= lower || this.o.checkIn !== undefined) ? w.due() : undefined
    const D = owed?.side === this.them ? owed.deadline : undefined
    const claimAt = D === undefined ? (now < lower ? lower : undefined) : Math.max(D + 1, this.claimNotBefore)
    const waiting = { kind: 'waiting', side: this.them, what: due.parts.join('+'), deadline: D ?? lower } as const
    const key = `${waiting.side}:${waiting.what}:${waiting.deadline}`
    if (key !== this.lastWaiting) this.emit(waiting)
    this.lastWaiting = key
    // §4.5: the player asked to end it by an outage, and the peer is an outage period past D.
    if (this.o.outage === true && D !== undefined && now >= D + outageMs(this.terms) && !courtesy) {
      await this.sendStop('outage', `the notary receipted nothing after ${new Date(D).toISOString()}`)
      return false
    }
    if (w !== undefined && D !== undefined && now >= Math.max(D + 1, this.claimNotBefore) && !courtesy) {
      const answer = await w.claim(this.mine.length, D, this.lifetime.signal)
      switch (answer.kind) {
        case 'granted':
          await this.sendStop('claim', `no ${due.parts.join('+')} by the deadline, as the notary's receipt shows`)
          return false
        case 'newer':
          return false
        case 'not-before':
          this.claimNotBefore = answer.time
          return false
        case 'failed':
          this.emit({ kind: 'ignored', detail: `claim not receipted: ${answer.detail}` })
          this.claimNotBefore = now + WITNESS_POLL_MS
          return false
      }
    }
    const checkIn = this.o.checkIn
    const outageAt = this.o.outage === true && D !== undefined ? D + outageMs(this.terms) : Number.POSITIVE_INFINITY
    const wake = Math.min(claimAt ?? Number.POSITIVE_INFINITY, outageAt, now + (checkIn?.quietMs ?? WITNESS_POLL_MS))
    const ev = await this.nextEvent(wake)
    if (ev.kind === 'aborted') {
      this.paused = true
      return true
    }
    if (ev.kind !== 'deadline') {
      await this.handle(ev, due)
      return false
    }
    if (courtesy && checkIn === undefined) return true
    if (claimAt !== undefined && this.clock.now() >= claimAt) return false
    // Quiet: a check-in has done all it can (but for a person still typing a record ahead, who is
    // waited for); a running node looks at the log (an envelope the stream lost may be there) and
    // waits on.
    if (this.choosingAhead()) return false
    if (checkIn !== undefined) {
      this.paused = true
      return true
    }
    await w?.refresh(this.lifetime.signal).catch(() => undefined)
    return false
  }

  /** A new envelope of the peer, authenticated and in order: a stop, or the due phase envelope. */
  protected async takeEnvelope(s: SealedEnvelope, due: Due | undefined): Promise<void> {
    if (this.state === undefined) return this.takeHello(s)
    if (isStopEnvelope(s)) {
      const bad = this.state.applyStop(s)
      if (bad !== undefined) this.emit({ kind: 'ignored', detail: `${this.them}'s stop: ${bad.detail}` })
      const stop = s.envelope.parts[0]
      if (stop?.t === 'stop') this.emit({ kind: 'stopped', by: this.them, reason: stop.reason, detail: stop.detail })
      return
    }
    const standing = this.state.schedule.offer
    const off = this.state.applyPhase(s)
    if (off !== undefined) {
      await this.sendStop('accusation', describeOffence(off))
      return
    }
    // Version 4 (SPEC §7.11, §7.12): an offer of a draw made, or what became of this side's.
    const parts = s.envelope.parts
    if (parts.at(-1)?.t === 'offer') this.emit({ kind: 'draw', by: this.them, what: 'offered' })
    else if (standing === this.me && parts.some((p) => p.t === 'accept'))
      this.emit({ kind: 'draw', by: this.them, what: 'accepted' })
    else if (standing === this.me && parts.some((p) => p.t === 'commit'))
      this.emit({ kind: 'draw', by: this.them, what: 'declined' })
    const stop = this.o.deviation?.stopAfterReceiving?.(s)
    if (stop !== undefined) {
      await this.sendStop(stop, 'deviation: stopped instead of answering')
      return
    }
    if (due?.sender !== this.them) return
    this.afterProgress()
  }

  /**
   * After this side's stop: keep receiving for `replyMs` and persist what arrives (SPEC §6.5), until
   * the peer stops too. A session that began already stopped settles a provisional result (SPEC
   * §12.7): it also waits, up to `settleMs`, until the peer holds every envelope of this side, so
   * the two transcripts end up holding the same evidence and decide the same result.
   */
  protected async afterStop(): Promise<void> {
    const until =
      this.clock.now() +
      // A check-in does not wait a reply period for the answer: the next check-in fetches it.
      (this.o.checkIn !== undefined
        ? this.o.checkIn.quietMs
        : this.settling
          ? (this.o.settleMs ?? this.terms.replyMs)
          : this.terms.replyMs)
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
}

/**
 * How long the last envelope of a turn waits for the player's next record, so that its commitment
 * rides along (SPEC §6.3): about one one-way delay between two machines, so waiting never costs
 * more than the message it saves; a bot has chosen by then, a person has not and loses nothing.
 */
const AHEAD_WAIT_MS = 25

/** How often a node waiting in a witnessed game looks at the notary's log (PROTOCOL-4.md §4.4). */
export const WITNESS_POLL_MS = 10_000

/** How long a witnessed session's end waits for its last look at the notary's log. */
const FINAL_FETCH_MS = 5_000
