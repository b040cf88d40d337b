/**
 * The mesh's cost to honest nodes: SPAAACE-PEERS.md §8 Resume and §10 `RESEND_BUDGET`, with
 * SPAAACE-PEERS-REVIEW.md F7 / R3 (resend only what the peer's signed heads do not cover) and R10.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { u8 } from '../../src/core/commit/bytes.js'
import { envelopeFrame, resumeFrame, wantFrame } from '../../src/core/mesh/frames.js'
import { RESEND_BUDGET, WINDOW_MS } from '../../src/core/mesh/limits.js'
import { MeshNode } from '../../src/core/mesh/node.js'
import { memoryStore } from '../../src/core/transcript/file.js'
import { Net, full } from './harness.js'
import { ToyGame } from './toy.js'

let nets: Net[] = []
afterEach(() => {
  for (const n of nets) n.close()
  nets = []
})

function resent(node: MeshNode): number {
  const t = node.traffic.sentByCause
  return (t.get('resend')?.bytes ?? 0) + (t.get('answer')?.bytes ?? 0)
}

describe('SPAAACE-PEERS §8 Resume, §10 RESEND_BUDGET', () => {
  it('a peer that lacks everything is resent it within the budget per window, over as many windows as it takes', async () => {
    const budget = 8_192
    const windowMs = 1_000
    const g = new ToyGame(3, 'budget')
    const m = new Net(g, [[0, 1]], { limits: { resendBudget: budget, windowMs } })
    nets.push(m)
    for (let r = 0; r < 30; r++) {
      m.publish(0, new Uint8Array(1_000).fill(r))
      m.publish(1, new Uint8Array(1_000).fill(r))
      await m.quiesce()
    }
    const total = m
      .node(0)
      .store.held()
      .reduce((s, e) => s + 1 + e.envelope.bytes.length, 0)
    expect(total).toBeGreaterThan(5 * budget)
    m.link(0, 2)
    const perWindow: number[] = []
    let before = resent(m.node(0))
    for (let j = 0; j < 100; j++) {
      await m.settleNow()
      perWindow.push(resent(m.node(0)) - before)
      before = resent(m.node(0))
      const next = m.clock.next()
      if (next === undefined) break
      m.clock.advanceTo(next)
    }
    expect(Math.max(...perWindow)).toBeLessThanOrEqual(budget)
    expect(perWindow.filter((b) => b > 0).length).toBeGreaterThanOrEqual(Math.ceil(total / budget))
    expect(m.heldSet(2)).toEqual(m.heldSet(0))
    expect(m.node(2).store.pending()).toEqual([])
    // In causal order nothing waited ahead of a gap, so no want was needed.
    expect(m.node(2).traffic.sentByCause.get('want')).toBeUndefined()
  })
})

describe('amplification: bytes an attacker makes an honest node send, per byte it sends (review F7, Q7)', () => {
  it('resume floods, wants, duplicates and forgeries cost the honest node a bounded, measured amount', async () => {
    const g = new ToyGame(5, 'amplify')
    const m = new Net(g, full(4), { absent: [4] })
    nets.push(m)
    const link = m.link(4, 0)
    const end = link.pair.ends[0]
    for (let r = 0; r < 5; r++) {
      for (let i = 0; i < 4; i++) m.publish(i, new Uint8Array(100).fill(r))
      await m.quiesce()
    }
    const victim = m.node(0)
    const held = victim.store.held()
    const heldBytes = held.reduce((s, e) => s + 1 + e.envelope.bytes.length, 0)
    const out = (): number => [...victim.traffic.sentBytes.values()].reduce((a, b) => a + b, 0)
    const figures: Record<string, { in: number; out: number; ratio: number }> = {}
    const phase = async (name: string, attack: () => Promise<number>): Promise<{ in: number; out: number }> => {
      const o = out()
      const t0 = m.clock.now()
      const sent = await attack()
      await m.quiesce()
      const r = { in: sent, out: out() - o, windows: Math.floor((m.clock.now() - t0) / WINDOW_MS) + 1 }
      figures[name] = { in: r.in, out: r.out, ratio: Math.round((r.out / r.in) * 10) / 10 }
      return r
    }
    const send = async (frame: Uint8Array): Promise<number> => {
      await end.send(frame)
      return frame.length
    }

    // A: a roster peer that signs nothing reconnects 50 times, each with a resume counting nothing.
    const a = await phase('resume flood, unsigned', async () => {
      let n = 0
      for (let k = 0; k < 50; k++) {
        link.pair.reconnect()
        n += await send(resumeFrame([0, 0, 0, 0, 0]))
      }
      return n
    })
    // One answer now and one when the window ends (R3: one stream per peer per Δ), each at most
    // what the attacker's signatures do not cover, never beyond the budget.
    expect(a.out).toBeLessThanOrEqual(2 * heldBytes + 50 * 12)
    expect(a.out).toBeLessThanOrEqual(2 * RESEND_BUDGET)

    // B: wants, each hash twice: one answer per hash per stream.
    const b = await phase('wants, unsigned', async () => {
      let n = 0
      for (const e of held)
        for (let k = 0; k < 2; k++)
          n += await send(wantFrame({ author: e.envelope.author, seq: e.envelope.seq, hash: e.envelope.hash }))
      return n
    })
    expect(b.out).toBeLessThanOrEqual(heldBytes)

    // C: copies of held envelopes and forgeries: dropped before anything is sent.
    const c = await phase('duplicates and forgeries', async () => {
      let n = 0
      for (const e of held) n += await send(envelopeFrame(e.envelope.bytes))
      for (let k = 0; k < 200; k++)
        n += await send(
          envelopeFrame(
            g.compose({ author: k % 4, seq: 9, prev: g.game, heads: [], forks: [], payload: u8(k), key: g.keys[4]! }),
          ),
        )
      return n
    })
    expect(c.out).toBe(0)

    // D: the attacker signs one envelope whose heads name everything it holds (as a player must
    // to play), then floods resumes counting its own envelope: nothing its signature covers is
    // resent; its envelope is forwarded once to each of the other peers (n - 2 = 3).
    const own = g.compose({
      author: 4,
      seq: 0,
      prev: g.game,
      heads: [0, 1, 2, 3].map((x) => {
        const c = victim.store.contiguous(x)
        return { author: x, seq: c - 1, hash: victim.store.mainAt(x, c - 1)!.envelope.hash }
      }),
      forks: [],
      payload: u8(0),
    })
    const resentBefore = resent(victim)
    const d = await phase('own envelope, then resume flood, signed', async () => {
      let n = await send(envelopeFrame(own))
      await m.quiesce()
      for (let k = 0; k < 50; k++) {
        link.pair.reconnect()
        n += await send(resumeFrame([0, 0, 0, 0, 1]))
      }
      return n
    })
    expect(resent(victim) - resentBefore).toBe(0)
    expect(d.out).toBeLessThanOrEqual(3 * (1 + own.length) + 50 * 12 + 2 * (1 + own.length))

    // E: the same signer's resumes now count none of its own envelopes, as a node that lost its
    // transcript does (§6.8 step 8, §8 "A peer that lost its own envelopes"): it is answered by its
    // counts alone, which costs what a new node's resumes cost (A), never more.
    const e = await phase('resume flood, signed, own envelopes not counted', async () => {
      let n = 0
      for (let k = 0; k < 50; k++) {
        link.pair.reconnect()
        n += await send(resumeFrame([0, 0, 0, 0, 0]))
      }
      return n
    })
    expect(e.out).toBeGreaterThan(0)
    expect(e.out).toBeLessThanOrEqual(2 * (heldBytes + 1 + own.length) + 50 * 12)
    expect(e.out).toBeLessThanOrEqual(2 * RESEND_BUDGET)
    console.log(
      `amplification (5 players, node 0 holding ${held.length} envelopes, ${heldBytes} bytes):`,
      JSON.stringify(figures),
    )
  })
})

describe('SPAAACE-PEERS §8: persisted before acted on, and read back', () => {
  it('a restarted node holds what it held; bytes that do not authenticate are never persisted nor restored', async () => {
    const g = new ToyGame(3, 'restart')
    const m = new Net(g, full(3))
    nets.push(m)
    for (let r = 0; r < 3; r++) for (let i = 0; i < 3; i++) m.publish(i, u8(r))
    await m.quiesce()
    const persisted = m.stores.get(0)!.envelopes()
    expect(persisted.length).toBe(9)
    const forged = g.compose({ author: 1, seq: 3, prev: g.game, heads: [], forks: [], payload: u8(0), key: g.keys[0]! })
    const delivered: number[] = []
    const again = new MeshNode({
      codec: g.codec,
      self: 0,
      clock: m.clock,
      persistence: memoryStore([...persisted, forged, Uint8Array.of(1, 2, 3)]),
      onEnvelope: (e) => delivered.push(e.seq),
    })
    again.start()
    expect(
      again.store
        .held()
        .map((e) => e.key)
        .sort(),
    ).toEqual(m.heldSet(0))
    expect(delivered.length).toBe(9)
    expect(again.drops.get('unauthenticated')).toBe(1)
  })
})
