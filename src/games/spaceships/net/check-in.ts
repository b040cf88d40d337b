/**
 * Games across days (PROTOCOL-4.md §4, §5.2): a check-in plays a witnessed game through its notary
 * alone. The other side's envelopes come from the notary's log, each deposit opened with this
 * side's key; this side's go to the notary through the witness link; the session does every step
 * it can (answers, openings, the player's move) and pauses once the other side owes the next one.
 * Neither node needs to run between check-ins, nor to reach the other.
 */
import type { Libp2p } from '@libp2p/interface'
import { multiaddr } from '@multiformats/multiaddr'
import { constantTimeEqual } from '../../../core/commit/bytes.js'
import { type Channel, Inbox, type Received } from '../../../core/session/channel.js'
import { type Clock, systemClock } from '../../../core/session/clock.js'
import { createPeerNode } from '../../../core/net/node.js'
import type { KeyPair } from '../../../core/commit/keys.js'
import { decodeReceipt } from '../../../core/notary/receipt.js'
import { NotaryClient, libp2pTransport } from '../../../core/notary-net/client.js'
import { NOTARY_DOMAIN } from '../protocol/domain.js'
import { decodeEnvelope } from '../protocol/envelope.js'
import { FRAME } from '../protocol/frame.js'
import { LIMITS, ROLE_INDEX, type Role, type Terms, otherRole } from '../protocol/messages.js'
import { type SessionResult, runSession } from '../session/session.js'
import { openHeaderDeposit } from '../witness/submission.js'
import type { NetGameCommon } from './options.js'
import { DeadlineWatch, peerIdsOf, resultAsStored, sessionInputs, settledWithin } from './plumbing.js'
import { witnessLink } from './witness.js'
import { unreceiptedSeqs } from '../witness/unreceipted.js'

/** How often a check-in asks the notary for what is new, and how long it waits for more before pausing. */
export const CHECK_IN_POLL_MS = 500
export const CHECK_IN_QUIET_MS = 2_000

/**
 * A channel whose frames are the other side's envelopes as the notary's log holds them (NOTARY.md
 * §7.2 fetch): every envelope receipt of the other side, its deposit opened to the very envelope
 * its header names (a deposit that does not open is not delivered, PROTOCOL-4.md §5.3). Sending is
 * the witness link's: frames sent here are dropped.
 */
export function notaryChannel(o: {
  readonly client: NotaryClient
  readonly game: Uint8Array
  readonly me: Role
  readonly keys: KeyPair
  readonly clock?: Clock
  readonly pollMs?: number
  /** Each fetch's outcome: answered (a log or a refusal) or not reached. */
  readonly onFetch?: (answered: boolean) => void
}): Channel {
  const clock = o.clock ?? systemClock
  const inbox = new Inbox()
  const them = ROLE_INDEX[otherRole(o.me)]
  let next = 0
  const poll = async (signal: AbortSignal): Promise<void> => {
    let items: Awaited<ReturnType<NotaryClient['fetch']>>
    try {
      items = await o.client.fetch(o.game, next, signal, LIMITS.fileLinesV4)
    } catch (e) {
      if (!signal.aborted) o.onFetch?.(false)
      throw e
    }
    o.onFetch?.(true)
    if (!Array.isArray(items)) return
    for (const it of items) {
      next++
      const r = decodeReceipt(it.receipt)
      if (!r.ok || r.value.kind !== 'envelope' || r.value.header.sender !== them || it.deposit.length === 0) continue
      const h = r.value.header
      if (!constantTimeEqual(h.game, o.game)) continue
      const opened = openHeaderDeposit(it.deposit, h, 0, o.keys.secretKey)
      if (!opened.ok) continue
      const frame = new Uint8Array(1 + opened.value.length)
      frame[0] = FRAME.full
      frame.set(opened.value, 1)
      inbox.push({ kind: 'frame', bytes: frame })
    }
  }
  /** What the inbox holds now, without waiting. */
  const queued = (): Promise<Received> => inbox.receive(AbortSignal.abort())
  return {
    send: () => Promise.resolve(),
    async receive(signal: AbortSignal): Promise<Received> {
      for (;;) {
        const ready = await queued()
        if (ready.kind !== 'aborted') return ready
        if (signal.aborted) return { kind: 'aborted' }
        // A failed fetch is tried again after the pause below (the client already retried it).
        await poll(signal).catch(() => undefined)
        const got = await queued()
        if (got.kind !== 'aborted') return got
        try {
          await clock.sleep(o.pollMs ?? CHECK_IN_POLL_MS, signal)
        } catch {
          return { kind: 'aborted' }
        }
      }
    },
    close: () => {
      inbox.close()
    },
  }
}

