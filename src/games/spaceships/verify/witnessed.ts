/**
 * A witnessed game's clock and its decision (protocol/PROTOCOL-4.md §4.2 to §4.5; SPEC §12.7a):
 * the notary's receipt log read as one chain, each stop's position in it, the cut walk, the due
 * step's deadline `D` with the players' reserves, and which of §4.4's results 5 to 9 applies.
 *
 * Pure: bytes in, answers out; hostile receipts give an answer, never a throw. verify.ts applies it
 * after version 3's rules 1 to 4; a node calls `witnessedDue` on its own transcript to know when it
 * may request a claim, and gets exactly the `D` the verifier computes for that claim: both run the
 * same cut walk over the same receipts (the node's chain up to its `seen` is every receipt below
 * the claim's index, since the notary receipts a claim only at `seen + 1`, §4.4).
 */
import { toBase64url, toHex } from '../../../core/commit/bytes.js'
import { type NotaryFault, type ReceiptLogReport, checkReceiptLog } from '../../../core/notary/log.js'
import { type Receipt, decodeReceipt } from '../../../core/notary/receipt.js'
import { NOTARY_DOMAIN } from '../protocol/domain.js'
import type { SealedEnvelope } from '../protocol/envelope.js'
import {
  INDEX_ROLE,
  type PartType,
  ROLE_INDEX,
  type Role,
  type StopReason,
  type Terms,
  otherRole,
} from '../protocol/messages.js'
// The margin and the seal rule are the notary's (PROTOCOL-4.md §4.6, §9): one definition, which the
// registrar applies when it seals and the verifier when it checks a seal.
import { COMPLAINT_JUDGING, WITNESS_MARGIN_MS, sealTime } from '../witness/registrar.js'
import { type Evidence, gatherEvidence } from './evidence.js'
import type { GameState } from './game.js'
import { type ProtocolOffence, STAGE } from './offence.js'
import type { DeadlineKind, Due } from './schedule.js'
import { type WalkStep, walk } from './walk.js'

/** PROTOCOL-4.md §4.5, §9: the least outage period; `OUTAGE_MS` = max(`replyMs`, this). */
export const OUTAGE_MIN_MS = 600_000

/** PROTOCOL-4.md §4.5: `OUTAGE_MS` of a game, max(`replyMs`, 600,000 ms). */
export function outageMs(terms: Terms): number {
  return Math.max(terms.replyMs, OUTAGE_MIN_MS)
}

/**
 * PROTOCOL-4.md §4.2: `ms(step)` by the owed step's deadline kind (SPEC §6.6): `setupMs` for a
 * setup, `turnMs` for a step whose parts include a commitment, `replyMs` for every other step, and
 * for answering a stop (the answer with its reveal, §6.5) max(`replyMs`, `turnMs`).
 */
export function stepMs(terms: Terms, kind: DeadlineKind | 'answer'): number {
  switch (kind) {
    case 'setup':
      return terms.setupMs
    case 'turn':
      return terms.turnMs
    case 'reply':
      return terms.replyMs
    case 'answer':
      return Math.max(terms.replyMs, terms.turnMs)
  }
}

/** A notary time (ms since 1970) for a person: ISO 8601, or the number where no date holds it. */
export function isoTime(ms: number): string {
  // A receipt's u64 time may be far beyond what a Date holds (8.64e15 ms): never a throw.
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? new Date(ms).toISOString() : `${ms} ms`
}

