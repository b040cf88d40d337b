/**
 * The verifier (protocol/SPEC.md §12): from the envelopes of one or more transcript files of a
 * game, the result. Pure: no network, no clock, no files (callers read them); hostile input gives
 * a verdict, never a throw.
 *
 * The walk of the schedule over the evidence (§12.3) is `walk.ts`; this file decides the result
 * from what it found (§12.7), the rules in order, as one function to read whole.
 */
import { toBase64url } from '../../../core/commit/bytes.js'
import { type TranscriptFileError, parseTranscript } from '../protocol/file.js'
import { witnessNotes } from './receipts.js'
import { type EndReason, INDEX_ROLE, type Role, otherRole } from '../protocol/messages.js'
import { type Evidence, type FileEvidence, type Note, gatherEvidence } from './evidence.js'
import type { GameState } from './game.js'
import type { SideLog } from './log.js'
import type { Ruleset } from '../rules/ruleset.js'
import { type ProtocolOffence, firstOffence } from './offence.js'
import { type SideReplay, playCommitted, replaySide } from './replay.js'
import { walk } from './walk.js'
import { WITNESS_MARGIN_MS } from '../witness/registrar.js'
import { decideWitnessed, falseDeposits, isoTime, stepMs, witnessedPrelude } from './witnessed.js'

/**
 * A witnessed game's verdict (SPEC §12.7a, PROTOCOL-4.md §4.4): which result decided it, and, when
 * it was decided as unwitnessed, why.
 */
export interface WitnessedMark {
  /** The notary's key (A's terms), base64url. */
  readonly notary: string
  /**
   * PROTOCOL-4.md §4.4's result that decided (1 offence, 2 gap, 3 no game, 4 complete, 5 lost on
   * time, 6 resigned, 7 outage, 8 abandoned, 9 incomplete); undefined when a notary fault voided
   * the witnessed decision.
   */
  readonly result: 1 | 2 | 3 | 4 | 5 | 6 | 7 | 8 | 9 | undefined
  /** Why the game was decided as unwitnessed (version 3's rules 5 to 9), when it was: an outage or a notary fault. */
  readonly unwitnessed: string | undefined
  /** The notary's log in these files is sealed (§4.6): until then result 9 is provisional. */
  readonly sealed: boolean
  /** Results 5, 6 and 8 rest on the receipts up to s0's position alone: final unless the notary signs a conflicting receipt (§4.1). */
  readonly final: boolean
}

interface Common {
  /** The game id, base64url, when the files name one. */
  readonly game: string | undefined
  /** Lines set aside and envelopes missing: what the verdict did not rest on. */
  readonly notes: readonly string[]
  /** A witnessed game's (PROTOCOL-4.md §4.4); absent for an unwitnessed game. */
  readonly witnessed?: WitnessedMark
}

