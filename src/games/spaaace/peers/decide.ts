/**
 * protocol/SPAAACE-PEERS.md §4.1–§5.7, §9, §13: the rule that decides a game of Spaaace! among
 * peers, as a pure function of the genesis and a set of envelopes.
 *
 * - evidence (§4.1, §4.2, §8; `past.ts`): authentication per author, `past(e)`, own-chain
 *   consistency and the seq bound (not evidence), gaps (reported, not used);
 * - offences (§9; `violations.ts`): forks, violations (i)–(vi), false closing hashes, each from the
 *   offender's own envelopes;
 * - the count of each tick (§5.1–§5.4; `count.ts`) and its canonical closing state (§5.6;
 *   `closing.ts`), over `D` and over the past of every envelope holding a `state` part (whether that
 *   part is correct), memoized per set of envelopes that matter;
 * - votes, stall records and the end (§5.7; `ends.ts`).
 *
 * `Decider` grows with the envelopes a node receives and answers as often as asked; `decide` is one
 * `Decider` fed a whole set. The answer does not depend on the order envelopes are given in.
 */
import { toBase64url } from '../../../core/commit/bytes.js'
import { genesis as genesisState } from '../rules/state.js'
import type { TickOutcome } from '../rules/tick.js'
import type { Submission } from '../rules/types.js'
import { type Level, Closings } from './closing.js'
import { type Ctx, type Info, type OffenceItem } from './count.js'
import { withinSeqBound } from './domain.js'
import type { ReadEnvelope } from './envelope.js'
import { type Record, recordOf, standingVotes, votersFor } from './ends.js'
import { type SealedGenesis, rulesTerms } from './genesis.js'
import { type CommitPart, type RevealPart, compareBytes, tickOf } from './parts.js'
import { type Bits, Evidence, type Node, type Standing, countBoth, hasBit } from './past.js'
import { CHAIN_START, type ChainState, judgeChain } from './violations.js'

export interface DecideOptions {
  /** The caller already checked every signature (a node checks on receipt, §8). */
  readonly authenticated?: boolean
  /** The reader's own roster index: its standing vote without a record reads "stalled (provisional)" (§5.7 end 4). */
  readonly self?: number
}

/** An offence proven by the offender's own envelopes (§9). */
export interface OffenceReport {
  readonly player: number
  readonly kind: 'fork' | 'violation' | 'false-state'
  /** `§9 fork`, `§9 (i)` .. `§9 (vi)`, `§5.6` (false closing hash), `§5.3 rule 1` (two commitments or reveals in). */
  readonly rule: string
  readonly message: string
  /** The tick it is counted in (§5.3); absent if never counted (the offender cannot win, S-80). */
  readonly counted?: number
  readonly envelopes: readonly string[]
}

export interface TickView {
  readonly t: number
  readonly active: readonly number[]
  readonly majority: number
  /** Players of `A_t` with a `seal(t)` / `close(t)` in `D`. */
  readonly seals: readonly number[]
  readonly closes: readonly number[]
  /** Per roster index: a commitment in at the seal cut (§5.3). */
  readonly committed: readonly boolean[]
  /** `M_t` seals and every commitment item (but those §5.4's exception skips) in or out at the seal cut (§6.3). */
  readonly sealSettled: boolean
  readonly revealed: readonly boolean[]
  /** Settled in `D` (§5.4). */
  readonly settled: boolean
  /** The submissions and `playTick`'s result the closing state comes from: over the canonical source's past (rule 1) or over `D` (rule 3). */
  readonly submissions?: readonly Submission[]
  readonly outcome?: TickOutcome
  readonly stateHash?: Uint8Array
  readonly canonical?: { readonly hash: Uint8Array; readonly signers: readonly number[] }
  readonly status: 'canonical' | 'provisional' | 'split' | 'open'
  /** Players of `A_t` with a standing vote counting for `t` (a vote of a tick `≤ t + 1`, §5.7). */
  readonly votes: readonly number[]
}

export type End =
  | { readonly kind: 'not-started' }
  | { readonly kind: 'stalled'; readonly tick: number; readonly split: boolean; readonly lacking: readonly number[] }
  | {
      readonly kind: 'complete'
      readonly tick: number
      readonly winners: readonly number[]
      readonly provisional?: boolean
    }
  | { readonly kind: 'ongoing'; readonly lastSettled: number; readonly provisional?: 'split' | 'stalled' }

