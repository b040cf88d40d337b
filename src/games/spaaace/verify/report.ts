/**
 * A Spaaace! decision in words (protocol/SPAAACE-PEERS.md §13): the result, each offence proven
 * with its class, rule and the tick it counted in, the gaps, and the ticks whose closing state is
 * only provisional. One formatter for the verifier and the node's end screen, so both say the same.
 */
import type { Decision, End } from '../peers/decide.js'
import type { GameState } from '../rules/types.js'

const name = (labels: readonly string[], i: number): string => labels[i] ?? `p${i + 1}`

/** §5.7: the end as one line. */
export function endLine(end: End, labels: readonly string[]): string {
  switch (end.kind) {
    case 'not-started':
      return 'not started: an accept is missing and nothing was played (§3.2)'
    case 'stalled':
      return `stalled at tick ${end.tick}${end.split ? ' (split)' : ''}: a majority voted to stop there, the tick unsettled, so nobody wins (§5.7)${
        end.lacking.length === 0
          ? ''
          : // BD-18: what these files lack, never a charge (another player's file may hold it).
            `; these files hold no seal or close of that tick from ${end.lacking.map((i) => name(labels, i)).join(', ')}`
      }`
    case 'complete':
      return `complete after tick ${end.tick}: ${
        end.winners.length === 0 ? 'nobody wins' : `won by ${end.winners.map((i) => name(labels, i)).join(', ')}`
      }`
    case 'ongoing':
      return `ongoing, settled to tick ${end.lastSettled}${end.provisional === undefined ? '' : ` (${end.provisional}, provisional)`}`
  }
}

/** The decision as lines: the result, the offences, what is provisional, the gaps. */
export function decisionLines(d: Decision, labels: readonly string[]): string[] {
  const out = [`Decided from the evidence (§5): ${endLine(d.end, labels)}.`]
  // Offences that read alike are one line with their count: a cheater's thousands of violations
  // (a version at one place each, say) would otherwise be as many lines (--json lists each).
  const said = new Map<string, number>()
  for (const o of d.offences) {
    const line = `offence: ${name(labels, o.player)}, ${o.kind} (${o.rule}), ${
      o.counted === undefined ? 'never counted: cannot win (S-80)' : `counted in tick ${o.counted}`
    }`
    said.set(line, (said.get(line) ?? 0) + 1)
  }
  for (const [line, n] of said) out.push(n === 1 ? line : `${line} (${n} times)`)
  const canonical = d.ticks.filter((v) => v.status === 'canonical').length
  const provisional = d.ticks.filter((v) => v.status === 'provisional').map((v) => v.t)
  if (d.ticks.length > 0)
    out.push(
      `${canonical} tick${canonical === 1 ? '' : 's'} signed by a majority${
        provisional.length === 0
          ? ''
          : `; provisional (a merge of more files could add signers): ${provisional.join(', ')}`
      }.`,
    )
  if (d.gaps.length > 0) out.push(`${d.gaps.length} envelope(s) with a gap in their past, not used (§13).`)
  // Said, not only counted in --json: a line altered in a file had left the verdict silent about it.
  if (d.unauthenticated.length > 0)
    out.push(
      `${d.unauthenticated.length} envelope(s) no valid signature authenticates (altered or forged), not used (§4.1, SPEC §5.4).`,
    )
  if (d.notEvidence.length > 0)
    out.push(`${d.notEvidence.length} envelope(s) that are not evidence (§4.1, §4.2), not used.`)
  return out
}

/**
 * The standings after a decided tick, fame first as S-43 and S-51 rank them, in one line: what an
 * auditor wants beside the verdict (each tick's whole closing state is in `--json`).
 */
export function standingsLine(t: number, state: GameState, labels: readonly string[]): string {
  const order = state.players
    .map((p, i) => ({ p, i }))
    .sort((a, b) => b.p.fame - a.p.fame || a.i - b.i)
    .map(
      ({ p, i }) =>
        `${name(labels, i)} fame ${p.fame} coins ${p.coins}${p.status === 'active' ? '' : ` (${p.status})`}`,
    )
  return `standings after tick ${t} (S-43): ${order.join('; ')}.`
}
