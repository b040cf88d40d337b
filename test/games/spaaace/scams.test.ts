/** Each 2019 failure in rules/spaaace.md's last table, played as an attempt that the rules defeat. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { genesis, sectorCount } from '../../../src/games/spaaace/rules/state.js'
import { playTick } from '../../../src/games/spaaace/rules/tick.js'
import {
  DEFAULT_TERMS,
  EMPTY_ORDERS,
  type GameState,
  type OrderSet,
  type Submission,
} from '../../../src/games/spaaace/rules/types.js'
import { HEADER3, last, player, refereeOf, ship, states, ticks } from './helpers.js'

const O = (o: Partial<OrderSet> = {}): Submission => ({ kind: 'orders', orders: { ...EMPTY_ORDERS, ...o } })

describe('Agora 2019 failures, attempted again', () => {
  it('a resolver sees both bids / names the wrong resolver (S-41, S-42): a bid sent early counts for nothing, and no resolver can be named', () => {
    // b "leaks" its bid in the initiation tick; it is a bid with no battle awaiting it, and b bids 0.
    const s = states(HEADER3 + ticks(['a: move 2; attack b', 'b: bid 20'], ['a: bid 1']))
    expect(s[1]!.battles[0]).toMatchObject({ bids: [1, 0], winner: 'a' })
    expect(last(HEADER3 + ticks(['a: move 2; attack b c'])).offences).toEqual([{ player: 'a', rule: 'S-37' }])
  })

  it('rate limits bypassed by destroying and re-creating a ship (S-20, S-40): the defeated ship is repaired, and the pair still waits rematchTicks', () => {
    const patient = 'spaaace 1\nterms absentTicks=10 battleCooldown=0\nplayer a\nplayer b\nplayer c\n'
    const s = states(
      patient +
        ticks(
          ['a: move 2; attack b'],
          ['a: bid 10', 'b: bid 0'],
          ['b: repair 10', 'a: attack b'],
          ['a: attack b'],
          ['a: attack b'],
        ),
    )
    expect(ship(s[2]!, 'b').armour).toBe(10)
    expect(s[2]!.battles).toEqual([])
    expect(s[3]!.battles).toEqual([])
    expect(s[4]!.battles.map((b) => b.initiated)).toEqual([5])
  })

  it('twenty agreed battles for two fame wins (S-40, S-43, S-50): two colluders fighting as often as allowed, taking turns to win, never reach 10', () => {
    let state: GameState = genesis(3, { ...DEFAULT_TERMS, maxTicks: 60 })
    let battles = 0
    let winner = 0
    while (!state.ended) {
      const awaiting = state.awaiting[0]
      const subs = [0, 1, 2].map((i): Submission => {
        if (i === 2) return O()
        const bid = awaiting === undefined ? null : i === winner ? 1 : 0
        return O({
          bid,
          claim: true,
          move: state.tick === 0 && i === 0 ? [2] : null,
          attack: i === 0 ? 1 : null,
          repair: 10,
        })
      })
      const out = playTick(state, subs)
      battles += out.battles.filter((b) => b.winner !== null).length
      if (awaiting !== undefined) winner = 1 - winner
      state = out.state
      expect(state.players.every((p) => Math.abs(p.fame) <= 1)).toBe(true)
      expect(state.claims).toEqual([])
    }
    expect(battles).toBeGreaterThanOrEqual(10)
    expect(state.winners).toEqual([])
  })

  it('the -10 bid (S-37): malformed, an offence that removes its author', () => {
    const s = last(HEADER3 + ticks(['a: move 2; attack b'], ['a: bid 5', 'b: bid -10']))
    expect(s.offences).toEqual([{ player: 'b', rule: 'S-37' }])
    expect(s.battles[0]).toMatchObject({ bids: [5, 0], winner: 'a' })
    expect(player(s, 'b').status).toBe('removed')
  })

  it('the armour clamp inverting battles (S-42): a ship with 1 armour left no longer beats a bigger spender', () => {
    const s = last(
      HEADER3 +
        ticks(
          ['a: move 2; attack b'],
          ['a: bid 9', 'b: bid 10'],
          [],
          ['a: attack b', 'c: move 2'],
          ['a: bid 20', 'b: bid 20'],
        ),
    )
    expect(s.battles).toEqual([])
    const fight = states(
      'spaaace 1\nterms rematchTicks=1 absentTicks=10\nplayer a\nplayer b\nplayer c\n' +
        ticks(['a: move 2; attack b'], ['a: bid 9', 'b: bid 0'], ['a: attack b'], ['a: bid 2', 'b: bid 20']),
    )
    // b has 1 armour after tick 2; in 2019 it would have won by losing less armour.
    expect(ship(fight[1]!, 'b').armour).toBe(1)
    expect(fight[3]!.battles[0]).toMatchObject({ spent: [2, 20], winner: 'b' })
    const tie = states(
      'spaaace 1\nterms rematchTicks=1 absentTicks=10\nplayer a\nplayer b\nplayer c\n' +
        ticks(['a: move 2; attack b'], ['a: bid 9', 'b: bid 0'], ['a: attack b'], ['a: bid 11', 'b: bid 11']),
    )
    expect(tie[3]!.battles[0]).toMatchObject({ spent: [11, 11], winner: null })
  })

  it('the suspension that may have destroyed everything (S-90): no line changes the terms after genesis', () => {
    const r = refereeOf(`${HEADER3}tick 1\nterms maxTicks=1\ntick 2\n`)
    expect(r.error?.line).toBe(6)
    expect(r.ticks).toEqual([])
  })

  it('the Astronomor neglecting the galaxy (S-10): the galaxy keeps players + 2 sectors whoever is removed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 3, max: 16 }), (n) => {
        let s = genesis(n)
        s = playTick(
          s,
          Array.from({ length: n }, (_, i) =>
            i === 0 ? { kind: 'malformed', reason: 'x' } : O({ move: [sectorCount(n)] }),
          ),
        ).state
        expect(s.ships.every((x) => x.sector >= 1 && x.sector <= n + 2)).toBe(true)
        expect(
          playTick(
            s,
            Array.from({ length: n }, () => O({ move: [n + 1, n + 2] })),
          ).state.ships.filter((x) => x.sector === n + 2).length,
        ).toBeGreaterThan(0)
      }),
      { numRuns: 14 },
    )
  })
})