export interface Decision {
  /** Per roster index: its accept is in `D`. */
  readonly accepts: readonly boolean[]
  /** `ticks[0]` is tick 1; up to and including the first tick that is open or split, or that ended the game. */
  readonly ticks: readonly TickView[]
  readonly end: End
  readonly offences: readonly OffenceReport[]
  /** Authenticated envelopes whose past is not all present and evidence (reported, not used). */
  readonly gaps: readonly string[]
  /** Own-chain consistency, a foreign `prev`, the seq bound (§4.1, §4.2). */
  readonly notEvidence: readonly string[]
  /** No valid signature on them or on a later envelope of their chain (SPEC §5.4). */
  readonly unauthenticated: readonly string[]
  /** Once the game has ended: the players whose seed no envelope of `D` holds (reported, not an offence). */
  readonly seedMissing?: readonly number[]
  /** The least stall record (§5.7), if any: the envelope, its tick. */
  readonly record?: { readonly envelope: string; readonly tick: number }
}

interface RecordAt extends Record {
  readonly index: number
}

/** The decision over a growing set of envelopes of one game. */
export class Decider {
  private readonly n: number
  private readonly game: Uint8Array
  private readonly evidence: Evidence
  private readonly infos: Info[] = []
  private readonly chains: ChainState[] = []
  private readonly play: number[][] = []
  private readonly stateMask: number[][] = []
  private offMask: number[] = []
  private readonly stopList: number[] = []
  private stopBits: Bits = new Uint32Array(0)
  private readonly byAuthor: number[][]
  private readonly items: OffenceItem[] = []
  private readonly places = new Map<string, number[]>()
  private readonly records: RecordAt[] = []
  private recordBits: Bits = new Uint32Array(0)
  private readonly seeds = new Set<number>()
  private readonly closings: Closings
  private readonly ctx: Ctx
  private cached: Decision | undefined

  constructor(
    readonly genesis: SealedGenesis,
    private readonly options: DecideOptions = {},
  ) {
    this.n = genesis.genesis.keys.length
    this.game = genesis.game
    this.byAuthor = Array.from({ length: this.n }, () => [])
    this.evidence = new Evidence(genesis.genesis.keys, options.authenticated === true, (node) => this.judge(node))
    const infos = this.infos
    this.ctx = {
      n: this.n,
      game: this.game,
      items: this.items,
      info(i: number): Info {
        const e = infos[i]
        if (e === undefined) throw new Error(`no envelope ${i} in D`)
        return e
      },
    }
    this.closings = new Closings(
      this.ctx,
      {
        play: (t) => this.play[t] ?? [],
        states: (t) => this.stateMask[t] ?? [],
        offences: () => this.offMask,
      },
      genesisState(this.n, rulesTerms(genesis.genesis)),
    )
  }

  /** Adds an envelope of this game (a `readEnvelope` result read with its `n` and `G`). */
  add(e: ReadEnvelope): void {
    if (compareBytes(e.header.game, this.game) !== 0 || e.header.author >= this.n) return
    this.evidence.add(e)
    this.cached = undefined
  }

  /**
   * Where the envelope `id` stands among those added so far (§4.1, §4.2, §13): evidence, a gap,
   * not evidence, or unauthenticated. Incremental: it settles only what arrived since.
   */
  standing(id: string): Standing | undefined {
    this.evidence.settle()
    return this.evidence.nodes.get(id)?.standing
  }

  // ——— evidence, envelope by envelope ———

