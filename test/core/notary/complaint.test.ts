/**
 * NOTARY.md §5 (PROTOCOL-4.md §5.3): the complaint's Chaum-Pedersen proof and the judgement of a
 * complaint. An honest proof verifies and discloses the wrap's X25519 value; a proof for another
 * key, another point, -Q, Q plus torsion, a non-canonical point or z >= L does not. A complaint
 * holds only when the deposit truly does not open as its header says.
 */
import { ed25519, x25519 } from '@noble/curves/ed25519.js'
import { describe, expect, it } from 'vitest'
import { concatBytes, fromHex, toHex } from '../../../src/core/commit/bytes.js'
import { SMALL_ORDER_ENCODINGS, keyPairFromSecret } from '../../../src/core/commit/keys.js'
import { judgeComplaint, makeComplaint } from '../../../src/core/notary/complaint.js'
import { depositParts, sealDeposit } from '../../../src/core/notary/deposit.js'
import { taggedHash } from '../../../src/core/commit/hash.js'
import { proveDh, verifyDhProof } from '../../../src/core/notary/proof.js'
import { x25519SecretKey } from '../../../src/core/notary/x25519.js'
import { A, B, DOMAIN, GAME, envelopeAt, envelopeHashOf, randomness, submission } from './helpers.js'

const Point = ed25519.Point
const value = <T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
  if (!r.ok) throw new Error(r.error.message)
  return r.value
}
const enc0 = (deposit: Uint8Array): Uint8Array => value(depositParts(deposit)).wraps[0].enc

describe("the complaint's proof (NOTARY.md §5.2)", () => {
  const { deposit } = submission(0, 1)
  const enc = enc0(deposit)

  it('an honest proof verifies, and its dh is X25519(secret, enc): the value that opens the wrap', () => {
    const p = value(proveDh(DOMAIN, B.secretKey, enc))
    const dh = value(verifyDhProof(DOMAIN, B.publicKey, enc, p.q, p.proof))
    expect(toHex(dh)).toBe(toHex(x25519.getSharedSecret(value(x25519SecretKey(B.secretKey)), enc)))
    expect(toHex(p.dh)).toBe(toHex(dh))
  })

  it('refused: another key, another enc, -Q, Q + B, Q plus torsion, a changed R1, R2 or z, z >= L', () => {
    const p = value(proveDh(DOMAIN, B.secretKey, enc))
    const code = (key: Uint8Array, e: Uint8Array, q: Uint8Array, proof: Uint8Array): string => {
      const r = verifyDhProof(DOMAIN, key, e, q, proof)
      return r.ok ? 'accepted' : r.error.code
    }
    expect(code(A.publicKey, enc, p.q, p.proof)).toBe('proof.equation')
    expect(code(B.publicKey, enc0(submission(1, 1).deposit), p.q, p.proof)).toBe('proof.equation')
    const Q = Point.fromBytes(p.q)
    expect(code(B.publicKey, enc, Q.negate().toBytes(), p.proof)).toBe('proof.equation')
    expect(code(B.publicKey, enc, Q.add(Point.BASE).toBytes(), p.proof)).toBe('proof.equation')
    const torsion = Point.fromBytes(fromHex(SMALL_ORDER_ENCODINGS[4]!))
    expect(code(B.publicKey, enc, Q.add(torsion).toBytes(), p.proof)).toBe('key.torsion')
    for (const at of [0, 40, 70]) {
      const bad = p.proof.slice()
      bad[at] = (bad[at] ?? 0) ^ 1
      expect(code(B.publicKey, enc, p.q, bad)).toMatch(/^proof\.(equation|point)$/)
    }
    const L = fromHex('edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010')
    expect(code(B.publicKey, enc, p.q, concatBytes(p.proof.subarray(0, 64), L))).toBe('proof.scalar')
    const yP = fromHex('edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f')
    expect(code(B.publicKey, enc, p.q, concatBytes(yP, p.proof.subarray(32)))).toBe('proof.point')
    expect(code(B.publicKey, enc, p.q, p.proof.subarray(1))).toBe('proof.point')
  })

  it('a complainant whose key has a torsion component cannot complain (the statement needs prime order)', () => {
    const torsion = Point.fromBytes(fromHex(SMALL_ORDER_ENCODINGS[4]!))
    const mixed = Point.fromBytes(B.publicKey).add(torsion).toBytes()
    const p = value(proveDh(DOMAIN, B.secretKey, enc))
    expect(verifyDhProof(DOMAIN, mixed, enc, p.q, p.proof)).toMatchObject({
      ok: false,
      error: { code: 'key.torsion', field: 'key' },
    })
  })

  it('the challenge is bound to the tag: a proof under another tag does not verify', () => {
    const p = value(proveDh({ ...DOMAIN, complaintProof: 'spaceships/5/complaint-proof' }, B.secretKey, enc))
    expect(verifyDhProof(DOMAIN, B.publicKey, enc, p.q, p.proof)).toMatchObject({
      ok: false,
      error: { code: 'proof.equation' },
    })
  })
})

