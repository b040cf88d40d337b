/**
 * Reading a game's receipt log from receipts gathered anywhere (PROTOCOL-4.md §4.1, NOTARY.md §6):
 * as one chain by `prev` from the genesis, ordered by `index`, never by position. Receipts that do
 * not decode, are not signed by the notary, belong to another game, or carry a player's header,
 * complaint or claim request whose signature fails are set aside. What the valid receipts prove against the notary
 * (a notary fault, with the lowest index `k` whose decisions it voids) and the receipts named by a
 * `prev` that none of them is (gaps) are reported. Pure: bytes in, a report out.
 */
import { constantTimeEqual, toHex } from '../commit/bytes.js'
import { describeProtocolError } from '../wire/errors.js'
import { claimSignatureValid } from './claim.js'
import { complaintSignatureValid, judgeComplaint } from './complaint.js'
import type { PaddingFloor } from './deposit.js'
import { type NotaryDomain, layoutOf } from './domain.js'
import { type Side, type SubmissionHeader, headerSignatureValid, isClaim } from './header.js'
import {
  type Receipt,
  decodeReceipt,
  notarySignedIndex,
  receiptHash,
  receiptSignatureValid,
  unsignedPart,
} from './receipt.js'

export type NotaryFaultKind =
  | 'two-at-index'
  | 'time-decreasing'
  | 'after-seal'
  | 'claim-early'
  | 'claim-not-next'
  | 'claim-unrequested'
  | 'two-at-place'
  | 'two-claims-at-place'
  | 'seal-unjustified'
  | 'complaint-invalid'
  // Read only when the game's `rules` ask for them: SPAAACE-WITNESSED §6.3, and `receipt-invalid`
  // also NOTARY.md §6 item 3 (version 4 Spaceships):
  | 'genesis-invalid'
  | 'foreign-kind'
  | 'seq-skipped'
  | 'mark-early'
  | 'mark-range'
  | 'two-marks'
  | 'receipt-invalid'
  | 'header-invalid'

export interface NotaryFault {
  readonly kind: NotaryFaultKind
  /** PROTOCOL-4.md §4.1: decisions resting on a receipt at this index or above are void. */
  readonly index: number
  /** The positions (in the input) of the receipts that prove it. */
  readonly positions: readonly number[]
  readonly detail: string
}

export interface SetAside {
  readonly position: number
  readonly reason: string
}

/** A receipt some valid receipt names by `prev` and that no valid receipt is. */
export interface Gap {
  readonly index: number
  readonly hash: Uint8Array
}

/**
 * A complaint receipt of the chain that holds (NOTARY.md §5.5): it proves false-deposit by the
 * signer of the header it names (PROTOCOL-4.md §5.3).
 */
export interface HeldComplaint<S extends number = Side> {
  readonly receipt: Receipt<S> & { readonly kind: 'complaint' }
  /** The envelope receipt complained of, of the chain, of the other side. */
  readonly target: Receipt<S> & { readonly kind: 'envelope' }
  /** Why the deposit does not open (the judge's words). */
  readonly why: string
}

/** `S`: the author's type the caller reads the log with (a side by default; `number` for n players). */
export interface ReceiptLogReport<S extends number = Side> {
  readonly game: Uint8Array | undefined
  /** The chain from the genesis by `prev`, in index order, up to the first gap or fork. */
  readonly chain: readonly Receipt<S>[]
  readonly sealed: boolean
  readonly faults: readonly NotaryFault[]
  readonly gaps: readonly Gap[]
  readonly setAside: readonly SetAside[]
  /** The complaint receipts of the chain that hold (only when `complaints` and `playerKeys` are given). */
  readonly complaints: readonly HeldComplaint<S>[]
  /**
   * The complaint receipts held off the chain (past a fork or gap) that hold against an envelope
   * receipt of the chain, judged as those of the chain are: each is the author's signed header and
   * the complainant's proof, whatever else the notary signed (SPAAACE-WITNESSED §7.6 rule 2).
   */
  readonly offChainComplaints: readonly HeldComplaint<S>[]
}

type AnyReceipt = Receipt<number>

