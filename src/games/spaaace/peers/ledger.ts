/**
 * protocol/SPAAACE-PEERS.md §4.2, §5.6, §5.7, §9: what the decision keeps of each envelope as it
 * enters `D` (in an order where its past came first): its admissible parts (`t_e`, the seq bound),
 * whether its `state` part is correct over its past, the votes it casts or withdraws, whether it is
 * a stall record, and the offence items it completes (a violation against its own chain, a false
 * closing hash, a divergence with an envelope already in). It is the count's context (`Ctx`) and
 * the closing states' index of envelopes by tick (`Masks`).
 */
import { genesis as genesisState } from '../rules/state.js'
import { type Level, Closings, type Masks } from './closing.js'
import type { Ctx, Info, OffenceItem, Scope } from './count.js'
import { withinSeqBound } from './domain.js'
import type { Body } from './envelope.js'
import { type Record, type Vote, recordOf, standingVotes } from './ends.js'
import { type SealedGenesis, rulesTerms } from './genesis.js'
import { type CommitPart, type RevealPart, type StatePart, compareBytes, tickOf } from './parts.js'
import type { Evidence, Judge, Node } from './past.js'
import type { Past } from './tips.js'
import { CHAIN_START, type ChainState, type Violation, judgeChain } from './violations.js'

/** A stall record and the envelope that is one (§5.7). */
export interface RecordAt extends Record {
  readonly index: number
}

/** The admissible parts of an envelope (§4.2, BD-14) and the highest tick of any of its parts. */
interface Admitted {
  readonly commit: CommitPart | undefined
  readonly reveal: RevealPart | undefined
  readonly seal: number | undefined
  readonly close: number | undefined
  readonly stops: readonly number[]
  readonly maxTick: number
}

function admitted(body: Body | undefined, te: number): Admitted {
  let commit: CommitPart | undefined
  let reveal: RevealPart | undefined
  let seal: number | undefined
  let close: number | undefined
  const stops: number[] = []
  let maxTick = -1
  for (const p of body?.parts ?? []) {
    const t = tickOf(p)
    if (t === undefined) continue
    maxTick = Math.max(maxTick, t)
    if (t > te) continue
    if (p.type === 'commit') commit = p
    if (p.type === 'reveal') reveal = p
    if (p.type === 'seal') seal = p.tick
    if (p.type === 'close') close = p.tick
    if (p.type === 'stop') stops.push(p.tick)
  }
  return { commit, reveal, seal, close, stops, maxTick }
}

/** Per-envelope bookkeeping of one game's decision. */
export class Ledger implements Ctx, Masks {
  readonly n: number
  readonly game: Uint8Array
  readonly items: OffenceItem[] = []
  readonly closings: Closings
  /** Per author, its envelopes in `D` by index. */
  readonly byAuthor: number[][]
  readonly votes: Vote[] = []
  readonly records: RecordAt[] = []
  /** Players with a `seed` part in `D`. */
  readonly seeds = new Set<number>()
  private readonly infos: Info[] = []
  private readonly chainStates: ChainState[] = []
  private readonly playList: number[][] = []
  private readonly stateList: number[][] = []
  /** Every offence item's envelopes. */
  private readonly offSet = new Set<number>()
  /** The same, ascending: kept as they come (a flood of versions re-sorted it for each). */
  private readonly offSorted: number[] = []
  private readonly votesBy: Vote[][] = []
  private readonly places = new Map<string, number[]>()
  /** Where each place's fork item is in `items`. */
  private readonly forkAt = new Map<string, number>()
  /**
   * Per tick `u`, per author: its envelope of highest seq among the tick-`u` (and earlier) entries
   * of the masks; a past holding those of every author holds every entry of ticks `≤ u`. `linear`
   * while every author's entries lie on one chain (else no prefix is reused).
   */
  private readonly reach: Int32Array[] = []
  private linear = true
  /** The ticks of `D`, valid below tick `dirty`. */
  private levelsOfD: Level[] = []
  private dirty = 1

  constructor(
    genesis: SealedGenesis,
    private readonly evidence: Evidence,
  ) {
    this.n = genesis.genesis.keys.length
    this.game = genesis.game
    this.byAuthor = Array.from({ length: this.n }, () => [])
    this.closings = new Closings(this, this, genesisState(this.n, rulesTerms(genesis.genesis)))
  }

  info(i: number): Info {
    const e = this.infos[i]
    if (e === undefined) throw new Error(`no envelope ${i} in D`)
    return e
  }

  play(t: number): readonly number[] {
    return this.playList[t] ?? []
  }
  states(t: number): readonly number[] {
    return this.stateList[t] ?? []
  }
  offences(): readonly number[] {
    return this.offSorted
  }
  isOffence(i: number): boolean {
    return this.offSet.has(i)
  }