  private judge(node: Node): { evidence: true } | { evidence: false; why: string } {
    const body = node.read.body.ok ? node.read.body.value : undefined
    const prev = node.prevId === undefined ? undefined : this.evidence.nodes.get(node.prevId)
    const before = prev === undefined ? CHAIN_START : (this.chains[prev.index] ?? CHAIN_START)
    const accepts = this.evidence.allAccepts(node.past)
    const scope = { bits: node.past }
    // §5.6: whether its state part is correct, over its past (its own other parts play no part:
    // any of a tick ≤ t breaks chain order, BD-16).
    const statePart = body?.parts.find((p) => p.type === 'state')
    let correct = false
    let stateCount: Info['stateCount']
    let activeThen = true
    if (statePart !== undefined && accepts) {
      const levels = this.closings.chain(scope, true, statePart.tick)
      const level = levels[statePart.tick - 1]
      if (level !== undefined) {
        activeThen = level.count.active.includes(node.author)
        if (level.count.hash !== undefined && compareBytes(level.count.hash, statePart.stateHash) === 0) {
          correct = true
          stateCount = level.count
        }
      }
    }
    // §4.2: t_e and the seq bound.
    const u = Math.max(before.u, correct && statePart !== undefined ? statePart.tick : 0)
    const te = accepts ? 1 + u : 0
    if (!withinSeqBound(node.seq, te))
      return { evidence: false, why: `§4.2: seq ${node.seq} is beyond the bound 2 + 12·t_e (t_e = ${te})` }
    const index = node.index
    const admissible = (t: number): boolean => t <= te
    let commit: CommitPart | undefined
    let reveal: RevealPart | undefined
    let seal: number | undefined
    let close: number | undefined
    const stops: number[] = []
    let maxTick = -1
    for (const p of body?.parts ?? []) {
      const t = tickOf(p)
      if (t !== undefined) maxTick = Math.max(maxTick, t)
      if (t === undefined || !admissible(t)) continue
      if (p.type === 'commit') commit = p
      if (p.type === 'reveal') reveal = p
      if (p.type === 'seal') seal = p.tick
      if (p.type === 'close') close = p.tick
      if (p.type === 'stop') stops.push(p.tick)
      if (p.type === 'seed') this.seeds.add(node.author)
    }
    if (body?.parts.some((p) => p.type === 'seed') === true) this.seeds.add(node.author)
    const info: Info = {
      index,
      id: node.id,
      author: node.author,
      seq: node.seq,
      past: node.past,
      commit,
      seal,
      reveal,
      close,
      state: statePart === undefined ? undefined : { tick: statePart.tick, hash: statePart.stateHash, correct },
      stateCount,
      stops,
      maxTick,
    }
    this.infos[index] = info
    this.byAuthor[node.author]?.push(index)
    const mark = (list: number[][], t: number): void => {
      const l = list[t] ?? []
      l.push(index)
      list[t] = l
    }
    for (const t of new Set([commit?.tick, seal, reveal?.tick, close])) if (t !== undefined) mark(this.play, t)
    if (correct && statePart !== undefined) mark(this.stateMask, statePart.tick)
    if (stops.length > 0) {
      this.stopList.push(index)
      this.stopBits = setBit(this.stopBits, index)
    }
    // §5.7: whether this envelope is a stall record (only where its past holds two votes).
    let record: Record | undefined
    if (countBoth(node.past, this.stopBits) >= 2 && accepts) {
      record = recordOf(this.closings.chain(scope, true), standingVotes(this.voteSource(), scope))
      if (record !== undefined) {
        this.records.push({ ...record, index })
        this.recordBits = setBit(this.recordBits, index)
      }
    }
    // §9: violations, against its own chain.
    const judged = judgeChain({
      node,
      body,
      before,
      te,
      u,
      game: this.game,
      lookup: (id) => this.evidence.nodes.get(id),
      ended: () =>
        countBoth(node.past, this.recordBits) > 0 ||
        this.closings.chain(scope, accepts).some((l) => l.status === 'canonical' && l.closing?.ended === true),
    })
    this.chains[index] = judged.after
    const found: OffenceItem[] = []
    if (judged.violation !== undefined)
      found.push({
        key: `v:${node.id}`,
        player: node.author,
        kind: 'violation',
        rule: judged.violation.rule,
        message: judged.violation.message,
        envelopes: [index],
      })
    if (statePart !== undefined && admissible(statePart.tick) && !correct && activeThen)
      found.push({
        key: `f:${node.id}`,
        player: node.author,
        kind: 'false-state',
        rule: '§5.6',
        message: `state(${statePart.tick}) is not the closing state its past gives`,
        envelopes: [index],
      })
    // §4.1: a divergence, two envelopes of one author at one seq with one prev.
    const place = `${node.author}:${node.seq}:${node.prevId ?? ''}`
    const others = this.places.get(place) ?? []
    for (const j of others) {
      const other = this.infos[j]
      if (other === undefined) continue
      const pair = [other, info].sort((a, b) => (a.id < b.id ? -1 : 1))
      found.push({
        key: `k:${pair.map((x) => x.id).join(':')}`,
        player: node.author,
        kind: 'fork',
        rule: '§9 fork',
        message: `two envelopes at seq ${node.seq} with one prev`,
        envelopes: pair.map((x) => x.index),
      })
    }
    this.places.set(place, [...others, index])
    if (found.length > 0) {
      this.items.push(...found)
      const off = new Set(this.offMask)
      for (const it of found) for (const x of it.envelopes) off.add(x)
      this.offMask = [...off].sort((a, b) => a - b)
    }
    return { evidence: true }
  }

