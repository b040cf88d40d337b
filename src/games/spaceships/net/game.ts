/**
 * One game between two peer nodes (protocol/SPEC.md §2): the host listens and prints an invite;
 * the joiner dials it and proves it holds the invite; from then on only that peer is admitted.
 * The session runs unchanged over a `StreamChannel` that survives dropped connections (the joiner
 * redials, the host accepts the new stream) and restarted processes (the session replays its
 * stored transcript and journal).
 */
import type { Connection, Libp2p, Stream } from '@libp2p/interface'
import { peerIdFromString } from '@libp2p/peer-id'
import { lpStream } from '@libp2p/utils'
import { multiaddr } from '@multiformats/multiaddr'
import { createHash } from 'node:crypto'
import { constantTimeEqual, utf8 } from '../../../core/commit/bytes.js'
import type { SecretSource } from '../../../core/commit/secrets.js'
import { type Journal, journaledSecrets, journaledSigning, journaledStrategy } from '../session/journal.js'
import type { SigningLog } from '../../../core/session/journal.js'
import { componentLogger } from '../../../core/log.js'
import { type Clock, systemClock } from '../../../core/session/clock.js'
import { type SessionEvent, type SessionResult, runSession } from '../session/session.js'
import type { PlayerStrategy } from '../session/strategy.js'
import { FRAME, decodeFrame, encodeControl } from '../protocol/frame.js'
import type { Channel, Received } from '../../../core/session/channel.js'
import { type SealedEnvelope, decodeEnvelope } from '../protocol/envelope.js'
import type { TranscriptStore } from '../protocol/file.js'
import { LIMITS, PROTOCOL_ID, type Role, type Terms, otherRole } from '../protocol/messages.js'
import type { Identity } from '../../../core/net/identity.js'
import { type Invite, relaysOf } from './invite.js'
import { createPeerNode, dialRelays } from '../../../core/net/node.js'
import { type StreamChannel, streamChannel } from '../../../core/net/stream-channel.js'

/** SPEC §2.3: the joiner's first frame on every game stream names the invite it holds. */
export const JOIN_PREAMBLE = 'spaceships-join '

/** The host waited its whole `waitMs` and nobody with the invite came: no game began. */
export class NobodyJoinedError extends Error {
  constructor(readonly waitedMs: number) {
    super(`nobody joined within ${Math.round(waitedMs / 1000)} s`)
  }
}
/** SPEC §2.3: the host waits this long for the preamble before dropping a new stream. */
export const PREAMBLE_TIMEOUT_MS = 10_000
const PREAMBLE_MAX_BYTES = 128
const REDIAL_MIN_MS = 250
const REDIAL_MAX_MS = 5_000

/**
 * SPEC §2.3: a host's whole answer to a stream it does not admit (a wrong invite id, or the id of
 * a game it no longer plays): this control frame, kind 5, then it closes the stream. The text is
 * courtesy for the joiner's player; it never names the game the host does serve.
 */
export const REFUSAL_KIND = 5
export const REFUSAL_TEXT = 'no game here for this invite'
/** SPEC §2.3: refused streams in a row after which a joiner stops dialling for the game. */
export const REFUSALS_BEFORE_GIVING_UP = 3
/** SPEC §2.3: the wait after the first refused stream; it doubles after each further one, up to REFUSED_MAX_MS. */
const REFUSED_MIN_MS = 1_000
const REFUSED_MAX_MS = 30_000
/** SPEC §2.3: a stream that carried no refusal for this long (or carried another frame) is admitted. */
export const ADMISSION_GRACE_MS = 2_000

/** The refusal frame (SPEC §2.3): `0x04 0x05` then the text, as any control frame. */
export function encodeRefusal(text: string = REFUSAL_TEXT): Uint8Array {
  const t = utf8(text)
  const out = new Uint8Array(2 + t.length)
  out[0] = FRAME.control
  out[1] = REFUSAL_KIND
  out.set(t, 2)
  return out
}

/**
 * The text of a refusal frame, or undefined for any other frame. The text is the host's, shown to
 * a person only when it is printable ASCII (no escapes, no direction overrides); else it is empty.
 */
