/**
 * What a node holds of a game's envelopes (protocol/SPAAACE-PEERS.md §4.1, §8; review R1, R3),
 * in memory, persisted through an injected append-only store. Pure: no clock, no network.
 *
 * An envelope is **stored** once it is authenticated and admitted (and persisted), and **held**
 * once everything its past names is held too (review R1: "a node holds `e` only once it holds
 * `past(e)`"); until then it is **held ahead** (pending), at most `heldAhead` envelopes and
 * `heldAheadBytes` bytes per author. Per author the store keeps the **main chain**: envelopes
 * `0..k` linked by `prev`, along the version held first at each place (what heads and resume
 * frames count). At one `(author, seq)` it keeps the first `conflictsKept` versions, and a further
 * one only when a stored envelope's past names it (review R3 "Conflicts": the evidence of a fork,
 * and whatever an honest fork part names).
 */
import type { TranscriptStore } from '../transcript/file.js'
import { type MeshEnvelope, type MeshRef, hashKey, refsOf } from './codec.js'
import type { MeshLimits } from './limits.js'

export interface Stored {
  readonly envelope: MeshEnvelope
  readonly key: string
  /** Everything its past names is held. */
  held: boolean
  /** How many of the envelopes it names are not yet held. */
  missing: number
  /** Admission order (the first version at a place is the main chain's). */
  readonly order: number
}

/** Why the store refuses an authenticated envelope. */
export type StoreRefusal = 'conflict' | 'held-ahead'

export interface Admitted {
  readonly entry: Stored
  /** Envelopes that became held, `entry` first when it did, each after everything it names. */
  readonly nowHeld: readonly Stored[]
  /** What `entry` names that the store does not hold (empty when it is held). */
  readonly lacking: readonly MeshRef[]
}

export class MeshStore {
  private readonly byKey = new Map<string, Stored>()
  /** Per author: seq → the versions stored there (held or ahead), in admission order. */
  private readonly places: Map<number, Stored[]>[]
  private readonly main: string[][]
  private readonly mainSeq = new Map<string, number>()
  private readonly ahead: { count: number; bytes: number }[]
  /** Missing key → the stored envelopes waiting for it. */
  private readonly waiters = new Map<string, Stored[]>()
  /** A hash → the stored envelopes whose `prev` it is (SPEC §5.4 binding). */
  private readonly children = new Map<string, Stored[]>()
  private readonly holdOrder: Stored[] = []
  private counter = 0

  constructor(
    readonly authors: number,
    private readonly limits: Pick<MeshLimits, 'heldAhead' | 'heldAheadBytes' | 'conflictsKept'>,
    private readonly persistence?: TranscriptStore,
  ) {
    this.places = Array.from({ length: authors }, () => new Map<number, Stored[]>())
    this.main = Array.from({ length: authors }, () => [])
    this.ahead = Array.from({ length: authors }, () => ({ count: 0, bytes: 0 }))
  }

  /** Stored, held or ahead. */
  has(hash: Uint8Array | string): boolean {
    return this.byKey.has(typeof hash === 'string' ? hash : hashKey(hash))
  }

  get(hash: Uint8Array | string): Stored | undefined {
    return this.byKey.get(typeof hash === 'string' ? hash : hashKey(hash))
  }

  isHeld(hash: Uint8Array | string): boolean {
    return this.get(hash)?.held === true
  }

  /** How many of `author`'s envelopes are held contiguously along its main chain (§8 resume). */
  contiguous(author: number): number {
    return this.main[author]?.length ?? 0
  }

  /** The resume frame's counts, every author's `contiguous`. */
  counts(): number[] {
    return this.main.map((m) => m.length)
  }

  /** The main chain's envelope of `author` at `seq`. */
  mainAt(author: number, seq: number): Stored | undefined {
    const k = this.main[author]?.[seq]
    return k === undefined ? undefined : this.byKey.get(k)
  }

  /** Where `key` stands on its author's main chain, if it does. */
  mainSeqOf(key: string): number | undefined {
    return this.mainSeq.get(key)
  }

  /** Every version stored at `(author, seq)`, held or ahead, in admission order. */
  versions(author: number, seq: number): readonly Stored[] {
    return this.places[author]?.get(seq) ?? []
  }

  /** The places of `author` where more than one version is stored, ascending. */
  conflicts(author: number): number[] {
    const out: number[] = []
    for (const [seq, vs] of this.places[author] ?? []) if (vs.length > 1) out.push(seq)
    return out.sort((a, b) => a - b)
  }

