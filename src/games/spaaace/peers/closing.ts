/**
 * protocol/SPAAACE-PEERS.md §5.6: the canonical closing state of each tick over an evidence set,
 * tick after tick from the genesis state (rules 1–4: canonical, split, provisional, open).
 *
 * A tick's count over a set `X` depends only on the closing state it starts from, the envelopes of
 * `X` holding a part of that tick and the offence items of `X`; its canonical state only on that
 * count and the correct `state` parts of `X`. Both are memoized by exactly those envelopes (their
 * indices), so the pasts of a game's many envelopes share their counts instead of replaying the
 * game once per envelope (§15 Q4: "cache `S_t` per cut set").
 */
import { toHex } from '../../../core/commit/bytes.js'
import type { GameState } from '../rules/types.js'
import { type Count, type Ctx, type Scope, countTick, inScope } from './count.js'

/** §5.6 rules 1–4. */
export type TickStatus = 'canonical' | 'provisional' | 'split' | 'open'

/** One tick decided over one evidence set. */
export interface Level {
  readonly id: number
  readonly t: number
  readonly parent: Level | undefined
  readonly before: GameState
  /** The count over the set itself. */
  readonly count: Count
  readonly status: TickStatus
  /** Rule 1: the hash, its signers (players of `A_t`, ascending) and the least `(author, seq)` envelope. */
  readonly canonical:
    { readonly hash: Uint8Array; readonly signers: readonly number[]; readonly source: number } | undefined
  /** The count whose closing state the game goes on from: the source's (rule 1) or the set's own (rule 3). */
  readonly chosen: Count | undefined
  /** The closing state of tick `t` (rules 1 and 3). */
  readonly closing: GameState | undefined
  /** Offence items in at a cut of tick `t` or earlier (over the set). */
  readonly inThrough: ReadonlySet<string>
}

/** Where the envelopes of each tick are (indices ascending), kept by the decider. */
export interface Masks {
  /** Envelopes holding an admissible `commit`, `seal`, `reveal` or `close` of tick `t`. */
  play(t: number): readonly number[]
  /** Envelopes holding a correct `state(t)`. */
  states(t: number): readonly number[]
  /** Envelopes of an offence item. */
  offences(): readonly number[]
  isOffence(i: number): boolean
}

const NO_ITEMS: ReadonlySet<string> = new Set()

/** The per-game memo of counts and levels. */
export class Closings {
  private readonly counts = new Map<string, Count>()
  private readonly levels = new Map<string, Level>()
  private nextLevel = 0

  constructor(
    private readonly ctx: Ctx,
    private readonly masks: Masks,
    private readonly genesisState: GameState,
  ) {}

  /**
   * The envelopes of `list` (indices ascending, only ever appended to) in the scope, and a key
   * naming exactly that set: `*k` when the scope holds all `k` of them (the common case for every
   * tick but the last few of a past), else the indices.
   */
  private within(list: readonly number[], scope: Scope): { list: readonly number[]; key: string } {
    const inside = scope.past === undefined ? list : list.filter((i) => inScope(scope, i))
    return inside.length === list.length ? { list, key: `*${list.length}` } : { list: inside, key: inside.join(',') }
  }

  /**
   * The offence envelopes in the scope, ascending: by testing each, or, when they outnumber the
   * past (a flood of versions at one place: each version's past was tested against all of them, at
   * every tick of its replay), by walking the past's own chains.
   */
  private offencesIn(scope: Scope): readonly number[] {
    const all = this.masks.offences()
    const past = scope.past
    if (past === undefined || all.length <= past.bound()) return all.filter((i) => inScope(scope, i))
    const out: number[] = []
    past.forEachEnvelope((i) => {
      if (this.masks.isOffence(i)) out.push(i)
    })
    return out.sort((a, b) => a - b)
  }

