/**
 * SPEC §2.4: the game, then each rematch both players accept, played on one channel with the
 * sides swapped each time; the next game's id; the offer and its answer.
 */
import { createHash } from 'node:crypto'
import type { StreamChannel } from '../../../core/net/stream-channel.js'
import { type Channel, type Received, withSecondSource } from '../../../core/session/channel.js'
import { decodeFrame, encodeControl } from '../protocol/frame.js'
import { type Role, type Terms, otherRole } from '../protocol/messages.js'
import type { Journal } from '../session/journal.js'
import { type SessionEvent, type SessionResult, type SessionWitness, runSession } from '../session/session.js'
import type { NetGameCommon, Rematch } from './options.js'
import { witnessLink } from './witness.js'
import type { Libp2p } from '@libp2p/interface'
import { decodeEnvelope } from '../protocol/envelope.js'
import { type DeadlineWatch, resultAsStored, sessionInputs } from './plumbing.js'

/**
 * PROTOCOL-4.md §4: a game whose terms name a notary is played with a link to it: every envelope
 * this side persists goes to the link (which submits this side's and appends the log's receipts
 * to the game's transcript); after the game, the link gets a reply period to finish.
 */
async function witnessed(
  o: NetGameCommon,
  node: Libp2p | undefined,
  terms: Terms,
  role: Role,
  play: (o: NetGameCommon, w: Witnessing) => Promise<SessionResult>,
): Promise<SessionResult> {
  if (terms.notary === undefined || o.notary === undefined || node === undefined) return play(o, {})
  const stop = new AbortController()
  const link = witnessLink({
    node,
    notary: { key: terms.notary, addrs: o.notary.addrs },
    keys: o.identity.keys,
    role,
    store: o.store,
    signal: o.signal === undefined ? stop.signal : AbortSignal.any([o.signal, stop.signal]),
    ...(o.onWitness === undefined ? {} : { onEvent: o.onWitness }),
  })
  // What the store already holds (a resumed game) is seen first: the hellos, and own envelopes
  // whose receipts the file may lack (a resubmission gets the same receipt back).
  for (const bytes of o.store.envelopes()) {
    const d = decodeEnvelope(bytes)
    if (d.ok) link.see(d.value, d.value.envelope.sender === role ? 'sent' : 'received')
  }
  const outer = o.onEnvelope
  let result: SessionResult
  try {
    result = await play(
      {
        ...o,
        onEnvelope: (s, direction) => {
          link.see(s, direction)
          outer?.(s, direction)
        },
      },
      { witness: link.session, channel: (c) => withSecondSource(c, link.inbox) },
    )
  } finally {
    await link.settle(terms.replyMs)
    stop.abort()
  }
  return resultAsStored(result, o.store)
}

/**
 * What a witnessed game's session gets from the link (PROTOCOL-4.md §4.4): its clock and claims,
 * and its channel with the notary's deliveries beside the stream's.
 */
interface Witnessing {
  readonly witness?: SessionWitness
  readonly channel?: (c: Channel) => Channel
}

/** The next game's id: derived from the last one, so both sides name it alike without a message. */
export function rematchId(previous: string): string {
  return createHash('sha256').update(`spaceships/rematch/${previous}`).digest('hex').slice(0, 32)
}

/**
 * The game, then each rematch both players accept (SPEC §2.4), on one channel: sessions are lent
 * the channel and never close it; `finish` does once the last game is over. Returns the first
 * game's result (each rematch's goes to its own `done`). `onGame` hears each rematch's invite id
 * as its game begins: from then on a new stream must present it (SPEC §2.3, §2.4).
 */
