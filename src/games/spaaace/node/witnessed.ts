/**
 * The honest node of a witnessed Spaaace! game (protocol/SPAAACE-WITNESSED.md §8): it need not stay
 * online. Each check-in fetches the notary's log, opens what it can, complains of what it cannot,
 * resubmits its own envelopes that have no receipt, and then does what the plan of `checkin.ts`
 * says (marks, commit, reveal, seed, seal). Everything it knows is in its transcript file (the
 * receipts, the envelopes it opened, its own envelopes) and its secrets file (seed, orders), so a
 * check-in after a crash, a day or a restart of the notary carries on exactly.
 *
 * Its own envelopes are flushed to its file before they are submitted (§8.5): what the notary
 * receipts was always kept first, and a signature never flushed was never shown to anyone.
 */
import { constantTimeEqual, toBase64url } from '../../../core/commit/bytes.js'
import { depositHash } from '../../../core/notary/deposit.js'
import type { KeyPair } from '../../../core/commit/keys.js'
import type { SecretSource } from '../../../core/commit/secrets.js'
import type { NotaryClient } from '../../../core/notary-net/client.js'
import { decodeReceipt, notarySignedIndex, receiptSignatureValid } from '../../../core/notary/receipt.js'
import type { Clock } from '../../../core/session/clock.js'
import type { GameState } from '../rules/types.js'
import { genesis as genesisState } from '../rules/state.js'
import { type SealedEnvelope, decodeEnvelope, sealEnvelope } from '../peers/envelope.js'
import { LINE_KIND } from '../peers/domain.js'
import { type SealedGenesis, rulesTerms, tickTimes } from '../peers/genesis.js'
import { type Part, commitmentOf, saltOf } from '../peers/parts.js'
import { type CheckinInput, type CheckinPlan, type CheckinStep, outageVote, planCheckin } from '../witness/checkin.js'
import { type FetchJournal, memoryFetchJournal } from './fetches.js'
import { buildComplaint } from '../witness/complaint.js'
import { COMPLAINTS_PER_PAIR, SPAAACE_LAYOUT, SPAAACE_NOTARY_DOMAIN } from '../witness/domain.js'
import { encodeGenesisBody } from '../witness/genesis-receipt.js'
import { type Witnessed, decideFromFiles } from '../witness/evidence.js'
import { type SubmissionW, freshDepositRandomnessW, openDepositW, submissionW } from '../witness/submission.js'
import { buildRelay, openRelayW } from '../witness/relay.js'
import type { WitnessReceipt } from '../witness/log.js'
import type { HeldRelay } from '../../../core/notary/messages.js'
import type { SignatureMemo } from '../../../core/notary/log.js'
import type { ChoiceView, Chooser } from './peer.js'
import type { PeerSecrets } from './secrets.js'

/** What the node keeps: its transcript (receipts and envelopes), flushed as each item says. */
export interface WitnessedStore {
  /** Appends one receipt or envelope; the node's own envelopes are flushed before this returns. */
  append(bytes: Uint8Array): void
  envelopes(): readonly Uint8Array[]
  receipts(): readonly Uint8Array[]
}

export interface WitnessedSeatOptions {
  readonly genesis: SealedGenesis
  readonly keys: KeyPair
  readonly self: number
  readonly client: NotaryClient
  readonly store: WitnessedStore
  readonly secrets: PeerSecrets
  /** Content keys and ephemerals of deposits (a CSPRNG in play; seeded in tests). */
  readonly random: SecretSource
  readonly chooser: Chooser
  readonly clock: Clock
  /** The accepts of every player, in roster order, once known: the node that has them all registers (§3). */
  readonly accepts?: () => readonly Uint8Array[] | undefined
  /** One line per thing worth telling the person (a mark asked, an envelope complained of). */
  readonly say?: (line: string) => void
  /** Its last fetches of the log, kept across check-ins (§8.2's outage vote); in memory by default. */
  readonly fetches?: FetchJournal
  /** Red-team tests only: what a cheater's node does to a submission before it goes (a garbled wrap). */
  readonly tamper?: (s: SubmissionW) => SubmissionW
}

