/**
 * Fixtures for witnessed Spaaace! (SPAAACE-WITNESSED.md): a witnessed genesis of `n` players from
 * the peers' fixed key pool, its accepts and genesis body, envelopes at a place, submissions, and a
 * builder of signed receipt chains under a notary key the test owns.
 */
import { seededSecrets } from '../../../../src/core/commit/secrets.js'
import { type KeyPair, keyPairFromSecret, sign } from '../../../../src/core/commit/keys.js'
import { concatBytes } from '../../../../src/core/commit/bytes.js'
import { tag } from '../../../../src/core/commit/hash.js'
import { layoutOf } from '../../../../src/core/notary/domain.js'
import {
  type ReceiptBody,
  encodeUnsignedReceipt,
  receiptHash,
  signReceipt,
} from '../../../../src/core/notary/receipt.js'
import { depositHash } from '../../../../src/core/notary/deposit.js'
import { type SubmissionHeader, encodeHeader, signHeader } from '../../../../src/core/notary/header.js'
import { sealEnvelope, type SealedEnvelope } from '../../../../src/games/spaaace/peers/envelope.js'
import { type SealedGenesis, signAccept } from '../../../../src/games/spaaace/peers/genesis.js'
import {
  SPAAACE_LAYOUT,
  SPAAACE_NOTARY_DOMAIN,
  depositBytesOf,
  encodeGenesisBody,
  freshDepositRandomnessW,
  submissionW,
} from '../../../../src/games/spaaace/witness/index.js'
import { fixed, liveGenesis, roster, sealedGenesis } from '../peers/fixtures.js'

export const NOTARY_W = keyPairFromSecret(fixed('witnessed notary'))

export interface Witnessed {
  readonly genesis: SealedGenesis
  readonly players: readonly KeyPair[]
  readonly roster: readonly Uint8Array[]
  readonly body: Uint8Array
}

/** A witnessed genesis of `n` players naming NOTARY_W (or `notary`), its accepts and body0. */
export function witnessed(n: number, o: { notary?: KeyPair; start?: number; maxTicks?: number } = {}): Witnessed {
  const base = liveGenesis(n)
  const genesis = sealedGenesis({
    ...base,
    notaryKey: (o.notary ?? NOTARY_W).publicKey,
    timing: { ...base.timing, start: o.start ?? base.timing.start },
    terms: { ...base.terms, maxTicks: o.maxTicks ?? base.terms.maxTicks },
  })
  const players = roster(n)
  const accepts = players.map((k, i) => signAccept(k, genesis.game, i).bytes)
  return { genesis, players, roster: players.map((k) => k.publicKey), body: encodeGenesisBody(genesis.bytes, accepts) }
}

/** Author `i`'s envelope at `seq` (a commitment of tick `seq`), `prev` the given hash or a fixed one. */
export function envelopeOf(w: Witnessed, i: number, seq: number, prev?: Uint8Array): SealedEnvelope {
  const k = w.players[i]
  if (k === undefined) throw new Error(`no player ${i}`)
  return sealEnvelope(k, {
    author: i,
    seq,
    game: w.genesis.game,
    prev: prev ?? fixed(`prev ${i} ${seq}`),
    heads: [],
    parts: [{ type: 'commit', tick: seq, commitment: fixed(`commitment ${i} ${seq}`) }],
  })
}

/** Author `i`'s submission at `seq`: header bytes and deposit. */
export function submissionOfW(
  w: Witnessed,
  i: number,
  seq: number,
  o: { end?: boolean; envelope?: SealedEnvelope } = {},
): { header: Uint8Array; deposit: Uint8Array; envelope: SealedEnvelope } {
  const envelope = o.envelope ?? envelopeOf(w, i, seq)
  const k = w.players[i]
  if (k === undefined) throw new Error(`no player ${i}`)
  const s = submissionW({
    keys: k,
    sealed: envelope,
    roster: w.roster,
    randomness: freshDepositRandomnessW(seededSecrets(`witness-test/${i}/${seq}`), w.roster.length),
    ...(o.end === undefined ? {} : { end: o.end }),
  })
  if (!s.ok) throw new Error(s.error.message)
  return { ...s.value, envelope }
}

