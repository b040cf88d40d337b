/**
 * SPAAACE-PEERS.md §8 (review R3): over random schedules of envelopes signed, frames lost, links
 * cut and streams reconnected, on random connected topologies, every honest node ends holding the
 * same envelopes once every link is back: all of them, none ahead of a gap.
 */
import fc from 'fast-check'
import { afterEach, describe, expect, it } from 'vitest'
import { u8 } from '../../src/core/commit/bytes.js'
import { Net, randomConnected, seeded } from './harness.js'
import { ToyGame } from './toy.js'

type Command =
  | { readonly op: 'publish'; readonly node: number }
  | { readonly op: 'lossy'; readonly link: number }
  | { readonly op: 'cut'; readonly link: number }
  | { readonly op: 'reconnect'; readonly link: number }
  | { readonly op: 'settle' }
  | { readonly op: 'wait'; readonly ms: number }

const command: fc.Arbitrary<Command> = fc.oneof(
  { weight: 6, arbitrary: fc.record({ op: fc.constant('publish' as const), node: fc.nat(15) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('lossy' as const), link: fc.nat(63) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('cut' as const), link: fc.nat(63) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('reconnect' as const), link: fc.nat(63) }) },
  { weight: 2, arbitrary: fc.record({ op: fc.constant('settle' as const) }) },
  { weight: 1, arbitrary: fc.record({ op: fc.constant('wait' as const), ms: fc.integer({ min: 1, max: 5_000 }) }) },
)

let nets: Net[] = []
afterEach(() => {
  for (const n of nets) n.close()
  nets = []
})

describe('SPAAACE-PEERS §8: convergence over random schedules (fast-check)', () => {
  it('all honest nodes converge to the same held set', async () => {
    const stats = { runs: 0, envelopes: 0, frames: 0 }
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 3, max: 7 }),
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.array(command, { minLength: 5, maxLength: 80 }),
        async (n, seed, commands) => {
          const rng = seeded(seed)
          const m = new Net(new ToyGame(n, `prop-${n}`), randomConnected(n, rng, rng() * n), { rng })
          nets.push(m)
          let published = 0
          for (const c of commands) {
            const link = 'link' in c ? m.links[c.link % m.links.length] : undefined
            switch (c.op) {
              case 'publish':
                m.publish(c.node % n, u8(published++ & 255))
                break
              case 'lossy':
                if (link !== undefined) link.dropRate = 0.5
                break
              case 'cut':
                if (link !== undefined) link.cutNext = true
                break
              case 'reconnect':
                if (link !== undefined) {
                  link.down = false
                  link.pair.reconnect()
                }
                break
              case 'settle':
                await m.settleNow()
                break
              case 'wait':
                await m.settleNow()
                m.clock.advance(c.ms)
                break
            }
          }
          m.reconnectAll()
          await m.quiesce()
          const first = m.heldSet(0)
          expect(first.length).toBe(published)
          for (let i = 1; i < n; i++) expect(m.heldSet(i)).toEqual(first)
          for (let i = 0; i < n; i++) expect(m.node(i).store.pending()).toEqual([])
          stats.runs++
          stats.envelopes += published
          stats.frames += m.sentFrames()
          m.close()
        },
      ),
      { numRuns: 150, seed: 26 },
    )
    console.log('convergence:', JSON.stringify(stats))
  })
})

describe('SPAAACE-PEERS §8 Receive: hostile bytes never throw', () => {
  it('any frame: decoded or dropped with a code, nothing stored or sent unless it authenticates', async () => {
    const g = new ToyGame(4, 'hostile')
    const m = new Net(g, [[0, 1]], { absent: [3] })
    nets.push(m)
    m.publish(0)
    await m.quiesce()
    const engine = m.node(0).engine
    const valid = m.node(0).store.held()[0]!.envelope.bytes
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 400 }),
          // Envelope frames from a valid envelope with bytes changed, cut or extended.
          fc
            .tuple(fc.nat(valid.length - 1), fc.integer({ min: 0, max: 255 }), fc.integer({ min: -80, max: 80 }))
            .map(([at, v, cut]) => {
              const b = Uint8Array.from(valid)
              b[at] = v
              const body = cut < 0 ? b.subarray(0, b.length + cut) : Uint8Array.from([...b, ...new Uint8Array(cut)])
              return Uint8Array.from([0, ...body])
            }),
        ),
        (frame) => {
          const step = engine.receive(3, frame, 0)
          return step.delivered.length === 0 && step.sends.every((s) => s.cause === 'answer' || s.cause === 'resend')
        },
      ),
      { numRuns: 2_000, seed: 8 },
    )
    expect(m.node(0).store.held().length).toBe(1)
  })
})