export function refusalOf(frame: Uint8Array): string | undefined {
  if (frame[0] !== FRAME.control || frame[1] !== REFUSAL_KIND) return undefined
  const text = new TextDecoder('utf-8', { fatal: false }).decode(frame.subarray(2, 2 + 280))
  return /^[\x20-\x7e]*$/.test(text) ? text : ''
}

/**
 * The host refused this game's invite on REFUSALS_BEFORE_GIVING_UP streams in a row (SPEC §2.3):
 * it serves another game now (a later rematch, or a new game) or has finished this one. The node
 * stopped dialling and signed no stop: the game stays unfinished, resumable should its host serve
 * it again.
 */
export class NotServedError extends Error {
  constructor(
    readonly game: string,
    readonly refusals: number,
    readonly said: string,
  ) {
    super(
      `the other side no longer serves this game (it refused our invite ${refusals} times${said === '' ? '' : `, saying "${said}"`})`,
    )
  }
}

export type NetEvent =
  | { kind: 'listening'; addrs: string[] }
  /** A stream to the opponent; `restored` when it replaces one that was lost (`deadline` as below). */
  | { kind: 'connected'; peer: string; relayed: boolean; restored: boolean; deadline: number | undefined }
  /** The stream was lost; `deadline` is when the message owed now is due (clock ms, SPEC §6.6), if one is. */
  | { kind: 'disconnected'; deadline: number | undefined }
  | { kind: 'refused'; peer: string; why: string }
  | { kind: 'redial-failed'; detail: string }
  /** A host's relay (SPEC §2.3): asking it for a slot, the slot granted, or the relay lost and dialled again. */
  | { kind: 'relay'; relay: string; status: 'reserving' | 'reserved' | 'lost' }

export interface NetGameCommon {
  readonly identity: Identity
  readonly secrets: SecretSource
  readonly store: TranscriptStore
  /** Journals secrets and the player's inputs so a restarted process resumes (journal.ts). */
  readonly journal?: Journal
  readonly strategy: PlayerStrategy
  readonly listen: readonly string[]
  /** Relay multiaddrs (with /p2p/ID) to reserve a slot on, for players behind NAT. */
  readonly relays?: readonly string[]
  /**
   * Called once for every envelope this side persists (SPEC §11), as soon as it is persisted:
   * 'sent' for its own (before it is sent), 'received' for the other side's (each authenticated
   * envelope it keeps, an equivocating one included if it decodes). Over rematches, each game's
   * envelopes in turn. A game resumed from its store does not report again what the store already
   * held when the call began (it was reported when persisted): read that from the store. An
   * exception it throws is logged and otherwise ignored; the envelope stays persisted and the game
   * goes on.
   */
  readonly onEnvelope?: (s: SealedEnvelope, direction: 'sent' | 'received') => void
  readonly onEvent?: (e: NetEvent) => void
  /** The session's own events: who is awaited and until when, stops, chat (session.ts). */
  readonly onSessionEvent?: (e: SessionEvent) => void
  /** Called once the node is up and (for a host) the invite's addresses are known. */
  readonly onReady?: (node: Libp2p) => void | Promise<void>
  /** Called once the opponent is known (a host learns it from the first valid join). */
  readonly onOpponent?: (peer: string) => void
  /**
   * Stops the game from outside. Before the session begins (a host waiting for its joiner) the
   * call rejects with the signal's reason; during the game the session stops it by a claim
   * (SPEC §6.5) and resolves with its result.
   */
  readonly signal?: AbortSignal
  /**
   * Given, once the game's channel exists, a way to send the opponent a line of chat (SPEC §2.4:
   * a control frame, never signed or persisted; at most `LIMITS.controlTextBytes` bytes).
   */
  readonly onChat?: (say: (text: string) => Promise<void>) => void
  /** Play again on this connection with the sides swapped, as long as both players want (SPEC §2.4). */
  readonly rematch?: Rematch
  /** This side's role in the game (a rematch swaps them); default A for a host, B for a joiner. */
  readonly side?: Role
  /** A game this side had already stopped: how long to wait for the other node to settle it (session.ts `settleMs`, SPEC §12.7). */
  readonly settleMs?: number
}

