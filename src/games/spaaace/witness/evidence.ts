/**
 * From receipts and envelopes gathered anywhere to the decision of a witnessed game
 * (protocol/SPAAACE-WITNESSED.md §6.3 then §7): the log read once, its decided chain handed to the
 * rule that decides, the accepts taken from the genesis receipt. What a node shows and what the
 * verifier reports are both this, so they cannot differ.
 */
import type { SealedGenesis } from '../peers/genesis.js'
import { type ChainReceipt, type WitnessedDecision, type WitnessedEvidence, decideWitnessed } from './decide.js'
import { decodeGenesisBody } from './genesis-receipt.js'
import type { SignatureMemo } from '../../../core/notary/log.js'
import { type WitnessLog, readWitnessLog } from './log.js'

/** §6.3's decided chain as the decision reads it (the genesis receipt apart; no foreign kind reaches it). */
export function chainOf(log: WitnessLog): ChainReceipt[] {
  const out: ChainReceipt[] = []
  for (const r of log.decided)
    if (r.kind === 'envelope')
      out.push({
        kind: 'envelope',
        index: r.index,
        time: r.time,
        author: r.author,
        seq: r.seq,
        envelopeHash: r.envelopeHash,
      })
    else if (r.kind === 'complaint')
      out.push({ kind: 'complaint', index: r.index, time: r.time, complainant: r.complainant, target: r.target })
    else if (r.kind === 'mark') out.push({ kind: 'mark', index: r.index, time: r.time, t: r.t, cut: r.cut })
    else if (r.kind === 'seal') out.push({ kind: 'seal', index: r.index, time: r.time })
  return out
}

/** The accepts of the chain's genesis receipt (§3), in roster order; none if it has none. */
export function acceptsOf(log: WitnessLog): Uint8Array[] {
  const g = log.decided[0]
  if (g?.kind !== 'genesis' || g.receipt.kind !== 'genesis-body') return []
  const body = decodeGenesisBody(g.receipt.body)
  return body.ok ? [...body.value.accepts] : []
}

export interface Witnessed {
  readonly log: WitnessLog
  readonly evidence: WitnessedEvidence
  readonly decision: WitnessedDecision
}

/**
 * §6.3 and §7 over everything held. `verified`: a reader that decides the same game again and
 * again (a node at each check-in) keeps the receipts whose signatures held, which are not checked
 * again.
 */
export function decideFromFiles(
  genesis: SealedGenesis,
  receipts: readonly Uint8Array[],
  envelopes: Iterable<Uint8Array>,
  verified?: SignatureMemo,
): Witnessed {
  const log = readWitnessLog(receipts, { genesis, ...(verified === undefined ? {} : { verified }) })
  const worst = [...log.faults].sort((a, b) => a.index - b.index)[0]
  const evidence: WitnessedEvidence = {
    genesis,
    started: log.exists,
    ...(log.genesisMissing ? { genesisMissing: true } : {}),
    accepts: acceptsOf(log),
    chain: chainOf(log),
    ...(worst === undefined ? {} : { fault: { kind: worst.kind, index: worst.index, detail: worst.detail } }),
    complaintsBeyond: log.complaintsBeyond,
    envelopes,
  }
  return { log, evidence, decision: decideWitnessed(evidence) }
}
