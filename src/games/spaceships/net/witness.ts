/**
 * A node's link to the notary of a witnessed game (PROTOCOL-4.md §4.1, §4.5, §5.1): A registers
 * the game once both hellos are known; each side submits every envelope it signs (from `seq` 1, in
 * order, never waiting for the receipt before its next step) and appends to its transcript every
 * receipt of the game's log it fetches, so each file holds the log that decides time. A node that
 * cannot reach the notary keeps resubmitting with backoff, keeps playing, and says so once. A
 * deposit of the other side that hashes to its receipt but does not open is complained of (§5.3),
 * and the complaint receipt, once in the transcript, proves the other side's offence.
 */
import type { Libp2p } from '@libp2p/interface'
import { multiaddr } from '@multiformats/multiaddr'
import { toBase64url } from '../../../core/commit/bytes.js'
import type { KeyPair } from '../../../core/commit/keys.js'
import { type SecretSource, systemSecrets } from '../../../core/commit/secrets.js'
import { componentLogger } from '../../../core/log.js'
import { freshDepositRandomness } from '../../../core/notary/deposit.js'
import type { NotaryResponse } from '../../../core/notary/messages.js'
import { decodeReceipt, notarySignedIndex, receiptSignatureValid } from '../../../core/notary/receipt.js'
import { claimSignatureValid, encodeClaim, signClaim } from '../../../core/notary/claim.js'
import { type Complaint, encodeComplaint, judgeComplaint, makeComplaint } from '../../../core/notary/complaint.js'
import type { SubmissionHeader } from '../../../core/notary/header.js'
import type { LogItem } from '../../../core/notary/messages.js'
import { Inbox } from '../../../core/session/channel.js'
import { FRAME } from '../protocol/frame.js'
import { LIMITS, ROLE_INDEX } from '../protocol/messages.js'
import type { ClaimAnswer, SessionWitness } from '../session/options.js'
import { verifyEnvelopes } from '../verify/verify.js'
import { witnessedDue } from '../verify/witnessed.js'
import { envelopeMatchesHeader } from '../witness/registrar.js'
import { openHeaderDeposit, paddingFloorOfBytes } from '../witness/submission.js'
import { NotaryClient, type Transport, libp2pTransport } from '../../../core/notary-net/client.js'
import { type Clock, systemClock } from '../../../core/session/clock.js'
import { NOTARY_DOMAIN } from '../protocol/domain.js'
import type { SealedEnvelope } from '../protocol/envelope.js'
import type { TranscriptStore } from '../protocol/file.js'
import { type Role, otherRole } from '../protocol/messages.js'
import { RECEIPT_BYTE } from '../verify/receipts.js'
import { type Submission, submissionOf } from '../witness/submission.js'

const log = componentLogger('net:witness')

/** NOTARY.md §7.6: the waits between tries of a refused-for-now request (B submits before A registered). */
const RETRY_FIRST_MS = 1_000
const RETRY_MAX_MS = 60_000
/**
 * How long `settle` still waits once every try has failed for this long: a notary that has not
 * answered for 10 s at the end of a check-in is away, and its player is better told at once (the
 * envelopes stay kept, and the next check-in deposits them) than after the whole wait.
 */
const SETTLE_UNREACHABLE_MS = 10_000

export type WitnessEvent =
  | { readonly kind: 'receipt'; readonly index: number; readonly what: string }
  | { readonly kind: 'unreachable'; readonly detail: string }
  | { readonly kind: 'reachable' }
  | { readonly kind: 'refused'; readonly detail: string }

export interface WitnessOptions {
  /** The node that dials the notary; or `transport`, a way of its own to send it requests (tests: in process). */
  readonly node?: Libp2p
  readonly transport?: Transport
  /** The notary's key (A's terms) and its addresses (the invite's hints, each ending in /p2p/ID). */
  readonly notary: { readonly key: Uint8Array; readonly addrs: readonly string[] }
  readonly keys: KeyPair
  readonly role: Role
  /** The game's transcript, to which each receipt is appended once (PROTOCOL-4.md §2). */
  readonly store: TranscriptStore
  readonly signal: AbortSignal
  readonly clock?: Clock
  /** The deposits' randomness (a CSPRNG; seeded only in tests). */
  readonly secrets?: SecretSource
  readonly onEvent?: (e: WitnessEvent) => void
}

