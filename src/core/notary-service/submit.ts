/**
 * Receipting a submission (PROTOCOL-4.md §5.1, NOTARY.md §7.5 "submit"): every check, in the
 * order NOTARY.md gives, each refusal with its code. A claim's header is the second of its two
 * steps (PROTOCOL-4.md §4.4): it is receipted only when its `seen` names the claim receipt of the
 * same sender, `seq` and deadline; the freshness of a claim is checked on the request (claim.ts).
 */
import { constantTimeEqual } from '../commit/bytes.js'
import { depositHash, depositParts, depositWraps } from '../notary/deposit.js'
import { decodeHeader, encodeHeader, headerSignatureValid, isClaim } from '../notary/header.js'
import { FETCH_BUDGET_BYTES, type NotaryResponse } from '../notary/messages.js'
import type { Receipt } from '../notary/receipt.js'
import { describeProtocolError } from '../wire/errors.js'
import type { Notary } from './notary.js'
import { type Requester, refusal } from './state.js'

/** NOTARY.md §7.5: the receipts from `from` on, within FETCH_BUDGET_BYTES (at least one). */
export function newer(log: readonly Receipt<number>[], from: number): Uint8Array[] {
  const out: Uint8Array[] = []
  let bytes = 0
  for (const r of log.slice(from)) {
    if (out.length > 0 && bytes + r.bytes.length + 4 > FETCH_BUDGET_BYTES) break
    out.push(r.bytes)
    bytes += r.bytes.length + 4
  }
  return out
}

export function submit(n: Notary, headerBytes: Uint8Array, deposit: Uint8Array, from: Requester): NotaryResponse {
  if (!n.admit(from.peer, 'submission')) return refusal('limit-rate', 'too many requests this minute')
  const d = decodeHeader(headerBytes, n.layout)
  if (!d.ok) return refusal('malformed', describeProtocolError(d.error))
  const h = d.value
  const s = n.state(h.game)
  if (s === undefined) return refusal('unregistered', 'no such game')
  // SPAAACE-WITNESSED §9.2: `author < n` (two-player layouts decode only 0 and 1).
  const key = s.reg.keys[h.sender]
  if (key === undefined) return refusal('malformed', `author ${h.sender} is not on the roster of ${s.reg.keys.length}`)
  if (!headerSignatureValid(n.domain, h, key))
    return refusal('signature', "not signed by the sender's hello key (PROTOCOL-4.md §5.1)")
  // A receipted place: the same header gets its receipt back, another header is refused.
  const held = n.store.atPlace(h.game, h.sender, h.seq)
  if (held !== undefined) {
    const receipt = s.log[held.index]
    if (receipt?.kind === 'envelope' && constantTimeEqual(encodeHeader(receipt.header, n.layout), headerBytes))
      return { kind: 'receipt', receipt: receipt.bytes }
    return refusal('place-taken', `sender ${h.sender} seq ${h.seq} is receipted with another header`)
  }
  if (s.sealed) return refusal('sealed', 'the log is sealed')
  const expected = n.store.lastSeq(h.game, h.sender) + 1
  if (h.seq !== expected) return refusal('seq', `sender ${h.sender}'s next seq is ${expected}`)
  // SPAAACE-WITNESSED §5.1, §9.2: the game's flags (27) and seq bound (29), where it has them.
  if (s.reg.flagsAllowed !== undefined && !s.reg.flagsAllowed(h))
    return refusal('flags', `flags ${h.flags}, deadline ${h.deadline}, seen ${h.seen} are not allowed in this game`)
  if (s.reg.seqBound !== undefined) {
    const bound = s.reg.seqBound(n.now())
    if (h.seq > bound) return refusal('seq-bound', `seq ${h.seq} is above ${bound} at this time`)
  }
  if (s.reg.depositBytes !== undefined && h.depositBytes !== s.reg.depositBytes)
    return refusal('deposit', `the header says ${h.depositBytes} bytes; this game's deposits are ${s.reg.depositBytes}`)
  if (deposit.length !== h.depositBytes)
    return refusal('deposit', `${deposit.length} bytes of deposit, the header says ${h.depositBytes}`)
  if (!constantTimeEqual(depositHash(n.domain, deposit), h.depositHash))
    return refusal('deposit', "the deposit does not hash to the header's depositHash")
  const parts = n.layout.wrapsByRoster ? depositWraps(deposit, s.reg.keys.length) : depositParts(deposit)
  if (!parts.ok) return refusal('deposit', `${parts.error.code} at ${parts.error.field}: ${parts.error.message}`)
  if (n.store.bytesHeld() + deposit.length + 2 * headerBytes.length > n.limits.bytesHeld)
    return refusal('limit-bytes', 'the notary holds all it may')
  if (isClaim(h)) {
    const c = s.log[h.seen]
    if (c?.kind !== 'claim' || c.claim.sender !== h.sender || c.claim.seq !== h.seq || c.claim.deadline !== h.deadline)
      return refusal(
        'claim-unrequested',
        `receipt ${h.seen} is not a claim receipt of sender ${h.sender} at seq ${h.seq} with deadline ${h.deadline}`,
      )
  }
  const receipt = n.append(s, { kind: 'envelope', header: h }, { place: { sender: h.sender, seq: h.seq }, deposit })
  return { kind: 'receipt', receipt }
}