export interface CheckInOptions extends NetGameCommon {
  readonly side: Role
  readonly terms: Terms
  /** The notary's addresses (the invite's), each ending in /p2p/ and its PeerId. */
  readonly notary: { readonly addrs: readonly string[] }
  readonly clock?: Clock
  readonly quietMs?: number
  /** `watch`: pause when this side's player has to decide, instead of waiting for it. */
  readonly pauseOnDecision?: boolean
  /** A person at a terminal: a record being typed while the peer owes the next step is waited for. */
  readonly awaitDecision?: boolean
}

/** A check-in's result: the session's, and this side's envelopes the notary has not receipted. */
export interface CheckInResult extends SessionResult {
  /**
   * This side's envelopes after its hello that no receipt in the transcript names when the check-in
   * ends (the notary could not be reached, or refused them): signed and kept, but not deposited,
   * so nobody else can see them until a later check-in deposits them (PROTOCOL-4.md §4.1).
   */
  readonly unreceipted: readonly number[]
  /** The notary did not answer at the check-in's end: its last fetch or submission failed, so what the opponent sent since may be unseen. */
  readonly notaryAway: boolean
}

/** One check-in: does every step this side can, then returns (paused, or the game over). */
export async function checkInGame(o: CheckInOptions): Promise<CheckInResult> {
  o.signal?.throwIfAborted()
  const notaryKey = o.terms.notary
  if (notaryKey === undefined) throw new Error('a check-in needs a witnessed game (terms that name a notary)')
  const held = o.store.envelopes()
  const game = held.map((b) => decodeEnvelope(b)).find((d) => d.ok && d.value.envelope.game !== undefined)
  if (game === undefined || !game.ok || game.value.envelope.game === undefined)
    throw new Error('a check-in needs a game begun: both hellos and a first envelope')
  const node: Libp2p = await createPeerNode({
    identity: o.identity,
    listen: [],
    admission: () => new Set(peerIdsOf(o.notary.addrs)),
  })
  await node.start()
  const clock = o.clock ?? systemClock
  const stop = new AbortController()
  const signal = o.signal === undefined ? stop.signal : AbortSignal.any([o.signal, stop.signal])
  // Whether the notary answered the last request of the check-in (a fetch, a submission).
  let away = false
  const client = new NotaryClient({
    transport: libp2pTransport(
      node,
      o.notary.addrs.map((a) => multiaddr(a)),
    ),
    clock,
    domain: NOTARY_DOMAIN,
    notaryKey,
    // A request the notary did not answer is tried again (NOTARY.md §7.6) and never fails: the
    // check-in learns of the outage here.
    onRetry: () => {
      away = true
    },
  })
  const link = witnessLink({
    node,
    notary: { key: notaryKey, addrs: o.notary.addrs },
    keys: o.identity.keys,
    role: o.side,
    store: o.store,
    signal,
    clock,
    onEvent: (e) => {
      if (e.kind === 'unreachable') away = true
      else if (e.kind === 'reachable' || e.kind === 'receipt') away = false
      o.onWitness?.(e)
    },
  })
  for (const bytes of held) {
    const d = decodeEnvelope(bytes)
    if (d.ok) link.see(d.value, d.value.envelope.sender === o.side ? 'sent' : 'received')
  }
  const outer = o.onEnvelope
  const watch = new DeadlineWatch()
  let result: SessionResult
  try {
    result = await runSession({
      ...sessionInputs(
        {
          ...o,
          onEnvelope: (s, direction) => {
            link.see(s, direction)
            outer?.(s, direction)
          },
        },
        watch,
        o.side,
      ),
      role: o.side,
      terms: o.terms,
      channel: notaryChannel({
        client,
        game: game.value.envelope.game,
        me: o.side,
        keys: o.identity.keys,
        clock,
        onFetch: (answered) => {
          away = !answered
        },
      }),
      // PROTOCOL-4.md §4.4: a check-in that finds the other side past its deadline claims, through the notary.
      witness: link.session,
      checkIn: {
        quietMs: o.quietMs ?? CHECK_IN_QUIET_MS,
        ...(o.pauseOnDecision === true ? { pauseOnDecision: true } : {}),
        ...(o.awaitDecision === true ? { awaitDecision: true } : {}),
      },
    })
  } finally {
    // This side's envelopes reach the notary before the process goes: nothing else carries them.
    await link.settle(Math.max(o.terms.replyMs, 30_000))
    stop.abort()
    // Bounded (settledWithin): a stop waiting on a socket the notary already closed left a check-in
    // with nothing to wait on, and Node exited 13 before it said anything.
    await settledWithin(Promise.resolve(node.stop()), 3000)
  }
  // What did not reach the notary is said, never taken for deposited (the store holds the receipts).
  return { ...resultAsStored(result, o.store), unreceipted: unreceiptedSeqs(o.store, o.side), notaryAway: away }
}