export interface WitnessLink {
  /** Every envelope of the game this side persisted, its own ('sent') and the peer's ('received'). */
  see(s: SealedEnvelope, direction: 'sent' | 'received'): void
  /**
   * Waits until every own envelope seen is receipted and the log fetched, or `ms` have passed, or
   * the notary has not answered for SETTLE_UNREACHABLE_MS.
   */
  settle(ms: number): Promise<void>
  /** The session's view of the notary (PROTOCOL-4.md §4.4): the due step's deadline, claims, fetches. */
  readonly session: SessionWitness
  /**
   * The other side's envelopes opened from the deposits of the log's receipts, as full frames
   * (SPEC §2.1), for the session's channel (`withSecondSource`): what the stream lost arrives so.
   */
  readonly inbox: Inbox
}

/** The reason of a stop envelope (SPEC §7.9), if it is one. */
function stopReason(s: SealedEnvelope): string | undefined {
  const p = s.envelope.parts[0]
  return p?.t === 'stop' ? p.reason : undefined
}

function nodeTransport(node: Libp2p | undefined, addrs: readonly string[]): Transport {
  if (node === undefined) throw new Error('a witness link needs a node or a transport')
  return libp2pTransport(
    node,
    addrs.map((a) => multiaddr(a)),
  )
}

/** The most receipts one fetch follows: a version 4 log has fewer than a transcript has lines (SPEC §9). */
const FETCH_ITEMS = LIMITS.fileLinesV4

