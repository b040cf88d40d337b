/**
 * A witnessed Spaaace! game driven for the vectors of SPAAACE-WITNESSED §13: fixed keys (the peers'
 * key pool, NOTARY_W), seeded deposit randomness, fixed times on the notary's VirtualClock. Every
 * receipt comes from the real notary service (`Notary` over an in-memory store) while the notary
 * is honest; a misbehaving notary is played by signing receipts with NOTARY_W directly (`forge`),
 * after which the game's log is the forger's. Each player's file holds the receipts it fetched, its
 * own envelopes, the deposits its wrap opens, relays opened and what the mesh showed it.
 */
import { concatBytes } from '../../../../src/core/commit/bytes.js'
import { seededSecrets } from '../../../../src/core/commit/secrets.js'
import type { KeyPair } from '../../../../src/core/commit/keys.js'
import { layoutOf } from '../../../../src/core/notary/domain.js'
import { decodeComplaint } from '../../../../src/core/notary/complaint.js'
import { depositHash, sealDepositTo } from '../../../../src/core/notary/deposit.js'
import { type SubmissionHeader, decodeHeader, encodeHeader, signHeader } from '../../../../src/core/notary/header.js'
import type { NotaryResponse } from '../../../../src/core/notary/messages.js'
import {
  type ReceiptBody,
  encodeUnsignedReceipt,
  receiptHash,
  signReceipt,
} from '../../../../src/core/notary/receipt.js'
import { Notary } from '../../../../src/core/notary-service/notary.js'
import type { Requester } from '../../../../src/core/notary-service/state.js'
import { NotaryStore } from '../../../../src/core/notary-service/store.js'
import { VirtualClock } from '../../../../src/core/session/clock.js'
import {
  type Head,
  type SealedEnvelope,
  envelopeHash,
  sealEnvelope,
  signingMessage,
} from '../../../../src/games/spaaace/peers/envelope.js'
import { type SealedGenesis, signAccept, tickTimes } from '../../../../src/games/spaaace/peers/genesis.js'
import { type Part, commitmentOf, saltOf } from '../../../../src/games/spaaace/peers/parts.js'
import { formatPeersTranscript } from '../../../../src/games/spaaace/peers/transcript.js'
import {
  SPAAACE_LAYOUT,
  SPAAACE_NOTARY_DOMAIN,
  buildComplaint,
  buildRelay,
  depositBytesOf,
  encodeGenesisBody,
  freshDepositRandomnessW,
  openDepositW,
  openRelayW,
  paddingFloorW,
  spaaaceRegistrar,
} from '../../../../src/games/spaaace/witness/index.js'
import { sign } from '../../../../src/core/commit/keys.js'
import { fixed, liveGenesis, roster, sealedGenesis } from '../peers/fixtures.js'
import { NOTARY_W, signedByNotary } from './fixtures.js'

/** An envelope as deposited: its bytes, identity and place (a `SealedEnvelope`, or raw bytes for (w2)). */
export interface Deposited {
  readonly bytes: Uint8Array
  readonly hash: Uint8Array
  readonly author: number
  readonly seq: number
}

const asDeposited = (e: SealedEnvelope): Deposited => ({
  bytes: e.bytes,
  hash: e.hash,
  author: e.envelope.author,
  seq: e.envelope.seq,
})

export interface GameOptions {
  readonly n?: number
  readonly maxTicks?: number
  readonly absentTicks?: number
}

const BIG = { submissionsPerPeerPerMinute: 1e6, fetchesPerPeerPerMinute: 1e6 }

export class VectorGame {
  readonly genesis: SealedGenesis
  readonly keys: readonly KeyPair[]
  readonly rosterKeys: readonly Uint8Array[]
  readonly accepts: readonly SealedEnvelope[]
  readonly body: Uint8Array
  readonly n: number
  readonly clock: VirtualClock
  readonly notary: Notary
  /** The log as the honest notary gave it, then as the forger continued it. */
  readonly log: Uint8Array[] = []
  /** Envelope receipts' headers and deposits, by index. */
  readonly deposits = new Map<number, { header: SubmissionHeader<number>; deposit: Uint8Array }>()
  /** Every envelope signed, by author, in signing order (accepts first). */
  readonly own: Deposited[][]
  readonly tips: SealedEnvelope[]
  readonly seeds: readonly Uint8Array[]
  /** Envelopes a player got over the mesh or by a relay. */
  readonly shown: Uint8Array[][]
  /** Refusals seen, in order: what was asked and the notary's code. */
  readonly refusals: { what: string; code: string }[] = []
  forging = false
  private draws = 0
  private readonly opened = new Map<string, Uint8Array | null>()

