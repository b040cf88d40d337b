/**
 * One game's state as both sides see it on the wire (protocol/SPEC.md §6.3, §8, §12.3, §12.4):
 * the schedule, each side's parts in order, and the public view of each side's space. Every
 * envelope is admitted here, by the session as it arrives and by the verifier as it walks a
 * transcript, with the same checks in the same order, so a live verdict and an audit agree.
 */
import { parseRuleset, type Ruleset } from '../rules/ruleset.js'
import { equalBytes } from '../../../core/commit/bytes.js'
import type { SealedEnvelope } from '../protocol/envelope.js'
import { type Part, type ProtocolVersion, ROLE_INDEX, type Role, type Terms, otherRole } from '../protocol/messages.js'
import { type SideLog, emptySideLog, logPart } from './log.js'
import { type ProtocolOffence, STAGE, type Stage } from './offence.js'
import { type Due, Schedule, matchesDue } from './schedule.js'
import { SideView } from './view.js'

export function describeParts(parts: readonly { readonly t: string }[]): string {
  return parts.map((p) => p.t).join('+')
}

export class GameState {
  readonly logs: Record<Role, SideLog> = { A: emptySideLog('A'), B: emptySideLog('B') }
  readonly schedule: Schedule
  readonly ruleset: Ruleset
  readonly views: Partial<Record<Role, SideView>> = {}
  /** The last phase envelope admitted: the next one must acknowledge it (SPEC §6.3). */
  lastPhase: SealedEnvelope | undefined
  /** Each side's stop envelope, once admitted (SPEC §6.5). */
  readonly stops: Partial<Record<Role, SealedEnvelope>> = {}
  /** The game's version (SPEC §5.1), which A's hello states. */
  readonly version: ProtocolVersion

  /**
   * Starts from the two hellos, which the caller has checked (keys, signatures, B's ack of A's
   * hello): `terms` are A's.
   */
  constructor(
    readonly terms: Terms,
    readonly game: Uint8Array,
    helloA: SealedEnvelope,
    helloB: SealedEnvelope,
  ) {
    const r = parseRuleset(terms.ruleset)
    if (!r.ok) throw new Error(`terms hold an unusable ruleset: ${r.error.message}`)
    this.ruleset = r.value
    this.version = helloA.envelope.version
    this.schedule = new Schedule(terms.maxTurns, this.version)
    for (const h of [helloA, helloB]) {
      for (const p of h.envelope.parts) logPart(this.logs[h.envelope.sender], p, 0)
      this.schedule.advance(h.envelope.parts)
      this.lastPhase = h
    }
  }

  due(): Due | undefined {
    return this.schedule.due()
  }

  private violation(
    sender: Role,
    seq: number,
    turn: number,
    detail: string,
    rule = 'SPEC §6.3',
    stage: Stage = STAGE.schedule,
  ): ProtocolOffence {
    return { offender: sender, class: 'protocol-violation', rule, turn, stage, detail, seq }
  }

  /** The turn an envelope of `sender` belongs to when it breaks the schedule: the one in play. */
  private currentTurn(): number {
    return this.schedule.turn
  }