export interface CheckReceiptLogOptions<S extends number = Side> {
  /** The game; by default the game of the first genesis, else of the first valid receipt. */
  readonly game?: Uint8Array
  /**
   * The players' keys in author order ([A, B], or the roster): when given, headers, complaints and
   * claims must be signed by them, and an author beyond them is set aside.
   */
  readonly playerKeys?: readonly Uint8Array[]
  /** The game's rule of §4.6: whether the log before a seal shows the game over. */
  sealJustified?(before: readonly Receipt<S>[], seal: Receipt<S>): boolean
  /**
   * The game's padding floor and test of an opened envelope (NOTARY.md §5.3): when given with
   * `playerKeys`, each complaint receipt of the chain is judged from the receipt alone (§5.5).
   */
  readonly complaints?: {
    readonly floor: PaddingFloor
    envelopeMatches(envelope: Uint8Array, header: SubmissionHeader<number>): boolean
  }
  /** The further faults a game's log can prove (SPAAACE-WITNESSED §6.3); none when absent. */
  readonly rules?: LogRules
  /**
   * Receipts (their whole bytes, base64) whose signatures a reader that reads the same game's log
   * again and again has checked before, under this notary key and these player keys: a receipt
   * in it is not checked again, and one whose signatures hold is added. A node checking in reads
   * the whole log each time, and the signatures were three quarters of that (SignatureMemo).
   */
  readonly verified?: SignatureMemo
}

/**
 * A memo of receipts whose signatures held, for one reader of one game's log: the notary key and
 * the player keys must be the same at every reading (a node's genesis fixes them). Keyed by every
 * byte of the receipt, so a receipt that differs in any byte is checked afresh.
 */
export type SignatureMemo = Set<string>

/** SPAAACE-WITNESSED §6.3: the game's rules for the further notary faults of an n-player log. */
export interface LogRules {
  /** Why a genesis receipt does not give the game (fault `genesis-invalid`, k = 0), or undefined. */
  readonly genesisProblem?: (genesis: AnyReceipt) => string | undefined
  /** Receipt kinds that never belong in the game's log (fault `foreign-kind`). */
  readonly foreignKinds?: readonly AnyReceipt['kind'][]
  /** Whether each author's envelope receipts along the chain have `seq` 1, 2, 3… (fault `seq-skipped`). */
  readonly seqContiguous?: boolean
  /** Marks (faults `mark-range`, `mark-early`, `two-marks`): the highest `t` and the time of a cut. */
  readonly marks?: { readonly maxT: number; readonly cutTime: (t: number, cut: 0 | 1) => number }
  /**
   * Fault `receipt-invalid`: bytes the notary signed as a receipt of the game that do not decode,
   * or whose header or complaint is not validly signed by its author's key (set aside all the same).
   */
  readonly receiptInvalid?: boolean
  /**
   * Fault `header-invalid`: why the notary should have refused an envelope receipt's header
   * (flags, `deadline`, `seen`, `depositBytes` the game does not allow), or undefined.
   */
  readonly headerProblem?: (header: SubmissionHeader<number>) => string | undefined
}

interface Held {
  readonly r: AnyReceipt
  readonly position: number
  readonly hash: Uint8Array
}

/** Why a receipt's player signature does not hold under the players' keys (when given), or undefined. */
function playerSignatureProblem(
  domain: NotaryDomain,
  r: AnyReceipt,
  keys: readonly Uint8Array[] | undefined,
): string | undefined {
  if (keys === undefined) return undefined
  // An author beyond the roster has no key: its statement is not validly signed (SPAAACE-WITNESSED §6.3 item 1).
  const key = (i: number): Uint8Array => keys[i] ?? new Uint8Array()
  if (r.kind === 'envelope' && !headerSignatureValid(domain, r.header, key(r.header.sender)))
    return "the header's player signature is not valid (PROTOCOL-4.md §4.1)"
  if (r.kind === 'complaint' && !complaintSignatureValid(domain, r.complaint, key(r.complaint.sender)))
    return "the complaint's player signature is not valid"
  if (r.kind === 'claim' && !claimSignatureValid(domain, r.claim, key(r.claim.sender)))
    return "the claim's player signature is not valid (PROTOCOL-4.md §4.1)"
  return undefined
}

