/**
 * protocol/SPAAACE-WITNESSED.md §7: the rule that decides a witnessed Spaaace! game. The evidence is
 * the decided receipt chain (§6.3, read by `log.ts`) and the envelopes of the files; the cut of
 * every tick is the notary's receipt times, so nothing here counts votes, seals or heads. Pure and
 * deterministic: the same chain and the same set of envelopes (in any order) give the same decision.
 *
 * A reader's file may lack envelopes the chain names (a gap): then no tick that needs them is
 * decided, and no judgment that needs them (§4.2 (w3)'s "no commitment before") is made, so a file
 * that lacks evidence never convicts anyone.
 */
import { toBase64url } from '../../../core/commit/bytes.js'
import type { GameState, Submission } from '../rules/types.js'
import { genesis as genesisState } from '../rules/state.js'
import { type TickOutcome, playTick } from '../rules/tick.js'
import { submissionOf } from '../peers/count.js'
import { type ReadEnvelope, readEnvelope, signatureValid } from '../peers/envelope.js'
import { type SealedGenesis, rulesTerms, tickTimes } from '../peers/genesis.js'
import { type CommitPart, type Part, type RevealPart, compareBytes, saltOf } from '../peers/parts.js'
import { closingHash } from '../peers/state-bytes.js'
import { tickOf } from './times.js'

/** A receipt of the decided chain, as the decision needs it (§6.1; the genesis receipt is apart). */
export type ChainReceipt =
  | {
      readonly kind: 'envelope'
      readonly index: number
      readonly time: number
      readonly author: number
      readonly seq: number
      readonly envelopeHash: Uint8Array
    }
  /** A complaint receipt of the decided chain: it holds, or the chain would have ended at it (§6.3 `complaint-invalid`). */
  | {
      readonly kind: 'complaint'
      readonly index: number
      readonly time: number
      readonly complainant: number
      readonly target: number
    }
  | { readonly kind: 'mark'; readonly index: number; readonly time: number; readonly t: number; readonly cut: 0 | 1 }
  | { readonly kind: 'seal'; readonly index: number; readonly time: number }

/** A notary fault (§6.3) with the index `k` below which the chain is decided. */
export interface ChainFault {
  readonly kind: string
  readonly index: number
  readonly detail: string
}

export interface WitnessedEvidence {
  readonly genesis: SealedGenesis
  /** §3: the chain starts with a genesis receipt that gives the game, and no fault voids it (`k* > 0`). */
  readonly started: boolean
  /** §7.6 rule 1: not started, because these files lack the genesis receipt later receipts name (a gap at 0). */
  readonly genesisMissing?: boolean
  /** The accepts of the genesis receipt, in roster order (135 bytes each, §3). */
  readonly accepts: readonly Uint8Array[]
  /** The decided chain after the genesis receipt, in index order (indices below `k*`). */
  readonly chain: readonly ChainReceipt[]
  /** The least fault, if any (§6.3: `k*`). */
  readonly fault?: ChainFault
  /** Envelopes from any files, in any order, possibly hostile; decoded and authenticated here. */
  readonly envelopes: Iterable<Uint8Array>
  /**
   * §7.6 rule 2: complaint receipts at or above `k*` (on the chain or off it) that hold against an
   * envelope receipt of the decided chain, by their index and the target's.
   */
  readonly complaintsBeyond?: readonly { readonly index: number; readonly target: number }[]
}

export type TickStatus = 'final' | 'provisional' | 'gap' | 'open'

export interface WitnessedTick {
  readonly t: number
  readonly status: TickStatus
  readonly active: readonly number[]
  /** Per roster index: a commitment in at the seal cut (receipted by `C_t`, not void). */
  readonly committed: readonly boolean[]
  /** Per roster index: committed, and a reveal in at the close cut (receipted by `R_t`, not void). */
  readonly revealed: readonly boolean[]
  readonly submissions?: readonly Submission[]
  readonly outcome?: TickOutcome
  readonly stateHash?: Uint8Array
  /** Gap: the envelope receipts (index, author, seq) whose envelopes the evidence lacks. */
  readonly missing?: readonly { readonly index: number; readonly author: number; readonly seq: number }[]
}

