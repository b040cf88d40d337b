/**
 * Builds protocol/vectors/notary.json (NOTARY.md §10) from fixed seeds and fixed randomness: the
 * keys and their X25519 forms, a deposit with every intermediate value, a submission header, a
 * genesis, an envelope and a seal receipt signed by a fixed notary key, a complaint with its
 * proof, and A's claim request with its claim receipt. `UPDATE_VECTORS=1 npx vitest run test/core/notary/vectors.test.ts` rewrites the file.
 */
import { ed25519 } from '@noble/curves/ed25519.js'
import { sha512 } from '@noble/hashes/sha2.js'
import { concatBytes, fromHex, toHex, utf8 } from '../../../src/core/commit/bytes.js'
import { tag, taggedHash } from '../../../src/core/commit/hash.js'
import { keyPairFromSecret } from '../../../src/core/commit/keys.js'
import { encodeClaim, encodeUnsignedClaim, signClaim } from '../../../src/core/notary/claim.js'
import { encodeComplaint, makeComplaint } from '../../../src/core/notary/complaint.js'
import { depositHash, depositInfo, depositParts, sealDeposit } from '../../../src/core/notary/deposit.js'
import type { NotaryDomain } from '../../../src/core/notary/domain.js'
import { encodeHeader, encodeUnsignedHeader, signHeader } from '../../../src/core/notary/header.js'
import { proveDh } from '../../../src/core/notary/proof.js'
import { receiptHash, signReceipt } from '../../../src/core/notary/receipt.js'
import { x25519PublicKey, x25519SecretKey } from '../../../src/core/notary/x25519.js'

/** Spaceships' protocol 4 tags (NOTARY.md §2). */
export const VECTOR_DOMAIN = {
  submission: 'spaceships/4/submission',
  receipt: 'spaceships/4/receipt',
  receiptHash: 'spaceships/4/receipt-hash',
  deposit: 'spaceships/4/deposit',
  depositHash: 'spaceships/4/deposit-hash',
  complaint: 'spaceships/4/complaint',
  complaintProof: 'spaceships/4/complaint-proof',
  claim: 'spaceships/4/claim',
} as const satisfies NotaryDomain

const h = (label: string): Uint8Array => taggedHash('notary-vectors', utf8(label))
const ok = <T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
  if (!r.ok) throw new Error(r.error.message)
  return r.value
}

