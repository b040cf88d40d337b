/**
 * A player's notary client (NOTARY.md §7.6): each call takes an AbortSignal; submissions are
 * resubmitted with backoff on the injected clock until the notary answers (PROTOCOL-4.md §4.5: a
 * node that cannot reach the notary keeps resubmitting, keeps playing and says so once). Answers
 * are checked: a receipt must decode, be signed by the notary key the terms name, and be the
 * receipt of what was asked.
 */
import type { Libp2p, PeerId } from '@libp2p/interface'
import { lpStream } from '@libp2p/utils'
import type { Multiaddr } from '@multiformats/multiaddr'
import { constantTimeEqual } from '../commit/bytes.js'
import { decodeClaim } from '../notary/claim.js'
import type { NotaryDomain } from '../notary/domain.js'
import { encodeComplaint } from '../notary/complaint.js'
import { encodeHeader } from '../notary/header.js'
import {
  type HeldRelay,
  type LogItem,
  MAX_MESSAGE_BYTES,
  NOTARY_PROTOCOL_ID,
  type NotaryProtocol,
  type NotaryRequest,
  type NotaryResponse,
  decodeResponse,
  encodeRequest,
} from '../notary/messages.js'
import { decodeReceipt, receiptSignatureValid } from '../notary/receipt.js'
import { layoutOf } from '../notary/domain.js'
import { decodeRelay } from '../notary/relay.js'
import type { Clock } from '../session/clock.js'
import { describeProtocolError } from '../wire/errors.js'
import { MAX_LENGTH_PREFIX_BYTES, REQUEST_TIMEOUT_MS } from './service.js'

/** Sends one request's bytes and returns the response's bytes (a test may pass its own). */
export type Transport = (request: Uint8Array, signal: AbortSignal) => Promise<Uint8Array>

/** NOTARY.md §7.6: the first wait before a resubmission, doubled each time up to the last. */
export const BACKOFF_FIRST_MS = 1_000
export const BACKOFF_MAX_MS = 60_000

/** `protocolId`: Spaceships' by default; `/spaaace-notary/1.0.0` for witnessed Spaaace!. */
export function libp2pTransport(
  node: Libp2p,
  notary: PeerId | Multiaddr[],
  protocolId: string = NOTARY_PROTOCOL_ID,
): Transport {
  return async (request, signal) => {
    const s = AbortSignal.any([signal, AbortSignal.timeout(REQUEST_TIMEOUT_MS)])
    // One protocol, and the client writes first: the request rides with the protocol's selection
    // instead of waiting a round trip for its confirmation.
    const stream = await node.dialProtocol(notary, protocolId, {
      signal: s,
      runOnLimitedConnection: true,
      negotiateFully: false,
    })
    try {
      const lp = lpStream(stream, { maxDataLength: MAX_MESSAGE_BYTES, maxLengthLength: MAX_LENGTH_PREFIX_BYTES })
      await lp.write(request, { signal: s })
      const answer = (await lp.read({ signal: s })).subarray()
      await stream.close({ signal: s }).catch(() => undefined)
      return answer
    } catch (e) {
      stream.abort(e as Error)
      throw e
    }
  }
}

/**
 * NOTARY.md §7.6: a claim receipt answers a claim request of the same game, sender and `seq`. Its
 * `deadline`, `seen` and signature may be another request's: the notary returns the claim receipt
 * it holds at that place to any later request there (PROTOCOL-4.md §4.4), and the claimant signs
 * its stop with that receipt's deadline and index.
 */
function claimAnswers(request: Uint8Array, held: { game: Uint8Array; sender: 0 | 1; seq: number }): boolean {
  const d = decodeClaim(request)
  return (
    d.ok && constantTimeEqual(d.value.game, held.game) && d.value.sender === held.sender && d.value.seq === held.seq
  )
}

/** SPAAACE-WITNESSED §9.2: a relay is acknowledged with the envelope receipt at its index. */
function relayAnswers(relay: Uint8Array, r: { readonly game: Uint8Array; readonly index: number }): boolean {
  const d = decodeRelay(relay)
  return d.ok && constantTimeEqual(d.value.game, r.game) && d.value.index === r.index
}

