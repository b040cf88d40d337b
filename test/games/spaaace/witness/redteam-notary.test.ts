/**
 * Red team of the Spaaace! notary (SPAAACE-WITNESSED §5, §6.2, §9): a cheating player who owns its
 * key floods complaints, marks and relays, and sends malformed or mutated requests of every kind.
 * The notary must never throw, and must answer each with §9.2's code in §9.2's order.
 */
import { describe, expect, it } from 'vitest'
import { seededSecrets } from '../../../../src/core/commit/secrets.js'
import { decodeHeader } from '../../../../src/core/notary/header.js'
import {
  type NotaryRequest,
  type NotaryResponse,
  decodeRequest,
  decodeResponse,
  encodeRequest,
  encodeResponse,
} from '../../../../src/core/notary/messages.js'
import { Notary } from '../../../../src/core/notary-service/notary.js'
import type { Requester } from '../../../../src/core/notary-service/state.js'
import { NotaryStore } from '../../../../src/core/notary-service/store.js'
import { VirtualClock } from '../../../../src/core/session/clock.js'
import { SPAAACE_NOTARY_PROTOCOL } from '../../../../src/games/spaaace/witness/domain.js'
import {
  SPAAACE_LAYOUT,
  buildComplaint,
  buildRelay,
  cutTime,
  spaaaceRegistrar,
} from '../../../../src/games/spaaace/witness/index.js'
import { NOTARY_W, encodeH, envelopeOf, headerFor, keysOf, submissionOfW, witnessed } from './fixtures.js'

const w = witnessed(4, { maxTicks: 5 })
const timing = w.genesis.genesis.timing
const from = (i: number): Requester => ({ peer: `peer-${i}`, key: w.roster[i] })
const code = (a: NotaryResponse): string => (a.kind === 'refused' ? a.code : a.kind)

function registered(): { n: Notary; clock: VirtualClock } {
  const clock = new VirtualClock(timing.start - 60_000)
  const n = new Notary({
    keys: NOTARY_W,
    registrar: spaaaceRegistrar,
    clock,
    store: new NotaryStore(':memory:'),
    limits: { submissionsPerPeerPerMinute: 1e9, fetchesPerPeerPerMinute: 1e9 },
  })
  expect(code(n.registerGenesis(w.body, from(0)))).toBe('receipt')
  return { n, clock }
}

/** Author `q`'s envelope at `seq`, its deposit with the wraps of `garble` spoiled (enc kept usable). */
function garbled(q: number, seq: number, garble: readonly number[]): { header: Uint8Array; deposit: Uint8Array } {
  const s = submissionOfW(w, q, seq)
  const deposit = s.deposit.slice()
  for (const i of garble) deposit.fill(0x5a, 80 * i + 32, 80 * i + 80)
  return { header: encodeH(headerFor(w, q, envelopeOf(w, q, seq), deposit)), deposit }
}

function complaintOf(q: number, index: number, deposit: Uint8Array): Uint8Array {
  const c = buildComplaint(w.players[q] ?? keysOf('none'), { game: w.genesis.game, complainant: q, index, deposit })
  if (!c.ok) throw new Error(c.error.message)
  return c.value.bytes
}

describe('SPAAACE-WITNESSED §5.3, §9.2: a flood of complaints', () => {
  it('COMPLAINTS_PER_PAIR per (complainant, author), whatever the index; another pair is not counted against it', () => {
    const { n } = registered()
    // Player 1 garbles player 0's wrap three times, player 2 once.
    const subs = [garbled(1, 1, [0]), garbled(1, 2, [0]), garbled(1, 3, [0]), garbled(2, 1, [0])]
    const at = subs.map((s, i) => {
      const a = n.submit(s.header, s.deposit, from(i < 3 ? 1 : 2))
      expect(code(a)).toBe('receipt')
      return n.fetch(w.genesis.game, 0, from(0)).kind === 'log' ? i + 1 : -1
    })
    const [a, b, c, d] = at.map((index, i) => complaintOf(0, index, subs[i]?.deposit ?? new Uint8Array()))
    expect(code(n.complain(a ?? new Uint8Array(), from(0)))).toBe('receipt')
    expect(code(n.complain(b ?? new Uint8Array(), from(0)))).toBe('receipt')
    expect(code(n.complain(c ?? new Uint8Array(), from(0)))).toBe('limit-complaints')
    expect(code(n.complain(d ?? new Uint8Array(), from(0)))).toBe('receipt')
    // Player 3's wrap opens: its complaint about the same deposit does not hold (17), and does not count.
    expect(code(n.complain(complaintOf(3, 1, subs[0]?.deposit ?? new Uint8Array()), from(3)))).toBe('complaint-invalid')
    // The first complaint again: its receipt (a repeat before the limit).
    expect(code(n.complain(a ?? new Uint8Array(), from(0)))).toBe('receipt')
  })
})