function valid(
  domain: NotaryDomain,
  receipts: readonly Uint8Array[],
  notaryKey: Uint8Array,
  o: {
    readonly game?: Uint8Array
    readonly playerKeys?: readonly Uint8Array[]
    readonly verified?: SignatureMemo
    readonly rules?: LogRules
  },
  setAside: SetAside[],
): { held: Held[]; game: Uint8Array | undefined; invalid: NotaryFault[] } {
  // `memo`: the receipt's key in `o.verified` when its signatures are yet to be checked and remembered.
  const signed: { r: AnyReceipt; position: number; known: boolean; memo: string | undefined }[] = []
  const layout = layoutOf(domain)
  // Set aside for what they hold (they do not decode, or a player's signature fails): the
  // candidates of fault `receipt-invalid`, judged once the game is known.
  const unread: { bytes: Uint8Array; position: number; reason: string }[] = []
  receipts.forEach((bytes, position) => {
    const d = decodeReceipt(bytes, layout)
    const memo = o.verified === undefined ? undefined : Buffer.from(bytes).toString('base64')
    const known = memo !== undefined && o.verified?.has(memo) === true
    if (!d.ok) {
      const reason = describeProtocolError(d.error)
      setAside.push({ position, reason })
      // A fixed reason (the decoder's own words are noted with the line set aside): the fault's
      // detail is the same whatever decoder a reader has.
      unread.push({ bytes, position, reason: 'it does not decode' })
    } else if (!known && !receiptSignatureValid(domain, d.value, notaryKey))
      setAside.push({ position, reason: "the notary's signature is not valid" })
    else signed.push({ r: d.value, position, known, memo })
  })
  const game =
    o.game ?? (signed.find((s) => s.r.kind === 'genesis' || s.r.kind === 'genesis-body') ?? signed[0])?.r.game
  const held: Held[] = []
  const seen = new Set<string>()
  for (const { r, position, known, memo } of signed) {
    const reason =
      game === undefined || !constantTimeEqual(r.game, game)
        ? 'a receipt of another game'
        : known
          ? undefined
          : playerSignatureProblem(domain, r, o.playerKeys)
    if (reason !== undefined) {
      setAside.push({ position, reason })
      if (game !== undefined && constantTimeEqual(r.game, game)) unread.push({ bytes: r.bytes, position, reason })
      continue
    }
    if (memo !== undefined && !known) o.verified?.add(memo)
    // The same receipt in two files (or twice in one) is one receipt; a signature is not content.
    const id = toHex(unsignedPart(r.bytes))
    if (seen.has(id)) continue
    seen.add(id)
    held.push({ r, position, hash: receiptHash(domain, r.bytes) })
  }
  held.sort((a, b) => a.r.index - b.r.index || a.position - b.position)
  // SPAAACE-WITNESSED §6.3 item 4: the notary signs only what it encoded, after checking the
  // player's signature (§9.2); its signature over bytes that do not read proves its fault, at the
  // index the bytes name. Unread, it would stop every reader's chain below it with no fault.
  const invalid: NotaryFault[] = []
  if (o.rules?.receiptInvalid === true && game !== undefined) {
    const met = new Set<string>()
    // In the order of their bytes, not of the files: the faults, and so the one a verdict names,
    // are the same however the lines were ordered.
    const ordered = unread
      .map((u) => ({ ...u, id: toHex(u.bytes) }))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : a.position - b.position))
    for (const u of ordered) {
      const index = notarySignedIndex(domain, u.bytes, game, notaryKey)
      const id = u.id
      if (index === undefined || met.has(id)) continue
      met.add(id)
      invalid.push({
        kind: 'receipt-invalid',
        index,
        positions: [u.position],
        detail: `a receipt the notary signed at index ${index} that no reader can take: ${u.reason}`,
      })
    }
  }
  return { held, game, invalid }
}