  /** The ticks of all of `D` (§5.6), recomputed only from the first tick whose envelopes changed. */
  chainOfD(): Level[] {
    if (this.dirty <= this.levelsOfD.length) {
      const kept = this.levelsOfD.slice(0, this.dirty - 1)
      this.levelsOfD = this.closings.chain({ past: undefined }, this.evidence.allAccepts(undefined), Infinity, kept)
    } else if (this.dirty === 1)
      this.levelsOfD = this.closings.chain({ past: undefined }, this.evidence.allAccepts(undefined))
    this.dirty = Infinity
    return this.levelsOfD
  }

  /**
   * The ticks of `scope` up to `upTo`: where a past holds every entry of ticks `≤ u` and every
   * offence item's envelopes, its first `u` levels are `D`'s (their keys are the same), so only the
   * ticks after are counted over it. This keeps each envelope's replay to its last few ticks.
   */
  chainOver(scope: Scope, accepts: boolean, upTo = Infinity): Level[] {
    const past = scope.past
    if (past === undefined) return this.chainOfD().slice(0, upTo)
    if (!accepts) return []
    const u = this.heldThrough(past)
    const prefix = u > 0 ? this.chainOfD().slice(0, u) : []
    return this.closings.chain(scope, true, upTo, prefix)
  }