export interface CheckinResult {
  readonly witnessed: Witnessed
  readonly plan: CheckinPlan
  /** What this check-in signed or asked, in order. */
  readonly did: readonly CheckinStep[]
}

/** §8.1 step 6: plans are re-made after each mark, at most this many times in one check-in. */
const MAX_ROUNDS = 8

export class WitnessedSeat {
  private readonly deposits = new Map<number, Uint8Array>()
  private readonly tried = new Set<number>()
  /** Relays left this run, by `index:to` (the notary refuses a second anyway, §9.2 code 32). */
  private readonly relayed = new Set<string>()
  /** The last decision and the store's sizes it was read at. */
  private decided: { readonly key: string; readonly w: Witnessed } | undefined
  /** The receipts whose signatures held at an earlier reading: each is checked once a process. */
  private readonly verified: SignatureMemo = new Set()
  private readonly fetches: FetchJournal
  private toldLost = false

  constructor(private readonly o: WitnessedSeatOptions) {
    this.fetches = o.fetches ?? memoryFetchJournal()
  }

  get genesis(): SealedGenesis {
    return this.o.genesis
  }

  private get n(): number {
    return this.o.genesis.genesis.keys.length
  }

  /**
   * Everything held, decided (§6.3, §7). The store only grows, so the decision is read again only
   * when it holds more: a check-in asks several times. Each reading checks the signatures only of
   * the receipts it has not met (`verified`): they were three quarters of a check-in, 1.4 s at tick
   * 100 of an 8-player game, every time.
   */
  decide(): Witnessed {
    const receipts = this.o.store.receipts()
    const envelopes = this.o.store.envelopes()
    const key = `${receipts.length}/${envelopes.length}`
    if (this.decided?.key !== key)
      this.decided = { key, w: decideFromFiles(this.o.genesis, receipts, envelopes, this.verified) }
    return this.decided.w
  }

  /** Its own envelopes at seq ≥ 1, in seq order, read back from its file. */
  private own(): SealedEnvelope[] {
    const out: SealedEnvelope[] = []
    for (const b of this.o.store.envelopes()) {
      const d = decodeEnvelope(b, { players: this.n, game: this.o.genesis.game })
      if (d.ok && d.value.envelope.author === this.o.self && d.value.envelope.seq > 0) out.push(d.value)
    }
    return out.sort((a, b) => a.envelope.seq - b.envelope.seq)
  }

  /** A receipt the client checked (signed by the notary, answering the request), kept once. */
  private keepReceipt(receipt: Uint8Array): void {
    this.keep(receipt, new Set(this.o.store.receipts().map((r) => toBase64url(r))))
  }

  private keep(bytes: Uint8Array, held: Set<string>): void {
    const id = toBase64url(bytes)
    if (held.has(id)) return
    held.add(id)
    this.o.store.append(bytes)
  }

