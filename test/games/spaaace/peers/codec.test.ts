/**
 * The Spaaace! peers bytes (protocol/SPAAACE-PEERS.md §3.1, §4.1, §4.2, §4.3, §10): round trips,
 * one encoding per value, byte flips refused or caught by the signature, no input that throws, and
 * the local rules of heads (§4.1) and order text (§4.3, S-37).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { toHex } from '../../../../src/core/commit/bytes.js'
import {
  HEAD_BYTES,
  HEADER_BYTES,
  MAX_ENVELOPE,
  MAX_FRAME,
  MAX_ORDERS_BYTES,
  MAX_PLAYERS,
  SIGNATURE_BYTES,
  commitMsFloor,
  revealMsFloor,
  tickLength,
  withinSeqBound,
} from '../../../../src/games/spaaace/peers/domain.js'
import {
  type Body,
  decodeEnvelope,
  encodeUnsigned,
  headsProblem,
  readEnvelope,
  sealEnvelope,
  signatureValid,
  withSignature,
} from '../../../../src/games/spaaace/peers/envelope.js'
import {
  decodeGenesis,
  encodeGenesis,
  gameIdOf,
  isAccept,
  rulesTerms,
  signAccept,
  tickTimes,
} from '../../../../src/games/spaaace/peers/genesis.js'
import { commitmentOf, opens, ordersOf, saltOf } from '../../../../src/games/spaaace/peers/parts.js'
import { termsProblem } from '../../../../src/games/spaaace/rules/state.js'
import { genesis, unsigned } from './arbitraries.js'
import { POOL, fixed, liveGenesis, roster, sealedGenesis } from './fixtures.js'

const G = fixed('game')
const keyOf = (author: number) => POOL[author] ?? POOL[0]!

describe('§3.1 genesis', () => {
  it("every genesis that keeps §3.1 decodes to itself, one encoding, and its terms are the rules' (S-90)", () => {
    fc.assert(
      fc.property(genesis, (g) => {
        const b = encodeGenesis(g)
        const d = decodeGenesis(b)
        expect(d.ok, d.ok ? '' : JSON.stringify(d.error)).toBe(true)
        if (!d.ok) return
        expect(d.value.genesis).toEqual(g)
        expect(toHex(encodeGenesis(d.value.genesis))).toBe(toHex(b))
        expect(toHex(d.value.game)).toBe(toHex(gameIdOf(b)))
        expect(termsProblem(rulesTerms(d.value.genesis))).toBeNull()
      }),
      { numRuns: 200 },
    )
  })

  it('a byte flipped anywhere is refused with a coded error, or gives another genesis and game id, under which the accepts fail', () => {
    const g = sealedGenesis(liveGenesis(5))
    const accept = signAccept(roster(5)[0]!, g.game, 0)
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 1, max: 255 }), (at, flip) => {
        const b = g.bytes.slice()
        const i = at % b.length
        b[i] = (b[i] ?? 0) ^ flip
        const d = decodeGenesis(b)
        if (!d.ok) {
          expect(d.error.code).toMatch(/^(wire|field)\./)
          expect(d.error.rule).toMatch(/^§/)
          return
        }
        expect(toHex(d.value.game)).not.toBe(toHex(g.game))
        expect(isAccept(d.value, accept)).toBe(false)
      }),
      { numRuns: 1000 },
    )
  })

  it('hostile bytes never throw', () => {
    const g = encodeGenesis(liveGenesis(5))
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 700 }),
          fc.nat().map((cut) => g.subarray(0, cut % (g.length + 1))),
        ),
        (b) => {
          const d = decodeGenesis(b)
          if (!d.ok) expect(d.error.code).toMatch(/^(wire|field)\./)
        },
      ),
      { numRuns: 1000 },
    )
  })

  it('§14 vector 26 (review F8): commitMs at the floor decodes, one below does not; so for revealMs', () => {
    for (const marginMs of [500, 2000, 600_000]) {
      const timing = { start: 0, marginMs, commitMs: commitMsFloor(marginMs), revealMs: revealMsFloor(marginMs) }
      expect(decodeGenesis(encodeGenesis(liveGenesis(3, { timing }))).ok).toBe(true)
      const low = decodeGenesis(encodeGenesis(liveGenesis(3, { timing: { ...timing, commitMs: timing.commitMs - 1 } })))
      expect(!low.ok && [low.error.code, low.error.field]).toEqual(['field.range', 'timing.commitMs'])
      const r = decodeGenesis(encodeGenesis(liveGenesis(3, { timing: { ...timing, revealMs: timing.revealMs - 1 } })))
      expect(!r.ok && [r.error.code, r.error.field]).toEqual(['field.range', 'timing.revealMs'])
    }
  })

  it("§3.1: tick times and the wormhole's start and tickMs (S-11)", () => {
    const g = liveGenesis(4, { terms: { ...liveGenesis(4).terms, wormhole: true } })
    const L = tickLength(g.timing)
    expect(L).toBe(g.timing.commitMs + g.timing.revealMs + 2 * g.timing.marginMs + 2000)
    const t2 = tickTimes(g.timing, 2)
    expect(t2.start).toBe(g.timing.start + L)
    expect(t2.next).toBe(tickTimes(g.timing, 3).start)
    expect(t2.guard).toBe(t2.commitCut - g.timing.marginMs - 2000)
    expect(rulesTerms(g)).toMatchObject({ start: g.timing.start, tickMs: L, wormhole: true })
  })

  it('§3.2: an accept is the envelope at seq 0 with prev G and the accept part alone, signed by its roster key', () => {
    const keys = roster(5)
    const g = sealedGenesis(liveGenesis(5))
    const a = signAccept(keys[2]!, g.game, 2)
    expect(isAccept(g, a)).toBe(true)
    expect(isAccept(g, signAccept(keys[3]!, g.game, 2))).toBe(false)
    expect(isAccept(sealedGenesis(liveGenesis(5, { nonce: fixed('other') })), a)).toBe(false)
  })
})

describe('§4.1, §4.2 envelope', () => {
  const n = 16
  const withKey = unsigned(n, G)

  it('§10: MAX_ENVELOPE is the sum §10 gives, and MAX_FRAME 16 more', () => {
    expect(
      HEADER_BYTES + 1 + 15 * HEAD_BYTES + 1 + (1 + 2 + 16 + 2 + MAX_ORDERS_BYTES) + 7 * 68 + SIGNATURE_BYTES,
    ).toBe(MAX_ENVELOPE)
    expect(MAX_FRAME).toBe(2196)
    expect(MAX_PLAYERS - 1).toBe(15)
    expect([withinSeqBound(14, 1), withinSeqBound(15, 1), withinSeqBound(2, 0), withinSeqBound(3, 0)]).toEqual([
      true,
      false,
      true,
      false,
    ])
  })

  it('every envelope that keeps §4.1, §4.2 decodes to itself, one encoding, its signature valid', () => {
    fc.assert(
      fc.property(withKey, (u) => {
        const s = sealEnvelope(keyOf(u.author), u)
        expect(s.bytes.length).toBeLessThanOrEqual(MAX_ENVELOPE)
        const d = decodeEnvelope(s.bytes, { players: n, game: G })
        expect(d.ok, d.ok ? '' : JSON.stringify(d.error)).toBe(true)
        if (!d.ok) return
        expect(d.value.envelope).toEqual({ ...u, version: 1, sig: s.envelope.sig })
        expect(toHex(d.value.hash)).toBe(toHex(s.hash))
        expect(signatureValid(d.value, keyOf(u.author).publicKey)).toBe(true)
      }),
      { numRuns: 300 },
    )
  })

  it('a byte flipped anywhere is refused with a coded error, or decodes to another value whose signature fails', () => {
    fc.assert(
      fc.property(withKey, fc.nat(), fc.integer({ min: 1, max: 255 }), (u, at, flip) => {
        const s = sealEnvelope(keyOf(u.author), u)
        const b = s.bytes.slice()
        const i = at % b.length
        b[i] = (b[i] ?? 0) ^ flip
        const r = readEnvelope(b, { players: n })
        if (!r.ok) {
          expect(r.error.code).toMatch(/^(wire|field)\./)
          expect(r.error.rule).toMatch(/^§/)
          return
        }
        // The header stands: whether or not the body decodes, the bytes authenticate under no roster key.
        expect(signatureValid(r.value, keyOf(r.value.header.author).publicKey)).toBe(false)
        const d = decodeEnvelope(b, { players: n })
        if (d.ok) {
          expect(toHex(new Uint8Array([...encodeUnsigned(d.value.envelope), ...d.value.envelope.sig]))).toBe(toHex(b))
        }
      }),
      { numRuns: 1500 },
    )
  })

  it('hostile bytes never throw: every failure is a coded error naming a field and a section', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 400 }),
          withKey.chain((u) =>
            fc.nat().map((cut) => {
              const b = sealEnvelope(keyOf(u.author), u).bytes
              return b.subarray(0, cut % (b.length + 1))
            }),
          ),
        ),
        fc.integer({ min: 3, max: 16 }),
        (b, players) => {
          const r = readEnvelope(b, { players })
          if (!r.ok) expect(r.error.code).toMatch(/^(wire|field)\./)
          else if (!r.value.body.ok) expect(r.value.body.error.rule).toMatch(/^§/)
        },
      ),
      { numRuns: 1000 },
    )
  })

  it('§4.1 identity: another signature is one envelope (one hash), and it does not authenticate', () => {
    const s = sealEnvelope(keyOf(0), {
      author: 0,
      seq: 1,
      game: G,
      prev: fixed('p'),
      heads: [],
      parts: [{ type: 'seal', tick: 1 }],
    })
    const t = withSignature(s, new Uint8Array(64).fill(7))
    expect(toHex(t.hash)).toBe(toHex(s.hash))
    expect(signatureValid(t, keyOf(0).publicKey)).toBe(false)
  })
})

describe('§4.1 heads, checked where local', () => {
  const h = (author: number, seq: number, label = `${author}/${seq}`) => ({ author, seq, hash: fixed(label) })
  const body = (...heads: ReturnType<typeof h>[]): Body => ({ heads, parts: [{ type: 'seal', tick: 1 }] })

  it('a first envelope and one that keeps or raises its heads are fine', () => {
    expect(headsProblem(undefined, new Set(), body(h(1, 4)))).toBeUndefined()
    expect(headsProblem(body(h(1, 4)), new Set(), body(h(1, 4), h(2, 0)))).toBeUndefined()
    expect(headsProblem(body(h(1, 4)), new Set(), body(h(1, 6)))).toBeUndefined()
  })

  it('refuses a head that disappears, lowers, leaves its branch, or moves once forked', () => {
    const code = (p: ReturnType<typeof headsProblem>) => p?.code
    expect(code(headsProblem(body(h(1, 4)), new Set(), body(h(2, 0))))).toBe('field.missing')
    expect(code(headsProblem(body(h(1, 4)), new Set(), body(h(1, 3))))).toBe('field.order')
    expect(code(headsProblem(body(h(1, 4)), new Set(), body(h(1, 4, 'other'))))).toBe('field.range')
    expect(code(headsProblem(body(h(1, 4)), new Set([1]), body(h(1, 5))))).toBe('field.range')
    expect(headsProblem(body(h(1, 4)), new Set([1]), body(h(1, 4)))).toBeUndefined()
    expect(code(headsProblem(body(h(1, 4)), new Set(), body(h(1, 6)), () => false))).toBe('field.range')
  })
})

describe('§4.3 salts, commitments and the order text', () => {
  it('a reveal opens its commitment; another salt, text, tick or player does not', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 32, maxLength: 32 }),
        fc.integer({ min: 1, max: 1000 }),
        fc.nat(15),
        (seed, t, p) => {
          const salt = saltOf(G, p, seed, t)
          const c = commitmentOf(G, p, t, salt, 'bid 3')
          expect(opens(G, p, { type: 'reveal', tick: t, salt, orders: 'bid 3' }, c)).toBe(true)
          expect(opens(G, p, { type: 'reveal', tick: t, salt, orders: 'bid 4' }, c)).toBe(false)
          expect(opens(G, (p + 1) % 16, { type: 'reveal', tick: t, salt, orders: 'bid 3' }, c)).toBe(false)
          expect(opens(G, p, { type: 'reveal', tick: t, salt: saltOf(G, p, seed, t + 1), orders: 'bid 3' }, c)).toBe(
            false,
          )
        },
      ),
      { numRuns: 100 },
    )
  })

  it('S-37: "-" is the empty set, labels are p1..pn, and a text that does not parse is malformed, never a decoding error', () => {
    expect(ordersOf('-', 5, 0).ok).toBe(true)
    expect(ordersOf('attack p3; bid 2', 5, 0).ok).toBe(true)
    expect(ordersOf('attack p1', 5, 0).ok).toBe(false)
    expect(ordersOf('attack p6', 5, 0).ok).toBe(false)
    expect(ordersOf('move 8', 5, 0).ok).toBe(false)
    expect(ordersOf('move 7', 5, 0).ok).toBe(true)
    expect(ordersOf('', 5, 0).ok).toBe(false)
    expect(ordersOf('bid 21', 5, 0).ok).toBe(false)
    const s = sealEnvelope(keyOf(0), {
      author: 0,
      seq: 3,
      game: G,
      prev: fixed('p'),
      heads: [],
      parts: [{ type: 'reveal', tick: 1, salt: new Uint8Array(16), orders: 'bid 21' }],
    })
    expect(decodeEnvelope(s.bytes, { players: 5 }).ok).toBe(true)
  })

  it("BD-10: a reveal's text is read exactly: items at ';', words at runs of spaces, no comments, no record words", () => {
    const reads = (text: string): boolean => ordersOf(text, 5, 0).ok
    // Spaces around items and between words do not matter; a number is the appendix's, -0 is 0.
    expect(['bid 5;claim', '  bid   5  ', 'bid 5 ; claim', 'bid -0'].map(reads)).toEqual([true, true, true, true])
    // The record's other readings do not apply: '#' is no comment, its words are no orders, and
    // only '-' exactly is the empty set; an empty item is malformed.
    expect(['bid 5 # note', 'withheld', 'mismatch', 'equivocated', ' -', '- ', 'bid 5;'].map(reads)).toEqual([
      false,
      false,
      false,
      false,
      false,
      false,
      false,
    ])
  })
})
