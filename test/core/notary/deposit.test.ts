/**
 * NOTARY.md §4 (PROTOCOL-4.md §5.2): deposits. Both wraps open; the padded size is exactly the
 * one of §5.2 for the floor the game gives; a wrong seed, place, envelope hash, padding or any
 * changed byte is refused with a code, never an exception.
 */
import { chacha20poly1305 } from '@noble/ciphers/chacha.js'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { concatBytes, toHex } from '../../../src/core/commit/bytes.js'
import { taggedHash } from '../../../src/core/commit/hash.js'
import { sealFirst, setupBaseSender } from '../../../src/core/commit/hpke.js'
import {
  DEPOSIT_HEAD_BYTES,
  MAX_PADDED_BYTES,
  depositHash,
  depositInfo,
  depositParts,
  isDepositSize,
  openDeposit,
  paddedSize,
  sealDeposit,
  unpad,
} from '../../../src/core/notary/deposit.js'
import { NOTARY_ERROR_CODES } from '../../../src/core/notary/domain.js'
import { PROTOCOL_ERROR_CODES } from '../../../src/core/wire/errors.js'
import { x25519PublicKey } from '../../../src/core/notary/x25519.js'
import { A, B, DOMAIN, GAME, envelopeAt, envelopeHashOf, randomness } from './helpers.js'

const CODES = new Set<string>([...NOTARY_ERROR_CODES, ...PROTOCOL_ERROR_CODES])

function deposited(size: number, floor = 256, sender: 0 | 1 = 0) {
  const envelope = envelopeAt(GAME, sender, 5, size)
  const place = { game: GAME, sender, seq: 5, envelopeHash: envelopeHashOf(envelope) }
  const [recipient, me] = sender === 0 ? [B, A] : [A, B]
  const r = sealDeposit({
    domain: DOMAIN,
    place,
    envelope,
    recipientKey: recipient.publicKey,
    senderKey: me.publicKey,
    floor,
    randomness: randomness(`d${size}`),
  })
  if (!r.ok) throw new Error(r.error.message)
  return { envelope, place, deposit: r.value, recipient, me, o: { domain: DOMAIN, place, floor } }
}