/** Told of a request that failed and will be sent again after `waitMs`. */
export type RetryHook = (e: { readonly attempt: number; readonly waitMs: number; readonly why: string }) => void

/** The notary answered something that is not an answer to the request (NOTARY.md §7.6). */
export class NotaryAnswerError extends Error {}

export interface NotaryClientOptions {
  readonly transport: Transport
  readonly clock: Clock
  readonly domain: NotaryDomain
  /** The notary key A's terms name: every receipt is checked against it. */
  readonly notaryKey: Uint8Array
  /** Called when a request failed and will be sent again after `waitMs` (to say so once). */
  readonly onRetry?: RetryHook
  /** The protocol's message table (Spaceships' by default; SPAAACE-WITNESSED §9.1's for Spaaace!). */
  readonly protocol?: NotaryProtocol
}

export class NotaryClient {
  constructor(private readonly o: NotaryClientOptions) {}

  /** One try: the decoded answer; throws on a transport failure or an answer that does not decode. */
  async ask(q: NotaryRequest, signal: AbortSignal): Promise<NotaryResponse> {
    const d = decodeResponse(await this.o.transport(encodeRequest(q), signal), this.o.protocol)
    if (!d.ok) throw new NotaryAnswerError(`the notary's answer does not decode: ${describeProtocolError(d.error)}`)
    if (d.value.kind === 'receipt') this.checkReceipt(q, d.value.receipt)
    return d.value
  }

  private checkReceipt(q: NotaryRequest, bytes: Uint8Array): void {
    const layout = layoutOf(this.o.domain)
    const d = decodeReceipt(bytes, layout)
    if (!d.ok || !receiptSignatureValid(this.o.domain, d.value, this.o.notaryKey))
      throw new NotaryAnswerError('a receipt not signed by the notary key of the terms')
    const r = d.value
    const same = (a: Uint8Array, b: Uint8Array): boolean => constantTimeEqual(a, b)
    const answers =
      (q.kind === 'register' && r.kind === 'genesis' && same(r.helloA, q.helloA) && same(r.helloB, q.helloB)) ||
      (q.kind === 'submit' && r.kind === 'envelope' && same(encodeHeader(r.header, layout), q.header)) ||
      (q.kind === 'complain' && r.kind === 'complaint' && same(encodeComplaint(r.complaint, layout), q.complaint)) ||
      (q.kind === 'register-genesis' && r.kind === 'genesis-body' && same(r.body, q.body)) ||
      (q.kind === 'mark' && r.kind === 'mark' && same(r.game, q.game) && r.t === q.t && r.cut === q.cut) ||
      (q.kind === 'relay' && r.kind === 'envelope' && relayAnswers(q.relay, r)) ||
      (q.kind === 'seal' && r.kind === 'seal' && same(r.game, q.game)) ||
      (q.kind === 'claim' && r.kind === 'claim' && claimAnswers(q.claim, r.claim))
    if (!answers) throw new NotaryAnswerError('a receipt of something other than what was asked')
  }

  /**
   * Asks until the notary answers (anything but 'limit-rate'), waiting BACKOFF_FIRST_MS, then
   * twice as long each time up to BACKOFF_MAX_MS, on the injected clock; rejects only when `signal` aborts.
   * `onRetry` hears this request's failed tries, after the client's own hook.
   */
  async persist(q: NotaryRequest, signal: AbortSignal, onRetry?: RetryHook): Promise<NotaryResponse> {
    let wait = BACKOFF_FIRST_MS
    for (let attempt = 1; ; attempt++) {
      signal.throwIfAborted()
      let why: string
      try {
        const a = await this.ask(q, signal)
        if (a.kind !== 'refused' || a.code !== 'limit-rate') return a
        why = `the notary limits this peer's rate: ${a.message}`
      } catch (e) {
        signal.throwIfAborted()
        why = (e as Error).message
      }
      this.o.onRetry?.({ attempt, waitMs: wait, why })
      onRetry?.({ attempt, waitMs: wait, why })
      await this.o.clock.sleep(wait, signal)
      wait = Math.min(2 * wait, BACKOFF_MAX_MS)
    }
  }