/** PROTOCOL-4.md §4.1, §4.4: every notary fault the valid receipts prove (the seal's apart). */
function faultsOf(
  held: readonly Held[],
  byIndex: ReadonlyMap<number, readonly Held[]>,
  chain: readonly AnyReceipt[],
): NotaryFault[] {
  const faults: NotaryFault[] = []
  for (const [index, at] of byIndex)
    if (at.length > 1)
      faults.push({
        kind: 'two-at-index',
        index,
        positions: at.map((h) => h.position),
        detail: `${at.length} different receipts at index ${index}`,
      })
  const seal = held.find((h) => h.r.kind === 'seal')
  // Envelope receipts and claim receipts each at most one per (sender, seq), apart: a claim
  // receipt and its stop's envelope receipt share a place (PROTOCOL-4.md §4.4).
  const places = new Map<string, Held>()
  const claims = new Map<string, Held>()
  for (const h of held) {
    const { r } = h
    if (seal !== undefined && r.index > seal.r.index)
      faults.push({
        kind: 'after-seal',
        index: r.index,
        positions: [seal.position, h.position],
        detail: `receipt ${r.index} after the seal at ${seal.r.index}`,
      })
    for (const p of byIndex.get(r.index - 1) ?? [])
      if (constantTimeEqual(p.hash, r.prev) && r.time < p.r.time)
        faults.push({
          kind: 'time-decreasing',
          index: r.index,
          positions: [p.position, h.position],
          detail: `time ${r.time} below ${p.r.time} at index ${r.index - 1}`,
        })
    if (r.kind === 'claim') {
      const c = r.claim
      if (r.time <= c.deadline)
        faults.push({
          kind: 'claim-early',
          index: r.index,
          positions: [h.position],
          detail: `a claim receipted at ${r.time}, not after its deadline ${c.deadline}`,
        })
      if (r.index !== c.seen + 1)
        faults.push({
          kind: 'claim-not-next',
          index: r.index,
          positions: [h.position],
          detail: `a claim receipt at index ${r.index} whose request saw ${c.seen}`,
        })
      const place = `${c.sender}/${c.seq}`
      const first = claims.get(place)
      if (first === undefined) claims.set(place, h)
      else if (first.r.index !== r.index)
        faults.push({
          kind: 'two-claims-at-place',
          index: r.index,
          positions: [first.position, h.position],
          detail: `a second claim receipt for sender ${c.sender} seq ${c.seq}`,
        })
      continue
    }
    if (r.kind !== 'envelope') continue
    const hd = r.header
    const place = `${hd.sender}/${hd.seq}`
    const first = places.get(place)
    if (first === undefined) places.set(place, h)
    else if (first.r.index !== r.index)
      faults.push({
        kind: 'two-at-place',
        index: r.index,
        positions: [first.position, h.position],
        detail: `a second envelope receipt for sender ${hd.sender} seq ${hd.seq}`,
      })
  }
  // PROTOCOL-4.md §4.4 step 2: a claim header stands on the claim receipt its `seen` names, which
  // must be the chain's receipt at that (lower) index. Judged along the chain only: a receipt
  // beyond a gap decides nothing, and one beyond a fork is void by the two-at-index fault already.
  for (const [i, r] of chain.entries()) {
    if (r.kind !== 'envelope' || !isClaim(r.header)) continue
    const hd = r.header
    const named = hd.seen < i ? chain[hd.seen] : undefined
    if (
      named?.kind === 'claim' &&
      named.claim.sender === hd.sender &&
      named.claim.seq === hd.seq &&
      named.claim.deadline === hd.deadline
    )
      continue
    const at = (x: AnyReceipt | undefined) => held.find((k) => k.r === x)?.position
    faults.push({
      kind: 'claim-unrequested',
      index: r.index,
      positions: [at(r), at(named)].filter((p) => p !== undefined),
      detail: `a claim header of sender ${hd.sender} seq ${hd.seq} whose seen ${hd.seen} names no claim receipt of its place and deadline ${hd.deadline}`,
    })
  }
  return faults
}

/**
 * Reads a log (NOTARY.md §6). Never throws on any bytes. `S` is the author's type of the domain's
 * layout: the default (a side) for two-player domains, `number` for n-player ones.
 */
