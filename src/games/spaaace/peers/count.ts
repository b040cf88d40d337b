/**
 * protocol/SPAAACE-PEERS.md §5.1–§5.4: one tick counted over an evidence set `X` (a node's holding,
 * the past of one envelope, or a verifier's `D`): the active set and its majority, the seal and
 * close cuts, each item in, out or open at its cut, who committed and revealed, whether the tick is
 * settled (with §5.4's exception), the submissions of §5.3 and, when settled, `S_t(X)` by the
 * engine's `playTick`.
 */
import type { GameState, Submission } from '../rules/types.js'
import { type TickOutcome, playTick } from '../rules/tick.js'
import { type CommitPart, type RevealPart, opens, ordersOf } from './parts.js'
import type { Past } from './tips.js'
import { closingHash } from './state-bytes.js'

/** What the count needs of one envelope of `D` (its admissible parts, §4.2, BD-14). */
export interface Info {
  readonly index: number
  readonly id: string
  readonly author: number
  readonly seq: number
  readonly past: Past
  readonly commit: CommitPart | undefined
  readonly seal: number | undefined
  readonly reveal: RevealPart | undefined
  readonly close: number | undefined
  /** Its `state` part, whether it is correct (§5.6), and the count over its past it was checked by. */
  readonly state: { readonly tick: number; readonly hash: Uint8Array; readonly correct: boolean } | undefined
  stateCount: Count | undefined
  /** The ticks of its admissible `stop` parts. */
  readonly stops: readonly number[]
  /** The highest tick of its admissible parts (a later one withdraws an earlier vote, §5.7), −1 if none. */
  readonly maxTick: number
}

/**
 * §9: an offence item, the envelopes that prove it, all its offender's: one for a violation or a
 * false hash; for a fork, every version at its place (BD-24), any two of which prove it.
 */
export interface OffenceItem {
  readonly key: string
  readonly player: number
  readonly kind: 'fork' | 'violation' | 'false-state'
  readonly rule: string
  readonly message: string
  readonly envelopes: readonly number[]
}

type ItemEnvelopes = Pick<OffenceItem, 'envelopes'> & { readonly kind?: OffenceItem['kind'] }

/**
 * §5.2: whether what `has` holds proves the item: every envelope of it, or for a fork any two of
 * its versions (one place's versions are one item, BD-24).
 */
export function proves(item: ItemEnvelopes, has: (x: number) => boolean): boolean {
  if (item.kind !== 'fork') return item.envelopes.every(has)
  let held = 0
  for (const x of item.envelopes) if (has(x) && ++held === 2) return true
  return false
}

/** The evidence set a count runs over: one envelope's past, or (undefined) all of `D`. */
export interface Scope {
  readonly past: Past | undefined
}

export function inScope(s: Scope, i: number): boolean {
  return s.past === undefined || s.past.has(i)
}

/** What every count of one game shares. */
export interface Ctx {
  readonly n: number
  readonly game: Uint8Array
  info(i: number): Info
  readonly items: readonly OffenceItem[]
}

export type Status = 'in' | 'out' | 'open'

/** Two commitments (seal cut) or two reveals (close cut) of one player in: §5.3 rule 1. */
export interface Pair {
  readonly player: number
  readonly cut: 'seal' | 'close'
  readonly envelopes: readonly [number, number]
}

/** Tick `t` counted over one evidence set, given the closing state of `t − 1`. */
export interface Count {
  readonly id: number
  readonly t: number
  readonly active: readonly number[]
  readonly majority: number
  /** Per roster index: its envelopes holding `seal(t)` / `close(t)` (players of `A_t` only). */
  readonly seals: readonly (readonly number[])[]
  readonly closes: readonly (readonly number[])[]
  readonly committed: readonly boolean[]
  readonly revealed: readonly boolean[]
  readonly sealSettled: boolean
  readonly settled: boolean
  readonly submissions: readonly Submission[]
  readonly outcome: TickOutcome | undefined
  readonly hash: Uint8Array | undefined
  /** Offence items (keys) in at this tick's seal or close cut: counted here unless in at an earlier tick. */
  readonly inAt: ReadonlySet<string>
  readonly pairs: readonly Pair[]
}

let counts = 0

/** What §5.3 needs of one player in one tick: its commitment and reveal in at their cuts, if any. */
export interface Played {
  readonly active: boolean
  /** An offence counted in the tick, or two commitments or two reveals in (§5.3 rule 1). */
  readonly equivocated: boolean
  readonly commit: CommitPart | undefined
  /** Only with `commit`: a reveal without a commitment in counts for nothing (rule 3). */
  readonly reveal: RevealPart | undefined
}

/**
 * §5.3 rules 1–5: player `q`'s submission from what is in at the cuts. Shared with the witnessed
 * decision (SPAAACE-WITNESSED §7.5), where "in" is read from receipt times instead of cuts.
 */
export function submissionOf(game: Uint8Array, n: number, q: number, p: Played): Submission {
  if (!p.active) return { kind: 'missing' }
  if (p.equivocated) return { kind: 'equivocated' }
  if (p.commit === undefined) return { kind: 'missing' }
  if (p.reveal === undefined) return { kind: 'withheld' }
  if (!opens(game, q, p.reveal, p.commit.commitment)) return { kind: 'mismatch' }
  const parsed = ordersOf(p.reveal.orders, n, q)
  return parsed.ok ? { kind: 'orders', orders: parsed.orders } : { kind: 'malformed', reason: parsed.reason }
}