export type OffenceKind = 'false-deposit' | 'violation' | 'fork'

export interface WitnessedOffence {
  readonly player: number
  readonly kind: OffenceKind
  /** `§7.3 false-deposit`, `§4.2 (w1)` .. `§4.2 (w5)`, `§7.3 fork`. */
  readonly rule: string
  readonly message: string
  /** The tick of the envelope receipt it concerns (absent for a fork, which no receipt shows). */
  readonly tick?: number
  /** The tick it is counted in (§7.3); absent if not counted (the offender still cannot win, S-80). */
  readonly counted?: number
  /** The receipts (indices) and envelopes (ids) that prove it. */
  readonly receipts: readonly number[]
  readonly envelopes: readonly string[]
}

export type WitnessedEnd =
  | { readonly kind: 'not-started' }
  | { readonly kind: 'stalled'; readonly cause: 'notary-fault'; readonly tick: number; readonly fault: ChainFault }
  | { readonly kind: 'stalled'; readonly cause: 'outage'; readonly tick: number; readonly voters: readonly number[] }
  | {
      readonly kind: 'complete'
      readonly tick: number
      readonly winners: readonly number[]
      /** The closing state of `tick` is not final yet (§7.4): what a node's own steps wait for (§8.2). */
      readonly provisional: boolean
      /**
       * Rule 3: winners whose receipted envelopes these files lack; while any is, the reader's
       * verdict names them and the win is provisional. Never a reason for a node to withhold its
       * own seed (`provisional` alone is): a notary withholding one deposit could make it one forever.
       */
      readonly lacking?: readonly number[]
      /** A fault after the end (§7.6 rule 2): the end stands, the fault is named. */
      readonly fault?: ChainFault
    }
  | {
      readonly kind: 'ongoing'
      /** The last final tick (0 if none). */
      readonly lastFinal: number
      /**
       * Why it is undecided where a fuller evidence set decides: `genesis` the genesis receipt is
       * in no file (rule 1); `content` the decided chain lacks a receipt, or a tick of it lacks
       * envelopes its receipts name (rule 2, with `fault`). Absent: the notary's log has not passed the next cut.
       */
      readonly gap?: 'genesis' | 'content'
      /** Rule 2: the fault, when a gap below it is what keeps the end open. */
      readonly fault?: ChainFault
      /** The time of the chain's last receipt (the notary's last word), if any. */
      readonly lastReceipt?: number
    }

export interface WitnessedDecision {
  /** Tick 1 onward, up to the first tick neither final nor provisional, or the tick that ended the game. */
  readonly ticks: readonly WitnessedTick[]
  readonly end: WitnessedEnd
  readonly offences: readonly WitnessedOffence[]
  /** The envelope receipts (indices) made void by a complaint in time (§7.2). */
  readonly voids: readonly number[]
  /** Envelopes of the game whose signature fails and that nothing authenticates (ids). */
  readonly unauthenticated: readonly string[]
  /** Authenticated envelopes no receipt of the chain names (a hint for humans, never evidence, §13.15). */
  readonly unreceipted: readonly string[]
}

/** §2: the notary times of tick `t`: `C_t`, `R_t` and `F_t = C_{t+1}`. */
export function cutsOf(genesis: SealedGenesis, t: number): { commitCut: number; revealCut: number; window: number } {
  const at = tickTimes(genesis.genesis.timing, t)
  return {
    commitCut: at.commitCut,
    revealCut: at.revealCut,
    window: tickTimes(genesis.genesis.timing, t + 1).commitCut,
  }
}

/** §2: `tick(τ)`, the least `t ≥ 1` with `τ ≤ R_t`, or `maxTicks + 1` if none. */
export function tickOfTime(genesis: SealedGenesis, time: number): number {
  return tickOf(genesis.genesis.timing, genesis.genesis.terms.maxTicks, time)
}

interface Receipted {
  readonly r: ChainReceipt & { readonly kind: 'envelope' }
  readonly tick: number
  readonly env: ReadEnvelope | undefined
  void: boolean
}