export function checkReceiptLog<S extends number = Side>(
  domain: NotaryDomain,
  receipts: readonly Uint8Array[],
  notaryKey: Uint8Array,
  o: CheckReceiptLogOptions<S> = {},
): ReceiptLogReport<S> {
  const setAside: SetAside[] = []
  const { held, game, invalid } = valid(domain, receipts, notaryKey, o, setAside)
  const byIndex = new Map<number, Held[]>()
  for (const h of held) byIndex.set(h.r.index, [...(byIndex.get(h.r.index) ?? []), h])
  const gaps = new Map<string, Gap>()
  for (const h of held) {
    if (h.r.index === 0) continue
    const named = (byIndex.get(h.r.index - 1) ?? []).some((p) => constantTimeEqual(p.hash, h.r.prev))
    if (!named) gaps.set(toHex(h.r.prev), { index: h.r.index - 1, hash: h.r.prev })
  }
  // The chain holds the receipt of index i at position i (it starts at the genesis, index 0).
  const chain: AnyReceipt[] = []
  const genesis = byIndex.get(0)
  let last = genesis?.length === 1 ? genesis[0] : undefined
  while (last !== undefined) {
    chain.push(last.r)
    const from = last
    const next = (byIndex.get(from.r.index + 1) ?? []).filter((n) => constantTimeEqual(n.r.prev, from.hash))
    last = next.length === 1 ? next[0] : undefined
  }
  const faults = faultsOf(held, byIndex, chain)
  if (o.rules !== undefined) faults.push(...ruleFaults(held, chain, o.rules), ...invalid)
  const sealAt = chain.findIndex((r) => r.kind === 'seal')
  const sealReceipt = chain[sealAt]
  if (
    sealReceipt !== undefined &&
    o.sealJustified !== undefined &&
    // The layout decoded authors within its range: S's receipts (see the report's cast below).
    !o.sealJustified(chain.slice(0, sealAt) as Receipt<S>[], sealReceipt as Receipt<S>)
  ) {
    const position = held.find((h) => h.r === sealReceipt)?.position ?? -1
    faults.push({
      kind: 'seal-unjustified',
      index: sealReceipt.index,
      positions: [position],
      detail: 'the log before the seal does not show the game over',
    })
  }
  const complaints: HeldComplaint<number>[] = []
  const keys = o.playerKeys
  if (o.complaints !== undefined && keys !== undefined)
    for (const r of chain) {
      if (r.kind !== 'complaint') continue
      const judged = judgeChainComplaint(domain, chain, r, keys, o.complaints)
      if (judged.target !== undefined) {
        complaints.push({ receipt: r, target: judged.target, why: judged.why })
        continue
      }
      faults.push({
        kind: 'complaint-invalid',
        index: r.index,
        positions: [held.find((h) => h.r === r)?.position ?? -1],
        detail: `a complaint receipt about receipt ${r.complaint.index} that does not hold: ${judged.why}`,
      })
    }
  const offChainComplaints: HeldComplaint<number>[] = []
  if (o.complaints !== undefined && keys !== undefined) {
    const onChain = new Set(chain)
    for (const { r } of held) {
      if (r.kind !== 'complaint' || onChain.has(r)) continue
      const judged = judgeChainComplaint(domain, chain, r, keys, o.complaints)
      if (judged.target !== undefined) offChainComplaints.push({ receipt: r, target: judged.target, why: judged.why })
    }
  }
  faults.sort((a, b) => a.index - b.index)
  // The layout decoded authors within its range: a two-player domain's are sides (S's default).
  const report: ReceiptLogReport<number> = {
    game,
    chain,
    sealed: sealAt >= 0,
    faults,
    gaps: [...gaps.values()],
    setAside,
    complaints,
    offChainComplaints,
  }
  return report as ReceiptLogReport<S>
}

/**
 * NOTARY.md §5.5: a complaint receipt of the chain holds iff the receipt it names is an envelope
 * receipt of the chain of the other side and the complaint holds (§5.3) with its header, the
 * deposit the complaint receipt carries and the complainant's hello key.
 */
