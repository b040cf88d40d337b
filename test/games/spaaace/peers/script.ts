/**
 * A deterministic script of a Spaaace! game among peers (protocol/SPAAACE-PEERS.md §4, §6), for the
 * decision's tests and vectors: players with fixed keys and seeds sign envelopes whose heads name
 * what each holds (§4.1: for every other author, the highest envelope held on the branch its
 * previous head followed; frozen once a `fork` part names that author), and deliveries give a
 * player an envelope with its whole past (§8). Honest ticks (`honestTick`) sign, in turn, the
 * commitment (with the previous tick's closing hash), the seal, the reveal and the close; the
 * closing hash is computed by the player's own `Decider` over what it holds (§6.5). Anything else
 * (forks, withheld deliveries, late commitments) is written step by step with `sign` and `deliver`.
 */
import type { KeyPair } from '../../../../src/core/commit/keys.js'
import { toBase64url } from '../../../../src/core/commit/bytes.js'
import { Decider, type Decision } from '../../../../src/games/spaaace/peers/decide.js'
import {
  type Head,
  type ReadEnvelope,
  type SealedEnvelope,
  readEnvelope,
  sealEnvelope,
} from '../../../../src/games/spaaace/peers/envelope.js'
import { type Genesis, type SealedGenesis, signAccept } from '../../../../src/games/spaaace/peers/genesis.js'
import { type Part, commitmentOf, saltOf } from '../../../../src/games/spaaace/peers/parts.js'
import { formatPeersTranscript } from '../../../../src/games/spaaace/peers/transcript.js'
import { fixed, liveGenesis, roster, sealedGenesis } from './fixtures.js'

/** A player's orders in one honest tick: a text (committed and revealed), `null` (nothing committed), or withheld. */
export type Orders = string | null | { readonly withhold: string }

export class Game {
  readonly n: number
  readonly keys: readonly KeyPair[]
  readonly genesis: SealedGenesis
  /** Every envelope signed, in signing order. */
  readonly signed: SealedEnvelope[] = []
  readonly byId = new Map<string, SealedEnvelope>()
  readonly players: Player[]

  constructor(n: number, overrides: Partial<Genesis> = {}, label = 'script') {
    this.n = n
    this.keys = roster(n)
    this.genesis = sealedGenesis(liveGenesis(n, overrides))
    this.players = this.keys.map((k, i) => new Player(this, i, k, fixed(`${label} seed ${i}`)))
  }

  get game(): Uint8Array {
    return this.genesis.game
  }

  player(label: number): Player {
    const p = this.players[label]
    if (p === undefined) throw new Error(`no player ${label}`)
    return p
  }

  record(e: SealedEnvelope): void {
    if (this.byId.has(e.id)) return
    this.byId.set(e.id, e)
    this.signed.push(e)
  }

  /** The ids `e` names (prev, heads, both envelopes of each fork part). */
  links(e: SealedEnvelope): string[] {
    const env = e.envelope
    const out = env.seq === 0 ? [] : [toBase64url(env.prev)]
    for (const h of env.heads) out.push(toBase64url(h.hash))
    for (const p of env.parts) if (p.type === 'fork') out.push(toBase64url(p.hashA), toBase64url(p.hashB))
    return out
  }

  /** `past(e)` less what `stop` holds (whose past it holds too), each envelope after what it names. */
  past(e: SealedEnvelope, stop: ReadonlySet<string> | ReadonlyMap<string, unknown> = new Set()): SealedEnvelope[] {
    const out: SealedEnvelope[] = []
    const seen = new Set<string>(stop.keys())
    const visit = (x: SealedEnvelope): void => {
      const stack: [SealedEnvelope, boolean][] = [[x, false]]
      while (stack.length > 0) {
        const [y, done] = stack.pop() ?? [x, true]
        if (done) {
          out.push(y)
          continue
        }
        if (seen.has(y.id)) continue
        seen.add(y.id)
        stack.push([y, true])
        for (const id of this.links(y)) {
          const z = this.byId.get(id)
          if (z !== undefined && !seen.has(id)) stack.push([z, false])
        }
      }
    }
    visit(e)
    return out
  }

  /** §8: `to` (default every other player) come to hold `e` with its whole past. */
  deliver(e: SealedEnvelope, to?: readonly number[]): void {
    const targets = to ?? this.players.map((p) => p.index).filter((i) => i !== e.envelope.author)
    for (const i of targets) this.player(i).receive(e)
  }

  /** Every player signs its accept and every player holds all of them (§3.2). */
  accept(): void {
    const accepts = this.players.map((p) => p.acceptGenesis())
    for (const a of accepts) this.deliver(a)
  }

  read(e: SealedEnvelope): ReadEnvelope {
    const r = readEnvelope(e.bytes, { players: this.n, game: this.game })
    if (!r.ok) throw new Error(r.error.message)
    return r.value
  }

  /** The envelopes of `list` (default: all signed) as a verifier reads them (another game's are set aside, BD-6). */
  reads(list: readonly SealedEnvelope[] = this.signed): ReadEnvelope[] {
    return list.flatMap((e) => {
      const r = readEnvelope(e.bytes, { players: this.n, game: this.game })
      return r.ok ? [r.value] : []
    })
  }

  /** A transcript file of `list` (default all signed) (§2). */
  transcript(list: readonly SealedEnvelope[] = this.signed): string {
    return formatPeersTranscript(
      this.genesis.bytes,
      list.map((e) => e.bytes),
    )
  }
}

export class Player {
  readonly held = new Map<string, SealedEnvelope>()
  readonly chain: SealedEnvelope[] = []
  private readonly heads = new Map<number, string>()
  private readonly byAuthor: SealedEnvelope[][] = []
  readonly forked = new Set<number>()
  private readonly decider: Decider
  /** The order text committed per tick (for the reveal). */
  readonly committed = new Map<number, string>()