  /** §8.1 step 1: the log from the last held index + 1, following `more`; registers the game if need be. */
  private async fetch(signal: AbortSignal, register = true): Promise<void> {
    const held = new Set(this.o.store.receipts().map((r) => toBase64url(r)))
    // §8.1 step 1, §8.5: deposits live only in memory until opened, so a node restarted (or a
    // `--check-in` process that exited) after a fetch fetches again from the first envelope
    // receipt it still has to open: a fetch from the chain's end alone would never bring them again.
    const w = this.decide()
    const from = Math.min(w.log.chain.length, this.firstUnopened(w))
    // §8.2: each try the notary leaves unanswered is a failed request (`away`), and may be the
    // third in a row that makes the outage vote due: signed and kept now, sent once it answers.
    const got = await this.o.client.fetch(this.o.genesis.game, from, signal, Infinity, this.away)
    if (!Array.isArray(got)) {
      this.fetches.add({ at: this.o.clock.now(), past: null })
      const refused = got
      if (refused.kind === 'refused' && refused.code === 'unregistered' && from === 0) {
        if (register) await this.register(signal)
      } else if (refused.kind === 'refused') this.o.say?.(`the notary refused to show the log: ${refused.message}`)
      return
    }
    // §6.3 item 4: bytes of this game the notary signed that do not decode prove its fault
    // (`receipt-invalid`); kept, so that the file shows why the game stops there. One line proves
    // it: of an answer's, the one of least index, and only below any such line held (`k*` is the
    // least index of a fault), so a notary sending more would not grow the file.
    let invalid: { bytes: Uint8Array; index: number } | undefined
    const key = this.o.genesis.genesis.notaryKey
    for (const item of got) {
      // §8.1 step 1, §8.5: only receipts of this game signed by the notary reach the file (what
      // else a notary sends is no evidence, and a line that is no item would keep the file from
      // opening again).
      const index = this.receiptIndex(item.receipt)
      if (index === undefined) {
        const at =
          key === null ? undefined : notarySignedIndex(SPAAACE_NOTARY_DOMAIN, item.receipt, this.o.genesis.game, key)
        if (at !== undefined && (invalid === undefined || at < invalid.index))
          invalid = { bytes: item.receipt, index: at }
        continue
      }
      this.keep(item.receipt, held)
      if (item.deposit.length > 0) this.deposits.set(index, item.deposit)
    }
    if (invalid !== undefined) {
      const least = Math.min(Infinity, ...w.log.faults.flatMap((f) => (f.kind === 'receipt-invalid' ? [f.index] : [])))
      if (invalid.index < least) this.keep(invalid.bytes, held)
    }
    const chain = this.decide().evidence.chain
    this.fetches.add({ at: this.o.clock.now(), past: chain[chain.length - 1]?.time ?? null })
  }

  /**
   * §8.2: a request the notary did not answer (any request of a check-in: a node waiting on a
   * submission or a mark sees the outage as one waiting on a fetch). Counted as a failed fetch, and
   * the outage vote signed if that makes it due. Another seat of the same process, which asks the
   * same notary from the same machine, may be told too (`--check-in`: only one seat asks).
   */
  readonly away = (): void => {
    this.fetches.add({ at: this.o.clock.now(), past: null })
    this.voteWhileAway()
  }

  /**
   * §8.2: the outage vote, when it is due while the notary does not answer: signed and flushed, not
   * submitted (the notary is away); the check-in that reaches the notary again resubmits it with
   * every other envelope of this node that has no receipt (§8.1 step 3).
   */
  private voteWhileAway(): void {
    const s = outageVote(this.input(this.decide()))
    if (s === undefined || this.lostOwn()) return
    this.signAndKeep([{ type: 'stop', tick: s, reason: 'stalled' }])
    this.toldVote(s)
  }

  private toldVote(s: number): void {
    const ago = Math.max(0, this.o.clock.now() - tickTimes(this.o.genesis.genesis.timing, s).revealCut)
    const span = ago < 120_000 ? `${Math.round(ago / 1000)} s` : `${Math.round(ago / 60_000)} min`
    this.o.say?.(
      `Tick ${s}'s reveal cut passed ${span} ago and the notary's log has not passed it (your node's last three requests to the notary went unanswered or brought nothing past it): your node signed an outage vote for tick ${s} (SPAAACE-WITNESSED §8.2). It is kept in your file and goes to the notary when it answers; the files of a majority of the players, merged, read "stalled (outage)" until the notary passes that cut.`,
    )
  }

