/**
 * Witnessed transcripts by hand (SPEC §12.7a, PROTOCOL-4.md §4.4): an honest version 4 game played
 * with terms naming a test notary, cut where one side owes a step, the stops the case needs signed
 * with the players' own keys (a stop with the reveal of the turns its sender committed), and the
 * notary's receipts signed by the notary's key at chosen times: the genesis, envelope receipts with
 * the headers a node submits (witness/submission.ts), and claim receipts of claim requests.
 *
 * Used by the vectors (build-vectors-witnessed.ts) and by test/verify/witnessed.test.ts.
 */
import { concatBytes, toBase64url, utf8 } from '../../src/core/commit/bytes.js'
import { sha256, tag } from '../../src/core/commit/hash.js'
import { type KeyPair, generateKeyPair, keyPairFromSecret, sign } from '../../src/core/commit/keys.js'
import { seededSecrets } from '../../src/core/commit/secrets.js'
import { transcriptHeader } from '../../src/core/transcript/file.js'
import { signClaim } from '../../src/core/notary/claim.js'
import { makeComplaint } from '../../src/core/notary/complaint.js'
import { depositHash, freshDepositRandomness } from '../../src/core/notary/deposit.js'
import { FLAG, decodeHeader, signHeader } from '../../src/core/notary/header.js'
import { type ReceiptBody, decodeReceipt, receiptHash, signReceipt } from '../../src/core/notary/receipt.js'
import { NOTARY_DOMAIN } from '../../src/games/spaceships/protocol/domain.js'
import { type SealedEnvelope, decodeEnvelope, seal } from '../../src/games/spaceships/protocol/envelope.js'
import { TRANSCRIPTS } from '../../src/games/spaceships/protocol/file.js'
import { ROLE_INDEX, type Role, type StopReason, type Terms, otherRole } from '../../src/games/spaceships/protocol/messages.js'
import { WITNESS_MARGIN_MS } from '../../src/games/spaceships/witness/registrar.js'
import { submissionOf } from '../../src/games/spaceships/witness/submission.js'
import { TERMS } from '../session/helpers.js'

/** The test notary of the witnessed vectors. */
export const W_NOTARY: KeyPair = keyPairFromSecret(sha256(utf8('vector/v4-w/notary')))
/** The genesis's time (ms since 1970), 2027-01-15. */
export const W_T0 = 1_800_000_000_000
/** Every receipt of the honest prefix follows the one before by this much: no step is late. */
export const W_STEP_MS = 1_000
/** The witnessed vectors' terms: the tests' deadlines, a 2-minute reserve, the test notary. */
export const W_TERMS: Terms = { ...TERMS, maxTurns: 40, reserveMs: 120_000, notary: W_NOTARY.publicKey }

export interface WitnessedPlay {
  /** The game's seed (`vector/NAME`), from which the players' keys come (test/session/helpers.ts). */
  readonly seed: string
  /** Every envelope of A's file of the whole honest game, in its line order (causal). */
  readonly envelopes: readonly SealedEnvelope[]
  readonly keys: Readonly<Record<Role, KeyPair>>
  readonly game: Uint8Array
}

export function witnessedPlay(seed: string, fileOfA: string): WitnessedPlay {
  const envelopes = fileOfA
    .split('\n')
    .slice(1, -1)
    .map((l) => {
      const d = decodeEnvelope(Buffer.from(l, 'base64url'))
      if (!d.ok) throw new Error('undecodable line in a played game')
      return d.value
    })
  const game = envelopes.find((s) => s.envelope.game !== undefined)?.envelope.game
  if (game === undefined) throw new Error('no game id')
  // As test/session/helpers.ts draws them: the key pair first from `${seed}/${role}`.
  const keys = { A: generateKeyPair(seededSecrets(`${seed}/A`)), B: generateKeyPair(seededSecrets(`${seed}/B`)) }
  return { seed, envelopes, keys, game }
}

/**
 * The honest game's envelopes up to and including the first one `stopAt` accepts, in A's line order:
 * the phase envelopes a case starts from.
 */
export function prefixOf(play: WitnessedPlay, stopAt: (s: SealedEnvelope, i: number) => boolean): SealedEnvelope[] {
  const at = play.envelopes.findIndex(stopAt)
  if (at < 0) throw new Error('no such envelope in the played game')
  return play.envelopes.slice(0, at + 1)
}

