/**
 * Per-sender envelope chains (protocol/SPEC.md §5.2, §5.3): signatures, sequence numbers, `prev`
 * links, game ids, and equivocation (two different signed envelopes at one place in a chain).
 * Used live by the session on every envelope it receives and by the verifier on a whole file.
 */
import { fromBase64url } from '../commit/bytes.js'
import { PUBLIC_KEY_BYTES, publicKeyProblem } from '../commit/keys.js'
import { type SealedEnvelope, signatureValid } from '../transcript/envelope.js'
import type { Role } from '../transcript/messages.js'
import type { ProtocolOffence } from './offence.js'

export type Acceptance =
  | { readonly kind: 'new' }
  /** The same envelope again (a retransmission after a resume): ignore it. */
  | { readonly kind: 'duplicate' }
  | { readonly kind: 'offence'; readonly offence: ProtocolOffence; readonly evidence: readonly SealedEnvelope[] }

export class Chains {
  readonly envelopes: Record<Role, SealedEnvelope[]> = { A: [], B: [] }
  readonly keys: Partial<Record<Role, Uint8Array>> = {}
  gameId: string | undefined
  /** Position of each accepted envelope in its sender's chain, by hash (acks resolve in O(1)). */
  private readonly position = new Map<string, number>()
  /** Index in the other chain of the latest `ack` seen from each sender. */
  private readonly acked: Record<Role, number> = { A: -1, B: -1 }

  /**
   * @param verified hashes of envelopes whose signatures this process has already checked (or
   *   made) under the same hellos: a session hands them to its final verification so no signature
   *   is checked twice.
   */
  constructor(readonly verified: Set<string> = new Set()) {}

  /** Where an accepted envelope sits in its sender's chain (for compact frames, SPEC §2.1). */
  positionOf(hash: string): number | undefined {
    return this.position.get(hash)
  }

  /** SPEC §11.4: an envelope-level offence belongs to the turn its body names, else the sender's latest committed turn. */
  private turnOf(s: SealedEnvelope): number {
    const b = s.envelope.body
    if ('turn' in b) return b.turn
    return this.envelopes[s.envelope.from].filter((x) => x.envelope.body.t === 'commit').length
  }

  private signedBy(s: SealedEnvelope, key: Uint8Array): boolean {
    if (this.verified.has(s.hash)) return true
    const valid = signatureValid(s.envelope, key)
    if (valid) this.verified.add(s.hash)
    return valid
  }

  private offence(role: Role, cls: ProtocolOffence['class'], rule: string, detail: string, seq: number, evidence: SealedEnvelope[]): Acceptance {
    const at = evidence[evidence.length - 1]
    return { kind: 'offence', offence: { offender: role, class: cls, rule, turn: at === undefined ? 0 : this.turnOf(at), detail, seq }, evidence }
  }

  /**
   * Admits the next envelope of its sender. `checkAck` is false in the verifier's first pass,
   * which checks acknowledgements once both chains are known (`checkAcks`).
   */
  accept(s: SealedEnvelope, checkAck = true): Acceptance {
    const e = s.envelope
    const role = e.from
    const chain = this.envelopes[role]
    if (e.seq < chain.length) {
      const earlier = chain[e.seq]
      if (earlier === undefined || earlier.line === s.line) return { kind: 'duplicate' }
      const key = this.keys[role]
      if (key !== undefined && this.signedBy(s, key)) {
        return this.offence(role, 'equivocation', 'SPEC §5.2', `two different signed envelopes at sequence number ${e.seq}`, e.seq, [earlier, s])
      }
      return this.offence(role, 'invalid-signature', 'SPEC §5.1', `envelope ${e.seq} conflicts with an earlier one and its signature does not verify`, e.seq, [s])
    }
    if (e.seq > chain.length) return this.offence(role, 'protocol-violation', 'SPEC §5.2', `sequence number ${e.seq}, expected ${chain.length}`, e.seq, [s])
    if (e.seq === 0) {
      if (e.body.t !== 'hello') return this.offence(role, 'protocol-violation', 'SPEC §6.1', 'the first envelope must be a hello', 0, [s])
      const key = fromBase64url(e.body.key, PUBLIC_KEY_BYTES)
      const problem = key === undefined ? 'length' : publicKeyProblem(key)
      if (key === undefined || problem !== undefined) return this.offence(role, 'protocol-violation', 'SPEC §5.2', `hello key is unusable (${problem ?? 'length'})`, 0, [s])
      if (!this.signedBy(s, key)) return this.offence(role, 'invalid-signature', 'SPEC §5.1', 'the hello is not signed by the key it states', 0, [s])
      if (e.game !== '' || e.prev !== '' || e.ack !== '') return this.offence(role, 'protocol-violation', 'SPEC §6.1', 'a hello has empty game, prev and ack', 0, [s])
      this.keys[role] = key
      chain.push(s)
      this.position.set(s.hash, 0)
      return { kind: 'new' }
    }
    const key = this.keys[role]
    if (key === undefined || !this.signedBy(s, key)) return this.offence(role, 'invalid-signature', 'SPEC §5.1', `envelope ${e.seq} is not signed by ${role}'s key`, e.seq, [s])
    if (this.gameId === undefined || e.game !== this.gameId) return this.offence(role, 'protocol-violation', 'SPEC §6.1', `envelope ${e.seq} names another game (${e.game.slice(0, 12)}...): a message replayed from another game`, e.seq, [s])
    if (e.prev !== chain[e.seq - 1]?.hash) return this.offence(role, 'protocol-violation', 'SPEC §5.3', `envelope ${e.seq}: prev is not the hash of envelope ${e.seq - 1}`, e.seq, [s])
    if (checkAck) {
      const bad = this.ackProblem(s)
      if (bad !== undefined) return this.offence(role, 'protocol-violation', 'SPEC §5.3', bad, e.seq, [s])
    }
    chain.push(s)
    this.position.set(s.hash, chain.length - 1)
    return { kind: 'new' }
  }

