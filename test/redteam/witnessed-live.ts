/**
 * Red-team helpers for witnessed games (PROTOCOL-4.md §4, NOTARY.md §7.5): the witnessed vectors'
 * honest game (test/protocol/witnessed-builder.ts), and a real notary (NotaryStore on disk, a
 * virtual clock) to which the players' headers, claim requests, complaints and seal requests are
 * sent as their nodes, or a cheater owning its key, would send them. Every receipt the notary
 * returns is kept in `lines` after the envelope it is for, as a node's transcript holds them.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { seededSecrets } from '../../src/core/commit/secrets.js'
import { encodeClaim, signClaim } from '../../src/core/notary/claim.js'
import { encodeComplaint, makeComplaint } from '../../src/core/notary/complaint.js'
import { depositHash, freshDepositRandomness } from '../../src/core/notary/deposit.js'
import { decodeHeader, encodeHeader, signHeader } from '../../src/core/notary/header.js'
import type { NotaryResponse } from '../../src/core/notary/messages.js'
import { decodeReceipt } from '../../src/core/notary/receipt.js'
import { Notary } from '../../src/core/notary-service/notary.js'
import { NotaryStore } from '../../src/core/notary-service/store.js'
import type { Requester } from '../../src/core/notary-service/state.js'
import { VirtualClock } from '../../src/core/session/clock.js'
import { NOTARY_DOMAIN } from '../../src/games/spaceships/protocol/domain.js'
import type { SealedEnvelope } from '../../src/games/spaceships/protocol/envelope.js'
import { memoryStore } from '../../src/games/spaceships/protocol/file.js'
import { ROLE_INDEX, type Role, otherRole } from '../../src/games/spaceships/protocol/messages.js'
import { spaceshipsRegistrar } from '../../src/games/spaceships/witness/registrar.js'
import { submissionOf } from '../../src/games/spaceships/witness/submission.js'
import { SETUP_A, SETUP_B } from '../helpers.js'
import { oracle } from '../protocol/build-vectors.js'
import {
  W_NOTARY,
  W_T0,
  W_TERMS,
  type Stage,
  type WitnessedPlay,
  stageOf,
  witnessedPlay,
} from '../protocol/witnessed-builder.js'
import { playInMemory } from '../session/helpers.js'
import { formatTranscript } from '../../src/games/spaceships/protocol/file.js'

/** The witnessed vectors' game, played as test/verify/witnessed.test.ts plays it, and its stage. */
export async function vectorStage(): Promise<{ play: WitnessedPlay; stage: Stage }> {
  const name = 'v4-w'
  const g = await playInMemory(`vector/${name}`, {
    version: 4,
    stores: [memoryStore(), memoryStore()],
    terms: W_TERMS,
    strategies: [oracle(SETUP_A, SETUP_B, `v/${name}/a`), oracle(SETUP_B, SETUP_A, `v/${name}/b`)],
  })
  const play = witnessedPlay(`vector/${name}`, formatTranscript(g.a.transcript))
  return { play, stage: stageOf(play) }
}

export interface SubmitOptions {
  /** Rewrites the header's flags (the sender signs the header again: it owns its key). */
  readonly flags?: (flags: number) => number
  /** Flips bytes of the recipient's wrap so that the recipient cannot open the deposit (PROTOCOL-4.md §5.3). */
  readonly garbleRecipientWrap?: boolean
  readonly claim?: { readonly deadline: number; readonly seen: number }
}

/** One game at a real notary, on a virtual clock starting at W_T0. */
export class Live {
  readonly clock = new VirtualClock(W_T0)
  readonly notary: Notary
  /** The transcript as a node holding everything would have it: envelopes and every receipt returned. */
  readonly lines: Uint8Array[] = []
  /** The deposits of the receipts returned, by receipt index. */
  readonly deposits = new Map<number, Uint8Array>()
  private readonly dir = mkdtempSync(join(tmpdir(), 'redteam-w-'))
  private readonly randomness

  constructor(readonly play: WitnessedPlay) {
    this.notary = new Notary({
      keys: W_NOTARY,
      registrar: spaceshipsRegistrar,
      clock: this.clock,
      store: new NotaryStore(join(this.dir, 'notary.sqlite')),
    })
    this.randomness = seededSecrets(`${play.seed}/redteam-deposits`)
  }

  close(): void {
    rmSync(this.dir, { recursive: true, force: true })
  }

  as(role: Role): Requester {
    const key = this.play.keys[role].publicKey
    return { peer: Buffer.from(key).toString('hex'), key }
  }

  /** Keeps a receipt answer's receipt; returns the answer. */
  keep(a: NotaryResponse, deposit?: Uint8Array): NotaryResponse {
    if (a.kind === 'receipt') {
      const d = decodeReceipt(a.receipt)
      if (d.ok && !this.lines.some((l) => Buffer.from(l).equals(Buffer.from(a.receipt)))) {
        this.lines.push(a.receipt)
        if (deposit !== undefined) this.deposits.set(d.value.index, deposit)
      }
    }
    return a
  }