/** A game's receipt log as the files hold it (PROTOCOL-4.md §4.1). */
export interface WitnessLog {
  /** The core checker's report: the chain from the genesis, the notary's faults, the gaps, what was set aside. */
  readonly report: ReceiptLogReport
  /** The last index of the chain held unbroken from the genesis (-1 without a genesis). */
  readonly lastIndex: number
  /** The lowest receipt index some receipt names by `prev` and the files lack (Infinity: none). */
  readonly firstMissing: number
  /** The log holds a seal (§4.6). */
  readonly sealed: boolean
  readonly genesis: Receipt | undefined
  /** Every envelope receipt held (not set aside), by index. */
  readonly envelopeReceipts: readonly (Receipt & { kind: 'envelope' })[]
  /** The least-index receipt of this envelope (its sender, `seq` and hash), if any. */
  envelopeReceipt(s: SealedEnvelope): Receipt | undefined
  /** The least-index claim receipt (kind 4) of `side` at `seq` (§4.4; its claim `side` signed, or it was set aside), if any. */
  claimReceipt(side: Role, seq: number): Receipt | undefined
}

/**
 * Reads the receipts the files hold as the game's log (PROTOCOL-4.md §4.1): the core's checker
 * sets aside what is not this game's, not signed by its notary, or carries a player's header,
 * complaint or claim request its player did not sign (so no claim counts that its claimant did not
 * sign); finds the notary's faults (a seal checked against §4.6's rule) and the gaps.
 */
export function readWitnessLog(
  receipts: readonly Uint8Array[],
  terms: Terms,
  game: Uint8Array,
  keys: readonly [Uint8Array, Uint8Array],
): WitnessLog {
  const notary = terms.notary ?? new Uint8Array(32)
  const report = checkReceiptLog(NOTARY_DOMAIN, receipts, notary, {
    game,
    playerKeys: [keys[0], keys[1]],
    sealJustified: (before, seal) => {
      const t = sealTime(before, terms)
      return t !== undefined && seal.time >= t
    },
    // PROTOCOL-4.md §5.3, NOTARY.md §5.5: each complaint receipt of the chain is judged from the
    // receipt alone; one that does not hold is a notary fault (complaint-invalid).
    complaints: COMPLAINT_JUDGING,
    // NOTARY.md §6 item 3: bytes the notary signed as a receipt of the game that no reader can take
    // (they do not decode, or a player's signature in them fails) are its fault, at the index they
    // name: an honest notary signs only what it encoded after checking that signature (§7.5).
    rules: { receiptInvalid: true },
  })
  const aside = new Set(report.setAside.map((a) => a.position))
  const held: Receipt[] = []
  receipts.forEach((bytes, position) => {
    if (aside.has(position)) return
    const d = decodeReceipt(bytes)
    if (d.ok) held.push(d.value)
  })
  held.sort((a, b) => a.index - b.index)
  const envelopes = new Map<string, Receipt>()
  const claims = new Map<string, Receipt>()
  const envelopeReceipts: (Receipt & { kind: 'envelope' })[] = []
  for (const r of held) {
    if (r.kind === 'envelope') {
      envelopeReceipts.push(r)
      const key = `${r.header.sender}/${r.header.seq}/${toHex(r.header.envelopeHash)}`
      if (!envelopes.has(key)) envelopes.set(key, r)
    } else if (r.kind === 'claim') {
      const c = r.claim
      const key = `${c.sender}/${c.seq}`
      if (!claims.has(key)) claims.set(key, r)
    }
  }
  const chain = report.chain
  return {
    report,
    lastIndex: chain.at(-1)?.index ?? -1,
    firstMissing: Math.min(Infinity, ...report.gaps.map((g) => g.index)),
    sealed: report.sealed,
    genesis: chain[0]?.kind === 'genesis' ? chain[0] : undefined,
    envelopeReceipts,
    envelopeReceipt: (s) => envelopes.get(`${ROLE_INDEX[s.envelope.sender]}/${s.envelope.seq}/${toHex(s.hash)}`),
    claimReceipt: (side, seq) => claims.get(`${ROLE_INDEX[side]}/${seq}`),
  }
}

/**
 * PROTOCOL-4.md §5.3, SPEC §12.7a: each complaint receipt of the chain that holds (the core's
 * judge, from the receipt alone) proves `false-deposit` by the signer of the header it names, at
 * stage 0 of the turn of the walk's step at that sender and `seq` if the walk applied one, else of
 * the turn the walk ended in (SPEC §12.6, as an envelope that does not decode). The offence rests
 * on the offender's signed header (its deposit's hash) and the complainant's proof, never on the
 * notary's word: a complaint receipt that does not hold is a notary fault instead.
 */
