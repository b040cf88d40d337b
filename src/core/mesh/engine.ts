/**
 * The mesh's decisions, pure (protocol/SPAAACE-PEERS.md §8 as SPAAACE-PEERS-REVIEW.md R3 fixes it):
 * frames in, frames out. No channel, no clock (times are passed in), no logger: `node.ts` does the
 * I/O. Peers are roster indexes; each has at most one stream at a time.
 *
 * - **Receive.** A frame longer than `maxFrame` is dropped. An envelope whose hash the store holds
 *   is dropped before anything is checked (identity by hash, review F14); otherwise it is
 *   authenticated (its signature, or a stored envelope of its author naming it by `prev`, SPEC
 *   §5.4, §13.2) **before** it is persisted or forwarded; then the game's bound (the `SEQ_PER_TICK`
 *   rule, §4.2 / review R7), the conflict rule and the held-ahead budget; then it is persisted.
 * - **Forward once.** An envelope that becomes held goes once to each connected peer not known to
 *   hold it: the peer sent it; the peer's own signed envelopes name it or a later one of its
 *   author (their past: `prev`, heads, fork parts); its resume frame on this stream counts it; or it
 *   was sent on this stream.
 * - **Want.** An envelope held ahead because its past names envelopes the node lacks makes the
 *   node ask the peer that sent it for each (once per stream and hash); a peer answers a want for
 *   an envelope it holds, once per stream and hash, unless that peer's signed envelopes show it
 *   holds it.
 * - **Resume.** On each new stream a node sends its counts; it answers the first resume frame of a
 *   stream with every held envelope the peer lacks by those counts and that the peer's signed
 *   envelopes do not cover (by the counts alone when they show the peer lacks its own envelopes
 *   this node holds: it lost them, §6.8), in the order the node came to hold them: `(author, seq)` within an
 *   author, and every envelope after everything it names. (The design's plain `(author, seq)` order
 *   sends author 0's envelopes before the other authors' envelopes their heads name; a peer holds
 *   at most `HELD_AHEAD` of them ahead, drops the rest, and the stream then never offers them
 *   again.) Answers to resume and want frames share one
 *   budget per peer: `resendBudget` bytes per `windowMs`; the rest waits for the next window. A
 *   peer's resume frames are answered at most once per window (review R3: "a node accepts at most
 *   one new stream per peer per Δ"); a faster one is answered when the window ends.
 */
import type { TranscriptStore } from '../transcript/file.js'
import { type MeshCodec, type MeshCodecErrorCode, type MeshEnvelope, hashKey, refsOf } from './codec.js'
import { type FrameErrorCode, decodeFrame, envelopeFrame, resumeFrame, wantFrame } from './frames.js'
import { MESH_LIMITS, type MeshLimits } from './limits.js'
import { MeshStore, type StoreRefusal, type Stored } from './store.js'

/**
 * The game's bound on an author's envelopes (§4.2 last sentence, review R7: an envelope at
 * `seq > 2 + SEQ_PER_TICK · t` is not forwarded, not kept, not evidence), asked of every
 * authenticated envelope before it is persisted; `store` is what the node holds.
 */
export type WithinBound = (
  envelope: MeshEnvelope,
  store: MeshStore,
  /**
   * Read back from this node's own persisted transcript (`restore`): it was admitted once, under
   * the bound as it stood then; the bound takes what it claims and never refuses it. (Judged
   * against a node that has decided nothing yet, a restarted node's own envelopes past its first
   * ticks were dropped, and it signed again at places it had signed: a fork.)
   */
  restored?: boolean,
) => boolean

/** Why a frame or an envelope was dropped (nothing of it stored, nothing forwarded). */
export type DropCode =
  | FrameErrorCode
  | MeshCodecErrorCode
  | StoreRefusal
  | 'envelope.too-large'
  | 'envelope.codec'
  | 'duplicate'
  | 'unauthenticated'
  | 'beyond-bound'
  | 'persist'
  | 'resume.repeat'
  | 'want.unheld'
  | 'want.repeat'
  | 'want.known'

