/**
 * The notary (PROTOCOL-4.md §4, §5; NOTARY.md §7): registers games, receipts submissions, claim
 * requests and complaints, serves logs and deposits, seals logs, and deletes deposits RETENTION_MS
 * after the seal. Trusted for time and delivery only. Every receipt is persisted (store.ts) before it is
 * returned; its time is max(clock, the last time persisted), so it never goes back, even across a
 * restart. Synchronous over node:sqlite; the libp2p service (core/notary-net) calls it.
 */
import { constantTimeEqual, toHex } from '../commit/bytes.js'
import { type KeyPair, publicKeyProblem } from '../commit/keys.js'
import { type NotaryDomain, type NotaryLayout, layoutOf } from '../notary/domain.js'
import { type NotaryRequest, type NotaryResponse, FETCH_BUDGET_BYTES } from '../notary/messages.js'
import { type Receipt, type ReceiptBody, decodeReceipt, receiptHash, signReceipt } from '../notary/receipt.js'
import type { Clock } from '../session/clock.js'
import { claim } from './claim.js'
import { complain } from './complain.js'
import { MAX_HORIZON_MS, NOTARY_LIMITS, type NotaryLimits, RATE_WINDOW_MS, RETENTION_MS } from './limits.js'
import { mark, relay, relays } from './mark.js'
import { type AnyRegistrar, isGenesisRegistrar } from './registrar.js'
import { type GameState, type Requester, refusal } from './state.js'
import type { Append, NotaryStore } from './store.js'
import { submit } from './submit.js'

export interface NotaryOptions {
  readonly keys: KeyPair
  /** Spaceships' (two hellos) or an n-player game's (one genesis body, SPAAACE-WITNESSED §9.3). */
  readonly registrar: AnyRegistrar
  readonly clock: Clock
  readonly store: NotaryStore
  readonly limits?: Partial<NotaryLimits>
}

/** Games whose logs stay decoded in memory; more are read again from the database. */
const CACHED_GAMES = 256

export class Notary {
  readonly limits: NotaryLimits
  readonly domain: NotaryDomain
  readonly layout: NotaryLayout
  private readonly games = new Map<string, GameState>()
  private rates = { window: -1, counts: new Map<string, number>() }

  constructor(private readonly o: NotaryOptions) {
    this.limits = { ...NOTARY_LIMITS, ...o.limits }
    this.domain = o.registrar.domain
    this.layout = layoutOf(this.domain)
  }

  get publicKey(): Uint8Array {
    return this.o.keys.publicKey
  }

  get store(): NotaryStore {
    return this.o.store
  }

  /** NOTARY.md §8: the notary's time, never below the last time it signed. */
  now(): number {
    return Math.max(Math.floor(this.o.clock.now()), this.o.store.lastTime())
  }

  /** NOTARY.md §8: counts a request of `kind` against the peer's rate; false when over it. */
  admit(peer: string, kind: 'submission' | 'fetch'): boolean {
    const window = Math.floor(this.o.clock.now() / RATE_WINDOW_MS)
    if (window !== this.rates.window) this.rates = { window, counts: new Map() }
    const id = `${kind}/${peer}`
    const n = (this.rates.counts.get(id) ?? 0) + 1
    this.rates.counts.set(id, n)
    return n <= (kind === 'fetch' ? this.limits.fetchesPerPeerPerMinute : this.limits.submissionsPerPeerPerMinute)
  }

  /** The game's state, read from the database on first use (the registrar answers again). */
  state(game: Uint8Array): GameState | undefined {
    const id = toHex(game)
    const cached = this.games.get(id)
    if (cached !== undefined) return cached
    const stored = this.o.store.game(game)
    if (stored === undefined) return undefined
    // An n-player game's genesis body is stored in the first hello's column (the second empty).
    const registrar = this.o.registrar
    const reg = isGenesisRegistrar(registrar)
      ? registrar.register(stored.helloA)
      : registrar.register(stored.helloA, stored.helloB)
    if (!reg.ok) throw new Error(`the registrar no longer accepts game ${id}: ${reg.reason}`)
    const log: Receipt<number>[] = []
    for (const bytes of this.o.store.receipts(game, 0)) {
      const d = decodeReceipt(bytes, this.layout)
      if (!d.ok) throw new Error(`receipt ${log.length} of game ${id} in the database does not decode`)
      log.push(d.value)
    }
    const s: GameState = { game, reg: reg.game, log, sealed: stored.sealedAt !== undefined }
    if (this.games.size >= CACHED_GAMES) this.games.clear()
    this.games.set(id, s)
    return s
  }

  /**
   * Drops the logs held in memory: after a group's COMMIT failed (group-commit.ts) they may hold
   * receipts the database does not; `state` reads them again from it.
   */
  forget(): void {
    this.games.clear()
  }

