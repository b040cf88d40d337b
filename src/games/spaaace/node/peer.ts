/**
 * What an honest node does (protocol/SPAAACE-PEERS.md §6): the only place clocks act. Everything
 * it decides from evidence is §5's function of the envelopes its next envelope names (`decide`
 * over `NamedSet`); its clock decides only when it signs. The node is a reconciler: on every
 * envelope it comes to hold, every timer and every choice of its player, `step` looks at what its
 * chain has signed (`OwnChain`, read back at a restart) and what the evidence says, and signs the
 * parts that are due, one envelope at a time, until nothing is. So a restarted node resumes where
 * its chain stands, and never composes a second envelope at a `seq` it signed (§6.8).
 *
 * The steps, §6.0 .. §6.9, each marked where it is done.
 */
import type { KeyPair } from '../../../core/commit/keys.js'
import { type Logger, componentLogger } from '../../../core/log.js'
import type { Clock } from '../../../core/session/clock.js'
import { SKEW_MS, THINK_MS, stallMs } from '../peers/domain.js'
import { type ReadEnvelope, type SealedEnvelope, readEnvelopeOnce } from '../peers/envelope.js'
import { type SealedGenesis, rulesTerms, tickTimes } from '../peers/genesis.js'
import { type ForkPart, PART_CODES, type Part, commitmentOf, saltOf, tickOf } from '../peers/parts.js'
import { type Decision, Decider, type End, type TickView } from '../peers/decide.js'
import { genesis as genesisState } from '../rules/state.js'
import type { GameState } from '../rules/types.js'
import { OwnChain } from './chain.js'
import { NamedSet } from './named.js'
import type { PeerSecrets } from './secrets.js'

/**
 * A timer fires a little after its time; a seal is still signed within this of `C_t` (§6.2 says
 * "never after `C_t`": the margin is far inside the `2·SKEW_MS` that separates the last honest
 * seal from the first honest reveal, §7.2, so it weakens nothing).
 */
export const SEAL_JITTER_MS = 100

/** What a player sees when its node asks for orders (§6.0, §6.1). */
export interface ChoiceView {
  readonly tick: number
  /** `S_{t−1}`, the closing state the orders are chosen on. */
  readonly state: GameState
  readonly self: number
  /** `G_t`: orders chosen later are not committed (§6.1, S-61). */
  readonly deadline: number
}

/** Who chooses this node's orders: a person at a terminal, or a bot. */
export interface Chooser {
  /**
   * The order text of tick `view.tick` (the record's ORDERS syntax with labels `p1`..`pn`; `-` for
   * none), or null to commit nothing. `signal` aborts at the deadline. A bot may answer at once.
   */
  choose(view: ChoiceView, signal: AbortSignal): string | null | Promise<string | null>
}

/** What the node tells its screen. */
export interface PeerEvents {
  /** Tick `t` is ready for this node: it plays it, or skips it (§6.0: too late to choose). */
  onReady?(t: number, state: GameState, plays: boolean): void
  /** The player chose after the deadline: nothing was committed (S-61). */
  onLateChoice?(t: number): void
  /** Tick `t` settled in what this node names, and it signed `state(t)` (§6.5). */
  onSettled?(view: TickView, decision: Decision): void
  /** The node signed an envelope (already persisted and handed to the mesh). */
  onSigned?(e: SealedEnvelope): void
  /** The game ended for this node (§5.7, §6.7 (b), §6.9): its last envelope is signed. */
  onEnd?(end: End, decision: Decision): void
  /**
   * §6.8: the node holds `held` of the `signed` envelopes it journaled as signed (its transcript
   * was lost or replaced by an older copy): it signs nothing until the others give them back.
   */
  onRecovering?(held: number, signed: number): void
  /** Its own envelopes are all held again: it goes on from them. */
  onRecovered?(signed: number): void
  /**
   * §6.8 step 8: its chain of `held` envelopes was signed with a seed its secrets file no longer
   * holds (the file was deleted): it can open none of its commitments, and signs nothing more.
   */
  onSeedLost?(held: number): void
}