  /** The greatest `u` such that `past` holds every entry of the masks of ticks `≤ u` and every offence envelope. */
  private heldThrough(past: Past): number {
    if (!this.linear) return 0
    for (const i of this.offSet) if (!past.has(i)) return 0
    const holds = (u: number): boolean => {
      const r = this.reach[u]
      if (r === undefined) return true
      for (const i of r) if (i >= 0 && !past.has(i)) return false
      return true
    }
    let lo = 0
    let hi = this.reach.length - 1
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1
      if (holds(mid)) lo = mid
      else hi = mid - 1
    }
    return lo
  }

  /** Records a mask entry of tick `u` (BD-16: after the envelope's own closing hash was judged). */
  private reached(u: number, info: Info): void {
    this.dirty = Math.min(this.dirty, u)
    while (this.reach.length <= u) this.reach.push(this.reach.at(-1)?.slice() ?? new Int32Array(this.n).fill(-1))
    const forest = this.evidence.forest
    for (let v = u; v < this.reach.length; v++) {
      const r = this.reach[v]
      if (r === undefined) break
      const cur = r[info.author] ?? -1
      if (cur >= 0 && forest.descends(info.index, cur)) break
      if (cur >= 0 && !forest.descends(cur, info.index)) {
        this.linear = false
        break
      }
      r[info.author] = info.index
    }
  }

  private lookup(id: string): Node | undefined {
    return this.evidence.nodes.get(id)
  }

  /**
   * §5.6: whether `state(t)` in `node` is correct over its past, and the count it was checked by
   * (the envelope's own parts are not yet in: BD-16); `active`: its author is in `A_t` there.
   */
  private checkState(
    node: Node,
    part: StatePart | undefined,
    scope: Scope,
    accepts: boolean,
  ): { correct: boolean; count: Info['stateCount']; active: boolean } {
    if (part === undefined || !accepts) return { correct: false, count: undefined, active: true }
    const level: Level | undefined = this.chainOver(scope, true, part.tick)[part.tick - 1]
    if (level === undefined) return { correct: false, count: undefined, active: true }
    const correct = level.count.hash !== undefined && compareBytes(level.count.hash, part.stateHash) === 0
    return { correct, count: correct ? level.count : undefined, active: level.count.active.includes(node.author) }
  }

  /** §4.1–§9: judges an envelope whose past is complete and own-chain consistent (`Evidence`'s `Judge`). */
  judge(node: Node): ReturnType<Judge> {
    const body = node.read.body.ok ? node.read.body.value : undefined
    const prev = node.prevId === undefined ? undefined : this.lookup(node.prevId)
    const before = prev === undefined ? CHAIN_START : (this.chainStates[prev.index] ?? CHAIN_START)
    const accepts = this.evidence.allAccepts(node.past)
    const scope = { past: node.past }
    const statePart = body?.parts.find((p): p is StatePart => p.type === 'state')
    const state = this.checkState(node, statePart, scope, accepts)
    // §4.2: t_e and the seq bound.
    const u = Math.max(before.u, state.correct && statePart !== undefined ? statePart.tick : 0)
    const te = accepts ? 1 + u : 0
    if (!withinSeqBound(node.seq, te))
      return { evidence: false, why: `§4.2: seq ${node.seq} is beyond the bound 2 + 12·t_e (t_e = ${te})` }
    const parts = admitted(body, te)
    const info: Info = {
      index: node.index,
      id: node.id,
      author: node.author,
      seq: node.seq,
      past: node.past,
      commit: parts.commit,
      seal: parts.seal,
      reveal: parts.reveal,
      close: parts.close,
      state:
        statePart === undefined
          ? undefined
          : { tick: statePart.tick, hash: statePart.stateHash, correct: state.correct },
      stateCount: state.count,
      stops: parts.stops,
      maxTick: parts.maxTick,
    }
    this.enter(info)
    if (body?.parts.some((p) => p.type === 'seed') === true) this.seeds.add(node.author)
    this.vote(info)
    if (accepts) this.checkRecord(info, scope)
    // §9: violations, against its own chain.
    const judged = judgeChain({
      node,
      body,
      before,
      te,
      u,
      game: this.game,
      lookup: (id) => this.lookup(id),
      ended: () =>
        this.records.some((r) => node.past.has(r.index)) ||
        this.chainOver(scope, accepts).some((l) => l.status === 'canonical' && l.closing?.ended === true),
    })
    this.chainStates[node.index] = judged.after
    const falseState =
      statePart !== undefined && statePart.tick <= te && !state.correct && state.active ? statePart : undefined
    this.offend(info, node, judged.violation, falseState)
    return { evidence: true }
  }

  /** Indexes the envelope's admissible parts by tick (§5.2) and its correct closing hash (§5.6). */
  private enter(info: Info): void {
    const i = info.index
    this.infos[i] = info
    this.byAuthor[info.author]?.push(i)
    const mark = (list: number[][], t: number): void => {
      const l = list[t] ?? []
      l.push(i)
      list[t] = l
      this.reached(t, info)
    }
    if (info.seq === 0) this.dirty = 1
    for (const t of new Set([info.commit?.tick, info.seal, info.reveal?.tick, info.close]))
      if (t !== undefined) mark(this.playList, t)
    if (info.state?.correct === true) mark(this.stateList, info.state.tick)
  }

  /**
   * §5.7, BD-23: the votes this envelope withdraws (a later envelope of the chain holding
   * `state(t′)` or a part of a tick above `t′`), then its own votes.
   */
  private vote(info: Info): void {
    for (const v of this.votesBy[info.author] ?? []) {
      if (v.index === info.index || !info.past.has(v.index)) continue
      if (!(info.maxTick > v.tick || info.state?.tick === v.tick)) continue
      if (!v.withdrawers.some((w) => info.past.has(w))) v.withdrawers.push(info.index)
    }
    if (info.stops.length === 0) return
    for (const t of info.stops) {
      const vote: Vote = { index: info.index, author: info.author, tick: t, withdrawers: [] }
      this.votes.push(vote)
      const mine = this.votesBy[info.author] ?? []
      mine.push(vote)
      this.votesBy[info.author] = mine
    }
  }

  /** §5.7: whether the envelope is a stall record; its past is replayed only where two players' votes stand. */
  private checkRecord(info: Info, scope: Scope): void {
    const votes = standingVotes(this.votes, scope)
    if (votes.size < 2) return
    const record = recordOf(this.chainOver(scope, true), votes)
    if (record === undefined) return
    this.records.push({ ...record, index: info.index })
  }

  /** §9: the offence items this envelope completes. */
  private offend(info: Info, node: Node, violation: Violation | undefined, falseState: StatePart | undefined): void {
    const found: OffenceItem[] = []
    const base = { player: node.author, envelopes: [info.index] }
    if (violation !== undefined)
      found.push({ ...base, key: `v:${node.id}`, kind: 'violation', rule: violation.rule, message: violation.message })
    if (falseState !== undefined)
      found.push({
        ...base,
        key: `f:${node.id}`,
        kind: 'false-state',
        rule: '§5.6',
        message: `state(${falseState.tick}) is not the closing state its past gives`,
      })
    for (const it of found) this.items.push(it)
    // §4.1: a divergence, two envelopes of one author at one seq with one prev: one item per place,
    // every version there in the order of their hashes' text (BD-24; an item a pair made K versions
    // K(K − 1)/2 items: 3,000 versions, a 714 KB file, cost the verifier 50 s and 3.5 GB).
    const place = `${node.author}:${node.seq}:${node.prevId ?? ''}`
    const versions = this.places.get(place) ?? []
    const id = info.id
    let lo = 0
    for (let hi = versions.length; lo < hi;) {
      const mid = (lo + hi) >> 1
      if (this.info(versions[mid] ?? 0).id < id) lo = mid + 1
      else hi = mid
    }
    versions.splice(lo, 0, info.index)
    this.places.set(place, versions)
    if (versions.length >= 2) {
      const fork: OffenceItem = {
        ...base,
        key: `k:${place}`,
        kind: 'fork',
        rule: '§9 fork',
        message: `${versions.length === 2 ? 'two' : versions.length} envelopes at seq ${node.seq} with one prev`,
        envelopes: [...versions],
      }
      const at = this.forkAt.get(place)
      if (at === undefined) {
        this.forkAt.set(place, this.items.length)
        this.items.push(fork)
        found.push(fork)
      } else {
        this.items[at] = fork
        found.push({ ...fork, envelopes: [info.index] })
      }
    }
    if (found.length === 0) return
    this.dirty = 1
    for (const it of found)
      for (const i of it.envelopes) {
        if (this.offSet.has(i)) continue
        this.offSet.add(i)
        let at = this.offSorted.length
        while (at > 0 && (this.offSorted[at - 1] ?? 0) > i) at--
        this.offSorted.splice(at, 0, i)
      }
  }
}
