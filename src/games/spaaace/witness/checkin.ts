/**
 * protocol/SPAAACE-WITNESSED.md §8.1–§8.2: what an honest node does at a check-in, as a pure plan
 * from what it holds (the decided chain, the decision over it, its own signed envelopes, its
 * player's choices) and its clock. The driver carries the plan out (fetch, open, complain, resubmit,
 * then these steps) and persists before anything leaves the node.
 *
 * Every step is read from the node's own chain, so a restarted node resumes exactly and a step it
 * already signed is never signed again (§8.5).
 */
import { SKEW_MS, tickLength } from '../peers/domain.js'
import type { SealedGenesis } from '../peers/genesis.js'
import { tickTimes } from '../peers/genesis.js'
import type { Part } from '../peers/parts.js'
import type { ChainReceipt, WitnessedDecision } from './decide.js'
import { horizonOf } from './times.js'

/** One of the node's own envelopes, with its receipt in the decided chain if it has one. */
export interface OwnEnvelope {
  readonly seq: number
  readonly parts: readonly Part[]
  /** The receipt's time, if the chain holds the envelope's receipt. */
  readonly receiptTime?: number
}

export interface CheckinInput {
  readonly genesis: SealedGenesis
  readonly self: number
  /** The node's clock. */
  readonly now: number
  readonly chain: readonly ChainReceipt[]
  readonly decision: WitnessedDecision
  /** Its envelopes at seq ≥ 1, in seq order. */
  readonly own: readonly OwnEnvelope[]
  /** The ticks its player has chosen orders for (the orders themselves stay with the chooser). */
  readonly chosen: ReadonlySet<number>
  /** The chain it holds ends with the seal (§9.4): nothing is left to do. */
  readonly sealed: boolean
  /** Its last fetches of the log, oldest first (§8.2's outage vote reads the last `OUTAGE_FETCHES`). */
  readonly fetches?: readonly FetchOutcome[]
}

/**
 * §8.2: a request outcome, as the node's journal keeps it across check-ins: a fetch of the log
 * (§8.1 step 1) answered, `past` the time of the last receipt of the chain held after it; or a try
 * of any request the notary did not answer (or a fetch answered with no log), `past` null. `at` is
 * the node's clock when it ended.
 */
export interface FetchOutcome {
  readonly at: number
  readonly past: number | null
}

/** §8.2: the outage vote needs this many last request outcomes failed or bringing nothing past `R_s`. */
export const OUTAGE_FETCHES = 3

export type CheckinStep =
  /** §6.2: ask the notary to pass cut `(t, cut)` (0: `C_t`, 1: `R_t`). */
  | { readonly kind: 'mark'; readonly t: number; readonly cut: 0 | 1 }
  /** §8.2: the player's orders of tick `t` are wanted (the commit window is open). */
  | { readonly kind: 'choose'; readonly t: number; readonly guard: number }
  | { readonly kind: 'commit'; readonly t: number }
  | { readonly kind: 'reveal'; readonly t: number }
  /** §8.2: the seed, with the header's end flag, once the end is final; then the seal (§9.4). */
  | { readonly kind: 'seed' }
  | { readonly kind: 'seal' }
  /** §8.2: the outage vote `stop(t, 1)`: the notary has not passed `R_t` for `OUTAGE_MS` after it. */
  | { readonly kind: 'vote'; readonly t: number }

export interface CheckinPlan {
  readonly steps: readonly CheckinStep[]
  /** When the node should next check in (its clock), if the game goes on. */
  readonly next?: number
  /** The tick whose window is open now and what it waits for (for the screen). */
  readonly window?: { readonly t: number; readonly phase: 'commit' | 'reveal' | 'waiting'; readonly until: number }
}

/** §2: the reveal guard `Q_t = R_t − Δ − 2·SKEW_MS`. */
export function revealGuard(genesis: SealedGenesis, t: number): number {
  return tickTimes(genesis.genesis.timing, t).revealCut - genesis.genesis.timing.marginMs - 2 * SKEW_MS
}

const has = (own: readonly OwnEnvelope[], type: Part['type'], t?: number): OwnEnvelope | undefined =>
  own.find((e) => e.parts.some((p) => p.type === type && (t === undefined || ('tick' in p && p.tick === t))))