export interface SpaaacePeerOptions {
  readonly genesis: SealedGenesis
  readonly self: number
  readonly keys: KeyPair
  readonly clock: Clock
  readonly secrets: PeerSecrets
  readonly chooser: Chooser
  /** Hands a signed envelope to the mesh, which persists it before it sends it (§6.8). */
  readonly publish: (bytes: Uint8Array) => void
  readonly events?: PeerEvents
  readonly signal: AbortSignal
  readonly log?: Logger
  /**
   * Red-team tests only: a cheater's node rewrites the parts it is about to sign (drops a reveal,
   * falsifies a closing hash); nothing is signed when it returns none. An honest node has none.
   */
  readonly shape?: (parts: Part[]) => Part[]
  /**
   * How a step is put off until what is being delivered now has been held (default: a microtask,
   * which a virtual clock's `settle` drives). A node on a network passes `setImmediate`: each frame
   * comes in its own I/O callback, and a step after each would decide anew (and maybe sign) once
   * per envelope; after the poll phase, the envelopes that came together are decided once. The
   * step is the same reconciler either way (§6): only how often it runs changes.
   */
  readonly defer?: (run: () => void) => void
}

interface Readiness {
  readonly plays: boolean
  /** `σ`: when the seal cut was first seen settled (§6.3), on this node's clock. */
  sigma?: number
  choosing: boolean
  chosen?: string | null
}

const ORDER = (p: Part): number => PART_CODES[p.type]

/**
 * Why a wake-up timer is cancelled (a nearer time, or the end): an abort without a reason builds
 * a DOMException and its stack, and the node moves its timer on most steps.
 */
const SUPERSEDED = 'superseded'

export class SpaaacePeer {
  readonly chain: OwnChain
  private readonly named: NamedSet
  private readonly decider: Decider
  /**
   * Every envelope held, named or not: whether one is evidence depends on its past alone (§4.1
   * own-chain consistency, §4.2 the seq bound), and one that is not is "as if never received":
   * no envelope of this node may name it, or each would be a gap in every decider.
   */
  private readonly held: Decider
  private readonly ready = new Map<number, Readiness>()
  /** `author/tick/type` of every part in `past(next)`: what §6.2 and §6.4 ask "holds". */
  private readonly partsNamed = new Set<string>()
  private readonly log: Logger
  private readonly n: number
  private readonly game: Uint8Array
  private forksPendingSince: number | undefined
  private scheduled = false
  private timer: AbortController | undefined
  private timerAt: number | undefined
  private started = false
  private recovering = false
  private paused = false
  /** §6.8 step 8: its secrets file is not the one its chain was signed with; it never signs again. */
  private seedLost = false
  private finished: End | undefined
  private resolveDone!: (end: End) => void
  /**
   * Resolves with the end once this node signed its last envelope, or, waiting for its own
   * envelopes (§6.8), once the game ended without it.
   */
  readonly done: Promise<End>

  constructor(private readonly o: SpaaacePeerOptions) {
    this.n = o.genesis.genesis.keys.length
    this.game = o.genesis.game
    this.chain = new OwnChain(o.self, this.game)
    this.decider = new Decider(o.genesis, { authenticated: true })
    this.held = new Decider(o.genesis, { authenticated: true })
    this.named = new NamedSet(
      o.self,
      (e) => {
        this.decider.add(e)
        if (e.body.ok)
          for (const p of e.body.value.parts) {
            const t = tickOf(p)
            if (t !== undefined) this.partsNamed.add(`${e.header.author}/${t}/${p.type}`)
          }
      },
      (e) => this.held.standing(e.id) === 'evidence',
    )
    this.log = o.log ?? componentLogger(`spaaace:${o.self}`)
    this.done = new Promise((r) => {
      this.resolveDone = r
    })
    o.signal.addEventListener('abort', () => this.timer?.abort(SUPERSEDED), { once: true })
  }

