/**
 * A node of the mesh (protocol/SPAAACE-PEERS.md §8, SPAAACE-PEERS-REVIEW.md R3): one `Channel`
 * per peer (a libp2p stream that may be replaced, or an in-memory end in tests), the pure
 * `MeshEngine` deciding, and this file doing the I/O: receive loops, ordered sends per peer, the
 * resend budget's windows on an injected clock, the game's callbacks, a scoped logger.
 *
 * Order on every input (§8 Receive): drop what is held, authenticate, persist (the engine's store
 * appends to the injected store before anything else), deliver to the game, then forward.
 */
import { type Logger, componentLogger } from '../log.js'
import type { Channel } from '../session/channel.js'
import type { Clock } from '../session/clock.js'
import type { TranscriptStore } from '../transcript/file.js'
import type { MeshCodec, MeshEnvelope } from './codec.js'
import { type DropCode, MeshEngine, type SendCause, type Step, type WithinBound } from './engine.js'
import { controlFrame, genesisFrame } from './frames.js'
import type { MeshLimits } from './limits.js'
import type { MeshStore } from './store.js'

export interface MeshNodeOptions {
  readonly codec: MeshCodec
  /** This node's roster index. */
  readonly self: number
  readonly clock: Clock
  readonly limits?: Partial<MeshLimits>
  /** Where envelopes are persisted before they are acted on; read back at `start`. */
  readonly persistence?: TranscriptStore
  /** The game's bound on an author's envelopes (the `SEQ_PER_TICK` rule). */
  readonly withinBound?: WithinBound
  /** Each envelope once it is held (its past held before it), after it is persisted. */
  readonly onEnvelope?: (envelope: MeshEnvelope) => void
  /** Genesis and control frames (never evidence, never forwarded). */
  readonly onFrame?: (from: number, kind: 'genesis' | 'control', bytes: Uint8Array) => void
  readonly log?: Logger
}

/** Traffic by peer and cause, and what was received: what the tests measure. */
export interface MeshTraffic {
  readonly sentBytes: Map<number, number>
  readonly sentByCause: Map<SendCause, { frames: number; bytes: number }>
  readonly receivedBytes: Map<number, number>
}

/** What a transport layer above the mesh hears (peer-records.ts): never evidence, never forwarded. */
export interface MeshListener {
  /** A stream with `peer` came up (after the mesh's own resume frame went out on it). */
  readonly stream?: (peer: number) => void
  /** A control frame from `peer`, after the game's `onFrame`. */
  readonly control?: (peer: number, bytes: Uint8Array) => void
}

interface Link {
  channel: Channel
  signal: AbortSignal
  /** The tail of this peer's sends: frames go out in order. */
  tail: Promise<void>
  /** The earliest time a pump is scheduled for, if any. */
  waking: number | undefined
}

export class MeshNode {
  readonly engine: MeshEngine
  readonly traffic: MeshTraffic = { sentBytes: new Map(), sentByCause: new Map(), receivedBytes: new Map() }
  private readonly links = new Map<number, Link>()
  private readonly log: Logger
  private readonly listeners: MeshListener[] = []
  private started = false

  constructor(private readonly options: MeshNodeOptions) {
    this.engine = new MeshEngine({
      codec: options.codec,
      self: options.self,
      ...(options.limits === undefined ? {} : { limits: options.limits }),
      ...(options.persistence === undefined ? {} : { persistence: options.persistence }),
      ...(options.withinBound === undefined ? {} : { withinBound: options.withinBound }),
    })
    this.log = options.log ?? componentLogger(`mesh:${options.self}`)
  }

  get store(): MeshStore {
    return this.engine.store
  }

  get drops(): ReadonlyMap<DropCode, number> {
    return this.engine.drops
  }

  /** Reads back the persisted envelopes and delivers those held. Called once, before `connect`. */
  start(): void {
    if (this.started) return
    this.started = true
    const step = this.engine.restore()
    this.log('restored %d envelopes', step.delivered.length)
    this.apply(step)
  }