  constructor(
    readonly game: Game,
    readonly index: number,
    readonly keys: KeyPair,
    readonly seed: Uint8Array,
  ) {
    this.decider = new Decider(game.genesis, { authenticated: true, self: index })
  }

  receive(e: SealedEnvelope): void {
    if (this.held.has(e.id)) return
    for (const x of this.game.past(e, this.held)) {
      if (this.held.has(x.id)) continue
      this.held.set(x.id, x)
      const mine = this.byAuthor[x.envelope.author] ?? []
      mine.push(x)
      this.byAuthor[x.envelope.author] = mine
      this.decider.add(this.game.read(x))
    }
  }

  /** What this player holds, decided (§6: what its node acts on). */
  decision(): Decision {
    return this.decider.decision()
  }

  acceptGenesis(): SealedEnvelope {
    const a = signAccept(this.keys, this.game.game, this.index)
    this.chain.push(a)
    this.game.record(a)
    this.receive(a)
    return a
  }

  /** §4.1: the heads an honest signer names. */
  currentHeads(): Head[] {
    const out: Head[] = []
    for (let q = 0; q < this.game.n; q++) {
      if (q === this.index) continue
      const current = this.heads.get(q)
      let best: SealedEnvelope | undefined = current === undefined ? undefined : this.held.get(current)
      if (!this.forked.has(q)) {
        for (const e of this.byAuthor[q] ?? []) {
          if (best !== undefined && e.envelope.seq <= best.envelope.seq) continue
          if (current !== undefined && !this.extendsTo(e, current)) continue
          best = e
        }
      }
      if (best === undefined) continue
      this.heads.set(q, best.id)
      out.push({ author: q, seq: best.envelope.seq, hash: best.hash })
    }
    return out
  }

  private extendsTo(e: SealedEnvelope, id: string): boolean {
    let at: SealedEnvelope | undefined = e
    while (at !== undefined) {
      if (at.id === id) return true
      if (at.envelope.seq === 0) return false
      at = this.held.get(toBase64url(at.envelope.prev))
    }
    return false
  }

  /**
   * Signs the next envelope of its chain (or, with `prev`, one after another envelope of its own:
   * a fork). Heads are what it holds unless given.
   */
  sign(parts: Part[], opts: { heads?: Head[]; after?: SealedEnvelope } = {}): SealedEnvelope {
    const prev = opts.after ?? this.chain[this.chain.length - 1]
    if (prev === undefined) throw new Error('accept first')
    // §4.1: the envelope holding a fork part may still move the head; every later one keeps it.
    const heads = opts.heads ?? this.currentHeads()
    for (const p of parts) if (p.type === 'fork') this.forked.add(p.author)
    const e = sealEnvelope(this.keys, {
      author: this.index,
      seq: prev.envelope.seq + 1,
      game: this.game.game,
      prev: prev.hash,
      heads,
      parts,
    })
    if (opts.after === undefined) this.chain.push(e)
    this.game.record(e)
    this.receive(e)
    return e
  }

  salt(t: number): Uint8Array {
    return saltOf(this.game.game, this.index, this.seed, t)
  }

  commitPart(t: number, orders: string): Part {
    this.committed.set(t, orders)
    return { type: 'commit', tick: t, commitment: commitmentOf(this.game.game, this.index, t, this.salt(t), orders) }
  }

  revealPart(t: number, orders = this.committed.get(t) ?? '-'): Part {
    return { type: 'reveal', tick: t, salt: this.salt(t), orders }
  }

  /** §6.5: `state(t)` over what it holds (throws if tick `t` is not settled there). */
  statePart(t: number): Part {
    const own = this.decision().ticks[t - 1]?.own
    if (own === undefined) throw new Error(`player ${this.index}: tick ${t} is not settled in what it holds`)
    return { type: 'state', tick: t, stateHash: own.stateHash }
  }
}

/**
 * One honest tick `t` for the players in `who` (default all): each in turn signs its commitment
 * (with `state(t − 1)`), then its seal, its reveal and its close, every envelope delivered to all.
 */
export function honestTick(game: Game, t: number, orders: readonly Orders[], who?: readonly number[]): void {
  const players = (who ?? game.players.map((p) => p.index)).map((i) => game.player(i))
  for (const p of players) {
    const o = orders[p.index] ?? null
    const parts: Part[] = t > 1 ? [p.statePart(t - 1)] : []
    if (o !== null) parts.push(p.commitPart(t, typeof o === 'string' ? o : o.withhold))
    if (parts.length > 0) game.deliver(p.sign(parts))
  }
  for (const p of players) game.deliver(p.sign([{ type: 'seal', tick: t }]))
  for (const p of players) {
    const o = orders[p.index] ?? null
    if (typeof o === 'string') game.deliver(p.sign([p.revealPart(t)]))
  }
  for (const p of players) game.deliver(p.sign([{ type: 'close', tick: t }]))
}

/** Every player in `who` (default all) signs `state(t)` alone (the game's last envelopes). */
export function closeStates(game: Game, t: number, who?: readonly number[]): void {
  const players = (who ?? game.players.map((p) => p.index)).map((i) => game.player(i))
  for (const p of players) game.deliver(p.sign([p.statePart(t)]))
}

/** An honest game of `n` players over `ticks` (orders per tick per player), every closing hash signed. */
export function playHonest(n: number, ticks: readonly (readonly Orders[])[], overrides: Partial<Genesis> = {}): Game {
  const game = new Game(n, overrides)
  game.accept()
  ticks.forEach((orders, k) => {
    honestTick(game, k + 1, orders)
  })
  if (ticks.length > 0) closeStates(game, ticks.length)
  return game
}