  /**
   * The evidence this node's next envelope names, decided (§5). `past(next)` is a subset of what
   * is held (the named set takes only what it holds), and in an honest game it is all of it: every
   * envelope held extends its author's head. Then the two deciders hold one set of envelopes, and
   * the decision is a function of the set alone (`decide.ts`: not of the order envelopes came in),
   * so `held`'s decision, which `held` has mostly computed already to judge standings, is the
   * decision over `past(next)`: the work is not done twice. Once they differ (a fork, an envelope
   * not evidence), the named set's own decider answers.
   */
  decision(): Decision {
    return this.decider.size === this.held.size ? this.held.decision() : this.decider.decision()
  }

  get ended(): End | undefined {
    return this.finished
  }

  /** An envelope the node now holds, its past held first (the mesh's `onEnvelope`), its own included. */
  hold(bytes: Uint8Array): void {
    // The mesh's bytes were read by its codec already: the same reading (`readEnvelopeOnce`).
    const r = readEnvelopeOnce(bytes, { players: this.n, game: this.game })
    if (!r.ok) return
    const e = r.value
    if (e.header.author === this.o.self && e.body.ok) {
      // A restart reads the chain back: it resumes from what it signed (§6.8).
      this.chain.record({
        envelope: { ...e.header, ...e.body.value, sig: e.sig },
        bytes: e.bytes,
        hash: e.hash,
        id: e.id,
      })
      for (const p of e.body.value.parts) if (p.type === 'fork') this.named.restoreFork(p)
    }
    this.held.add(e)
    this.named.hold(e)
    if (this.recovering || this.seedLost) this.recover()
    else if (this.started) this.schedule()
  }

  /**
   * Waiting for its own envelopes: it starts once it holds them all; and if the game ends in what
   * it holds first (the others finished without it), the end is its end, and it never signed again.
   */
  private recover(): void {
    if (this.finished !== undefined) return
    if (!this.seedLost && this.chain.length >= this.o.secrets.signed()) {
      this.recovering = false
      this.o.events?.onRecovered?.(this.chain.length)
      this.start()
      return
    }
    const d = this.decision()
    if (d.end.kind === 'stalled' || (d.end.kind === 'complete' && d.end.provisional !== true)) this.finish(d.end, d)
  }

  /** Whether this node waits for its own envelopes before it signs anything (§6.8). */
  get waitingForOwn(): boolean {
    return this.recovering
  }

  /**
   * Starts (after the mesh restored what it persisted): accepts the genesis if its chain has not
   * (§3.2). A chain read back shorter than the count journaled as signed was lost (the transcript
   * deleted, or replaced by an older copy): the node would sign again at places it has signed, a
   * fork its honest player would be convicted of, so it signs nothing until the envelopes it holds
   * (the others send a node its own envelopes back when its resume frame shows it lacks them, §8)
   * give it its whole chain again.
   */
  start(): void {
    if (this.started) return
    if (this.chain.length < this.o.secrets.signed()) {
      if (!this.recovering) {
        this.recovering = true
        this.o.events?.onRecovering?.(this.chain.length, this.o.secrets.signed())
      }
      return
    }
    this.started = true
    // The heads resume where the envelopes read back left them (held in the order they came to be
    // held), never where the last own envelope named them: a node often holds more than its last
    // envelope named, and a head set back behind what it holds would never advance again.
    if (this.chain.ended) {
      const d = this.decision()
      this.finish(d.end, d)
      return
    }
    if (this.chain.length === 0) this.sign([{ type: 'accept' }])
    this.schedule()
  }