  private level(t: number, parent: Level | undefined, scope: Scope): Level {
    const before = parent?.closing ?? this.genesisState
    const { list: play, key: playKey } = this.within(this.masks.play(t), scope)
    const off = this.offencesIn(scope)
    const countKey = `${t}|${parent?.id ?? 0}|${playKey}|${off.join(',')}`
    let count = this.counts.get(countKey)
    if (count === undefined) {
      count = countTick(this.ctx, t, before, parent?.inThrough ?? NO_ITEMS, play, scope)
      this.counts.set(countKey, count)
    }
    const { list: states, key: statesKey } = this.within(this.masks.states(t), scope)
    const levelKey = `${count.id}|${statesKey}`
    const known = this.levels.get(levelKey)
    if (known !== undefined) return known
    const made = this.decideLevel(t, parent, before, count, states)
    this.levels.set(levelKey, made)
    return made
  }

  private decideLevel(
    t: number,
    parent: Level | undefined,
    before: GameState,
    count: Count,
    states: readonly number[],
  ): Level {
    const active = new Set(count.active)
    const groups = new Map<string, { hash: Uint8Array; signers: Set<number>; envelopes: number[] }>()
    for (const i of states) {
      const e = this.ctx.info(i)
      if (!active.has(e.author) || e.state === undefined || !e.state.correct) continue
      const k = toHex(e.state.hash)
      const g = groups.get(k) ?? { hash: e.state.hash, signers: new Set<number>(), envelopes: [] }
      g.signers.add(e.author)
      g.envelopes.push(i)
      groups.set(k, g)
    }
    const inThrough = new Set([...(parent?.inThrough ?? NO_ITEMS), ...count.inAt])
    const base = { id: ++this.nextLevel, t, parent, before, count, inThrough }
    const major = [...groups.values()].filter((g) => g.signers.size >= count.majority)
    if (major.length === 1 && major[0] !== undefined) {
      const g = major[0]
      const source = g.envelopes.reduce((a, b) => (this.least(a, b) <= 0 ? a : b))
      const chosen = this.ctx.info(source).stateCount
      return {
        ...base,
        status: 'canonical',
        canonical: { hash: g.hash, signers: [...g.signers].sort((a, b) => a - b), source },
        chosen,
        closing: chosen?.outcome?.state,
      }
    }
    if (groups.size >= 2)
      return { ...base, status: 'split', canonical: undefined, chosen: undefined, closing: undefined }
    if (count.outcome !== undefined)
      return { ...base, status: 'provisional', canonical: undefined, chosen: count, closing: count.outcome.state }
    return { ...base, status: 'open', canonical: undefined, chosen: undefined, closing: undefined }
  }

  /** §5.6 rule 1: least `(author, seq)`, then least hash (two envelopes at one place). */
  private least(a: number, b: number): number {
    const x = this.ctx.info(a)
    const y = this.ctx.info(b)
    return x.author - y.author || x.seq - y.seq || (x.id < y.id ? -1 : x.id > y.id ? 1 : 0)
  }

  /**
   * The ticks of `scope` from tick 1, each decided, up to and including the first that has no
   * closing state (open or split) or whose closing state ended the game, or tick `upTo`. Empty if
   * the scope lacks an accept (§3.2: no game without all `n`). `prefix`: the first ticks' levels,
   * already known to be the scope's (the caller vouches for it).
   */
  chain(scope: Scope, accepts: boolean, upTo = Number.POSITIVE_INFINITY, prefix: readonly Level[] = []): Level[] {
    const out: Level[] = []
    if (!accepts) return out
    let parent: Level | undefined
    for (const level of prefix.slice(0, Math.max(0, Math.min(prefix.length, upTo)))) {
      out.push(level)
      parent = level
    }
    for (let t = out.length + 1; t <= upTo; t++) {
      if (parent !== undefined && (parent.closing === undefined || parent.closing.ended)) break
      if (parent === undefined && this.genesisState.ended) break
      const level = this.level(t, parent, scope)
      out.push(level)
      parent = level
    }
    return out
  }
}
