/**
 * SPAAACE-WITNESSED §5.2-§5.4: deposits to n recipients round trip for every reader, every opening
 * failure stops at its step with its code, complaints hold exactly when the complainant's wrap
 * does not open, and a relay opens only for its `to`.
 */
import { chacha20poly1305 } from '@noble/ciphers/chacha.js'
import { describe, expect, it } from 'vitest'
import { concatBytes } from '../../../../src/core/commit/bytes.js'
import { seededSecrets } from '../../../../src/core/commit/secrets.js'
import { sealDepositTo } from '../../../../src/core/notary/deposit.js'
import { decodeHeader } from '../../../../src/core/notary/header.js'
import { decodeRelay } from '../../../../src/core/notary/relay.js'
import {
  PAD_W,
  SPAAACE_LAYOUT,
  SPAAACE_NOTARY_DOMAIN,
  buildComplaint,
  buildRelay,
  depositBytesOf,
  judgeComplaintW,
  openDepositW,
  openRelayW,
} from '../../../../src/games/spaaace/witness/index.js'
import { envelopeOf, headerFor, submissionOfW, witnessed } from './fixtures.js'

const seedOf = (w: ReturnType<typeof witnessed>, i: number): Uint8Array => w.players[i]?.secretKey ?? new Uint8Array()

/** A deposit of `envelope` (or other bytes) under a content key, its body replaced by `body` if given. */
function crafted(
  w: ReturnType<typeof witnessed>,
  i: number,
  seq: number,
  o: { content?: Uint8Array; plaintext?: Uint8Array; garbleWrap?: number } = {},
): { deposit: Uint8Array; header: ReturnType<typeof headerFor> } {
  const envelope = envelopeOf(w, i, seq)
  const contentKey = seededSecrets(`crafted ${i} ${seq}`).bytes(32)
  const place = { game: w.genesis.game, sender: i, seq, envelopeHash: envelope.hash }
  const d = sealDepositTo({
    domain: SPAAACE_NOTARY_DOMAIN,
    place,
    envelope: o.content ?? envelope.bytes,
    keys: w.roster,
    floor: PAD_W,
    contentKey,
    ephemeral: w.roster.map((_, j) => seededSecrets(`eph ${i} ${seq} ${j}`).bytes(32)),
  })
  if (!d.ok) throw new Error(d.error.message)
  let deposit = d.value
  if (o.plaintext !== undefined)
    deposit = concatBytes(
      deposit.subarray(0, 80 * w.roster.length),
      chacha20poly1305(contentKey, new Uint8Array(12), envelope.hash).encrypt(o.plaintext),
    )
  if (o.garbleWrap !== undefined) {
    deposit = deposit.slice()
    const at = 80 * o.garbleWrap + 40
    deposit[at] = (deposit[at] ?? 0) ^ 1
  }
  return { deposit, header: headerFor(w, i, envelope, deposit) }
}

describe('SPAAACE-WITNESSED §5.2: deposits to n recipients', () => {
  for (const n of [3, 5, 16])
    it(`n = ${n}: DEP(n) = 80·n + 2,064 bytes, every reader opens the envelope, the header is 181 bytes`, () => {
      const w = witnessed(n)
      const s = submissionOfW(w, n - 1, 1)
      expect(s.deposit.length).toBe(depositBytesOf(n))
      expect(s.deposit.length).toBe(80 * n + 2064)
      expect(s.header.length).toBe(181)
      const h = decodeHeader(s.header, SPAAACE_LAYOUT)
      if (!h.ok) throw new Error(h.error.message)
      expect(h.value.sender).toBe(n - 1)
      for (let i = 0; i < n; i++) {
        const opened = openDepositW(s.deposit, h.value, i, seedOf(w, i), n)
        expect(opened.ok && Buffer.from(opened.value).equals(Buffer.from(s.envelope.bytes)), `reader ${i}`).toBe(true)
      }
    })

  it('§5.2 opening stops at the first failing step, each with its code', () => {
    const n = 5
    const w = witnessed(n)
    const good = crafted(w, 2, 1)
    const code = (deposit: Uint8Array, header = good.header, reader = 0): string => {
      const r = openDepositW(deposit, header, reader, seedOf(w, reader), n)
      return r.ok ? 'opens' : r.error.code
    }
    expect(code(good.deposit)).toBe('opens')
    // Step 1: the size, then every enc.
    expect(code(concatBytes(good.deposit, new Uint8Array(64)))).toBe('deposit.size')
    const badEnc = good.deposit.slice()
    badEnc.fill(0, 80 * 3, 80 * 3 + 32)
    expect(code(badEnc)).toBe('deposit.enc')
    // Step 2: the reader's own wrap (another reader's garbled wrap does not matter).
    expect(code(crafted(w, 2, 1, { garbleWrap: 0 }).deposit)).toBe('deposit.wrap')
    expect(code(crafted(w, 2, 1, { garbleWrap: 4 }).deposit)).toBe('opens')
    // Step 3: the body.
    const badBody = good.deposit.slice()
    badBody[badBody.length - 1] = (badBody[badBody.length - 1] ?? 0) ^ 1
    expect(code(badBody)).toBe('deposit.body')
    // Step 4: a plaintext that is not pad(e, 2048).
    expect(code(crafted(w, 2, 1, { plaintext: new Uint8Array(PAD_W) }).deposit)).toBe('deposit.padding')
    // Step 5: another envelope of the author (another seq) under this header.
    expect(code(crafted(w, 2, 1, { content: envelopeOf(w, 2, 2).bytes }).deposit)).toBe('deposit.envelope')
  })
})