  constructor(
    readonly name: string,
    o: GameOptions = {},
  ) {
    const n = o.n ?? 5
    this.n = n
    const base = liveGenesis(n)
    this.genesis = sealedGenesis({
      ...base,
      notaryKey: NOTARY_W.publicKey,
      terms: { ...base.terms, maxTicks: o.maxTicks ?? 2, absentTicks: o.absentTicks ?? 3 },
    })
    this.keys = roster(n)
    this.rosterKeys = this.keys.map((k) => k.publicKey)
    this.accepts = this.keys.map((k, i) => signAccept(k, this.genesis.game, i))
    this.body = encodeGenesisBody(
      this.genesis.bytes,
      this.accepts.map((a) => a.bytes),
    )
    this.own = this.accepts.map((a) => [asDeposited(a)])
    this.tips = [...this.accepts]
    this.seeds = this.keys.map((_, i) => fixed(`witnessed vector seed ${i}`))
    this.shown = this.keys.map(() => [])
    this.clock = new VirtualClock(this.T(1) - 60_000)
    this.notary = new Notary({
      keys: NOTARY_W,
      registrar: spaaaceRegistrar,
      clock: this.clock,
      store: new NotaryStore(':memory:'),
      limits: BIG,
    })
  }

  /** `T_t`, `C_t`, `R_t`, `F_t = C_{t+1}` (SPAAACE-WITNESSED §2). */
  T(t: number): number {
    return tickTimes(this.genesis.genesis.timing, t).start
  }
  C(t: number): number {
    return tickTimes(this.genesis.genesis.timing, t).commitCut
  }
  R(t: number): number {
    return tickTimes(this.genesis.genesis.timing, t).revealCut
  }
  F(t: number): number {
    return this.C(t + 1)
  }
  /** The tick length `L`. */
  get L(): number {
    return this.T(2) - this.T(1)
  }

  from(q: number): Requester {
    return { peer: `p${q + 1}`, key: this.rosterKeys[q] }
  }

  private at(time: number): void {
    if (time < this.clock.now()) throw new Error(`${this.name}: time runs backwards (${time} < ${this.clock.now()})`)
    this.clock.advanceTo(time)
  }

  private take(r: NotaryResponse, what: string): number | undefined {
    if (r.kind === 'receipt') {
      const before = this.log.length
      // A repeat answers the receipt already held.
      if (this.log.some((x) => Buffer.compare(Buffer.from(x), Buffer.from(r.receipt)) === 0)) return undefined
      this.log.push(r.receipt)
      return before
    }
    if (r.kind === 'refused') this.refusals.push({ what, code: r.code })
    else if (r.kind === 'log') this.refusals.push({ what, code: 'log' })
    else this.refusals.push({ what, code: r.kind })
    return undefined
  }

  /** Signs the next receipt after the game's log (or at `at`, off the log) with NOTARY_W. */
  forge(body: ReceiptBody<number>, time: number, at?: { index: number; on: readonly Uint8Array[] }): Uint8Array {
    const on = at?.on ?? this.log
    const index = at?.index ?? on.length
    const last = on[index - 1]
    const prev = last === undefined ? new Uint8Array(32) : receiptHash(SPAAACE_NOTARY_DOMAIN, last)
    const bytes = signReceipt(SPAAACE_NOTARY_DOMAIN, NOTARY_W, { game: this.genesis.game, index, prev, time, ...body })
    if (at === undefined) {
      this.forging = true
      this.log.push(bytes)
    }
    return bytes
  }

  /**
   * Signs, as the next receipt of the log, bytes the honest notary never signs (SPAAACE-WITNESSED
   * §6.3 `receipt-invalid`): `body` encoded, then `edit`ed, then signed with NOTARY_W.
   */
  forgeEdited(body: ReceiptBody<number>, time: number, edit: (unsigned: Uint8Array) => Uint8Array): Uint8Array {
    const index = this.log.length
    const last = this.log[index - 1]
    const prev = last === undefined ? new Uint8Array(32) : receiptHash(SPAAACE_NOTARY_DOMAIN, last)
    const unsigned = edit(
      encodeUnsignedReceipt({ game: this.genesis.game, index, prev, time, ...body }, layoutOf(SPAAACE_NOTARY_DOMAIN)),
    )
    const bytes = signedByNotary(unsigned)
    this.forging = true
    this.log.push(bytes)
    return bytes
  }