export function falseDeposits(log: WitnessLog, steps: readonly WalkStep[], endTurn: number): ProtocolOffence[] {
  return log.report.complaints.map(({ receipt, target, why }) => {
    const h = target.header
    const X = INDEX_ROLE[h.sender]
    const Y = otherRole(X)
    const step = steps.find((st) => st.sealed.envelope.sender === X && st.sealed.envelope.seq === h.seq)
    return {
      offender: X,
      class: 'false-deposit',
      rule: 'PROTOCOL-4.md §5.3',
      turn: step?.turn ?? endTurn,
      stage: STAGE.schedule,
      detail: `${X}'s deposit of its envelope ${h.seq} (the notary's receipt ${target.index}) does not open as its header says (${why}): ${Y}'s complaint, the notary's receipt ${receipt.index}, proves it`,
      seq: h.seq,
    }
  })
}

/** The cut walk's end (PROTOCOL-4.md §4.4): the due step, its start, its deadline and the reserves. */
export interface Cut {
  /** The due step, undefined when the schedule owes nothing more. */
  readonly due: Due | undefined
  /** The turn in play at the cut (SPEC §12.3; the last turn once the game has ended). */
  readonly turn: number
  /** The `seq` the owed envelope takes. */
  readonly seq: number
  /** The receipt of the envelope that made the step due (the genesis for A's setup), if it is held below the cut. */
  readonly madeBy: Receipt | undefined
  readonly start: number | undefined
  /** `D` (§4.2), undefined when the step has no deadline. */
  readonly deadline: number | undefined
  readonly reserveLeft: Readonly<Record<Role, number>>
  /** How many phase envelopes after the hellos the cut walk admitted. */
  readonly admitted: number
}

export interface CutOptions {
  /** The phase envelopes the walk applied, in order (walk.ts). */
  readonly steps: readonly WalkStep[]
  /** The schedule after all of them: its due step and turn. */
  readonly end: { readonly due: Due | undefined; readonly turn: number }
  readonly terms: Terms
  readonly log: WitnessLog
  /** `s0`'s position: envelopes are admitted by receipts below it; Infinity admits every one ("without `s0`"). */
  readonly position: number
  /** Only receipts below this index are read (a claim's: those below its position; a node's: its chain). */
  readonly below: number
}

/**
 * PROTOCOL-4.md §4.4, the cut walk: the schedule over the phase envelopes in order, admitting an
 * envelope of side Y at `seq` q iff its envelope receipt is below `s0`'s position, or an admitted
 * phase envelope of the other side receipted below it acknowledges Y's envelope at some `seq >= q`
 * (a player's own ack binds it); it stops at the first envelope not admitted. §4.2 and §4.3 then
 * give the due step's start, `D` and the reserves from the receipts, in walk (so index) order.
 */