  /**
   * SPEC §6.3, §12.3, §12.4: admits the due phase envelope, or returns the offence it holds (then
   * nothing of it is admitted past the failing part). The caller has authenticated it.
   */
  applyPhase(s: SealedEnvelope, options: { readonly own?: boolean } = {}): ProtocolOffence | undefined {
    const e = s.envelope
    const X = e.sender
    const due = this.schedule.due()
    const turn = this.currentTurn()
    if (this.stops[X] !== undefined)
      return this.violation(X, e.seq, turn, `${describeParts(e.parts)} after its own stop`, 'SPEC §6.5')
    if (due === undefined)
      return this.violation(X, e.seq, turn, `${describeParts(e.parts)} after the game's last envelope`)
    if (due.sender !== X)
      return this.violation(X, e.seq, turn, `${describeParts(e.parts)} sent when ${due.sender} was due`)
    if (!matchesDue(due, e.parts))
      return this.violation(X, e.seq, turn, `${describeParts(e.parts)} sent where ${due.parts.join('+')} was due`)
    if (this.lastPhase === undefined || e.ack === undefined || !equalBytes(e.ack, this.lastPhase.hash)) {
      return this.violation(
        X,
        e.seq,
        turn,
        `envelope ${e.seq} does not acknowledge ${otherRole(X)}'s previous envelope (${otherRole(X)} ${this.lastPhase?.envelope.seq ?? '?'})`,
        'SPEC §6.3 §5.1',
      )
    }
    for (const p of e.parts) {
      // A commitment sent ahead, at the end of a turn's last envelope, names the next turn (SPEC §6.3).
      const want = p.t === 'commit' ? (due.commitTurn ?? due.turn) : due.turn
      if ('turn' in p && p.turn !== want)
        return this.violation(X, e.seq, turn, `${p.t} names turn ${p.turn} where turn ${want} is due`)
    }
    // A session admits its own envelopes too, to follow the schedule: a deliberately deviating
    // test node is admitted whatever its envelope holds (its peer and the verifier convict it).
    let first: ProtocolOffence | undefined
    for (const p of e.parts) {
      const bad = this.check(X, p)
      if (bad !== undefined) {
        first ??= { ...bad, seq: e.seq }
        if (options.own !== true) return first
      }
      logPart(this.logs[X], p, e.seq)
    }
    // Checked after the parts: a false report that also sends a commitment ahead is the false report.
    const ahead = this.schedule.aheadProblem(e.parts) ?? this.schedule.offerProblem(e.parts)
    if (ahead !== undefined) {
      first ??= this.violation(X, e.seq, turn, ahead)
      if (options.own !== true) return first
    }
    this.schedule.advance(e.parts)
    this.lastPhase = s
    return first
  }

  /** Checks one part against the state (SPEC §8, §12.4) and learns from it. */
  private check(X: Role, p: Part): ProtocolOffence | undefined {
    const Y = otherRole(X)
    switch (p.t) {
      case 'setup':
        this.views[X] = new SideView(
          X,
          this.ruleset,
          this.game,
          p.cells,
          this.terms.match.additional[ROLE_INDEX[X]],
          this.version,
        )
        return undefined
      case 'aspects':
        return this.views[X]?.checkAspects(p.turn, p)
      case 'results': {
        const own = this.logs[X].aspects[p.turn - 1]
        const incoming = this.logs[Y].aspects[p.turn - 1]
        const view = this.views[X]
        if (own === undefined || incoming === undefined || view === undefined) return undefined
        const bad = view.checkResults(p.turn, p, own, incoming)
        if (bad === undefined) this.views[Y]?.noteBeamAnswers(p.beams)
        return bad
      }
      case 'flashcube': {
        const theirs = this.logs[Y].results[p.turn - 1]
        return theirs === undefined ? undefined : this.views[X]?.checkFlashcube(p.turn, p, theirs.destroyed)
      }
      default:
        return undefined
    }
  }

  /** SPEC §6.5: admits a side's stop envelope, `[stop]` or `[stop, reveal]`, or returns the violation. */
  applyStop(s: SealedEnvelope): ProtocolOffence | undefined {
    const e = s.envelope
    const X = e.sender
    const log = this.logs[X]
    const turn = this.currentTurn()
    if (this.stops[X] !== undefined) return this.violation(X, e.seq, turn, 'a second stop', 'SPEC §6.5')
    const owesReveal = log.setup !== undefined && log.reveal === undefined
    const shape = owesReveal ? ['stop', 'reveal'] : ['stop']
    if (e.parts.length !== shape.length || e.parts.some((p, i) => p.t !== shape[i])) {
      return this.violation(
        X,
        e.seq,
        turn,
        `a stop envelope holds ${describeParts(e.parts)}; ${shape.join('+')} was due`,
        'SPEC §6.5',
      )
    }
    for (const p of e.parts) logPart(log, p, e.seq)
    this.stops[X] = s
    return undefined
  }
}

/** A stop envelope: one whose first part is a stop (SPEC §6.5). */
export function isStopEnvelope(s: SealedEnvelope): boolean {
  return s.envelope.parts[0]?.t === 'stop'
}