  /**
   * The index of the first envelope receipt of another author in the decided chain whose envelope
   * this node lacks, whose deposit it does not hold and has not tried to open, and that it has not
   * complained of (§8.1 step 2); Infinity if none.
   */
  private firstUnopened(w: Witnessed): number {
    const have = new Set(this.heldIds())
    const complained = new Set<number>()
    for (const r of w.log.decided) if (r.kind === 'complaint' && r.complainant === this.o.self) complained.add(r.target)
    for (const r of w.log.decided)
      if (
        r.kind === 'envelope' &&
        !have.has(toBase64url(r.envelopeHash)) &&
        !this.deposits.has(r.index) &&
        !this.tried.has(r.index) &&
        !complained.has(r.index)
      )
        return r.index
    return Infinity
  }

  /** A receipt's index if it decodes, is of this game and is signed by the notary (the log reader judges the rest). */
  private receiptIndex(receipt: Uint8Array): number | undefined {
    const d = decodeReceipt(receipt, SPAAACE_LAYOUT)
    const notaryKey = this.o.genesis.genesis.notaryKey
    if (!d.ok || notaryKey === null || !constantTimeEqual(d.value.game, this.o.genesis.game)) return undefined
    return receiptSignatureValid(SPAAACE_NOTARY_DOMAIN, d.value, notaryKey) ? d.value.index : undefined
  }

  /** §3: any roster player registers, once, with every accept. */
  private async register(signal: AbortSignal): Promise<void> {
    const accepts = this.o.accepts?.()
    if (accepts?.length !== this.n) return
    const a = await this.o.client.registerGenesis(encodeGenesisBody(this.o.genesis.bytes, accepts), signal, this.away)
    if (a.kind === 'receipt') this.keepReceipt(a.receipt)
    else if (a.kind === 'refused')
      this.o.say?.(
        `the notary refused to register the game: ${withInstants(a.message)}${
          // NOTARY.md §7.1 (G_1): past its registration deadline a game is never registered.
          a.code === 'too-late' ? '; this game can never begin: leave it (Ctrl-C) and host a new one' : ''
        }`,
      )
  }

  /** Deposits of the log from `from` on (a node restarted after fetching them kept only the receipts). */
  private async refetch(from: number, signal: AbortSignal): Promise<void> {
    const got = await this.o.client.fetch(this.o.genesis.game, from, signal, Infinity, this.away)
    if (!Array.isArray(got)) return
    for (const item of got) {
      const index = this.receiptIndex(item.receipt)
      if (item.deposit.length > 0 && index !== undefined) this.deposits.set(index, item.deposit)
    }
  }

  /**
   * The decided chain's envelope receipts whose envelope this node lacks: its own too (§8.5: a file
   * lost or replaced by an older copy gets them back from its own wrap); `others` only of others.
   */
  private lacking(w: Witnessed, others = false): (WitnessReceipt & { readonly kind: 'envelope' })[] {
    const have = new Set(this.heldIds())
    return w.log.decided.filter(
      (r): r is WitnessReceipt & { readonly kind: 'envelope' } =>
        r.kind === 'envelope' && !(others && r.author === this.o.self) && !have.has(toBase64url(r.envelopeHash)),
    )
  }