  private schedule(): void {
    if (this.scheduled || this.finished !== undefined || this.o.signal.aborted) return
    this.scheduled = true
    const defer = this.o.defer ?? queueMicrotask
    defer(() => {
      this.scheduled = false
      this.step()
    })
  }

  /**
   * Signs nothing but its accept until `resume` (the net node catching up with what the others
   * hold of its own chain, §6.8 step 8): an accept's bytes are the same whenever it is signed (one
   * part, no heads, a deterministic signature), anything later would not be.
   */
  pause(): void {
    this.paused = true
  }

  resume(): void {
    if (!this.paused) return
    this.paused = false
    // §6.8 step 8: a secrets file made afresh under a chain that signed more than its accept (the
    // file deleted, the transcript kept or given back): the commitments it signed are salted with
    // a seed it no longer has, so it can open none, and its seed part would be false (§9 (vi)).
    if (this.o.secrets.seedLost?.() === true || (this.o.secrets.fresh === true && this.chain.length > 1)) {
      this.seedLost = true
      this.o.secrets.keepSeedLost?.()
      this.o.events?.onSeedLost?.(this.chain.length)
      this.recover()
      return
    }
    if (this.started) this.schedule()
  }

  /** Signs every envelope that is due, one at a time, then sleeps until the next time that matters. */
  private step(): void {
    if (this.finished !== undefined || this.o.signal.aborted || this.paused || this.seedLost) return
    for (let guard = 0; guard < 16; guard++) {
      const parts = this.due()
      if (parts === null) break
      this.sign(parts)
      if (this.chain.ended) {
        const d = this.decision()
        this.finish(d.end, d)
        return
      }
    }
    this.sleepUntilNext()
  }

  private sign(due: Part[]): void {
    const parts = this.o.shape === undefined ? due : this.o.shape(due)
    if (parts.length === 0) return
    const forks = parts.filter((p): p is ForkPart => p.type === 'fork')
    parts.sort((a, b) => ORDER(a) - ORDER(b) || (a.type === 'fork' && b.type === 'fork' ? a.author - b.author : 0))
    const e = this.chain.sign(this.o.keys, parts[0]?.type === 'accept' ? [] : this.named.heads(), parts)
    this.named.forksSigned(forks)
    if (forks.length > 0) this.forksPendingSince = undefined
    this.o.publish(e.bytes)
    // The mesh hands it back as held (`onEnvelope`) unless it refused it: held either way, read once.
    if (this.named.byHash(e.hash) === undefined) this.hold(e.bytes)
    this.o.events?.onSigned?.(e)
  }

  private finish(end: End, d: Decision): void {
    if (this.finished !== undefined) return
    this.finished = end
    this.timer?.abort(SUPERSEDED)
    this.o.events?.onEnd?.(end, d)
    this.resolveDone(end)
  }