function judgeChainComplaint(
  domain: NotaryDomain,
  chain: readonly AnyReceipt[],
  r: AnyReceipt & { readonly kind: 'complaint' },
  keys: readonly Uint8Array[],
  game: NonNullable<CheckReceiptLogOptions<number>['complaints']>,
): { readonly target?: AnyReceipt & { readonly kind: 'envelope' }; readonly why: string } {
  const c = r.complaint
  // The chain holds index i at position i; the target is below the complaint (the notary names a receipt it holds).
  const target = c.index < r.index ? chain[c.index] : undefined
  if (target?.kind !== 'envelope' || target.header.sender === c.sender)
    return { why: `receipt ${c.index} is not an envelope receipt of the other side in the chain` }
  const complainantKey = keys[c.sender]
  if (complainantKey === undefined) return { why: `complainant ${c.sender} is not on the roster` }
  const judged = judgeComplaint({
    domain,
    complaint: c,
    header: target.header,
    deposit: r.deposit,
    complainantKey,
    wraps: keys.length,
    floor: game.floor,
    envelopeMatches: (e, h) => game.envelopeMatches(e, h),
  })
  return judged.ok ? { target, why: judged.value } : { why: `${judged.error.code}: ${judged.error.message}` }
}

/** SPAAACE-WITNESSED §6.3: the faults a game's `rules` ask for, each with the index it voids from. */
function ruleFaults(held: readonly Held[], chain: readonly AnyReceipt[], rules: LogRules): NotaryFault[] {
  const faults: NotaryFault[] = []
  const at = (r: AnyReceipt): number => held.find((h) => h.r === r)?.position ?? -1
  const genesis = chain[0]
  if (genesis !== undefined && rules.genesisProblem !== undefined) {
    const why = rules.genesisProblem(genesis)
    if (why !== undefined) faults.push({ kind: 'genesis-invalid', index: 0, positions: [at(genesis)], detail: why })
  }
  const marks = new Map<string, Held>()
  for (const h of held) {
    const { r } = h
    if (rules.foreignKinds?.includes(r.kind) === true)
      faults.push({
        kind: 'foreign-kind',
        index: r.index,
        positions: [h.position],
        detail: `a ${r.kind} receipt at index ${r.index}, which this game never has`,
      })
    const headerWhy = r.kind === 'envelope' ? rules.headerProblem?.(r.header) : undefined
    if (headerWhy !== undefined)
      faults.push({
        kind: 'header-invalid',
        index: r.index,
        positions: [h.position],
        detail: `an envelope receipt of author ${r.kind === 'envelope' ? r.header.sender : -1} whose header the notary must refuse: ${headerWhy}`,
      })
    if (r.kind !== 'mark' || rules.marks === undefined) continue
    if (r.t > rules.marks.maxT + 1) {
      faults.push({
        kind: 'mark-range',
        index: r.index,
        positions: [h.position],
        detail: `a mark for tick ${r.t}, beyond maxTicks + 1 = ${rules.marks.maxT + 1}`,
      })
      continue
    }
    const x = rules.marks.cutTime(r.t, r.cut)
    if (r.time <= x)
      faults.push({
        kind: 'mark-early',
        index: r.index,
        positions: [h.position],
        detail: `a mark of cut ${r.cut} of tick ${r.t} at time ${r.time}, not past the cut ${x}`,
      })
    const id = `${r.t}/${r.cut}`
    const first = marks.get(id)
    if (first === undefined) marks.set(id, h)
    else if (first.r.index !== r.index)
      faults.push({
        kind: 'two-marks',
        index: Math.max(first.r.index, r.index),
        positions: [first.position, h.position],
        detail: `two marks for cut ${r.cut} of tick ${r.t}, at ${first.r.index} and ${r.index}`,
      })
  }
  if (rules.seqContiguous === true) {
    const last = new Map<number, number>()
    for (const r of chain) {
      if (r.kind !== 'envelope') continue
      const want = (last.get(r.header.sender) ?? 0) + 1
      if (r.header.seq !== want)
        faults.push({
          kind: 'seq-skipped',
          index: r.index,
          positions: [at(r)],
          detail: `author ${r.header.sender}'s envelope receipt at seq ${r.header.seq}; its next seq was ${want}`,
        })
      last.set(r.header.sender, Math.max(want, r.header.seq))
    }
  }
  return faults
}