/** A turn-1 envelope of `sender` holding a part of type `t` (the prefix ends there). */
export const turnOne =
  (sender: Role, t: string) =>
  (s: SealedEnvelope): boolean =>
    s.envelope.sender === sender &&
    s.envelope.parts.some((p) => p.t === t && 'turn' in p && p.turn === 1) &&
    s.envelope.parts[0]?.t !== 'stop'

/**
 * A stop envelope of `side` after `before` (the envelopes of the case so far), acknowledging `ack`:
 * a `stop` part with `reason`, then the reveal of the turns `side` committed (SPEC §6.5, §7.8),
 * taken from its reveal in the whole game.
 */
export function signStop(
  play: WitnessedPlay,
  side: Role,
  reason: StopReason,
  before: readonly SealedEnvelope[],
  ack: SealedEnvelope,
  detail = '',
): SealedEnvelope {
  const mine = before.filter((s) => s.envelope.sender === side)
  const last = mine.at(-1)
  if (last === undefined) throw new Error('no envelope of that side')
  const commits = mine.flatMap((s) => s.envelope.parts.filter((p) => p.t === 'commit')).length
  const reveal = play.envelopes
    .filter((s) => s.envelope.sender === side)
    .flatMap((s) => s.envelope.parts)
    .find((p) => p.t === 'reveal')
  if (reveal?.t !== 'reveal') throw new Error('no reveal in the played game')
  return seal(play.keys[side], {
    version: 4,
    sender: side,
    seq: last.envelope.seq + 1,
    game: play.game,
    prev: last.hash,
    ack: ack.hash,
    parts: [
      { t: 'stop', reason, detail },
      { ...reveal, records: reveal.records.slice(0, commits) },
    ],
  })
}

/** The last phase envelope of `side` among `envelopes`. */
export function lastOf(envelopes: readonly SealedEnvelope[], side: Role): SealedEnvelope {
  const s = envelopes.filter((e) => e.envelope.sender === side && e.envelope.parts[0]?.t !== 'stop').at(-1)
  if (s === undefined) throw new Error('no envelope of that side')
  return s
}

/** The notary's log of one case, signed receipt by receipt (PROTOCOL-4.md §4.1). */
export class NotaryLog {
  readonly receipts: Uint8Array[] = []
  /** The deposit of each envelope receipt, by index (a complaint receipt carries one). */
  readonly deposits = new Map<number, Uint8Array>()
  private readonly randomness

  constructor(
    readonly play: WitnessedPlay,
    readonly notary: KeyPair = W_NOTARY,
  ) {
    this.randomness = seededSecrets(`${play.seed}/deposits`)
  }

  /** The index of the last receipt (-1 before the genesis). */
  get last(): number {
    return this.receipts.length - 1
  }

  /** The time of receipt `index`. */
  timeOf(index: number): number {
    const d = decodeReceipt(this.receipts[index] ?? new Uint8Array())
    if (!d.ok) throw new Error('no such receipt')
    return d.value.time
  }

  append(body: ReceiptBody, time: number): Uint8Array {
    const prevBytes = this.receipts.at(-1)
    const bytes = signReceipt(NOTARY_DOMAIN, this.notary, {
      game: this.play.game,
      index: this.receipts.length,
      prev: prevBytes === undefined ? new Uint8Array(32) : receiptHash(NOTARY_DOMAIN, prevBytes),
      time,
      ...body,
    })
    this.receipts.push(bytes)
    return bytes
  }

  genesis(time: number): Uint8Array {
    const [a, b] = this.play.envelopes
    if (a === undefined || b === undefined) throw new Error('no hellos')
    return this.append({ kind: 'genesis', helloA: a.bytes, helloB: b.bytes }, time)
  }

