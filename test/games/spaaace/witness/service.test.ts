/**
 * SPAAACE-WITNESSED §9.2: the Spaaace! notary through the service's public interface (an
 * in-process Notary over an in-memory database, on a virtual clock): every refusal code in the
 * order the design gives, first failure answering; marks, relays and the seal.
 */
import { describe, expect, it } from 'vitest'
import { seededSecrets } from '../../../../src/core/commit/secrets.js'
import { decodeHeader } from '../../../../src/core/notary/header.js'
import type { NotaryResponse } from '../../../../src/core/notary/messages.js'
import { decodeReceipt } from '../../../../src/core/notary/receipt.js'
import { Notary } from '../../../../src/core/notary-service/notary.js'
import type { Requester } from '../../../../src/core/notary-service/state.js'
import { NotaryStore } from '../../../../src/core/notary-service/store.js'
import { VirtualClock } from '../../../../src/core/session/clock.js'
import {
  MAX_HORIZON_MS,
  SPAAACE_LAYOUT,
  buildComplaint,
  buildRelay,
  cutTime,
  encodeGenesisBody,
  horizonOf,
  readWitnessLog,
  registerByOf,
  seqBoundOf,
  spaaaceRegistrar,
} from '../../../../src/games/spaaace/witness/index.js'
import { signAccept } from '../../../../src/games/spaaace/peers/genesis.js'
import { NOTARY_W, encodeH, envelopeOf, headerFor, keysOf, submissionOfW, witnessed } from './fixtures.js'

const w = witnessed(3, { maxTicks: 5 })
const timing = w.genesis.genesis.timing
const from = (i: number): Requester => ({ peer: `peer-${i}`, key: w.roster[i] })
const STRANGER: Requester = { peer: 'stranger', key: keysOf('stranger').publicKey }

function notary(now = timing.start - 60_000, limits = {}): { n: Notary; clock: VirtualClock } {
  const clock = new VirtualClock(now)
  return {
    n: new Notary({ keys: NOTARY_W, registrar: spaaaceRegistrar, clock, store: new NotaryStore(':memory:'), limits }),
    clock,
  }
}

const code = (a: NotaryResponse): string => (a.kind === 'refused' ? a.code : a.kind)
const registered = (): { n: Notary; clock: VirtualClock } => {
  const f = notary()
  expect(code(f.n.registerGenesis(w.body, from(0)))).toBe('receipt')
  return f
}

describe('SPAAACE-WITNESSED §9.2 register', () => {
  it('rate 19, registrar 9, notary-key 10, not a player 13, repeat, too-late 25, horizon 26, games 20, bytes 21', () => {
    expect(code(notary(undefined, { submissionsPerPeerPerMinute: 0 }).n.registerGenesis(w.body, from(0)))).toBe(
      'limit-rate',
    )
    expect(code(notary().n.registerGenesis(w.body.subarray(1), from(0)))).toBe('registrar')
    const other = witnessed(3, { notary: keysOf('another notary') })
    expect(code(notary().n.registerGenesis(other.body, from(0)))).toBe('notary-key')
    expect(code(notary().n.registerGenesis(w.body, STRANGER))).toBe('not-a-player')
    const f = registered()
    // Any roster player gets the same genesis receipt back; another body with this id is refused.
    expect(code(f.n.registerGenesis(w.body, from(2)))).toBe('receipt')
    const accepts = w.players.map((k, i) => signAccept(k, w.genesis.game, i).bytes)
    expect(code(f.n.registerGenesis(encodeGenesisBody(w.genesis.bytes, accepts.reverse()), from(0)))).toBe('registrar')
    expect(code(notary(registerByOf(timing) + 1).n.registerGenesis(w.body, from(0)))).toBe('too-late')
    const late = witnessed(3, { start: timing.start + MAX_HORIZON_MS, maxTicks: 5 })
    expect(horizonOf(late.genesis.genesis.timing, 5) > timing.start - 60_000 + MAX_HORIZON_MS).toBe(true)
    expect(code(notary().n.registerGenesis(late.body, from(0)))).toBe('limit-horizon')
    expect(code(notary(undefined, { openGames: 0 }).n.registerGenesis(w.body, from(0)))).toBe('limit-games')
    expect(code(notary(undefined, { bytesHeld: 10 }).n.registerGenesis(w.body, from(0)))).toBe('limit-bytes')
  })
})