export function notaryVectors(): Record<string, unknown> {
  const D = VECTOR_DOMAIN
  const seeds = { A: h('seed A'), B: h('seed B'), notary: h('seed notary') }
  const [A, B, N] = [seeds.A, seeds.B, seeds.notary].map((s) => keyPairFromSecret(s)) as [
    ReturnType<typeof keyPairFromSecret>,
    ReturnType<typeof keyPairFromSecret>,
    ReturnType<typeof keyPairFromSecret>,
  ]
  const keys = Object.fromEntries(
    Object.entries({ A, B, notary: N }).map(([name, k]) => [
      name,
      {
        seed: toHex(k.secretKey),
        ed25519Public: toHex(k.publicKey),
        x25519Secret: toHex(ok(x25519SecretKey(k.secretKey))),
        x25519Public: toHex(ok(x25519PublicKey(k.publicKey))),
      },
    ]),
  )
  const helloA = concatBytes(fromHex('04'), utf8("A's hello (a stand-in: the notary core never reads a hello)"))
  const helloB = concatBytes(fromHex('04'), utf8("B's hello"))
  const game = h('game')
  const envelope = concatBytes(fromHex('04'), utf8("A's envelope at seq 1 (a stand-in)"))
  const envelopeHash = h('envelope hash')
  const randomness = { contentKey: h('content key'), ephemeral: [h('ephemeral for'), h('ephemeral own')] as const }
  const place = { game, sender: 0 as const, seq: 1, envelopeHash }
  const deposit = ok(
    sealDeposit({
      domain: D,
      place,
      envelope,
      recipientKey: B.publicKey,
      senderKey: A.publicKey,
      floor: 256,
      randomness,
    }),
  )
  const parts = ok(depositParts(deposit))
  const unsignedHeader = {
    game,
    sender: 0 as const,
    seq: 1,
    envelopeHash,
    depositHash: depositHash(D, deposit),
    depositBytes: deposit.length,
    flags: 0,
    deadline: 0,
    seen: 0,
  }
  const header = signHeader(D, A, unsignedHeader)
  const mixedOrder = mixedOrderSignature(
    seeds.A,
    A.publicKey,
    concatBytes(tag(D.submission), encodeUnsignedHeader(unsignedHeader)),
  )
  const t0 = 1_767_225_600_000
  const genesis = signReceipt(D, N, {
    kind: 'genesis',
    game,
    index: 0,
    prev: new Uint8Array(32),
    time: t0,
    helloA,
    helloB,
  })
  const envelopeReceipt = signReceipt(D, N, {
    kind: 'envelope',
    game,
    index: 1,
    prev: receiptHash(D, genesis),
    time: t0 + 1500,
    header,
  })
  const seal = signReceipt(D, N, {
    kind: 'seal',
    game,
    index: 2,
    prev: receiptHash(D, envelopeReceipt),
    time: t0 + 90_000,
  })
  const proof = ok(proveDh(D, B.secretKey, parts.wraps[0].enc))
  const complaint = ok(makeComplaint(D, B, { game, sender: 1, index: 1, deposit }))
  // PROTOCOL-4.md §4.4 step 1: A asks to claim at its next place (seq 2) having seen receipt 1;
  // receipted at index 2 after the deadline, on another branch than the seal's.
  const unsignedClaim = { game, sender: 0 as const, seq: 2, deadline: t0 + 60_000, seen: 1 }
  const claim = signClaim(D, A, unsignedClaim)
  const claimReceipt = signReceipt(D, N, {
    kind: 'claim',
    game,
    index: 2,
    prev: receiptHash(D, envelopeReceipt),
    time: t0 + 60_001,
    claim,
  })
  return {
    about: 'NOTARY.md §10: every value in hex; recompute each from the inputs above it.',
    domain: D,
    keys,
    game: toHex(game),
    deposit: {
      inputs: {
        sender: 0,
        seq: 1,
        envelope: toHex(envelope),
        envelopeHash: toHex(envelopeHash),
        floor: 256,
        contentKey: toHex(randomness.contentKey),
        ephemeralSecretForRecipient: toHex(randomness.ephemeral[0]),
        ephemeralSecretForSender: toHex(randomness.ephemeral[1]),
      },
      infoForRecipient: toHex(depositInfo(D, place, 0)),
      infoForSender: toHex(depositInfo(D, place, 1)),
      encForRecipient: toHex(parts.wraps[0].enc),
      encForSender: toHex(parts.wraps[1].enc),
      padded: toHex(concatBytes(envelope, fromHex('80'), new Uint8Array(256 - envelope.length - 1))),
      deposit: toHex(deposit),
      depositHash: toHex(depositHash(D, deposit)),
    },
    header: {
      unsigned: toHex(encodeUnsignedHeader(unsignedHeader)),
      signedMessage: toHex(concatBytes(tag(D.submission), encodeUnsignedHeader(unsignedHeader))),
      header: toHex(encodeHeader(header)),
      // SPEC §5.2, NOTARY.md §7.5: the same header signed with an R that has a small-order part:
      // a cofactored verifier accepts it, the rule does not; a notary MUST refuse it (code 4), and
      // a receipt over it is the notary's fault receipt-invalid (§6 item 3).
      mixedOrderR: toHex(concatBytes(encodeUnsignedHeader(unsignedHeader), mixedOrder)),
    },
    receipts: {
      genesis: {
        helloA: toHex(helloA),
        helloB: toHex(helloB),
        time: t0,
        receipt: toHex(genesis),
        receiptHash: toHex(receiptHash(D, genesis)),
      },
      envelope: {
        time: t0 + 1500,
        receipt: toHex(envelopeReceipt),
        receiptHash: toHex(receiptHash(D, envelopeReceipt)),
      },
      seal: { time: t0 + 90_000, receipt: toHex(seal) },
    },
    complaint: {
      about:
        "B's complaint about receipt 1 (this deposit opens: a notary refuses it with complaint-invalid, complaint.opens)",
      dhPointQ: toHex(proof.q),
      x25519Dh: toHex(proof.dh),
      proof: toHex(proof.proof),
      complaint: toHex(encodeComplaint(complaint)),
    },
    claim: {
      about:
        "A's claim request (NOTARY.md §3.3) for its stop at seq 2, having seen the envelope receipt 1, and its claim receipt at index 2, chained to receipt 1 (the log genesis, envelope, claim: not the seal's)",
      fields: {
        sender: unsignedClaim.sender,
        seq: unsignedClaim.seq,
        deadline: unsignedClaim.deadline,
        seen: unsignedClaim.seen,
      },
      unsigned: toHex(encodeUnsignedClaim(unsignedClaim)),
      signedMessage: toHex(concatBytes(tag(D.claim), encodeUnsignedClaim(unsignedClaim))),
      claim: toHex(encodeClaim(claim)),
      receipt: {
        index: 2,
        time: t0 + 60_001,
        receipt: toHex(claimReceipt),
        receiptHash: toHex(receiptHash(D, claimReceipt)),
      },
    },
  }
}

/** The order of the Ed25519 group's prime subgroup. */
const L = 2n ** 252n + 27742317777372353535851937790883648493n
/** A point of order 8 (its encoding): added to R, it passes the cofactored equation and fails the cofactorless one. */
const ORDER_8 = '26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05'

function leBytes(n: bigint): Uint8Array {
  const out = new Uint8Array(32)
  for (let i = 0; i < 32; i++) out[i] = Number((n >> BigInt(8 * i)) & 0xffn)
  return out
}

function leNumber(b: Uint8Array): bigint {
  let n = 0n
  for (let i = b.length - 1; i >= 0; i--) n = (n << 8n) | BigInt(b[i] ?? 0)
  return n
}

/** R = rB + T (T of order 8), S = r + H(R ‖ A ‖ M)·a: valid under a cofactored verifier only (SPEC §5.2). */
export function mixedOrderSignature(seed: Uint8Array, publicKey: Uint8Array, message: Uint8Array): Uint8Array {
  const a = ed25519.utils.getExtendedPublicKey(seed).scalar
  const r = 4_242n
  const R = ed25519.Point.BASE.multiply(r).add(ed25519.Point.fromHex(ORDER_8)).toBytes()
  const k = leNumber(sha512(concatBytes(R, publicKey, message))) % L
  return concatBytes(R, leBytes((r + k * a) % L))
}