export function cutWalk(o: CutOptions): Cut {
  const { steps, terms, log } = o
  const usable = (r: Receipt | undefined): Receipt | undefined => (r !== undefined && r.index < o.below ? r : undefined)
  const receiptOf = (s: SealedEnvelope): Receipt | undefined => usable(log.envelopeReceipt(s))
  let n = steps.length
  if (o.position !== Infinity) {
    const seqOf = new Map(steps.map((st) => [st.sealed.id, st.sealed.envelope.seq]))
    const below = steps.map((st) => {
      const r = receiptOf(st.sealed)
      return r !== undefined && r.index < o.position
    })
    // The admitted envelopes are a prefix; those admitted by an ack need the acknowledging one
    // admitted too. Cutting the prefix only removes acks, so this shrinks to its fixpoint.
    for (;;) {
      const acked: Record<Role, number> = { A: 0, B: 0 }
      for (let j = 0; j < n; j++) {
        const st = steps[j]
        const ack = st?.sealed.envelope.ack
        if (st === undefined || below[j] !== true || ack === undefined) continue
        const seq = seqOf.get(toBase64url(ack))
        const Y = otherRole(st.sealed.envelope.sender)
        if (seq !== undefined) acked[Y] = Math.max(acked[Y], seq)
      }
      const first = steps.findIndex(
        (st, i) => i < n && below[i] !== true && st.sealed.envelope.seq > acked[st.sealed.envelope.sender],
      )
      if (first < 0) break
      n = first
    }
  }
  const cutAt = steps[n]
  const due = cutAt === undefined ? o.end.due : cutAt.due
  const turn = cutAt === undefined ? o.end.turn : cutAt.turn
  const genesis = usable(log.genesis)
  // §4.3: each admitted step's lateness beyond its `ms` draws down its sender's reserve, when both
  // the envelope that made it due and its own envelope are receipted.
  const reserve: Record<Role, number> = { A: terms.reserveMs ?? 0, B: terms.reserveMs ?? 0 }
  let prev = genesis
  const lastSeq: Record<Role, number> = { A: 0, B: 0 }
  for (let i = 0; i < n; i++) {
    const st = steps[i]
    if (st === undefined) break
    const Z = st.sealed.envelope.sender
    lastSeq[Z] = st.sealed.envelope.seq
    const t = receiptOf(st.sealed)
    if (prev !== undefined && t !== undefined) {
      const over = t.time - prev.time - stepMs(terms, st.due.deadline)
      if (over > 0) reserve[Z] -= Math.min(reserve[Z], over)
    }
    prev = t
  }
  const madeBy = n === 0 ? genesis : prev
  const Y = due?.sender
  const start = due === undefined ? undefined : madeBy?.time
  const deadline =
    due === undefined || Y === undefined || start === undefined
      ? undefined
      : start + stepMs(terms, due.deadline) + reserve[Y] + WITNESS_MARGIN_MS
  return {
    due,
    turn,
    seq: Y === undefined ? 0 : lastSeq[Y] + 1,
    madeBy: due === undefined ? undefined : madeBy,
    start,
    deadline,
    reserveLeft: reserve,
    admitted: n,
  }
}

/** A stop envelope and its place in the receipt log (PROTOCOL-4.md §4.4, "Positions"). */
export interface StopPosition {
  readonly side: Role
  readonly stop: SealedEnvelope
  /** Its reason code (the codes that decide are resignation and outage; every other is read by fact). */
  readonly reason: StopReason | undefined
  /** The claim receipt that makes it a witnessed claim (its reason not resignation), if any. */
  readonly claim: Receipt | undefined
  /** Its own envelope receipt, if any. */
  readonly own: Receipt | undefined
  /** It answers the other side's stop (SPEC §6.5: its ack is that stop's hash). */
  readonly answers: boolean
  /** The least index among its claim receipt, its own receipt and the receipt of the stop answering it. */
  readonly position: number | undefined
  /** The time of the receipt at its position. */
  readonly time: number | undefined
}

/** PROTOCOL-4.md §4.4: each side's stop with its position. */
export function stopPositions(stops: Partial<Record<Role, SealedEnvelope>>, log: WitnessLog): StopPosition[] {
  const out: StopPosition[] = []
  for (const side of INDEX_ROLE) {
    const stop = stops[side]
    if (stop === undefined) continue
    const other = stops[otherRole(side)]
    const first = stop.envelope.parts[0]
    const reason = first?.t === 'stop' ? first.reason : undefined
    const claim = reason === 'resignation' ? undefined : log.claimReceipt(side, stop.envelope.seq)
    const own = log.envelopeReceipt(stop)
    const answeredBy =
      other !== undefined && other.envelope.ack !== undefined && toBase64url(other.envelope.ack) === stop.id
        ? log.envelopeReceipt(other)
        : undefined
    const answers =
      other !== undefined && stop.envelope.ack !== undefined && toBase64url(stop.envelope.ack) === other.id
    const at = [claim, own, answeredBy]
      .filter((r): r is Receipt => r !== undefined)
      .sort((a, b) => a.index - b.index)[0]
    out.push({ side, stop, reason, claim, own, answers, position: at?.index, time: at?.time })
  }
  return out
}