describe('SPAAACE-WITNESSED §5.3: complaints', () => {
  const n = 4
  const w = witnessed(n)
  it('holds when the complainant’s own wrap does not open (false-deposit); complaint.opens when it does', () => {
    const bad = crafted(w, 3, 1, { garbleWrap: 1 })
    const c = buildComplaint(w.players[1] ?? (undefined as never), {
      game: w.genesis.game,
      complainant: 1,
      index: 5,
      deposit: bad.deposit,
    })
    if (!c.ok) throw new Error(c.error.message)
    expect(c.value.bytes.length).toBe(230)
    const judged = judgeComplaintW({
      complaint: c.value.complaint,
      header: bad.header,
      deposit: bad.deposit,
      roster: w.roster,
    })
    expect(judged.ok && judged.value).toMatch(/deposit\.wrap/)
    // Player 0's wrap of the same deposit opens: its complaint does not hold.
    const c0 = buildComplaint(w.players[0] ?? (undefined as never), {
      game: w.genesis.game,
      complainant: 0,
      index: 5,
      deposit: bad.deposit,
    })
    if (!c0.ok) throw new Error(c0.error.message)
    const j0 = judgeComplaintW({
      complaint: c0.value.complaint,
      header: bad.header,
      deposit: bad.deposit,
      roster: w.roster,
    })
    expect(j0.ok ? 'holds' : j0.error.code).toBe('complaint.opens')
    // The author cannot complain of its own envelope.
    const c3 = buildComplaint(w.players[3] ?? (undefined as never), {
      game: w.genesis.game,
      complainant: 3,
      index: 5,
      deposit: bad.deposit,
    })
    if (!c3.ok) throw new Error(c3.error.message)
    const j3 = judgeComplaintW({
      complaint: c3.value.complaint,
      header: bad.header,
      deposit: bad.deposit,
      roster: w.roster,
    })
    expect(j3.ok ? 'holds' : j3.error.code).toBe('complaint.place')
  })
})

describe('SPAAACE-WITNESSED §5.4: relays', () => {
  it('a relay from a reader who opened the deposit opens it for `to` only, and is 117 bytes', () => {
    const n = 4
    const w = witnessed(n)
    const bad = crafted(w, 3, 1, { garbleWrap: 1 })
    const relay = buildRelay({
      index: 7,
      header: bad.header,
      deposit: bad.deposit,
      from: 0,
      seed: seedOf(w, 0),
      to: 1,
      roster: w.roster,
      ephemeral: seededSecrets('relay eph').bytes(32),
    })
    if (!relay.ok) throw new Error(relay.error.message)
    expect(relay.value.length).toBe(117)
    const d = decodeRelay(relay.value)
    if (!d.ok) throw new Error(d.error.message)
    const held = { index: 7, from: 0, wrap: d.value.wrap }
    const asTo = openRelayW({ relay: held, header: bad.header, deposit: bad.deposit, me: 1, seed: seedOf(w, 1), n })
    expect(asTo.ok && Buffer.from(asTo.value).equals(Buffer.from(envelopeOf(w, 3, 1).bytes))).toBe(true)
    const asOther = openRelayW({ relay: held, header: bad.header, deposit: bad.deposit, me: 2, seed: seedOf(w, 2), n })
    expect(asOther.ok ? 'opens' : asOther.error.code).toBe('deposit.wrap')
  })
})