  /** Index in the other sender's chain that `s` acknowledges (-1 for none), or a problem. */
  ackIndex(s: SealedEnvelope): number | string {
    const other = this.envelopes[s.envelope.from === 'A' ? 'B' : 'A']
    if (s.envelope.ack === '') return -1
    const at = this.position.get(s.envelope.ack)
    const i = at !== undefined && other[at]?.hash === s.envelope.ack ? at : -1
    return i < 0 ? `envelope ${s.envelope.seq}: ack names no envelope of the other side` : i
  }

  private ackProblem(s: SealedEnvelope): string | undefined {
    const i = this.ackIndex(s)
    if (typeof i === 'string') return i
    const role = s.envelope.from
    if (i < this.acked[role]) return `envelope ${s.envelope.seq}: ack goes backwards`
    this.acked[role] = i
    return undefined
  }

  /** The verifier's second pass: every ack resolves and never goes backwards. */
  checkAcks(role: Role): { offence: ProtocolOffence; at: number } | undefined {
    this.acked[role] = -1
    for (const s of this.envelopes[role]) {
      const bad = this.ackProblem(s)
      if (bad !== undefined) return { offence: { offender: role, class: 'protocol-violation', rule: 'SPEC §5.3', turn: this.turnOf(s), detail: bad, seq: s.envelope.seq }, at: s.envelope.seq }
    }
    return undefined
  }
}

/**
 * SPEC §11.1: an envelope is authenticated by its own valid signature or by a later envelope of
 * its sender's linked chain whose signature is valid, since that signature covers `prev`, which
 * binds every earlier envelope by hash. So a verifier reading a whole file checks one signature
 * per chain (the last envelope linked to the hello), walking back only while signatures fail.
 * Returns the hashes so authenticated; anything else (forks, duplicates, envelopes after a bad
 * signature) is checked one by one as before.
 */
export function chainCover(list: readonly SealedEnvelope[]): Set<string> {
  const covered = new Set<string>()
  for (const role of ['A', 'B'] as const) {
    // The envelope Chains will hold at each seq: the first in file order.
    const atSeq = new Map<number, SealedEnvelope>()
    for (const s of list) if (s.envelope.from === role && !atSeq.has(s.envelope.seq)) atSeq.set(s.envelope.seq, s)
    const hello = atSeq.get(0)
    if (hello?.envelope.body.t !== 'hello') continue
    const key = fromBase64url(hello.envelope.body.key, PUBLIC_KEY_BYTES)
    if (key === undefined || publicKeyProblem(key) !== undefined) continue
    const linked: SealedEnvelope[] = [hello]
    for (let q = 1; ; q++) {
      const s = atSeq.get(q)
      if (s === undefined || s.envelope.prev !== linked[q - 1]?.hash) break
      linked.push(s)
    }
    for (let head = linked.length - 1; head >= 0; head--) {
      const h = linked[head]
      if (h !== undefined && signatureValid(h.envelope, key)) {
        for (let i = 0; i <= head; i++) covered.add(linked[i]?.hash ?? '')
        break
      }
    }
  }
  return covered
}