  register(helloA: Uint8Array, helloB: Uint8Array, signal: AbortSignal): Promise<NotaryResponse> {
    return this.persist({ kind: 'register', helloA, helloB }, signal)
  }

  submit(header: Uint8Array, deposit: Uint8Array, signal: AbortSignal, onRetry?: RetryHook): Promise<NotaryResponse> {
    return this.persist({ kind: 'submit', header, deposit }, signal, onRetry)
  }

  complain(complaint: Uint8Array, signal: AbortSignal, onRetry?: RetryHook): Promise<NotaryResponse> {
    return this.persist({ kind: 'complain', complaint }, signal, onRetry)
  }

  seal(game: Uint8Array, signal: AbortSignal, onRetry?: RetryHook): Promise<NotaryResponse> {
    return this.persist({ kind: 'seal', game }, signal, onRetry)
  }

  /**
   * PROTOCOL-4.md §4.4: a claim request (`claimBytes`, the 112 bytes of NOTARY.md §3.3). The answer
   * is a claim receipt at the request's place (checked as `claimAnswers` says), the newer receipts,
   * "not before" a time, or a refusal; only with the receipt does the claimant sign its stop.
   */
  claim(claimBytes: Uint8Array, signal: AbortSignal): Promise<NotaryResponse> {
    return this.persist({ kind: 'claim', claim: claimBytes }, signal)
  }

  /** SPAAACE-WITNESSED §9.1 request 1: registers an n-player game by its genesis body (§3). */
  registerGenesis(body: Uint8Array, signal: AbortSignal, onRetry?: RetryHook): Promise<NotaryResponse> {
    return this.persist({ kind: 'register-genesis', body }, signal, onRetry)
  }

  /**
   * §9.1 request 7: asks the notary to mark cut `cut` (0: `C_t`, 1: `R_t`) of tick `t`: a mark
   * receipt, the log from the first receipt past the cut, "not before" a time, or a refusal.
   */
  mark(game: Uint8Array, t: number, cut: 0 | 1, signal: AbortSignal, onRetry?: RetryHook): Promise<NotaryResponse> {
    return this.persist({ kind: 'mark', game, t, cut }, signal, onRetry)
  }

  /** §9.1 request 8: leaves a relay (117 bytes, §5.4); acknowledged with the envelope receipt. */
  relay(relayBytes: Uint8Array, signal: AbortSignal, onRetry?: RetryHook): Promise<NotaryResponse> {
    return this.persist({ kind: 'relay', relay: relayBytes }, signal, onRetry)
  }

  /** §9.1 request 9: the relays held for this player, or a refusal. */
  async relays(
    game: Uint8Array,
    signal: AbortSignal,
    onRetry?: RetryHook,
  ): Promise<readonly HeldRelay[] | NotaryResponse> {
    const a = await this.persist({ kind: 'relays', game }, signal, onRetry)
    return a.kind === 'relays' ? a.relays : a
  }

  /**
   * The log from `from`, following `more` to its end, or until `maxItems` are held (a game's log
   * is bounded, NOTARY.md §8: a notary that answers "more" for ever is not followed for ever); a
   * refusal is returned as it is. `onRetry` hears each try that failed before the first answer:
   * once a page has come, the notary is answering, and the rest is asked for quietly.
   */
  async fetch(
    game: Uint8Array,
    from: number,
    signal: AbortSignal,
    maxItems = Number.POSITIVE_INFINITY,
    onRetry?: RetryHook,
  ): Promise<LogItem[] | NotaryResponse> {
    const items: LogItem[] = []
    for (let next = from; ;) {
      const a = await this.persist({ kind: 'fetch', game, from: next }, signal, next === from ? onRetry : undefined)
      if (a.kind !== 'log') return a
      items.push(...a.items)
      if (!a.more || a.items.length === 0 || items.length >= maxItems) return items
      next += a.items.length
    }
  }
}