  /**
   * The receipt of `s`'s submission header as its node signs it (witness/submission.ts), with the
   * claim flag, `deadline` and `seen` when `claim` is given, or the outage flag; with
   * `garbleRecipientWrap`, a cheater's: the recipient's wrap flipped (the deposit does not open,
   * PROTOCOL-4.md §5.3) and the header signed over the garbled deposit.
   */
  envelope(
    s: SealedEnvelope,
    time: number,
    o: {
      readonly claim?: { readonly deadline: number; readonly seen: number }
      readonly outage?: boolean
      readonly garbleRecipientWrap?: boolean
    } = {},
  ): Uint8Array {
    const sender = s.envelope.sender
    const sub = submissionOf({
      keys: this.play.keys[sender],
      sealed: s,
      recipientKey: this.play.keys[otherRole(sender)].publicKey,
      randomness: freshDepositRandomness(this.randomness),
      ...(o.claim === undefined ? {} : { claim: o.claim }),
    })
    if (!sub.ok) throw new Error(sub.error.message)
    const d = decodeHeader(sub.value.header)
    if (!d.ok) throw new Error('header')
    // submissionOf sets the claim flag when told; the outage flag is set here and the header signed again.
    let deposit = sub.value.deposit
    if (o.garbleRecipientWrap === true) {
      deposit = deposit.slice()
      // The recipient's wrap is enc[32] ‖ wrapped[48]: its AEAD tag no longer holds (NOTARY.md §4).
      for (let i = 40; i < 80; i++) deposit[i] = (deposit[i] ?? 0) ^ 0x5a
    }
    const header =
      o.outage === true || o.garbleRecipientWrap === true
        ? signHeader(NOTARY_DOMAIN, this.play.keys[sender], {
            ...d.value,
            depositHash: depositHash(NOTARY_DOMAIN, deposit),
            depositBytes: deposit.length,
            flags: o.outage === true ? d.value.flags | FLAG.outage : d.value.flags,
          })
        : d.value
    this.deposits.set(this.receipts.length, deposit)
    return this.append({ kind: 'envelope', header }, time)
  }

  /** PROTOCOL-4.md §5.3: the receipt of `side`'s complaint about the deposit of envelope receipt `index`. */
  complaint(side: Role, index: number, time: number): Uint8Array {
    const deposit = this.deposits.get(index)
    if (deposit === undefined) throw new Error('no deposit of that receipt')
    const c = makeComplaint(NOTARY_DOMAIN, this.play.keys[side], {
      game: this.play.game,
      sender: ROLE_INDEX[side],
      index,
      deposit,
    })
    if (!c.ok) throw new Error(c.error.message)
    return this.append({ kind: 'complaint', complaint: c.value, deposit }, time)
  }

  /** PROTOCOL-4.md §4.4: the receipt of `side`'s claim request for its stop at `seq`. */
  claim(side: Role, seq: number, deadline: number, seen: number, time: number): Uint8Array {
    const claim = signClaim(NOTARY_DOMAIN, this.play.keys[side], {
      game: this.play.game,
      sender: ROLE_INDEX[side],
      seq,
      deadline,
      seen,
    })
    return this.append({ kind: 'claim', claim }, time)
  }

  /**
   * Receipt `index` with the last byte of its header's player signature flipped, signed by the
   * notary all the same: bytes an honest notary never signs (it checks that signature first), its
   * fault `receipt-invalid` at `index` (NOTARY.md §6 item 3).
   */
  brokenHeader(index: number): Uint8Array {
    const bytes = this.receipts[index] ?? new Uint8Array()
    const unsigned = bytes.slice(0, bytes.length - 64)
    unsigned[unsigned.length - 1] = (unsigned[unsigned.length - 1] ?? 0) ^ 1
    return concatBytes(unsigned, sign(this.notary, concatBytes(tag(NOTARY_DOMAIN.receipt), unsigned)))
  }

  /** Receipt `index` with kind byte `kind` (none a reader knows from 5 on), signed by the notary: it does not decode. */
  unknownKind(index: number, kind: number): Uint8Array {
    const bytes = this.receipts[index] ?? new Uint8Array()
    const unsigned = bytes.slice(0, bytes.length - 64)
    unsigned[1] = kind
    return concatBytes(unsigned, sign(this.notary, concatBytes(tag(NOTARY_DOMAIN.receipt), unsigned)))
  }

  /** A second receipt at `index`, as the first but at another time: two receipts at one index (a notary fault, §4.1). */
  fork(index: number, time: number): Uint8Array {
    const d = decodeReceipt(this.receipts[index] ?? new Uint8Array())
    if (!d.ok) throw new Error('no such receipt')
    return signReceipt(NOTARY_DOMAIN, this.notary, { ...d.value, time })
  }
}