/** The next game after a rematch both players accepted (SPEC §2.4): where it is kept and who plays it. */
export interface RematchGame {
  readonly store: TranscriptStore
  readonly journal?: Journal
  readonly strategy: PlayerStrategy
}

/**
 * Rematches on the game's connection (SPEC §2.4): each game's end goes to `ended` (the first
 * included); then `want` says whether this side offers (or accepts) another with the sides
 * swapped; when both do, `next` gives the new game's place and player, and it is played on the
 * same stream, the previous B as A.
 */
export interface Rematch {
  ended(result: SessionResult, game: string, side: Role): void | Promise<void>
  want(): Promise<boolean>
  next(side: Role, id: string): RematchGame | Promise<RematchGame>
  /** How long to wait for the other side's answer (default a minute). */
  readonly waitMs?: number
}

/** The next game's id: derived from the last one, so both sides name it alike without a message. */
export function rematchId(previous: string): string {
  return createHash('sha256').update(`spaceships/rematch/${previous}`).digest('hex').slice(0, 32)
}

function offerChat(o: NetGameCommon, channel: StreamChannel): void {
  o.onChat?.((text) => channel.send(encodeControl('chat', text)))
}

export interface HostOptions extends NetGameCommon {
  readonly inviteId: string
  readonly terms: Terms
  /** Known after the first join (or from a stored game when resuming). */
  readonly opponent?: string
  /** How long to wait for the joiner to connect the first time. */
  readonly waitMs: number
}

export interface JoinOptions extends NetGameCommon {
  readonly invite: Invite
}

const preamble = (inviteId: string): Uint8Array => utf8(JOIN_PREAMBLE + inviteId)
const log = componentLogger('net')

/** The caller's event callback, with each event logged (`DEBUG=spaceships:net`). */
function logged(onEvent: ((e: NetEvent) => void) | undefined): (e: NetEvent) => void {
  return (e) => {
    log('%o', e)
    onEvent?.(e)
  }
}

/** How long a host waits for its relays to grant a slot before it gives up, saying why. */
export const RELAY_RESERVATION_TIMEOUT_MS = 15_000
const RELAY_REDIAL_MAX_MS = 30_000

/** A host's relay could not be reached or gave no slot: the reason, for one line. */
export class RelayError extends Error {}

/**
 * A host behind NAT: dials each relay and waits until the circuit transport holds a slot on each
 * (a `/p2p-circuit` address through it), so the invite carries a relayed address; a relay that
 * drops the connection later is dialled again with backoff, so its slot comes back after a restart.
 */