  private voteSource() {
    return {
      info: (i: number) => this.ctx.info(i),
      stops: this.stopList,
      byAuthor: this.byAuthor,
      withdraws: (j: number, t: number) => {
        const e = this.ctx.info(j)
        return e.maxTick > t || e.state?.tick === t
      },
    }
  }

  // ——— the decision over D ———

  /** The decision over every envelope added so far. */
  decision(): Decision {
    if (this.cached !== undefined) return this.cached
    this.evidence.settle()
    const all = { bits: undefined }
    const accepted = this.evidence.acceptBits.map((b) => b.some((w) => w !== 0))
    const levels = this.closings.chain(all, accepted.every(Boolean))
    const votes = standingVotes(this.voteSource(), all)
    const ticks = levels.map((l) => this.view(l, votes))
    const offences = this.offences(levels)
    const record = this.leastRecord()
    const end = this.end(levels, record, offences, accepted, votes)
    const nodes = [...this.evidence.nodes.values()]
    const ids = (f: (x: Node) => boolean): string[] =>
      nodes
        .filter(f)
        .sort((a, b) => a.author - b.author || a.seq - b.seq || (a.id < b.id ? -1 : 1))
        .map((x) => x.id)
    const ended = end.kind === 'stalled' || end.kind === 'complete'
    const decision: Decision = {
      accepts: accepted,
      ticks,
      end,
      offences,
      gaps: ids((x) => x.standing === 'gap'),
      notEvidence: ids((x) => x.standing === 'not-evidence'),
      unauthenticated: ids((x) => x.standing === 'unauthenticated'),
      ...(ended ? { seedMissing: [...Array(this.n).keys()].filter((p) => !this.seeds.has(p)) } : {}),
      ...(record === undefined ? {} : { record: { envelope: this.ctx.info(record.index).id, tick: record.t } }),
    }
    this.cached = decision
    return decision
  }

  private view(l: Level, votes: ReadonlyMap<number, readonly number[]>): TickView {
    const c = l.count
    const chosen = l.chosen
    const outcome = chosen?.outcome
    return {
      t: l.t,
      active: c.active,
      majority: c.majority,
      seals: c.active.filter((p) => (c.seals[p]?.length ?? 0) > 0),
      closes: c.active.filter((p) => (c.closes[p]?.length ?? 0) > 0),
      committed: c.committed,
      sealSettled: c.sealSettled,
      revealed: c.revealed,
      settled: c.settled,
      ...(chosen !== undefined && outcome !== undefined
        ? { submissions: chosen.submissions, outcome, ...(chosen.hash === undefined ? {} : { stateHash: chosen.hash }) }
        : {}),
      ...(l.canonical === undefined ? {} : { canonical: { hash: l.canonical.hash, signers: l.canonical.signers } }),
      status: l.status,
      votes: votersFor(l, votes),
    }
  }