/**
 * PROTOCOL-4.md §4.4: `s0`, the stop with the least position. A stop that answers another has a
 * position at least as low as that other's (the answer's receipt is one of the answered stop's),
 * so on a tie the stop that does not answer is `s0`.
 */
export function firstStop(positions: readonly StopPosition[]): StopPosition | undefined {
  let best: StopPosition | undefined
  for (const p of positions) {
    if (p.position === undefined) continue
    if (
      best?.position === undefined ||
      p.position < best.position ||
      (p.position === best.position && best.answers && !p.answers)
    )
      best = p
  }
  return best
}

/** Why a stop of its sender's own accord loses (PROTOCOL-4.md §4.4 rule 8), in the verdict's words. */
export type AbandonCase =
  'claim-while-owing' | 'early-claim' | 'no-deadline' | 'unwitnessed-stop' | 'unproven-accusation' | 'invalid-outage'

/** What §4.4 decides after version 3's rules 1 to 4 (rules 2's receipts, 5 to 9). */
export type WitnessedResult =
  | { readonly rule: 2; readonly kind: 'gap'; readonly detail: string }
  | {
      readonly rule: 5
      readonly kind: 'lost-on-time'
      readonly s0: StopPosition
      readonly claim: Receipt
      readonly cut: Cut
    }
  | { readonly rule: 6; readonly kind: 'resigned'; readonly s0: StopPosition; readonly cut: Cut }
  | { readonly rule: 7; readonly kind: 'outage'; readonly why: string; readonly cut: Cut }
  | {
      readonly rule: 8
      readonly kind: 'abandoned'
      readonly s0: StopPosition
      readonly case: AbandonCase
      readonly detail: string
      readonly cut: Cut
    }
  | { readonly rule: 9; readonly kind: 'no-claim'; readonly detail: string; readonly cut: Cut }

/**
 * The first receipt-side gap below `position` (§4.1: "exactly as a missing envelope is"): a receipt
 * some receipt names by `prev` and the files lack, or an envelope an envelope receipt names and the
 * files lack (its receipt proves it was submitted; it may be the owed envelope, or a stop).
 */
function receiptGap(
  log: WitnessLog,
  ev: Evidence,
  position: number,
): { readonly index: number; readonly detail: string } | undefined {
  const unheld = log.envelopeReceipts.find(
    (r) => r.index < position && !ev.held.has(toBase64url(r.header.envelopeHash)),
  )
  const missing = log.firstMissing < position ? log.firstMissing : undefined
  if (missing !== undefined && (unheld === undefined || missing < unheld.index))
    return {
      index: missing,
      detail: `the notary's receipt ${missing}, which its receipt ${missing + 1} names, is missing from these files; the other player's file may hold it`,
    }
  if (unheld !== undefined) {
    const h = unheld.header
    return {
      index: unheld.index,
      detail: `${h.sender === 0 ? 'A' : 'B'}'s envelope ${h.seq}, which the notary's receipt ${unheld.index} names, is missing from these files; the other player's file may hold it`,
    }
  }
  return undefined
}

/** The hello keys of the game [A, B], from its two hellos. */
export function helloKeys(ev: Evidence): [Uint8Array, Uint8Array] | undefined {
  const a = ev.hellos.A?.envelope.parts[0]
  const b = ev.hellos.B?.envelope.parts[0]
  return a?.t === 'hello' && b?.t === 'hello' ? [a.key, b.key] : undefined
}

