/**
 * The peer-record control frame of the mesh (SPAAACE-PEERS.md §8 "Addresses", §10
 * `MAX_PEER_RECORD`): its layout, and a reader that refuses, never throws, on any bytes.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import {
  CONTROL_PEER_RECORD,
  MAX_PEER_RECORD,
  peerRecordControl,
  readPeerRecordControl,
} from '../../src/core/mesh/peer-records.js'

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