  register(time = this.T(1) - 30_000): void {
    this.at(time)
    const i = this.take(this.notary.registerGenesis(this.body, this.from(0)), 'register')
    if (i !== 0) throw new Error(`${this.name}: registration failed`)
  }

  /** Player `q` signs its next envelope (`prev` the last it signed unless given). */
  sign(q: number, parts: Part[], o: { heads?: Head[]; prev?: Uint8Array; keepTip?: boolean } = {}): SealedEnvelope {
    const tip = this.tips[q]
    const key = this.keys[q]
    if (tip === undefined || key === undefined) throw new Error('no such player')
    const e = sealEnvelope(key, {
      author: q,
      seq: tip.envelope.seq + 1,
      game: this.genesis.game,
      prev: o.prev ?? tip.hash,
      heads: o.heads ?? [],
      parts,
    })
    if (o.keepTip !== true) this.tips[q] = e
    this.own[q]?.push(asDeposited(e))
    return e
  }

  /** Raw envelope bytes `header ‖ body ‖ sig` of `q` at its next seq, signed (a body that need not decode). */
  signRaw(q: number, body: Uint8Array): Deposited {
    const tip = this.tips[q]
    const key = this.keys[q]
    if (tip === undefined || key === undefined) throw new Error('no such player')
    const seq = tip.envelope.seq + 1
    const head = new Uint8Array(68)
    head[0] = 1
    head[1] = q
    head[2] = seq >> 8
    head[3] = seq & 0xff
    head.set(this.genesis.game, 4)
    head.set(tip.hash, 36)
    const unsigned = concatBytes(head, body)
    const d: Deposited = {
      bytes: concatBytes(unsigned, sign(key, signingMessage(unsigned))),
      hash: envelopeHash(unsigned),
      author: q,
      seq,
    }
    this.own[q]?.push(d)
    return d
  }

  /** §5.1, §5.2: `e`'s header and deposit, the deposit holding `content` (default `e`), wraps in `garble` spoiled. */
  submission(
    e: Deposited,
    o: { end?: boolean; garble?: readonly number[]; content?: Uint8Array; flags?: number } = {},
  ): { header: SubmissionHeader<number>; bytes: Uint8Array; deposit: Uint8Array } {
    const key = this.keys[e.author]
    if (key === undefined) throw new Error('no such player')
    const r = freshDepositRandomnessW(seededSecrets(`spaaace-witnessed-vectors/${this.name}/${this.draws++}`), this.n)
    const content = o.content ?? e.bytes
    const d = sealDepositTo({
      domain: SPAAACE_NOTARY_DOMAIN,
      place: { game: this.genesis.game, sender: e.author, seq: e.seq, envelopeHash: e.hash },
      envelope: content,
      keys: this.rosterKeys,
      floor: paddingFloorW(content),
      contentKey: r.contentKey,
      ephemeral: r.ephemeral,
    })
    if (!d.ok) throw new Error(d.error.message)
    const deposit = d.value.slice()
    // A spoiled wrap keeps its usable enc (the notary checks it) and garbles the 48 wrapped bytes.
    for (const i of o.garble ?? []) deposit.fill(0x5a, 80 * i + 32, 80 * i + 80)
    const header = signHeader<number>(SPAAACE_NOTARY_DOMAIN, key, {
      game: this.genesis.game,
      sender: e.author,
      seq: e.seq,
      envelopeHash: e.hash,
      depositHash: depositHash(SPAAACE_NOTARY_DOMAIN, deposit),
      depositBytes: depositBytesOf(this.n),
      flags: o.flags ?? (o.end === true ? 4 : 0),
      deadline: 0,
      seen: 0,
    })
    return { header, bytes: encodeHeader(header, SPAAACE_LAYOUT), deposit }
  }

  /** Submits `e` at `time`: its receipt index (the notary's, or the forger's once forging). */
  submit(
    e: SealedEnvelope | Deposited,
    time: number,
    o: { end?: boolean; garble?: readonly number[]; content?: Uint8Array; refused?: boolean; flags?: number } = {},
  ): number {
    const d = 'envelope' in e ? asDeposited(e) : e
    const s = this.submission(d, o)
    this.at(time)
    if (this.forging) {
      const index = this.log.length
      this.forge({ kind: 'envelope', header: s.header }, time)
      this.deposits.set(index, { header: s.header, deposit: s.deposit })
      return index
    }
    const index = this.take(
      this.notary.submit(s.bytes, s.deposit, this.from(d.author)),
      `p${d.author + 1} seq ${d.seq}`,
    )
    if (index === undefined) {
      if (o.refused === true) return -1
      throw new Error(`${this.name}: p${d.author + 1} seq ${d.seq} refused: ${JSON.stringify(this.refusals.at(-1))}`)
    }
    this.deposits.set(index, { header: s.header, deposit: s.deposit })
    return index
  }