/** Why the engine sent a frame: the traffic tests measure. */
/** Why a frame went out; `control` is the node's own (never the engine's): peer records, chat. */
export type SendCause = 'forward' | 'resend' | 'answer' | 'want' | 'resume' | 'control'

export interface Send {
  readonly to: number
  readonly frame: Uint8Array
  readonly cause: SendCause
}

/** What one input does: held envelopes to deliver (first), frames for the game, frames to send. */
export interface Step {
  readonly delivered: MeshEnvelope[]
  readonly frames: { readonly from: number; readonly kind: 'genesis' | 'control'; readonly bytes: Uint8Array }[]
  readonly sends: Send[]
  /** Set when an input was dropped. */
  dropped?: DropCode
  /** Peers with resends waiting for their next window, and when it opens. */
  readonly wake: { readonly peer: number; readonly at: number }[]
}

interface QueueItem {
  readonly key: string
  /** An answer to a want: sent even if sent before on this stream. */
  readonly want: boolean
}

interface Peer {
  readonly index: number
  connected: boolean
  resumeAnswered: boolean
  /** This stream: the peer's resume counts, what was sent on it, wants sent and answered on it. */
  resumeMain: number[]
  sent: Set<string>
  wanted: Set<string>
  answered: Set<string>
  /** Across streams: what the peer sent, and what its own signed envelopes show it held. */
  readonly gotFrom: Set<string>
  readonly signedMain: number[]
  readonly signedSet: Set<string>
  queue: QueueItem[]
  /** Forwards waiting for `limits.forwardDelayMs`, in the order the envelopes came to be held. */
  forwards: { readonly key: string; readonly at: number }[]
  /** A resume frame waits for its answer; when the last one was answered. */
  resumeDue: boolean
  lastResume: number
  windowStart: number
  used: number
}

export interface MeshEngineOptions {
  readonly codec: MeshCodec
  /** This node's roster index. */
  readonly self: number
  readonly limits?: Partial<MeshLimits>
  readonly persistence?: TranscriptStore
  readonly withinBound?: WithinBound
}

function emptyStep(): Step {
  return { delivered: [], frames: [], sends: [], wake: [] }
}

export class MeshEngine {
  readonly store: MeshStore
  readonly limits: MeshLimits
  readonly self: number
  private readonly codec: MeshCodec
  private readonly withinBound: WithinBound
  private readonly persistence: TranscriptStore | undefined
  private readonly peers = new Map<number, Peer>()
  /** Keys a peer's signed envelopes name that the store did not hold then: learned when stored. */
  private readonly deferred = new Map<string, Set<number>>()
  /** Dropped inputs by code. */
  readonly drops = new Map<DropCode, number>()

  constructor(options: MeshEngineOptions) {
    this.codec = options.codec
    this.self = options.self
    this.limits = { ...MESH_LIMITS, ...options.limits }
    this.withinBound = options.withinBound ?? (() => true)
    this.persistence = options.persistence
    this.store = new MeshStore(this.codec.authors, this.limits, options.persistence)
  }

  /** Reads the persisted envelopes back (a restarted node), authenticating each again. */
  restore(): Step {
    const step = emptyStep()
    for (const bytes of this.persistence?.envelopes() ?? []) this.ingest(bytes, undefined, 0, step, false)
    step.dropped = undefined
    return step
  }

  /** A new stream with `peer` (first, or after a reconnection): its resume frame, and wants it may answer. */
  openStream(peer: number, now: number): Step {
    const p = this.peer(peer)
    p.connected = true
    p.resumeAnswered = false
    p.resumeMain = new Array<number>(this.codec.authors).fill(0)
    p.sent = new Set()
    p.wanted = new Set()
    p.answered = new Set()
    p.queue = []
    p.forwards = []
    p.resumeDue = false
    if (now >= p.windowStart + this.limits.windowMs) {
      p.windowStart = now
      p.used = 0
    }
    const step = emptyStep()
    step.sends.push({ to: peer, frame: resumeFrame(this.store.counts()), cause: 'resume' })
    // Envelopes held ahead that this peer is known to hold: ask it for what they name.
    for (const e of this.store.pending()) if (this.knows(p, e)) this.wantLacking(p, e, step)
    return step
  }