export type Verdict =
  | (Common & {
      readonly status: 'complete'
      readonly reason: EndReason
      readonly turn: number
      readonly scores: readonly [number, number]
      readonly winner: Role | 'draw'
    })
  | (Common & {
      readonly status: 'resigned'
      readonly by: Role
      readonly turn: number
      readonly winner: Role
      /** SPEC §12.7 rule 5: the winner's stop is not in these files, and it may be a resignation that crossed this one. */
      readonly provisional: boolean
    })
  | (Common & { readonly status: 'offence'; readonly offence: ProtocolOffence; readonly winner: Role })
  | (Common & {
      readonly status: 'abandoned'
      readonly by: Role
      /**
       * `stopped`: stopped of its own accord while it owed the next envelope (SPEC §12.7, 6), or, in
       * a witnessed game, `s0` was a stop of its own accord that claims nothing the receipts show
       * (PROTOCOL-4.md §4.4 rule 8); `no-reveal`: never revealed after the other's claim (7);
       * `time`: a witnessed game lost on time, the other side's claim receipted after the owed
       * step's deadline (PROTOCOL-4.md §4.4 rule 5).
       */
      readonly how: 'stopped' | 'no-reveal' | 'time'
      readonly turn: number
      readonly winner: Role
      /** The other side's claim, when it made one. */
      readonly claimedBy: Role | undefined
      /**
       * SPEC §12.7: the result rests on the absence of an envelope of the other side that another
       * file may hold (rule 7: the loser's reveal; rule 6: the winner's stop, which may be a
       * resignation). Both players' files, or the nodes meeting again, settle it.
       */
      readonly provisional: boolean
      readonly detail: string
    })
  | (Common & {
      readonly status: 'adjudicated'
      /** The turns both committed, which are scored. */
      readonly turn: number
      readonly scores: readonly [number, number]
      readonly winner: Role | 'draw'
      /** SPEC §12.7 rule 8: the turn in play when the game stopped. */
      readonly stopTurn: number
      /** Who stopped first: each side whose stop does not answer the other's (by fact, its ack); both when the stops crossed. */
      readonly stoppedBy: readonly Role[]
      /** The side whose phase envelope was due when the game stopped, if one was. */
      readonly due: Role | undefined
      readonly detail: string
    })
  | (Common & {
      readonly status: 'incomplete'
      readonly reason: 'gap' | 'no-game' | 'refused' | 'no-claim' | 'unverifiable'
      readonly detail: string
    })
  | { readonly status: 'unreadable'; readonly file: string; readonly error: TranscriptFileError }

export type VerdictStatus = Verdict['status']

function describeNote(n: Note): string {
  return `${n.file === '' ? '' : `${n.file}:`}${n.line}: ${n.what}`
}

function winnerOf(scores: readonly [number, number]): Role | 'draw' {
  return scores[0] === scores[1] ? 'draw' : scores[0] > scores[1] ? 'A' : 'B'
}

/** SPEC §12.7: the result the evidence supports. */
export function decide(ev: Evidence): Verdict {
  return examine(ev).verdict
}

/** The result, and each side's parts as the walk admitted them (for replays such as `spaceships show`). */
export function examine(ev: Evidence): {
  verdict: Verdict
  logs: Record<Role, SideLog> | undefined
  ruleset: Ruleset | undefined
  /** The side the schedule waits for after the evidence (SPEC §6.3), while the game goes on. */
  due: Role | undefined
  /** The turn of that due step (0 before the setups are done). */
  dueTurn: number | undefined
} {
  let seen: GameState | undefined
  const verdict = judge(ev, (s) => (seen = s))
  const s = seen
  const stopped = s !== undefined && (s.stops.A !== undefined || s.stops.B !== undefined)
  const due = stopped ? undefined : s?.due()
  return { verdict, logs: s?.logs, ruleset: s?.ruleset, due: due?.sender, dueTurn: due?.turn }
}

