/**
 * Fixtures for the notary layer's tests: Spaceships' protocol 4 tag table (NOTARY.md §2, which the
 * game will define on its side), seeded keys, and a small builder of signed logs.
 */
import { seededSecrets } from '../../../src/core/commit/secrets.js'
import { type KeyPair, keyPairFromSecret } from '../../../src/core/commit/keys.js'
import { taggedHash } from '../../../src/core/commit/hash.js'
import { utf8 } from '../../../src/core/commit/bytes.js'
import type { NotaryDomain } from '../../../src/core/notary/domain.js'
import { type Claim, encodeClaim, signClaim } from '../../../src/core/notary/claim.js'
import { type DepositRandomness, freshDepositRandomness, sealDeposit } from '../../../src/core/notary/deposit.js'
import { type SubmissionHeader, type UnsignedHeader, signHeader } from '../../../src/core/notary/header.js'
import { type ReceiptBody, receiptHash, signReceipt } from '../../../src/core/notary/receipt.js'

export const DOMAIN = {
  submission: 'spaceships/4/submission',
  receipt: 'spaceships/4/receipt',
  receiptHash: 'spaceships/4/receipt-hash',
  deposit: 'spaceships/4/deposit',
  depositHash: 'spaceships/4/deposit-hash',
  complaint: 'spaceships/4/complaint',
  complaintProof: 'spaceships/4/complaint-proof',
  claim: 'spaceships/4/claim',
} as const satisfies NotaryDomain

export function keys(name: string): KeyPair {
  return keyPairFromSecret(seededSecrets(`notary-test/${name}`).bytes(32))
}

export const A = keys('A')
export const B = keys('B')
export const NOTARY = keys('notary')
export const PLAYERS = [A, B] as const

/** A stand-in for a game's envelope at a place: its bytes name the game, sender and seq. */
export function envelopeAt(game: Uint8Array, sender: 0 | 1, seq: number, size = 40): Uint8Array {
  const out = new Uint8Array(Math.max(size, 35))
  out.set(game)
  out[32] = sender
  out[33] = seq >> 8
  out[34] = seq & 0xff
  for (let i = 35; i < out.length; i++) out[i] = (i * 7 + seq) & 0xff
  return out
}

export const envelopeHashOf = (envelope: Uint8Array): Uint8Array => taggedHash('test/envelope-hash', envelope)

export const GAME = taggedHash('test/game', utf8('game 1'))
export const HELLO_A = utf8('hello from A, with terms naming the notary')
export const HELLO_B = utf8('hello from B, acknowledging A')

export function randomness(label: string): DepositRandomness {
  return freshDepositRandomness(seededSecrets(`notary-test/randomness/${label}`))
}

/** A signed header and its deposit for `sender`'s envelope at `seq`. */
export function submission(
  sender: 0 | 1,
  seq: number,
  o: { game?: Uint8Array; flags?: number; deadline?: number; seen?: number; size?: number; floor?: number } = {},
): { header: SubmissionHeader; deposit: Uint8Array; envelope: Uint8Array } {
  const game = o.game ?? GAME
  const envelope = envelopeAt(game, sender, seq, o.size)
  const envelopeHash = envelopeHashOf(envelope)
  const d = sealDeposit({
    domain: DOMAIN,
    place: { game, sender, seq, envelopeHash },
    envelope,
    recipientKey: PLAYERS[1 - sender]!.publicKey,
    senderKey: PLAYERS[sender].publicKey,
    floor: o.floor ?? 256,
    randomness: randomness(`${sender}/${seq}/${o.size ?? 0}`),
  })
  if (!d.ok) throw new Error(d.error.message)
  const unsigned: UnsignedHeader = {
    game,
    sender,
    seq,
    envelopeHash,
    depositHash: taggedHash(DOMAIN.depositHash, d.value),
    depositBytes: d.value.length,
    flags: o.flags ?? 0,
    deadline: o.deadline ?? 0,
    seen: o.seen ?? 0,
  }
  return { header: signHeader(DOMAIN, PLAYERS[sender], unsigned), deposit: d.value, envelope }
}

/** A claim request of `sender` for its stop at `seq` (PROTOCOL-4.md §4.4), signed; with its bytes. */
export function claimRequest(
  sender: 0 | 1,
  seq: number,
  o: { game?: Uint8Array; deadline: number; seen: number; by?: KeyPair },
): { claim: Claim; bytes: Uint8Array } {
  const claim = signClaim(DOMAIN, o.by ?? PLAYERS[sender], {
    game: o.game ?? GAME,
    sender,
    seq,
    deadline: o.deadline,
    seen: o.seen,
  })
  return { claim, bytes: encodeClaim(claim) }
}

type Body = ReceiptBody

/** Signs receipts as a notary would, chaining each to the one before (or to `prev` when given). */
export class LogBuilder {
  readonly receipts: Uint8Array[] = []
  constructor(
    readonly notary: KeyPair = NOTARY,
    readonly game: Uint8Array = GAME,
  ) {}

  add(body: Body, time: number, o: { index?: number; prev?: Uint8Array } = {}): Uint8Array {
    const last = this.receipts.at(-1)
    const index = o.index ?? this.receipts.length
    const prev = o.prev ?? (last === undefined || index === 0 ? new Uint8Array(32) : receiptHash(DOMAIN, last))
    const bytes = signReceipt(DOMAIN, this.notary, { game: this.game, index, prev, time, ...body })
    this.receipts.push(bytes)
    return bytes
  }

  genesis(time = 1000): Uint8Array {
    return this.add({ kind: 'genesis', helloA: HELLO_A, helloB: HELLO_B }, time)
  }
}