  /** The parts due now, for one envelope, or null. */
  private due(): Part[] | null {
    const d = this.decision()
    const now = this.o.clock.now()
    const forks = this.forksDue(now)
    // §6.7 (b), §6.9: a stall record, or a canonical closing state with `ended` (§5.6 rule 1):
    // the last envelope, with the seed.
    const endedCanonically = d.ticks.some((v) => v.status === 'canonical' && v.outcome?.state.ended === true)
    // §6.7 (b): "an envelope it holds is one, or its next envelope would be one": `M_t` standing
    // votes in what its next envelope names. Votes signed at one moment each name only their own
    // signer's vote, so without the second half nobody signs again and the game never ends.
    const stalled = d.end.kind === 'stalled' || (d.end.kind === 'ongoing' && this.nextIsRecord(d))
    if (stalled || endedCanonically) {
      const parts: Part[] = [{ type: 'seed', seed: this.o.secrets.seed }]
      const cur = this.chain.lastState + 1
      if (stalled && this.chain.standingVote === undefined) parts.push({ type: 'stop', tick: cur, reason: 'stalled' })
      // §6.5 still holds in the last envelope (§6.9): a tick settled over its past that it has not
      // signed `state` for is signed there, with the seed. Others' states may make the end canonical
      // before this node has signed its own (they arrived together), and its state belongs in the
      // record as much as theirs.
      const own = d.ticks[cur - 1]?.settled === true ? d.ticks[cur - 1]?.own : undefined
      if (endedCanonically && own !== undefined) {
        this.o.events?.onSettled?.(d.ticks[cur - 1] as TickView, d)
        parts.push({ type: 'state', tick: cur, stateHash: own.stateHash })
      }
      return [...forks, ...parts]
    }
    if (!d.accepts.every(Boolean)) return this.beforeStart(now, forks)
    const cur = this.chain.lastState + 1
    const view = d.ticks[cur - 1]
    // §6.5: the tick settled over the past of the envelope about to be signed: state(t) at once,
    // over exactly that past (`own`, S_t(D)), never a canonical hash its own evidence contradicts
    // (§5.6: that would be a false closing hash); it plays on from its own state (§6.7, note).
    const own = view?.settled === true ? view.own : undefined
    if (view !== undefined && own !== undefined) {
      const parts: Part[] = [...forks, { type: 'state', tick: cur, stateHash: own.stateHash }]
      const state = own.outcome.state
      this.o.events?.onSettled?.(view, d)
      if (!state.ended) parts.push(...this.readyParts(cur + 1, state, now, d))
      return parts
    }
    if (!this.ready.has(cur)) {
      // Tick 1 once the accepts are held; a later tick after a restart (its readiness was in memory).
      const before =
        cur === 1
          ? genesisState(this.n, rulesTerms(this.o.genesis.genesis))
          : (d.ticks[cur - 2]?.own?.outcome.state ?? d.ticks[cur - 2]?.outcome?.state)
      if (before !== undefined && !before.ended) {
        const parts = this.readyParts(cur, before, now, d)
        if (parts.length > 0) return [...forks, ...parts]
      }
    }
    const parts = this.tickParts(cur, view, d, now)
    if (parts.length > 0) return [...forks, ...parts]
    if (forks.length > 0 && this.forkOnlyAllowed(now)) return forks
    return null
  }

  /**
   * §5.7: whether the next envelope would be a stall record: past it, a tick with a closing state
   * before it and none of its own, whose `M_t` players have standing votes in what it names.
   */
  private nextIsRecord(d: Decision): boolean {
    if (!d.accepts.every(Boolean)) return false
    return d.ticks.some((v) => v.status !== 'canonical' && v.votes.length >= v.majority)
  }

  /** §3.2: while an accept is missing, the only part a node signs is its `stop(0)` vote at `R_1 + STALL_MS`. */
  private beforeStart(now: number, forks: Part[]): Part[] | null {
    const times = tickTimes(this.o.genesis.genesis.timing, 1)
    const voteAt = times.revealCut + stallMs(this.o.genesis.genesis.timing.marginMs)
    if (now >= voteAt && this.chain.standingVote === undefined)
      return [...forks, { type: 'stop', tick: 0, reason: 'not-started' }]
    if (forks.length > 0 && this.forkOnlyAllowed(now)) return forks
    return null
  }

  /**
   * §6.0: tick `t` became ready now. It is played iff the clock reads at most `G_1` (tick 1) or
   * `G_t − THINK_MS`; else skipped with `stop(t, late)`. A restarted node that already signed a
   * part of tick `t` keeps what it decided then.
   */
  private readyParts(t: number, state: GameState, now: number, d: Decision): Part[] {
    let r = this.ready.get(t)
    if (r === undefined) {
      const times = tickTimes(this.o.genesis.genesis.timing, t)
      const signedAny = (['commit', 'seal', 'reveal', 'close'] as const).some((p) => this.chain.has(t, p))
      const skipped = this.chain.standingVote?.tick === t && this.chain.standingVote.reason === 'late'
      const active = state.players[this.o.self]?.status === 'active'
      const plays = signedAny || (!skipped && active && now <= (t === 1 ? times.guard : times.guard - THINK_MS))
      r = { plays, choosing: false }
      this.ready.set(t, r)
      this.o.events?.onReady?.(t, state, plays)
      if (!plays && active && !skipped && !this.chain.has(t, 'stop')) return [{ type: 'stop', tick: t, reason: 'late' }]
      if (plays && !signedAny) this.startChoosing(t, state, r)
    }
    // A bot that answered at once commits in this same envelope (state(t−1) ‖ commit(t)).
    const commit = this.commitPart(t, r, now, d)
    return commit === undefined ? [] : [commit]
  }