/**
 * §5.2–§5.4 over `scope`: `before` is `S_{t−1}`, `inBefore` the offence items in at a cut of an
 * earlier tick, `play` the envelopes of the scope holding an admissible `commit`, `seal`, `reveal` or
 * `close` of tick `t` (any author: the active set filters here).
 */
export function countTick(
  ctx: Ctx,
  t: number,
  before: GameState,
  inBefore: ReadonlySet<string>,
  play: readonly number[],
  scope: Scope,
): Count {
  const n = ctx.n
  const isActive = before.players.map((p) => p.status === 'active')
  const active = [...isActive.keys()].filter((p) => isActive[p])
  const nt = active.length
  const M = Math.floor(nt / 2) + 1
  const outBar = nt - M + 1
  const list = (): number[][] => Array.from({ length: n }, () => [])
  const seals = list()
  const closes = list()
  const commits = list()
  const reveals = list()
  for (const i of play) {
    const e = ctx.info(i)
    if (isActive[e.author] !== true) continue
    if (e.commit?.tick === t) commits[e.author]?.push(i)
    if (e.seal === t) seals[e.author]?.push(i)
    if (e.reveal?.tick === t) reveals[e.author]?.push(i)
    if (e.close === t) closes[e.author]?.push(i)
  }
  const offences = ctx.items.filter(
    (it) => isActive[it.player] === true && !inBefore.has(it.key) && proves(it, (x) => inScope(scope, x)),
  )

  /** §5.2: in, out or open at a cut; the author's vote is fixed by rule (`own`: it holds its item). */
  const status = (author: number, item: ItemEnvelopes, own: boolean, cut: number[][]): Status => {
    let yes = 0
    let no = 0
    for (const p of active) {
      if (p === author) {
        if (own) yes++
        else no++
        continue
      }
      const mine = cut[p] ?? []
      const holds = mine.some((c) => {
        const past = ctx.info(c).past
        return proves(item, (x) => past.has(x))
      })
      if (holds) yes++
      else if (mine.length > 0) no++
    }
    return yes >= M ? 'in' : no >= outBar ? 'out' : 'open'
  }

  const commitAt = commits.map((cs, q) => cs.map((i) => status(q, { envelopes: [i] }, true, seals)))
  const revealAt = reveals.map((rs, q) => rs.map((i) => status(q, { envelopes: [i] }, true, closes)))
  const offenceAt = offences.map((it) => ({
    it,
    seal: status(it.player, it, false, seals),
    close: status(it.player, it, false, closes),
  }))
  const inList = (is: readonly number[], st: readonly Status[]): number[] => is.filter((_, k) => st[k] === 'in')
  const commitIn = commits.map((cs, q) => inList(cs, commitAt[q] ?? []))
  const revealIn = reveals.map((rs, q) => inList(rs, revealAt[q] ?? []))
  const inAt = new Set<string>()
  const offender = new Array<boolean>(n).fill(false)
  for (const o of offenceAt)
    if (o.seal === 'in' || o.close === 'in') {
      inAt.add(o.it.key)
      offender[o.it.player] = true
    }
  const pairs: Pair[] = []
  for (let q = 0; q < n; q++) {
    const c = commitIn[q] ?? []
    const r = revealIn[q] ?? []
    if (c.length >= 2) pairs.push({ player: q, cut: 'seal', envelopes: [c[0] ?? 0, c[1] ?? 0] })
    if (r.length >= 2) pairs.push({ player: q, cut: 'close', envelopes: [r[0] ?? 0, r[1] ?? 0] })
  }
  // §5.3 rule 1, and §5.4's exception (BD-15: at either cut).
  const equivocated = offender.map((o, q) => o || (commitIn[q]?.length ?? 0) >= 2 || (revealIn[q]?.length ?? 0) >= 2)
  const committed = commitIn.map((c) => c.length > 0)
  const revealed = revealIn.map((r, q) => committed[q] === true && r.length > 0)
  const players = (cut: number[][]): number => active.filter((p) => (cut[p]?.length ?? 0) > 0).length
  const decided = (s: Status): boolean => s !== 'open'
  const sealSettled =
    players(seals) >= M && active.every((q) => equivocated[q] === true || (commitAt[q] ?? []).every(decided))
  const settled =
    sealSettled &&
    players(closes) >= M &&
    active.every((q) => equivocated[q] === true || committed[q] !== true || (revealAt[q] ?? []).every(decided)) &&
    offenceAt.every(
      (o) =>
        equivocated[o.it.player] === true ||
        o.seal === 'in' ||
        o.close === 'in' ||
        (o.seal === 'out' && o.close === 'out'),
    )
  const submissions: Submission[] = Array.from({ length: n }, (_, q): Submission =>
    submissionOf(ctx.game, n, q, {
      active: isActive[q] === true,
      equivocated: equivocated[q] === true,
      commit: committed[q] === true ? ctx.info(commitIn[q]?.[0] ?? 0).commit : undefined,
      reveal: revealed[q] === true ? ctx.info(revealIn[q]?.[0] ?? 0).reveal : undefined,
    }),
  )
  const outcome = settled && !before.ended ? playTick(before, submissions) : undefined
  return {
    id: ++counts,
    t,
    active,
    majority: M,
    seals,
    closes,
    committed,
    revealed,
    sealSettled,
    settled: outcome !== undefined,
    submissions,
    outcome,
    hash: outcome === undefined ? undefined : closingHash(ctx.game, outcome.state),
    inAt,
    pairs,
  }
}
