/**
 * What a notary needs to know of a Spaceships game (protocol/NOTARY.md §7.5, PROTOCOL-4.md §4.1,
 * §4.6, §5.2, §5.3): the Spaceships `Registrar`. Pure: the notary calls it again on the stored
 * hellos after a restart and must get the same answer for the same bytes.
 */
import { constantTimeEqual } from '../../../core/commit/bytes.js'
import { FLAG, type SubmissionHeader } from '../../../core/notary/header.js'
import type { Receipt } from '../../../core/notary/receipt.js'
import type { Registrar, Registration } from '../../../core/notary-service/registrar.js'
import { decodeEnvelope, envelopeHash, gameIdOf } from '../protocol/envelope.js'
import { NOTARY_DOMAIN } from '../protocol/domain.js'
import { LIMITS, type Terms } from '../protocol/messages.js'
import { paddingFloorOfBytes } from './submission.js'

/** PROTOCOL-4.md §9: the margin added to every witnessed deadline. */
export const WITNESS_MARGIN_MS = 10_000

/**
 * The envelope receipts of a log. Claim receipts (kind 4, PROTOCOL-4.md §4.4) are not among them:
 * a claim request is neither a stop (the stop is its envelope, receipted after it) nor an answer
 * to one, so sealing never reads them.
 */
const envelopeReceipts = (log: readonly Receipt[]) =>
  log.flatMap((r) => (r.kind === 'envelope' ? [{ r, h: r.header }] : []))

/**
 * PROTOCOL-4.md §4.6: when the log shows the game over: an end-step receipt of each side (the later
 * one's time); or, after the first receipted stop, the other side's next receipt (its answer) or the
 * answer step's deadline counted from the stop's receipt with the whole reserve, which is never
 * earlier than the true one (a seal a little late is harmless, an early one is a fault). For a
 * witnessed claim that is counted from the stop's envelope receipt, not from its claim receipt,
 * which comes before it: later, so never early.
 */
export function sealTime(log: readonly Receipt[], terms: Terms): number | undefined {
  const all = envelopeReceipts(log)
  const ends = ([0, 1] as const).map((side) => all.find(({ h }) => h.sender === side && (h.flags & FLAG.end) !== 0))
  if (ends[0] !== undefined && ends[1] !== undefined) return Math.max(ends[0].r.time, ends[1].r.time)
  // A header's flags are its signer's word, which the notary cannot check against the envelope: a
  // stop shows the game over only once the other side's next receipt is a stop too (its answer),
  // or none follows within the answer's deadline. A "stop" the other side played on after (a phase
  // envelope flagged stop, to have the log sealed mid-game) shows nothing.
  for (const stop of all) {
    if ((stop.h.flags & FLAG.stop) === 0) continue
    const next = all.find(({ r, h }) => h.sender !== stop.h.sender && r.index > stop.r.index)
    if (next === undefined)
      return stop.r.time + Math.max(terms.replyMs, terms.turnMs) + (terms.reserveMs ?? 0) + WITNESS_MARGIN_MS
    if ((next.h.flags & FLAG.stop) !== 0) return next.r.time
  }
  return undefined
}

/**
 * PROTOCOL-4.md §5.3, NOTARY.md §4.4 step 5: whether `envelope` (a deposit's opened bytes) is an
 * envelope of this game at the header's sender and `seq`, whose hash is the header's `envelopeHash`.
 * The notary judges complaints with it, a node before it complains, a verifier a complaint receipt.
 */
export function envelopeMatchesHeader(envelope: Uint8Array, h: SubmissionHeader): boolean {
  if (envelope.length > LIMITS.revealEnvelopeBytes) return false
  const d = decodeEnvelope(envelope)
  if (!d.ok) return false
  const e = d.value.envelope
  return (
    e.version === 4 &&
    e.sender === (h.sender === 0 ? 'A' : 'B') &&
    e.seq === h.seq &&
    e.game !== undefined &&
    constantTimeEqual(e.game, h.game) &&
    constantTimeEqual(envelopeHash(envelope.subarray(0, envelope.length - 64)), h.envelopeHash)
  )
}

/**
 * NOTARY.md §5.3: the game's functions a complaint is judged with, by the notary, by a node before
 * it complains and by a verifier reading a complaint receipt: the padding floor and the envelope test.
 */
export const COMPLAINT_JUDGING = { floor: paddingFloorOfBytes, envelopeMatches: envelopeMatchesHeader } as const

export const spaceshipsRegistrar: Registrar = {
  domain: NOTARY_DOMAIN,
  register(helloA, helloB): Registration {
    const a = decodeEnvelope(helloA)
    const b = decodeEnvelope(helloB)
    if (!a.ok) return { ok: false, reason: `A's hello does not decode: ${a.error.message}` }
    if (!b.ok) return { ok: false, reason: `B's hello does not decode: ${b.error.message}` }
    const ea = a.value.envelope
    const eb = b.value.envelope
    if (ea.version !== 4 || eb.version !== 4) return { ok: false, reason: 'witnessed games are of protocol version 4' }
    if (ea.sender !== 'A' || ea.seq !== 0 || eb.sender !== 'B' || eb.seq !== 0)
      return { ok: false, reason: "not A's and B's envelopes 0" }
    const ha = ea.parts[0]
    const hb = eb.parts[0]
    if (ea.parts.length !== 1 || ha?.t !== 'hello' || ha.terms === undefined)
      return { ok: false, reason: "A's envelope 0 is not one hello with terms" }
    if (hb?.t !== 'hello') return { ok: false, reason: "B's envelope 0 is not a hello" }
    if (eb.parts.some((p) => p.t === 'refuse')) return { ok: false, reason: "B refused A's hello" }
    if (eb.ack === undefined || !constantTimeEqual(eb.ack, a.value.hash))
      return { ok: false, reason: "B's hello does not acknowledge A's" }
    const terms = ha.terms
    if (terms.notary === undefined) return { ok: false, reason: "A's terms name no notary: the game is unwitnessed" }
    const game = gameIdOf(a.value.hash, b.value.hash, 4)
    return {
      ok: true,
      game: {
        game,
        keys: [ha.key, hb.key],
        notaryKey: terms.notary,
        paddingFloor: paddingFloorOfBytes,
        envelopeMatches: envelopeMatchesHeader,
        sealWhen: (log) => sealTime(log, terms),
      },
    }
  },
}