export async function playGames(
  o: NetGameCommon,
  watch: DeadlineWatch,
  channel: StreamChannel,
  side: Role,
  terms: Terms,
  id: string,
  opponentKey: Uint8Array | undefined,
  onGame: (id: string) => void,
  node?: Libp2p,
): Promise<SessionResult> {
  const lent: Channel =
    o.rematch === undefined
      ? channel
      : { send: (f) => channel.send(f), receive: (signal) => channel.receive(signal), close: () => undefined }
  const key = opponentKey === undefined ? {} : { opponentKey }
  // A rematch frame the peer sent while this side's session still ran is heard through it.
  const early: Heard = { offer: false, accept: false, decline: false }
  const hear = (e: SessionEvent): void => {
    if (e.kind !== 'rematch') return
    if (e.control === 'rematch-offer') early.offer = true
    else if (e.control === 'rematch-accept') early.accept = true
    else early.decline = true
  }
  const listened: NetGameCommon = {
    ...o,
    onSessionEvent: (e) => {
      hear(e)
      o.onSessionEvent?.(e)
    },
  }
  const first = await witnessed(listened, node, terms, side, (w, x) =>
    runSession({
      ...sessionInputs(w, watch, side),
      role: side,
      terms,
      channel: x.channel?.(lent) ?? lent,
      ...(x.witness === undefined ? {} : { witness: x.witness }),
      ...key,
    }),
  )
  let last = first
  let game = id
  let role = side
  // Nobody met (SessionResult.unmet): no game was played, so there is nothing to play again.
  while (o.rematch !== undefined && first.unmet !== true) {
    await o.rematch.ended(last, game, role)
    if (!(await agreeRematch(channel, o.rematch, role, early))) break
    Object.assign(early, { offer: false, accept: false, decline: false })
    role = otherRole(role)
    game = rematchId(game)
    onGame(game)
    const next = await o.rematch.next(role, game)
    // The new game's own store, journal and player; never the last game's journal.
    const inputs: NetGameCommon = { ...listened, store: next.store, strategy: next.strategy }
    delete (inputs as { journal?: Journal }).journal
    const nextRole = role
    last = await witnessed(inputs, node, terms, role, (w, x) =>
      runSession({
        ...sessionInputs(next.journal === undefined ? w : { ...w, journal: next.journal }, watch, nextRole),
        role: nextRole,
        terms,
        channel: x.channel?.(lent) ?? lent,
        ...(x.witness === undefined ? {} : { witness: x.witness }),
        ...key,
      }),
    )
  }
  return first
}

/**
 * SPEC §2.4: offers or accepts a rematch. Both sides may offer at once (then both want it); an
 * answer that does not come within the wait, a decline, or the channel closing means no rematch.
 * Envelope frames still arriving from the game just over are not part of the conversation.
 */
interface Heard {
  offer: boolean
  accept: boolean
  decline: boolean
}

async function agreeRematch(channel: StreamChannel, r: Rematch, role: Role, early: Heard): Promise<boolean> {
  const wait = new AbortController()
  const timer = setTimeout(() => {
    wait.abort()
  }, r.waitMs ?? 60_000)
  const heard: Heard = { ...early }
  // A peer that left (its node stopped, no rematch wanted) answers nothing: stop waiting for it.
  const gone = setInterval(() => {
    if (!channel.attached) wait.abort()
  }, 250)
  const me = { answered: false }
  // Listen while the player decides: the other side may have offered already.
  const listening = (async () => {
    for (;;) {
      // A joiner whose host refused it too often (NotServedError) has nobody to agree with.
      const got: Received = await channel.receive(wait.signal).catch(() => ({ kind: 'closed' }))
      if (got.kind !== 'frame') return
      const d = decodeFrame(got.bytes, otherRole(role), {
        game: undefined,
        hashAt: () => undefined,
        positionOf: () => undefined,
      })
      if (!d.ok || d.value.kind !== 'control') continue
      if (d.value.control === 'rematch-offer') heard.offer = true
      else if (d.value.control === 'rematch-accept') heard.accept = true
      else if (d.value.control === 'rematch-decline') heard.decline = true
      if (heard.accept || heard.decline || (heard.offer && me.answered)) return
    }
  })()
  try {
    const yes = await r.want()
    me.answered = true
    await channel.send(encodeControl(yes ? (heard.offer ? 'rematch-accept' : 'rematch-offer') : 'rematch-decline'))
    if (!yes) return false
    if (!heard.offer && !heard.accept && !heard.decline) await listening
    // Both offered at once, or one offered and the other accepted.
    return !heard.decline && (heard.offer || heard.accept)
  } finally {
    clearTimeout(timer)
    clearInterval(gone)
    wait.abort()
  }
}