  /** A mark of `(t, cut)` asked by `by` at `time`: its index, or undefined if the log already passed the cut. */
  mark(t: number, cut: 0 | 1, time: number, by = 0): number | undefined {
    this.at(time)
    if (this.forging) {
      const index = this.log.length
      this.forge({ kind: 'mark', t, cut }, time)
      return index
    }
    return this.take(
      this.notary.handle({ kind: 'mark', game: this.genesis.game, t, cut }, this.from(by)),
      `mark ${t} ${cut}`,
    )
  }

  /** `q`'s complaint about the deposit of receipt `index` at `time`: its receipt index, or undefined if refused. */
  complain(q: number, index: number, time: number): number | undefined {
    const bytes = this.complaintBytes(q, index)
    this.at(time)
    if (this.forging) {
      const c = decodeComplaint(bytes, SPAAACE_LAYOUT)
      if (!c.ok) throw new Error(c.error.message)
      const at = this.log.length
      this.forge({ kind: 'complaint', complaint: c.value, deposit: this.depositOf(index).deposit }, time)
      return at
    }
    return this.take(this.notary.complain(bytes, this.from(q)), `p${q + 1} complains of ${index}`)
  }

  complaintBytes(q: number, index: number): Uint8Array {
    const key = this.keys[q]
    if (key === undefined) throw new Error('no such player')
    const c = buildComplaint(key, {
      game: this.genesis.game,
      complainant: q,
      index,
      deposit: this.depositOf(index).deposit,
    })
    if (!c.ok) throw new Error(c.error.message)
    return c.value.bytes
  }

  depositOf(index: number): { header: SubmissionHeader<number>; deposit: Uint8Array } {
    const d = this.deposits.get(index)
    if (d === undefined) throw new Error(`no deposit at ${index}`)
    return d
  }

  /** §5.4: `from` leaves the content key of deposit `index` for `to`, who fetches and opens it. */
  relay(from: number, to: number, index: number, time: number): Uint8Array {
    const { header, deposit } = this.depositOf(index)
    const r = buildRelay({
      index,
      header,
      deposit,
      from,
      seed: this.keys[from]?.secretKey ?? new Uint8Array(),
      to,
      roster: this.rosterKeys,
      ephemeral: seededSecrets(`spaaace-witnessed-vectors/${this.name}/relay/${index}/${to}`).bytes(32),
    })
    if (!r.ok) throw new Error(r.error.message)
    this.at(time)
    const ack = this.notary.handle({ kind: 'relay', relay: r.value }, this.from(from))
    if (ack.kind !== 'receipt') throw new Error(`${this.name}: relay refused: ${JSON.stringify(ack)}`)
    const held = this.notary.handle({ kind: 'relays', game: this.genesis.game }, this.from(to))
    if (held.kind !== 'relays') throw new Error(`${this.name}: no relays: ${JSON.stringify(held)}`)
    for (const h of held.relays) {
      const e = openRelayW({
        relay: h,
        header,
        deposit,
        me: to,
        seed: this.keys[to]?.secretKey ?? new Uint8Array(),
        n: this.n,
      })
      if (e.ok) this.shown[to]?.push(e.value)
    }
    return r.value
  }

  seal(time: number): number | undefined {
    this.at(time)
    return this.take(this.notary.seal(this.genesis.game, this.from(0)), 'seal')
  }

  // --- honest play ---------------------------------------------------------------------------

  orders(t: number, q: number): string {
    return (t + q) % 3 === 0 ? 'buy 1' : (t + q) % 3 === 1 ? 'bid 1' : '-'
  }
  commitPart(q: number, t: number): Part {
    const salt = saltOf(this.genesis.game, q, this.seeds[q] ?? new Uint8Array(32), t)
    return { type: 'commit', tick: t, commitment: commitmentOf(this.genesis.game, q, t, salt, this.orders(t, q)) }
  }
  revealPart(q: number, t: number): Part {
    return {
      type: 'reveal',
      tick: t,
      salt: saltOf(this.genesis.game, q, this.seeds[q] ?? new Uint8Array(32), t),
      orders: this.orders(t, q),
    }
  }
  seedPart(q: number): Part {
    return { type: 'seed', seed: this.seeds[q] ?? new Uint8Array(32) }
  }