/** §4.2: what one envelope's parts say, `undefined` if its body does not decode. */
function partsOf(e: ReadEnvelope): readonly Part[] | undefined {
  return e.body.ok ? e.body.value.parts : undefined
}

/** Appends `v` to the list of `k` (in place: a flood of one key stays linear). */
function pushTo<K, V>(m: Map<K, V[]>, k: K, v: V): void {
  const list = m.get(k)
  if (list === undefined) m.set(k, [v])
  else list.push(v)
}

/** Authenticated envelopes by id (§7): signed by the author, named by a receipt, or by a later authenticated `prev`. */
function authenticate(
  ev: WitnessedEvidence,
  receipted: ReadonlyMap<string, Uint8Array>,
): { held: Map<string, ReadEnvelope>; unauthenticated: string[] } {
  const { genesis } = ev
  const n = genesis.genesis.keys.length
  // One identity (the hash of the unsigned bytes) may come in several byte strings that differ only
  // in the signature (a key-less edit): the identity is signed iff any of them verifies, whatever
  // the order of the files (§7 "in any order"), so an edited copy never hides a vote or a fork.
  const read = new Map<string, ReadEnvelope>()
  const sigs = new Map<string, Map<string, ReadEnvelope>>()
  for (const bytes of [...ev.accepts, ...ev.envelopes]) {
    const d = readEnvelope(bytes, { players: n, game: genesis.game })
    if (!d.ok) continue
    const e = d.value
    if (!read.has(e.id)) read.set(e.id, e)
    const variants = sigs.get(e.id) ?? new Map<string, ReadEnvelope>()
    variants.set(toBase64url(e.sig), e)
    sigs.set(e.id, variants)
  }
  const signedBy = (e: ReadEnvelope): boolean =>
    [...(sigs.get(e.id)?.values() ?? [])].some((v) =>
      signatureValid(v, genesis.genesis.keys[e.header.author] ?? new Uint8Array(0)),
    )
  const byAuthor = [...read.values()].sort((a, b) => a.header.author - b.header.author || b.header.seq - a.header.seq)
  const held = new Map<string, ReadEnvelope>()
  // §7: "a later authenticated envelope of its author names it by prev": later is a higher seq, so an
  // envelope is named only by one of a higher seq (one at the same seq would make this depend on order).
  const named = new Map<string, number>()
  const unauthenticated: string[] = []
  for (const e of byAuthor) {
    const place = `${e.header.author}:${e.header.seq}`
    const hash = receipted.get(place)
    const ok =
      (hash !== undefined && compareBytes(hash, e.hash) === 0) ||
      (named.get(`${e.header.author}:${e.id}`) ?? -1) > e.header.seq ||
      signedBy(e)
    if (!ok) {
      unauthenticated.push(e.id)
      continue
    }
    held.set(e.id, e)
    const key = `${e.header.author}:${toBase64url(e.header.prev)}`
    if (e.header.seq > 0) named.set(key, Math.max(named.get(key) ?? -1, e.header.seq))
  }
  return { held, unauthenticated: unauthenticated.sort() }
}

