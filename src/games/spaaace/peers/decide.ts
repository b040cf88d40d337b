/**
 * protocol/SPAAACE-PEERS.md §4.1–§5.7, §9, §13: the rule that decides a game of Spaaace! among
 * peers, as a pure function of the genesis and a set of envelopes.
 *
 * - evidence (§4.1, §4.2, §8; `past.ts`): authentication per author, `past(e)`, own-chain
 *   consistency and the seq bound (not evidence), gaps (reported, not used);
 * - what each envelope brings as it enters (`ledger.ts`): its admissible parts, whether its
 *   closing hash is correct, its votes, whether it is a stall record, its offence items;
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
import type { TickOutcome } from '../rules/tick.js'
import type { Submission } from '../rules/types.js'
import type { Level } from './closing.js'
import type { OffenceItem } from './count.js'
import type { ReadEnvelope } from './envelope.js'
import { standingVotes, votersFor } from './ends.js'
import type { SealedGenesis } from './genesis.js'
import { type RecordAt, Ledger } from './ledger.js'
import { compareBytes, tickOf } from './parts.js'
import { Evidence, type Node, type Standing } from './past.js'

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
  /** Per roster index: a commitment in at the seal cut of `D` (§5.3). */
  readonly committed: readonly boolean[]
  /** `M_t` seals and every commitment item (but those §5.4's exception skips) in or out at the seal cut (§6.3). */
  readonly sealSettled: boolean
  /** Per roster index: committed, and a reveal in at the close cut of `D` (§5.3). */
  readonly revealed: readonly boolean[]
  /** Settled in `D` (§5.4). */
  readonly settled: boolean
  /** The submissions and `playTick`'s result the closing state comes from: over the canonical source's past (rule 1) or over `D` (rule 3). */
  readonly submissions?: readonly Submission[]
  readonly outcome?: TickOutcome
  readonly stateHash?: Uint8Array
  /**
   * `S_t(D)` itself, when tick `t` is settled in `D`: what a node holding exactly `D` signs as
   * `state(t)` (§6.5; a correct hash is over the signer's own past, §5.6). It differs from
   * `stateHash` only where a rule-1 state was signed over pasts that `D` contradicts (two cuts of one
   * player, §7.1).
   */
  readonly own?: {
    readonly submissions: readonly Submission[]
    readonly outcome: TickOutcome
    readonly stateHash: Uint8Array
  }
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

/** The decision over a growing set of envelopes of one game. */
export class Decider {
  private readonly n: number
  private readonly game: Uint8Array
  private readonly evidence: Evidence
  private readonly ledger: Ledger
  private cached: Decision | undefined

  constructor(
    readonly genesis: SealedGenesis,
    private readonly options: DecideOptions = {},
  ) {
    this.n = genesis.genesis.keys.length
    this.game = genesis.game
    // The ledger judges each envelope as the evidence takes it in (only ever during `settle`).
    this.evidence = new Evidence(genesis.genesis.keys, options.authenticated === true, (node) =>
      this.ledger.judge(node),
    )
    this.ledger = new Ledger(genesis, this.evidence)
  }

  /** Adds an envelope of this game (a `readEnvelope` result read with its `n` and `G`). */
  add(e: ReadEnvelope): void {
    if (compareBytes(e.header.game, this.game) !== 0 || e.header.author >= this.n) return
    this.evidence.add(e)
    this.cached = undefined
  }

  /** How many distinct envelopes (by id, §4.1) were added: two deciders of one game given sets of equal size, one a subset of the other, hold one set. */
  get size(): number {
    return this.evidence.nodes.size
  }

  /**
   * Where the envelope `id` stands among those added so far (§4.1, §4.2, §13): evidence, a gap,
   * not evidence, or unauthenticated. Incremental: it settles only what arrived since.
   */
  standing(id: string): Standing | undefined {
    this.evidence.settle()
    return this.evidence.nodes.get(id)?.standing
  }

  // ——— the decision over D ———

