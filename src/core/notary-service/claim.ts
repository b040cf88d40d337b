/**
 * Receipting a claim request (PROTOCOL-4.md §4.4 "Claims in two steps", NOTARY.md §7.5 "claim"):
 * the first step of a claim. The claimant has signed nothing about the game yet; the notary
 * receipts its request (receipt kind 4, the claim as body) only once its time is above the
 * claimed deadline and the claimant has seen the whole log, so that a claim receipt proves both.
 * Only with that receipt does the claimant sign its stop, whose header names it (submit.ts).
 */
import { decodeClaim, claimSignatureValid } from '../notary/claim.js'
import type { NotaryResponse } from '../notary/messages.js'
import { CLAIM_RECEIPT_BYTES } from '../notary/receipt.js'
import { describeProtocolError } from '../wire/errors.js'
import type { Notary } from './notary.js'
import { type Requester, refusal } from './state.js'
import { newer } from './submit.js'

export function claim(n: Notary, bytes: Uint8Array, from: Requester): NotaryResponse {
  if (!n.admit(from.peer, 'submission')) return refusal('limit-rate', 'too many requests this minute')
  // SPAAACE-WITNESSED §9.2: a game without claims refuses every claim request (28), after rate and decoding.
  if (n.layout.maxKind > 4) return refusal('unsupported', 'this game has no claims')
  const d = decodeClaim(bytes)
  if (!d.ok) return refusal('malformed', describeProtocolError(d.error))
  const c = d.value
  const s = n.state(c.game)
  if (s === undefined) return refusal('unregistered', 'no such game')
  if (s.reg.claims === false) return refusal('unsupported', 'this game has no claims')
  if (!claimSignatureValid(n.domain, c, s.reg.keys[c.sender] ?? new Uint8Array()))
    return refusal('signature', "not signed by the sender's hello key (PROTOCOL-4.md §4.4)")
  // PROTOCOL-4.md §4.4: a second request at a place that has a claim receipt gets that receipt,
  // whatever its deadline and seen (a claimant that lost the answer asks again with what it now
  // holds), and even after the seal, as a resubmitted header does (NOTARY.md §12).
  const held = n.store.claimAt(c.game, c.sender, c.seq)
  if (held !== undefined) return { kind: 'receipt', receipt: held.bytes }
  if (s.sealed) return refusal('sealed', 'the log is sealed')
  // The place the stop will take: the next of the sender's envelopes (claim receipts are not envelopes).
  const expected = n.store.lastSeq(c.game, c.sender) + 1
  if (c.seq !== expected) return refusal('seq', `sender ${c.sender}'s next seq is ${expected}`)
  if (n.store.bytesHeld() + CLAIM_RECEIPT_BYTES > n.limits.bytesHeld)
    return refusal('limit-bytes', 'the notary holds all it may')
  const last = s.log.length - 1
  if (c.seen > last) return refusal('claim-seen', `the claim saw receipt ${c.seen}; the log ends at ${last}`)
  // NOTARY.md §12: what the claimant has not seen comes first; it may answer the step owed.
  if (c.seen < last) return { kind: 'newer', receipts: newer(s.log, c.seen + 1) }
  if (n.now() <= c.deadline) return { kind: 'not-before', time: c.deadline + 1 }
  const receipt = n.append(s, { kind: 'claim', claim: c }, { claim: { sender: c.sender, seq: c.seq } })
  return { kind: 'receipt', receipt }
}