/**
 * The honest prefix with its receipts: the genesis at `W_T0`, then every envelope after the hellos
 * receipted `W_STEP_MS` after the one before, each receipt's line after its envelope's (as a node
 * appends what it fetches). Returns the lines and `D` of the step the prefix leaves due (reply
 * step: `replyMs` + the whole reserve + the margin, no step having been late).
 */
export function receiptedPrefix(
  log: NotaryLog,
  prefix: readonly SealedEnvelope[],
): { lines: (SealedEnvelope | Uint8Array)[]; lastTime: number } {
  const lines: (SealedEnvelope | Uint8Array)[] = []
  let time = W_T0
  prefix.forEach((s, i) => {
    lines.push(s)
    if (i === 1) lines.push(log.genesis(time))
    if (i >= 2) {
      time += W_STEP_MS
      lines.push(log.envelope(s, time))
    }
  })
  return { lines, lastTime: time }
}

/** `D` of a step made due at `start` with `ms` and the whole reserve (PROTOCOL-4.md §4.2). */
export function deadlineOf(start: number, ms: number, terms: Terms = W_TERMS): number {
  return start + ms + (terms.reserveMs ?? 0) + WITNESS_MARGIN_MS
}

/** A version 4 transcript file of these lines (envelopes and receipts). */
export function witnessedFile(lines: readonly (SealedEnvelope | Uint8Array)[]): string {
  const text = lines.map((l) => toBase64url(l instanceof Uint8Array ? l : l.bytes))
  return [transcriptHeader(TRANSCRIPTS[4]), ...text].join('\n') + '\n'
}

/**
 * The witnessed vectors' stage: the honest game cut after A's turn-1 aspects and results (step 3),
 * so that B owes its results (step 4, a reply step); `b4` is B's step 4 in the whole game.
 */
export interface Stage {
  readonly play: WitnessedPlay
  readonly prefix: readonly SealedEnvelope[]
  /** A's step 3, the last envelope of the prefix. */
  readonly a3: SealedEnvelope
  /** B's step 2, which A's stops acknowledge. */
  readonly b2: SealedEnvelope
  /** B's step 4 in the whole game (the owed envelope), never in the prefix. */
  readonly b4: SealedEnvelope
}

export function stageOf(play: WitnessedPlay): Stage {
  const prefix = prefixOf(play, turnOne('A', 'results'))
  const b4 = play.envelopes[prefix.length]
  if (b4?.envelope.sender !== 'B') throw new Error("the prefix is not followed by B's step 4")
  return { play, prefix, a3: lastOf(prefix, 'A'), b2: lastOf(prefix, 'B'), b4 }
}

/** One case on the stage: a fresh log with the honest prefix receipted, its lines, and `D` of B's step 4. */
export class Case {
  readonly log: NotaryLog
  readonly lines: (SealedEnvelope | Uint8Array)[]
  readonly D: number

  constructor(readonly stage: Stage) {
    this.log = new NotaryLog(stage.play)
    const { lines, lastTime } = receiptedPrefix(this.log, stage.prefix)
    this.lines = lines
    this.D = deadlineOf(lastTime, W_TERMS.replyMs)
  }

  /** Lines at the end of the file. */
  push(...lines: (SealedEnvelope | Uint8Array)[]): this {
    this.lines.push(...lines)
    return this
  }

  /** `s` and its receipt at `time`. */
  receipted(s: SealedEnvelope, time: number, o: Parameters<NotaryLog['envelope']>[2] = {}): this {
    return this.push(s, this.log.envelope(s, time, o))
  }

  /**
   * A claims B's step at its next seq (PROTOCOL-4.md §4.4): the claim request receipted at `at`
   * with `deadline` (D by default), `between` run after it, then A's claim stop (acknowledging B's
   * step 2) receipted at `stopAt` with the claim flag, the request's deadline and `seen` the claim
   * receipt's index. Returns the stop.
   */
  claimByA(at: number, stopAt: number, deadline = this.D, between: (c: this) => void = () => undefined): SealedEnvelope {
    const { play, prefix, a3, b2 } = this.stage
    this.push(this.log.claim('A', a3.envelope.seq + 1, deadline, this.log.last, at))
    const claimIndex = this.log.last
    between(this)
    const stop = signStop(play, 'A', 'claim', prefix, b2)
    this.receipted(stop, stopAt, { claim: { deadline, seen: claimIndex } })
    return stop
  }

  file(): string {
    return witnessedFile(this.lines)
  }
}