  /**
   * §8.1 step 2: opens every deposit it lacks the envelope of; complains of one that does not open
   * (once per envelope, at most COMPLAINTS_PER_PAIR per author, both read from its chain so that a
   * restart repeats nothing).
   */
  private async open(w: Witnessed, signal: AbortSignal): Promise<void> {
    const held = new Set(this.o.store.envelopes().map((e) => toBase64url(e)))
    const mine = w.log.decided.filter(
      (r): r is WitnessReceipt & { readonly kind: 'complaint' } =>
        r.kind === 'complaint' && r.complainant === this.o.self,
    )
    const complainedOf = new Set(mine.map((r) => r.target))
    // Complaints sent in this call (their receipts are in the chain from the next check-in on).
    const now = new Map<number, number>()
    const lacking = this.lacking(w).filter((r) => !complainedOf.has(r.index) && !this.tried.has(r.index))
    const first = lacking.find((r) => !this.deposits.has(r.index))
    if (first !== undefined) await this.refetch(first.index, signal)
    for (const r of lacking) {
      const deposit = this.deposits.get(r.index)
      if (deposit === undefined) continue
      // §8.1 step 2: only a deposit that hashes to its header is opened or complained of; another
      // is the notary's (or a file's) and is dropped, to be fetched again.
      if (!constantTimeEqual(depositHash(SPAAACE_NOTARY_DOMAIN, deposit), r.depositHash)) {
        this.deposits.delete(r.index)
        continue
      }
      this.tried.add(r.index)
      const header = r.receipt.kind === 'envelope' ? r.receipt.header : undefined
      if (header === undefined) continue
      const opened = openDepositW(deposit, header, this.o.self, this.o.keys.secretKey, this.n)
      if (opened.ok) {
        this.keep(opened.value, held)
        continue
      }
      // Nobody complains of its own envelope (the notary refuses it, code 14).
      if (r.author === this.o.self) continue
      const sent = mine.filter((c) => c.author === r.author).length + (now.get(r.author) ?? 0)
      if (sent >= COMPLAINTS_PER_PAIR) continue
      const c = buildComplaint(this.o.keys, {
        game: this.o.genesis.game,
        complainant: this.o.self,
        index: r.index,
        deposit,
      })
      if (!c.ok) continue
      now.set(r.author, (now.get(r.author) ?? 0) + 1)
      this.o.say?.(`p${r.author + 1}'s envelope at seq ${r.seq} does not open for this player: complained`)
      const a = await this.o.client.complain(c.value.bytes, signal, this.away)
      if (a.kind === 'receipt') this.keepReceipt(a.receipt)
    }
  }

  /**
   * §5.4, §10.3: the mailbox. Relays held for this node open what its own wrap could not (a relay
   * that fails is ignored). And for each complaint of another player that held too late to void the
   * envelope (§7.2), this node, having opened it, leaves that player its content key, so that the
   * complainant's file holds the content every decision of that tick needs.
   */
  private async relays(w: Witnessed, signal: AbortSignal): Promise<void> {
    const game = this.o.genesis.game
    const lacking = this.lacking(w, true)
    if (lacking.length > 0) {
      const got = await this.o.client.relays(game, signal, this.away)
      if (Array.isArray(got)) {
        const held = new Set(this.o.store.envelopes().map((e) => toBase64url(e)))
        for (const relay of got as readonly HeldRelay[]) {
          const r = lacking.find((x) => x.index === relay.index)
          if (r?.receipt.kind !== 'envelope') continue
          if (!this.deposits.has(r.index)) await this.refetch(r.index, signal)
          const deposit = this.deposits.get(r.index)
          if (deposit === undefined) continue
          const opened = openRelayW({
            relay,
            header: r.receipt.header,
            deposit,
            me: this.o.self,
            seed: this.o.keys.secretKey,
            n: this.n,
          })
          if (opened.ok) this.keep(opened.value, held)
        }
      }
    }
    const have = new Set(this.heldIds())
    const voids = new Set(w.decision.voids)
    for (const c of w.log.heldComplaints) {
      const key = `${c.target}:${c.complainant}`
      if (c.complainant === this.o.self || voids.has(c.target) || this.relayed.has(key)) continue
      const target = w.log.decided.find((r) => r.index === c.target)
      if (target?.kind !== 'envelope' || target.receipt.kind !== 'envelope') continue
      if (target.author === c.complainant || !have.has(toBase64url(target.envelopeHash))) continue
      if (!this.deposits.has(c.target)) await this.refetch(c.target, signal)
      const deposit = this.deposits.get(c.target)
      if (deposit === undefined) continue
      this.relayed.add(key)
      const relay = buildRelay({
        index: c.target,
        header: target.receipt.header,
        deposit,
        from: this.o.self,
        seed: this.o.keys.secretKey,
        to: c.complainant,
        roster: this.o.genesis.genesis.keys,
        ephemeral: this.o.random.bytes(32),
      })
      if (relay.ok) await this.o.client.relay(relay.value, signal, this.away)
    }
  }

