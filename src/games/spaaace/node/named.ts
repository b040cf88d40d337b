/**
 * What a node's next envelope names (protocol/SPAAACE-PEERS.md §4.1 heads and past, §6.5, §6.6):
 * the envelopes it holds, the head it names for each other author, the divergences it names in
 * `fork` parts, and the set `past(next)` that its closing hashes are computed over.
 *
 * Why a set of its own and not "everything held": a `state(t)` part is correct iff its hash is
 * that of `S_t(past(e))` (§5.6). With a forked author, a node holds envelopes of the branch its
 * heads do not follow that its next envelope does not name; a hash computed over all it holds
 * could then differ from the one over `past(e)` and convict an honest node of a false closing
 * hash. So the decider is fed exactly `past(next)`, which only grows: heads advance along one
 * branch, and a divergence, once named, stays in every later past.
 */
import { compareBytes } from '../peers/parts.js'
import type { ForkPart } from '../peers/parts.js'
import type { Head, ReadEnvelope } from '../peers/envelope.js'

/** The refs an envelope's past is closed under (§4.1): `prev`, every head, both envelopes of each `fork` part. */
function refsOf(e: ReadEnvelope): { author: number; hash: Uint8Array }[] {
  const out: { author: number; hash: Uint8Array }[] = []
  if (e.header.seq > 0) out.push({ author: e.header.author, hash: e.header.prev })
  if (!e.body.ok) return out
  for (const h of e.body.value.heads) out.push({ author: h.author, hash: h.hash })
  for (const p of e.body.value.parts)
    if (p.type === 'fork') out.push({ author: p.author, hash: p.hashA }, { author: p.author, hash: p.hashB })
  return out
}

const key = (hash: Uint8Array): string => Buffer.from(hash).toString('base64url')

export class NamedSet {
  private readonly held = new Map<string, ReadEnvelope>()
  private readonly named = new Set<string>()
  private readonly tips = new Map<number, ReadEnvelope>()
  private readonly frozen = new Set<number>()
  /** Held versions per place `author/seq`. */
  private readonly places = new Map<string, ReadEnvelope[]>()
  private readonly divergences = new Map<number, ForkPart>()
  private readonly pendingForks: ForkPart[] = []

  /**
   * @param self this node's roster index: it names no head for itself (§4.1).
   * @param onNamed each envelope as it enters `past(next)`, once, every envelope of its past first.
   */
  constructor(
    private readonly self: number,
    private readonly onNamed: (e: ReadEnvelope) => void,
    /**
     * Whether a held envelope of another author is evidence (§4.1 own-chain consistency, §4.2 the
     * seq bound): one that is not is "as if never received", so no head or `fork` part names it
     * (each envelope naming it would be a gap for good in every decider).
     */
    private readonly evidence: (e: ReadEnvelope) => boolean = () => true,
  ) {}

  get size(): number {
    return this.named.size
  }

  isNamed(e: ReadEnvelope): boolean {
    return this.named.has(e.id)
  }

  /**
   * An envelope the node now holds (its past held before it, §8). Its own envelopes enter
   * `past(next)` at once; another author's when it extends the branch that author's head follows
   * (the first branch held, §4.1), or when it is in the past of one that does.
   */
  hold(e: ReadEnvelope): void {
    if (this.held.has(e.id)) return
    this.held.set(e.id, e)
    const a = e.header.author
    const place = `${a}/${e.header.seq}`
    const versions = this.places.get(place) ?? []
    versions.push(e)
    this.places.set(place, versions)
    if (a === this.self) {
      this.name(e)
      return
    }
    this.findDivergence(e, versions)
    const tip = this.tips.get(a)
    const extends_ =
      tip === undefined
        ? e.header.seq === 0
        : e.header.seq === tip.header.seq + 1 && compareBytes(e.header.prev, tip.hash) === 0
    if (extends_ && !this.frozen.has(a) && this.evidence(e)) {
      this.tips.set(a, e)
      this.name(e)
    }
  }

  /** §4.1: one head per author held, in ascending author order, none for the signer. */
  heads(): Head[] {
    return [...this.tips.entries()]
      .sort((x, y) => x[0] - y[0])
      .map(([author, e]) => ({ author, seq: e.header.seq, hash: e.hash }))
  }

  /** §6.6: the divergences found and not yet named by this node's chain, ascending by author. */
  forksDue(): ForkPart[] {
    return [...this.pendingForks].sort((x, y) => x.author - y.author)
  }

  /** The node signed these `fork` parts: never again for those authors (§4.2). */
  forksSigned(parts: readonly ForkPart[]): void {
    for (const p of parts) {
      const i = this.pendingForks.findIndex((f) => f.author === p.author)
      if (i >= 0) this.pendingForks.splice(i, 1)
    }
  }

  /**
   * A restarted node's chain already named these divergences: they are not due again, and the
   * heads for those authors stay where the chain froze them (§4.1).
   */
  restoreFork(p: ForkPart): void {
    this.divergences.set(p.author, p)
    this.frozen.add(p.author)
    this.forksSigned([p])
  }

  byHash(hash: Uint8Array): ReadEnvelope | undefined {
    return this.held.get(key(hash))
  }

  /** §6.6: two held envelopes of one author at one `seq` with one `prev`: named once per author, heads frozen. */
  private findDivergence(e: ReadEnvelope, versions: readonly ReadEnvelope[]): void {
    const a = e.header.author
    if (this.divergences.has(a)) return
    const other = versions.find((v) => v !== e && compareBytes(v.header.prev, e.header.prev) === 0)
    if (other === undefined || !this.evidence(e) || !this.evidence(other)) return
    const [x, y] = compareBytes(e.hash, other.hash) < 0 ? [e, other] : [other, e]
    const part: ForkPart = { type: 'fork', author: a, seq: e.header.seq, hashA: x.hash, hashB: y.hash }
    this.divergences.set(a, part)
    this.pendingForks.push(part)
    // The fork part rides on the next envelope, whose past then holds both versions.
    this.frozen.add(a)
    this.name(x)
    this.name(y)
  }

  /** Adds `e` and its whole past to `past(next)`, past first. */
  private name(e: ReadEnvelope): void {
    if (this.named.has(e.id)) return
    const stack: { e: ReadEnvelope; expanded: boolean }[] = [{ e, expanded: false }]
    while (stack.length > 0) {
      const top = stack[stack.length - 1]
      if (top === undefined) break
      if (this.named.has(top.e.id)) {
        stack.pop()
        continue
      }
      if (!top.expanded) {
        top.expanded = true
        for (const r of refsOf(top.e)) {
          const x = this.held.get(key(r.hash))
          // The mesh delivers an envelope only once its past is held (§8): a ref it lacks is
          // the genesis (a `prev` at seq 0 is excluded above) or a bug upstream; it is skipped.
          if (x !== undefined && !this.named.has(x.id)) stack.push({ e: x, expanded: false })
        }
        continue
      }
      stack.pop()
      this.named.add(top.e.id)
      this.onNamed(top.e)
    }
  }
}
