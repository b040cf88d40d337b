/**
 * A node's own chain (protocol/SPAAACE-PEERS.md §4.1, §4.2, §6.8): what it has signed, read back
 * from its envelopes alone, so that a restarted node knows exactly what it may still sign. Every
 * question the node's steps ask of its past ("did I seal tick 3?", "does my vote stand?") is
 * answered here from the chain, never from memory that a crash could lose.
 */
import type { KeyPair } from '../../../core/commit/keys.js'
import { type Head, type SealedEnvelope, type Unsigned, sealEnvelope } from '../peers/envelope.js'
import { type Part, type PartType, type StopReason, tickOf } from '../peers/parts.js'

export class OwnChain {
  private readonly envelopes: SealedEnvelope[] = []
  private readonly signed = new Map<number, Set<PartType>>()
  private lastStateTick = 0
  private vote: { tick: number; reason: StopReason } | undefined
  private seedSigned = false
  private readonly forkOnly = new Map<number, number>()

  constructor(
    private readonly self: number,
    private readonly game: Uint8Array,
  ) {}

  get length(): number {
    return this.envelopes.length
  }

  get latest(): SealedEnvelope | undefined {
    return this.envelopes[this.envelopes.length - 1]
  }

  /** The last tick this chain signed a `state` part for (0: none). */
  get lastState(): number {
    return this.lastStateTick
  }

  /** §5.7: the chain's standing vote, if any. */
  get standingVote(): { tick: number; reason: StopReason } | undefined {
    return this.vote
  }

  get ended(): boolean {
    return this.seedSigned
  }

  has(t: number, type: PartType): boolean {
    return this.signed.get(t)?.has(type) === true
  }

  forkOnlyIn(t: number): number {
    return this.forkOnly.get(t) ?? 0
  }

  /**
   * An envelope of this chain, signed now or read back at a restart, in `seq` order. A restarted
   * node's store may hold them in another order only if it was edited; they are then refused.
   */
  record(e: SealedEnvelope): void {
    const env = e.envelope
    if (env.author !== this.self) throw new Error('not an envelope of this chain')
    if (env.seq < this.envelopes.length) return
    if (env.seq !== this.envelopes.length)
      throw new Error(`this chain's envelope ${env.seq} came before ${this.envelopes.length}`)
    this.envelopes.push(e)
    for (const p of env.parts) this.note(p)
    if (env.parts.every((p) => p.type === 'fork')) {
      const t = this.lastStateTick + 1
      this.forkOnly.set(t, (this.forkOnly.get(t) ?? 0) + 1)
    }
  }

  /** §4.1, §6.8: signs the next envelope of this chain (its `seq`, `prev` and the heads given). */
  sign(keys: KeyPair, heads: readonly Head[], parts: readonly Part[]): SealedEnvelope {
    const latest = this.latest
    const u: Unsigned = {
      author: this.self,
      seq: this.envelopes.length,
      game: this.game,
      prev: latest === undefined ? this.game : latest.hash,
      heads,
      parts,
    }
    const e = sealEnvelope(keys, u)
    this.record(e)
    return e
  }

  private note(p: Part): void {
    const t = tickOf(p)
    if (t !== undefined) {
      const set = this.signed.get(t) ?? new Set<PartType>()
      set.add(p.type)
      this.signed.set(t, set)
      // §5.7: a later `state(t′)` or a part of a tick above t′ withdraws a vote for t′.
      if (
        this.vote !== undefined &&
        p.type !== 'stop' &&
        (t > this.vote.tick || (p.type === 'state' && t === this.vote.tick))
      )
        this.vote = undefined
    }
    if (p.type === 'state') this.lastStateTick = Math.max(this.lastStateTick, p.tick)
    if (p.type === 'stop') this.vote = { tick: p.tick, reason: p.reason }
    if (p.type === 'seed') this.seedSigned = true
  }
}
