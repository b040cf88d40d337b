/**
 * protocol/SPAAACE-PEERS.md §4.1, §8, §13: which envelopes are evidence, and the past of each.
 *
 * Envelopes are identified by hash (§4.1); two byte strings with one hash are one envelope, and it
 * is authenticated if either signature verifies (SPEC §5.4: a valid signature on one envelope also
 * authenticates its `prev` chain, so only the tips of each chain are verified). An authenticated
 * envelope is taken into `D` once everything it names (its `prev`, its heads, the two envelopes of
 * each `fork` part) is evidence: it then gets an index, in an order where every envelope comes after
 * its past, and its past (`tips.ts`: per author, its maximal envelopes there). Until then it is a
 * **gap** (reported, not used);
 * an envelope naming one that is not evidence stays a gap for good (what it names is "as if never
 * received", §4.1). Own-chain consistency and a `prev` that is not the author's envelope `seq − 1`
 * make an envelope **not evidence**; the seq bound (§4.2) is the caller's to judge (`judge`), as it
 * needs the closing states of the envelope's past.
 */
import type { ReadEnvelope } from './envelope.js'
import { signatureValid } from './envelope.js'
import { toBase64url } from '../../../core/commit/bytes.js'
import { Forest, Past, pastOf } from './tips.js'

/** Whether an envelope is evidence, and if not, why (§4.1, §4.2, §13). */
export type Standing =
  | 'unauthenticated' // no valid signature on it or on a later envelope of its chain (SPEC §5.4)
  | 'gap' // authenticated, but something its past names is missing or not evidence
  | 'not-evidence' // own-chain consistency, a foreign prev, or the seq bound (§4.1, §4.2)
  | 'evidence'

/** One envelope, by identity. */
export interface Node {
  readonly id: string
  readonly read: ReadEnvelope
  readonly author: number
  readonly seq: number
  /** The id `prev` names (undefined at `seq = 0`, where it is `G`). */
  readonly prevId: string | undefined
  /** Everything `past` closes over: `prev`, the heads, both envelopes of each `fork` part. */
  readonly links: readonly string[]
  /** Other signatures over the same `U` (two byte strings with one hash are one envelope, §4.1). */
  readonly copies: ReadEnvelope[]
  /** How many of `copies` have had their signature checked (each is checked once). */
  checked: number
  authenticated: boolean
  standing: Standing
  /** Why it is not evidence (`not-evidence` only). */
  why?: string
  /** Its place in `D`'s order (every envelope after its past); -1 until its past is complete. */
  index: number
  /** `past(e)`, `e` included (§4.1). */
  past: Past
  /** Links not yet evidence. */
  readonly missing: Set<string>
}

/** What the caller decides of an envelope whose past is complete and own-chain consistent. */
export type Judge = (node: Node) => { readonly evidence: true } | { readonly evidence: false; readonly why: string }

const NO_PAST = new Past(new Forest(), [], new Int32Array(0), undefined)

/**
 * §4.1, §8: the evidence set, grown one envelope at a time. `settle()` authenticates what arrived
 * and takes into `D` every envelope whose past has become complete, in an order where each comes
 * after its past, calling `judge` on each.
 */
export class Evidence {
  readonly nodes = new Map<string, Node>()
  /** Complete envelopes (evidence or not) by index. */
  readonly byIndex: Node[] = []
  /** The envelopes by `prev`, and each one's author, by index. */
  readonly forest = new Forest()
  private readonly authors: number[] = []
  /** Per author: whether an accept of it is in `D`. */
  readonly accepted: boolean[]
  /**
   * Envelopes a valid signature vouches for through `prev` before they arrived: by id, the author
   * and `seq` a `prev` can name (its own author's `seq - 1`, SPEC §5.4). A `prev` vouches for
   * nothing else: an envelope of another author or place that a hash names is authenticated only
   * by its own author's signature, or a player could be convicted on bytes it never signed.
   */
  private readonly vouched = new Map<string, { readonly author: number; readonly seq: number }>()
  private readonly unauthenticated = new Set<Node>()
  private readonly waiters = new Map<string, Node[]>()

  constructor(
    private readonly keys: readonly Uint8Array[],
    private readonly trusted: boolean,
    private readonly judge: Judge,
  ) {
    this.accepted = keys.map(() => false)
  }

  /** Adds an envelope (a second byte string of a known envelope is kept as a copy). */
  add(read: ReadEnvelope): void {
    const known = this.nodes.get(read.id)
    if (known !== undefined) {
      if (!known.authenticated && !known.copies.some((c) => sameBytes(c.bytes, read.bytes))) known.copies.push(read)
      return
    }
    const h = read.header
    const links: string[] = []
    const prevId = h.seq === 0 ? undefined : toBase64url(h.prev)
    if (prevId !== undefined) links.push(prevId)
    if (read.body.ok) {
      for (const head of read.body.value.heads) links.push(toBase64url(head.hash))
      for (const p of read.body.value.parts)
        if (p.type === 'fork') links.push(toBase64url(p.hashA), toBase64url(p.hashB))
    }
    const node: Node = {
      id: read.id,
      read,
      author: h.author,
      seq: h.seq,
      prevId,
      links: [...new Set(links)],
      copies: [read],
      checked: 0,
      authenticated: false,
      standing: 'unauthenticated',
      index: -1,
      past: NO_PAST,
      missing: new Set(),
    }
    this.nodes.set(node.id, node)
    this.unauthenticated.add(node)
  }