/**
 * What a witnessed game's receipts establish before §4.4's results are read: the log, the stops'
 * positions and `s0`, and whether a notary fault voids the witnessed decision or a missing receipt
 * (or an envelope a receipt names) below `s0`'s position is a gap (rule 2).
 */
export interface WitnessedPrelude {
  readonly log: WitnessLog
  readonly stops: readonly StopPosition[]
  readonly s0: StopPosition | undefined
  /** `s0`'s position, Infinity without `s0`. */
  readonly position: number
  /** The notary fault that voids the witnessed decision: the game is then decided as unwitnessed. */
  readonly voidedBy: NotaryFault | undefined
  /** Rule 2: what these files lack below `s0`'s position (only with `s0`: see `decideWitnessed`). */
  readonly gap: string | undefined
}

/** NOTARY.md §6 item 3's order of fault kinds: which is named among faults at one index. */
const FAULT_ORDER: readonly NotaryFault['kind'][] = [
  'two-at-index',
  'time-decreasing',
  'after-seal',
  'claim-early',
  'claim-not-next',
  'claim-unrequested',
  'two-at-place',
  'two-claims-at-place',
  'seal-unjustified',
  'complaint-invalid',
  'receipt-invalid',
]

function faultBefore(f: NotaryFault, m: NotaryFault): boolean {
  if (f.index !== m.index) return f.index < m.index
  const kf = FAULT_ORDER.indexOf(f.kind)
  const km = FAULT_ORDER.indexOf(m.kind)
  if (kf !== km) return kf < km
  return f.detail < m.detail
}

export function witnessedPrelude(ev: Evidence, state: GameState, terms: Terms): WitnessedPrelude | undefined {
  const keys = helloKeys(ev)
  if (terms.notary === undefined || keys === undefined) return undefined
  const log = readWitnessLog(ev.receipts ?? [], terms, state.game, keys)
  const stops = stopPositions(state.stops, log)
  const s0 = firstStop(stops)
  const position = s0?.position ?? Infinity
  // §4.4: a fault at or below s0's position (without s0, anywhere) voids the witnessed decision.
  // A fault above a gap below that position does not yet: the missing receipt (or the stop a held
  // receipt names) may give a stop a lower position, above which the fault would not void; the
  // gap decides then (rule 2). A fault at or below every gap voids whatever they hold.
  // Of several faults at that index, the first kind in NOTARY.md §6 item 3's order, then the
  // least detail: the fault named does not depend on the order of the files or their lines.
  const fault = log.report.faults.reduce<NotaryFault | undefined>(
    (m, f) => (m === undefined || faultBefore(f, m) ? f : m),
    undefined,
  )
  const missing = receiptGap(log, ev, position)
  const voidedBy =
    fault !== undefined && fault.index <= Math.min(position, missing?.index ?? Infinity) ? fault : undefined
  const gap = voidedBy === undefined && s0 !== undefined ? missing?.detail : undefined
  return { log, stops, s0, position, voidedBy, gap }
}

/**
 * PROTOCOL-4.md §4.4, results 5 to 9 (after version 3's rules 1 to 4 found nothing), and rule 2
 * for receipts without `s0`: rules 1 to 4 rest on no receipt, but 7 and 9 rest on their absence.
 */
