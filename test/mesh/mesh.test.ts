/**
 * The mesh (src/core/mesh/): protocol/SPAAACE-PEERS.md §8 as SPAAACE-PEERS-REVIEW.md R3 fixes it,
 * with the limits of §10 and R10, over in-memory channels on a virtual clock, with a toy game's
 * Ed25519-signed chains (toy.ts).
 */
import { afterEach, describe, expect, it } from 'vitest'
import { toHex, u8 } from '../../src/core/commit/bytes.js'
import { envelopeFrame } from '../../src/core/mesh/frames.js'
import { HELD_AHEAD, MAX_FRAME } from '../../src/core/mesh/limits.js'
import type { Channel } from '../../src/core/session/channel.js'
import { type Edge, type Link, Net, full, line, randomConnected, seeded, star } from './harness.js'
import { ToyGame } from './toy.js'

let nets: Net[] = []
afterEach(() => {
  for (const n of nets) n.close()
  nets = []
})
function net(...args: ConstructorParameters<typeof Net>): Net {
  const n = new Net(...args)
  nets.push(n)
  return n
}

/** Every node (present) holds exactly `expected` envelopes, and the same ones. */
function expectConverged(m: Net, expected: number): void {
  const ids = m.nodes.flatMap((n, i) => (n === undefined ? [] : [i]))
  const first = m.heldSet(ids[0] ?? 0)
  expect(first.length).toBe(expected)
  for (const i of ids) expect(m.heldSet(i), `node ${i}`).toEqual(first)
  for (const i of ids) expect(m.node(i).store.pending(), `node ${i} pending`).toEqual([])
}

describe('SPAAACE-PEERS §8 forward once: every envelope reaches every node', () => {
  const topologies: [string, (n: number) => Edge[]][] = [
    ['line', line],
    ['star', star],
    ['random', (n) => randomConnected(n, seeded(n * 7), Math.floor(n / 2))],
  ]
  for (const n of [3, 5, 16])
    for (const [name, topo] of topologies)
      it(`${n} nodes, ${name}: rounds of envelopes, with drops, cuts and reconnects`, async () => {
        const rng = seeded(n * 31 + name.length)
        const m = net(new ToyGame(n, `topo-${n}-${name}`), topo(n), { rng })
        const rounds = n === 16 ? 3 : 4
        for (let r = 0; r < rounds; r++) {
          for (let i = 0; i < n; i++) m.publish(i, u8(r))
          // Faults after the first round: a lossy link, and a cut one.
          if (r === 1) {
            const lossy = m.links[Math.floor(rng() * m.links.length)]
            const cut = m.links[Math.floor(rng() * m.links.length)]
            if (lossy !== undefined) lossy.dropRate = 0.3
            if (cut !== undefined) cut.cutNext = true
          }
          await m.quiesce()
        }
        m.reconnectAll()
        await m.quiesce()
        expectConverged(m, n * rounds)
      })
})

/** Links an attacker (roster index `who`, no node) to node `to`; returns the attacker's end. */
function attacker(m: Net, who: number, to: number): { end: Channel; link: Link } {
  const link = m.link(who, to)
  return { end: link.pair.ends[0], link }
}

function honestRounds(m: Net, ids: readonly number[], rounds: number, payload = 1): Promise<void> {
  for (let r = 0; r < rounds; r++) for (const i of ids) m.publish(i, new Uint8Array(payload).fill(r))
  return m.quiesce()
}

describe('SPAAACE-PEERS §8: withholding from one player hides nothing', () => {
  it("a node that withholds an author's envelopes from a peer: the others forward them", async () => {
    // Author 0 reaches only node 1, which passes author 0's envelopes to nobody but node 2.
    const withhold = (from: number, to: number, c: Channel): Channel =>
      from === 1 && to !== 2 ? { ...c, send: (f) => (f[0] === 0 && f[2] === 0 ? Promise.resolve() : c.send(f)) } : c
    const edges: Edge[] = [[0, 1], ...full(5).filter(([a]) => a !== 0)]
    const m = net(new ToyGame(5, 'withhold'), edges, { wrap: withhold })
    await honestRounds(m, [0, 1, 2, 3, 4], 3)
    expectConverged(m, 15)
    // Node 4 got author 0's envelopes from node 2 or 3, never from node 1.
    for (let s = 0; s < 3; s++) expect(m.node(4).store.mainAt(0, s)).toBeDefined()
  })
})