  /** §9, §5.3: every offence item of `D`, with the tick it is counted in (the chosen count's, tick by tick). */
  private offences(levels: readonly Level[]): OffenceReport[] {
    const counted = new Map<string, number>()
    const pairs: OffenceReport[] = []
    for (const l of levels) {
      const c = l.chosen ?? l.count
      for (const k of c.inAt) if (!counted.has(k)) counted.set(k, l.t)
      for (const p of c.pairs)
        pairs.push({
          player: p.player,
          kind: 'fork',
          rule: '§5.3 rule 1',
          message: `two ${p.cut === 'seal' ? 'commitments in at the seal cut' : 'reveals in at the close cut'}`,
          counted: l.t,
          envelopes: p.envelopes.map((i) => this.ctx.info(i).id),
        })
    }
    const reports = this.items.map((it): OffenceReport => ({
      player: it.player,
      kind: it.kind,
      rule: it.rule,
      message: it.message,
      ...(counted.has(it.key) ? { counted: counted.get(it.key) } : {}),
      envelopes: it.envelopes.map((i) => this.ctx.info(i).id),
    }))
    return [...reports, ...pairs].sort(
      (a, b) =>
        a.player - b.player ||
        (a.counted ?? Infinity) - (b.counted ?? Infinity) ||
        a.rule.localeCompare(b.rule) ||
        a.envelopes.join().localeCompare(b.envelopes.join()),
    )
  }

  private leastRecord(): RecordAt | undefined {
    let best: RecordAt | undefined
    for (const r of this.records) {
      const better = best === undefined || r.t < best.t || (r.t === best.t && this.least(r.index, best.index) < 0)
      if (better) best = r
    }
    return best
  }

  private least(a: number, b: number): number {
    const x = this.ctx.info(a)
    const y = this.ctx.info(b)
    return x.author - y.author || x.seq - y.seq || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0)
  }

  private end(
    levels: readonly Level[],
    record: RecordAt | undefined,
    offences: readonly OffenceReport[],
    accepted: readonly boolean[],
    votes: ReadonlyMap<number, readonly number[]>,
  ): End {
    if (!accepted.every(Boolean)) {
      const tickParts = [...this.evidence.nodes.values()].some(
        (x) => x.authenticated && x.read.body.ok && x.read.body.value.parts.some((p) => (tickOf(p) ?? 0) >= 1),
      )
      if (!tickParts) return { kind: 'not-started' }
    }
    const last = levels.findLast((l) => l.closing !== undefined)
    const T = levels.find((l) => l.closing?.ended === true)
    if (record !== undefined && (T === undefined || record.t <= T.t)) {
      const dLevel = levels[record.t - 1]
      const lacking = record.active.filter((p) => {
        const mine = this.byAuthor[p] ?? []
        const has = (k: 'seal' | 'close'): boolean => mine.some((i) => this.ctx.info(i)[k] === record.t)
        return !has('seal') || !has('close')
      })
      return { kind: 'stalled', tick: record.t, split: record.split || dLevel?.status === 'split', lacking }
    }
    if (T !== undefined && T.closing !== undefined) {
      const convicted = new Set(offences.map((o) => o.player))
      return {
        kind: 'complete',
        tick: T.t,
        winners: T.closing.winners.filter((p) => !convicted.has(p)),
        ...(T.status === 'canonical' ? {} : { provisional: true }),
      }
    }
    const split = levels.some((l) => l.status === 'split')
    const self = this.options.self
    const stalled = self !== undefined && (votes.get(self)?.length ?? 0) > 0
    return {
      kind: 'ongoing',
      lastSettled: last?.t ?? 0,
      ...(split ? { provisional: 'split' as const } : stalled ? { provisional: 'stalled' as const } : {}),
    }
  }
}

function setBit(b: Bits, i: number): Bits {
  const need = (i >>> 5) + 1
  const out =
    b.length >= need
      ? b
      : (() => {
          const g = new Uint32Array(Math.max(need, b.length * 2))
          g.set(b)
          return g
        })()
  out[i >>> 5] = (out[i >>> 5] ?? 0) | (1 << (i & 31))
  return out
}

/** §13: the decision over a set of envelopes of one game (any order; duplicates are one envelope). */
export function decide(genesis: SealedGenesis, envelopes: Iterable<ReadEnvelope>, options?: DecideOptions): Decision {
  const d = new Decider(genesis, options)
  for (const e of envelopes) d.add(e)
  return d.decision()
}

/** The id of an envelope hash (base64url), as the decision reports it. */
export function envelopeId(hash: Uint8Array): string {
  return toBase64url(hash)
}

export { hasBit }
