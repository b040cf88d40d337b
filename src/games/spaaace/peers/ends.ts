/**
 * protocol/SPAAACE-PEERS.md §5.7: votes, stall records, and how a game ends.
 *
 * A `stop(t′)` part is a vote; it **stands** in a set `X` iff no later envelope of its chain in `X`
 * holds `state(t′)` or a part of a tick greater than `t′`. An envelope is a **stall record for tick
 * t** iff, in its past, tick `t − 1` has a closing state (canonical or provisional; the genesis state
 * for `t = 1`), tick `t` has none by §5.6 rule 1, and at least `M_t` players of `A_t` have a standing
 * vote of a tick `≤ t + 1`. Whether an envelope is one depends on it alone, so the end is monotone.
 */
import type { Scope } from './count.js'
import { inScope } from './count.js'
import type { Level } from './closing.js'

/**
 * One vote: an admissible `stop(tick)` in envelope `index` of `author`, and the first envelopes of
 * its chain that withdraw it (each the first on its branch: any later one has it in its past, so
 * a set closed under `past` holds a withdrawing envelope iff it holds one of these).
 */
export interface Vote {
  readonly index: number
  readonly author: number
  readonly tick: number
  readonly withdrawers: number[]
}

/** §5.7: each player's standing votes in `scope` (the ticks voted). */
export function standingVotes(votes: readonly Vote[], scope: Scope): Map<number, number[]> {
  const out = new Map<number, number[]>()
  for (const v of votes) {
    if (!inScope(scope, v.index) || v.withdrawers.some((w) => inScope(scope, w))) continue
    const list = out.get(v.author) ?? []
    list.push(v.tick)
    out.set(v.author, list)
  }
  return out
}

/** Players of `A_t` with a standing vote counting for tick `t` (a vote of a tick `≤ t + 1`). */
export function votersFor(level: Level, votes: ReadonlyMap<number, readonly number[]>): number[] {
  return level.count.active.filter((p) => (votes.get(p) ?? []).some((v) => v <= level.t + 1))
}

/** A stall record: the tick, and `A_t` as the past gives it. */
export interface Record {
  readonly t: number
  readonly active: readonly number[]
  readonly split: boolean
}

/** §5.7: the least tick for which a set whose ticks are `levels` is a stall record, if any. */
export function recordOf(levels: readonly Level[], votes: ReadonlyMap<number, readonly number[]>): Record | undefined {
  for (const level of levels) {
    if (level.status === 'canonical') continue
    if (votersFor(level, votes).length >= level.count.majority)
      return { t: level.t, active: level.count.active, split: level.status === 'split' }
  }
  return undefined
}