async function reserveOnRelays(
  node: Libp2p,
  relays: readonly string[],
  onEvent: ((e: NetEvent) => void) | undefined,
  signal: AbortSignal,
): Promise<void> {
  const ids = peerIdsOf(relays)
  const reserved = (id: string): boolean =>
    node.getMultiaddrs().some((a) => a.toString().includes(`/p2p/${id}/p2p-circuit`))
  for (const [i, r] of relays.entries()) {
    const id = ids[i] ?? r
    onEvent?.({ kind: 'relay', relay: r, status: 'reserving' })
    try {
      await node.dial(multiaddr(r), {
        signal: AbortSignal.any([signal, AbortSignal.timeout(RELAY_RESERVATION_TIMEOUT_MS)]),
      })
    } catch (e) {
      throw new RelayError(
        `cannot reach the relay ${r}: ${(e as Error).message} (is it running, and is the address right?)`,
      )
    }
    const until = Date.now() + RELAY_RESERVATION_TIMEOUT_MS
    while (!reserved(id)) {
      if (Date.now() > until)
        throw new RelayError(
          `the relay ${r} granted no slot within ${RELAY_RESERVATION_TIMEOUT_MS / 1000} s (is your PeerId ${node.peerId.toString()} on its --allow list?)`,
        )
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    onEvent?.({ kind: 'relay', relay: r, status: 'reserved' })
  }
  node.addEventListener('peer:disconnect', (evt) => {
    const i = ids.indexOf(evt.detail.toString())
    const r = relays[i]
    if (r === undefined || signal.aborted) return
    onEvent?.({ kind: 'relay', relay: r, status: 'lost' })
    void (async () => {
      for (let wait = 1000; !signal.aborted; wait = Math.min(RELAY_REDIAL_MAX_MS, wait * 2)) {
        try {
          await node.dial(multiaddr(r), {
            signal: AbortSignal.any([signal, AbortSignal.timeout(RELAY_RESERVATION_TIMEOUT_MS)]),
          })
          return
        } catch {
          await new Promise((resolve) => setTimeout(resolve, wait))
        }
      }
    })()
  })
}

const peerIdsOf = (addrs: readonly string[]): string[] =>
  addrs.flatMap((a) => (a.includes('/p2p/') ? [a.slice(a.lastIndexOf('/p2p/') + 5)] : []))

function keyOf(peer: string): Uint8Array {
  const key = peerIdFromString(peer).publicKey
  if (key === undefined) throw new Error(`${peer} carries no public key`)
  return key.raw
}

/** The session's options common to both roles, with the journal wrapped around the inputs. */
/** The deadline the session is waiting on now (either side's), as its `waiting` events state it. */
class DeadlineWatch {
  current: number | undefined
  /** Only the peer's courtesy verdict is awaited (SPEC §6.3 end): a peer that leaves now has finished. */
  finishing = false

  see(e: SessionEvent): void {
    if (e.kind === 'waiting') {
      this.current = e.deadline
      this.finishing = e.what === 'verdict'
    } else if (e.kind === 'stopped') this.current = undefined
  }

  /** Milliseconds left before the current deadline, if there is one. */
  left(): number | undefined {
    return this.current === undefined ? undefined : this.current - systemClock.now()
  }
}

/**
 * The store the session persists into, reporting each envelope appended to `onEnvelope` once it is
 * stored: 'sent' when this side (`role`) is its sender, else 'received' (HostOptions/JoinOptions
 * `onEnvelope`). Every envelope the session persists goes through `append`, whatever path led it
 * there; what the store held before is not appended again.
 */
function reportingStore(store: TranscriptStore, role: Role, onEnvelope: NetGameCommon['onEnvelope']): TranscriptStore {
  if (onEnvelope === undefined) return store
  return {
    append: (bytes) => {
      store.append(bytes)
      const d = decodeEnvelope(bytes)
      // The session persists only envelopes that decode, but for a peer's second signed envelope at
      // a place (equivocation evidence), which is kept even if it does not: nothing to report then.
      if (!d.ok) return
      try {
        onEnvelope(d.value, d.value.envelope.sender === role ? 'sent' : 'received')
      } catch (e) {
        log('onEnvelope threw: %O', e)
      }
    },
    envelopes: () => store.envelopes(),
    ...(store.lastWrittenAt === undefined ? {} : { lastWrittenAt: () => store.lastWrittenAt?.() }),
  }
}

function sessionInputs(
  o: NetGameCommon,
  watch: DeadlineWatch,
  role: Role,
): {
  keys: Identity['keys']
  secrets: SecretSource
  strategy: PlayerStrategy
  store: TranscriptStore
  signal?: AbortSignal
  onEvent: (e: SessionEvent) => void
  settleMs?: number
  signing?: SigningLog
} {
  const j = o.journal
  return {
    ...(o.settleMs === undefined ? {} : { settleMs: o.settleMs }),
    // What this side sent, known apart from its transcript: a lost transcript is refused, never re-signed (SPEC §2.2).
    ...(j === undefined ? {} : { signing: journaledSigning(j) }),
    keys: o.identity.keys,
    secrets: j === undefined ? o.secrets : journaledSecrets(o.secrets, j),
    strategy: j === undefined ? o.strategy : journaledStrategy(o.strategy, j),
    store: reportingStore(o.store, role, o.onEnvelope),
    ...(o.signal === undefined ? {} : { signal: o.signal }),
    onEvent: (e) => {
      watch.see(e)
      o.onSessionEvent?.(e)
    },
  }
}

/**
 * The game, then each rematch both players accept (SPEC §2.4), on one channel: sessions are lent
 * the channel and never close it; `finish` does once the last game is over. Returns the first
 * game's result (each rematch's goes to its own `done`). `onGame` hears each rematch's invite id
 * as its game begins: from then on a new stream must present it (SPEC §2.3, §2.4).
 */
async function playGames(
  o: NetGameCommon,
  watch: DeadlineWatch,
  channel: StreamChannel,
  side: Role,
  terms: Terms,
  id: string,
  opponentKey: Uint8Array | undefined,
  onGame: (id: string) => void,
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
  const first = await runSession({ ...sessionInputs(listened, watch, side), role: side, terms, channel: lent, ...key })
  let last = first
  let game = id
  let role = side
  while (o.rematch !== undefined) {
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
    last = await runSession({
      ...sessionInputs(next.journal === undefined ? inputs : { ...inputs, journal: next.journal }, watch, role),
      role,
      terms,
      channel: lent,
      ...key,
    })
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

/**
 * SPEC §2.2: the wait before the next redial. It doubles from REDIAL_MIN_MS up to REDIAL_MAX_MS,
 * but never beyond a quarter of the time left before the current deadline, so an outage that
 * ends shortly before the deadline is noticed in time.
 */
export function redialDelay(previous: number, leftMs: number | undefined): number {
  return withinDeadline(Math.min(REDIAL_MAX_MS, previous * 2), leftMs)
}

/** A wait, but never beyond a quarter of the time left before the deadline, nor under REDIAL_MIN_MS (SPEC §2.2). */
function withinDeadline(ms: number, leftMs: number | undefined): number {
  return leftMs === undefined ? ms : Math.max(REDIAL_MIN_MS, Math.min(ms, Math.floor(leftMs / 4)))
}

/**
 * When a joiner may dial next, and when it gives up (SPEC §2.2, §2.3). A dial that opened no
 * stream, and a stream that ended before the host admitted it, back off as `redialDelay` says; a
 * stream the host refused backs off from REFUSED_MIN_MS, doubling up to REFUSED_MAX_MS (both
 * within the deadline); REFUSALS_BEFORE_GIVING_UP refusals with no game frame between end the
 * dialling. A lost admitted stream is redialled at once. Time is the given clock's, so tests drive
 * it without sleeping.
 */
export class DialPacer {
  private notBefore = Number.NEGATIVE_INFINITY
  private failedStep = REDIAL_MIN_MS
  private refusedStep = REFUSED_MIN_MS
  private refusals = 0

  constructor(
    private readonly clock: Clock,
    /** Milliseconds left before the current deadline, if one runs (SPEC §6.6). */
    private readonly left: () => number | undefined = () => undefined,
  ) {}

  /** Streams refused in a row. */
  get refused(): number {
    return this.refusals
  }

  get gaveUp(): boolean {
    return this.refusals >= REFUSALS_BEFORE_GIVING_UP
  }

  /** Milliseconds before the next dial may start (0: now). */
  waitLeft(): number {
    return Math.max(0, this.notBefore - this.clock.now())
  }

  /**
   * Resolves once the next dial may start. A refusal noticed while waiting (it can arrive after
   * the stream's end was seen) pushes the time back, and the wait goes on.
   */
  async ready(signal?: AbortSignal): Promise<void> {
    for (let w = this.waitLeft(); w > 0 && signal?.aborted !== true; w = this.waitLeft())
      await this.clock.sleep(w, signal)
  }

  /** A dial that opened no stream, or a stream that ended before the host admitted it: returns the wait. */
  failed(): number {
    const wait = withinDeadline(this.failedStep, this.left())
    this.failedStep = redialDelay(this.failedStep, undefined)
    this.hold(wait)
    return wait
  }

  /** The host refused a stream (SPEC §2.3): returns the wait before the next dial. */
  refusedStream(): number {
    this.refusals++
    const wait = withinDeadline(this.refusedStep, this.left())
    this.refusedStep = Math.min(REFUSED_MAX_MS, this.refusedStep * 2)
    this.hold(wait)
    return wait
  }

  /** The host admitted a stream: its loss is redialled at once, and that backoff starts again. */
  admitted(): void {
    this.notBefore = Number.NEGATIVE_INFINITY
    this.failedStep = REDIAL_MIN_MS
  }

  /**
   * A frame of the game came from the host: it serves the game, so the count of refusals starts
   * again. (Only this proves it: a stream admitted by time alone may still be refused on a slow link.)
   */
  served(): void {
    this.refusedStep = REFUSED_MIN_MS
    this.refusals = 0
  }

  private hold(ms: number): void {
    this.notBefore = Math.max(this.notBefore, this.clock.now() + ms)
  }
}

/** Waits for `p`, or at most `ms` (with a ref'd timer, so the process never idles out meanwhile). */
async function settledWithin(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  await Promise.race([p.catch(() => undefined), new Promise((r) => (timer = setTimeout(r, ms)))])
  clearTimeout(timer)
}

async function finish(node: Libp2p, channel: StreamChannel, result: Promise<SessionResult>): Promise<SessionResult> {
  try {
    return await result
  } finally {
    channel.close()
    // The last frames (the verdict) are flushed before the connection goes; a peer that stopped
    // reading cannot hold the node up for more than a moment.
    // (The timer is not unref'd: a stream whose close never settles must not leave the process
    // with nothing to wait on and the game's promise pending.)
    await settledWithin(channel.flushed(), 2000)
    // Stopping a node can wait on sockets whose peer already went; the game's result is known.
    await settledWithin(Promise.resolve(node.stop()), 3000)
  }
}

/**
 * SPEC §2.3: a stream the host does not admit gets the refusal frame and is closed, so its joiner
 * knows to stop rather than redial at once; one that does not let go within seconds is reset.
 */
async function refuseStream(lp: ReturnType<typeof lpStream<Stream>>, stream: Stream): Promise<void> {
  try {
    await lp.write(encodeRefusal(), { signal: AbortSignal.timeout(2_000) })
    await stream.close({ signal: AbortSignal.timeout(2_000) })
  } catch {
    stream.abort(new Error('refused'))
  }
}

function isRelayed(connection: Connection): boolean {
  return connection.limits !== undefined || connection.remoteAddr.toString().includes('/p2p-circuit')
}

/** Hosts a game: listens, admits the first peer that presents the invite, plays as A. */
export async function hostGame(options: HostOptions): Promise<SessionResult> {
  options.signal?.throwIfAborted()
  const o = { ...options, onEvent: logged(options.onEvent) }
  let opponent = o.opponent
  const relayPeers = peerIdsOf(o.relays ?? [])
  const relays = o.relays ?? []
  // Reachable through a relay: listen on the circuit transport (a slot on each relay dialled below).
  const listen = relays.length > 0 && !o.listen.includes('/p2p-circuit') ? [...o.listen, '/p2p-circuit'] : o.listen
  const node = await createPeerNode({
    identity: o.identity,
    listen,
    // Until someone presents the invite anyone may try; afterwards only the opponent and relays.
    admission: () => (opponent === undefined ? 'anyone' : new Set([opponent, ...relayPeers])),
    onRefused: (peer) => {
      o.onEvent({ kind: 'refused', peer, why: 'not the opponent of this game' })
    },
  })
  const watch = new DeadlineWatch()
  let lost = false
  const channel = streamChannel({
    maxFrameBytes: LIMITS.frameBytes,
    onDetach: () => {
      lost = true
      if (!watch.finishing) o.onEvent({ kind: 'disconnected', deadline: watch.current })
    },
  })
  offerChat(o, channel)
  // SPEC §2.3, §2.4: the invite id of the game played now (a rematch moves it on); a stream
  // presenting any other, an earlier game's of this connection included, is refused.
  let serving = o.inviteId
  const earlier: string[] = []
  let connected: () => void = () => undefined
  const firstJoin = new Promise<void>((resolve) => (connected = resolve))
  await node.handle(
    PROTOCOL_ID,
    async (stream: Stream, connection: Connection) => {
      const peer = connection.remotePeer.toString()
      const refuse = (why: string): void => {
        o.onEvent({ kind: 'refused', peer, why })
        stream.abort(new Error(why))
      }
      if (opponent !== undefined && peer !== opponent) {
        refuse('not the opponent of this game')
        return
      }
      const lp = lpStream(stream, { maxDataLength: PREAMBLE_MAX_BYTES })
      let first: Uint8Array
      try {
        first = (await lp.read({ signal: AbortSignal.timeout(PREAMBLE_TIMEOUT_MS) })).subarray()
      } catch {
        refuse('no invite presented')
        return
      }
      if (!constantTimeEqual(first, preamble(serving))) {
        const over = earlier.some((id) => constantTimeEqual(first, preamble(id)))
        o.onEvent({
          kind: 'refused',
          peer,
          why: over ? 'asked for an earlier game of this connection, which is over' : 'presented the wrong invite',
        })
        void refuseStream(lp, stream)
        return
      }
      if (opponent === undefined) {
        opponent = peer
        o.onOpponent?.(peer)
      }
      o.onEvent({ kind: 'connected', peer, relayed: isRelayed(connection), restored: lost, deadline: watch.current })
      lost = false
      channel.attach(lp.unwrap())
      connected()
    },
    { runOnLimitedConnection: true, maxInboundStreams: 4 },
  )
  await node.start()
  const relayWatch = new AbortController()
  const outside = (): void => {
    relayWatch.abort()
  }
  o.signal?.addEventListener('abort', outside, { once: true })
  try {
    await reserveOnRelays(node, relays, o.onEvent, relayWatch.signal)
    o.signal?.throwIfAborted()
    o.onEvent({ kind: 'listening', addrs: node.getMultiaddrs().map(String) })
    await o.onReady?.(node)
    o.signal?.throwIfAborted()
    if (opponent === undefined) {
      let timer: NodeJS.Timeout | undefined
      const waited = await Promise.race([
        firstJoin.then(() => 'joined' as const),
        new Promise<'timeout'>((r) => {
          timer = setTimeout(() => {
            r('timeout')
          }, o.waitMs).unref()
        }),
        new Promise<'aborted'>((r) => {
          relayWatch.signal.addEventListener(
            'abort',
            () => {
              r('aborted')
            },
            { once: true },
          )
        }),
      ])
      clearTimeout(timer)
      if (waited === 'aborted') o.signal?.throwIfAborted()
      if (waited === 'timeout') throw new NobodyJoinedError(o.waitMs)
    }
  } catch (e) {
    relayWatch.abort()
    o.signal?.removeEventListener('abort', outside)
    await node.stop()
    throw e
  }
  const known = opponent
  if (known === undefined) throw new Error('unreachable: no opponent after the first join')
  try {
    const rematched = (id: string): void => {
      earlier.push(serving)
      serving = id
    }
    return await finish(
      node,
      channel,
      playGames(o, watch, channel, o.side ?? 'A', o.terms, o.inviteId, keyOf(known), rematched),
    )
  } finally {
    relayWatch.abort()
    o.signal?.removeEventListener('abort', outside)
  }
}

/** Joins a game from its invite: dials the host (directly or through its relays), plays as B. */
export async function joinGame(options: JoinOptions): Promise<SessionResult> {
  options.signal?.throwIfAborted()
  const o = { ...options, onEvent: logged(options.onEvent) }
  const invite = o.invite
  const relayPeers = [...relaysOf(invite.addrs), ...peerIdsOf(o.relays ?? [])]
  const node = await createPeerNode({
    identity: o.identity,
    listen: o.listen,
    admission: () => new Set([invite.peer, ...relayPeers]),
    onRefused: (peer) => {
      o.onEvent({ kind: 'refused', peer, why: 'not the host of this game' })
    },
  })
  o.onOpponent?.(invite.peer)
  const hostAddrs = invite.addrs.map((a) => multiaddr(a))
  let dialing = false
  let lost = false
  // SPEC §2.3, §2.4: the invite id this side presents on a new stream; a rematch moves it on.
  let serving = invite.id
  const watch = new DeadlineWatch()
  const pacer = new DialPacer(systemClock, () => watch.left())
  const dialling = new AbortController()
  /**
   * The stream attached now. It is said to be connected only once the host admits it (SPEC §2.3:
   * a frame other than a refusal, or ADMISSION_GRACE_MS without one), so a refused stream prints
   * neither "restored" nor "lost".
   */
  interface Attached {
    readonly relayed: boolean
    admitted: boolean
    refused: boolean
    timer?: NodeJS.Timeout
  }
  let attached: Attached | undefined
  const admit = (a: Attached | undefined): void => {
    if (a === undefined || attached !== a || a.admitted || a.refused) return
    a.admitted = true
    clearTimeout(a.timer)
    pacer.admitted()
    o.onEvent({ kind: 'connected', peer: invite.peer, relayed: a.relayed, restored: lost, deadline: watch.current })
    lost = false
  }
  const raw: StreamChannel = streamChannel({
    maxFrameBytes: LIMITS.frameBytes,
    onDetach: () => {
      const a = attached
      attached = undefined
      clearTimeout(a?.timer)
      if (a?.admitted === true) {
        lost = true
        if (!watch.finishing) o.onEvent({ kind: 'disconnected', deadline: watch.current })
      } else if (a?.refused !== true) pacer.failed()
      void redial()
    },
  })
  /** What the games read: a refusal never reaches them (SPEC §2.3); any other frame shows the stream admitted and the game served. */
  const channel: StreamChannel = {
    get attached() {
      return raw.attached
    },
    get closed() {
      return raw.closed
    },
    attach: (stream) => {
      raw.attach(stream)
    },
    send: (frame) => raw.send(frame),
    close: () => {
      raw.close()
    },
    flushed: () => raw.flushed(),
    async receive(signal) {
      for (;;) {
        const r = await raw.receive(signal)
        if (r.kind !== 'frame') return r
        const said = refusalOf(r.bytes)
        if (said === undefined) {
          admit(attached)
          pacer.served()
          return r
        }
        if (attached !== undefined && !attached.admitted) attached.refused = true
        const wait = pacer.refusedStream()
        o.onEvent({
          kind: 'redial-failed',
          detail: `the host refused the invite${said === '' ? '' : ` ("${said}")`}; ${pacer.gaveUp ? 'giving up' : `again in ${wait} ms`}`,
        })
        // The session fails on this without signing a stop (SPEC §2.3); the game stays resumable.
        if (pacer.gaveUp) throw new NotServedError(serving, pacer.refused, said)
      }
    },
  }
  offerChat(o, channel)
  const dialOnce = async (): Promise<void> => {
    const stream = await node.dialProtocol(hostAddrs, PROTOCOL_ID, {
      runOnLimitedConnection: true,
      signal: AbortSignal.any([dialling.signal, AbortSignal.timeout(15_000)]),
    })
    await lpStream(stream, { maxDataLength: PREAMBLE_MAX_BYTES }).write(preamble(serving))
    const connection = node.getConnections(peerIdFromString(invite.peer)).find((c) => c.streams.includes(stream))
    if (connection === undefined) throw new Error('the stream has no connection')
    const a: Attached = { relayed: isRelayed(connection), admitted: false, refused: false }
    attached = a
    a.timer = setTimeout(() => {
      admit(a)
    }, ADMISSION_GRACE_MS)
    channel.attach(stream)
  }
  /** Redials, paced by `pacer`, until a stream is attached, the game is over, or the host refused too often. */
  const redial = async (): Promise<void> => {
    if (dialing) return
    dialing = true
    try {
      for (;;) {
        await pacer.ready(dialling.signal)
        if (channel.closed || channel.attached || pacer.gaveUp || dialling.signal.aborted) return
        try {
          await dialOnce()
        } catch (e) {
          o.onEvent({ kind: 'redial-failed', detail: (e as Error).message })
          pacer.failed()
        }
      }
    } finally {
      dialing = false
    }
  }
  await node.start()
  await dialRelays(node, o.relays ?? [])
  o.onEvent({ kind: 'listening', addrs: node.getMultiaddrs().map(String) })
  await o.onReady?.(node)
  void redial()
  try {
    return await finish(
      node,
      channel,
      playGames(o, watch, channel, o.side ?? 'B', invite.terms, invite.id, keyOf(invite.peer), (id) => (serving = id)),
    )
  } finally {
    dialling.abort()
    clearTimeout(attached?.timer)
  }
}