describe('SPAAACE-WITNESSED §3, §9.2: registration at G_1 exactly, on a clock that moves between readings', () => {
  it('the genesis receipt carries the instant checked against G_1, so a registration accepted at G_1 is never the fault genesis-invalid (§6.3)', () => {
    // A clock that moves a millisecond every time it is read: the check and the signature would
    // otherwise read two instants, and a receipt checked at G_1 could be signed at G_1 + 1.
    // The rate limiter reads it first (G_1 − 1), the check next (G_1).
    let t = registerByOf(timing) - 1
    const clock = { now: () => t++, sleep: () => Promise.resolve() }
    const n = new Notary({ keys: NOTARY_W, registrar: spaaaceRegistrar, clock, store: new NotaryStore(':memory:') })
    const a = n.registerGenesis(w.body, from(0))
    if (a.kind !== 'receipt') throw new Error(`refused: ${code(a)}`)
    const log = readWitnessLog([a.receipt], { genesis: w.genesis })
    expect(log.faults).toEqual([])
    expect(log.exists).toBe(true)
    expect(log.chain[0]?.time).toBeLessThanOrEqual(registerByOf(timing))
  })
})

describe('SPAAACE-WITNESSED §9.2 submit', () => {
  it('1, 2, 1 (author ≥ n), 4, 5, 3, 6, 27, 29, 7, 21, in this order', () => {
    const { n, clock } = registered()
    const s = submissionOfW(w, 1, 1)
    expect(code(n.submit(s.header.subarray(1), s.deposit, from(1)))).toBe('malformed')
    const stranger = witnessed(4)
    const gone = submissionOfW(stranger, 1, 1)
    expect(code(n.submit(gone.header, gone.deposit, from(1)))).toBe('unregistered')
    const h = decodeHeader(s.header, SPAAACE_LAYOUT)
    if (!h.ok) throw new Error(h.error.message)
    const author3 = encodeH({ ...h.value, sender: 3 })
    expect(code(n.submit(author3, s.deposit, from(1)))).toBe('malformed')
    const forged = encodeH({ ...h.value, sig: new Uint8Array(64).fill(1) })
    expect(code(n.submit(forged, s.deposit, from(1)))).toBe('signature')
    expect(code(n.submit(s.header, s.deposit, STRANGER))).toBe('receipt')
    expect(code(n.submit(s.header, s.deposit, from(0)))).toBe('receipt')
    const other = submissionOfW(w, 1, 1, { end: true })
    expect(code(n.submit(other.header, other.deposit, from(1)))).toBe('place-taken')
    const skip = submissionOfW(w, 1, 3)
    expect(code(n.submit(skip.header, skip.deposit, from(1)))).toBe('seq')
    const e2 = envelopeOf(w, 1, 2)
    const two = submissionOfW(w, 1, 2)
    const flagged = encodeH(headerFor(w, 1, e2, two.deposit, { flags: 1 }))
    expect(code(n.submit(flagged, two.deposit, from(1)))).toBe('flags')
    const seen = encodeH(headerFor(w, 1, e2, two.deposit, { seen: 3 }))
    expect(code(n.submit(seen, two.deposit, from(1)))).toBe('flags')
    // SEQ_W(1) = 6: seq 2..6 are receipted in tick 1, seq 7 is refused until tick 2.
    for (let q = 2; q <= seqBoundOf(1); q++)
      expect(code(n.submit(submissionOfW(w, 1, q).header, submissionOfW(w, 1, q).deposit, from(1)))).toBe('receipt')
    const seven = submissionOfW(w, 1, 7)
    expect(code(n.submit(seven.header, seven.deposit, from(1)))).toBe('seq-bound')
    clock.advanceTo(cutTime(timing, 1, 1) + 1)
    // SPAAACE-WITNESSED §13 vector 24: a deposit of DEP(n) + 64 (7); a header of another DEP (7); another deposit (7).
    const bigger = new Uint8Array(seven.deposit.length + 64)
    bigger.set(seven.deposit)
    expect(code(n.submit(seven.header, bigger, from(1)))).toBe('deposit')
    const other4 = witnessed(4)
    const wrongSize = encodeH(
      headerFor(w, 1, seven.envelope, submissionOfW(other4, 1, 7).deposit, { depositBytes: 80 * 4 + 2064 }),
    )
    expect(code(n.submit(wrongSize, submissionOfW(other4, 1, 7).deposit, from(1)))).toBe('deposit')
    expect(code(n.submit(seven.header, seven.deposit.slice().fill(7, 0, 1), from(1)))).toBe('deposit')
    expect(code(n.submit(seven.header, seven.deposit, from(1)))).toBe('receipt')
    // Sealed (3) comes after the place check: a receipted header still gets its receipt.
    clock.advanceTo(horizonOf(timing, 5) + 1)
    expect(code(n.seal(w.genesis.game, from(0)))).toBe('receipt')
    expect(code(n.submit(seven.header, seven.deposit, from(1)))).toBe('receipt')
    const eight = submissionOfW(w, 1, 8)
    expect(code(n.submit(eight.header, eight.deposit, from(1)))).toBe('sealed')
  })

  it('limit-bytes (21) after every check of the submission', () => {
    const f = notary()
    expect(code(f.n.registerGenesis(w.body, from(0)))).toBe('receipt')
    const small = new Notary({
      keys: NOTARY_W,
      registrar: spaaaceRegistrar,
      clock: f.clock,
      store: f.n.store,
      limits: { bytesHeld: f.n.store.bytesHeld() + 100 },
    })
    const s = submissionOfW(w, 0, 1)
    expect(code(small.submit(s.header, s.deposit, from(0)))).toBe('limit-bytes')
  })
})

