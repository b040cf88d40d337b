/**
 * Reading a witnessed game's receipts (SPAAACE-WITNESSED §6.3) from any files: the chain from the
 * genesis receipt by `prev`, every notary fault with the index `k` from which it voids decisions,
 * `k*` the least of them, the **decided chain** (the chain below `k*`), gaps, receipts set aside,
 * and the complaint receipts that hold. The decider (§7) consumes `decided`, typed receipt by
 * receipt. Pure; never throws on any bytes.
 */
import { constantTimeEqual } from '../../../core/commit/bytes.js'
import {
  type Gap,
  type NotaryFault,
  type SetAside,
  type SignatureMemo,
  checkReceiptLog,
} from '../../../core/notary/log.js'
import type { Receipt } from '../../../core/notary/receipt.js'
import { describeProtocolError } from '../../../core/wire/errors.js'
import type { SealedGenesis } from '../peers/genesis.js'
import { SPAAACE_NOTARY_DOMAIN, depositBytesOf } from './domain.js'
import { complaintJudgingW } from './complaint.js'
import { givesGame } from './genesis-receipt.js'
import { flagsAllowed, sealWhen } from './registrar.js'
import { cutTime, registerByOf } from './times.js'

/** One receipt of the chain as the decider reads it (`receipt`: the decoded receipt, bytes included). */
export type WitnessReceipt =
  | { readonly kind: 'genesis'; readonly index: number; readonly time: number; readonly receipt: Receipt<number> }
  | {
      readonly kind: 'envelope'
      readonly index: number
      readonly time: number
      /** The author's roster index. */
      readonly author: number
      readonly seq: number
      /** The envelope's identity (P §4.1). */
      readonly envelopeHash: Uint8Array
      readonly depositHash: Uint8Array
      /** Header flags: 0, or FLAG.end (4) on a seed envelope (§5.1). */
      readonly flags: number
      readonly receipt: Receipt<number>
    }
  | {
      readonly kind: 'complaint'
      readonly index: number
      readonly time: number
      readonly complainant: number
      /** The index of the envelope receipt complained of. */
      readonly target: number
      /** Its author (when `target` is an envelope receipt of the chain; -1 otherwise). */
      readonly author: number
      /** Whether the complaint holds (§5.3); one that does not is the fault complaint-invalid. */
      readonly holds: boolean
      /** The judge's words: why the deposit does not open, or why the complaint fails. */
      readonly why: string
      readonly receipt: Receipt<number>
    }
  | {
      readonly kind: 'mark'
      readonly index: number
      readonly time: number
      readonly t: number
      /** 0: `C_t`; 1: `R_t`. */
      readonly cut: 0 | 1
      readonly receipt: Receipt<number>
    }
  | { readonly kind: 'seal'; readonly index: number; readonly time: number; readonly receipt: Receipt<number> }
  /** A claim receipt: never in a Spaaace log (fault foreign-kind, so never in the decided chain). */
  | { readonly kind: 'foreign'; readonly index: number; readonly time: number; readonly receipt: Receipt<number> }

export interface WitnessLog {
  /** The genesis's game id. */
  readonly game: Uint8Array
  /** Whether the chain starts with a genesis receipt that gives the game (§3), and `k* > 0`. */
  readonly exists: boolean
  /**
   * §7.6 rule 1: the genesis receipt is not held, yet receipts of the game are, naming a receipt
   * before them that no file holds (a gap at the chain's start, §7.4): the notary registered the
   * game, and these files lack where it did. Never "not started".
   */
  readonly genesisMissing: boolean
  /** The chain from the genesis by `prev`, up to the first gap or fork (§6.3 step 3). */
  readonly chain: readonly WitnessReceipt[]
  /** The chain truncated below `k*` (§6.3): what the decision rests on. */
  readonly decided: readonly WitnessReceipt[]
  /** The least index of all faults; `Infinity` when there is none. */
  readonly kStar: number
  /** §6.3 step 4, by index. */
  readonly faults: readonly NotaryFault[]
  /** §6.3 step 5. */
  readonly gaps: readonly Gap[]
  /** §6.3 step 1, by position in the input. */
  readonly setAside: readonly SetAside[]
  /** The complaint receipts of the chain that hold (§5.3), in chain order. */
  readonly heldComplaints: readonly (WitnessReceipt & { readonly kind: 'complaint' })[]
  /** Whether the chain holds the seal. */
  readonly sealed: boolean
  /**
   * §7.6 rule 2: the complaint receipts at or above `k*`, on the chain or off it, that hold against
   * an envelope receipt of the decided chain, in index order.
   */
  readonly complaintsBeyond: readonly BeyondComplaint[]
}

/** A complaint receipt beyond the decided chain that holds against an envelope receipt of it. */
export interface BeyondComplaint {
  readonly index: number
  readonly complainant: number
  /** The envelope receipt's index and author. */
  readonly target: number
  readonly author: number
}