  closeStream(peer: number): void {
    const p = this.peers.get(peer)
    if (p === undefined) return
    p.connected = false
    p.queue = []
    p.forwards = []
    p.resumeDue = false
  }

  /** The counts of `peer`'s resume frame on its current stream (§8), once it has come. */
  resumeCounts(peer: number): readonly number[] | undefined {
    const p = this.peers.get(peer)
    return p?.connected === true && p.resumeAnswered ? p.resumeMain : undefined
  }

  isConnected(peer: number): boolean {
    return this.peers.get(peer)?.connected === true
  }

  /** This node's own envelope, signed by its player: stored, persisted and forwarded like any other. */
  publish(bytes: Uint8Array, now: number): Step {
    const step = emptyStep()
    this.ingest(bytes, undefined, now, step, true)
    return step
  }

  /** A frame from `peer`. */
  receive(peer: number, bytes: Uint8Array, now: number): Step {
    const step = emptyStep()
    const p = this.peer(peer)
    const d = decodeFrame(bytes, this.codec.authors, this.limits.maxFrame)
    if (!d.ok) return this.drop(step, d.code)
    const f = d.frame
    switch (f.kind) {
      case 'envelope':
        this.ingest(f.bytes, p, now, step, true)
        return step
      case 'genesis':
      case 'control':
        step.frames.push({ from: peer, kind: f.kind, bytes: f.bytes })
        return step
      case 'resume': {
        if (p.resumeAnswered) return this.drop(step, 'resume.repeat')
        p.resumeAnswered = true
        p.resumeMain = [...f.held]
        p.resumeDue = true
        // Fewer of its own envelopes than this node holds of its chain: it lost them (its
        // transcript deleted or replaced by an older copy, §6.8), and with them the past its
        // signatures show it held. What it sent and signed is no longer known to it: it is
        // answered by its counts alone, its own envelopes with the rest, so that it can hold its
        // chain again before it signs (an honest node never signs twice at one place).
        if ((f.held[peer] ?? 0) < (this.store.counts()[peer] ?? 0)) this.forget(p)
        this.pumpInto(p, now, step)
        return step
      }
      case 'want': {
        const k = hashKey(f.ref.hash)
        const e = this.store.get(k)
        if (e === undefined || !e.held) return this.drop(step, 'want.unheld')
        if (p.answered.has(k)) return this.drop(step, 'want.repeat')
        if (p.gotFrom.has(k) || this.signedKnows(p, e)) return this.drop(step, 'want.known')
        p.answered.add(k)
        p.queue.unshift({ key: k, want: true })
        this.pumpInto(p, now, step)
        return step
      }
    }
  }

  /** Sends what waits for `peer`'s budget, as far as the window allows. */
  pump(peer: number, now: number): Step {
    const step = emptyStep()
    const p = this.peers.get(peer)
    if (p !== undefined) this.pumpInto(p, now, step)
    return step
  }

  /** Is `peer` known to hold the envelope `hash` (§8 "known")? */
  peerKnows(peer: number, hash: Uint8Array): boolean {
    const e = this.store.get(hash)
    const p = this.peers.get(peer)
    return e !== undefined && p !== undefined && this.knows(p, e)
  }

  private peer(index: number): Peer {
    let p = this.peers.get(index)
    if (p === undefined) {
      const n = this.codec.authors
      p = {
        index,
        connected: false,
        resumeAnswered: false,
        resumeMain: new Array<number>(n).fill(0),
        sent: new Set(),
        wanted: new Set(),
        answered: new Set(),
        gotFrom: new Set(),
        signedMain: new Array<number>(n).fill(0),
        signedSet: new Set(),
        queue: [],
        forwards: [],
        resumeDue: false,
        lastResume: Number.NEGATIVE_INFINITY,
        windowStart: Number.NEGATIVE_INFINITY,
        used: 0,
      }
      this.peers.set(index, p)
    }
    return p
  }