/** §4.2: the violations of one author's receipted chain, judged envelope by envelope in `seq` order. */
function violationsOf(
  genesis: SealedGenesis,
  chain: readonly Receipted[],
  acceptHash: Uint8Array | undefined,
): { at: Receipted; rule: string; message: string }[] {
  const game = genesis.game
  const out: { at: Receipted; rule: string; message: string }[] = []
  let lastCommit = 0
  let lastReveal = 0
  const commits = new Set<number>()
  let complete = true
  let seedAt: Receipted | undefined
  let prevHash = acceptHash
  const reveals: { at: Receipted; part: RevealPart }[] = []
  for (const at of chain) {
    // (w4) also when the envelope's own author or seq is not its receipt's: the header signer named
    // another place's envelope (whose hash is all a receipt names, §7), and nothing else judges that.
    const placeOk = at.env === undefined || (at.env.header.author === at.r.author && at.env.header.seq === at.r.seq)
    const prevOk =
      placeOk && (prevHash === undefined || at.env === undefined || compareBytes(at.env.header.prev, prevHash) === 0)
    prevHash = at.r.envelopeHash
    if (at.void) continue
    if (at.env === undefined) {
      complete = false
      continue
    }
    const found: [string, string][] = []
    const parts = partsOf(at.env)
    const before = new Set(commits)
    if (at.env.body.ok && at.env.body.value.heads.length > 0) found.push(['(w1)', 'it carries heads'])
    const unused = parts?.find(
      (p) => p.type === 'state' || p.type === 'seal' || p.type === 'close' || p.type === 'fork',
    )
    if (unused !== undefined) found.push(['(w1)', `a ${unused.type} part`])
    if (parts === undefined)
      found.push(['(w2)', `its body does not decode: ${at.env.body.ok ? '' : at.env.body.error.message}`])
    if (seedAt !== undefined) found.push(['(w3)', 'an envelope after its seed'])
    for (const p of parts ?? []) {
      if (p.type === 'commit') {
        if (p.tick <= lastCommit) found.push(['(w3)', `commit(${p.tick}) at or below an earlier commit(${lastCommit})`])
        lastCommit = Math.max(lastCommit, p.tick)
        commits.add(p.tick)
      } else if (p.type === 'reveal') {
        if (p.tick <= lastReveal) found.push(['(w3)', `reveal(${p.tick}) at or below an earlier reveal(${lastReveal})`])
        else if (complete && !before.has(p.tick))
          found.push(['(w3)', `reveal(${p.tick}) with no commit(${p.tick}) before it`])
        lastReveal = Math.max(lastReveal, p.tick)
        reveals.push({ at, part: p })
      }
    }
    if (!placeOk) found.push(['(w4)', `its receipt names an envelope of another place`])
    else if (!prevOk) found.push(['(w4)', `its prev is not the author's envelope at seq ${at.r.seq - 1}`])
    const seed = parts?.find((p) => p.type === 'seed')
    if (seed !== undefined && seedAt === undefined) {
      seedAt = at
      for (const r of reveals)
        if (compareBytes(saltOf(game, at.r.author, seed.seed, r.part.tick), r.part.salt) !== 0) {
          found.push(['(w5)', `the seed does not give the salt of reveal(${r.part.tick})`])
          break
        }
    }
    if (found.length > 0) {
      found.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
      const [rule, message] = found[0] ?? ['', '']
      out.push({ at, rule: `§4.2 ${rule}`, message })
    }
  }
  // A reveal signed after the seed is already (w3); one before it is checked by the seed above.
  return out
}

