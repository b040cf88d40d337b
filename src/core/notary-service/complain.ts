/**
 * Receipting a complaint (PROTOCOL-4.md §5.3, NOTARY.md §7.5 "complain"): the complainant's
 * signature, the receipt it names, the repeat and per-side limits, then the proof and the deposit
 * (core/notary/complaint.ts `judgeComplaint`). A complaint receipt carries the deposit, so that
 * anyone can check the offence from the log alone. There is no rule of time beyond the seal: a
 * deposit that does not open is its signer's offence whenever it is proven (an honest sender's
 * always opens, so a late complaint never convicts one), and the notary cannot see acknowledgements.
 */
import { constantTimeEqual } from '../commit/bytes.js'
import { complaintSignatureValid, decodeComplaint, judgeComplaint } from '../notary/complaint.js'
import type { NotaryResponse } from '../notary/messages.js'
import { describeProtocolError } from '../wire/errors.js'
import { COMPLAINTS_PER_SIDE } from './limits.js'
import type { Notary } from './notary.js'
import { type Requester, refusal } from './state.js'

export function complain(n: Notary, bytes: Uint8Array, from: Requester): NotaryResponse {
  if (!n.admit(from.peer, 'submission')) return refusal('limit-rate', 'too many requests this minute')
  const d = decodeComplaint(bytes, n.layout)
  if (!d.ok) return refusal('malformed', describeProtocolError(d.error))
  const c = d.value
  const s = n.state(c.game)
  if (s === undefined) return refusal('unregistered', 'no such game')
  // SPAAACE-WITNESSED §9.2: `complainant < n` (two-player layouts decode only 0 and 1).
  const key = s.reg.keys[c.sender]
  if (key === undefined) return refusal('malformed', `complainant ${c.sender} is not on the roster`)
  if (!complaintSignatureValid(n.domain, c, key))
    return refusal('signature', "not signed by the complainant's hello key")
  // The same complaint again gets its receipt back; another about the same receipt is refused.
  for (const r of s.log) {
    if (r.kind !== 'complaint' || r.complaint.sender !== c.sender || r.complaint.index !== c.index) continue
    if (
      constantTimeEqual(r.complaint.sig, c.sig) &&
      constantTimeEqual(r.complaint.dh, c.dh) &&
      constantTimeEqual(r.complaint.proof, c.proof)
    )
      return { kind: 'receipt', receipt: r.bytes }
    return refusal('complaint-repeat', `receipt ${c.index} has been complained of by this side`)
  }
  if (s.sealed) return refusal('sealed', 'the log is sealed')
  const target = s.log[c.index]
  if (target?.kind !== 'envelope' || target.header.sender === c.sender)
    return refusal('complaint-target', `receipt ${c.index} is not an envelope receipt of the other side`)
  // SPAAACE-WITNESSED §5.3: per (complainant, author); with two players that is per side (NOTARY.md §5.4).
  const author = target.header.sender
  const perPair = s.reg.complaintsPerPair ?? COMPLAINTS_PER_SIDE
  const made = s.log.filter(
    (r) =>
      r.kind === 'complaint' &&
      r.complaint.sender === c.sender &&
      s.log[r.complaint.index]?.kind === 'envelope' &&
      (s.log[r.complaint.index] as { header: { sender: number } }).header.sender === author,
  ).length
  if (made >= perPair)
    return refusal(
      'limit-complaints',
      s.reg.complaintsPerPair === undefined
        ? `${COMPLAINTS_PER_SIDE} complaints per side per game (PROTOCOL-4.md §5.3)`
        : `${perPair} complaints per complainant and author (SPAAACE-WITNESSED §5.3)`,
    )
  const deposit = n.store.deposit(c.game, c.index)
  if (deposit === undefined) return refusal('deposit-gone', 'the deposit is no longer held')
  const judged = judgeComplaint({
    domain: n.domain,
    complaint: c,
    header: target.header,
    deposit,
    complainantKey: key,
    floor: (e) => s.reg.paddingFloor(e),
    envelopeMatches: (e, h) => s.reg.envelopeMatches(e, h),
    wraps: s.reg.keys.length,
  })
  if (!judged.ok) return refusal('complaint-invalid', `${judged.error.code}: ${judged.error.message}`)
  if (n.store.bytesHeld() + bytes.length + deposit.length > n.limits.bytesHeld)
    return refusal('limit-bytes', 'the notary holds all it may')
  const receipt = n.append(s, { kind: 'complaint', complaint: c, deposit }, { complainant: c.sender })
  return { kind: 'receipt', receipt }
}