  /** The decision over every envelope added so far. */
  decision(): Decision {
    if (this.cached !== undefined) return this.cached
    this.evidence.settle()
    const all = { past: undefined }
    const accepted = [...this.evidence.accepted]
    const levels = this.ledger.chainOfD()
    const votes = standingVotes(this.ledger.votes, all)
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
      ...(ended ? { seedMissing: [...Array(this.n).keys()].filter((p) => !this.ledger.seeds.has(p)) } : {}),
      ...(record === undefined ? {} : { record: { envelope: this.ledger.info(record.index).id, tick: record.t } }),
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
      ...(c.outcome === undefined || c.hash === undefined
        ? {}
        : { own: { submissions: c.submissions, outcome: c.outcome, stateHash: c.hash } }),
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
          envelopes: p.envelopes.map((i) => this.ledger.info(i).id),
        })
    }
    // §5.1, §9: a part of a tick in which its author is not active is ignored, never an offence
    // (BD-17): a violation or false hash never counted, all of whose parts are of ticks after its
    // author's removal, is not reported.
    const removedAt = (p: number): number | undefined =>
      levels.find((l) => l.closing?.players[p]?.status === 'removed')?.t
    const ignored = (it: OffenceItem): boolean => {
      if (it.kind === 'fork' || counted.has(it.key)) return false
      const r = removedAt(it.player)
      const body = this.evidence.nodes.get(this.ledger.info(it.envelopes[0] ?? 0).id)?.read.body
      if (r === undefined || body?.ok !== true) return false
      const ticks = body.value.parts.map((x) => tickOf(x)).filter((t) => t !== undefined)
      return ticks.length > 0 && ticks.every((t) => t > r)
    }
    // A §5.3 pair is reported unless an item proves it: a fork item holding both its envelopes.
    const forkOf = new Map<number, string>()
    for (const it of this.ledger.items) if (it.kind === 'fork') for (const i of it.envelopes) forkOf.set(i, it.key)
    const pairsLeft = pairs.filter((p) => {
      const [a, b] = p.envelopes.map((id) => forkOf.get(this.evidence.nodes.get(id)?.index ?? -1))
      return a === undefined || a !== b
    })
    const reports = this.ledger.items
      .filter((it) => !ignored(it))
      .map((it): OffenceReport => ({
        player: it.player,
        kind: it.kind,
        rule: it.rule,
        message: it.message,
        ...(counted.has(it.key) ? { counted: counted.get(it.key) } : {}),
        envelopes: it.envelopes.map((i) => this.ledger.info(i).id),
      }))
    const text = (x: string, y: string): number => (x < y ? -1 : x > y ? 1 : 0)
    return [...reports, ...pairsLeft].sort(
      (a, b) =>
        a.player - b.player ||
        (a.counted ?? Infinity) - (b.counted ?? Infinity) ||
        text(a.rule, b.rule) ||
        text(a.envelopes.join(), b.envelopes.join()),
    )
  }

  private leastRecord(): RecordAt | undefined {
    let best: RecordAt | undefined
    for (const r of this.ledger.records) {
      const better = best === undefined || r.t < best.t || (r.t === best.t && this.least(r.index, best.index) < 0)
      if (better) best = r
    }
    return best
  }

  private least(a: number, b: number): number {
    const x = this.ledger.info(a)
    const y = this.ledger.info(b)
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
      // BD-18: the players lacking a cut at the first cut of tick s that is not settled in D
      // (the seal cut, else the close cut); players lacking either cut if D does not reach tick s.
      const dLevel = levels[record.t - 1]
      const mine = (p: number, k: 'seal' | 'close'): boolean =>
        (this.ledger.byAuthor[p] ?? []).some((i) => this.ledger.info(i)[k] === record.t)
      const blocking: ('seal' | 'close')[] =
        dLevel === undefined ? ['seal', 'close'] : !dLevel.count.sealSettled ? ['seal'] : ['close']
      const lacking =
        dLevel?.count.settled === true ? [] : record.active.filter((p) => blocking.some((k) => !mine(p, k)))
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

/** §13: the decision over a set of envelopes of one game (any order; duplicates are one envelope). */
export function decide(genesis: SealedGenesis, envelopes: Iterable<ReadEnvelope>, options?: DecideOptions): Decision {
  const d = new Decider(genesis, options)
  for (const e of envelopes) d.add(e)
  return d.decision()
}
