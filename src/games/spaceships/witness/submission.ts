/**
 * A player's submission of one of its envelopes to the notary of a witnessed game (PROTOCOL-4.md
 * §5.1, §5.2): the envelope sealed as a deposit to its recipient and to its sender, and the header
 * in clear the player signs, whose flags say what the notary may know of it (a stop, an end step).
 */
import type { KeyPair } from '../../../core/commit/keys.js'
import { type DepositRandomness, depositHash, openDeposit, sealDeposit } from '../../../core/notary/deposit.js'
import type { NotaryResult } from '../../../core/notary/domain.js'
import { FLAG, type SubmissionHeader, encodeHeader, signHeader } from '../../../core/notary/header.js'
import { MIN_PADDED_BYTES, TURN_PADDED_BYTES } from '../../../core/notary/deposit.js'
import { NOTARY_DOMAIN } from '../protocol/domain.js'
import { type SealedEnvelope, decodeEnvelope } from '../protocol/envelope.js'
import { ROLE_INDEX } from '../protocol/messages.js'

/** PROTOCOL-4.md §5.2: the parts of a turn, whose envelopes pad to a turn deposit's floor (no size tells the schedule). */
const TURN_PARTS = new Set(['commit', 'aspects', 'results', 'flashcube', 'offer', 'accept'])

/** PROTOCOL-4.md §5.2: 4,096 bytes for a turn envelope, 256 for any other. */
export function paddingFloorOf(s: SealedEnvelope): number {
  return s.envelope.parts.some((p) => TURN_PARTS.has(p.t)) ? TURN_PADDED_BYTES : MIN_PADDED_BYTES
}

/** PROTOCOL-4.md §5.1: a stop (and an outage or a claim, when told), or an end step (reveal, close). */
export function flagsOf(s: SealedEnvelope, extra: { claim?: boolean; outage?: boolean } = {}): number {
  const parts = s.envelope.parts
  if (parts[0]?.t === 'stop')
    return FLAG.stop | (extra.claim === true ? FLAG.claim : 0) | (extra.outage === true ? FLAG.outage : 0)
  return parts.some((p) => p.t === 'reveal' || p.t === 'close') ? FLAG.end : 0
}

/** PROTOCOL-4.md §5.2: the floor of an opened deposit's envelope, from its bytes (256 for bytes that do not decode). */
export function paddingFloorOfBytes(envelope: Uint8Array): number {
  const d = decodeEnvelope(envelope)
  return d.ok ? paddingFloorOf(d.value) : MIN_PADDED_BYTES
}

/**
 * PROTOCOL-4.md §5.2: opens the deposit of an envelope receipt's header with this player's seed,
 * as its recipient (`for` 0) or its sender (1): the envelope bytes, or a coded refusal.
 */
export function openHeaderDeposit(
  deposit: Uint8Array,
  h: SubmissionHeader,
  forWhom: 0 | 1,
  seed: Uint8Array,
): NotaryResult<Uint8Array> {
  return openDeposit(deposit, forWhom, seed, {
    domain: NOTARY_DOMAIN,
    place: { game: h.game, sender: h.sender, seq: h.seq, envelopeHash: h.envelopeHash },
    floor: paddingFloorOfBytes,
  })
}

export interface Submission {
  readonly header: Uint8Array
  readonly deposit: Uint8Array
}

/**
 * The submission of `sealed` (this side's envelope, `seq >= 1`): its deposit and its signed header.
 * For a claim stop, `claim` gives its claim receipt's `deadline` and, as `seen`, that claim receipt's
 * index (PROTOCOL-4.md §4.4 step 2, NOTARY.md §3.2): the notary refuses any other (claim-unrequested).
 */
export function submissionOf(o: {
  readonly keys: KeyPair
  readonly sealed: SealedEnvelope
  readonly recipientKey: Uint8Array
  readonly randomness: DepositRandomness
  readonly claim?: { readonly deadline: number; readonly seen: number }
  /** PROTOCOL-4.md §4.5: an outage stop (flag bit 3). */
  readonly outage?: boolean
}): NotaryResult<Submission> {
  const e = o.sealed.envelope
  if (e.game === undefined || e.seq < 1) throw new Error('a hello is registered, never submitted (PROTOCOL-4.md §4.1)')
  const place = { game: e.game, sender: ROLE_INDEX[e.sender], seq: e.seq, envelopeHash: o.sealed.hash }
  const deposit = sealDeposit({
    domain: NOTARY_DOMAIN,
    place,
    envelope: o.sealed.bytes,
    recipientKey: o.recipientKey,
    senderKey: o.keys.publicKey,
    floor: paddingFloorOf(o.sealed),
    randomness: o.randomness,
  })
  if (!deposit.ok) return deposit
  const header = signHeader(NOTARY_DOMAIN, o.keys, {
    ...place,
    depositHash: depositHash(NOTARY_DOMAIN, deposit.value),
    depositBytes: deposit.value.length,
    flags: flagsOf(o.sealed, { claim: o.claim !== undefined, outage: o.outage === true }),
    deadline: o.claim?.deadline ?? 0,
    seen: o.claim?.seen ?? 0,
  })
  return { ok: true, value: { header: encodeHeader(header), deposit: deposit.value } }
}