describe('SPAAACE-PEERS §8 Conflicts, review F1/R3: equivocation at one place', () => {
  it('two versions to two halves: every honest node holds both, and a third is kept nowhere', async () => {
    const g = new ToyGame(5, 'fork2')
    const m = net(g, full(4), { absent: [4] })
    const ends = [0, 1, 2, 3].map((i) => attacker(m, 4, i).end)
    const version = (p: number): Uint8Array =>
      g.compose({ author: 4, seq: 0, prev: g.game, heads: [], forks: [], payload: u8(p) })
    const [a, b, c] = [version(1), version(2), version(3)]
    await ends[0]!.send(envelopeFrame(a))
    await ends[1]!.send(envelopeFrame(a))
    await ends[2]!.send(envelopeFrame(b))
    await ends[3]!.send(envelopeFrame(b))
    await m.quiesce()
    await honestRounds(m, [0, 1, 2, 3], 1)
    for (const e of ends) await e.send(envelopeFrame(c))
    await m.quiesce()
    const keys = [a, b].map((x) => toHex(g.hashOf(x))).sort()
    for (let i = 0; i < 4; i++) {
      const vs = m.node(i).store.versions(4, 0)
      expect(vs.map((v) => v.key).sort(), `node ${i}`).toEqual(keys)
      expect(vs.every((v) => v.held)).toBe(true)
      expect(m.node(i).drops.get('conflict') ?? 0).toBeGreaterThan(0)
      // The honest envelope names the fork (review R2) and is held everywhere.
      expect(
        m.stores
          .get(i)!
          .envelopes()
          .some((x) => toHex(g.hashOf(x)) === toHex(g.hashOf(c))),
      ).toBe(false)
    }
    expectConverged(m, 4 + 2)
  })

  it('F1: three versions, two to each honest node: the fork parts name them, want fetches them, all hold all three', async () => {
    const g = new ToyGame(5, 'fork3')
    const m = net(g, full(4), { absent: [4] })
    const ends = [0, 1, 2, 3].map((i) => attacker(m, 4, i).end)
    const v = [1, 2, 3].map((p) => g.compose({ author: 4, seq: 0, prev: g.game, heads: [], forks: [], payload: u8(p) }))
    const pairs = [
      [0, 1],
      [0, 2],
      [1, 2],
      [0, 1],
    ] as const
    for (let i = 0; i < 4; i++) for (const k of pairs[i]!) await ends[i]!.send(envelopeFrame(v[k]!))
    await m.quiesce()
    await honestRounds(m, [0, 1, 2, 3], 1)
    for (let i = 0; i < 4; i++)
      expect(
        m
          .node(i)
          .store.versions(4, 0)
          .filter((x) => x.held).length,
        `node ${i}`,
      ).toBe(3)
    expectConverged(m, 4 + 3)
    expect(m.nodes.some((n) => (n?.traffic.sentByCause.get('want')?.frames ?? 0) > 0)).toBe(true)
  })
})