export interface ReadWitnessLogOptions {
  /** The game's genesis (its roster keys check every statement; its timing gives the cuts). */
  readonly genesis: SealedGenesis
  /** The notary's key; by default the genesis's `notaryKey`. */
  readonly notaryKey?: Uint8Array
  /** Receipts whose signatures this reader checked at an earlier reading of the same game (core/notary/log.ts). */
  readonly verified?: SignatureMemo
}

/** §6.3: reads receipts gathered from any files. */
export function readWitnessLog(receipts: readonly Uint8Array[], o: ReadWitnessLogOptions): WitnessLog {
  const g = o.genesis.genesis
  const roster = g.keys
  const maxTicks = g.terms.maxTicks
  const notaryKey = o.notaryKey ?? g.notaryKey ?? new Uint8Array(32)
  const report = checkReceiptLog<number>(SPAAACE_NOTARY_DOMAIN, receipts, notaryKey, {
    game: o.genesis.game,
    playerKeys: roster,
    ...(o.verified === undefined ? {} : { verified: o.verified }),
    // §9.4: a seal below sealWhen of the chain before it is `seal-unjustified`.
    sealJustified: (before, seal) => seal.time >= sealWhen(before, roster.length, g.timing, maxTicks),
    complaints: complaintJudgingW(roster.length),
    rules: {
      genesisProblem: (r) => {
        if (r.kind !== 'genesis-body') return 'not a genesis body'
        const given = givesGame(r.body, r.game)
        if (!given.ok) return describeProtocolError(given.error)
        // §3, §9.2: the notary registers only while now ≤ G_1 (refusal 25), so that every commit
        // window is the players' whole: a genesis receipted later is its fault.
        const by = registerByOf(g.timing)
        return r.time > by ? `receipted at ${r.time}, after G_1 = ${by} (§3)` : undefined
      },
      foreignKinds: ['claim'],
      seqContiguous: true,
      marks: { maxT: maxTicks, cutTime: (t, cut) => cutTime(g.timing, t, cut) },
      // §6.3 item 4: what the notary signed and no reader can take is its fault, not a silent stop.
      receiptInvalid: true,
      // §5.1, §9.2: headers the notary refuses (7, 27); receipted, they are its fault.
      headerProblem: (h) =>
        !flagsAllowed(h)
          ? `flags ${h.flags}, deadline ${h.deadline}, seen ${h.seen} (only the end flag, and deadline and seen 0, §5.1)`
          : h.depositBytes !== depositBytesOf(roster.length)
            ? `depositBytes ${h.depositBytes}, not DEP(${roster.length}) = ${depositBytesOf(roster.length)} (§5.1)`
            : undefined,
    },
  })
  const held = new Map(report.complaints.map((c) => [c.receipt.index, c]))
  const faultsAt = new Map(report.faults.filter((f) => f.kind === 'complaint-invalid').map((f) => [f.index, f]))
  const chain = report.chain.map((r): WitnessReceipt => {
    const base = { index: r.index, time: r.time, receipt: r }
    switch (r.kind) {
      case 'genesis':
      case 'genesis-body':
        return { kind: 'genesis', ...base }
      case 'envelope': {
        const h = r.header
        return {
          kind: 'envelope',
          ...base,
          author: h.sender,
          seq: h.seq,
          envelopeHash: h.envelopeHash,
          depositHash: h.depositHash,
          flags: h.flags,
        }
      }
      case 'complaint': {
        const c = r.complaint
        const target = report.chain[c.index]
        const holding = held.get(r.index)
        return {
          kind: 'complaint',
          ...base,
          complainant: c.sender,
          target: c.index,
          author: target?.kind === 'envelope' && c.index < r.index ? target.header.sender : -1,
          holds: holding !== undefined,
          why: holding?.why ?? faultsAt.get(r.index)?.detail ?? 'not judged',
          receipt: r,
        }
      }
      case 'mark':
        return { kind: 'mark', ...base, t: r.t, cut: r.cut }
      case 'seal':
        return { kind: 'seal', ...base }
      case 'claim':
        return { kind: 'foreign', ...base }
    }
  })
  const kStar = report.faults.reduce((k, f) => Math.min(k, f.index), Infinity)
  const decided = chain.filter((r) => r.index < kStar)
  const first = chain[0]
  return {
    game: o.genesis.game,
    exists: first?.kind === 'genesis' && kStar > 0 && constantTimeEqual(first.receipt.game, o.genesis.game),
    genesisMissing: first === undefined && kStar > 0 && report.gaps.length > 0,
    chain,
    decided,
    kStar,
    faults: report.faults,
    gaps: report.gaps,
    setAside: report.setAside,
    heldComplaints: chain.filter(
      (r): r is WitnessReceipt & { readonly kind: 'complaint' } => r.kind === 'complaint' && r.holds,
    ),
    sealed: report.sealed,
    complaintsBeyond: [...report.complaints, ...report.offChainComplaints]
      .filter((c) => c.receipt.index >= kStar && c.target.index < kStar)
      .map((c) => ({
        index: c.receipt.index,
        complainant: c.receipt.complaint.sender,
        target: c.target.index,
        author: c.target.header.sender,
      }))
      .sort((a, b) => a.index - b.index),
  }
}