  private drop(step: Step, code: DropCode): Step {
    step.dropped = code
    this.drops.set(code, (this.drops.get(code) ?? 0) + 1)
    return step
  }

  private ingest(bytes: Uint8Array, from: Peer | undefined, now: number, step: Step, persist: boolean): void {
    if (bytes.length > this.limits.maxEnvelope) {
      this.drop(step, 'envelope.too-large')
      return
    }
    let e: MeshEnvelope
    try {
      const d = this.codec.decode(bytes)
      if (!d.ok) {
        this.drop(step, d.error.code)
        return
      }
      e = d.value
    } catch {
      this.drop(step, 'envelope.codec')
      return
    }
    if (!Number.isInteger(e.author) || e.author < 0 || e.author >= this.codec.authors) {
      this.drop(step, 'envelope.author')
      return
    }
    const key = hashKey(e.hash)
    if (this.store.has(key)) {
      from?.gotFrom.add(key)
      this.drop(step, 'duplicate')
      return
    }
    let authentic: boolean
    try {
      authentic = this.store.binds(e) || this.codec.signatureValid(e)
    } catch {
      authentic = false
    }
    if (!authentic) {
      this.drop(step, 'unauthenticated')
      return
    }
    if (!this.withinBound(e, this.store, !persist) && persist) {
      this.drop(step, 'beyond-bound')
      return
    }
    const refused = this.store.check(e)
    if (refused !== undefined) {
      this.drop(step, refused)
      return
    }
    let admitted
    try {
      admitted = this.store.admit(e, persist)
    } catch {
      this.drop(step, 'persist')
      return
    }
    from?.gotFrom.add(key)
    this.learnSigned(e)
    const waiting = this.deferred.get(key)
    if (waiting !== undefined) {
      this.deferred.delete(key)
      for (const i of waiting) {
        const p = this.peers.get(i)
        if (p === undefined) continue
        // Named before it was stored: walk its chain now.
        p.signedSet.delete(key)
        this.learnRef(p, key)
      }
    }
    if (from !== undefined && !admitted.entry.held) this.wantLacking(from, admitted.entry, step)
    for (const x of admitted.nowHeld) this.onHeld(x, step, now)
  }

  private onHeld(x: Stored, step: Step, now: number): void {
    step.delivered.push(x.envelope)
    const s = this.store.mainSeqOf(x.key)
    const delay = x.envelope.author === this.self ? 0 : this.limits.forwardDelayMs
    for (const p of this.peers.values()) {
      if (s !== undefined && p.signedSet.has(x.key)) this.raise(p.signedMain, x.envelope.author, s + 1)
      if (!p.connected || this.knows(p, x)) continue
      if (delay > 0) {
        p.forwards.push({ key: x.key, at: now + delay })
        step.wake.push({ peer: p.index, at: now + delay })
        continue
      }
      p.sent.add(x.key)
      step.sends.push({ to: p.index, frame: envelopeFrame(x.envelope.bytes), cause: 'forward' })
    }
  }

  /** The forwards now due to `p`: each envelope the peer is still not known to hold. */
  private forwardDue(p: Peer, now: number, step: Step): void {
    while (p.forwards.length > 0) {
      const f = p.forwards[0]
      if (f === undefined) break
      if (f.at > now) {
        step.wake.push({ peer: p.index, at: f.at })
        return
      }
      p.forwards.shift()
      const e = this.store.get(f.key)
      if (e === undefined || !e.held || this.knows(p, e)) continue
      p.sent.add(e.key)
      step.sends.push({ to: p.index, frame: envelopeFrame(e.envelope.bytes), cause: 'forward' })
    }
  }

