/**
 * Relays (SPAAACE-WITNESSED §5.4): a player who opened deposit `index` leaves its content key for
 * player `to`, whose own wrap failed. Not a receipt and not evidence; `to` opens the relay,
 * decrypts the body and checks steps 3-5 of §5.2; a relay that fails is ignored.
 */
import { depositContentKey, openDepositWithKey } from '../../../core/notary/deposit.js'
import { type NotaryResult, accepted } from '../../../core/notary/domain.js'
import type { SubmissionHeader } from '../../../core/notary/header.js'
import type { HeldRelay } from '../../../core/notary/messages.js'
import { encodeRelay, openRelay, sealRelay } from '../../../core/notary/relay.js'
import { SPAAACE_NOTARY_DOMAIN } from './domain.js'
import { paddingFloorW } from './registrar.js'
import { stepFive } from './submission.js'

/**
 * §5.4: the 117-byte relay of the content key of deposit `index` (header `h`) from `from` (the
 * builder, who opens its own wrap with `seed`) to `to` (roster key `roster[to]`).
 */
export function buildRelay(o: {
  readonly index: number
  readonly header: SubmissionHeader<number>
  readonly deposit: Uint8Array
  readonly from: number
  readonly seed: Uint8Array
  readonly to: number
  readonly roster: readonly Uint8Array[]
  /** A fresh X25519 ephemeral secret. */
  readonly ephemeral: Uint8Array
}): NotaryResult<Uint8Array> {
  const h = o.header
  const place = { game: h.game, sender: h.sender, seq: h.seq, envelopeHash: h.envelopeHash }
  const k = depositContentKey(o.deposit, o.roster.length, o.from, o.seed, { domain: SPAAACE_NOTARY_DOMAIN, place })
  if (!k.ok) return k
  const toKey = o.roster[o.to] ?? new Uint8Array()
  const r = sealRelay(SPAAACE_NOTARY_DOMAIN, {
    game: h.game,
    index: o.index,
    from: o.from,
    to: o.to,
    toKey,
    contentKey: k.value,
    ephemeral: o.ephemeral,
  })
  return r.ok ? accepted(encodeRelay(r.value)) : r
}

/**
 * §5.4: opens a relay held for `me` (request 9's answer) of deposit `relay.index` whose header is
 * `h`: the envelope, or why not (then the relay is ignored). Only `to` = `me` can open it.
 */
export function openRelayW(o: {
  readonly relay: HeldRelay
  readonly header: SubmissionHeader<number>
  readonly deposit: Uint8Array
  readonly me: number
  readonly seed: Uint8Array
  readonly n: number
}): NotaryResult<Uint8Array> {
  const h = o.header
  const k = openRelay(SPAAACE_NOTARY_DOMAIN, {
    game: h.game,
    index: o.relay.index,
    from: o.relay.from,
    to: o.me,
    wrap: o.relay.wrap,
    seed: o.seed,
  })
  if (!k.ok) return k
  const place = { game: h.game, sender: h.sender, seq: h.seq, envelopeHash: h.envelopeHash }
  const opened = openDepositWithKey(o.deposit, o.n, k.value, {
    domain: SPAAACE_NOTARY_DOMAIN,
    place,
    floor: paddingFloorW,
  })
  if (!opened.ok) return opened
  return stepFive(opened.value, h, o.n)
}