export function decideWitnessed(
  p: WitnessedPrelude,
  ev: Evidence,
  steps: readonly WalkStep[],
  end: { readonly due: Due | undefined; readonly turn: number },
  terms: Terms,
): WitnessedResult {
  const { log, s0 } = p
  if (s0 === undefined) {
    const gap = receiptGap(log, ev, Infinity)
    if (gap !== undefined) return { rule: 2, kind: 'gap', detail: gap.detail }
  }
  const cut = cutWalk({ steps, end, terms, log, position: p.position, below: p.position })
  const due = cut.due
  const D = cut.deadline
  const owing =
    due === undefined
      ? 'nobody owes a step'
      : `${due.sender} owes its ${due.parts.join('+')} of turn ${due.turn} (its envelope ${cut.seq})${D === undefined ? ', which has no deadline: the envelope that made it due has no receipt' : `, due by ${isoTime(D)}`}`
  if (s0 === undefined) {
    // Rule 7: no stop has a position, and a side not due holds a valid unreceipted outage stop:
    // the log holds no receipt at or after the due step's deadline (§4.5).
    const outage = p.stops.find((s) => s.reason === 'outage' && due !== undefined && s.side !== due.sender)
    if (outage !== undefined && D !== undefined && !log.report.chain.some((r) => r.time >= D))
      return {
        rule: 7,
        kind: 'outage',
        why: `the notary receipted nothing from ${isoTime(D)} on (${outage.side}'s outage stop, unreceipted; PROTOCOL-4.md §4.5)`,
        cut,
      }
    return {
      rule: 9,
      kind: 'no-claim',
      detail: `no witnessed claim decides the game (PROTOCOL-4.md §4.4): ${owing}${log.sealed ? '; the log is sealed' : '; provisional until the notary seals its log (§4.6)'}`,
      cut,
    }
  }
  const X = s0.side
  const Y = otherRole(X)
  const time = s0.time ?? 0
  const abandon = (c: AbandonCase, detail: string): WitnessedResult => ({
    rule: 8,
    kind: 'abandoned',
    s0,
    case: c,
    detail: `${detail} (PROTOCOL-4.md §4.4 rule 8)`,
    cut,
  })
  const step = due === undefined ? '' : `${due.parts.join('+')} of turn ${due.turn}`
  if (s0.claim !== undefined) {
    const c = s0.claim
    const claimed = `${X}'s claim was receipted at ${isoTime(c.time)} (receipt ${c.index})`
    if (due === undefined) return abandon('no-deadline', `${claimed}, when no step was due`)
    if (due.sender === X)
      return abandon('claim-while-owing', `${claimed} while its own ${step} was due: ${X} stopped of its own accord`)
    if (D === undefined)
      return abandon(
        'no-deadline',
        `${claimed} against ${Y}'s ${step}, which has no deadline: the envelope that made it due has no receipt below the claim`,
      )
    if (c.time <= D)
      return abandon(
        'early-claim',
        `${claimed}, not after ${Y}'s deadline ${isoTime(D)} for its ${step}: an early claim`,
      )
    return { rule: 5, kind: 'lost-on-time', s0, claim: c, cut }
  }
  if (s0.reason === 'resignation') return { rule: 6, kind: 'resigned', s0, cut }
  const receipted = `placed at receipt ${s0.position ?? '?'}, ${isoTime(time)}`
  if (s0.reason === 'outage') {
    // §4.5: only the side not due; its time at least D + OUTAGE_MS and nothing receipted in [D, its time).
    const why =
      due === undefined
        ? 'no step was due'
        : due.sender === X
          ? `${X} owed its ${step}`
          : D === undefined
            ? `${Y}'s ${step} has no deadline`
            : time < D + outageMs(terms)
              ? `its time is before ${isoTime(D + outageMs(terms))}, ${Y}'s deadline ${isoTime(D)} plus the outage period of ${outageMs(terms)} ms`
              : undefined
    const busy =
      why !== undefined || D === undefined
        ? undefined
        : log.report.chain.find((r) => r.index < p.position && r.time >= D && r.time < time)
    if (why === undefined && busy === undefined && D !== undefined)
      return {
        rule: 7,
        kind: 'outage',
        why: `the notary receipted nothing between ${isoTime(D)} and ${isoTime(time)} (${X}'s outage stop, ${receipted}; PROTOCOL-4.md §4.5)`,
        cut,
      }
    return abandon(
      'invalid-outage',
      `${X}'s outage stop (${receipted}) is not valid: ${why ?? `the notary receipted ${busy === undefined ? 'something' : `receipt ${busy.index} at ${isoTime(busy.time)}`} after ${Y}'s deadline`}`,
    )
  }
  if (s0.reason === 'accusation')
    return abandon('unproven-accusation', `${X}'s accusation (${receipted}) proves no offence (rule 1 found none)`)
  return abandon(
    'unwitnessed-stop',
    `${X} stopped (${s0.reason ?? 'stop'}, ${receipted}) with no claim receipt of the notary: only a witnessed claim claims`,
  )
}