  private heldIds(): string[] {
    const out: string[] = []
    for (const b of this.o.store.envelopes()) {
      const d = decodeEnvelope(b, { players: this.n, game: this.o.genesis.game })
      if (d.ok) out.push(d.value.id)
    }
    return out
  }

  /** §8.1 step 3 and §8.2: submits one of its own envelopes (end flag on the seed), keeping the receipt. */
  private async submit(e: SealedEnvelope, signal: AbortSignal): Promise<void> {
    const end = e.envelope.parts.some((p) => p.type === 'seed')
    const s = submissionW({
      keys: this.o.keys,
      sealed: e,
      roster: this.o.genesis.genesis.keys,
      randomness: freshDepositRandomnessW(this.o.random, this.n),
      end,
    })
    if (!s.ok) throw new Error(`an envelope of this node cannot be deposited: ${s.error.message}`)
    const sub = this.o.tamper?.(s.value) ?? s.value
    const a = await this.o.client.submit(sub.header, sub.deposit, signal, this.away)
    if (a.kind === 'receipt') this.keepReceipt(a.receipt)
    else if (a.kind === 'refused') this.o.say?.(`the notary refused seq ${e.envelope.seq}: ${a.message}`)
  }

  /** Signs its next envelope with `parts`, flushes it, then submits it; nothing while it lacks its own (§8.5). */
  private async sign(parts: Part[], signal: AbortSignal): Promise<boolean> {
    if (this.lostOwn()) return false
    await this.submit(this.signAndKeep(parts), signal)
    return true
  }

  /**
   * §8.5, P §6.8: its next seq is at or below one it signed (journaled in its secrets) or one the
   * chain it holds receipted of it: its file was lost or replaced by an older copy, and signing now
   * would be a fork. It signs nothing until its own envelopes are back (opened from its own wrap).
   */
  private lostOwn(): boolean {
    // P §6.8 step 8: a secrets file made afresh under a chain that signed more than its accept
    // holds no seed its commitments were salted with: it can open none of them, and its seed part
    // would be false (P §9 (vi)). Kept in the file, so that a later check-in refuses too.
    const mine = this.own()
    if (this.o.secrets.seedLost?.() === true || (this.o.secrets.fresh === true && mine.length > 0)) {
      this.o.secrets.keepSeedLost?.()
      if (!this.toldLost) {
        this.toldLost = true
        this.o.say?.(
          `Your node signed ${mine.length + 1} envelopes in this game, but its secrets file was made afresh: the seed that salted its commitments is gone, so it can open none of them, and it signs nothing more (SPAAACE-WITNESSED §8.5). If you have the old file, put it back before the next check-in.`,
        )
      }
      return true
    }
    const next = (mine.at(-1)?.envelope.seq ?? 0) + 1
    let receipted = 0
    for (const r of this.decide().log.decided)
      if (r.kind === 'envelope' && r.author === this.o.self) receipted = Math.max(receipted, r.seq)
    const lost = next < this.o.secrets.signed() || next <= receipted
    if (lost && !this.toldLost) {
      this.toldLost = true
      this.o.say?.(
        `Your transcript holds ${next} of the ${Math.max(this.o.secrets.signed(), receipted + 1)} envelopes your node signed: it was lost or replaced by an older copy. Your node signs nothing until it has them back from the notary's log (each check-in fetches them), since signing again where it has signed would be a fork you would be convicted of (SPAAACE-WITNESSED §8.5). One that never reached the notary cannot come back: then you play no more in this game.`,
      )
    }
    return lost
  }