  /**
   * Signs the next receipt of `s`, persists it with what it brings, then returns its bytes. `at`:
   * the time a check just read, when the receipt's time must be the instant checked (a deadline
   * checked at one reading of the clock and signed at a later one can be signed past it).
   */
  append(
    s: GameState,
    body: ReceiptBody<number>,
    extra: Omit<Append, 'game' | 'index' | 'bytes' | 'time'> = {},
    at?: number,
  ): Uint8Array {
    const last = s.log.at(-1)
    const index = s.log.length
    const prev = last === undefined ? new Uint8Array(32) : receiptHash(this.domain, last.bytes)
    const time = at ?? this.now()
    const bytes = signReceipt(this.domain, this.o.keys, { game: s.game, index, prev, time, ...body })
    this.o.store.append({ game: s.game, index, bytes, time, ...extra })
    const d = decodeReceipt(bytes, this.layout)
    if (!d.ok) throw new Error(`a receipt just signed does not decode: ${d.error.message}`)
    s.log.push(d.value)
    if (body.kind === 'seal') s.sealed = true
    return bytes
  }

  handle(q: NotaryRequest, from: Requester): NotaryResponse {
    switch (q.kind) {
      case 'register':
        return this.register(q.helloA, q.helloB, from)
      case 'submit':
        return this.submit(q.header, q.deposit, from)
      case 'complain':
        return this.complain(q.complaint, from)
      case 'fetch':
        return this.fetch(q.game, q.from, from)
      case 'seal':
        return this.seal(q.game, from)
      case 'claim':
        return this.claim(q.claim, from)
      case 'register-genesis':
        return this.registerGenesis(q.body, from)
      case 'mark':
        return mark(this, q.game, q.t, q.cut, from)
      case 'relay':
        return relay(this, q.relay, from)
      case 'relays':
        return relays(this, q.game, from)
    }
  }

  /** The roster index of the requester in `s`, or undefined (not a player). */
  playerIndex(s: GameState, from: Requester): number | undefined {
    const key = from.key
    if (key === undefined) return undefined
    const i = s.reg.keys.findIndex((k) => constantTimeEqual(k, key))
    return i < 0 ? undefined : i
  }

  /**
   * SPAAACE-WITNESSED §3, §9.2 "register": an n-player game's genesis body, checked in the order
   * given (first failure answers).
   */
  registerGenesis(body: Uint8Array, from: Requester): NotaryResponse {
    if (!this.admit(from.peer, 'submission')) return refusal('limit-rate', 'too many requests this minute')
    const registrar = this.o.registrar
    if (!isGenesisRegistrar(registrar)) return refusal('malformed', 'this protocol registers two hellos')
    const reg = registrar.register(body)
    if (!reg.ok) return refusal('registrar', reg.reason)
    const g = reg.game
    if (!constantTimeEqual(g.notaryKey, this.publicKey))
      return refusal('notary-key', "the genesis names another notary's key")
    if (from.key === undefined || !g.keys.some((k) => constantTimeEqual(k, from.key ?? new Uint8Array())))
      return refusal('not-a-player', 'only a player of the roster registers its game')
    const known = this.state(g.game)
    if (known !== undefined) {
      const genesis = known.log[0]
      if (genesis?.kind === 'genesis-body' && constantTimeEqual(genesis.body, body))
        return { kind: 'receipt', receipt: genesis.bytes }
      return refusal('registrar', 'another genesis body has this game id')
    }
    const now = this.now()
    if (g.registerBy !== undefined && now > g.registerBy)
      return refusal('too-late', `registration closed at ${g.registerBy} (G_1)`)
    if (g.horizon !== undefined && g.horizon > now + MAX_HORIZON_MS)
      return refusal('limit-horizon', `the game's horizon ${g.horizon} is beyond ${MAX_HORIZON_MS} ms from now`)
    if (this.o.store.openGames() >= this.limits.openGames)
      return refusal('limit-games', `${this.limits.openGames} open games`)
    if (this.o.store.bytesHeld() + 2 * body.length > this.limits.bytesHeld)
      return refusal('limit-bytes', 'the notary holds all it may')
    const s: GameState = { game: g.game, reg: g, log: [], sealed: false }
    // SPAAACE-WITNESSED §3, §9.2: signed at the instant checked against G_1, never after it (a
    // genesis receipted after G_1 is the fault genesis-invalid, §6.3). Nothing is appended between.
    const receipt = this.append(
      s,
      { kind: 'genesis-body', body },
      { hellos: { helloA: body, helloB: new Uint8Array() } },
      now,
    )
    this.games.set(toHex(g.game), s)
    return { kind: 'receipt', receipt }
  }

  /** PROTOCOL-4.md §5.1, NOTARY.md §7.5: a header and its deposit (submit.ts). */
  submit(header: Uint8Array, deposit: Uint8Array, from: Requester): NotaryResponse {
    return submit(this, header, deposit, from)
  }

  /** PROTOCOL-4.md §4.4, NOTARY.md §7.5: a claim request, the first of a claim's two steps (claim.ts). */
  claim(request: Uint8Array, from: Requester): NotaryResponse {
    return claim(this, request, from)
  }