  private startChoosing(t: number, state: GameState, r: Readiness): void {
    if (r.choosing) return
    r.choosing = true
    const deadline = tickTimes(this.o.genesis.genesis.timing, t).guard
    const stop = new AbortController()
    const onAbort = (): void => {
      stop.abort()
    }
    this.o.signal.addEventListener('abort', onAbort, { once: true })
    void this.o.clock.sleep(Math.max(0, deadline - this.o.clock.now()), stop.signal).then(() => {
      stop.abort()
    })
    const settle = (text: string | null): void => {
      this.o.signal.removeEventListener('abort', onAbort)
      if (this.o.clock.now() > deadline && !stop.signal.aborted) stop.abort()
      if (this.o.clock.now() > deadline) {
        if (text !== null) this.o.events?.onLateChoice?.(t)
        r.chosen = null
      } else r.chosen = text
      stop.abort()
      this.schedule()
    }
    let answer: string | null | Promise<string | null>
    try {
      answer = this.o.chooser.choose({ tick: t, state, self: this.o.self, deadline }, stop.signal)
    } catch (err) {
      this.log.error('the chooser of tick %d threw: %s', t, err)
      answer = null
    }
    if (answer instanceof Promise)
      answer.then(settle, (err: unknown) => {
        this.log.error('the chooser of tick %d failed: %s', t, err)
        settle(null)
      })
    else settle(answer)
  }

  /** §6.1: the commitment of tick `t`, once chosen, not after `G_t`; its text journaled first. */
  private commitPart(t: number, r: Readiness, now: number, d: Decision): Part | undefined {
    if (!r.plays || this.chain.has(t, 'commit') || r.chosen === undefined || r.chosen === null) return undefined
    if (now > tickTimes(this.o.genesis.genesis.timing, t).guard) return undefined
    if (t === 1 && !d.accepts.every(Boolean)) return undefined
    const text = r.chosen
    const salt = saltOf(this.game, this.o.self, this.o.secrets.seed, t)
    this.o.secrets.keepOrders(t, text)
    return { type: 'commit', tick: t, commitment: commitmentOf(this.game, this.o.self, t, salt, text) }
  }