  /** The index of receipt answer `a` (throws otherwise). */
  static index(a: NotaryResponse): number {
    if (a.kind !== 'receipt') throw new Error(`not a receipt: ${JSON.stringify(a)}`)
    const d = decodeReceipt(a.receipt)
    if (!d.ok) throw new Error('a receipt that does not decode')
    return d.value.index
  }

  register(): NotaryResponse {
    const [a, b] = this.play.envelopes
    if (a === undefined || b === undefined) throw new Error('no hellos')
    this.lines.push(a.bytes, b.bytes)
    return this.keep(this.notary.handle({ kind: 'register', helloA: a.bytes, helloB: b.bytes }, this.as('A')))
  }

  /** The submission of `s` by its sender (or `by`: headers prove themselves), as `o` alters it. */
  submission(s: SealedEnvelope, o: SubmitOptions = {}): { header: Uint8Array; deposit: Uint8Array } {
    const sender = s.envelope.sender
    const sub = submissionOf({
      keys: this.play.keys[sender],
      sealed: s,
      recipientKey: this.play.keys[otherRole(sender)].publicKey,
      randomness: freshDepositRandomness(this.randomness),
      ...(o.claim === undefined ? {} : { claim: o.claim }),
    })
    if (!sub.ok) throw new Error(sub.error.message)
    let { header, deposit } = sub.value
    if (o.flags === undefined && o.garbleRecipientWrap !== true) return { header, deposit }
    const d = decodeHeader(header)
    if (!d.ok) throw new Error('header')
    if (o.garbleRecipientWrap === true) {
      deposit = deposit.slice()
      // The recipient's wrap is enc[32] ‖ wrapped[48]: its AEAD tag no longer holds (NOTARY.md §4).
      for (let i = 40; i < 80; i++) deposit[i] = (deposit[i] ?? 0) ^ 0x5a
    }
    const h = signHeader(NOTARY_DOMAIN, this.play.keys[sender], {
      ...d.value,
      depositHash: depositHash(NOTARY_DOMAIN, deposit),
      depositBytes: deposit.length,
      flags: o.flags === undefined ? d.value.flags : o.flags(d.value.flags),
    })
    header = encodeHeader(h)
    return { header, deposit }
  }

  /** Submits `s` at notary time `at` (its line first, then its receipt, as a node appends them). */
  submit(s: SealedEnvelope, at: number, o: SubmitOptions & { readonly hold?: boolean } = {}): NotaryResponse {
    this.clock.advanceTo(at)
    const { header, deposit } = this.submission(s, o)
    if (o.hold !== true) this.lines.push(s.bytes)
    return this.keep(this.notary.handle({ kind: 'submit', header, deposit }, this.as(s.envelope.sender)), deposit)
  }

  /** The last index of the notary's log. */
  get last(): number {
    return Math.max(...this.lines.flatMap((l) => (l[0] === 0x84 ? [Live.indexOf(l)] : [])))
  }

  static indexOf(bytes: Uint8Array): number {
    const d = decodeReceipt(bytes)
    if (!d.ok) throw new Error('not a receipt')
    return d.value.index
  }

  /** A claim request of `side` at notary time `at` (PROTOCOL-4.md §4.4 step 1). */
  claim(side: Role, seq: number, deadline: number, seen: number, at: number): NotaryResponse {
    this.clock.advanceTo(at)
    const claim = encodeClaim(
      signClaim(NOTARY_DOMAIN, this.play.keys[side], {
        game: this.play.game,
        sender: ROLE_INDEX[side],
        seq,
        deadline,
        seen,
      }),
    )
    return this.keep(this.notary.handle({ kind: 'claim', claim }, this.as(side)))
  }

  /** `side`'s complaint about the deposit of receipt `index` (PROTOCOL-4.md §5.3). */
  complain(side: Role, index: number, at: number): NotaryResponse {
    this.clock.advanceTo(at)
    const deposit = this.deposits.get(index)
    if (deposit === undefined) throw new Error('no deposit held for that receipt')
    const c = makeComplaint(NOTARY_DOMAIN, this.play.keys[side], {
      game: this.play.game,
      sender: ROLE_INDEX[side],
      index,
      deposit,
    })
    if (!c.ok) throw new Error(c.error.message)
    return this.keep(this.notary.handle({ kind: 'complain', complaint: encodeComplaint(c.value) }, this.as(side)))
  }

  seal(side: Role, at: number): NotaryResponse {
    this.clock.advanceTo(at)
    return this.keep(this.notary.handle({ kind: 'seal', game: this.play.game }, this.as(side)))
  }

  /** Registers the game at W_T0 and submits the stage's prefix one `stepMs` apart; returns the last time. */
  prefix(stage: Stage, stepMs = 1_000): number {
    this.register()
    let t = W_T0
    for (const s of stage.prefix.slice(2)) {
      t += stepMs
      const a = this.submit(s, t)
      if (a.kind !== 'receipt') throw new Error(`the prefix was refused: ${JSON.stringify(a)}`)
    }
    return t
  }
}