  /**
   * Runs the stream with `peer` over `channel` until it closes or `signal` aborts: sends a resume
   * frame now and after each reconnection, and handles every frame. A second call for the same
   * peer (a new stream) replaces the first's channel for sends.
   */
  async connect(peer: number, channel: Channel, signal: AbortSignal): Promise<void> {
    this.start()
    const link: Link = { channel, signal, tail: Promise.resolve(), waking: undefined }
    this.links.set(peer, link)
    this.apply(this.engine.openStream(peer, this.options.clock.now()))
    try {
      for (;;) {
        const r = await channel.receive(signal)
        if (this.links.get(peer) !== link) return
        switch (r.kind) {
          case 'frame': {
            this.traffic.receivedBytes.set(peer, (this.traffic.receivedBytes.get(peer) ?? 0) + r.bytes.length)
            const step = this.engine.receive(peer, r.bytes, this.options.clock.now())
            if (step.dropped !== undefined && step.dropped !== 'duplicate')
              this.log('dropped a frame from %d: %s', peer, step.dropped)
            this.apply(step)
            break
          }
          case 'reconnected':
            this.log('new stream with %d', peer)
            this.apply(this.engine.openStream(peer, this.options.clock.now()))
            for (const l of this.listeners) this.hear(() => l.stream?.(peer))
            break
          case 'malformed':
            this.log('malformed bytes from %d: %s', peer, r.detail)
            break
          case 'closed':
          case 'aborted':
            return
        }
      }
    } finally {
      if (this.links.get(peer) === link) {
        this.links.delete(peer)
        this.engine.closeStream(peer)
      }
    }
  }

  /** Publishes this node's own signed envelope; returns why it was refused, if it was. */
  publish(bytes: Uint8Array): DropCode | undefined {
    this.start()
    const step = this.engine.publish(bytes, this.options.clock.now())
    this.apply(step)
    return step.dropped
  }

  /** Adds a listener to streams coming up and control frames (after the game's own callbacks). */
  listen(listener: MeshListener): void {
    this.listeners.push(listener)
  }

  private hear(run: () => void): void {
    try {
      run()
    } catch (err) {
      this.log.error('a mesh listener threw: %s', err)
    }
  }

  /** A control frame to one peer (SPEC §2.4: chat and the like; never evidence). */
  sendControl(peer: number, bytes: Uint8Array): void {
    this.send(peer, controlFrame(bytes), 'control')
  }

  sendGenesis(peer: number, bytes: Uint8Array): void {
    this.send(peer, genesisFrame(bytes), 'forward')
  }

  /** Resolves once every frame handed to the channels so far has been handed over. */
  async flushed(): Promise<void> {
    await Promise.all([...this.links.values()].map((l) => l.tail))
  }

  private apply(step: Step): void {
    for (const e of step.delivered) {
      try {
        this.options.onEnvelope?.(e)
      } catch (err) {
        this.log.error('onEnvelope threw: %s', err)
      }
    }
    for (const f of step.frames) {
      try {
        this.options.onFrame?.(f.from, f.kind, f.bytes)
      } catch (err) {
        this.log.error('onFrame threw: %s', err)
      }
      if (f.kind === 'control') for (const l of this.listeners) this.hear(() => l.control?.(f.from, f.bytes))
    }
    for (const s of step.sends) this.send(s.to, s.frame, s.cause)
    for (const w of step.wake) this.wake(w.peer, w.at)
  }

  private send(peer: number, frame: Uint8Array, cause: SendCause): void {
    const link = this.links.get(peer)
    if (link === undefined) return
    this.traffic.sentBytes.set(peer, (this.traffic.sentBytes.get(peer) ?? 0) + frame.length)
    const c = this.traffic.sentByCause.get(cause) ?? { frames: 0, bytes: 0 }
    c.frames++
    c.bytes += frame.length
    this.traffic.sentByCause.set(cause, c)
    link.tail = link.tail.then(
      () => link.channel.send(frame),
      () => link.channel.send(frame),
    )
    link.tail.catch((err: unknown) => {
      this.log('send to %d failed: %s', peer, err)
    })
  }

  /**
   * A time `peer`'s sends wait for (the resend budget's next window, a delayed forward): pump then.
   * One timer per link, for the earliest such time: a pump asks for every later time it still
   * waits for again (the engine's step names each wait left), so a delayed forward per envelope
   * and peer does not cost a timer each.
   */
  private wake(peer: number, at: number): void {
    const link = this.links.get(peer)
    if (link === undefined || (link.waking !== undefined && link.waking <= at)) return
    link.waking = at
    const clock = this.options.clock
    void clock.sleep(Math.max(0, at - clock.now()), link.signal).then(() => {
      if (link.waking === at) link.waking = undefined
      if (link.signal.aborted || this.links.get(peer) !== link) return
      this.apply(this.engine.pump(peer, clock.now()))
    })
  }
}