  private wantLacking(p: Peer, entry: Stored, step: Step): void {
    if (!p.connected) return
    for (const r of this.store.lacking(entry)) {
      const k = hashKey(r.hash)
      if (this.store.has(k) || p.wanted.has(k)) continue
      p.wanted.add(k)
      step.sends.push({ to: p.index, frame: wantFrame(r), cause: 'want' })
    }
  }

  private pumpInto(p: Peer, now: number, step: Step): void {
    if (!p.connected) return
    this.forwardDue(p, now, step)
    if (now >= p.windowStart + this.limits.windowMs) {
      p.windowStart = now
      p.used = 0
    }
    if (p.resumeDue) {
      // Review R3: one new stream per peer per Δ; a peer reconnecting faster is answered once per window.
      const at = p.lastResume + this.limits.windowMs
      if (now < at) {
        step.wake.push({ peer: p.index, at })
        return
      }
      p.resumeDue = false
      p.lastResume = now
      for (const e of this.store.held()) if (!this.knows(p, e)) p.queue.push({ key: e.key, want: false })
    }
    while (p.queue.length > 0) {
      const item = p.queue[0]
      if (item === undefined) break
      const e = this.store.get(item.key)
      if (e === undefined || !e.held || (item.want ? this.signedKnows(p, e) : this.knows(p, e))) {
        p.queue.shift()
        continue
      }
      const size = 1 + e.envelope.bytes.length
      if (p.used + size > this.limits.resendBudget) {
        step.wake.push({ peer: p.index, at: p.windowStart + this.limits.windowMs })
        return
      }
      p.used += size
      p.queue.shift()
      p.sent.add(e.key)
      step.sends.push({ to: p.index, frame: envelopeFrame(e.envelope.bytes), cause: item.want ? 'answer' : 'resend' })
    }
  }

  /** What `p` sent and what its signatures showed it held, forgotten: it has lost them. */
  private forget(p: Peer): void {
    p.gotFrom.clear()
    p.signedMain.fill(0)
    p.signedSet.clear()
    for (const waiting of this.deferred.values()) waiting.delete(p.index)
  }

  /** §8 "known": the peer sent it, its signed envelopes cover it, this stream's resume counts it or carried it. */
  private knows(p: Peer, e: Stored): boolean {
    if (p.gotFrom.has(e.key) || p.sent.has(e.key) || this.signedKnows(p, e)) return true
    const s = this.store.mainSeqOf(e.key)
    return s !== undefined && s < (p.resumeMain[e.envelope.author] ?? 0)
  }

  /** Review R3: "in the past of the latest envelope of the other it holds". */
  private signedKnows(p: Peer, e: Stored): boolean {
    if (p.signedSet.has(e.key)) return true
    const s = this.store.mainSeqOf(e.key)
    return s !== undefined && s < (p.signedMain[e.envelope.author] ?? 0)
  }

  /** `e` is signed by a peer: that peer held `e` and everything `e` names (their pasts too). */
  private learnSigned(e: MeshEnvelope): void {
    if (e.author === this.self) return
    const p = this.peer(e.author)
    this.learnRef(p, hashKey(e.hash))
    for (const r of refsOf(e)) this.learnRef(p, hashKey(r.hash))
  }

  /** The peer holds `key` and its `prev` chain: walk down to the main chain. */
  private learnRef(p: Peer, key: string): void {
    for (let k: string | undefined = key; k !== undefined;) {
      const s = this.store.mainSeqOf(k)
      const e = this.store.get(k)
      if (s !== undefined && e !== undefined) {
        this.raise(p.signedMain, e.envelope.author, s + 1)
        return
      }
      if (p.signedSet.has(k)) return
      p.signedSet.add(k)
      if (e === undefined) {
        const waiting = this.deferred.get(k) ?? new Set<number>()
        waiting.add(p.index)
        this.deferred.set(k, waiting)
        return
      }
      k = e.envelope.seq > 0 ? hashKey(e.envelope.prev) : undefined
    }
  }

  private raise(counts: number[], author: number, to: number): void {
    if ((counts[author] ?? 0) < to) counts[author] = to
  }
}