/**
 * Whether the game's end is final and complete in what the node holds (§7.6 rule 3, or rule 2's end
 * final before the fault): the seed may go. Never on a stall (§8.2): after a notary fault the notary
 * can receipt the seed on the branch it shows a reader who lacks the other, where it is (w5).
 */
export function endIsFinal(d: WitnessedDecision): boolean {
  return d.end.kind === 'complete' && !d.end.provisional
}

/** Whether nothing the node could ask of the notary changes the end it holds (a final end, or a fault, §7.6 rule 2). */
function settledEnd(d: WitnessedDecision): boolean {
  return (
    endIsFinal(d) ||
    d.end.kind === 'not-started' ||
    (d.end.kind === 'stalled' && d.end.cause === 'notary-fault') ||
    // §7.6 rule 2 undecided at a gap below a proven notary fault: nothing the node could ask of
    // that notary decides more (a notary that also withheld the content would keep it polling).
    (d.end.kind === 'ongoing' && d.end.fault !== undefined)
  )
}

/**
 * §8.2: the tick `s` whose outage vote `stop(s, 1)` is due, if one is. Every condition is read from
 * what the node holds and its own clock, so a restarted node decides the same:
 * - `s` is the tick the decision leaves open (the first whose `R_s` the chain it holds does not pass,
 *   §7.4), and the node's player is in `A_s` (§7.6 rule 4 counts no other vote);
 * - its clock is past `R_s + OUTAGE_MS` (`OUTAGE_MS = L`, §2);
 * - its last `OUTAGE_FETCHES` request outcomes, each ended after `R_s`, failed or brought nothing
 *   past `R_s` (a fetch before `R_s` could not have: it says nothing of an outage);
 * - the end is not decided in what it holds (§7.6 rules 1 to 3: a vote would count for nothing), it
 *   has not signed its seed (anything after the seed is (w3)), and it has not voted `stop(s)` yet.
 */
export function outageVote(i: CheckinInput): number | undefined {
  const { genesis, self, now, decision, own } = i
  const timing = genesis.genesis.timing
  if (decision.end.kind !== 'ongoing' && !(decision.end.kind === 'stalled' && decision.end.cause === 'outage'))
    return undefined
  const open = decision.ticks[decision.ticks.length - 1]
  if (open?.status !== 'open' || !open.active.includes(self)) return undefined
  const s = open.t
  const R = tickTimes(timing, s).revealCut
  const last = i.chain.length === 0 ? undefined : i.chain[i.chain.length - 1]?.time
  if (last !== undefined && last > R) return undefined
  if (now <= R + tickLength(timing)) return undefined
  const fetches = (i.fetches ?? []).slice(-OUTAGE_FETCHES)
  if (fetches.length < OUTAGE_FETCHES || fetches.some((f) => f.at <= R || (f.past !== null && f.past > R)))
    return undefined
  if (has(own, 'seed') !== undefined || has(own, 'stop', s) !== undefined) return undefined
  return s
}

/**
 * §8.1 step 4 to §8.2: the plan of one check-in. A `mark` step comes first and is carried out before
 * anything else: the plan is then computed again on the chain with the mark's receipt (§8.1 steps 4,
 * 5, 6 in order), since a reveal waits for a receipt past `C_t` and a commitment for `S_{t−1}`, which
 * that receipt may be the one to give. A driver that acted on the first plan alone would reveal only
 * at its next check-in, after `Q_t`.
 */