function judge(ev: Evidence, onState: (s: GameState) => void): Verdict {
  const game = ev.game === undefined ? undefined : toBase64url(ev.game)
  const notes = [...ev.notes.map(describeNote), ...ev.gaps.map((g) => `missing: ${g}`)]
  const base = { game, notes }
  if (ev.problem !== undefined)
    return {
      ...base,
      status: 'incomplete',
      reason: ev.problem.startsWith('no game') ? 'no-game' : 'unverifiable',
      detail: ev.problem,
    }
  const helloA = ev.hellos.A
  const helloB = ev.hellos.B
  const terms = helloA?.envelope.parts[0]?.t === 'hello' ? helloA.envelope.parts[0].terms : undefined
  if (helloA === undefined || helloB === undefined || terms === undefined)
    return { ...base, status: 'incomplete', reason: 'no-game', detail: 'no game: a hello is missing' }
  // SPEC §12.7: B's refusal ends the game before it begins; nothing after it is judged (rule 3 before 1 and 2).
  const refusedByB = helloB.envelope.parts.find((p) => p.t === 'refuse')
  if (refusedByB?.t === 'refuse')
    return {
      ...base,
      status: 'incomplete',
      reason: 'refused',
      detail: `no game: B refused A's hello (${refusedByB.reason}: ${refusedByB.detail})`,
    }
  const w = walk(ev, terms, helloA, helloB)
  const { state } = w
  onState(state)
  const logs = state.logs
  const replays: Partial<Record<Role, SideReplay>> = {}
  // PROTOCOL-4.md §4.1, §4.4: a witnessed game's receipts, read as one log (faults against the
  // notary), with each stop's position in it.
  const receipts = ev.receipts ?? []
  const prelude = terms.notary !== undefined && state.version === 4 ? witnessedPrelude(ev, state, terms) : undefined
  // SPEC §12.6: of one side at one turn and stage, equivocation first, then a false deposit a
  // complaint receipt proves (PROTOCOL-4.md §5.3), then what the walk finds, then the replay's.
  const offences = [
    ...ev.offences,
    ...(prelude === undefined ? [] : falseDeposits(prelude.log, w.steps, state.schedule.turn)),
    ...w.offences,
  ]
  for (const r of INDEX_ROLE) {
    if (logs[r].reveal === undefined) continue
    const rep = replaySide(
      state.ruleset,
      state.game,
      terms.match.additional[r === 'A' ? 0 : 1],
      logs[r],
      logs[otherRole(r)],
      ev.turnByPlace(r, logs[r].seqs.get('reveal') ?? 0),
      state.version,
    )
    replays[r] = rep
    if (rep.offence !== undefined) offences.push(rep.offence)
  }
  const witness =
    terms.notary !== undefined
      ? prelude === undefined
        ? []
        : witnessNotes(prelude.log.report, terms.notary)
      : receipts.length > 0
        ? [`${receipts.length} receipt lines in a game whose terms name no notary, set aside (SPEC §11)`]
        : []
  const allNotes = [...notes, ...witness, ...w.gaps.map((g) => `missing: ${g}`)]
  const out = { game, notes: allNotes }
  // SPEC §12.7a: every verdict of a witnessed game says which of PROTOCOL-4.md §4.4's results
  // decided it, and why it was decided as unwitnessed when it was.
  const notary = terms.notary
  const mark = (v: Verdict, result: WitnessedMark['result'], unwitnessed?: string): Verdict =>
    prelude === undefined || notary === undefined || v.status === 'unreadable'
      ? v
      : {
          ...v,
          witnessed: {
            notary: toBase64url(notary),
            result,
            unwitnessed,
            sealed: prelude.log.sealed,
            final: result === 5 || result === 6 || result === 8,
          },
        }
  // 3, a refusal, before 1 and 2: it ends the game before it begins, and envelopes after it belong
  // to no game, so what they name is no gap of the game and what they hold convicts nobody (SPEC
  // §12.7). B's refusal is decided above, before the walk; A's here. Only A's equivocation at the
  // refusal's own place (seq 1) is an offence of the game.
  if (state.schedule.refused) {
    const atRefusal = firstOffence(ev.offences.filter((o) => o.offender === 'A' && o.seq === 1))
    if (atRefusal !== undefined) return mark({ ...out, status: 'offence', offence: atRefusal, winner: 'B' }, 1)
    return mark(
      {
        ...out,
        status: 'incomplete',
        reason: 'refused',
        detail: `no game: A refused B's hello (${logs.A.refuse?.reason ?? ''}: ${logs.A.refuse?.detail ?? ''})`,
      },
      3,
    )
  }
  // 1. A proven offence stands whatever else the files hold.
  const offence = firstOffence(offences)
  if (offence !== undefined) return mark({ ...out, status: 'offence', offence, winner: otherRole(offence.offender) }, 1)
  // 2. Missing evidence the chains prove to exist.
  const gaps = [...ev.gaps, ...w.gaps]
  if (gaps.length > 0)
    return mark(
      {
        ...out,
        status: 'incomplete',
        reason: 'gap',
        detail: `these files lack ${gaps[0] ?? ''}; the other player's file may hold it`,
      },
      2,
    )
  // 2, witnessed (PROTOCOL-4.md §4.4): a receipt missing below s0's position, or an envelope a
  // receipt there names and the files lack: filling it could move s0 or admit the owed envelope.
  if (prelude?.gap !== undefined) return mark({ ...out, status: 'incomplete', reason: 'gap', detail: prelude.gap }, 2)
  // 3. No game.
  for (const r of INDEX_ROLE)
    if (logs[r].setup === undefined)
      return mark(
        {
          ...out,
          status: 'incomplete',
          reason: 'no-game',
          detail: `no game: ${r} never committed its setup${state.stops[otherRole(r)] !== undefined ? ` (${otherRole(r)} stopped waiting)` : ''}`,
        },
        3,
      )
  const end = state.schedule.end
  const a = replays.A
  const b = replays.B
  // 4. The game reached its end and both revealed.
  if (end !== undefined && a !== undefined && b !== undefined) {
    const played = playCommitted(state.ruleset, a, b)
    if (played !== undefined)
      return mark(
        {
          ...out,
          status: 'complete',
          reason: end.reason,
          turn: end.turn,
          scores: played.scores,
          // Version 4 (SPEC §12.7, after rule 4): an accepted offer is a draw, whatever the scores.
          winner: end.reason === 'agreed-draw' ? 'draw' : winnerOf(played.scores),
        },
        4,
      )
  }
  if (prelude !== undefined) {
    // PROTOCOL-4.md §4.4: a notary fault at or below s0's position (without s0, anywhere) voids the
    // witnessed decision; the game is decided as unwitnessed, and the verdict names the fault.
    const f = prelude.voidedBy
    if (f !== undefined) {
      const why = `a notary fault at receipt ${f.index} (${f.kind}: ${f.detail}) voids the witnessed decision`
      return mark(unwitnessedRules(`decided as unwitnessed: ${why} (PROTOCOL-4.md §4.1, §4.4)`), undefined, why)
    }
    const r = decideWitnessed(prelude, ev, w.steps, { due: state.due(), turn: state.schedule.turn }, terms)
    const turn = r.kind === 'gap' ? state.schedule.turn : r.cut.turn
    switch (r.kind) {
      case 'gap':
        return mark({ ...out, status: 'incomplete', reason: 'gap', detail: r.detail }, 2)
      case 'lost-on-time': {
        const X = r.s0.side
        const Y = otherRole(X)
        const { due, deadline, start, seq } = r.cut
        const reserve = r.cut.reserveLeft[Y]
        return mark(
          {
            ...out,
            status: 'abandoned',
            by: Y,
            how: 'time',
            turn,
            winner: X,
            claimedBy: X,
            provisional: false,
            detail: `${Y} owed its ${due?.parts.join('+') ?? ''} of turn ${due?.turn ?? turn} (its envelope ${seq}) by ${isoTime(deadline ?? 0)} (made due at ${isoTime(start ?? 0)}, ${stepMs(terms, due?.deadline ?? 'reply')} ms for the step, ${reserve} ms of reserve left, ${WITNESS_MARGIN_MS} ms of margin); ${X}'s claim was receipted at ${isoTime(r.claim.time)} (receipt ${r.claim.index}): ${Y} lost on time (PROTOCOL-4.md §4.4 rule 5)`,
          },
          5,
        )
      }
      case 'resigned': {
        const X = r.s0.side
        return mark({ ...out, status: 'resigned', by: X, turn, winner: otherRole(X), provisional: false }, 6)
      }
      case 'outage':
        return mark(unwitnessedRules(`decided as unwitnessed: ${r.why}`), 7, r.why)
      case 'abandoned': {
        const X = r.s0.side
        const Y = otherRole(X)
        const theirs = prelude.stops.find((s) => s.side === Y)
        return mark(
          {
            ...out,
            status: 'abandoned',
            by: X,
            how: 'stopped',
            turn,
            winner: Y,
            claimedBy: theirs !== undefined && !theirs.answers ? Y : undefined,
            provisional: false,
            detail: r.detail,
          },
          8,
        )
      }
      case 'no-claim':
        return mark({ ...out, status: 'incomplete', reason: 'no-claim', detail: r.detail }, 9)
    }
  }
  return unwitnessedRules()

  /**
   * Version 3's rules 5 to 9 (SPEC §12.7) on the envelopes held: an unwitnessed game's, and a
   * witnessed game's decided as unwitnessed (PROTOCOL-4.md §4.4 rule 7, or a voiding notary fault),
   * with the note that says why.
   */
  function unwitnessedRules(note?: string): Verdict {
    const o = note === undefined ? out : { ...out, notes: [...out.notes, note] }
    const turn = state.schedule.turn
    // A stop is read by fact, whatever its reason code (SPEC §6.5, §12.7): it answers the other
    // side's stop when its ack binds that stop, and otherwise the sender stopped of its own accord.
    const ownAccord = (r: Role): boolean => {
      const mine = state.stops[r]
      const theirs = state.stops[otherRole(r)]
      if (mine === undefined) return false
      return theirs === undefined || mine.envelope.ack === undefined || toBase64url(mine.envelope.ack) !== theirs.id
    }
    // 5. A resignation made of the resigner's own accord. Two that crossed (neither answers the
    // other) are both players giving up: neither loses more than the other, and rule 8 scores the
    // committed turns. One resignation is provisional while the winner's stop is not held: it may
    // be a resignation that crossed it.
    const resigners = INDEX_ROLE.filter((r) => logs[r].stop?.reason === 'resignation' && ownAccord(r))
    const resigner = resigners.length === 1 ? resigners[0] : undefined
    if (resigner !== undefined)
      return {
        ...o,
        status: 'resigned',
        by: resigner,
        turn,
        winner: otherRole(resigner),
        provisional: state.stops[otherRole(resigner)] === undefined,
      }
    const stoppedFirst = (r: Role): boolean =>
      ownAccord(r) && (logs[r].stop?.reason !== 'resignation' || resigners.length === 2)
    const claimed = (r: Role): boolean => logs[r].stop !== undefined && logs[r].stop.reason !== 'resignation'
    // 6. The due side stopped of its own accord while it owed the due step.
    const due = state.due()
    const last = state.lastPhase
    // Only a turn's envelopes can be abandoned: a stop carries the reveal the end owes, and a missing setup is no game (3).
    if (due !== undefined && due.phase === 'turn' && last !== undefined) {
      const Z = due.sender
      const stop = state.stops[Z]
      const ack = stop?.envelope.ack === undefined ? undefined : toBase64url(stop.envelope.ack)
      if (stop !== undefined && logs[Z].stop?.reason !== 'resignation' && stoppedFirst(Z) && ack === last.id) {
        const W = otherRole(Z)
        const claimedBy = stoppedFirst(W) ? W : undefined
        // Provisional while W's stop is not held: a resignation of W crossing Z's stop would decide it (rule 5).
        const provisional = state.stops[W] === undefined
        return {
          ...o,
          status: 'abandoned',
          by: Z,
          how: 'stopped',
          turn,
          winner: W,
          claimedBy,
          provisional,
          detail: `${Z} held ${W}'s ${last.envelope.parts.map((p) => p.t).join('+')} (its own acknowledgement shows it) and stopped instead of sending its ${due.parts.join('+')}${claimedBy === undefined ? '' : `; ${claimedBy} stopped too`}`,
        }
      }
    }
    // 7. One side stopped (a claim or an accusation: anything but a resignation) and revealed; the other never revealed.
    for (const r of INDEX_ROLE) {
      const other = otherRole(r)
      if (claimed(r) && logs[r].reveal !== undefined && logs[other].reveal === undefined) {
        return {
          ...o,
          status: 'abandoned',
          by: other,
          how: 'no-reveal',
          turn,
          winner: r,
          claimedBy: r,
          provisional: true,
          detail: `${r} stopped and revealed, and ${other}'s reveal is not in these files`,
        }
      }
    }
    // 8. Both revealed before the end: the committed state, scored.
    if (a !== undefined && b !== undefined) {
      const played = playCommitted(state.ruleset, a, b)
      if (played !== undefined) {
        const stoppedBy = INDEX_ROLE.filter(stoppedFirst)
        // Whose move was due, said only when the one side that stopped first had sent or held the
        // last phase envelope (its ack shows it): otherwise envelopes crossed, and the two sides
        // did not see the same side due.
        const first = stoppedBy.length === 1 ? stoppedBy[0] : undefined
        const firstAck = first === undefined ? undefined : state.stops[first]?.envelope.ack
        const sawLast =
          last !== undefined &&
          (last.envelope.sender === first || (firstAck !== undefined && toBase64url(firstAck) === last.id))
        const owed =
          first !== undefined && due?.phase === 'turn' && due.sender !== first && sawLast ? due.sender : undefined
        const who =
          stoppedBy.length === 0
            ? 'both sides revealed'
            : `stopped by ${stoppedBy.join(' and ')}${resigners.length === 2 ? ' (two resignations that crossed)' : ''}`
        return {
          ...o,
          status: 'adjudicated',
          turn: played.turn,
          scores: played.scores,
          winner: winnerOf(played.scores),
          stopTurn: turn,
          stoppedBy,
          due: owed,
          detail: `${who} in turn ${turn}${owed === undefined ? '' : ` while ${owed} owed its ${due?.parts.join('+') ?? ''}`}; both revealed; nobody is convicted of lateness, since a claim shows only that its sender stopped waiting (SPEC §12.7)`,
        }
      }
    }
    // 9. Nobody claimed.
    const owing = due === undefined ? 'nobody' : `${due.sender} owes its ${due.parts.join('+')} of turn ${due.turn}`
    return {
      ...o,
      status: 'incomplete',
      reason: 'no-claim',
      detail: `the game stopped in turn ${turn} and nobody claimed (${owing})`,
    }
  }
}

