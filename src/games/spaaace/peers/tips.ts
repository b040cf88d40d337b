/**
 * protocol/SPAAACE-PEERS.md §4.1: `past(e)` kept as its tips. The past is closed under `prev`, so
 * the envelopes of one author in it are exactly the `prev` chains of its maximal envelopes there
 * (its **tips**): one per author as a rule, two or more only where the past names a divergence.
 * An envelope `x` is in `past(e)` iff it is a tip of its author in `past(e)` or an ancestor of one
 * by `prev`; ancestry is answered by a forest of branches (a branch continues through the first
 * child of each envelope; a second child, a fork, starts a new one). A past costs `n` numbers, not
 * one bit per envelope of the game, so a long game's pasts stay small.
 */

/** Every author's envelopes in `D` (and those judged not evidence), as trees by `prev`. */
export class Forest {
  private readonly seqs: number[] = []
  private readonly prevs: number[] = []
  private readonly branches: number[] = []
  private readonly continued: boolean[] = []
  private readonly accepted: boolean[] = []
  private readonly parentBranch: number[] = []
  private readonly parentSeq: number[] = []

  /** Places envelope `index` after `prev` (its author's envelope `seq − 1`), or as a root. */
  add(index: number, seq: number, prev: number | undefined, accept: boolean): void {
    this.seqs[index] = seq
    this.prevs[index] = prev ?? -1
    if (prev !== undefined && this.continued[prev] !== true) {
      this.continued[prev] = true
      this.branches[index] = this.branches[prev] ?? -1
    } else {
      const b = this.parentBranch.length
      this.parentBranch.push(prev === undefined ? -1 : (this.branches[prev] ?? -1))
      this.parentSeq.push(prev === undefined ? -1 : (this.seqs[prev] ?? -1))
      this.branches[index] = b
    }
    this.accepted[index] = prev === undefined ? accept : this.accepted[prev] === true
  }

  /** The seq of envelope `i`. */
  seqOf(i: number): number {
    return this.seqs[i] ?? -1
  }

  /** Envelope `i`'s `prev` in the forest, −1 at a root. */
  prevOf(i: number): number {
    return this.prevs[i] ?? -1
  }

  /** Whether `x` is `t` or an ancestor of `t` by `prev` (two envelopes of one author). */
  descends(x: number, t: number): boolean {
    const bx = this.branches[x]
    const sx = this.seqs[x] ?? -1
    let b = this.branches[t] ?? -1
    let s = this.seqs[t] ?? -1
    for (;;) {
      if (b === bx) return sx <= s
      const up = this.parentBranch[b] ?? -1
      if (up < 0) return false
      s = this.parentSeq[b] ?? -1
      b = up
    }
  }

  /** Whether the chain of `i` starts at an accept (§3.2). */
  fromAccept(i: number): boolean {
    return this.accepted[i] === true
  }
}

/** `past(e)`: per author, its tips (§4.1). */
export class Past {
  constructor(
    private readonly forest: Forest,
    private readonly authors: readonly number[],
    private readonly one: Int32Array,
    private readonly many: ReadonlyMap<number, readonly number[]> | undefined,
  ) {}

  /** The maximal envelopes of author `q` in the past. */
  tips(q: number): readonly number[] {
    const m = this.many?.get(q)
    if (m !== undefined) return m
    const t = this.one[q] ?? -1
    return t < 0 ? [] : [t]
  }

  /** Whether envelope `i` is in the past. */
  has(i: number): boolean {
    const q = this.authors[i] ?? -1
    const m = this.many?.get(q)
    if (m !== undefined) return m.some((t) => this.forest.descends(i, t))
    const t = this.one[q] ?? -1
    return t >= 0 && this.forest.descends(i, t)
  }

  /**
   * What walking the past costs at most: each tip's seq and one (tips of one author share their
   * older envelopes, so the past may hold fewer).
   */
  bound(): number {
    let b = 0
    for (let q = 0; q < this.one.length; q++) for (const t of this.tips(q)) b += this.forest.seqOf(t) + 1
    return b
  }

  /** Every envelope of the past, each once: the `prev` chains of its tips. */
  forEachEnvelope(visit: (i: number) => void): void {
    const seen = new Set<number>()
    for (let q = 0; q < this.one.length; q++)
      for (const t of this.tips(q))
        for (let i = t; i >= 0 && !seen.has(i); i = this.forest.prevOf(i)) {
          seen.add(i)
          visit(i)
        }
  }

  /** Whether every one of the `n` players has an accept in the past (§3.2, BD-21). */
  allAccepts(): boolean {
    for (let q = 0; q < this.one.length; q++) if (!this.tips(q).some((t) => this.forest.fromAccept(t))) return false
    return true
  }
}

/** The maximal ones of `candidates` (envelopes of one author): none is an ancestor of another. */
function maximal(forest: Forest, candidates: readonly number[]): number[] {
  const c = [...new Set(candidates)]
  if (c.length < 2) return c
  return c.filter((x) => !c.some((y) => y !== x && forest.descends(x, y)))
}

/**
 * The past of envelope `index` of `author` whose links have `pasts`: each author's tips are the
 * maximal ones among the links' tips (and the envelope itself for its own author). `own` is what
 * the links alone give of its own author: exactly its `prev` iff own-chain consistent (§4.1).
 */
export function pastOf(
  forest: Forest,
  authors: readonly number[],
  n: number,
  index: number,
  author: number,
  pasts: readonly Past[],
): { past: Past; own: number[] } {
  const one = new Int32Array(n).fill(-1)
  let many: Map<number, number[]> | undefined
  let own: number[] = []
  for (let q = 0; q < n; q++) {
    const candidates: number[] = []
    for (const p of pasts) candidates.push(...p.tips(q))
    const tips = maximal(forest, candidates)
    if (q === author) {
      own = tips
      one[q] = index
      continue
    }
    if (tips.length === 1) one[q] = tips[0] ?? -1
    else if (tips.length > 1) (many ??= new Map()).set(q, tips)
  }
  return { past: new Past(forest, authors, one, many), own }
}