  /** Signs its next envelope with `parts` and flushes it (§8.5: kept before anyone can see it). */
  private signAndKeep(parts: Part[]): SealedEnvelope {
    const mine = this.own()
    const last = mine[mine.length - 1]
    const accept = this.ownAccept()
    const prev = last?.hash ?? accept?.hash
    if (prev === undefined) throw new Error('this node holds no accept of its own')
    const e = sealEnvelope(this.o.keys, {
      author: this.o.self,
      seq: (last?.envelope.seq ?? 0) + 1,
      game: this.o.genesis.game,
      prev,
      heads: [],
      parts,
    })
    this.o.store.append(e.bytes)
    // P §6.8: journaled after the flush, so that a file lost later is noticed (`lostOwn`).
    this.o.secrets.keepSigned(e.envelope.seq + 1)
    return e
  }

  private ownAccept(): SealedEnvelope | undefined {
    for (const b of this.o.store.envelopes()) {
      const d = decodeEnvelope(b, { players: this.n, game: this.o.genesis.game })
      if (d.ok && d.value.envelope.author === this.o.self && d.value.envelope.seq === 0) return d.value
    }
    return undefined
  }

  private stateBefore(w: Witnessed, t: number): GameState | undefined {
    if (t === 1) return genesisState(this.n, rulesTerms(this.o.genesis.genesis))
    const x = w.decision.ticks[t - 2]
    return x !== undefined && (x.status === 'final' || x.status === 'provisional') ? x.outcome?.state : undefined
  }

  private async step(s: CheckinStep, w: Witnessed, signal: AbortSignal): Promise<boolean> {
    const game = this.o.genesis.game
    const seed = this.o.secrets.seed
    switch (s.kind) {
      case 'mark': {
        const a = await this.o.client.mark(game, s.t, s.cut, signal, this.away)
        return a.kind === 'receipt' || a.kind === 'log'
      }
      case 'choose': {
        const state = this.stateBefore(w, s.t)
        if (state === undefined) return false
        const view: ChoiceView = { tick: s.t, state, self: this.o.self, deadline: s.guard }
        const guard = AbortSignal.any([
          signal,
          AbortSignal.timeout(Math.max(0, Math.ceil(s.guard - this.o.clock.now()))),
        ])
        const text = await this.o.chooser.choose(view, guard)
        if (text === null || this.o.clock.now() > s.guard) return false
        this.o.secrets.keepOrders(s.t, text)
        return true
      }
      case 'commit': {
        const text = this.o.secrets.orders(s.t)
        if (text === undefined) return false
        const salt = saltOf(game, this.o.self, seed, s.t)
        return await this.sign(
          [{ type: 'commit', tick: s.t, commitment: commitmentOf(game, this.o.self, s.t, salt, text) }],
          signal,
        )
      }
      case 'reveal': {
        const text = this.o.secrets.orders(s.t)
        if (text === undefined) return false
        return await this.sign(
          [{ type: 'reveal', tick: s.t, salt: saltOf(game, this.o.self, seed, s.t), orders: text }],
          signal,
        )
      }
      case 'seed':
        return await this.sign([{ type: 'seed', seed }], signal)
      case 'vote':
        if (this.lostOwn()) return false
        this.toldVote(s.t)
        return await this.sign([{ type: 'stop', tick: s.t, reason: 'stalled' }], signal)
      case 'seal': {
        const a = await this.o.client.seal(game, signal, this.away)
        if (a.kind === 'receipt') {
          this.keepReceipt(a.receipt)
          // §8.1 step 1, §9.4: the seal follows every player's seed, and seeds receipted since this
          // check-in fetched (other seats of this process, other players) would be missing from
          // the file for good: the seal ends the check-ins. Fetched now, the file holds the whole log.
          await this.fetch(signal)
        }
        return false
      }
    }
  }

