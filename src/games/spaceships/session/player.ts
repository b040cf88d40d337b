/**
 * The local player's side (SPEC §6.3, §6.4): its setup and each turn's record, asked for as soon as
 * everything they depend on is known, and this side's own state, which it never sends.
 */
import { toBase64url } from '../../../core/commit/bytes.js'
import { readRecord } from '../rules/legality.js'
import { formatRecord } from '../rules/record.js'
import { burnoutsOf, resolveIncoming, withBurnouts } from '../rules/resolve.js'
import { formatSetup, readSetup } from '../rules/setup.js'
import { type PlayerState, initialPlayerState } from '../rules/state.js'
import { type Results, type Role, ROLE_INDEX } from '../protocol/messages.js'
import { beamExchanges, cellValues, visibleAspectsOf } from '../verify/replay.js'
import type { Due } from '../verify/schedule.js'
import { isPlayed } from './base.js'
import {
  type TurnContext,
  type TurnSummary,
  gameSecret,
  isDrawAcceptance,
  isDrawOffer,
  isResignation,
  recordText,
} from './strategy.js'
import { type Salts, noFlashcube, resultsMessage } from './wire.js'
import { Intake } from './intake.js'
import { WITNESS_MARGIN_MS } from '../witness/registrar.js'

/**
 * When side `me`'s own due step of `ms` passes its deadline: the receipts' `D` where they say this
 * side owes it (`owed`, a witnessed check-in, PROTOCOL-4.md §4.2), else `ms` (and, witnessed, the
 * notary's margin) after the last envelope received.
 */
export function ownStepDeadline(
  me: Role,
  owed: { readonly side: Role; readonly deadline: number | undefined } | undefined,
  witnessed: boolean,
  lastReceivedAt: number,
  ms: number,
): number {
  if (owed?.side === me && owed.deadline !== undefined) return owed.deadline
  return lastReceivedAt + ms + (witnessed ? WITNESS_MARGIN_MS : 0)
}

export abstract class PlayerSide extends Intake {
  /** The next step of the schedule (`compose.ts`). */
  protected abstract due(): Due | undefined

  protected salts(): Salts {
    const s = this.secrets
    if (s === undefined) throw new Error('no secrets before the game id')
    return { occupancy: (c) => s.salt('occupancy', c), detail: (c) => s.salt('detail', c) }
  }

