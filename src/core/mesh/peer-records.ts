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
 * is a hint, never evidence: nothing in it is persisted, signed or judged. What a hostile peer can
 * cost a node is bounded (found by an adversarial pass): the envelope's key must be the subject's
 * roster key before any signature is checked (an RSA key in it had made each check 30 times
 * dearer), a record no newer than the one held costs nothing, and each peer gets at most
 * `RECORD_CHECKS_PER_PEER · n` signature checks per `RECORD_WINDOW_MS` whatever its streams (the
 * budget had been per stream, and streams are not limited: honest restarts used it up).
 */
import type { Address, Libp2p, PeerId } from '@libp2p/interface'
import { peerIdFromString } from '@libp2p/peer-id'
import { multiaddr } from '@multiformats/multiaddr'
import { PeerRecord, RecordEnvelope } from '@libp2p/peer-record'
import { equalBytes } from '../commit/bytes.js'
import type { Logger } from '../log.js'
import type { Clock } from '../session/clock.js'
import type { MeshNode } from './node.js'

/** The control kind of a peer record on the mesh (SPAAACE-PEERS.md §8; SPEC §2.4's kinds end at 6). */
export const CONTROL_PEER_RECORD = 7
/** §10 `MAX_PEER_RECORD`: the largest signed record passed on (16 addresses of a relay circuit fit). */
export const MAX_PEER_RECORD = 2048
/** §10: the most addresses of one record stored (the first, in the record's order). */
export const MAX_RECORD_ADDRESSES = 16
/** §10: signature checks a node spends on one peer's records, per roster peer, per window. */
export const RECORD_CHECKS_PER_PEER = 2
/** §10: the window of that budget, and the least time between two full resends to one peer. */
export const RECORD_WINDOW_MS = 10_000

export type RecordFrameError = 'record.kind' | 'record.length' | 'record.subject' | 'record.too-large'

/** Why a record was refused once its frame read: before its signature, or by it, or for the budget. */
export type RecordError = 'record.decode' | 'record.key' | 'record.budget' | 'record.signature'

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

/**
 * The record in `bytes`, decoded, of `expected` (whose Ed25519 key is `key`): the payload type a
 * routing record's, the envelope's key the roster key, the record's PeerId the subject's. Checks
 * no signature (`validate` does, once this passes). Never throws.
 */
function decodeRecord(
  bytes: Uint8Array,
  expected: PeerId,
  key: Uint8Array,
): { ok: true; envelope: RecordEnvelope; record: PeerRecord } | { ok: false; code: RecordError; detail: string } {
  let envelope: RecordEnvelope
  let record: PeerRecord
  try {
    envelope = RecordEnvelope.createFromProtobuf(bytes)
    if (!equalBytes(envelope.payloadType, PeerRecord.CODEC))
      return { ok: false, code: 'record.decode', detail: 'not a routing record' }
    if (envelope.publicKey.type !== 'Ed25519' || !equalBytes(envelope.publicKey.raw, key))
      return { ok: false, code: 'record.key', detail: "signed by another key than its subject's" }
    record = PeerRecord.createFromProtobuf(envelope.payload)
  } catch (e) {
    return { ok: false, code: 'record.decode', detail: (e as Error).message }
  }
  if (!record.peerId.equals(expected)) return { ok: false, code: 'record.key', detail: 'of another PeerId' }
  return { ok: true, envelope, record }
}

export interface SharePeerRecordsOptions {
  readonly node: Libp2p
  readonly roster: readonly string[]
  readonly self: number
  readonly mesh: MeshNode
  /** Whether a stream with roster peer `i` is up now. */
  readonly attached: (i: number) => boolean
  /** The invite's addresses of roster peer `i`, kept beside a record's when it replaces them. */
  readonly hints?: (i: number) => readonly string[]
  readonly clock: Clock
  readonly signal: AbortSignal
  readonly log: Logger
}

/** What the sharing did: the tests read it. */
export interface PeerRecordSharing {
  /** Records verified and stored, by subject. */
  readonly learned: ReadonlyMap<number, number>
  /** Record frames refused, by why. */
  readonly refused: ReadonlyMap<string, number>
  /** Signature checks spent, by the peer that sent the record. */
  readonly checks: ReadonlyMap<number, number>
}