  /** Whether its own chain holds a part of `type` (of tick `t`, if given): what the screen says it did. */
  hasSigned(type: 'commit' | 'reveal' | 'seed', t?: number): boolean {
    return this.own().some((e) =>
      e.envelope.parts.some((p) => p.type === type && (t === undefined || ('tick' in p && p.tick === t))),
    )
  }

  /** §3: whether the notary holds the game (its log starts with a genesis receipt that gives it); keeps what it fetched. */
  async isRegistered(signal: AbortSignal): Promise<boolean> {
    await this.fetch(signal, false)
    return this.decide().log.exists
  }

  /** §8.1: one check-in. */
  async checkIn(signal: AbortSignal): Promise<CheckinResult> {
    const did: CheckinStep[] = []
    await this.fetch(signal)
    let w = this.decide()
    await this.open(w, signal)
    await this.relays((w = this.decide()), signal)
    // Step 3: its envelopes without a receipt, in seq order (a crash after the flush, a notary away).
    const receipted = new Set<number>()
    for (const r of w.log.decided) if (r.kind === 'envelope' && r.author === this.o.self) receipted.add(r.seq)
    for (const e of this.own()) if (!receipted.has(e.envelope.seq)) await this.submit(e, signal)
    let plan = this.plan((w = this.decide()))
    for (let round = 0; round < MAX_ROUNDS; round++) {
      let changed = false
      for (const s of plan.steps) {
        const acted = await this.step(s, w, signal)
        if (acted) did.push(s)
        changed ||= acted
        // §8.1 steps 1-2: what the mark's fetch brought is opened now (a reveal of t − 1 it
        // brings may be what S_{t−1}, and so this check-in's commitment, waits for).
        if (s.kind === 'mark' && acted) {
          await this.fetch(signal)
          await this.open(this.decide(), signal)
        }
        if (acted) break
      }
      if (!changed) break
      plan = this.plan((w = this.decide()))
    }
    return { witnessed: w, plan, did }
  }

  private plan(w: Witnessed): CheckinPlan {
    return planCheckin(this.input(w))
  }

  /** What a plan is made from: the chain and decision held, its own envelopes, its choices, its clock. */
  private input(w: Witnessed): CheckinInput {
    const times = new Map<number, number>()
    for (const r of w.log.decided) if (r.kind === 'envelope' && r.author === this.o.self) times.set(r.seq, r.time)
    const own = this.own().map((e) => {
      const time = times.get(e.envelope.seq)
      return { seq: e.envelope.seq, parts: e.envelope.parts, ...(time === undefined ? {} : { receiptTime: time }) }
    })
    const chosen = new Set<number>()
    for (let t = 1; t <= this.o.genesis.genesis.terms.maxTicks; t++)
      if (this.o.secrets.orders(t) !== undefined) chosen.add(t)
    return {
      genesis: this.o.genesis,
      self: this.o.self,
      now: this.o.clock.now(),
      chain: w.evidence.chain,
      decision: w.decision,
      own,
      chosen,
      sealed: w.log.sealed,
      fetches: this.fetches.read(),
    }
  }
}

/** A store in memory (tests, and bots that never restart). */
export function memoryWitnessedStore(initial: readonly Uint8Array[] = []): WitnessedStore {
  const envelopes: Uint8Array[] = []
  const receipts: Uint8Array[] = []
  const store: WitnessedStore = {
    append: (b) => void (b[0] === LINE_KIND.receipt ? receipts : envelopes).push(b),
    envelopes: () => envelopes,
    receipts: () => receipts,
  }
  for (const b of initial) store.append(b)
  return store
}

/** A notary's message with its instants (milliseconds since 1970, as it writes them) as UTC times. */
export function withInstants(message: string): string {
  return message.replace(/\b1\d{12}\b/g, (ms) => new Date(Number(ms)).toISOString().replace(/\.\d{3}Z$/, 'Z'))
}