/** A seeded stream of bytes for mutations. */
function prng(label: string): () => number {
  const s = seededSecrets(label)
  let buf = s.bytes(4096)
  let at = 0
  return () => {
    if (at >= buf.length) {
      buf = s.bytes(4096)
      at = 0
    }
    return buf[at++] ?? 0
  }
}

describe('SPAAACE-WITNESSED §9.1, §9.2: mutated requests of every kind', () => {
  it('the request decoder and the notary never throw, and every answer encodes to a response that decodes', () => {
    const { n, clock } = registered()
    const s = submissionOfW(w, 1, 1)
    expect(code(n.submit(s.header, s.deposit, from(1)))).toBe('receipt')
    const g = garbled(2, 1, [0])
    expect(code(n.submit(g.header, g.deposit, from(2)))).toBe('receipt')
    const h = decodeHeader(s.header, SPAAACE_LAYOUT)
    if (!h.ok) throw new Error(h.error.message)
    const relay = buildRelay({
      index: 1,
      header: h.value,
      deposit: s.deposit,
      from: 0,
      seed: w.players[0]?.secretKey ?? new Uint8Array(),
      to: 3,
      roster: w.roster,
      ephemeral: seededSecrets('relay').bytes(32),
    })
    if (!relay.ok) throw new Error(relay.error.message)
    const next = submissionOfW(w, 1, 2)
    const valid: NotaryRequest[] = [
      { kind: 'register-genesis', body: w.body },
      { kind: 'submit', header: next.header, deposit: next.deposit },
      { kind: 'complain', complaint: complaintOf(0, 2, g.deposit) },
      { kind: 'fetch', game: w.genesis.game, from: 0 },
      { kind: 'seal', game: w.genesis.game },
      { kind: 'claim', claim: new Uint8Array(112) },
      { kind: 'mark', game: w.genesis.game, t: 1, cut: 0 },
      { kind: 'relay', relay: relay.value },
      { kind: 'relays', game: w.genesis.game },
    ]
    const who: Requester[] = [from(0), from(1), from(3), { peer: 'stranger', key: undefined }]
    const rand = prng('redteam notary mutations')
    let decodedCount = 0
    for (let k = 0; k < 3000; k++) {
      if (k === 1500) clock.advanceTo(cutTime(timing, 2, 1) + 1)
      const q = valid[k % valid.length] as NotaryRequest
      const bytes = encodeRequest(q).slice()
      let m: Uint8Array = bytes
      const how = rand() % 4
      if (how === 0) {
        // A few bytes flipped (the type byte included, now and then).
        for (let f = 0; f <= rand() % 3; f++) {
          const at = ((rand() << 8) | rand()) % bytes.length
          bytes[at] = (bytes[at] ?? 0) ^ (1 + (rand() % 255))
        }
      } else if (how === 1) m = bytes.subarray(0, ((rand() << 8) | rand()) % bytes.length)
      else if (how === 2) {
        m = new Uint8Array(bytes.length + 1 + (rand() % 64))
        m.set(bytes)
      } else {
        // A length or a small field set to an edge: 0, 0xff, 0x7f.
        const at = ((rand() << 8) | rand()) % bytes.length
        bytes[at] = [0, 0xff, 0x7f, 0x10][rand() % 4] ?? 0
      }
      const d = decodeRequest(m, SPAAACE_NOTARY_PROTOCOL)
      if (!d.ok) continue
      decodedCount++
      const requester = who[rand() % who.length] as Requester
      let a: NotaryResponse | undefined
      expect(() => (a = n.handle(d.value, requester))).not.toThrow()
      if (a === undefined) continue
      const back = decodeResponse(encodeResponse(a), SPAAACE_NOTARY_PROTOCOL)
      expect(back.ok, `${d.value.kind} answered ${code(a)}`).toBe(true)
    }
    expect(decodedCount).toBeGreaterThan(500)
  })
})
