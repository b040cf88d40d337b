/**
 * Addresses shared along the mesh (protocol/SPAAACE-PEERS.md §8 "Addresses"): each node passes
 * on, in a control frame of kind 7, the libp2p signed peer record (RFC 0002 envelope, RFC 0003
 * routing record) of every roster peer it holds one for, so that players who only knew the host's
 * address from the invite learn each other's and dial each other directly. Without it a game whose
 * joiners have no relay runs through the host's nodes alone, and stalls when the host's process
 * dies.
 *
 * A record is its subject's own signed statement: whoever passes it on cannot change it, so a
 * hostile peer can make a node dial at most the addresses a roster peer itself announced. A record
 * is a hint, never evidence: nothing in it is persisted, signed or judged. Addresses are merged
 * into the peer store (never replace the invite's hints there), and each stream carries at most
 * `2·n` records a way, so a peer flooding them costs a signature check each, bounded per stream.
 */
import type { Libp2p, PeerId } from '@libp2p/interface'
import { peerIdFromPublicKey, peerIdFromString } from '@libp2p/peer-id'
import { PeerRecord, RecordEnvelope } from '@libp2p/peer-record'
import { equalBytes } from '../commit/bytes.js'
import type { Logger } from '../log.js'
import type { MeshNode } from './node.js'

/** The control kind of a peer record on the mesh (SPAAACE-PEERS.md §8; SPEC §2.4's kinds end at 6). */
export const CONTROL_PEER_RECORD = 7
/** §10 `MAX_PEER_RECORD`: the largest signed record passed on (16 addresses of a relay circuit fit). */
export const MAX_PEER_RECORD = 2048
/** §10: the most addresses of one record merged into the peer store. */
export const MAX_RECORD_ADDRESSES = 16
/** §10: the records one stream may carry towards a node, per roster peer (a resend after a new record). */
export const RECORDS_PER_STREAM_PER_PEER = 2

export type RecordFrameError = 'record.kind' | 'record.length' | 'record.subject' | 'record.too-large'

export type RecordFrame =
  | { readonly ok: true; readonly subject: number; readonly record: Uint8Array }
  | { readonly ok: false; readonly code: RecordFrameError; readonly detail: string }

/** The control bytes passing on `subject`'s signed record: `u8 7 ‖ u8 subject ‖ record`. */
export function peerRecordControl(subject: number, record: Uint8Array): Uint8Array {
  if (!Number.isInteger(subject) || subject < 0 || subject > 255) throw new Error('a subject is a roster index')
  if (record.length > MAX_PEER_RECORD) throw new Error(`a peer record is at most ${MAX_PEER_RECORD} bytes`)
  const out = new Uint8Array(2 + record.length)
  out[0] = CONTROL_PEER_RECORD
  out[1] = subject
  out.set(record, 2)
  return out
}

/**
 * Reads control bytes as a peer record from roster peer `from` to roster peer `self` of `n`: the
 * subject must be another roster peer than both (a peer's own record comes by identify on the
 * connection itself). Never throws; the record's signature is checked by `sharePeerRecords`.
 */
export function readPeerRecordControl(bytes: Uint8Array, n: number, self: number, from: number): RecordFrame {
  if (bytes[0] !== CONTROL_PEER_RECORD) return { ok: false, code: 'record.kind', detail: `kind ${bytes[0] ?? 'none'}` }
  const subject = bytes[1]
  if (subject === undefined || bytes.length === 2)
    return { ok: false, code: 'record.length', detail: 'a subject and a record' }
  if (bytes.length - 2 > MAX_PEER_RECORD)
    return { ok: false, code: 'record.too-large', detail: `${bytes.length - 2} bytes` }
  if (subject >= n || subject === self || subject === from)
    return { ok: false, code: 'record.subject', detail: `subject ${subject} (self ${self}, from ${from}, ${n} peers)` }
  return { ok: true, subject, record: bytes.subarray(2) }
}

/** The verified record of `expected`, or why not. */
async function openRecord(
  bytes: Uint8Array,
  expected: PeerId,
): Promise<{ ok: true; record: PeerRecord } | { ok: false; detail: string }> {
  try {
    const envelope = await RecordEnvelope.openAndCertify(bytes, PeerRecord.DOMAIN)
    if (!equalBytes(envelope.payloadType, PeerRecord.CODEC)) return { ok: false, detail: 'not a peer record' }
    const record = PeerRecord.createFromProtobuf(envelope.payload)
    if (!record.peerId.equals(expected) || !peerIdFromPublicKey(envelope.publicKey).equals(expected))
      return { ok: false, detail: 'signed by another key than its subject' }
    return { ok: true, record }
  } catch (e) {
    return { ok: false, detail: (e as Error).message }
  }
}

export interface SharePeerRecordsOptions {
  readonly node: Libp2p
  readonly roster: readonly string[]
  readonly self: number
  readonly mesh: MeshNode
  /** Whether a stream with roster peer `i` is up now. */
  readonly attached: (i: number) => boolean
  readonly signal: AbortSignal
  readonly log: Logger
}