  /** `q` commits for `t`, receipted at `time`. */
  commit(q: number, t: number, time: number): number {
    return this.submit(this.sign(q, [this.commitPart(q, t)]), time)
  }
  reveal(q: number, t: number, time: number): number {
    return this.submit(this.sign(q, [this.revealPart(q, t)]), time)
  }

  /**
   * An honest tick (§8): the players of `commit` commit 1 s into it, p1 marks `C_t`, those of
   * `reveal` reveal 1 s after, p1 marks `R_t`. `skipMarkR` leaves the tick unpassed.
   */
  tick(
    t: number,
    o: { commit?: readonly number[]; reveal?: readonly number[]; markR?: boolean; markC?: boolean } = {},
  ): void {
    const all = [...Array(this.n).keys()]
    for (const [k, q] of (o.commit ?? all).entries()) this.commit(q, t, this.T(t) + 1000 + 10 * k)
    if (o.markC !== false) this.mark(t, 0, this.C(t) + 1)
    for (const [k, q] of (o.reveal ?? o.commit ?? all).entries()) this.reveal(q, t, this.C(t) + 1000 + 10 * k)
    if (o.markR !== false) this.mark(t, 1, this.R(t) + 1)
  }

  /** Past the last tick: p1 marks `C_{maxTicks+1}`, so every tick's complaint window is over. */
  finish(): void {
    const m = this.genesis.genesis.terms.maxTicks
    this.mark(m + 1, 0, this.C(m + 1) + 1)
  }

  /** Each of `who` signs and submits its seed envelope with the end flag, then p1 asks for the seal. */
  seedsAndSeal(who: readonly number[] = [...Array(this.n).keys()]): void {
    const m = this.genesis.genesis.terms.maxTicks
    for (const [k, q] of who.entries())
      this.submit(this.sign(q, [this.seedPart(q)]), this.C(m + 1) + 1000 + 10 * k, { end: true })
    this.seal(this.C(m + 1) + 2000)
  }

  // --- files ---------------------------------------------------------------------------------

  /**
   * Player `q`'s file: the receipts of `receipts` (default: the whole log), its own envelopes, each
   * deposit of another author its wrap opens, and what it was shown.
   */
  fileOf(
    q: number,
    o: { receipts?: readonly Uint8Array[]; shown?: boolean; extra?: readonly Uint8Array[] } = {},
  ): Uint8Array[] {
    const receipts = o.receipts ?? this.log
    const envelopes: Uint8Array[] = (this.own[q] ?? []).map((e) => e.bytes)
    for (const [index, { header, deposit }] of [...this.deposits.entries()].sort((a, b) => a[0] - b[0])) {
      if (header.sender === q || index >= receipts.length) continue
      // Opening is the slow part (HPKE): each (reader, deposit) is opened once.
      const key = `${q}:${index}`
      let opened = this.opened.get(key)
      if (opened === undefined) {
        const r = openDepositW(deposit, header, q, this.keys[q]?.secretKey ?? new Uint8Array(), this.n)
        opened = r.ok ? r.value : null
        this.opened.set(key, opened)
      }
      if (opened !== null) envelopes.push(opened)
    }
    if (o.shown !== false) envelopes.push(...(this.shown[q] ?? []))
    envelopes.push(...(o.extra ?? []))
    return [...dedupe(envelopes), ...receipts]
  }

  /** The notary's own record: its receipts alone. */
  notaryFile(): Uint8Array[] {
    return [...this.log]
  }

  text(items: readonly Uint8Array[]): string {
    return formatPeersTranscript(this.genesis.bytes, items)
  }

  /** A decoded header (for forging a receipt of a header the honest notary refused). */
  static header(bytes: Uint8Array): SubmissionHeader<number> {
    const h = decodeHeader(bytes, SPAAACE_LAYOUT)
    if (!h.ok) throw new Error(h.error.message)
    return h.value
  }
}

function dedupe(items: readonly Uint8Array[]): Uint8Array[] {
  const seen = new Set<string>()
  const out: Uint8Array[] = []
  for (const x of items) {
    const k = Buffer.from(x).toString('base64')
    if (seen.has(k)) continue
    seen.add(k)
    out.push(x)
  }
  return out
}
