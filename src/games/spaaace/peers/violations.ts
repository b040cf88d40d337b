/**
 * protocol/SPAAACE-PEERS.md §9: the protocol violations (i)–(vi), each decided on the offender's
 * own chain and the envelopes its envelope names, never on a closing state or on what anyone else
 * holds. The chain is summarised, envelope by envelope, in a `ChainState` (what §4.2's chain order
 * and §4.1's head rules need of the author's earlier envelopes).
 */
import { toBase64url } from '../../../core/commit/bytes.js'
import { type Body, type Head, headsProblem } from './envelope.js'
import { type Part, compareBytes, saltOf } from './parts.js'
import type { Node } from './past.js'

/** A reveal along a chain (for §9 (vi)), newest first. */
interface RevealLink {
  readonly tick: number
  readonly salt: Uint8Array
  readonly next: RevealLink | undefined
}

/** What §4.2's chain order and §4.1's head rules need of an author's envelopes up to one of them. */
export interface ChainState {
  /** The highest tick of a part so far (−1 before the accept). */
  readonly tick: number
  /** The stage reached in that tick: 0 none, then commit 1, seal 2, reveal 3, close 4, stop 5, state 6. */
  readonly stage: number
  /** The seq of the envelope holding `commit(tick)`, if any. */
  readonly commitSeq: number | undefined
  /** The authors a `fork` part of the chain names (their heads are frozen). */
  readonly forked: ReadonlySet<number>
  /** The heads of the last envelope whose body decodes. */
  readonly heads: readonly Head[] | undefined
  /** A `seed` part stands in the chain: nothing may follow it (§4.2). */
  readonly seeded: boolean
  /** The highest tick of a correct `state` part (§4.2 admissibility), 0 if none. */
  readonly u: number
  readonly reveals: RevealLink | undefined
}

export const CHAIN_START: ChainState = {
  tick: -1,
  stage: 0,
  commitSeq: undefined,
  forked: new Set(),
  heads: undefined,
  seeded: false,
  u: 0,
  reveals: undefined,
}

const RANK: Partial<Record<Part['type'], number>> = { commit: 1, seal: 2, reveal: 3, close: 4, stop: 5, state: 6 }

/** A violation found: its rule (`§9 (ii)`) and what breaks it. */
export interface Violation {
  readonly rule: string
  readonly message: string
}

export interface ChainInput {
  readonly node: Node
  readonly body: Body | undefined
  readonly before: ChainState
  /** `t_e` (§4.2). */
  readonly te: number
  /** The highest tick of a correct `state` part up to and including this envelope. */
  readonly u: number
  readonly game: Uint8Array
  readonly lookup: (id: string) => Node | undefined
  /** Whether the envelope's past shows the game ended (a stall record, or a canonical `ended`), asked only for a `seed`. */
  readonly ended: () => boolean
}

function partTick(p: Part): number | undefined {
  switch (p.type) {
    case 'accept':
      return 0
    case 'fork':
    case 'seed':
      return undefined
    default:
      return p.tick
  }
}

/** §4.1: whether `newer` (named by a later head) extends `older` by `prev`. */
function extendsBy(lookup: ChainInput['lookup']): (older: Head, newer: Head) => boolean {
  return (older, newer) => {
    const want = toBase64url(older.hash)
    let at = lookup(toBase64url(newer.hash))
    while (at !== undefined && at.seq > older.seq) at = at.prevId === undefined ? undefined : lookup(at.prevId)
    return at !== undefined && at.id === want
  }
}

/**
 * §9: the first violation (in the list's order) of the envelope against its own chain, and the
 * chain state after it. The state advances whatever the verdict, so that each envelope is judged
 * against its author's own earlier ones.
 */
export function judgeChain(x: ChainInput): { readonly violation: Violation | undefined; readonly after: ChainState } {
  const { node, body, before } = x
  let violation: Violation | undefined
  const found = (rule: string, message: string): void => {
    violation ??= { rule, message }
  }
  if (body === undefined) {
    found('§9 (i)', 'its heads or parts do not decode')
    return { violation, after: { ...before, u: x.u } }
  }
  // (ii) chain order (§4.2).
  let { tick, stage, commitSeq, reveals } = before
  const forked = new Set(before.forked)
  let seeded = before.seeded
  if (before.seeded) found('§9 (ii)', 'an envelope follows the one holding the seed')
  for (const p of body.parts) {
    const u = partTick(p)
    if (p.type === 'seed') {
      if (seeded) found('§9 (ii)', 'a second seed')
      else if (!x.ended()) found('§9 (ii)', 'a seed in an envelope whose past does not show the game ended')
      seeded = true
      continue
    }
    if (u === undefined) continue
    if (p.type === 'accept') {
      tick = Math.max(tick, 0)
      continue
    }
    const rank = RANK[p.type] ?? 0
    if (u < tick) {
      found('§9 (ii)', `a part of tick ${u} after a part of tick ${tick}`)
      continue
    }
    if (u > tick) {
      tick = u
      stage = 0
      commitSeq = undefined
    }
    if (rank < stage || (rank === stage && p.type !== 'stop'))
      found('§9 (ii)', `${p.type}(${u}) out of order within tick ${u}`)
    if (p.type === 'reveal' && (commitSeq === undefined || commitSeq >= node.seq))
      found('§9 (ii)', `reveal(${u}) not after the chain's commit(${u}) in an earlier envelope`)
    if (p.type === 'commit' && commitSeq === undefined) commitSeq = node.seq
    if (p.type === 'reveal') reveals = { tick: u, salt: p.salt, next: reveals }
    stage = Math.max(stage, rank)
  }
  // (iii) heads (§4.1).
  for (const h of body.heads) {
    const named = x.lookup(toBase64url(h.hash))
    if (named === undefined || named.author !== h.author || named.seq !== h.seq)
      found('§9 (iii)', `the head for ${h.author} names no envelope of that author at seq ${h.seq}`)
  }
  if (before.heads !== undefined) {
    const problem = headsProblem({ heads: before.heads, parts: [] }, before.forked, body, extendsBy(x.lookup))
    if (problem !== undefined) found('§9 (iii)', problem.message)
  }
  // (iv) fork parts.
  for (const p of body.parts) {
    if (p.type !== 'fork') continue
    const a = x.lookup(toBase64url(p.hashA))
    const b = x.lookup(toBase64url(p.hashB))
    if (forked.has(p.author)) found('§9 (iv)', `a second fork part naming ${p.author}`)
    else if (
      a === undefined ||
      b === undefined ||
      a.author !== p.author ||
      b.author !== p.author ||
      a.seq !== p.seq ||
      b.seq !== p.seq ||
      a.prevId !== b.prevId
    )
      found('§9 (iv)', `the fork part naming ${p.author} names no divergence`)
    forked.add(p.author)
  }
  // (v) admissibility (§4.2).
  for (const p of body.parts) {
    const u = partTick(p)
    if (u !== undefined && p.type !== 'accept' && u > x.te)
      found('§9 (v)', `${p.type}(${u}) is inadmissible (t_e = ${x.te})`)
  }
  // (vi) the seed gives the salt of every reveal of the chain.
  for (const p of body.parts) {
    if (p.type !== 'seed') continue
    for (let r = reveals; r !== undefined; r = r.next) {
      if (compareBytes(saltOf(x.game, node.author, p.seed, r.tick), r.salt) !== 0) {
        found('§9 (vi)', `the seed does not give the salt of reveal(${r.tick})`)
        break
      }
    }
  }
  return {
    violation,
    after: { tick, stage, commitSeq, forked, heads: body.heads, seeded, u: x.u, reveals },
  }
}