/** What the sharing did: the tests read it. */
export interface PeerRecordSharing {
  /** Records verified and merged, by subject. */
  readonly learned: ReadonlyMap<number, number>
  /** Record frames refused, by why. */
  readonly refused: ReadonlyMap<string, number>
}

/** Passes on every roster peer's signed record along the mesh, and merges those received. */
export function sharePeerRecords(o: SharePeerRecordsOptions): PeerRecordSharing {
  const { node, roster, self, mesh, signal, log } = o
  const n = roster.length
  const ids = roster.map((id) => peerIdFromString(id))
  const indexOf = new Map(roster.map((id, i) => [id, i]))
  /** The newest record held of each subject (never this node's own: identify sends that). */
  const records = new Map<number, { seq: bigint; bytes: Uint8Array }>()
  /** What each peer was last sent of each subject, by seq; cleared on a new stream. */
  const sent = new Map<number, Map<number, bigint>>()
  /** Record frames each peer sent on its current stream. */
  const received = new Map<number, number>()
  const learned = new Map<number, number>()
  const refused = new Map<string, number>()
  const refuse = (from: number, why: string, detail: string): void => {
    refused.set(why, (refused.get(why) ?? 0) + 1)
    log('refused a peer record from %d: %s (%s)', from, why, detail)
  }

  const sendTo = (peer: number): void => {
    if (signal.aborted || !o.attached(peer)) return
    const mine = sent.get(peer) ?? new Map<number, bigint>()
    sent.set(peer, mine)
    for (const [subject, r] of records) {
      if (subject === peer || mine.get(subject) === r.seq) continue
      mine.set(subject, r.seq)
      mesh.sendControl(peer, peerRecordControl(subject, r.bytes))
    }
  }
  const sendAll = (): void => {
    for (let p = 0; p < n; p++) if (p !== self) sendTo(p)
  }
  /** Keeps `bytes` as `subject`'s record if it is newer than the one held; true if it was. */
  const keep = (subject: number, record: PeerRecord, bytes: Uint8Array): boolean => {
    const held = records.get(subject)
    if (held !== undefined && held.seq >= record.seqNumber) return false
    records.set(subject, { seq: record.seqNumber, bytes: bytes.slice() })
    return true
  }

  // A roster peer met directly: its own record, as identify stored it, is passed on.
  const onIdentify = (evt: CustomEvent<{ peerId: PeerId }>): void => {
    const subject = indexOf.get(evt.detail.peerId.toString())
    if (subject === undefined || subject === self) return
    void (async () => {
      try {
        const peer = await node.peerStore.get(evt.detail.peerId)
        const bytes = peer.peerRecordEnvelope
        if (bytes === undefined || bytes.length > MAX_PEER_RECORD) return
        const opened = await openRecord(bytes, evt.detail.peerId)
        if (opened.ok && keep(subject, opened.record, bytes)) sendAll()
      } catch (e) {
        log('no record of %d after identify: %s', subject, (e as Error).message)
      }
    })()
  }
  node.addEventListener('peer:identify', onIdentify)
  signal.addEventListener(
    'abort',
    () => {
      node.removeEventListener('peer:identify', onIdentify)
    },
    { once: true },
  )

  mesh.listen({
    stream: (peer) => {
      sent.delete(peer)
      received.delete(peer)
      sendTo(peer)
    },
    control: (from, bytes) => {
      if (bytes[0] !== CONTROL_PEER_RECORD) return
      const frame = readPeerRecordControl(bytes, n, self, from)
      if (!frame.ok) {
        refuse(from, frame.code, frame.detail)
        return
      }
      const count = (received.get(from) ?? 0) + 1
      received.set(from, count)
      if (count > RECORDS_PER_STREAM_PER_PEER * n) {
        refuse(from, 'record.budget', `${count} records on one stream`)
        return
      }
      const subject = frame.subject
      const bytesHeld = frame.record.slice()
      void (async () => {
        const expected = ids[subject]
        if (expected === undefined) return
        const opened = await openRecord(bytesHeld, expected)
        if (!opened.ok) {
          refuse(from, 'record.signature', opened.detail)
          return
        }
        if (signal.aborted || !keep(subject, opened.record, bytesHeld)) return
        const addrs = opened.record.multiaddrs.slice(0, MAX_RECORD_ADDRESSES)
        try {
          // Merged, not patched: the invite's hints (a relay circuit among them) stay beside it.
          await node.peerStore.merge(expected, { multiaddrs: addrs })
        } catch (e) {
          log('could not store the record of %d: %s', subject, (e as Error).message)
          return
        }
        learned.set(subject, (learned.get(subject) ?? 0) + 1)
        log('learned %d addresses of %d from %d', addrs.length, subject, from)
        sendAll()
      })()
    },
  })
  return { learned, refused }
}
