/**
 * The decision's cost (protocol/SPAAACE-PEERS.md §15 Q4: "checking `state` parts costs a replay per
 * distinct past: cache `S_t` per cut set"): a 60-tick game of 8 honest players (about 2,000
 * envelopes, 480 `state` parts each checked over its own past) decides well under a second, and
 * its closing states are the engine's on the same orders.
 */
import { describe, expect, it } from 'vitest'
import { decide } from '../../../../src/games/spaaace/peers/decide.js'
import { rulesTerms } from '../../../../src/games/spaaace/peers/genesis.js'
import { ordersOf } from '../../../../src/games/spaaace/peers/parts.js'
import { genesis } from '../../../../src/games/spaaace/rules/state.js'
import { playTick } from '../../../../src/games/spaaace/rules/tick.js'
import { playHonest } from './script.js'

describe('§5.6, §15 Q4 a long game decides fast', () => {
  it('60 ticks, 8 players: complete at 60, every tick canonical and the engine’s, in under a second', () => {
    const orders = Array.from({ length: 60 }, (_, t) =>
      Array.from({ length: 8 }, (_, p) => ((t + p) % 4 === 0 ? 'buy 1' : (t + p) % 4 === 1 ? 'repair 1' : '-')),
    )
    const game = playHonest(8, orders)
    const reads = game.reads()
    const started = performance.now()
    const d = decide(game.genesis, reads, { authenticated: true })
    const ms = performance.now() - started
    expect(reads.length).toBeGreaterThan(1900)
    expect(d.end).toEqual({ kind: 'complete', tick: 60, winners: [] })
    expect(d.ticks.every((t) => t.status === 'canonical')).toBe(true)
    let s = genesis(8, rulesTerms(game.genesis.genesis))
    for (const [k, row] of orders.entries()) {
      s = playTick(
        s,
        row.map((o, q) => {
          const parsed = ordersOf(o, 8, q)
          return parsed.ok ? { kind: 'orders' as const, orders: parsed.orders } : { kind: 'missing' as const }
        }),
      ).state
      expect(d.ticks[k]?.outcome?.state).toEqual(s)
    }
    expect(ms).toBeLessThan(1000)
  }, 120_000)
})
