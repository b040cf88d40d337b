/**
 * A witnessed Spaaace! decision in words (protocol/SPAAACE-WITNESSED.md §7, §12 "ends"): per tick
 * whether it is final, provisional, a gap or open and who was missing or withheld, the offences
 * with their class, rule and tick, the notary's faults, the end, and what a merge of more files (or
 * a later receipt) could change (§7.4 "Monotone"). One formatter for the verifier and the node.
 */
import type { WitnessedDecision, WitnessedEnd, WitnessedTick } from '../witness/decide.js'

const name = (labels: readonly string[], i: number): string => labels[i] ?? `p${i + 1}`
const names = (labels: readonly string[], is: readonly number[]): string => is.map((i) => name(labels, i)).join(', ')
const iso = (ms: number): string => new Date(ms).toISOString().replace('.000Z', 'Z')

/** §7.6: the end as one line. */
export function witnessedEndLine(end: WitnessedEnd, labels: readonly string[]): string {
  switch (end.kind) {
    case 'not-started':
      return 'not started: no genesis receipt gives the game (§3)'
    case 'stalled':
      return end.cause === 'notary-fault'
        ? `stalled at tick ${end.tick} (notary fault: ${end.fault.kind} at receipt ${end.fault.index}): nobody wins (§7.6 rule 2)`
        : `stalled at tick ${end.tick} (outage, provisional: ${names(labels, end.voters)} voted; any receipt past the tick's reveal cut lifts it, §7.6 rule 4)`
    case 'complete':
      return `complete after tick ${end.tick}${
        end.lacking !== undefined
          ? ` (provisional: these files lack receipted envelopes of ${names(labels, end.lacking)}, which could convict ${end.lacking.length === 1 ? 'that winner' : 'those winners'}, §7.6 rule 3)`
          : end.provisional
            ? ' (provisional until the notary passes the complaint window)'
            : ''
      }: ${
        end.winners.length === 0 ? 'nobody wins' : `won by ${names(labels, end.winners)}`
      }${end.fault === undefined ? '' : `; the notary signed a conflicting receipt after it (${end.fault.kind} at ${end.fault.index})`}`
    case 'ongoing':
      return end.gap === 'genesis'
        ? "undecided: these files lack the notary's genesis receipt that its later receipts name (a gap at receipt 0, §7.6 rule 1); a file that holds it decides"
        : end.gap === 'content'
          ? `undecided, final to tick ${end.lastFinal}: a receipt or envelope of the next tick is in no file (a gap, §7.4), and the notary signed a conflicting receipt after (${end.fault?.kind ?? ''} at ${end.fault?.index ?? ''}, §7.6 rule 2); a file that holds them decides`
          : `ongoing, final to tick ${end.lastFinal}${end.lastReceipt === undefined ? '' : `; the notary's last receipt is at ${iso(end.lastReceipt)}`}`
  }
}

/** One tick as a line: its status and who did not play as ordered. */
export function witnessedTickLine(t: WitnessedTick, labels: readonly string[]): string {
  const notes = (t.submissions ?? []).flatMap((s, i) =>
    s.kind === 'orders' || !t.active.includes(i) ? [] : [`${name(labels, i)} ${s.kind}`],
  )
  const how =
    t.status === 'gap'
      ? `gap: the envelopes of ${(t.missing ?? []).map((m) => `${name(labels, m.author)} seq ${m.seq} (receipt ${m.index})`).join(', ')} are in no file`
      : t.status === 'open'
        ? "open: the notary's log has not passed its reveal cut"
        : t.status
  return `tick ${t.t}: ${how}${notes.length === 0 ? '' : `; ${notes.join(', ')}`}`
}

/** The decision as lines: ticks, the end, offences, voids, what a merge or a later receipt could change. */
export function witnessedLines(d: WitnessedDecision, labels: readonly string[]): string[] {
  const out = d.ticks.map((t) => witnessedTickLine(t, labels))
  out.push(`Decided from the notary's receipts (SPAAACE-WITNESSED §7): ${witnessedEndLine(d.end, labels)}.`)
  for (const o of d.offences)
    out.push(
      `offence: ${name(labels, o.player)}, ${o.kind} (${o.rule}): ${o.message}; ${
        o.counted === undefined ? 'not counted: cannot win (S-80)' : `counted in tick ${o.counted}`
      }`,
    )
  if (d.voids.length > 0)
    out.push(`void by a complaint in time (§7.2): receipt${d.voids.length === 1 ? '' : 's'} ${d.voids.join(', ')}.`)
  const provisional = d.ticks.filter((t) => t.status === 'provisional').map((t) => t.t)
  if (provisional.length > 0)
    out.push(
      `provisional (a complaint receipted before the next commit cut could still void an envelope): tick${provisional.length === 1 ? '' : 's'} ${provisional.join(', ')}.`,
    )
  if (d.unreceipted.length > 0)
    out.push(
      `${d.unreceipted.length} signed envelope(s) the notary never receipted: they count in no tick (§7.1; an outage vote among them counts toward an outage record only, §7.6 rule 4).`,
    )
  if (d.unauthenticated.length > 0)
    out.push(`${d.unauthenticated.length} envelope(s) no signature or receipt authenticates, not used.`)
  return out
}