/**
 * Receipt bytes `unsigned` signed as the notary signs a receipt (SPAAACE-WITNESSED §6.3
 * `receipt-invalid`: bytes an honest notary never signs, signed all the same).
 */
export function signedByNotary(unsigned: Uint8Array, notary: KeyPair = NOTARY_W): Uint8Array {
  return concatBytes(unsigned, sign(notary, concatBytes(tag(SPAAACE_NOTARY_DOMAIN.receipt), unsigned)))
}

/** A mark receipt's unsigned bytes with its `t` set to 0: they do not decode (SPAAACE-WITNESSED §6.1). */
export function markWithTickZero(unsigned: Uint8Array): Uint8Array {
  const out = unsigned.slice()
  // A mark's body is u16 t ‖ u8 cut, the last three unsigned bytes.
  out[out.length - 3] = 0
  out[out.length - 2] = 0
  return out
}

/** A signed receipt chain built body by body (the notary is the test's). */
export class ChainBuilder {
  readonly receipts: Uint8Array[] = []
  constructor(
    readonly game: Uint8Array,
    readonly notary: KeyPair = NOTARY_W,
  ) {}

  /** Appends the next receipt at `time` (or at an index and prev of the caller's choosing). */
  add(body: ReceiptBody<number>, time: number, at?: { index: number; prev: Uint8Array }): Uint8Array {
    const last = this.receipts.at(-1)
    const index = at?.index ?? this.receipts.length
    const prev = at?.prev ?? (last === undefined ? new Uint8Array(32) : receiptHash(SPAAACE_NOTARY_DOMAIN, last))
    const bytes = signReceipt(SPAAACE_NOTARY_DOMAIN, this.notary, { game: this.game, index, prev, time, ...body })
    if (at === undefined) this.receipts.push(bytes)
    return bytes
  }

  /**
   * Appends the next receipt as the notary signs bytes it should never sign (SPAAACE-WITNESSED §6.3
   * `receipt-invalid`): `body` encoded, then `edit`ed (unsigned bytes in, bytes out), then signed.
   */
  addEdited(body: ReceiptBody<number>, time: number, edit: (unsigned: Uint8Array) => Uint8Array): Uint8Array {
    const last = this.receipts.at(-1)
    const index = this.receipts.length
    const prev = last === undefined ? new Uint8Array(32) : receiptHash(SPAAACE_NOTARY_DOMAIN, last)
    const unsigned = edit(
      encodeUnsignedReceipt({ game: this.game, index, prev, time, ...body }, layoutOf(SPAAACE_NOTARY_DOMAIN)),
    )
    const bytes = signedByNotary(unsigned, this.notary)
    this.receipts.push(bytes)
    return bytes
  }
}

export const keysOf = (label: string): KeyPair => keyPairFromSecret(fixed(label))

/** Author `i`'s signed header (decoded) for `envelope` and an arbitrary `deposit` (a crafted one). */
export function headerFor(
  w: Witnessed,
  i: number,
  envelope: SealedEnvelope,
  deposit: Uint8Array,
  o: { flags?: number; depositBytes?: number; deadline?: number; seen?: number } = {},
): SubmissionHeader<number> {
  const k = w.players[i]
  if (k === undefined) throw new Error(`no player ${i}`)
  return signHeader<number>(SPAAACE_NOTARY_DOMAIN, k, {
    game: w.genesis.game,
    sender: i,
    seq: envelope.envelope.seq,
    envelopeHash: envelope.hash,
    depositHash: depositHash(SPAAACE_NOTARY_DOMAIN, deposit),
    depositBytes: o.depositBytes ?? depositBytesOf(w.roster.length),
    flags: o.flags ?? 0,
    deadline: o.deadline ?? 0,
    seen: o.seen ?? 0,
  })
}

export const encodeH = (h: SubmissionHeader<number>): Uint8Array => encodeHeader(h, SPAAACE_LAYOUT)