  /** §6.1–§6.4 and §6.7 (a) for the current tick `t`, not yet settled in what the node names. */
  private tickParts(t: number, view: TickView | undefined, d: Decision, now: number): Part[] {
    const timing = this.o.genesis.genesis.timing
    const times = tickTimes(timing, t)
    const r = this.ready.get(t)
    const parts: Part[] = []
    if (r?.plays === true && view !== undefined) {
      const commit = this.commitPart(t, r, now, d)
      if (commit !== undefined) parts.push(commit)
      // §6.2: the seal at C_t, or earlier once it holds a commitment of every active player.
      if (!this.chain.has(t, 'seal') && now <= times.commitCut + SEAL_JITTER_MS) {
        const all = view.active.every(
          (q) => this.partsNamed.has(`${q}/${t}/commit`) || (q === this.o.self && commit !== undefined),
        )
        if (all || now >= times.commitCut) parts.push({ type: 'seal', tick: t })
      }
      // §6.3: σ is when the seal cut was first seen settled.
      if (view.sealSettled && r.sigma === undefined) r.sigma = now
      // §6.3: reveal once the seal cut is settled, its commitment in, and C_t + 2·SKEW_MS passed.
      let revealing = false
      if (
        this.chain.has(t, 'commit') &&
        !this.chain.has(t, 'reveal') &&
        view.sealSettled &&
        view.committed[this.o.self] === true &&
        now >= times.commitCut + 2 * SKEW_MS
      ) {
        const text = this.o.secrets.orders(t)
        if (text !== undefined) {
          parts.push({
            type: 'reveal',
            tick: t,
            salt: saltOf(this.game, this.o.self, this.o.secrets.seed, t),
            orders: text,
          })
          revealing = true
        } else this.log.error('the orders of tick %d were not kept: the commitment cannot be opened', t)
      }
      // §6.4: the close at max(R_t, σ + 2Δ + 2·SKEW_MS), or once every commitment in is revealed; only if σ ≤ R_t.
      if (!this.chain.has(t, 'close') && r.sigma !== undefined && r.sigma <= times.revealCut) {
        const at = Math.max(times.revealCut, r.sigma + 2 * timing.marginMs + 2 * SKEW_MS)
        const allRevealed = view.committed.every(
          (c, q) => !c || this.partsNamed.has(`${q}/${t}/reveal`) || (q === this.o.self && revealing),
        )
        if (now >= at || allRevealed) parts.push({ type: 'close', tick: t })
      }
    }
    // §6.7 (a): not settled at R_t + STALL_MS and no standing vote: a vote.
    if (now >= times.revealCut + stallMs(timing.marginMs) && this.chain.standingVote === undefined) {
      const split = t >= 2 && d.ticks[t - 2]?.status === 'split'
      parts.push({ type: 'stop', tick: t, reason: split ? 'split' : 'stalled' })
    }
    return parts
  }

  /** §6.6: a fork part rides on a scheduled envelope; alone only after Δ, at most twice a tick. */
  private forksDue(now: number): Part[] {
    const due = this.named.forksDue()
    if (due.length === 0) {
      this.forksPendingSince = undefined
      return []
    }
    this.forksPendingSince ??= now
    return due
  }

  private forkOnlyAllowed(now: number): boolean {
    const since = this.forksPendingSince
    return (
      since !== undefined &&
      now >= since + this.o.genesis.genesis.timing.marginMs &&
      this.chain.forkOnlyIn(this.chain.lastState + 1) < 2
    )
  }

  /** The next moment a step could sign something without new evidence. */
  private sleepUntilNext(): void {
    const now = this.o.clock.now()
    const timing = this.o.genesis.genesis.timing
    const candidates: number[] = []
    const d = this.decision()
    const cur = this.chain.lastState + 1
    const times = tickTimes(timing, cur)
    const stall = stallMs(timing.marginMs)
    if (!d.accepts.every(Boolean)) candidates.push(tickTimes(timing, 1).revealCut + stall)
    else {
      candidates.push(times.commitCut, times.commitCut + 2 * SKEW_MS, times.revealCut, times.revealCut + stall)
      const sigma = this.ready.get(cur)?.sigma
      if (sigma !== undefined) candidates.push(sigma + 2 * timing.marginMs + 2 * SKEW_MS)
    }
    if (this.forksPendingSince !== undefined) candidates.push(this.forksPendingSince + timing.marginMs)
    const next = Math.min(...candidates.filter((c) => c > now))
    if (!Number.isFinite(next)) return
    if (this.timerAt === next) return
    this.timer?.abort(SUPERSEDED)
    const timer = new AbortController()
    this.timer = timer
    this.timerAt = next
    void this.o.clock.sleep(next - now, timer.signal).then(() => {
      if (timer.signal.aborted) return
      this.timerAt = undefined
      this.schedule()
    })
  }
}

export type { ReadEnvelope }