describe('judging a complaint (NOTARY.md §5.3)', () => {
  const matches = (
    envelope: Uint8Array,
    h: { game: Uint8Array; sender: number; seq: number; envelopeHash: Uint8Array },
  ): boolean =>
    toHex(envelope) === toHex(envelopeAt(h.game, h.sender as 0 | 1, h.seq, envelope.length)) &&
    toHex(envelopeHashOf(envelope)) === toHex(h.envelopeHash)
  const judge = (header: ReturnType<typeof submission>['header'], deposit: Uint8Array, by = B, sender: 0 | 1 = 1) => {
    const complaint = value(makeComplaint(DOMAIN, by, { game: GAME, sender, index: 3, deposit }))
    return judgeComplaint({
      domain: DOMAIN,
      complaint,
      header,
      deposit,
      complainantKey: by.publicKey,
      floor: 256,
      envelopeMatches: matches,
    })
  }
  /** A deposit the sender signs a header for, sealed with `o` changed. */
  const dishonest = (o: { recipientKey?: Uint8Array; envelope?: Uint8Array; seq?: number }) => {
    const honest = submission(0, 2)
    const envelope = o.envelope ?? honest.envelope
    const deposit = value(
      sealDeposit({
        domain: DOMAIN,
        place: { game: GAME, sender: 0, seq: o.seq ?? 2, envelopeHash: honest.header.envelopeHash },
        envelope,
        recipientKey: o.recipientKey ?? B.publicKey,
        senderKey: A.publicKey,
        floor: 256,
        randomness: randomness('dishonest'),
      }),
    )
    const header = {
      ...honest.header,
      depositHash: taggedHash(DOMAIN.depositHash, deposit),
      depositBytes: deposit.length,
    }
    return { header, deposit }
  }

  it("an honest deposit: the complaint fails ('complaint.opens'), so nobody can accuse an honest sender", () => {
    const { header, deposit } = submission(0, 2)
    expect(judge(header, deposit)).toMatchObject({ ok: false, error: { code: 'complaint.opens' } })
  })

  it('a deposit wrapped to another key, or under another place: the complaint holds (false-deposit)', () => {
    const stranger = keyPairFromSecret(new Uint8Array(32).fill(9))
    const a = dishonest({ recipientKey: stranger.publicKey })
    expect(judge(a.header, a.deposit)).toMatchObject({
      ok: true,
      value: expect.stringMatching(/^deposit\.wrap/) as unknown,
    })
    const b = dishonest({ seq: 3 })
    expect(judge(b.header, b.deposit)).toMatchObject({
      ok: true,
      value: expect.stringMatching(/^deposit\.wrap/) as unknown,
    })
  })

  it("a deposit that opens to bytes not the game's envelope at the header's place: the complaint holds", () => {
    const c = dishonest({ envelope: envelopeAt(GAME, 0, 7) })
    expect(judge(c.header, c.deposit)).toMatchObject({
      ok: true,
      value: expect.stringMatching(/not the envelope/) as unknown,
    })
  })

  it("refused: a deposit that is not the header's, a complaint about one's own envelope, another game", () => {
    const { header, deposit } = submission(0, 2)
    const other = submission(0, 3).deposit
    expect(judge(header, other)).toMatchObject({ ok: false, error: { code: 'complaint.deposit' } })
    expect(judge(header, deposit, A, 0)).toMatchObject({ ok: false, error: { code: 'complaint.place' } })
    expect(judge({ ...header, game: new Uint8Array(32) }, deposit)).toMatchObject({
      ok: false,
      error: { code: 'complaint.place' },
    })
  })
})