describe('SPAAACE-WITNESSED §9.2 complain, mark, relay, relays, seal, claim', () => {
  it('complain: 1, 4, 17, 14; a complaint that holds is receipted with its deposit, and again on the same bytes', () => {
    const { n } = registered()
    const s = submissionOfW(w, 2, 1)
    expect(code(n.submit(s.header, s.deposit, from(2)))).toBe('receipt')
    const honest = buildComplaint(w.players[0] ?? (undefined as never), {
      game: w.genesis.game,
      complainant: 0,
      index: 1,
      deposit: s.deposit,
    })
    if (!honest.ok) throw new Error(honest.error.message)
    expect(code(n.complain(honest.value.bytes.subarray(1), from(0)))).toBe('malformed')
    const forged = honest.value.bytes.slice()
    forged[200] = (forged[200] ?? 0) ^ 1
    expect(code(n.complain(forged, from(0)))).toBe('signature')
    expect(code(n.complain(honest.value.bytes, from(0)))).toBe('complaint-invalid')
    const own = buildComplaint(w.players[2] ?? (undefined as never), {
      game: w.genesis.game,
      complainant: 2,
      index: 1,
      deposit: s.deposit,
    })
    if (!own.ok) throw new Error(own.error.message)
    expect(code(n.complain(own.value.bytes, from(2)))).toBe('complaint-target')
    // A garbled wrap for player 1: its complaint holds and is receipted, twice the same bytes, once another.
    const garbled = s.deposit.slice()
    garbled[80 + 40] = (garbled[80 + 40] ?? 0) ^ 1
    const e2 = envelopeOf(w, 2, 2)
    const h2 = encodeH(headerFor(w, 2, e2, garbled))
    expect(code(n.submit(h2, garbled, from(2)))).toBe('receipt')
    const held = buildComplaint(w.players[1] ?? (undefined as never), {
      game: w.genesis.game,
      complainant: 1,
      index: 2,
      deposit: garbled,
    })
    if (!held.ok) throw new Error(held.error.message)
    const r = n.complain(held.value.bytes, from(1))
    expect(code(r)).toBe('receipt')
    expect(code(n.complain(held.value.bytes, from(1)))).toBe('receipt')
    const d = r.kind === 'receipt' ? decodeReceipt(r.receipt, SPAAACE_LAYOUT) : undefined
    expect(d?.ok === true && d.value.kind).toBe('complaint')
  })

  it('mark: 2, 13, 30, not-before, receipt, the same receipt again, log when passed, 3', () => {
    const { n, clock } = registered()
    expect(code(n.handle({ kind: 'mark', game: new Uint8Array(32), t: 1, cut: 0 }, from(0)))).toBe('unregistered')
    expect(code(n.handle({ kind: 'mark', game: w.genesis.game, t: 1, cut: 0 }, STRANGER))).toBe('not-a-player')
    expect(code(n.handle({ kind: 'mark', game: w.genesis.game, t: 7, cut: 0 }, from(0)))).toBe('mark-range')
    expect(code(n.handle({ kind: 'mark', game: w.genesis.game, t: 0, cut: 0 }, from(0)))).toBe('mark-range')
    expect(code(n.handle({ kind: 'mark', game: w.genesis.game, t: 1, cut: 2 }, from(0)))).toBe('mark-range')
    const nb = n.handle({ kind: 'mark', game: w.genesis.game, t: 1, cut: 0 }, from(0))
    expect(nb).toEqual({ kind: 'not-before', time: cutTime(timing, 1, 0) + 1 })
    clock.advanceTo(cutTime(timing, 1, 1) + 5)
    const m = n.handle({ kind: 'mark', game: w.genesis.game, t: 1, cut: 1 }, from(1))
    expect(code(m)).toBe('receipt')
    expect(n.handle({ kind: 'mark', game: w.genesis.game, t: 1, cut: 1 }, from(2))).toEqual(m)
    // C_1 is passed by the mark of R_1: the log from it answers.
    const passed = n.handle({ kind: 'mark', game: w.genesis.game, t: 1, cut: 0 }, from(0))
    expect(passed.kind === 'log' && passed.items.length).toBe(1)
    clock.advanceTo(horizonOf(timing, 5) + 1)
    expect(code(n.seal(w.genesis.game, from(0)))).toBe('receipt')
    expect(code(n.handle({ kind: 'mark', game: w.genesis.game, t: 6, cut: 0 }, from(0)))).toBe('sealed')
  })

  it('relay: 1, 2, 13, 31, 32, receipt as acknowledgement; relays only to `to`, and only to a player who complained', () => {
    const { n } = registered()
    // Player 2's deposit at seq 1 does not open for player 1 (its wrap garbled), which complains.
    const garbled = submissionOfW(w, 2, 1).deposit.slice()
    garbled[80 + 40] = (garbled[80 + 40] ?? 0) ^ 1
    const header = encodeH(headerFor(w, 2, envelopeOf(w, 2, 1), garbled))
    expect(code(n.submit(header, garbled, from(2)))).toBe('receipt')
    const h = decodeHeader(header, SPAAACE_LAYOUT)
    if (!h.ok) throw new Error(h.error.message)
    const relay = (to: number, index = 1) => {
      const r = buildRelay({
        index,
        header: h.value,
        deposit: garbled,
        from: 0,
        seed: w.players[0]?.secretKey ?? new Uint8Array(),
        to,
        roster: w.roster,
        ephemeral: seededSecrets(`relay ${to}`).bytes(32),
      })
      if (!r.ok) throw new Error(r.error.message)
      return r.value
    }
    expect(code(n.handle({ kind: 'relay', relay: relay(1).subarray(1) }, from(0)))).toBe('malformed')
    const other = relay(1).slice()
    other[0] = (other[0] ?? 0) ^ 1
    expect(code(n.handle({ kind: 'relay', relay: other }, from(0)))).toBe('unregistered')
    expect(code(n.handle({ kind: 'relay', relay: relay(1) }, STRANGER))).toBe('not-a-player')
    expect(code(n.handle({ kind: 'relay', relay: relay(0) }, from(0)))).toBe('relay-target')
    // §9.2: no complaint of player 1 about receipt 1 yet: no relay to it.
    expect(code(n.handle({ kind: 'relay', relay: relay(1) }, from(0)))).toBe('relay-target')
    const complaint = buildComplaint(w.players[1] ?? (undefined as never), {
      game: w.genesis.game,
      complainant: 1,
      index: 1,
      deposit: garbled,
    })
    if (!complaint.ok) throw new Error(complaint.error.message)
    expect(code(n.complain(complaint.value.bytes, from(1)))).toBe('receipt')
    // Player 2 never complained of it: none to player 2 either.
    expect(code(n.handle({ kind: 'relay', relay: relay(2) }, from(0)))).toBe('relay-target')
    expect(
      code(
        n.handle(
          {
            kind: 'relay',
            relay: relay(1, 0 + 1)
              .slice()
              .fill(0, 32, 36)
              .fill(0, 35, 36),
          },
          from(0),
        ),
      ),
    ).toBe('malformed')
    expect(code(n.handle({ kind: 'relay', relay: relay(1) }, from(0)))).toBe('receipt')
    expect(code(n.handle({ kind: 'relay', relay: relay(1) }, from(0)))).toBe('relay-repeat')
    const to1 = n.handle({ kind: 'relays', game: w.genesis.game }, from(1))
    expect(to1.kind === 'relays' && to1.relays.map((r) => [r.index, r.from])).toEqual([[1, 0]])
    const to2 = n.handle({ kind: 'relays', game: w.genesis.game }, from(2))
    expect(to2.kind === 'relays' && to2.relays).toEqual([])
    expect(code(n.handle({ kind: 'relays', game: w.genesis.game }, STRANGER))).toBe('not-a-player')
  })

  it('seal: 13, not-before until the horizon or every player’s end flag; claim: 28', () => {
    const { n, clock } = registered()
    expect(code(n.seal(w.genesis.game, STRANGER))).toBe('not-a-player')
    expect(n.seal(w.genesis.game, from(0))).toEqual({ kind: 'not-before', time: horizonOf(timing, 5) })
    for (let i = 0; i < 3; i++) {
      const s = submissionOfW(w, i, 1, { end: true })
      expect(code(n.submit(s.header, s.deposit, from(i)))).toBe('receipt')
    }
    clock.advance(1)
    expect(code(n.seal(w.genesis.game, from(0)))).toBe('receipt')
    expect(code(n.claim(new Uint8Array(112), from(0)))).toBe('unsupported')
  })
})