describe('SPAAACE-PEERS §8 Receive, §14 vector 14: a flood of forged frames', () => {
  it('unauthenticated, foreign, malformed and oversized frames are dropped, never persisted, never forwarded', async () => {
    const g = new ToyGame(5, 'flood')
    const m = net(g, full(4), { absent: [4] })
    const { end } = attacker(m, 4, 0)
    await honestRounds(m, [0, 1, 2, 3], 2)
    const bytesBefore = m.nodeBytes()
    const persisted = m.stores.get(0)!.envelopes().length
    const rng = seeded(99)
    const stranger = new ToyGame(5, 'stranger')
    let sent = 0
    for (let i = 0; i < 1_000; i++) {
      const kind = i % 5
      const author = i % 4
      const junk = Uint8Array.from({ length: 1 + Math.floor(rng() * 300) }, () => Math.floor(rng() * 256))
      const frame =
        kind === 0
          ? junk
          : kind === 1
            ? // Another author's next place, signed with the attacker's key.
              envelopeFrame(
                g.compose({
                  author,
                  seq: 2,
                  prev: m.node(0).store.mainAt(author, 1)!.envelope.hash,
                  heads: [],
                  forks: [],
                  payload: u8(i & 255),
                  key: g.keys[4]!,
                }),
              )
            : kind === 2
              ? envelopeFrame(
                  stranger.compose({
                    author: 4,
                    seq: 0,
                    prev: stranger.game,
                    heads: [],
                    forks: [],
                    payload: u8(i & 255),
                  }),
                )
              : kind === 3
                ? new Uint8Array(MAX_FRAME + 1)
                : envelopeFrame(junk)
      sent += frame.length
      await end.send(frame)
    }
    await m.quiesce()
    expect(sent).toBeGreaterThan(100_000)
    expect(m.nodeBytes() - bytesBefore).toBe(0)
    expect(m.stores.get(0)!.envelopes().length).toBe(persisted)
    const drops = m.node(0).drops
    expect(drops.get('unauthenticated')).toBe(200)
    expect(drops.get('envelope.foreign')).toBe(200)
    expect(drops.get('frame.too-large')).toBe(200)
    expectConverged(m, 8)
  })
})

describe('SPAAACE-PEERS §4.2 / review R7: the per-author bound (SEQ_PER_TICK)', () => {
  it('envelopes beyond the bound the game supplies are dropped unforwarded', async () => {
    const SEQ_PER_TICK = 12
    const tick = 1
    const g = new ToyGame(4, 'bound')
    const m = net(g, full(3), { absent: [3], withinBound: (e) => e.seq <= 2 + SEQ_PER_TICK * tick })
    const { end } = attacker(m, 3, 0)
    let prev = g.game
    for (let s = 0; s < 20; s++) {
      const bytes = g.compose({ author: 3, seq: s, prev, heads: [], forks: [], payload: u8(1) })
      prev = g.hashOf(bytes)
      await end.send(envelopeFrame(bytes))
    }
    await m.quiesce()
    for (let i = 0; i < 3; i++) expect(m.node(i).store.contiguous(3), `node ${i}`).toBe(15)
    expect(m.node(0).drops.get('beyond-bound')).toBe(5)
    expect(m.node(1).drops.get('beyond-bound') ?? 0).toBe(0)
  })
})

describe('SPAAACE-PEERS §8 Held ahead (review R3)', () => {
  it('at most HELD_AHEAD envelopes of an author wait ahead of a gap; they are forwarded once it fills', async () => {
    const g = new ToyGame(3, 'ahead')
    const m = net(g, [[0, 1]], { absent: [2] })
    const { end } = attacker(m, 2, 0)
    const chain: Uint8Array[] = []
    let prev = g.game
    for (let s = 0; s < 12; s++) {
      const bytes = g.compose({ author: 2, seq: s, prev, heads: [], forks: [], payload: u8(s) })
      prev = g.hashOf(bytes)
      chain.push(bytes)
    }
    // Everything but envelope 0, last first.
    for (let s = 11; s >= 1; s--) await end.send(envelopeFrame(chain[s]!))
    await m.quiesce()
    expect(m.node(0).store.pending().length).toBe(HELD_AHEAD)
    expect(m.node(0).drops.get('held-ahead')).toBe(11 - HELD_AHEAD)
    expect(m.node(1).store.contiguous(2)).toBe(0)
    await end.send(envelopeFrame(chain[0]!))
    await m.quiesce()
    // 0 and the eight held ahead (seq 4..11) do not link up: 1..3 were dropped; the node wanted 3.
    expect(m.node(0).store.contiguous(2)).toBe(1)
    expect(m.node(1).store.contiguous(2)).toBe(1)
  })
})