  /** PROTOCOL-4.md §5.3, NOTARY.md §7.5: a complaint about a deposit (complain.ts). */
  complain(complaint: Uint8Array, from: Requester): NotaryResponse {
    return complain(this, complaint, from)
  }

  /** PROTOCOL-4.md §4.1, NOTARY.md §7.5: only A registers, with both hellos. */
  register(helloA: Uint8Array, helloB: Uint8Array, from: Requester): NotaryResponse {
    if (!this.admit(from.peer, 'submission')) return refusal('limit-rate', 'too many requests this minute')
    const registrar = this.o.registrar
    if (isGenesisRegistrar(registrar)) return refusal('malformed', 'this protocol registers one genesis body')
    const reg = registrar.register(helloA, helloB)
    if (!reg.ok) return refusal('registrar', reg.reason)
    const g = reg.game
    if (!constantTimeEqual(g.notaryKey, this.publicKey))
      return refusal('notary-key', "the terms name another notary's key")
    if (g.keys.length !== 2 || g.keys.some((k) => publicKeyProblem(k) !== undefined))
      return refusal('player-key', 'a hello key is not usable')
    const keyA = g.keys[0] ?? new Uint8Array()
    if (from.key === undefined || !constantTimeEqual(from.key, keyA))
      return refusal('not-a', "only A registers a game, from its hello key's PeerId")
    const known = this.state(g.game)
    if (known !== undefined) {
      const genesis = known.log[0]
      if (
        genesis?.kind === 'genesis' &&
        constantTimeEqual(genesis.helloA, helloA) &&
        constantTimeEqual(genesis.helloB, helloB)
      )
        return { kind: 'receipt', receipt: genesis.bytes }
      return refusal('registrar', 'another pair of hellos has this game id')
    }
    if (this.o.store.openGames() >= this.limits.openGames)
      return refusal('limit-games', `${this.limits.openGames} open games`)
    if (this.o.store.bytesHeld() + 2 * (helloA.length + helloB.length) > this.limits.bytesHeld)
      return refusal('limit-bytes', 'the notary holds all it may')
    const s: GameState = { game: g.game, reg: g, log: [], sealed: false }
    const receipt = this.append(s, { kind: 'genesis', helloA, helloB }, { hellos: { helloA, helloB } })
    this.games.set(toHex(g.game), s)
    return { kind: 'receipt', receipt }
  }

  /**
   * NOTARY.md §7.5: receipts from `fromIndex` within FETCH_BUDGET_BYTES (at least one), each
   * envelope receipt with its deposit when the requester is a player and the deposit is still held.
   */
  fetch(game: Uint8Array, fromIndex: number, from: Requester, rated = true): NotaryResponse {
    // A mark answered with the log (SPAAACE-WITNESSED §9.2) was counted as a mark already.
    if (rated && !this.admit(from.peer, 'fetch')) return refusal('limit-rate', 'too many fetches this minute')
    const s = this.state(game)
    if (s === undefined) return refusal('unregistered', 'no such game')
    const player = from.key !== undefined && s.reg.keys.some((k) => constantTimeEqual(k, from.key ?? new Uint8Array()))
    const items: { receipt: Uint8Array; deposit: Uint8Array }[] = []
    let bytes = 0
    let i = fromIndex
    for (; i < s.log.length; i++) {
      const r = s.log[i]
      if (r === undefined) break
      const deposit = (player && r.kind === 'envelope' ? this.o.store.deposit(game, i) : undefined) ?? new Uint8Array()
      const size = r.bytes.length + deposit.length + 8
      if (items.length > 0 && bytes + size > FETCH_BUDGET_BYTES) break
      items.push({ receipt: r.bytes, deposit })
      bytes += size
    }
    return { kind: 'log', items, more: i < s.log.length }
  }

  /** PROTOCOL-4.md §4.6: seals the log on a player's request once the game's rule allows it. */
  seal(game: Uint8Array, from: Requester): NotaryResponse {
    if (!this.admit(from.peer, 'submission')) return refusal('limit-rate', 'too many requests this minute')
    const s = this.state(game)
    if (s === undefined) return refusal('unregistered', 'no such game')
    if (from.key === undefined || !s.reg.keys.some((k) => constantTimeEqual(k, from.key ?? new Uint8Array())))
      return refusal('not-a-player', 'only a player of the game asks for its seal')
    const last = s.log.at(-1)
    if (s.sealed && last !== undefined) return { kind: 'receipt', receipt: last.bytes }
    const when = s.reg.sealWhen(s.log)
    if (when === undefined) return refusal('not-over', 'the log does not show the game over')
    if (this.now() < when) return { kind: 'not-before', time: when }
    return { kind: 'receipt', receipt: this.append(s, { kind: 'seal' }, { seal: true }) }
  }

  /** PROTOCOL-4.md §4.6: deletes the deposits of logs sealed RETENTION_MS ago or more; how many. */
  sweep(): number {
    return this.o.store.deleteDeposits(this.now() - RETENTION_MS)
  }
}