  /** Authenticates what can be, then completes every envelope whose past is complete. */
  settle(): void {
    const fresh = [...this.unauthenticated].sort((a, b) => b.seq - a.seq)
    for (const node of fresh) {
      if (node.authenticated) continue
      const ok = this.trusted || this.vouchedFor(node) || this.signed(node)
      if (ok) this.authenticate(node)
    }
    const ready: Node[] = []
    for (const node of fresh) if (node.authenticated) this.enter(node, ready)
    this.drain(ready)
  }

  /** Whether a signed envelope's `prev` named `node` where its own author's chain runs (SPEC §5.4). */
  private vouchedFor(node: Node): boolean {
    const v = this.vouched.get(node.id)
    return v !== undefined && v.author === node.author && v.seq === node.seq
  }

  /** Whether a copy not checked before carries its author's valid signature (SPEC §5.2). */
  private signed(node: Node): boolean {
    const key = this.keys[node.author]
    const fresh = node.copies.slice(node.checked)
    node.checked = node.copies.length
    return key !== undefined && fresh.some((c) => signatureValid(c, key))
  }

  /** SPEC §5.4: a valid signature authenticates the envelope and, by `prev`, its chain. */
  private authenticate(node: Node): void {
    let at = node
    for (;;) {
      at.authenticated = true
      this.unauthenticated.delete(at)
      const prev = at.prevId
      if (prev === undefined) return
      const next = this.nodes.get(prev)
      if (next === undefined) {
        this.vouched.set(prev, { author: at.author, seq: at.seq - 1 })
        return
      }
      // BD-22: a `prev` naming another author's envelope, or another place, makes the naming
      // envelope not evidence; it authenticates nothing.
      if (next.author !== at.author || next.seq !== at.seq - 1) return
      if (next.authenticated) return
      at = next
    }
  }

  private enter(node: Node, ready: Node[]): void {
    node.standing = 'gap'
    let broken = false
    for (const id of node.links) {
      const target = this.nodes.get(id)
      if (target !== undefined && target.standing === 'evidence') continue
      if (target !== undefined && (target.standing === 'not-evidence' || target.index === -2)) broken = true
      node.missing.add(id)
      const list = this.waiters.get(id)
      if (list === undefined) this.waiters.set(id, [node])
      else list.push(node)
    }
    if (broken) this.breakAll(node)
    else if (node.missing.size === 0) ready.push(node)
  }

  /** A gap for good: it names an envelope that is not evidence (and so does everything naming it). */
  private breakAll(node: Node): void {
    const stack = [node]
    while (stack.length > 0) {
      const x = stack.pop()
      if (x === undefined || x.index >= 0) continue
      x.standing = 'gap'
      x.index = -2
      for (const w of this.waiters.get(x.id) ?? []) stack.push(w)
      this.waiters.delete(x.id)
    }
  }

  private drain(ready: Node[]): void {
    for (let k = 0; k < ready.length; k++) {
      const node = ready[k]
      if (node === undefined || node.index !== -1) continue
      this.complete(node)
      const waiting = this.waiters.get(node.id) ?? []
      this.waiters.delete(node.id)
      for (const w of waiting) {
        if (w.index !== -1) continue
        if (node.standing !== 'evidence') {
          this.breakAll(w)
          continue
        }
        w.missing.delete(node.id)
        if (w.missing.size === 0) ready.push(w)
      }
    }
  }

  private complete(node: Node): void {
    const index = this.byIndex.length
    node.index = index
    this.byIndex.push(node)
    this.authors[index] = node.author
    const prev = node.prevId === undefined ? undefined : this.nodes.get(node.prevId)
    const own = prev !== undefined && prev.author === node.author && prev.seq === node.seq - 1
    const accept = node.seq === 0 && node.read.body.ok
    this.forest.add(index, node.seq, own ? prev.index : undefined, accept)
    const pasts = node.links.flatMap((id) => this.nodes.get(id)?.past ?? [])
    const made = pastOf(this.forest, this.authors, this.keys.length, index, node.author, pasts)
    node.past = made.past
    let verdict: ReturnType<Judge>
    if (prev !== undefined && !own)
      verdict = { evidence: false, why: `§4.1: prev names no envelope of player ${node.author} at seq ${node.seq - 1}` }
    // Own-chain consistency (§4.1): the author's envelopes in the past are exactly its prev chain.
    else if (made.own.length !== (prev === undefined ? 0 : 1) || (prev !== undefined && made.own[0] !== prev.index))
      verdict = { evidence: false, why: "§4.1: own-chain consistency (its past holds another branch of its author's)" }
    else verdict = this.judge(node)
    if (!verdict.evidence) {
      node.standing = 'not-evidence'
      node.why = verdict.why
      return
    }
    node.standing = 'evidence'
    if (accept) this.accepted[node.author] = true
  }

  /** Whether `past` (or, undefined, all of `D`) holds an accept of every player (§3.2). */
  allAccepts(past: Past | undefined): boolean {
    return past === undefined ? this.accepted.every(Boolean) : past.allAccepts()
  }
}

function sameBytes(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
}