export function planCheckin(i: CheckinInput): CheckinPlan {
  const { genesis, self, now, chain, decision, own } = i
  const { timing, terms } = genesis.genesis
  const steps: CheckinStep[] = []
  const last = chain.length === 0 ? undefined : chain[chain.length - 1]?.time
  const passes = (x: number): boolean => last !== undefined && last > x

  // Step 4: the latest cut at or before clock − SKEW_MS that the chain does not pass.
  const maxT = terms.maxTicks + 1
  let wanted: { t: number; cut: 0 | 1; at: number } | undefined
  for (let t = 1; t <= maxT; t++) {
    const at = tickTimes(timing, t)
    if (at.commitCut > now - SKEW_MS) break
    wanted = { t, cut: 0, at: at.commitCut }
    if (at.revealCut > now - SKEW_MS) break
    wanted = { t, cut: 1, at: at.revealCut }
  }
  const ended =
    decision.end.kind === 'complete' || decision.end.kind === 'stalled' || decision.end.kind === 'not-started'
  // A provisional end (or an outage record) still needs the chain to pass the next cut; a final one does not.
  const settled = settledEnd(decision)
  if (wanted !== undefined && !passes(wanted.at) && !settled) steps.push({ kind: 'mark', t: wanted.t, cut: wanted.cut })

  if (endIsFinal(decision)) {
    if (i.sealed) return { steps }
    if (has(own, 'seed') === undefined) steps.push({ kind: 'seed' })
    steps.push({ kind: 'seal' })
    // §9.4: the notary seals once every player's seed is receipted, or at C_{maxTicks+1} + L at
    // the latest; until this node holds the seal it looks again a tick later.
    const latest = horizonOf(timing, terms.maxTicks) + SKEW_MS + 1
    return { steps, next: Math.max(now + 1, Math.min(now + tickTimes(timing, 2).start - timing.start, latest)) }
  }
  if (settled) return { steps }
  // §8.2: after the mark (a notary that answers it passes R_s, and the vote is no longer due).
  const vote = outageVote(i)
  if (vote !== undefined) steps.push({ kind: 'vote', t: vote })

  // The tick the node is in: the first whose reveal cut its clock has not passed.
  let t = 1
  while (t < terms.maxTicks && tickTimes(timing, t).revealCut < now) t++
  const at = tickTimes(timing, t)
  // Next: just after the next cut (to mark it and reveal or see the result), or the next tick's start.
  // C_{t+1} is among them because F_t = C_{t+1} is the cut a provisional end waits for (§7.4), also
  // for t = maxTicks, whose F_t lies after every cut of the ticks played.
  const candidates = [
    at.commitCut + SKEW_MS + 1,
    at.revealCut + SKEW_MS + 1,
    tickTimes(timing, t + 1).start,
    tickTimes(timing, t + 1).commitCut + SKEW_MS + 1,
  ].filter((x) => x > now)
  const next = candidates.length === 0 ? undefined : Math.min(...candidates)
  // §8.3, §10.3: a provisional end, or an outage record, is not the end of the node's part: the log
  // must still pass F_T (then the seed and the seal) or R_s (lifting the record), and nobody else
  // may check in to mark it. So the node still schedules its next check-in, and only signs nothing.
  if (ended) return { steps, ...(next === undefined ? {} : { next }) }
  const Q = revealGuard(genesis, t)
  const decided = decision.ticks.filter((x) => x.status === 'final' || x.status === 'provisional')
  const before = t === 1 ? undefined : decided[t - 2]?.outcome?.state
  const active = t === 1 || before?.players[self]?.status === 'active'

  // §4.2 (w3): a commit (reveal) at or below the tick of an earlier one of its chain is a violation,
  // so the node never signs one, whatever its clock says (a clock set back into an earlier tick).
  const highest = (type: 'commit' | 'reveal'): number =>
    Math.max(0, ...own.flatMap((e) => e.parts.flatMap((p) => (p.type === type ? [p.tick] : []))))

  // §8.2 reveal: a receipt past C_t, its own commitment in at the seal cut, clock ≤ Q_t.
  const commit = has(own, 'commit', t)
  if (
    commit?.receiptTime !== undefined &&
    commit.receiptTime <= at.commitCut &&
    passes(at.commitCut) &&
    now <= Q &&
    highest('reveal') < t
  )
    steps.push({ kind: 'reveal', t })

  // §8.2 commit: chosen on S_{t−1} (provisional at least), only while the clock reads at most G_t.
  const known = t === 1 || before !== undefined
  if (commit === undefined && highest('commit') < t && known && active && now <= at.guard) {
    if (i.chosen.has(t)) steps.push({ kind: 'commit', t })
    else steps.push({ kind: 'choose', t, guard: at.guard })
  }

  const window =
    now <= at.guard && known
      ? { t, phase: 'commit' as const, until: at.guard }
      : now <= Q && now > at.commitCut
        ? { t, phase: 'reveal' as const, until: Q }
        : { t, phase: 'waiting' as const, until: now <= at.commitCut ? at.commitCut : at.revealCut }
  return { steps, ...(next === undefined ? {} : { next }), window }
}
