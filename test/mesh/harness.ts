/**
 * Networks of mesh nodes over in-memory channel pairs on a virtual clock, for the mesh's tests.
 */
import { u8 } from '../../src/core/commit/bytes.js'
import type { MeshLimits } from '../../src/core/mesh/limits.js'
import { MeshNode } from '../../src/core/mesh/node.js'
import type { WithinBound } from '../../src/core/mesh/engine.js'
import { type Channel, type MemoryPair, memoryChannelPair } from '../../src/core/session/channel.js'
import { VirtualClock } from '../../src/core/session/clock.js'
import { memoryStore } from '../../src/core/transcript/file.js'
import { ToyGame } from './toy.js'

/** mulberry32: a seeded source for topologies and schedules. */
export function seeded(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

export type Edge = readonly [number, number]

export function line(n: number): Edge[] {
  return Array.from({ length: n - 1 }, (_, i) => [i, i + 1] as const)
}

export function star(n: number): Edge[] {
  return Array.from({ length: n - 1 }, (_, i) => [0, i + 1] as const)
}

export function full(n: number): Edge[] {
  const out: Edge[] = []
  for (let a = 0; a < n; a++) for (let b = a + 1; b < n; b++) out.push([a, b])
  return out
}

/** A random spanning tree plus `extra` random edges: connected. */
export function randomConnected(n: number, rng: () => number, extra = n): Edge[] {
  const out = new Map<string, Edge>()
  const add = (a: number, b: number): void => {
    if (a === b) return
    const [x, y] = a < b ? [a, b] : [b, a]
    out.set(`${x}-${y}`, [x, y])
  }
  for (let i = 1; i < n; i++) add(i, Math.floor(rng() * i))
  for (let k = 0; k < extra; k++) add(Math.floor(rng() * n), Math.floor(rng() * n))
  return [...out.values()]
}

export interface Link {
  readonly a: number
  readonly b: number
  readonly pair: MemoryPair
  /** The next frame on this link cuts it (and is lost), until `reconnect`. */
  cutNext: boolean
  /** Probability that a frame is lost while the stream stays up. */
  dropRate: number
  down: boolean
}

export interface NetOptions {
  readonly limits?: Partial<MeshLimits>
  readonly withinBound?: WithinBound
  readonly rng?: () => number
  /** Roster indexes with no node (an attacker the test drives by hand). */
  readonly absent?: readonly number[]
  /** Wraps the channel node `from` uses towards `to` (a withholding node). */
  readonly wrap?: (from: number, to: number, channel: Channel) => Channel
}

export class Net {
  readonly clock = new VirtualClock()
  readonly nodes: (MeshNode | undefined)[]
  readonly links: Link[] = []
  readonly stores = new Map<number, ReturnType<typeof memoryStore>>()
  private readonly life = new AbortController()
  private readonly rng: () => number
  private readonly running: Promise<void>[] = []

  constructor(
    readonly game: ToyGame,
    edges: readonly Edge[],
    private readonly options: NetOptions = {},
  ) {
    this.rng = options.rng ?? seeded(1)
    this.nodes = Array.from({ length: game.n }, (_, i) => {
      if (options.absent?.includes(i) === true) return undefined
      const store = memoryStore()
      this.stores.set(i, store)
      return new MeshNode({
        codec: game.codec,
        self: i,
        clock: this.clock,
        persistence: store,
        ...(options.limits === undefined ? {} : { limits: options.limits }),
        ...(options.withinBound === undefined ? {} : { withinBound: options.withinBound }),
      })
    })
    for (const [a, b] of edges) this.link(a, b)
  }

  node(i: number): MeshNode {
    const n = this.nodes[i]
    if (n === undefined) throw new Error(`no node ${i}`)
    return n
  }

  /** Connects `a` and `b` (either may be absent: then its end is returned for the test to drive). */
  link(a: number, b: number): Link {
    const link: Link = {
      a,
      b,
      cutNext: false,
      dropRate: 0,
      down: false,
      pair: memoryChannelPair(() => {
        if (link.cutNext) {
          link.cutNext = false
          link.down = true
          return 'cut'
        }
        return link.dropRate > 0 && this.rng() < link.dropRate ? 'drop' : 'deliver'
      }),
    }
    this.links.push(link)
    const [ea, eb] = link.pair.ends
    const na = this.nodes[a]
    const nb = this.nodes[b]
    const wrap = this.options.wrap ?? ((_f: number, _t: number, c: Channel) => c)
    if (na !== undefined) this.running.push(na.connect(b, wrap(a, b, ea), this.life.signal))
    if (nb !== undefined) this.running.push(nb.connect(a, wrap(b, a, eb), this.life.signal))
    return link
  }

  /** Runs every node until nothing moves (jumping the clock to pending resend windows). */
  async quiesce(maxJumps = 10_000): Promise<void> {
    for (let j = 0; j < maxJumps; j++) {
      await this.settleNow()
      const next = this.clock.next()
      if (next === undefined) return
      this.clock.advanceTo(next)
    }
    throw new Error('the mesh did not quiesce')
  }

  /** Runs every node until nothing moves at the current time. */
  async settleNow(): Promise<void> {
    let last = -1
    while (last !== this.sentFrames()) {
      last = this.sentFrames()
      for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r))
    }
  }

  sentFrames(): number {
    return this.links.reduce((s, l) => s + l.pair.sent[0].length + l.pair.sent[1].length, 0)
  }

  /** Bytes the nodes (not the test's attackers) have handed to their channels. */
  nodeBytes(): number {
    let sum = 0
    for (const n of this.nodes) for (const b of n?.traffic.sentBytes.values() ?? []) sum += b
    return sum
  }

  /** Node `i` signs and publishes its next envelope. */
  publish(i: number, payload = u8(0)): Uint8Array {
    const node = this.node(i)
    const bytes = this.game.next(node.store, i, payload)
    const refused = node.publish(bytes)
    if (refused !== undefined) throw new Error(`node ${i} refused its own envelope: ${refused}`)
    return bytes
  }

  reconnectAll(): void {
    for (const l of this.links) {
      l.cutNext = false
      l.dropRate = 0
      l.down = false
      l.pair.reconnect()
    }
  }

  /** The held envelopes of node `i`, as sorted hex hashes. */
  heldSet(i: number): string[] {
    return this.node(i)
      .store.held()
      .map((e) => e.key)
      .sort()
  }

  close(): void {
    this.life.abort()
  }
}