export function witnessLink(o: WitnessOptions): WitnessLink {
  const clock = o.clock ?? systemClock
  let unreachable = false
  /** When the notary last stopped answering (its clock), while it does not answer. */
  let unreachableSince = 0
  const client = new NotaryClient({
    transport: o.transport ?? nodeTransport(o.node, o.notary.addrs),
    clock,
    domain: NOTARY_DOMAIN,
    notaryKey: o.notary.key,
    // The client tries a request again until it is answered (NOTARY.md §7.6) and never fails it:
    // the first retry is where the link learns that the notary does not answer, and says so once.
    onRetry: (e) => {
      if (!unreachable) {
        o.onEvent?.({ kind: 'unreachable', detail: e.why })
        unreachableSince = clock.now()
      }
      unreachable = true
    },
  })
  const held = new Set<string>()
  const indices = new Set<number>()
  /** How many receipts this side holds at each index: a second proves `two-at-index`, a third nothing more. */
  const atIndex = new Map<number, number>()
  /** The first index of the log this side does not hold: where the next fetch starts. */
  const nextIndex = (): number => {
    let i = 0
    while (indices.has(i)) i++
    return i
  }
  /**
   * NOTARY.md §6 item 3 (`receipt-invalid`): bytes the notary signed as a receipt of this game that
   * do not decode prove its fault, so one such line is kept: the least index met, and only below
   * any kept before (`unreadable` holds the lines read back from the file until the game is
   * known), so that a notary sending more never grows the file.
   */
  let unreadableAt = Infinity
  let unreadable: Uint8Array[] = []
  for (const bytes of o.store.envelopes())
    if (bytes[0] === RECEIPT_BYTE) {
      held.add(toBase64url(bytes))
      const r = decodeReceipt(bytes)
      if (r.ok) {
        indices.add(r.value.index)
        atIndex.set(r.value.index, (atIndex.get(r.value.index) ?? 0) + 1)
      } else unreadable.push(bytes)
    }
  const hellos: Partial<Record<Role, SealedEnvelope>> = {}
  const queue: SealedEnvelope[] = []
  let game: Uint8Array | undefined
  let registered = indices.has(0)
  const inbox = new Inbox()
  /** How many of the other side's envelopes the link has delivered from deposits. */
  let delivered = 0
  const me = ROLE_INDEX[o.role]
  /** PROTOCOL-4.md §4.4: this side's claim receipts by the `seq` its stop takes (a restart finds them in the file). */
  const claims = new Map<number, { index: number; deadline: number }>()
  const noteClaim = (bytes: Uint8Array): void => {
    const r = decodeReceipt(bytes)
    if (
      r.ok &&
      r.value.kind === 'claim' &&
      r.value.claim.sender === me &&
      receiptSignatureValid(NOTARY_DOMAIN, r.value, o.notary.key) &&
      claimSignatureValid(NOTARY_DOMAIN, r.value.claim, o.keys.publicKey)
    )
      claims.set(r.value.claim.seq, { index: r.value.index, deadline: r.value.claim.deadline })
  }
  /**
   * PROTOCOL-4.md §5.3: the envelope receipts this side has complained of (a restart finds its
   * complaint receipts in the file), and the complaints built but not yet answered by the notary.
   */
  const complained = new Set<number>()
  const pending = new Map<number, Complaint>()
  const noteComplaint = (bytes: Uint8Array): void => {
    const r = decodeReceipt(bytes)
    if (r.ok && r.value.kind === 'complaint' && r.value.complaint.sender === me) {
      complained.add(r.value.complaint.index)
      pending.delete(r.value.complaint.index)
    }
  }
  for (const bytes of o.store.envelopes())
    if (bytes[0] === RECEIPT_BYTE) {
      noteClaim(bytes)
      noteComplaint(bytes)
    }
  let wake: () => void = () => undefined
  let idle: () => void = () => undefined
  let idlePromise = Promise.resolve()

  const keep = (receipt: Uint8Array): void => {
    const id = toBase64url(receipt)
    if (held.has(id)) return
    const r = decodeReceipt(receipt)
    if (!r.ok) {
      keepUnreadable(receipt, id)
      return
    }
    // NOTARY.md §7.6: every receipt kept, from any answer, is the terms' notary's. One whose
    // player signature fails is kept too: it is the notary's fault (§6 item 3), which the file
    // must show. This side acts only on a claim receipt whose request it signed itself
    // (`noteClaim`): a faulty notary's "receipt" never makes it sign a claim stop (PROTOCOL-4.md §4.4).
    if (!receiptSignatureValid(NOTARY_DOMAIN, r.value, o.notary.key)) return
    held.add(id)
    o.store.append(receipt)
    indices.add(r.value.index)
    atIndex.set(r.value.index, (atIndex.get(r.value.index) ?? 0) + 1)
    noteClaim(receipt)
    noteComplaint(receipt)
    o.onEvent?.({ kind: 'receipt', index: r.value.index, what: r.value.kind })
  }

  /** The unreadable lines of the answer being taken: the one of least index is kept once it is taken whole. */
  let candidates: { bytes: Uint8Array; id: string }[] = []
  const keepUnreadable = (receipt: Uint8Array, id: string): void => {
    candidates.push({ bytes: receipt, id })
  }
  const keepLeastUnreadable = (): void => {
    const answer = candidates
    candidates = []
    if (game === undefined || answer.length === 0) return
    const g = game
    const indexOf = (bytes: Uint8Array): number => notarySignedIndex(NOTARY_DOMAIN, bytes, g, o.notary.key) ?? Infinity
    for (const bytes of unreadable) unreadableAt = Math.min(unreadableAt, indexOf(bytes))
    unreadable = []
    let least: { bytes: Uint8Array; id: string; at: number } | undefined
    // Only at an index this side holds or asks for next: beyond it the chain cannot reach, and a
    // notary could otherwise add a line per answer at ever lower indices from 2^32 - 1.
    const reach = nextIndex()
    for (const c of answer) {
      const at = indexOf(c.bytes)
      if (at <= reach && at < (least?.at ?? unreadableAt)) least = { ...c, at }
    }
    if (least === undefined || held.has(least.id)) return
    unreadableAt = least.at
    held.add(least.id)
    o.store.append(least.bytes)
    o.onEvent?.({ kind: 'receipt', index: least.at, what: 'unreadable' })
  }

  /** Asks until answered; a refusal the notary may lift (not registered yet) is asked again later. */
  const ask = async (q: () => Promise<NotaryResponse>, what: string): Promise<NotaryResponse> => {
    let wait = RETRY_FIRST_MS
    for (;;) {
      o.signal.throwIfAborted()
      let a: NotaryResponse | undefined
      try {
        a = await q()
        if (unreachable) o.onEvent?.({ kind: 'reachable' })
        unreachable = false
      } catch (e) {
        o.signal.throwIfAborted()
        if (!unreachable) {
          o.onEvent?.({ kind: 'unreachable', detail: `${what}: ${(e as Error).message}` })
          unreachableSince = clock.now()
        }
        unreachable = true
      }
      if (a !== undefined && !(a.kind === 'refused' && a.code === 'unregistered')) return a
      await clock.sleep(wait, o.signal)
      wait = Math.min(2 * wait, RETRY_MAX_MS)
    }
  }

  /**
   * PROTOCOL-4.md §5.3: a deposit of the other side's envelope receipt `index` that this side could
   * not open (or that opened to bytes that are not the envelope). The complaint is built with the
   * core's functions (this side's wrap's Diffie-Hellman value with its proof, signed by its hello
   * key) and judged as the notary and every verifier will judge it: only one that holds is made,
   * so a deposit that does not hash to its receipt (the notary's or the network's fault, never the
   * sender's) is never complained of.
   */
  const suspect = (index: number, h: SubmissionHeader, deposit: Uint8Array): void => {
    if (game === undefined || complained.has(index) || pending.has(index)) return
    const c = makeComplaint(NOTARY_DOMAIN, o.keys, { game, sender: me, index, deposit })
    if (!c.ok) return
    const judged = judgeComplaint({
      domain: NOTARY_DOMAIN,
      complaint: c.value,
      header: h,
      deposit,
      complainantKey: o.keys.publicKey,
      floor: paddingFloorOfBytes,
      envelopeMatches: envelopeMatchesHeader,
    })
    if (!judged.ok) {
      log('the deposit of receipt %d does not open, but no complaint would hold: %s', index, judged.error.message)
      return
    }
    log('the deposit of receipt %d does not open (%s): complaining', index, judged.value)
    pending.set(index, c.value)
  }

  /** Submits the complaints built, one try each (a failed try is made again at the next fetch). */
  let complaining: Promise<void> = Promise.resolve()
  const complainPending = (signal: AbortSignal): Promise<void> => {
    complaining = complaining
      .catch(() => undefined)
      .then(async () => {
        for (const [index, c] of [...pending]) {
          let a: NotaryResponse
          try {
            a = await client.ask({ kind: 'complain', complaint: encodeComplaint(c) }, signal)
          } catch (e) {
            signal.throwIfAborted()
            log('complaining of receipt %d: %s', index, (e as Error).message)
            continue
          }
          if (a.kind === 'receipt') keep(a.receipt)
          else if (a.kind === 'refused' && (a.code === 'limit-rate' || a.code === 'unregistered')) continue
          else {
            // Final (sealed, limit-complaints, ...): said once, not asked again.
            pending.delete(index)
            complained.add(index)
            o.onEvent?.({
              kind: 'refused',
              detail: `complaint of receipt ${index}: ${a.kind === 'refused' ? `${a.code}: ${a.message}` : a.kind}`,
            })
          }
        }
      })
    return complaining
  }

  /**
   * Keeps a fetched receipt and, for an envelope receipt of the other side, delivers the envelope
   * its deposit opens to (PROTOCOL-4.md §5.2); one that does not open is complained of (§5.3).
   */
  const take = (it: LogItem): void => {
    const r = decodeReceipt(it.receipt)
    // NOTARY.md §7.6: of a log answer, a receipt is kept at an index this side holds (a second
    // there proves two-at-index; more prove nothing more) or at the next it lacks; one beyond
    // cannot join the chain before those below it, which the next fetch asks for. So a notary
    // cannot grow the file beyond twice its log.
    if (r.ok && (r.value.index > nextIndex() || (atIndex.get(r.value.index) ?? 0) >= 2)) return
    keep(it.receipt)
    if (!r.ok || r.value.kind !== 'envelope' || r.value.header.sender === me || it.deposit.length === 0) return
    const opened = openHeaderDeposit(it.deposit, r.value.header, 0, o.keys.secretKey)
    if (!opened.ok || !envelopeMatchesHeader(opened.value, r.value.header)) {
      // Only a receipt of the terms' notary (kept) is complained of.
      if (held.has(toBase64url(it.receipt))) suspect(r.value.index, r.value.header, it.deposit)
      return
    }
    const frame = new Uint8Array(1 + opened.value.length)
    frame[0] = FRAME.full
    frame.set(opened.value, 1)
    inbox.push({ kind: 'frame', bytes: frame })
    delivered++
  }

  /** The log from the next index not held (NOTARY.md §7.2 fetch): every receipt appended in order. */
  const fetchLog = async (): Promise<void> => {
    if (game === undefined) return
    const g = game
    const items = await ask(async () => {
      const r = await client.fetch(g, nextIndex(), o.signal, FETCH_ITEMS)
      return Array.isArray(r) ? { kind: 'log', items: r, more: false } : r
    }, 'fetching the log')
    if (items.kind === 'log') for (const it of items.items) take(it)
    keepLeastUnreadable()
    await complainPending(o.signal)
  }

  /** One fetch of what is new, no retries (the session's wait must not hang on an unreachable notary). */
  const fetchOnce = async (signal: AbortSignal): Promise<void> => {
    if (game === undefined) return
    for (;;) {
      const a = await client.ask({ kind: 'fetch', game, from: nextIndex() }, signal)
      if (a.kind !== 'log') break
      const before = nextIndex()
      for (const it of a.items) take(it)
      keepLeastUnreadable()
      // An answer that brought no next receipt is not followed: a notary that answers "more" for
      // ever with nothing this side keeps would hold the session's wait for ever.
      if (!a.more || a.items.length === 0 || nextIndex() === before) break
    }
    await complainPending(signal)
  }

  /**
   * PROTOCOL-4.md §5.3, SPEC §12.7a: an offence of the other side the transcript proves once it
   * holds a complaint receipt of this side (the verifier over the store, read again only when the
   * store has grown).
   */
  let proven: { readonly at: number; readonly detail: string | undefined } = { at: -1, detail: undefined }
  const offence = (): string | undefined => {
    if (complained.size === 0) return undefined
    const lines = o.store.envelopes()
    if (proven.at !== lines.length) {
      const v = verifyEnvelopes(lines)
      proven = {
        at: lines.length,
        detail:
          v.status === 'offence' && v.offence.offender !== o.role
            ? `${v.offence.class}: ${v.offence.detail}`
            : undefined,
      }
    }
    return proven.detail
  }

  /** PROTOCOL-4.md §4.4 step 1: a claim request at `seq` for `deadline`, one try. */
  const claim = async (seq: number, deadline: number, signal: AbortSignal): Promise<ClaimAnswer> => {
    if (game === undefined) return { kind: 'failed', detail: 'the game is not registered yet' }
    if (claims.has(seq)) return { kind: 'granted' }
    try {
      // `seen` is the last index held: the log is fetched first, so the claim is not stale by design;
      // and an envelope of the other side it brings is taken by the session before any claim (it
      // may be the owed one, receipted late: a claim across it would make this side the one owing).
      const before = delivered
      await fetchOnce(signal)
      if (delivered > before) return { kind: 'newer' }
      const request = encodeClaim(
        signClaim(NOTARY_DOMAIN, o.keys, { game, sender: me, seq, deadline, seen: nextIndex() - 1 }),
      )
      const a = await client.ask({ kind: 'claim', claim: request }, signal)
      switch (a.kind) {
        case 'receipt':
          keep(a.receipt)
          return claims.has(seq)
            ? { kind: 'granted' }
            : { kind: 'failed', detail: 'the notary returned a receipt of another claim' }
        case 'newer':
          // What the log brought is fetched with its deposits, so the envelopes reach the session.
          await fetchOnce(signal)
          return { kind: 'newer' }
        case 'not-before':
          return { kind: 'not-before', time: a.time }
        case 'refused':
          return { kind: 'failed', detail: `${a.code}: ${a.message}` }
        default:
          return { kind: 'failed', detail: `an answer of kind ${a.kind}` }
      }
    } catch (e) {
      signal.throwIfAborted()
      return { kind: 'failed', detail: `the notary is unreachable: ${(e as Error).message}` }
    }
  }

  const submit = async (s: SealedEnvelope, built: Submission): Promise<void> => {
    const a = await ask(
      () => client.submit(built.header, built.deposit, o.signal),
      `submitting envelope ${s.envelope.seq}`,
    )
    if (a.kind === 'receipt') keep(a.receipt)
    else if (a.kind === 'refused' && a.code === 'place-taken') await fetchLog()
    else if (a.kind === 'refused')
      o.onEvent?.({ kind: 'refused', detail: `envelope ${s.envelope.seq}: ${a.code}: ${a.message}` })
  }

  const loop = async (): Promise<void> => {
    const secrets = o.secrets ?? systemSecrets
    for (;;) {
      if (!registered && o.role === 'A' && hellos.A !== undefined && hellos.B !== undefined) {
        const a = await ask(
          () => client.register(hellos.A?.bytes ?? new Uint8Array(), hellos.B?.bytes ?? new Uint8Array(), o.signal),
          'registering the game',
        )
        if (a.kind === 'receipt') keep(a.receipt)
        else if (a.kind === 'refused') o.onEvent?.({ kind: 'refused', detail: `registration: ${a.code}: ${a.message}` })
        registered = true
      }
      const s = queue.shift()
      if (s === undefined) {
        idle()
        await new Promise<void>((resolve) => (wake = resolve))
        continue
      }
      const recipient = hellos[otherRole(o.role)]
      const part = recipient?.envelope.parts[0]
      if (part?.t !== 'hello') throw new Error('an envelope to submit before the peer’s hello')
      // PROTOCOL-4.md §4.4 step 2: a stop at a place this side holds a claim receipt for is that claim.
      const claimed = s.envelope.parts[0]?.t === 'stop' ? claims.get(s.envelope.seq) : undefined
      const built = submissionOf({
        keys: o.keys,
        sealed: s,
        recipientKey: part.key,
        randomness: freshDepositRandomness(secrets),
        ...(claimed === undefined ? {} : { claim: { deadline: claimed.deadline, seen: claimed.index } }),
        ...(stopReason(s) === 'outage' ? { outage: true } : {}),
      })
      if (!built.ok) {
        o.onEvent?.({
          kind: 'refused',
          detail: `envelope ${s.envelope.seq} cannot be deposited: ${built.error.message}`,
        })
        continue
      }
      await submit(s, built.value)
      // The log is fetched once the queue is drained, not after every submission: in a burst the
      // link keeps up with play (PROTOCOL-4.md §5.1: a sender never waits for its receipts).
      if (queue.length === 0) await fetchLog()
    }
  }
  void loop().catch((e: unknown) => {
    if (!o.signal.aborted) log('the link to the notary failed: %O', e)
    idle()
  })

  return {
    inbox,
    session: {
      due: () => {
        const d = witnessedDue(o.store.envelopes())
        if (d === undefined) return undefined
        // A receipted envelope this side has not opened would be admitted by the verifier: no claim
        // is made across it (PROTOCOL-4.md §4.4); the next fetch brings it.
        return d.unopened.length > 0 ? { side: d.side, deadline: undefined } : d
      },
      claim,
      offence,
      refresh: async (signal) => {
        await fetchOnce(signal).catch((e: unknown) => {
          signal.throwIfAborted()
          log('fetching the log: %s', (e as Error).message)
        })
      },
    },
    see(s, direction) {
      const e = s.envelope
      if (e.seq === 0) hellos[e.sender] = s
      if (e.game !== undefined) game = e.game
      if (direction === 'sent' && e.seq >= 1) {
        if (queue.length === 0) idlePromise = new Promise<void>((resolve) => (idle = resolve))
        queue.push(s)
      }
      wake()
    },
    async settle(ms) {
      const timer = new AbortController()
      const away = async (): Promise<void> => {
        // A clock's sleep resolves at once on an aborted signal: the loop ends with the wait.
        while (!timer.signal.aborted) {
          await clock.sleep(1_000, timer.signal)
          if (unreachable && clock.now() - unreachableSince >= SETTLE_UNREACHABLE_MS) return
        }
      }
      await Promise.race([
        idlePromise,
        clock.sleep(ms, timer.signal).catch(() => undefined),
        away().catch(() => undefined),
      ])
      timer.abort()
    },
  }
}