/** PROTOCOL-4.md §4.4: the step a witnessed game waits for, as a node computes it to request a claim. */
export interface WitnessedDue {
  /** Who owes the due step. */
  readonly side: Role
  /** The `seq` the owed envelope will take. */
  readonly seq: number
  readonly parts: readonly PartType[]
  /** Notary ms: the receipt time of the envelope that made it due (the genesis for A's setup). */
  readonly start: number | undefined
  /** `D` of PROTOCOL-4.md §4.2 (undefined: that envelope has no receipt). */
  readonly deadline: number | undefined
  readonly reserveLeft: Readonly<Record<Role, number>>
  /** The last index of the receipt chain held unbroken from the genesis (-1 if none): a claim's `seen`. */
  readonly lastIndex: number
  /**
   * Indexes of envelope receipts in that chain whose envelopes this transcript lacks. A claim must
   * wait until their deposits are opened: a receipted envelope below a claim is admitted by the
   * cut walk (and the owed one, if it is among them, makes the claimant the side that owes).
   */
  readonly unopened: readonly number[]
}

/**
 * PROTOCOL-4.md §4.4: the due step of a witnessed game by the cut walk without s0, from a node's
 * own transcript (envelopes and receipt lines, as its store holds them); undefined when the game is
 * not witnessed, not begun, or over.
 */
export function witnessedDue(lines: readonly Uint8Array[]): WitnessedDue | undefined {
  const ev = gatherEvidence([
    { name: '', lines: lines.map((bytes, i) => ({ line: i + 2, bytes, error: undefined })), torn: false },
  ])
  const helloA = ev.hellos.A
  const helloB = ev.hellos.B
  const hello = helloA?.envelope.parts[0]
  const terms = hello?.t === 'hello' ? hello.terms : undefined
  const keys = helloKeys(ev)
  if (
    ev.problem !== undefined ||
    ev.game === undefined ||
    helloA === undefined ||
    helloB === undefined ||
    terms?.notary === undefined ||
    keys === undefined ||
    helloA.envelope.version !== 4 ||
    helloB.envelope.parts.some((p) => p.t === 'refuse')
  )
    return undefined
  const w = walk(ev, terms, helloA, helloB)
  const { state } = w
  const due = state.due()
  // Over: refused, a stop held (a game with a stop is decided by it), the schedule done, or both
  // reveals held (the close is never claimed: the result no longer depends on it, SPEC §7.10).
  if (
    state.schedule.refused ||
    state.stops.A !== undefined ||
    state.stops.B !== undefined ||
    INDEX_ROLE.some((r) =>
      ev.chains[r].some((c) => c.kind === 'envelope' && c.sealed.envelope.parts[0]?.t === 'stop'),
    ) ||
    due === undefined ||
    (state.logs.A.reveal !== undefined && state.logs.B.reveal !== undefined)
  )
    return undefined
  const log = readWitnessLog(ev.receipts ?? [], terms, ev.game, keys)
  const cut = cutWalk({
    steps: w.steps,
    end: { due, turn: state.schedule.turn },
    terms,
    log,
    position: Infinity,
    below: log.lastIndex + 1,
  })
  if (cut.due === undefined) return undefined
  return {
    side: cut.due.sender,
    seq: cut.seq,
    parts: cut.due.parts,
    start: cut.start,
    deadline: cut.deadline,
    reserveLeft: cut.reserveLeft,
    lastIndex: log.lastIndex,
    unopened: log.envelopeReceipts
      .filter((r) => r.index <= log.lastIndex && !ev.held.has(toBase64url(r.header.envelopeHash)))
      .map((r) => r.index),
  }
}
