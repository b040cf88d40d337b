/**
 * A player's submission of an envelope to the notary of a witnessed game (SPAAACE-WITNESSED §5.1,
 * §5.2): one content key, `n` HPKE wraps in roster order (the author's own included), the envelope
 * padded to exactly PAD_W, so every deposit of a game is `DEP(n)` bytes; and the opening of a
 * deposit by a reader, stopping at the first of §5.2's steps 1-5 that fails. Step 5 is
 * header-level only: a body that does not decode is the author's violation (w2), judged by the
 * decision, not a false deposit.
 */
import { compareBytes } from '../peers/parts.js'
import type { KeyPair } from '../../../core/commit/keys.js'
import type { SecretSource } from '../../../core/commit/secrets.js'
import {
  CONTENT_KEY_BYTES,
  depositHash,
  depositWraps,
  openDepositWraps,
  sealDepositTo,
} from '../../../core/notary/deposit.js'
import { type NotaryResult, accepted, refused } from '../../../core/notary/domain.js'
import { FLAG, type SubmissionHeader, encodeHeader, signHeader } from '../../../core/notary/header.js'
import { HEADER_BYTES, SIGNATURE_BYTES } from '../peers/domain.js'
import { type SealedEnvelope, readEnvelope } from '../peers/envelope.js'
import { SPAAACE_LAYOUT, SPAAACE_NOTARY_DOMAIN, depositBytesOf } from './domain.js'
import { paddingFloorW } from './registrar.js'

const RULE = 'SPAAACE-WITNESSED §5.2'

/** The randomness of one deposit: the content key and one X25519 ephemeral secret per wrap. */
export interface DepositRandomnessW {
  readonly contentKey: Uint8Array
  readonly ephemeral: readonly Uint8Array[]
}

export function freshDepositRandomnessW(source: SecretSource, n: number): DepositRandomnessW {
  return {
    contentKey: source.bytes(CONTENT_KEY_BYTES),
    ephemeral: Array.from({ length: n }, () => source.bytes(32)),
  }
}

export interface SubmissionW {
  /** The 181-byte signed header (§5.1). */
  readonly header: Uint8Array
  /** The `DEP(n)`-byte deposit (§5.2). */
  readonly deposit: Uint8Array
}

/**
 * §5.1, §5.2: the submission of `sealed` (the author's own envelope, `seq ≥ 1`) to all `roster`
 * keys: its deposit and its header, signed by `keys` (the author's). `end` sets the end flag
 * (§8.2: the seed envelope only). Refuses an envelope above MAX_ENVELOPE_W or unusable keys.
 */
export function submissionW(o: {
  readonly keys: KeyPair
  readonly sealed: SealedEnvelope
  readonly roster: readonly Uint8Array[]
  readonly randomness: DepositRandomnessW
  readonly end?: boolean
}): NotaryResult<SubmissionW> {
  const e = o.sealed.envelope
  if (e.seq < 1) return refused('deposit.size', 'envelope.seq', RULE, 'an accept is registered, never submitted (§4.1)')
  if (paddingFloorW(o.sealed.bytes) === 0)
    return refused(
      'deposit.size',
      'envelope',
      RULE,
      `${o.sealed.bytes.length} bytes cannot be padded to the deposit width`,
    )
  const place = { game: e.game, sender: e.author, seq: e.seq, envelopeHash: o.sealed.hash }
  const deposit = sealDepositTo({
    domain: SPAAACE_NOTARY_DOMAIN,
    place,
    envelope: o.sealed.bytes,
    keys: o.roster,
    floor: paddingFloorW(o.sealed.bytes),
    contentKey: o.randomness.contentKey,
    ephemeral: o.randomness.ephemeral,
  })
  if (!deposit.ok) return deposit
  const header = signHeader<number>(SPAAACE_NOTARY_DOMAIN, o.keys, {
    game: e.game,
    sender: e.author,
    seq: e.seq,
    envelopeHash: o.sealed.hash,
    depositHash: depositHash(SPAAACE_NOTARY_DOMAIN, deposit.value),
    depositBytes: depositBytesOf(o.roster.length),
    flags: o.end === true ? FLAG.end : 0,
    deadline: 0,
    seen: 0,
  })
  return accepted({ header: encodeHeader(header, SPAAACE_LAYOUT), deposit: deposit.value })
}

/**
 * §5.2 step 5: whether `envelope` has a header in the sense of BD-6 for this game (at least 132
 * bytes, version 1, author `< n`, game `G`, `prev = G` iff `seq = 0`), with the header's author and
 * `seq`, and hash `envelopeHash`. Heads and parts are not read.
 */
export function envelopeMatchesHeader(envelope: Uint8Array, h: SubmissionHeader<number>, n: number): boolean {
  return envelopeProblem(envelope, h, n) === undefined
}

function envelopeProblem(envelope: Uint8Array, h: SubmissionHeader<number>, n: number): string | undefined {
  if (envelope.length < HEADER_BYTES + SIGNATURE_BYTES) return `${envelope.length} bytes: no header and signature`
  const read = readEnvelope(envelope, { players: n, game: h.game })
  if (!read.ok) return `the header does not decode: ${read.error.field}: ${read.error.message}`
  const e = read.value.header
  if (e.author !== h.sender || e.seq !== h.seq)
    return `author ${e.author} seq ${e.seq}, the header says ${h.sender} ${h.seq}`
  // `prev = G` iff `seq = 0`: the decoder checks the one way, this the other.
  if (e.seq !== 0 && compareBytes(e.prev, h.game) === 0) return 'prev is the game id at seq above 0'
  if (compareBytes(read.value.hash, h.envelopeHash) !== 0) return "the envelope's hash is not the header's"
  return undefined
}

/**
 * §5.2: opens the deposit of envelope receipt header `h` as roster member `reader` (its wrap) with
 * its Ed25519 seed, in an `n`-player game, stopping at the first failing step: (1) `deposit.size`
 * / `deposit.enc`, (2) `deposit.wrap`, (3) `deposit.body`, (4) `deposit.padding`, (5)
 * `deposit.envelope`. The envelope's bytes when all hold.
 */
export function openDepositW(
  deposit: Uint8Array,
  h: SubmissionHeader<number>,
  reader: number,
  seed: Uint8Array,
  n: number,
): NotaryResult<Uint8Array> {
  const first = stepOne(deposit, n)
  if (!first.ok) return first
  const place = { game: h.game, sender: h.sender, seq: h.seq, envelopeHash: h.envelopeHash }
  const opened = openDepositWraps(deposit, n, reader, seed, {
    domain: SPAAACE_NOTARY_DOMAIN,
    place,
    floor: paddingFloorW,
  })
  if (!opened.ok) return opened
  return stepFive(opened.value, h, n)
}

/** §5.2 step 1: length `DEP(n)` and every `enc` usable. */
export function stepOne(deposit: Uint8Array, n: number): NotaryResult<void> {
  if (deposit.length !== depositBytesOf(n))
    return refused('deposit.size', 'deposit', RULE, `${deposit.length} bytes; DEP(${n}) is ${depositBytesOf(n)}`)
  const parts = depositWraps(deposit, n)
  return parts.ok ? accepted(undefined) : parts
}

/** §5.2 step 5 as a coded result. */
export function stepFive(envelope: Uint8Array, h: SubmissionHeader<number>, n: number): NotaryResult<Uint8Array> {
  const why = envelopeProblem(envelope, h, n)
  return why === undefined ? accepted(envelope) : refused('deposit.envelope', 'envelope', RULE, why)
}
