/**
 * SPAAACE-WITNESSED §5.1, §5.3, §5.4, §6.1, §3, §9.1: the n-player decoders never throw on
 * arbitrary bytes and answer with coded errors naming a field; encode∘decode is the identity.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decodeComplaint, encodeComplaint } from '../../../../src/core/notary/complaint.js'
import { decodeHeader } from '../../../../src/core/notary/header.js'
import { decodeRequest, decodeResponse, encodeRequest, encodeResponse } from '../../../../src/core/notary/messages.js'
import { decodeReceipt } from '../../../../src/core/notary/receipt.js'
import { decodeRelay, encodeRelay } from '../../../../src/core/notary/relay.js'
import {
  SPAAACE_LAYOUT,
  SPAAACE_NOTARY_PROTOCOL,
  decodeGenesisBody,
  givesGame,
} from '../../../../src/games/spaaace/witness/index.js'
import { ChainBuilder, encodeH, submissionOfW, witnessed } from './fixtures.js'

const w = witnessed(3)
const coded = (r: { ok: boolean; error?: { code: string; field: string } }): boolean =>
  r.ok || (typeof r.error?.code === 'string' && typeof r.error.field === 'string')
const RUNS = { numRuns: 300 }

describe('SPAAACE-WITNESSED decoders on hostile bytes', () => {
  it('header, complaint, relay, receipt, genesis body, requests, responses: never throw, coded errors', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 400 }), (b) => {
        for (const r of [
          decodeHeader(b, SPAAACE_LAYOUT),
          decodeComplaint(b, SPAAACE_LAYOUT),
          decodeRelay(b),
          decodeReceipt(b, SPAAACE_LAYOUT),
          decodeGenesisBody(b),
          givesGame(b, w.genesis.game),
          decodeRequest(b, SPAAACE_NOTARY_PROTOCOL),
          decodeResponse(b, SPAAACE_NOTARY_PROTOCOL),
        ])
          expect(coded(r)).toBe(true)
      }),
      RUNS,
    )
  })

  it('one byte changed in a valid header, mark receipt or genesis receipt: never throws, coded', () => {
    const s = submissionOfW(w, 1, 1)
    const b = new ChainBuilder(w.genesis.game)
    const genesis = b.add({ kind: 'genesis-body', body: w.body }, 1)
    const mark = b.add({ kind: 'mark', t: 1, cut: 1 }, 2)
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 1, max: 255 }), (at, x) => {
        for (const [bytes, decode] of [
          [s.header, (v: Uint8Array) => decodeHeader(v, SPAAACE_LAYOUT)],
          [genesis, (v: Uint8Array) => decodeReceipt(v, SPAAACE_LAYOUT)],
          [mark, (v: Uint8Array) => decodeReceipt(v, SPAAACE_LAYOUT)],
        ] as const) {
          const v = bytes.slice()
          const i = at % v.length
          v[i] = (v[i] ?? 0) ^ x
          expect(coded(decode(v))).toBe(true)
        }
      }),
      RUNS,
    )
  })

  it('a mark body with t = 0 or cut > 1 is refused naming the field (§6.1)', () => {
    const b = new ChainBuilder(w.genesis.game)
    b.add({ kind: 'genesis-body', body: w.body }, 1)
    const mark = b.add({ kind: 'mark', t: 1, cut: 1 }, 2)
    const zero = mark.slice()
    zero[78] = 0
    zero[79] = 0
    const d = decodeReceipt(zero, SPAAACE_LAYOUT)
    expect(!d.ok && [d.error.code, d.error.field]).toEqual(['field.range', 'body.t'])
    const cut = mark.slice()
    cut[80] = 2
    const c = decodeReceipt(cut, SPAAACE_LAYOUT)
    expect(!c.ok && [c.error.code, c.error.field]).toEqual(['field.range', 'body.cut'])
    expect(mark.length).toBe(145)
  })
})

describe('SPAAACE-WITNESSED round trips', () => {
  it('header, complaint, relay, requests, responses: encode(decode(x)) = x', () => {
    const s = submissionOfW(w, 2, 1)
    const h = decodeHeader(s.header, SPAAACE_LAYOUT)
    expect(h.ok && encodeH(h.value)).toEqual(s.header)
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.integer({ min: 1, max: 0xffffffff }),
        fc.integer({ min: 0, max: 15 }),
        fc.uint8Array({ minLength: 80, maxLength: 80 }),
        fc.integer({ min: 0, max: 0xffff }),
        fc.integer({ min: 0, max: 255 }),
        (game, index, to, wrap, t, cut) => {
          const relay = encodeRelay({ game, index, to, wrap })
          const d = decodeRelay(relay)
          expect(d.ok && encodeRelay(d.value)).toEqual(relay)
          const c = {
            game,
            sender: to,
            index,
            dh: wrap.slice(0, 32),
            proof: new Uint8Array(96).fill(to),
            sig: new Uint8Array(64),
          }
          const dc = decodeComplaint(encodeComplaint(c, SPAAACE_LAYOUT), SPAAACE_LAYOUT)
          expect(dc.ok && dc.value).toEqual(c)
          for (const q of [
            { kind: 'mark', game, t, cut },
            { kind: 'relay', relay },
            { kind: 'relays', game },
            { kind: 'register-genesis', body: w.body },
          ] as const) {
            const dq = decodeRequest(encodeRequest(q), SPAAACE_NOTARY_PROTOCOL)
            expect(dq.ok && dq.value).toEqual(q)
          }
          const a = { kind: 'relays', relays: [{ index, from: to, wrap }] } as const
          const da = decodeResponse(encodeResponse(a), SPAAACE_NOTARY_PROTOCOL)
          expect(da.ok && da.value).toEqual(a)
          const refusal = { kind: 'refused', code: 'relay-repeat', message: 'm' } as const
          const dr = decodeResponse(encodeResponse(refusal), SPAAACE_NOTARY_PROTOCOL)
          expect(dr.ok && dr.value).toEqual(refusal)
        },
      ),
      { numRuns: 100 },
    )
  })

  it("Spaceships' decoders still refuse requests 7-9, response 6 and refusal codes 25-32 (§14)", () => {
    for (const type of [7, 8, 9]) expect(decodeRequest(Uint8Array.of(type)).ok).toBe(false)
    expect(decodeResponse(Uint8Array.of(6, 0, 0)).ok).toBe(false)
    expect(decodeResponse(Uint8Array.of(5, 25, 0, 0)).ok).toBe(false)
    expect(decodeResponse(Uint8Array.of(5, 25, 0, 0), SPAAACE_NOTARY_PROTOCOL).ok).toBe(true)
  })
})
