/**
 * Marks and relays (SPAAACE-WITNESSED §6.2, §5.4, §9.2): a mark receipt is the notary's signed
 * statement that its time is past a cut, appended on a player's request when nothing else passes
 * it; a relay is a content key left for another player, held (never receipted) and served only to
 * its recipient. Every check in the order §9.2 gives, the first failure answering.
 */
import { decodeRelay } from '../notary/relay.js'
import type { NotaryResponse } from '../notary/messages.js'
import { MARK_BODY_BYTES, RECEIPT_HEAD_BYTES } from '../notary/receipt.js'
import { SIGNATURE_BYTES } from '../commit/keys.js'
import { describeProtocolError } from '../wire/errors.js'
import type { Notary } from './notary.js'
import { type Requester, refusal } from './state.js'

/** §6.1: a mark receipt's bytes (145). */
const MARK_RECEIPT_BYTES = RECEIPT_HEAD_BYTES + MARK_BODY_BYTES + SIGNATURE_BYTES

/** §9.2 "mark": rate, game, player, range, the mark held, sealed, a later receipt, `now ≤ X`, bytes. */
export function mark(n: Notary, game: Uint8Array, t: number, cut: number, from: Requester): NotaryResponse {
  if (!n.admit(from.peer, 'submission')) return refusal('limit-rate', 'too many requests this minute')
  const s = n.state(game)
  if (s === undefined) return refusal('unregistered', 'no such game')
  if (n.playerIndex(s, from) === undefined) return refusal('not-a-player', 'only a player of the game marks a cut')
  const maxT = s.reg.maxMarkTick
  const reg = s.reg
  if (maxT === undefined || reg.cutTime === undefined) return refusal('unsupported', 'this game has no marks')
  if (t < 1 || t > maxT || (cut !== 0 && cut !== 1))
    return refusal('mark-range', `t 1..${maxT} and cut 0 or 1; got t ${t}, cut ${cut}`)
  const held = n.store.markAt(game, t, cut)
  if (held !== undefined) return { kind: 'receipt', receipt: held.bytes }
  if (s.sealed) return refusal('sealed', 'the log is sealed')
  const x = reg.cutTime(t, cut)
  // §9.2: a receipt already past the cut answers: the log from the first such receipt (fetch's answer).
  const first = s.log.findIndex((r) => r.time > x)
  if (first >= 0) return n.fetch(game, first, from, false)
  if (n.now() <= x) return { kind: 'not-before', time: x + 1 }
  if (n.store.bytesHeld() + MARK_RECEIPT_BYTES > n.limits.bytesHeld)
    return refusal('limit-bytes', 'the notary holds all it may')
  const receipt = n.append(s, { kind: 'mark', t, cut }, { mark: { t, cut } })
  return { kind: 'receipt', receipt }
}

/** §9.2 "relay": rate, decoding, game, player, target, repeat, deposit held, bytes; then held. */
export function relay(n: Notary, bytes: Uint8Array, from: Requester): NotaryResponse {
  if (!n.admit(from.peer, 'submission')) return refusal('limit-rate', 'too many requests this minute')
  const d = decodeRelay(bytes)
  if (!d.ok) return refusal('malformed', describeProtocolError(d.error))
  const r = d.value
  const s = n.state(r.game)
  if (s === undefined) return refusal('unregistered', 'no such game')
  const me = n.playerIndex(s, from)
  if (me === undefined) return refusal('not-a-player', 'only a player of the game relays')
  const target = s.log[r.index]
  if (target?.kind !== 'envelope' || r.to >= s.reg.keys.length || r.to === me)
    return refusal(
      'relay-target',
      `receipt ${r.index} must be an envelope receipt and ${r.to} another player of ${s.reg.keys.length}`,
    )
  // §9.2: only for a player who complained of that envelope: a relay fills the gap a complaint too
  // late to void leaves (§7.2, §10.3), and so the relays a player can be sent are bounded by the
  // complaints it made itself (COMPLAINTS_PER_PAIR per author), not by what others choose to send.
  const complained = s.log.some(
    (x) => x.kind === 'complaint' && x.complaint.index === r.index && x.complaint.sender === r.to,
  )
  if (!complained) return refusal('relay-target', `player ${r.to} has no complaint receipted about receipt ${r.index}`)
  if (n.store.hasRelay(r.game, r.index, me, r.to))
    return refusal('relay-repeat', `a relay of receipt ${r.index} from ${me} to ${r.to} is held`)
  if (n.store.deposit(r.game, r.index) === undefined) return refusal('deposit-gone', 'the deposit is no longer held')
  if (n.store.bytesHeld() + r.wrap.length > n.limits.bytesHeld)
    return refusal('limit-bytes', 'the notary holds all it may')
  n.store.holdRelay(r.game, { index: r.index, from: me, to: r.to, wrap: r.wrap })
  // §9.2: acknowledged with the envelope receipt at `index` (a relay is no receipt of its own).
  return { kind: 'receipt', receipt: target.bytes }
}

/** §9.1 request 9: the relays held for the requester (N §7.5's fetch rate; only to `to`). */
export function relays(n: Notary, game: Uint8Array, from: Requester): NotaryResponse {
  if (!n.admit(from.peer, 'fetch')) return refusal('limit-rate', 'too many fetches this minute')
  const s = n.state(game)
  if (s === undefined) return refusal('unregistered', 'no such game')
  const me = n.playerIndex(s, from)
  if (me === undefined) return refusal('not-a-player', 'relays are served to players only')
  const held = n.store.relaysFor(game, me)
  return { kind: 'relays', relays: held.map((x) => ({ index: x.index, from: x.from, wrap: x.wrap })) }
}