/** §7: the decision over the evidence. */
export function decideWitnessed(ev: WitnessedEvidence): WitnessedDecision {
  const { genesis } = ev
  const n = genesis.genesis.keys.length
  const maxTicks = genesis.genesis.terms.maxTicks
  const envelopesOfChain = ev.chain.filter((r): r is ChainReceipt & { kind: 'envelope' } => r.kind === 'envelope')
  const receiptedHash = new Map<string, Uint8Array>()
  for (const r of envelopesOfChain) receiptedHash.set(`${r.author}:${r.seq}`, r.envelopeHash)
  const acceptHashes: (Uint8Array | undefined)[] = []
  for (const a of ev.accepts) {
    const d = readEnvelope(a, { players: n, game: genesis.game })
    if (d.ok) {
      acceptHashes[d.value.header.author] = d.value.hash
      receiptedHash.set(`${d.value.header.author}:0`, d.value.hash)
    }
  }
  const { held, unauthenticated } = authenticate(ev, receiptedHash)
  const envelopeOf = (hash: Uint8Array): ReadEnvelope | undefined => held.get(toBase64url(hash))

  // §7.2: void envelope receipts, and the false-deposit offences.
  const receipted = new Map<number, Receipted>()
  for (const r of envelopesOfChain)
    receipted.set(r.index, { r, tick: tickOfTime(genesis, r.time), env: envelopeOf(r.envelopeHash), void: false })
  const deposits = new Map<number, { counted: number; receipts: number[] }>()
  for (const c of ev.chain) {
    if (c.kind !== 'complaint') continue
    const target = receipted.get(c.target)
    if (target === undefined) continue
    const inTime = c.time <= cutsOf(genesis, target.tick).window
    if (inTime) target.void = true
    const counted = inTime ? target.tick : tickOfTime(genesis, c.time)
    const was = deposits.get(c.target)
    if (was === undefined) deposits.set(c.target, { counted, receipts: [c.target, c.index] })
    else {
      was.receipts.push(c.index)
      if (counted < was.counted) was.counted = counted
    }
  }

  // §7.6 rule 2: a complaint the notary receipted beyond its fault still proves its author's
  // false deposit (the author's signed header, the complainant's proof): a fault signed later
  // cannot erase a conviction. It convicts and is never counted (the decided ticks stand).
  const beyond = new Map<number, number[]>()
  for (const b of ev.fault === undefined ? [] : (ev.complaintsBeyond ?? []))
    if (!deposits.has(b.target) && receipted.has(b.target)) pushTo(beyond, b.target, b.index)

  const lastTime = ev.chain.length === 0 ? undefined : (ev.chain[ev.chain.length - 1]?.time ?? 0)
  const passes = (x: number): boolean => lastTime !== undefined && lastTime > x

  // Items of each player: receipted chains in seq order. Violations are judged lazily, after the ticks.
  const chains: Receipted[][] = Array.from({ length: n }, () => [])
  for (const x of [...receipted.values()].sort((a, b) => a.r.seq - b.r.seq)) chains[x.r.author]?.push(x)

  interface Item {
    player: number
    kind: OffenceKind
    rule: string
    message: string
    tick: number | undefined
    /** The tick of the envelope receipt it concerns. */
    anchor: number
    receipts: number[]
    envelopes: string[]
  }
  const itemsOf = (): Item[] => {
    const items: Item[] = []
    // The complaints of the decided chain, then those beyond it (never counted).
    const complained: { target: number; tick: number | undefined; receipts: number[] }[] = [
      ...[...deposits].map(([target, d]) => ({ target, tick: d.counted, receipts: d.receipts })),
      ...[...beyond].map(([target, indices]) => ({ target, tick: undefined, receipts: [target, ...indices] })),
    ]
    for (const { target, tick, receipts } of complained) {
      const x = receipted.get(target)
      if (x === undefined) continue
      const where = tick === undefined ? " (complained of beyond the notary's fault)" : ''
      items.push({
        player: x.r.author,
        kind: 'false-deposit',
        rule: '§7.3 false-deposit',
        message: `its deposit at seq ${x.r.seq} does not open for a complainant${where}`,
        tick,
        anchor: x.tick,
        receipts,
        envelopes: [],
      })
    }
    for (let q = 0; q < n; q++)
      for (const v of violationsOf(genesis, chains[q] ?? [], acceptHashes[q]))
        items.push({
          player: q,
          kind: 'violation',
          rule: v.rule,
          message: `seq ${v.at.r.seq}: ${v.message}`,
          tick: v.at.tick,
          anchor: v.at.tick,
          receipts: [v.at.r.index],
          envelopes: v.at.env === undefined ? [] : [v.at.env.id],
        })
    if (ev.fault !== undefined) items.push(...seedsBeyond())
    return items
  }

  /**
   * §7.6 rule 2: an author's seed envelope outside the decided chain (receipted at or above `k*`,
   * or not at all) whose seed does not give the salt of one of its reveals in the decided chain
   * proves (w5) as its receipted seed would; convicted, never counted. Only where the decided chain
   * holds no seed of the author (that one is judged in its chain).
   */
  const seedsBeyond = (): Item[] => {
    const out: Item[] = []
    for (let q = 0; q < n; q++) {
      const chain = (chains[q] ?? []).filter((x) => !x.void && x.env !== undefined)
      const parts = chain.map((x) => ({ x, parts: (x.env && partsOf(x.env)) ?? [] }))
      if (parts.some((p) => p.parts.some((part) => part.type === 'seed'))) continue
      const reveals = parts.flatMap(({ x, parts: ps }) =>
        ps.flatMap((part) => (part.type === 'reveal' ? [{ x, part }] : [])),
      )
      // A seed envelope whose place the decided chain receipts is judged there (or void there).
      const seeds = [...held.values()]
        .filter((e) => e.header.author === q && !receiptedHash.has(`${q}:${e.header.seq}`))
        .flatMap((e) => (partsOf(e) ?? []).flatMap((part) => (part.type === 'seed' ? [{ e, seed: part.seed }] : [])))
        .sort((a, b) => a.e.header.seq - b.e.header.seq)
      const first = seeds[0]
      if (first === undefined) continue
      const wrong = reveals.find(
        (r) => compareBytes(saltOf(genesis.game, q, first.seed, r.part.tick), r.part.salt) !== 0,
      )
      if (wrong === undefined) continue
      out.push({
        player: q,
        kind: 'violation',
        rule: '§4.2 (w5)',
        message: `seq ${first.e.header.seq}: the seed does not give the salt of reveal(${wrong.part.tick}) (a seed beyond the notary's fault)`,
        tick: undefined,
        anchor: wrong.x.tick,
        receipts: [wrong.x.r.index],
        envelopes: [first.e.id],
      })
    }
    return out
  }

  const items = itemsOf()
  // §7.4: the ticks, in order.
  // Indexes built in one pass, so that each tick reads only what concerns it and the decision stays
  // linear in the evidence (a per-tick scan of every receipt is quadratic over 1,000 ticks):
  // the non-void receipts holding commit(t) (reveal(t)) per tick, in chain order, and the non-void
  // receipts whose content the evidence lacks, by time.
  const commitsAt = new Map<number, { x: Receipted; part: CommitPart }[]>()
  const revealsAt = new Map<number, { x: Receipted; part: RevealPart }[]>()
  const lacking: Receipted[] = []
  for (const x of receipted.values()) {
    if (x.void) continue
    if (x.env === undefined) {
      lacking.push(x)
      continue
    }
    for (const part of partsOf(x.env) ?? []) {
      if (part.type === 'commit') pushTo(commitsAt, part.tick, { x, part })
      if (part.type === 'reveal') pushTo(revealsAt, part.tick, { x, part })
    }
  }
  lacking.sort((a, b) => a.r.time - b.r.time || a.r.index - b.r.index)
  const itemsAt = new Map<number, Item[]>()
  for (const it of items) if (it.tick !== undefined) pushTo(itemsAt, it.tick, it)

  const play = (): { ticks: WitnessedTick[]; states: GameState[] } => {
    const ticks: WitnessedTick[] = []
    const states: GameState[] = [genesisState(n, rulesTerms(genesis.genesis))]
    let level: 'final' | 'provisional' = 'final'
    // The lacking receipts up to R_t: those of players not active in t are passed for good (a removal
    // is for good, so their content never matters again); one of an active player is a gap.
    let passed = 0
    for (let t = 1; t <= maxTicks; t++) {
      const before = states[t - 1]
      if (before === undefined || before.ended) break
      const cuts = cutsOf(genesis, t)
      const isActive = before.players.map((p) => p.status === 'active')
      const active = [...isActive.keys()].filter((p) => isActive[p])
      // §7.3: an active player with an offence counted in t is `equivocated` in t and removed at its
      // step 9, so no content of its changes S_t: its envelopes the evidence lacks are no gap. A
      // cheater that garbles more deposits in a tick than COMPLAINTS_PER_PAIR lets anyone complain
      // of would otherwise leave every honest file at a gap for good (§7.4).
      const offender = new Set(
        (itemsAt.get(t) ?? []).filter((it) => isActive[it.player] === true).map((it) => it.player),
      )
      const missing: { index: number; author: number; seq: number }[] = []
      for (; passed < lacking.length && (lacking[passed]?.r.time ?? Infinity) <= cuts.revealCut; passed++) {
        const x = lacking[passed]
        if (x !== undefined && isActive[x.r.author] === true && !offender.has(x.r.author))
          missing.push({ index: x.r.index, author: x.r.author, seq: x.r.seq })
      }
      const committedIn: (CommitPart | undefined)[] = Array.from({ length: n }, () => undefined)
      const revealedIn: (RevealPart | undefined)[] = Array.from({ length: n }, () => undefined)
      for (const { x, part } of commitsAt.get(t) ?? [])
        if (x.r.time <= cuts.commitCut && committedIn[x.r.author] === undefined) committedIn[x.r.author] = part
      for (const { x, part } of revealsAt.get(t) ?? [])
        if (x.r.time <= cuts.revealCut && revealedIn[x.r.author] === undefined) revealedIn[x.r.author] = part
      const committed = committedIn.map((c, q) => c !== undefined && isActive[q] === true)
      const revealed = revealedIn.map((r, q) => r !== undefined && committed[q] === true)
      const base = { t, active, committed, revealed }
      if (!passes(cuts.revealCut)) {
        ticks.push({ ...base, status: 'open' })
        break
      }
      if (missing.length > 0) {
        ticks.push({ ...base, status: 'gap', missing: missing.sort((a, b) => a.index - b.index) })
        break
      }
      const submissions = Array.from({ length: n }, (_, q) =>
        submissionOf(genesis.game, n, q, {
          active: isActive[q] === true,
          equivocated: offender.has(q),
          commit: committed[q] === true ? committedIn[q] : undefined,
          reveal: revealed[q] === true ? revealedIn[q] : undefined,
        }),
      )
      const outcome = playTick(before, submissions)
      if (level === 'final' && !passes(cuts.window)) level = 'provisional'
      ticks.push({
        ...base,
        status: level,
        submissions,
        outcome,
        stateHash: closingHash(genesis.game, outcome.state),
      })
      states.push(outcome.state)
    }
    return { ticks, states }
  }
  const { ticks } = play()
  const lastTick = ticks.find((x) => x.outcome?.state.ended === true)

  // §7.3: which items count; a player removed before the tick of its item is not reported (BD-17's reading).
  const offences: WitnessedOffence[] = []
  const removedBefore = (q: number, tick: number): boolean => {
    // S_{tick−1}; past the end it is S_T (a removal is for good, and nothing is played after T).
    const at = lastTick === undefined ? tick - 1 : Math.min(tick - 1, lastTick.t)
    const state = at >= 1 ? ticks[at - 1]?.outcome?.state : undefined
    return state !== undefined && state.players[q]?.status !== 'active'
  }
  for (const it of items) {
    const t = it.tick
    const view = t === undefined ? undefined : ticks[t - 1]
    const counted =
      t !== undefined && t <= maxTicks && view?.submissions?.[it.player]?.kind === 'equivocated' ? t : undefined
    if (counted === undefined && removedBefore(it.player, it.anchor)) continue
    offences.push({
      player: it.player,
      kind: it.kind,
      rule: it.rule,
      message: it.message,
      tick: it.anchor,
      ...(counted === undefined ? {} : { counted }),
      receipts: it.receipts,
      envelopes: it.envelopes,
    })
  }
  // §7.3 fork: two authenticated envelopes of one author at one seq; never counted.
  const places = new Map<string, ReadEnvelope[]>()
  for (const e of held.values()) {
    const k = `${e.header.author}:${e.header.seq}`
    pushTo(places, k, e)
  }
  for (const es of places.values())
    if (es.length > 1) {
      const [a, b] = es.sort((x, y) => compareBytes(x.hash, y.hash))
      if (a === undefined || b === undefined) continue
      offences.push({
        player: a.header.author,
        kind: 'fork',
        rule: '§7.3 fork',
        message: `two envelopes at seq ${a.header.seq}`,
        receipts: [],
        envelopes: [a.id, b.id],
      })
    }
  offences.sort(
    (a, b) => a.player - b.player || (a.counted ?? Infinity) - (b.counted ?? Infinity) || (a.rule < b.rule ? -1 : 1),
  )
  const convicted = new Set(offences.map((o) => o.player))

  // §7.2: void is a property of envelope receipts. An envelope is void when the receipt of its own
  // place (author, seq) is; a void receipt of another place that names its hash leaves it as it is.
  const voided = new Set(
    [...receipted.values()].flatMap((x) =>
      x.void && x.env !== undefined && x.env.header.author === x.r.author && x.env.header.seq === x.r.seq
        ? [x.env.id]
        : [],
    ),
  )
  // §7.6 rule 3: a winner whose receipted envelope these files lack may be convicted by it (a seed
  // that gives no salt, an envelope after its seed): its win stays provisional until it is held.
  const lackingOf = new Set(lacking.map((x) => x.r.author))
  const end = endOf(ev, ticks, lastTick, convicted, held, voided, lastTime, lackingOf)
  const unreceipted = [...held.values()]
    .filter((e) => e.header.seq > 0 && receiptedHash.get(`${e.header.author}:${e.header.seq}`) === undefined)
    .map((e) => e.id)
    .sort()
  return {
    ticks,
    end,
    offences,
    voids: [...receipted.values()].filter((x) => x.void).map((x) => x.r.index),
    unauthenticated,
    unreceipted,
  }
}

