/** Invariants of the Spaaace! engine over random games (S-22, S-24, S-43, S-51) and of the referee. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { randomRecord, seededRng } from '../../../src/games/spaaace/referee/random.js'
import { referee } from '../../../src/games/spaaace/referee/referee.js'
import { genesis } from '../../../src/games/spaaace/rules/state.js'
import { playTick } from '../../../src/games/spaaace/rules/tick.js'
import { DEFAULT_TERMS, type GameState, type Submission } from '../../../src/games/spaaace/rules/types.js'

const n20 = fc.integer({ min: 0, max: 20 })
const orders = (players: number): fc.Arbitrary<Submission> => {
  const who = fc.integer({ min: 0, max: players - 1 })
  const orderSet = fc.record({
    repair: fc.option(fc.integer({ min: 1, max: 20 })),
    buy: fc.option(fc.integer({ min: 1, max: 20 })),
    move: fc.option(fc.array(fc.integer({ min: 1, max: players + 2 }), { minLength: 1, maxLength: 4 })),
    attack: fc.option(who),
    bid: fc.option(n20),
    claim: fc.boolean(),
    alliances: fc.array(fc.record({ kind: fc.constantFrom('ally' as const, 'break' as const), other: who }), {
      maxLength: 2,
    }),
  })
  return fc.oneof(
    { weight: 12, arbitrary: orderSet.map((o): Submission => ({ kind: 'orders', orders: o })) },
    {
      weight: 1,
      arbitrary: fc.constantFrom<Submission>(
        { kind: 'missing' },
        { kind: 'withheld' },
        { kind: 'mismatch' },
        { kind: 'equivocated' },
        { kind: 'malformed', reason: 'test' },
      ),
    },
  )
}

const game = fc.integer({ min: 3, max: 6 }).chain((players) =>
  fc.record({
    players: fc.constant(players),
    terms: fc.record({
      coins: fc.integer({ min: 0, max: 40 }),
      income: fc.integer({ min: 0, max: 5 }),
      battleCooldown: fc.integer({ min: 0, max: 3 }),
      rematchTicks: fc.integer({ min: 1, max: 4 }),
      withholdFine: fc.integer({ min: 0, max: 50 }),
      maxTicks: fc.integer({ min: 1, max: 30 }),
      absentTicks: fc.integer({ min: 1, max: 10 }),
      infamyWins: fc.boolean(),
    }),
    ticks: fc.array(fc.array(orders(players), { minLength: players, maxLength: players }), {
      minLength: 30,
      maxLength: 30,
    }),
  }),
)

function invariantsHold(s: GameState): void {
  for (const ship of s.ships) {
    expect(ship.armour).toBeGreaterThanOrEqual(0)
    expect(ship.armour).toBeLessThanOrEqual(10)
    expect(ship.energy).toBeGreaterThanOrEqual(0)
    expect(ship.energy).toBeLessThanOrEqual(20)
    expect(ship.sector).toBeGreaterThanOrEqual(1)
    expect(ship.sector).toBeLessThanOrEqual(s.players.length + 2)
  }
  for (const p of s.players) {
    expect(p.fame).toBeGreaterThanOrEqual(-10)
    expect(p.fame).toBeLessThanOrEqual(10)
    expect(p.coins).toBeGreaterThanOrEqual(0)
  }
}

describe('properties', () => {
  it('S-22, S-24, S-43, S-51: armour 0..10, energy 0..20, fame -10..10, coins >= 0 after every tick, and every game ends by maxTicks', () => {
    fc.assert(
      fc.property(game, ({ players, terms, ticks }) => {
        // Orders naming their author are malformed (S-37): turn them into the malformed case the parser would give.
        let s = genesis(players, { ...DEFAULT_TERMS, ...terms })
        for (const tick of ticks) {
          if (s.ended) break
          const subs = tick.map((x, i): Submission => {
            if (x.kind !== 'orders') return x
            const o = x.orders
            const self = o.attack === i || o.alliances.some((a) => a.other === i)
            const twice = new Set(o.alliances.map((a) => a.other)).size !== o.alliances.length
            return self || twice ? { kind: 'malformed', reason: 'names itself' } : x
          })
          s = playTick(s, subs).state
          invariantsHold(s)
          expect(s.tick).toBeLessThanOrEqual(terms.maxTicks)
        }
        expect(s.ended).toBe(true)
        expect(s.tick).toBeLessThanOrEqual(terms.maxTicks)
        if (s.ended) expect(s.winners.every((w) => s.players[w]?.status === 'active')).toBe(true)
      }),
      { numRuns: 120 },
    )
  })

  it('random records are valid, refereed to their end, and the same text gives the same closing states', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 12 }), fc.integer({ min: 3, max: 16 }), (seed, players) => {
        const text = randomRecord(seededRng(seed), players)
        expect(randomRecord(seededRng(seed), players)).toBe(text)
        const r = referee(text)
        expect(r.error).toBeNull()
        expect(r.ticks.at(-1)?.outcome.state.ended).toBe(true)
        expect(referee(text).ticks.map((t) => t.json)).toEqual(r.ticks.map((t) => t.json))
      }),
      { numRuns: 40 },
    )
  })

  it('hostile text never throws: the referee answers with ticks and at most one record error', () => {
    const line = fc.oneof(
      fc.constantFrom(
        'spaaace 1',
        'player a',
        'player b',
        'player c',
        'tick 1',
        'tick 2',
        'a: buy 2',
        'b: bid 3',
        'terms coins=3',
        'c: withheld',
      ),
      fc.string({ maxLength: 20 }),
    )
    fc.assert(
      fc.property(fc.array(line, { maxLength: 12 }), (lines) => {
        const r = referee(lines.join('\n'))
        if (r.error !== null) expect(r.error.message).toMatch(/\((S-\d\d|spaaace\.md appendix)/)
      }),
      { numRuns: 300 },
    )
  })
})
