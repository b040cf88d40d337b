/**
 * The peer-record control frame of the mesh (SPAAACE-PEERS.md §8 "Addresses", §10
 * `MAX_PEER_RECORD`): its layout, a reader that refuses, never throws, on any bytes, and the
 * sharing's bounds.
 */
import type { Address, Libp2p, PeerId } from '@libp2p/interface'
import { PeerRecord, RecordEnvelope } from '@libp2p/peer-record'
import { multiaddr } from '@multiformats/multiaddr'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { componentLogger } from '../../src/core/log.js'
import type { MeshListener, MeshNode } from '../../src/core/mesh/node.js'
import {
  CONTROL_PEER_RECORD,
  MAX_PEER_RECORD,
  RECORD_CHECKS_PER_PEER,
  RECORD_WINDOW_MS,
  peerRecordControl,
  readPeerRecordControl,
  sharePeerRecords,
} from '../../src/core/mesh/peer-records.js'
import { ephemeralIdentity } from '../../src/core/net/identity.js'
import { VirtualClock } from '../../src/core/session/clock.js'

describe('peer-record control frames (SPAAACE-PEERS §8 Addresses)', () => {
  it('is u8 7 ‖ u8 subject ‖ record, and reads back', () => {
    const bytes = peerRecordControl(2, Uint8Array.of(9, 8, 7))
    expect([...bytes]).toEqual([CONTROL_PEER_RECORD, 2, 9, 8, 7])
    const r = readPeerRecordControl(bytes, 4, 0, 1)
    expect(r.ok && r.subject === 2 && [...r.record]).toEqual([9, 8, 7])
  })

  it('refuses a subject off the roster, the receiver itself, the sender, an empty or oversized record', () => {
    const rec = Uint8Array.of(1)
    expect(readPeerRecordControl(peerRecordControl(4, rec), 4, 0, 1)).toMatchObject({
      ok: false,
      code: 'record.subject',
    })
    expect(readPeerRecordControl(peerRecordControl(0, rec), 4, 0, 1)).toMatchObject({
      ok: false,
      code: 'record.subject',
    })
    expect(readPeerRecordControl(peerRecordControl(1, rec), 4, 0, 1)).toMatchObject({
      ok: false,
      code: 'record.subject',
    })
    expect(readPeerRecordControl(Uint8Array.of(7, 2), 4, 0, 1)).toMatchObject({ ok: false, code: 'record.length' })
    expect(readPeerRecordControl(Uint8Array.of(7), 4, 0, 1)).toMatchObject({ ok: false, code: 'record.length' })
    expect(readPeerRecordControl(Uint8Array.of(1, 2, 3), 4, 0, 1)).toMatchObject({ ok: false, code: 'record.kind' })
    const big = new Uint8Array(2 + MAX_PEER_RECORD + 1)
    big[0] = 7
    big[1] = 2
    expect(readPeerRecordControl(big, 4, 0, 1)).toMatchObject({ ok: false, code: 'record.too-large' })
    expect(() => peerRecordControl(2, new Uint8Array(MAX_PEER_RECORD + 1))).toThrow()
  })

  it('never throws, and accepts exactly the frames of the layout (fast-check)', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ maxLength: 40 }),
        fc.integer({ min: 1, max: 16 }),
        fc.nat(16),
        fc.nat(16),
        (bytes, n, self, from) => {
          const r = readPeerRecordControl(bytes, n, self, from)
          const valid =
            bytes[0] === CONTROL_PEER_RECORD &&
            bytes.length > 2 &&
            bytes[1]! < n &&
            bytes[1] !== self &&
            bytes[1] !== from
          expect(r.ok).toBe(valid)
        },
      ),
    )
  })
})

/**
 * The sharing's policy against a hostile roster peer and under honest churn (found by an
 * adversarial pass): a fake libp2p node (its peer store) and mesh (its sends and listener), real
 * signed records, the injected clock.
 */