/** Reads transcript files (their bytes or text) as evidence, or says which is unreadable. */
export function readEvidence(
  files: readonly ReadableFile[],
): { ok: true; value: Evidence } | { ok: false; verdict: Verdict } {
  const evidence: FileEvidence[] = []
  for (const f of files) {
    const parsed = f.parsed ?? parseTranscript(f.content)
    if (!parsed.ok) return { ok: false, verdict: { status: 'unreadable', file: f.name, error: parsed.error } }
    evidence.push({ name: f.name, lines: parsed.value.lines, torn: parsed.value.torn, version: parsed.value.version })
  }
  return { ok: true, value: gatherEvidence(evidence) }
}

/**
 * A transcript file to verify: its bytes or text, and, when the caller has read it already
 * (`groupByGame`), what `parseTranscript` gave for exactly this content.
 */
export interface ReadableFile {
  readonly name: string
  readonly content: string | Uint8Array
  readonly parsed?: ReturnType<typeof parseTranscript>
}

/** Verifies one game from the given transcript files (their bytes or text). */
export function verifyFiles(
  files: readonly { readonly name: string; readonly content: string | Uint8Array }[],
): Verdict {
  return verifyRead(files)
}

/**
 * `verifyFiles` for files the caller may have read already (`groupByGame`); not part of the
 * library's API, where a `parsed` that is not its content's would decide other bytes.
 */
export function verifyRead(files: readonly ReadableFile[]): Verdict {
  const ev = readEvidence(files)
  return ev.ok ? decide(ev.value) : ev.verdict
}

/** Verifies one transcript file. */
export function verifyTranscript(content: string | Uint8Array, name = ''): Verdict {
  return verifyFiles([{ name, content }])
}

/** The envelopes of a session's own store, verified as a file of it would be. */
export function verifyEnvelopes(envelopes: readonly Uint8Array[]): Verdict {
  return decide(
    gatherEvidence([
      { name: '', lines: envelopes.map((bytes, i) => ({ line: i + 2, bytes, error: undefined })), torn: false },
    ]),
  )
}