/** §7.6: how the game ends, in this order. */
function endOf(
  ev: WitnessedEvidence,
  ticks: readonly WitnessedTick[],
  last: WitnessedTick | undefined,
  convicted: ReadonlySet<number>,
  held: ReadonlyMap<string, ReadEnvelope>,
  voided: ReadonlySet<string>,
  lastTime: number | undefined,
  lackingOf: ReadonlySet<number>,
): WitnessedEnd {
  // Receipts of the game without the one that registered it: these files lack its start (a gap), not the game.
  if (!ev.started)
    return ev.genesisMissing === true ? { kind: 'ongoing', lastFinal: 0, gap: 'genesis' } : { kind: 'not-started' }
  const lastFinal = ticks.filter((x) => x.status === 'final').length
  const complete = (x: WitnessedTick): WitnessedEnd => {
    const winners = (x.outcome?.state.winners ?? []).filter((p) => !convicted.has(p))
    const lacking = winners.filter((p) => lackingOf.has(p))
    return {
      kind: 'complete',
      tick: x.t,
      winners,
      provisional: x.status !== 'final',
      ...(lacking.length === 0 ? {} : { lacking }),
      ...(ev.fault === undefined ? {} : { fault: ev.fault }),
    }
  }
  if (ev.fault !== undefined) {
    if (last?.status === 'final') return complete(last)
    // The decided chain stops at a gap below `k*` (a receipt in no file: the chain runs from the
    // genesis by `prev`, §6.3), or the first tick not final is at a gap (envelopes in no file): other
    // files may hold them, and with them the tick may be final on the decided chain. A file with one
    // line deleted had read stalled, for good.
    const chainEnd = (ev.chain.at(-1)?.index ?? 0) + 1
    if (chainEnd < ev.fault.index || ticks.find((x) => x.status !== 'final')?.status === 'gap')
      return { kind: 'ongoing', lastFinal, gap: 'content', fault: ev.fault }
    return { kind: 'stalled', cause: 'notary-fault', tick: lastFinal + 1, fault: ev.fault }
  }
  if (last !== undefined) return complete(last)
  // Rule 4: the first tick the chain does not pass, with a majority of its active players voting `stop(s)`.
  const open = ticks[ticks.length - 1]
  if (open?.status === 'open') {
    const s = open.t
    const voters = new Set<number>()
    // §7.2: a void envelope counts as no vote.
    for (const e of held.values())
      if (
        !voided.has(e.id) &&
        open.active.includes(e.header.author) &&
        (partsOf(e) ?? []).some((p) => p.type === 'stop' && p.tick === s)
      )
        voters.add(e.header.author)
    if (voters.size >= Math.floor(open.active.length / 2) + 1)
      return { kind: 'stalled', cause: 'outage', tick: s, voters: [...voters].sort((a, b) => a - b) }
  }
  return { kind: 'ongoing', lastFinal, ...(lastTime === undefined ? {} : { lastReceipt: lastTime }) }
}