  protected startSetup(): void {
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

  /** PROTOCOL-4.md §4.4: a version 4 game whose terms name a notary. */
  protected get witnessed(): boolean {
    return this.terms.notary !== undefined
  }

  /**
   * When this side's own due step of `ms` passes its deadline. In a check-in of a witnessed game,
   * the receipts' `D` (PROTOCOL-4.md §4.2, the notary's time, as `games` shows it): counted from
   * when this machine fetched the other side's envelope, a player checking in a day after it was
   * receipted was told it had a whole day. Else counted from the last envelope received (a running
   * node does not walk its transcript at every step).
   */
  protected ownDeadline(ms: number): number {
    const owed = this.witnessed && this.o.checkIn !== undefined ? this.o.witness?.due() : undefined
    return ownStepDeadline(this.me, owed, this.witnessed, this.lastReceivedAt, ms)
  }

  /** Asks the player for turn `t`'s record once everything of turn `t - 1` is known. */
  protected startDecision(t: number): Promise<void> {
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
      deadline: this.ownDeadline(this.terms.turnMs),
      deadlineNow: () => {
        const due = this.due()
        const mine = due?.sender === this.me && due.turn === t && due.parts.includes('commit')
        return mine ? this.ownDeadline(this.terms.turnMs) : undefined
      },
      moveMs: this.terms.turnMs,
      ...(this.version === 4 ? { mayOfferDraw: true, drawOffered: () => this.drawStandsFor(t) } : {}),
    }
    return (async () => {
      const choice = await this.o.strategy.record(ctx)
      // The game stopped or ended while the player chose: nothing is needed of the choice.
      if (this.records.has(t) || this.decisionAbort.signal.aborted) return
      if (isResignation(choice)) this.records.set(t, choice)
      else if (isDrawAcceptance(choice)) {
        // Only an offer that stands for this very decision can be accepted (SPEC §7.12).
        if (!this.drawStandsFor(t))
          throw new Error(`the local player accepted a draw in turn ${t} that no offer stands for`)
        this.records.set(t, choice)
      } else {
        if (isDrawOffer(choice)) {
          if (this.version !== 4) throw new Error('a draw can be offered from protocol version 4 only')
          // A resumed game: the journal gives back the record with its offer, which is armed only if
          // this side has not already signed it (SPEC §2.2: the same envelopes, never one more).
          if (!this.offerSentSince(t)) this.drawOfferFrom ??= t
        }
        const text = recordText(choice) ?? ''
        const checked = readRecord(this.ruleset, state, t, text, 'lenient')
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

  /**
   * Version 4 (SPEC §7.11, §7.12): whether the other side's offer of a draw stands for this side's
   * decision of turn `t`: it stands until this side commits, and this side has not committed `t`.
   */
  protected drawStandsFor(t: number): boolean {
    return this.state?.schedule.offer === this.them && this.state.logs[this.me].commits.length === t - 1
  }

  /** After every envelope: start thinking about the next turn as soon as its information is complete. */
  protected afterProgress(): void {
    const state = this.state
    if (state === undefined || state.schedule.end !== undefined) {
      if (state?.schedule.end !== undefined) this.finish()
      return
    }
    const next = state.logs[this.me].commits.length + 1
    if (this.stateAt(next) !== undefined) void this.startDecision(next)
  }

  protected finish(): void {
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
  protected endedWith(t: number): boolean {
    if (t < 1 || this.state === undefined) return false
    if (t >= this.terms.maxTurns) return true
    const logs = this.state.logs
    return [logs.A, logs.B].some((l) => l.results[t - 1]?.fleetDestroyed === true || l.aspects[t - 1]?.idle === true)
  }

  /** This side's state at the start of turn `t`, once everything of turn `t - 1` is known. */
  protected stateAt(t: number): PlayerState | undefined {
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

  /** This side's results of turn `t`, as it will send them (the other's aspects are in). */
  protected resultsToSend(t: number): Results | undefined {
    const theirAspects = this.state?.logs[this.them].aspects[t - 1]
    const r = this.records.get(t)
    const start = this.stateAt(t)
    if (theirAspects === undefined || !isPlayed(r) || start === undefined) return undefined
    return resultsMessage(
      t,
      theirAspects,
      resolveIncoming(this.ruleset, start, r.record, visibleAspectsOf(theirAspects)),
      this.salts(),
      this.version,
    )
  }

  /** This side's state at the end of turn `t`: once the peer's aspects and answers of it are known. */
  protected afterTurn(t: number): PlayerState | undefined {
    const start = this.stateAt(t)
    const r = this.records.get(t)
    const logs = this.state?.logs
    const theirAspects = logs?.[this.them].aspects[t - 1]
    const theirResults = logs?.[this.them].results[t - 1]
    const myAspects = logs?.[this.me].aspects[t - 1]
    if (
      start === undefined ||
      r === undefined ||
      !isPlayed(r) ||
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
  protected history(upTo: number): TurnSummary[] {
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
        myResults,
        theirFlashcube: logs[this.them].flashcubes.get(t) ?? noFlashcube(t),
      })
    }
    return out
  }

  /**
   * The last turn as far as this side knows it, for a check-in that pauses (PROTOCOL-4.md §4): a
   * first mover that answered the other side's aspects has told what they did to its ships, and
   * waits for the answers to its own, which stay unknown (empty `theirResults`: "Rv1 ?"). Its
   * player would otherwise learn of a ship lost only at its next check-in.
   */
  lastTurnKnown():
    { readonly turn: TurnSummary; readonly state: PlayerState | undefined; readonly answered: boolean } | undefined {
    const logs = this.state?.logs
    if (logs === undefined) return undefined
    const known = this.history(this.terms.maxTurns)
    const t = known.length + 1
    const myAspects = logs[this.me].aspects[t - 1]
    const theirAspects = logs[this.them].aspects[t - 1]
    const myResults = logs[this.me].results[t - 1] ?? this.resultsToSend(t)
    const last =
      myAspects === undefined || theirAspects === undefined || myResults === undefined
        ? known.at(-1)
        : {
            turn: t,
            myAspects,
            theirAspects,
            theirResults: {
              t: 'results' as const,
              turn: t,
              fleetDestroyed: false,
              beams: [],
              strikes: [],
              scans: [],
              destroyed: [],
            },
            myReports: myResults.destroyed,
            myResults,
            theirFlashcube: noFlashcube(t),
          }
    return last === undefined ? undefined : { turn: last, state: this.stateAt(1), answered: last === known.at(-1) }
  }

  /** A resumed game: the journaled setup must be the one committed (never sign a second setup). */
  protected checkRestoredSetup(): void {
    const log = this.state?.logs[this.me]
    if (log?.setup === undefined || this.secrets === undefined || this.setupChoice === undefined) return
    const vector = this.secrets.setupVector(cellValues(this.setupChoice.committed))
    if (toBase64url(vector) !== toBase64url(log.setup.cells))
      throw new Error(
        'resuming diverged: the journaled setup is not the one this side committed (is the journal of this game?)',
      )
  }

  /**
   * Version 4 (SPEC §7.11): whether this side already signed an offer of a draw in an envelope of
   * turn `t` or later, the one a record of turn `t` that came with an offer rides on (`drawOffer`).
   */
  protected offerSentSince(t: number): boolean {
    const log = this.state?.logs[this.me]
    const seq = log?.seqs.get('offer')
    if (log === undefined || seq === undefined) return false
    for (const [key, s] of log.seqs) {
      const m = /^(?:commit|aspects|results|flashcube):(\d+)$/.exec(key)
      if (s === seq && m !== null && Number(m[1]) >= t) return true
    }
    return false
  }

  /** A resumed game: a journaled record must be the one committed for its turn. */
  protected checkRestoredRecord(t: number): void {
    const commit = this.state?.logs[this.me].commits[t - 1]
    const r = this.records.get(t)
    if (commit === undefined || !isPlayed(r) || this.secrets === undefined) return
    if (toBase64url(this.secrets.recordCommitment(t, r.text)) !== toBase64url(commit.record))
      throw new Error(`resuming diverged: the journaled record of turn ${t} is not the one this side committed`)
  }
}