/** Passes on every roster peer's signed record along the mesh, and stores those received. */
export function sharePeerRecords(o: SharePeerRecordsOptions): PeerRecordSharing {
  const { node, roster, self, mesh, clock, signal, log } = o
  const n = roster.length
  const ids = roster.map((id) => peerIdFromString(id))
  const keys = ids.map((id) => id.publicKey?.raw ?? new Uint8Array())
  const indexOf = new Map(roster.map((id, i) => [id, i]))
  /** The newest record held of each subject (never this node's own: identify sends that). */
  const records = new Map<number, { seq: bigint; bytes: Uint8Array }>()
  /** What each peer holds of each subject, by seq: sent to it, or received from it. */
  const sent = new Map<number, Map<number, bigint>>()
  /** When each peer was last sent every record afresh (a new stream), and whether one waits. */
  const fullAt = new Map<number, number>()
  const fullDue = new Set<number>()
  /** Signature checks spent on each peer's records in the current window. */
  const budget = new Map<number, { from: number; used: number }>()
  const learned = new Map<number, number>()
  const refused = new Map<string, number>()
  const checks = new Map<number, number>()
  const refuse = (from: number, why: string, detail: string): void => {
    refused.set(why, (refused.get(why) ?? 0) + 1)
    log('refused a peer record from %d: %s (%s)', from, why, detail)
  }
  const heldBy = (peer: number): Map<number, bigint> => {
    const m = sent.get(peer) ?? new Map<number, bigint>()
    sent.set(peer, m)
    return m
  }

  const sendTo = (peer: number): void => {
    if (signal.aborted || !o.attached(peer)) return
    const mine = heldBy(peer)
    for (const [subject, r] of records) {
      if (subject === peer || (mine.get(subject) ?? -1n) >= r.seq) continue
      mine.set(subject, r.seq)
      mesh.sendControl(peer, peerRecordControl(subject, r.bytes))
    }
  }
  const sendAll = (): void => {
    for (let p = 0; p < n; p++) if (p !== self) sendTo(p)
  }
  /** A new stream: the peer may have restarted, so it gets every record again, once a window. */
  const sendAfresh = (peer: number): void => {
    const now = clock.now()
    const last = fullAt.get(peer)
    if (last === undefined || now - last >= RECORD_WINDOW_MS) {
      fullAt.set(peer, now)
      sent.delete(peer)
      sendTo(peer)
      return
    }
    if (fullDue.has(peer)) return
    fullDue.add(peer)
    void clock
      .sleep(last + RECORD_WINDOW_MS - now, signal)
      .then(() => {
        fullDue.delete(peer)
        sendAfresh(peer)
      })
      .catch(() => undefined)
  }
  /** Whether `from` may have one more signature check spent on its records now. */
  const spend = (from: number): boolean => {
    const now = clock.now()
    const b = budget.get(from)
    if (b === undefined || now - b.from >= RECORD_WINDOW_MS) {
      budget.set(from, { from: now, used: 1 })
      return true
    }
    if (b.used >= RECORD_CHECKS_PER_PEER * n) return false
    b.used++
    return true
  }
  /** Keeps a verified record if it is newer than the one held; true if it was. */
  const keep = (subject: number, seq: bigint, bytes: Uint8Array): boolean => {
    const held = records.get(subject)
    if (held !== undefined && held.seq >= seq) return false
    records.set(subject, { seq, bytes: bytes.slice() })
    return true
  }

  // A roster peer met directly: its own record, as identify stored it (and checked), is passed on.
  const onIdentify = (evt: CustomEvent<{ peerId: PeerId }>): void => {
    const subject = indexOf.get(evt.detail.peerId.toString())
    if (subject === undefined || subject === self) return
    void (async () => {
      try {
        const peer = await node.peerStore.get(evt.detail.peerId)
        const bytes = peer.peerRecordEnvelope
        if (bytes === undefined || bytes.length > MAX_PEER_RECORD) return
        const d = decodeRecord(bytes, evt.detail.peerId, keys[subject] ?? new Uint8Array())
        if (!d.ok || (records.get(subject)?.seq ?? -1n) >= d.record.seqNumber) return
        if (!(await d.envelope.validate(PeerRecord.DOMAIN))) return
        if (keep(subject, d.record.seqNumber, bytes)) sendAll()
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

  /** A newer verified record replaces the subject's addresses (old ones would be dialled first), the invite's kept. */
  const store = async (subject: number, record: PeerRecord): Promise<void> => {
    const certified: Address[] = record.multiaddrs
      .slice(0, MAX_RECORD_ADDRESSES)
      .map((multiaddr) => ({ multiaddr, isCertified: true }))
    const hinted: Address[] = (o.hints?.(subject) ?? []).map((a) => ({ multiaddr: multiaddr(a), isCertified: false }))
    await node.peerStore.patch(ids[subject] as PeerId, { addresses: [...certified, ...hinted] })
  }

  /**
   * Over budget, a peer's frame of each subject with the greatest `seq` waits for the window's end
   * rather than being lost (its sender counts it as held, and an honest one will not send it again);
   * at the end it is received again, and its check counts in the new window.
   */
  const waiting = new Map<number, Map<number, { seq: bigint; bytes: Uint8Array }>>()
  const wait = (from: number, subject: number, seq: bigint, bytes: Uint8Array): void => {
    const mine = waiting.get(from)
    if (mine !== undefined) {
      if ((mine.get(subject)?.seq ?? -1n) < seq) mine.set(subject, { seq, bytes: bytes.slice() })
      return
    }
    waiting.set(from, new Map([[subject, { seq, bytes: bytes.slice() }]]))
    const until = (budget.get(from)?.from ?? clock.now()) + RECORD_WINDOW_MS
    void clock
      .sleep(Math.max(0, until - clock.now()), signal)
      .then(() => {
        const due = waiting.get(from)
        waiting.delete(from)
        if (signal.aborted || due === undefined) return
        for (const w of due.values()) receive(from, w.bytes)
      })
      .catch(() => undefined)
  }

  const receive = (from: number, bytes: Uint8Array): void => {
    const frame = readPeerRecordControl(bytes, n, self, from)
    if (!frame.ok) {
      refuse(from, frame.code, frame.detail)
      return
    }
    const subject = frame.subject
    const d = decodeRecord(frame.record, ids[subject] as PeerId, keys[subject] ?? new Uint8Array())
    if (!d.ok) {
      refuse(from, d.code, d.detail)
      return
    }
    const seq = d.record.seqNumber
    // The sender holds this one (or says so): never echoed back to it.
    const theirs = heldBy(from)
    if ((theirs.get(subject) ?? -1n) < seq) theirs.set(subject, seq)
    // No newer than the one held: nothing to check, nothing spent.
    const held = records.get(subject)?.seq ?? -1n
    if (held >= seq) {
      if (held > seq) sendTo(from)
      return
    }
    if (!spend(from)) {
      refuse(from, 'record.budget', `over ${RECORD_CHECKS_PER_PEER * n} checks in ${RECORD_WINDOW_MS} ms`)
      wait(from, subject, seq, bytes)
      return
    }
    checks.set(from, (checks.get(from) ?? 0) + 1)
    const bytesHeld = frame.record.slice()
    void (async () => {
      let valid = false
      try {
        valid = await d.envelope.validate(PeerRecord.DOMAIN)
      } catch (e) {
        log('a record check failed: %s', (e as Error).message)
      }
      if (!valid) {
        refuse(from, 'record.signature', `a record of ${subject} its key did not sign`)
        return
      }
      if (signal.aborted || !keep(subject, seq, bytesHeld)) return
      // Passed on even if this node could not store its addresses: the record is as good for the others.
      sendAll()
      try {
        await store(subject, d.record)
      } catch (e) {
        log('could not store the record of %d: %s', subject, (e as Error).message)
        return
      }
      learned.set(subject, (learned.get(subject) ?? 0) + 1)
      log('learned %d addresses of %d from %d', d.record.multiaddrs.length, subject, from)
    })()
  }

  mesh.listen({
    stream: (peer) => {
      sendAfresh(peer)
    },
    control: (from, bytes) => {
      if (bytes[0] === CONTROL_PEER_RECORD) receive(from, bytes)
    },
  })
  return { learned, refused, checks }
}
