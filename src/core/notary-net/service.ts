/**
 * The notary on libp2p (NOTARY.md §7.1): one request and one response per stream of
 * NOTARY_PROTOCOL_ID, each length-prefixed (unsigned varint, at most MAX_MESSAGE_BYTES, the
 * limit given to `lpStream` both ways). The requester is the connection's PeerId, authenticated
 * by Noise: its Ed25519 key is what the notary compares with the players' hello keys.
 */
import { identify } from '@libp2p/identify'
import type { Libp2p, PeerId, Stream } from '@libp2p/interface'
import { noise } from '@libp2p/noise'
import { ping } from '@libp2p/ping'
import { tcp } from '@libp2p/tcp'
import { lpStream } from '@libp2p/utils'
import { webSockets } from '@libp2p/websockets'
import { yamux } from '@libp2p/yamux'
import { createLibp2p } from 'libp2p'
import type { Identity } from '../net/identity.js'
import { gaterFor } from '../net/node.js'
import {
  MAX_MESSAGE_BYTES,
  type NotaryProtocol,
  TWO_PLAYER_PROTOCOL,
  decodeRequest,
  encodeResponse,
} from '../notary/messages.js'
import { GroupCommit } from '../notary-service/group-commit.js'
import type { Notary } from '../notary-service/notary.js'
import { type Requester, refusal } from '../notary-service/state.js'
import type { Clock } from '../session/clock.js'
import { describeProtocolError } from '../wire/errors.js'

/** NOTARY.md §7.1: a request must arrive whole within this, and its answer leave within it. */
export const REQUEST_TIMEOUT_MS = 30_000
/** NOTARY.md §7.1: a length prefix is at most 4 bytes (MAX_MESSAGE_BYTES needs 4). */
export const MAX_LENGTH_PREFIX_BYTES = 4
/** NOTARY.md §8: streams of the notary protocol open at once on one connection. */
export const MAX_STREAMS_PER_CONNECTION = 16
/** NOTARY.md §8: connections the notary holds at once. */
export const MAX_CONNECTIONS = 1024
/** PROTOCOL-4.md §4.6: how often the retention sweep runs. */
export const SWEEP_EVERY_MS = 3_600_000

export function requesterOf(peer: PeerId): Requester {
  return { peer: peer.toString(), key: peer.type === 'Ed25519' ? peer.publicKey.raw : undefined }
}

export type NotaryServiceEvent =
  | { readonly kind: 'answered'; readonly peer: string; readonly request: string; readonly answer: string }
  | { readonly kind: 'dropped'; readonly peer: string; readonly why: string }

async function serve(
  stream: Stream,
  peer: PeerId,
  notary: Notary,
  onEvent: (e: NotaryServiceEvent) => void,
  group: GroupCommit | undefined,
  protocol: NotaryProtocol,
): Promise<void> {
  const lp = lpStream(stream, { maxDataLength: MAX_MESSAGE_BYTES, maxLengthLength: MAX_LENGTH_PREFIX_BYTES })
  const from = requesterOf(peer)
  let bytes: Uint8Array
  try {
    bytes = (await lp.read({ signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) })).subarray()
  } catch (e) {
    onEvent({ kind: 'dropped', peer: from.peer, why: `no request read: ${(e as Error).message}` })
    stream.abort(new Error('no request'))
    return
  }
  const q = decodeRequest(bytes, protocol)
  let answer
  try {
    if (!q.ok) answer = refusal('malformed', describeProtocolError(q.error))
    else if (group === undefined) answer = notary.handle(q.value, from)
    else {
      const request = q.value
      // NOTARY.md §8: answered only once the group holding its receipt is committed (group-commit.ts).
      answer = await group.run(() => notary.handle(request, from))
    }
  } catch (e) {
    // The database failed: no receipt was given, and the requester resubmits (NOTARY.md §7.5).
    onEvent({ kind: 'dropped', peer: from.peer, why: `internal: ${(e as Error).message}` })
    stream.abort(new Error('the notary failed'))
    return
  }
  onEvent({
    kind: 'answered',
    peer: from.peer,
    request: q.ok ? q.value.kind : 'malformed',
    answer: answer.kind === 'refused' ? answer.code : answer.kind,
  })
  try {
    await lp.write(encodeResponse(answer), { signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) })
    await stream.close({ signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) })
  } catch {
    stream.abort(new Error('the answer could not be sent'))
  }
}

/**
 * Serves `notary` on `node` under its protocol's id (`protocol`: Spaceships' by default; a notary
 * MAY serve several, one Notary each, SPAAACE-WITNESSED §2: the protocol id selects the
 * registrar). `group` (the default) commits the requests
 * arriving together in one transaction, each answered after it (group-commit.ts); `group: false`,
 * one transaction per receipt, is the bench's baseline.
 */
export async function serveNotary(
  node: Libp2p,
  notary: Notary,
  onEvent: (e: NotaryServiceEvent) => void = () => undefined,
  options: { readonly group?: boolean; readonly protocol?: NotaryProtocol } = {},
): Promise<void> {
  const group = options.group === false ? undefined : new GroupCommit(notary)
  const protocol = options.protocol ?? TWO_PLAYER_PROTOCOL
  await node.handle(
    protocol.id,
    (stream, connection) => serve(stream, connection.remotePeer, notary, onEvent, group, protocol),
    {
      maxInboundStreams: MAX_STREAMS_PER_CONNECTION,
      runOnLimitedConnection: true,
    },
  )
}

/** PROTOCOL-4.md §4.6: sweeps deposits past retention every SWEEP_EVERY_MS until `signal` aborts. */
export async function sweepLoop(
  notary: Notary,
  clock: Clock,
  signal: AbortSignal,
  everyMs = SWEEP_EVERY_MS,
): Promise<void> {
  while (!signal.aborted) {
    notary.sweep()
    await clock.sleep(everyMs, signal)
  }
}

/**
 * A notary's node: TCP and WebSockets, Noise, yamux; anyone may connect (games name it by key).
 * `connectionsPerHostPerSecond` is libp2p's limit on new inbound connections from one host (its
 * default, 5, unless told): the receipt-rate bench raises it, its 64 clients all being on loopback.
 */
export async function createNotaryNode(o: {
  identity: Identity
  listen: readonly string[]
  connectionsPerHostPerSecond?: number
}): Promise<Libp2p> {
  return createLibp2p({
    privateKey: o.identity.privateKey,
    addresses: { listen: [...o.listen] },
    transports: [tcp(), webSockets()],
    connectionEncrypters: [noise()],
    streamMuxers: [yamux()],
    connectionGater: gaterFor(() => 'anyone'),
    connectionManager: {
      maxConnections: MAX_CONNECTIONS,
      ...(o.connectionsPerHostPerSecond === undefined
        ? {}
        : { inboundConnectionThreshold: o.connectionsPerHostPerSecond, maxIncomingPendingConnections: 256 }),
    },
    services: { identify: identify(), ping: ping() },
  })
}