describe('sharing peer records (SPAAACE-PEERS §8 Addresses, §10 record checks)', () => {
  const n = 3
  const self = 2

  async function setup() {
    const identities = await Promise.all(Array.from({ length: n }, () => ephemeralIdentity()))
    const roster = identities.map((i) => i.peerId.toString())
    const clock = new VirtualClock(1_000_000)
    const sent: { peer: number; subject: number; seq: bigint }[] = []
    const patched: { peer: string; addrs: string[]; certified: boolean[] }[] = []
    let listener: MeshListener | undefined
    const mesh = {
      listen: (l: MeshListener) => {
        listener = l
      },
      sendControl: (peer: number, bytes: Uint8Array) => {
        const r = readPeerRecordControl(bytes, n, peer, self)
        if (!r.ok) throw new Error(r.detail)
        const env = RecordEnvelope.createFromProtobuf(r.record)
        sent.push({ peer, subject: r.subject, seq: PeerRecord.createFromProtobuf(env.payload).seqNumber })
      },
    } as unknown as MeshNode
    const node = {
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      peerStore: {
        patch: (id: PeerId, data: { addresses: Address[] }) => {
          patched.push({
            peer: id.toString(),
            addrs: data.addresses.map((a) => a.multiaddr.toString()),
            certified: data.addresses.map((a) => a.isCertified),
          })
          return Promise.resolve()
        },
      },
    } as unknown as Libp2p
    const life = new AbortController()
    const sharing = sharePeerRecords({
      node,
      roster,
      self,
      mesh,
      attached: () => true,
      hints: (i) => (i === 0 ? ['/ip4/198.51.100.7/tcp/4001'] : []),
      clock,
      signal: life.signal,
      log: componentLogger('test:records'),
    })
    const hear = listener
    if (hear?.control === undefined || hear.stream === undefined) throw new Error('no listener')
    const record = async (subject: number, seq: bigint, port: number, key = identities[subject]!.privateKey) =>
      (
        await RecordEnvelope.seal(
          new PeerRecord({
            peerId: identities[subject]!.peerId,
            multiaddrs: [multiaddr(`/ip4/127.0.0.1/tcp/${port}`)],
            seqNumber: seq,
          }),
          key,
        )
      ).marshal()
    /** Delivers a record frame from `from`, and lets its signature check finish. */
    const deliver = async (from: number, subject: number, bytes: Uint8Array) => {
      hear.control!(from, peerRecordControl(subject, bytes))
      for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r))
    }
    return { identities, clock, sent, patched, sharing, hear, record, deliver, life }
  }

  it('checks the key before the signature: a record carrying another key costs no check', async () => {
    const s = await setup()
    const stranger = await ephemeralIdentity()
    await s.deliver(0, 1, await s.record(1, 5n, 4001, stranger.privateKey))
    expect(s.sharing.refused.get('record.key')).toBe(1)
    expect(s.sharing.checks.size).toBe(0)
    expect(s.patched).toEqual([])
    s.life.abort()
  })

  it("a newer record replaces its subject's addresses, certified, the invite's kept; an older or equal one costs nothing", async () => {
    const s = await setup()
    await s.deliver(1, 0, await s.record(0, 10n, 4001))
    expect(s.patched).toEqual([
      {
        peer: s.identities[0]!.peerId.toString(),
        addrs: ['/ip4/127.0.0.1/tcp/4001', '/ip4/198.51.100.7/tcp/4001'],
        certified: [true, false],
      },
    ])
    await s.deliver(1, 0, await s.record(0, 10n, 4002))
    await s.deliver(1, 0, await s.record(0, 9n, 4003))
    expect(s.sharing.checks.get(1)).toBe(1)
    expect(s.patched).toHaveLength(1)
    s.life.abort()
  })

  it('honest churn: each newer record is checked once, never echoed to its sender, and one over the budget waits, never lost', async () => {
    const s = await setup()
    // A new record of 1 every 2 s (5 a window, within 2·n = 6), each sent twice by the host.
    for (let k = 1; k <= 12; k++) {
      const bytes = await s.record(1, BigInt(k), 4000 + k)
      await s.deliver(0, 1, bytes)
      await s.deliver(0, 1, bytes)
      s.clock.advance(2_000)
    }
    expect([...s.sharing.refused]).toEqual([])
    expect(s.sharing.learned.get(1)).toBe(12)
    expect(s.sharing.checks.get(0)).toBe(12)
    // Passed on to 0? Never: 0 sent it. To 1? It is its subject. So nothing went out.
    expect(s.sent).toEqual([])
    // A burst of 8 in one window: 6 checked, the newest of the rest checked when the window ends.
    s.clock.advance(RECORD_WINDOW_MS)
    for (let k = 21; k <= 28; k++) await s.deliver(0, 1, await s.record(1, BigInt(k), 4000 + k))
    expect(s.sharing.refused.get('record.budget')).toBe(2)
    expect(s.patched.at(-1)?.addrs[0]).toBe('/ip4/127.0.0.1/tcp/4026')
    s.clock.advance(RECORD_WINDOW_MS)
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r))
    expect(s.patched.at(-1)?.addrs[0]).toBe('/ip4/127.0.0.1/tcp/4028')
    s.life.abort()
  })

  it('over the budget, the waiting record of a subject is the one with the greatest seq, not the last to come, and its check counts in the next window', async () => {
    const s = await setup()
    for (let k = 1; k <= RECORD_CHECKS_PER_PEER * n; k++) await s.deliver(0, 1, await s.record(1, BigInt(k), 4000 + k))
    expect(s.sharing.checks.get(0)).toBe(RECORD_CHECKS_PER_PEER * n)
    // Two over the budget, the newer first (frames of one subject relayed by two paths arrive out of order).
    await s.deliver(0, 1, await s.record(1, 31n, 4031))
    await s.deliver(0, 1, await s.record(1, 30n, 4030))
    expect(s.sharing.refused.get('record.budget')).toBe(2)
    s.clock.advance(RECORD_WINDOW_MS)
    for (let i = 0; i < 20; i++) await new Promise((r) => setImmediate(r))
    expect(s.patched.at(-1)?.addrs[0]).toBe('/ip4/127.0.0.1/tcp/4031')
    expect(s.sharing.checks.get(0)).toBe(RECORD_CHECKS_PER_PEER * n + 1)
    // That check was the new window's first: RECORD_CHECKS_PER_PEER·n − 1 more fit in it, then none.
    for (let k = 40; k < 40 + RECORD_CHECKS_PER_PEER * n; k++)
      await s.deliver(0, 1, await s.record(1, BigInt(k), 4000 + k))
    expect(s.sharing.checks.get(0)).toBe(2 * RECORD_CHECKS_PER_PEER * n)
    expect(s.sharing.refused.get('record.budget')).toBe(3)
    s.life.abort()
  })

  it('a hostile peer gets at most RECORD_CHECKS_PER_PEER·n checks a window, however many streams it opens', async () => {
    const s = await setup()
    const stranger = await ephemeralIdentity()
    // Records of subject 1 with its key and a broken signature: each newer, so each would cost a check.
    const forged = async (seq: bigint): Promise<Uint8Array> => {
      const good = RecordEnvelope.createFromProtobuf(await s.record(1, seq, 4001))
      const other = RecordEnvelope.createFromProtobuf(await s.record(1, seq, 4001, stranger.privateKey))
      return new RecordEnvelope({
        publicKey: good.publicKey,
        payloadType: good.payloadType,
        payload: good.payload,
        signature: other.signature,
      }).marshal()
    }
    for (let k = 1; k <= 60; k++) {
      s.hear.stream!(0)
      await s.deliver(0, 1, await forged(BigInt(k)))
    }
    expect(s.sharing.checks.get(0)).toBe(RECORD_CHECKS_PER_PEER * n)
    expect(s.sharing.refused.get('record.signature')).toBe(RECORD_CHECKS_PER_PEER * n)
    expect(s.sharing.refused.get('record.budget')).toBe(60 - RECORD_CHECKS_PER_PEER * n)
    // At the window's end the newest frame held back is checked (one), then a new one (one more).
    s.clock.advance(RECORD_WINDOW_MS)
    await s.deliver(0, 1, await forged(100n))
    expect(s.sharing.checks.get(0)).toBe(RECORD_CHECKS_PER_PEER * n + 2)
    s.life.abort()
  })

  it('a new stream gets every record again (its peer may have restarted), at most once a window', async () => {
    const s = await setup()
    await s.deliver(0, 1, await s.record(1, 7n, 4001))
    expect(s.sent).toEqual([])
    s.hear.stream!(0)
    expect(s.sent).toEqual([{ peer: 0, subject: 1, seq: 7n }])
    s.hear.stream!(0)
    s.hear.stream!(0)
    expect(s.sent).toHaveLength(1)
    s.clock.advance(RECORD_WINDOW_MS)
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r))
    expect(s.sent).toEqual([
      { peer: 0, subject: 1, seq: 7n },
      { peer: 0, subject: 1, seq: 7n },
    ])
    s.life.abort()
  })
})