describe('deposits (NOTARY.md §4, PROTOCOL-4.md §5.2)', () => {
  it('pad: 0x80 then zeros to the next power of two, at least the floor', () => {
    expect(paddedSize(0, 256)).toBe(256)
    expect(paddedSize(255, 256)).toBe(256)
    expect(paddedSize(256, 256)).toBe(512)
    expect(paddedSize(300, 4096)).toBe(4096)
    expect(paddedSize(4096, 4096)).toBe(8192)
    for (const size of [35, 255, 256, 1000, 5000]) {
      const { deposit } = deposited(size)
      expect(deposit.length).toBe(DEPOSIT_HEAD_BYTES + paddedSize(size, 256) + 16)
      expect(isDepositSize(deposit.length)).toBe(true)
    }
    expect(isDepositSize(DEPOSIT_HEAD_BYTES + 128 + 16)).toBe(false)
    expect(isDepositSize(DEPOSIT_HEAD_BYTES + 300 + 16)).toBe(false)
    expect(isDepositSize(DEPOSIT_HEAD_BYTES + 2 * MAX_PADDED_BYTES + 16)).toBe(false)
  })

  it('the recipient opens its wrap, the sender its own, each to the envelope; the hash is the tagged hash', () => {
    const { envelope, deposit, recipient, me, o } = deposited(1000)
    const recipientSeed = recipient.secretKey
    expect(toHex((openDeposit(deposit, 0, recipientSeed, o) as { value: Uint8Array }).value)).toBe(toHex(envelope))
    expect(toHex((openDeposit(deposit, 1, me.secretKey, o) as { value: Uint8Array }).value)).toBe(toHex(envelope))
    expect(toHex(depositHash(DOMAIN, deposit))).toBe(toHex(taggedHash('spaceships/4/deposit-hash', deposit)))
  })

  it('refused: the wrong seed, another place (seq, sender, game), another envelope hash, a floor above the one sealed', () => {
    const { deposit, recipient, o, place } = deposited(100)
    const open = (p: typeof place, seed = recipient.secretKey, floor = 256) =>
      openDeposit(deposit, 0, seed, { domain: DOMAIN, place: p, floor })
    expect(open(place, A.secretKey)).toMatchObject({ ok: false, error: { code: 'deposit.wrap' } })
    expect(open({ ...place, seq: 6 })).toMatchObject({ ok: false, error: { code: 'deposit.wrap' } })
    expect(open({ ...place, sender: 1 })).toMatchObject({ ok: false, error: { code: 'deposit.wrap' } })
    expect(open({ ...place, game: new Uint8Array(32) })).toMatchObject({ ok: false, error: { code: 'deposit.wrap' } })
    expect(open({ ...place, envelopeHash: new Uint8Array(32) })).toMatchObject({
      ok: false,
      error: { code: 'deposit.body' },
    })
    expect(open(place, recipient.secretKey, 4096)).toMatchObject({ ok: false, error: { code: 'deposit.padding' } })
    expect(
      openDeposit(deposit, 0, recipient.secretKey, { ...o, floor: (e) => (e.length > 50 ? 4096 : 256) }),
    ).toMatchObject({
      ok: false,
      error: { code: 'deposit.padding' },
    })
    expect(openDeposit(deposit.subarray(1), 0, recipient.secretKey, o)).toMatchObject({
      ok: false,
      error: { code: 'deposit.size' },
    })
  })

  it('refused: a body padded otherwise (no 0x80, a byte after it, padded beyond the size) though it authenticates', () => {
    const envelope = envelopeAt(GAME, 0, 5, 100)
    const place = { game: GAME, sender: 0 as const, seq: 5, envelopeHash: envelopeHashOf(envelope) }
    const k = randomness('bad padding').contentKey
    const forged = (padded: Uint8Array): Uint8Array => {
      const wraps = ([0, 1] as const).flatMap((i) => {
        const pk = x25519PublicKey([B, A][i]!.publicKey)
        if (!pk.ok) throw new Error('key')
        const s = setupBaseSender(pk.value, depositInfo(DOMAIN, place, i), randomness(`bad ${i}`).ephemeral[i])
        return [s.enc, sealFirst(s.context, new Uint8Array(), k)]
      })
      return concatBytes(...wraps, chacha20poly1305(k, new Uint8Array(12), place.envelopeHash).encrypt(padded))
    }
    const o = { domain: DOMAIN, place, floor: 256 }
    const good = new Uint8Array(256)
    good.set(envelope)
    good[100] = 0x80
    expect(openDeposit(forged(good), 0, B.secretKey, o).ok).toBe(true)
    const noMarker = good.slice()
    noMarker[100] = 0
    expect(openDeposit(forged(noMarker), 0, B.secretKey, o)).toMatchObject({
      ok: false,
      error: { code: 'deposit.padding' },
    })
    const trailing = good.slice()
    trailing[200] = 1
    expect(openDeposit(forged(trailing), 0, B.secretKey, o)).toMatchObject({
      ok: false,
      error: { code: 'deposit.padding' },
    })
    const tooLong = new Uint8Array(512)
    tooLong.set(good)
    expect(openDeposit(forged(tooLong), 0, B.secretKey, o)).toMatchObject({
      ok: false,
      error: { code: 'deposit.padding' },
    })
    expect(unpad(new Uint8Array(256), 256)).toMatchObject({ ok: false, error: { code: 'deposit.padding' } })
  })

  it('sealing refuses an unusable key, a floor that is not a power of two, an envelope too large', () => {
    const envelope = envelopeAt(GAME, 0, 1)
    const base = {
      domain: DOMAIN,
      place: { game: GAME, sender: 0 as const, seq: 1, envelopeHash: envelopeHashOf(envelope) },
      envelope,
      recipientKey: B.publicKey,
      senderKey: A.publicKey,
      floor: 256,
      randomness: randomness('x'),
    }
    expect(sealDeposit({ ...base, recipientKey: new Uint8Array(32) })).toMatchObject({
      ok: false,
      error: { code: 'key.small-order', field: 'recipientKey' },
    })
    expect(sealDeposit({ ...base, floor: 300 })).toMatchObject({ ok: false, error: { code: 'deposit.padding' } })
    expect(sealDeposit({ ...base, envelope: new Uint8Array(MAX_PADDED_BYTES) })).toMatchObject({
      ok: false,
      error: { code: 'deposit.size' },
    })
  })

  it('any byte changed: the deposit does not open through a wrap the change touches, with a code, and nothing throws', () => {
    const { deposit, recipient, me, o } = deposited(300)
    fc.assert(
      fc.property(fc.nat({ max: deposit.length - 1 }), fc.integer({ min: 1, max: 255 }), (at, x) => {
        const bad = deposit.slice()
        bad[at] = (bad[at] ?? 0) ^ x
        for (const forWhom of [0, 1] as const) {
          const r = openDeposit(bad, forWhom, [recipient, me][forWhom]!.secretKey, o)
          // A wrap is read by its owner only: a change in the other wrap leaves this one whole
          // (the deposit hash in the header covers every byte, NOTARY.md §4.3).
          // Both encs are checked before either wrap is opened (NOTARY.md §4.2), so a change in
          // the other wrap's enc may make it no usable point (about 15 in 16 u-coordinates are not).
          const other = 80 * (1 - forWhom)
          if (at >= other + 32 && at < other + 80) expect(r.ok).toBe(true)
          else if (at >= other && at < other + 32) expect(r.ok || r.error.code === 'deposit.enc').toBe(true)
          else expect(r.ok).toBe(false)
          if (!r.ok) expect(CODES.has(r.error.code)).toBe(true)
        }
      }),
      { numRuns: 300 },
    )
  })

  it('the notary sees only the size class and the encs: a changed enc that is no usable point is refused by depositParts', () => {
    const { deposit } = deposited(40)
    expect(depositParts(deposit).ok).toBe(true)
    const bad = deposit.slice()
    bad.fill(0, 0, 32)
    expect(depositParts(bad)).toMatchObject({ ok: false, error: { code: 'deposit.enc', field: 'deposit.wrap[0].enc' } })
  })
})
