/**
 * What `hostGame` and `joinGame` share around the session: the net logger, the deadline watched
 * while the stream is down, the session's inputs (the journal and the reporting store wrapped
 * around the caller's), chat, and the end of a game's node.
 */
import type { Connection, Libp2p } from '@libp2p/interface'
import { peerIdFromString } from '@libp2p/peer-id'
import type { SecretSource } from '../../../core/commit/secrets.js'
import type { Identity } from '../../../core/net/identity.js'
import type { StreamChannel } from '../../../core/net/stream-channel.js'
import { componentLogger } from '../../../core/log.js'
import { systemClock } from '../../../core/session/clock.js'
import type { SigningLog } from '../../../core/session/journal.js'
import { decodeEnvelope } from '../protocol/envelope.js'
import type { TranscriptStore } from '../protocol/file.js'
import { encodeControl } from '../protocol/frame.js'
import type { ProtocolVersion, Role } from '../protocol/messages.js'
import { journaledSecrets, journaledSigning, journaledStrategy } from '../session/journal.js'
import type { SessionEvent, SessionResult } from '../session/session.js'
import { verifyEnvelopes } from '../verify/verify.js'
import type { PlayerStrategy } from '../session/strategy.js'
import type { NetEvent, NetGameCommon } from './options.js'

export function offerChat(o: NetGameCommon, channel: StreamChannel): void {
  o.onChat?.((text) => channel.send(encodeControl('chat', text)))
}

const log = componentLogger('net')

/** The caller's event callback, with each event logged (`DEBUG=spaceships:net`). */
export function logged(onEvent: ((e: NetEvent) => void) | undefined): (e: NetEvent) => void {
  return (e) => {
    log('%o', e)
    onEvent?.(e)
  }
}

export const peerIdsOf = (addrs: readonly string[]): string[] =>
  addrs.flatMap((a) => (a.includes('/p2p/') ? [a.slice(a.lastIndexOf('/p2p/') + 5)] : []))

export function keyOf(peer: string): Uint8Array {
  const key = peerIdFromString(peer).publicKey
  if (key === undefined) throw new Error(`${peer} carries no public key`)
  return key.raw
}

/** The deadline the session is waiting on now (either side's), as its `waiting` events state it. */
export class DeadlineWatch {
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

/** The session's options common to both roles, with the journal wrapped around the inputs. */
export function sessionInputs(
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
  outage?: boolean
  signing?: SigningLog
  version?: ProtocolVersion
  name?: string
} {
  const j = o.journal
  return {
    ...(o.settleMs === undefined ? {} : { settleMs: o.settleMs }),
    ...(o.outage === true ? { outage: true } : {}),
    ...(o.version === undefined ? {} : { version: o.version }),
    ...(o.name === undefined ? {} : { name: o.name }),
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

/** Waits for `p`, or at most `ms` (with a ref'd timer, so the process never idles out meanwhile). */
/**
 * Waits for `p` at most `ms`, on a ref'd timer: a libp2p node's stop can wait on sockets whose peer
 * already went, with nothing left for the process to wait on (Node then exits 13 with the
 * command's promise pending).
 */
export async function settledWithin(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined
  await Promise.race([p.catch(() => undefined), new Promise((r) => (timer = setTimeout(r, ms)))])
  clearTimeout(timer)
}

/**
 * A witnessed game's result once its link settled (PROTOCOL-4.md §4.1): the receipts of this side's
 * last envelopes arrive after the session decided, so the result is read again from the store,
 * which is the file a player and a verifier read; the node's verdict and the verifier's then rest
 * on the same evidence.
 */
export function resultAsStored(result: SessionResult, store: TranscriptStore): SessionResult {
  const transcript = store.envelopes()
  if (transcript.length === result.transcript.length) return result
  return { ...result, transcript, verdict: verifyEnvelopes(transcript) }
}

export async function finish(
  node: Libp2p,
  channel: StreamChannel,
  result: Promise<SessionResult>,
): Promise<SessionResult> {
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

export function isRelayed(connection: Connection): boolean {
  return connection.limits !== undefined || connection.remoteAddr.toString().includes('/p2p-circuit')
}
