/**
 * The walk of the schedule over the evidence (protocol/SPEC.md §12.3): both chains taken in the
 * order the schedule owes them, then each side's stop, with the offences and gaps met on the way.
 * `verify.ts` decides the result from what it finds.
 */
import { equalBytes, toBase64url } from '../../../core/commit/bytes.js'
import type { SealedEnvelope } from '../protocol/envelope.js'
import { describeProtocolError } from '../../../core/wire/errors.js'
import { INDEX_ROLE, type Role, type Terms, otherRole } from '../protocol/messages.js'
import type { Evidence } from './evidence.js'
import { GameState, isStopEnvelope } from './game.js'
import { type ProtocolOffence, STAGE } from './offence.js'
import type { Due } from './schedule.js'

/**
 * One phase envelope the walk applied, with the step of the schedule it filled and the turn in
 * play before it: a witnessed game's cut walk (PROTOCOL-4.md §4.4) is a prefix of these.
 */
export interface WalkStep {
  readonly sealed: SealedEnvelope
  readonly due: Due
  readonly turn: number
}

/** What the walk of the schedule over the evidence found (SPEC §12.3). */
export interface Walk {
  readonly state: GameState
  readonly offences: ProtocolOffence[]
  readonly gaps: string[]
  /** The phase envelopes after the hellos that were applied without an offence, in walk order. */
  readonly steps: readonly WalkStep[]
}

/** SPEC §12.3: walks the schedule over both chains, then takes each side's stop. */
export function walk(ev: Evidence, terms: Terms, helloA: SealedEnvelope, helloB: SealedEnvelope): Walk {
  const game = ev.game ?? new Uint8Array(32)
  const state = new GameState(terms, game, helloA, helloB)
  const offences: ProtocolOffence[] = []
  const gaps: string[] = []
  const steps: WalkStep[] = []
  const at: Record<Role, number> = { A: 1, B: 1 }
  let ended = false
  /**
   * Whether `s` acknowledges an envelope the evidence lacks. Usually a gap (the file may have lost
   * it). But when the other side's chain is complete from its hello to its stop, after which it
   * signs nothing (§6.5), every envelope it ever sent is here: an acknowledgement of anything else
   * names an envelope it never signed, and that is the acknowledger's own signed falsehood.
   */
  const ackMissing = (s: SealedEnvelope): boolean => {
    const ack = s.envelope.ack
    // Most acknowledge the last phase envelope, a chain envelope (so held): compared as bytes.
    const lastPhase = state.lastPhase
    if (
      ack === undefined ||
      (lastPhase !== undefined && equalBytes(ack, lastPhase.hash)) ||
      ev.held.has(toBase64url(ack))
    )
      return false
    const other = otherRole(s.envelope.sender)
    const last = ev.chains[other].at(-1)
    if (last?.kind === 'envelope' && isStopEnvelope(last.sealed)) {
      offences.push({
        offender: s.envelope.sender,
        class: 'protocol-violation',
        rule: 'SPEC §5.1 §6.5 §12.3',
        turn: state.schedule.turn,
        stage: STAGE.schedule,
        detail: `envelope ${s.envelope.seq} acknowledges an envelope ${other} never signed (${other}'s chain is complete up to its stop)`,
        seq: s.envelope.seq,
      })
      ended = true
      return true
    }
    gaps.push(`the envelope ${s.envelope.sender}'s envelope ${s.envelope.seq} acknowledges`)
    return true
  }
  const malformed = (r: Role, seq: number, detail: string): void => {
    offences.push({
      offender: r,
      class: 'protocol-violation',
      rule: 'SPEC §5.1 §12.2',
      turn: state.schedule.turn,
      stage: STAGE.schedule,
      detail,
      seq,
    })
  }
  for (;;) {
    const due = state.due()
    if (due === undefined) break
    const X = due.sender
    const entry = ev.chains[X][at[X]]
    if (entry === undefined) break
    if (entry.kind === 'malformed') {
      malformed(
        X,
        entry.seq,
        `${X} signed envelope ${entry.seq}, which does not decode: ${describeProtocolError(entry.error)}`,
      )
      ended = true
      break
    }
    const s = entry.sealed
    if (isStopEnvelope(s) || ackMissing(s)) break
    const turn = state.schedule.turn
    const bad = state.applyPhase(s)
    if (bad !== undefined) {
      // The offending envelope is taken: what its sender sent after it (its stop and reveal, which
      // the replay needs to find any earlier offence, §12.6) is read as after any walk.
      offences.push(bad)
      at[X]++
      ended = true
      break
    }
    steps.push({ sealed: s, due, turn })
    at[X]++
  }
  // After the walk: each side's next envelope may only be its stop, and nothing may follow it.
  for (const r of INDEX_ROLE) {
    const entry = ev.chains[r][at[r]]
    if (entry === undefined) continue
    if (entry.kind === 'malformed') {
      if (!ended)
        malformed(
          r,
          entry.seq,
          `${r} signed envelope ${entry.seq}, which does not decode: ${describeProtocolError(entry.error)}`,
        )
      continue
    }
    const s = entry.sealed
    if (ackMissing(s)) continue
    if (!isStopEnvelope(s)) {
      if (!ended)
        offences.push({
          offender: r,
          class: 'protocol-violation',
          rule: 'SPEC §6.3',
          turn: state.schedule.turn,
          stage: STAGE.schedule,
          detail: `envelope ${s.envelope.seq} (${s.envelope.parts.map((p) => p.t).join('+')}) sent out of turn`,
          seq: s.envelope.seq,
        })
      continue
    }
    const backwards = ackGoesBackwards(ev, s)
    if (backwards !== undefined) {
      offences.push({
        offender: r,
        class: 'protocol-violation',
        rule: 'SPEC §5.1 §6.5',
        turn: state.schedule.turn,
        stage: STAGE.schedule,
        detail: backwards,
        seq: s.envelope.seq,
      })
      continue
    }
    const bad = state.applyStop(s)
    if (bad !== undefined) {
      offences.push(bad)
      continue
    }
    const after = ev.chains[r][at[r] + 1]
    if (after !== undefined)
      offences.push({
        offender: r,
        class: 'protocol-violation',
        rule: 'SPEC §6.5',
        turn: state.schedule.turn,
        stage: STAGE.schedule,
        detail: `envelope ${after.kind === 'envelope' ? after.sealed.envelope.seq : after.seq} after its own stop`,
        seq: after.kind === 'envelope' ? after.sealed.envelope.seq : after.seq,
      })
  }
  return { state, offences, gaps, steps }
}

/** SPEC §5.1: an acknowledgement never goes back past the sender's previous one. */
function ackGoesBackwards(ev: Evidence, s: SealedEnvelope): string | undefined {
  const e = s.envelope
  const other = ev.chains[otherRole(e.sender)]
  const position = (ack: Uint8Array | undefined): number => {
    if (ack === undefined) return -1
    return other.findIndex((x) => x.kind === 'envelope' && equalBytes(x.sealed.hash, ack))
  }
  const previous = ev.chains[e.sender][e.seq - 1]
  if (previous?.kind !== 'envelope') return undefined
  const before = position(previous.sealed.envelope.ack)
  const now = position(e.ack)
  return now < before
    ? `envelope ${e.seq} acknowledges ${otherRole(e.sender)}'s envelope ${now}, behind the ${before} its envelope ${e.seq - 1} acknowledged`
    : undefined
}