  /** SPEC §5.4: a stored (so authenticated) envelope of `e`'s author names `e` by `prev`. */
  binds(e: MeshEnvelope): boolean {
    return (this.children.get(hashKey(e.hash)) ?? []).some(
      (c) => c.envelope.author === e.author && c.envelope.seq === e.seq + 1,
    )
  }

  /** A stored envelope's past names `hash`, and the store lacks it (a `want` may fetch it). */
  named(hash: Uint8Array | string): boolean {
    return this.waiters.has(typeof hash === 'string' ? hash : hashKey(hash))
  }

  /** What `entry` names that is not held. */
  lacking(entry: Stored): MeshRef[] {
    return refsOf(entry.envelope).filter((r) => !this.isHeld(r.hash))
  }

  /**
   * Every held envelope in the order the store came to hold it: each after everything it names
   * (an order a peer can take in without holding anything ahead), `(author, seq)` within an author's
   * main chain. A resume is answered in this order (see engine.ts).
   */
  held(): Stored[] {
    return [...this.holdOrder]
  }

  /** Envelopes held ahead of a gap. */
  pending(): Stored[] {
    return [...this.byKey.values()].filter((v) => !v.held)
  }

  /** Why `e` would be refused, before anything is persisted (review R3 "Conflicts", "Held ahead"). */
  check(e: MeshEnvelope): StoreRefusal | undefined {
    const key = hashKey(e.hash)
    if (this.versions(e.author, e.seq).length >= this.limits.conflictsKept && !this.named(key)) return 'conflict'
    const missing = refsOf(e).some((r) => !this.isHeld(r.hash))
    const ahead = this.ahead[e.author]
    if (missing && ahead !== undefined) {
      if (ahead.count + 1 > this.limits.heldAhead || ahead.bytes + e.bytes.length > this.limits.heldAheadBytes)
        return 'held-ahead'
    }
    return undefined
  }

  /**
   * Persists and stores an authenticated envelope the store does not hold and `check` accepts
   * (`persist` false when it comes from the persisted store itself). Throws only if persisting
   * fails, before anything changes.
   */
  admit(e: MeshEnvelope, persist = true): Admitted {
    const key = hashKey(e.hash)
    if (this.byKey.has(key)) throw new Error('mesh store: admitted twice')
    if (persist) this.persistence?.append(e.bytes)
    const entry: Stored = { envelope: e, key, held: false, missing: 0, order: this.counter++ }
    this.byKey.set(key, entry)
    const place = this.places[e.author]
    if (place === undefined) throw new Error(`mesh store: author ${e.author} outside the roster`)
    place.set(e.seq, [...(place.get(e.seq) ?? []), entry])
    if (e.seq > 0) {
      const pk = hashKey(e.prev)
      this.children.set(pk, [...(this.children.get(pk) ?? []), entry])
    }
    const lacking: MeshRef[] = []
    const seen = new Set<string>()
    for (const r of refsOf(e)) {
      const rk = hashKey(r.hash)
      if (seen.has(rk) || this.isHeld(rk)) continue
      seen.add(rk)
      lacking.push(r)
      this.waiters.set(rk, [...(this.waiters.get(rk) ?? []), entry])
    }
    entry.missing = lacking.length
    // It was named (it may be a version beyond the first two because of that): no longer lacking
    // once it is held; its waiters are released below when it is.
    if (entry.missing > 0) {
      const ahead = this.ahead[e.author]
      if (ahead !== undefined) {
        ahead.count++
        ahead.bytes += e.bytes.length
      }
      return { entry, nowHeld: [], lacking }
    }
    return { entry, nowHeld: this.hold(entry), lacking }
  }

  private hold(first: Stored): Stored[] {
    const out: Stored[] = []
    const queue = [first]
    for (let x = queue.shift(); x !== undefined; x = queue.shift()) {
      if (x.held) continue
      // Every envelope released here was held ahead; `first` never was.
      if (x !== first) {
        const ahead = this.ahead[x.envelope.author]
        if (ahead !== undefined) {
          ahead.count--
          ahead.bytes -= x.envelope.bytes.length
        }
      }
      x.held = true
      out.push(x)
      this.holdOrder.push(x)
      const m = this.main[x.envelope.author]
      const s = x.envelope.seq
      if (m !== undefined && s === m.length && (s === 0 || hashKey(x.envelope.prev) === m[s - 1])) {
        m.push(x.key)
        this.mainSeq.set(x.key, s)
      }
      const waiting = this.waiters.get(x.key) ?? []
      this.waiters.delete(x.key)
      for (const w of waiting) {
        w.missing--
        if (w.missing === 0) queue.push(w)
      }
    }
    return out
  }
}
