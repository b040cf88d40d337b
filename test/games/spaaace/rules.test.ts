/** Spaaace! rules S-01..S-38 (rules/spaaace.md), each test citing its tag. */
import { describe, expect, it } from 'vitest'
import { parseOrderSet } from '../../../src/games/spaaace/rules/orders.js'
import { genesis, isAdjacent, wormholeOf } from '../../../src/games/spaaace/rules/state.js'
import { DEFAULT_TERMS } from '../../../src/games/spaaace/rules/types.js'
import { HEADER3, last, player, refereeOf, ship, states, ticks } from './helpers.js'

describe('players, time, sectors', () => {
  it('S-01: a game has 3 to 16 players, fixed at genesis; a record with 2 or 17 is refused at the first tick line', () => {
    expect(() => genesis(2)).toThrow(/S-01/)
    expect(() => genesis(17)).toThrow(/S-01/)
    expect(genesis(16).players).toHaveLength(16)
    expect(refereeOf('spaaace 1\nplayer a\nplayer b\ntick 1\n').error).toEqual({
      line: 4,
      message: expect.stringContaining('(S-01)') as string,
    })
    const many = Array.from({ length: 17 }, (_, i) => `player p${i}\n`).join('')
    expect(refereeOf(`spaaace 1\n${many}tick 1\n`).error?.line).toBe(19)
    expect(refereeOf(`${HEADER3}tick 1\nplayer d\n`).error?.message).toMatch(/S-01/)
  })

  it('S-02: ticks come in order 1, 2, ...', () => {
    expect(refereeOf(`${HEADER3}tick 2\n`).error?.line).toBe(5)
    expect(refereeOf(`${HEADER3}tick 1\ntick 3\n`).error?.line).toBe(6)
    expect(states(`${HEADER3}tick 1\ntick 2\ntick 3\n`).map((s) => s.tick)).toEqual([1, 2, 3])
  })

  it("S-03: only active players order; a removed player's line is ignored", () => {
    const s = last(HEADER3 + ticks(['c: bogus'], ['c: move 4']))
    expect(player(s, 'c').status).toBe('removed')
    expect(ship(s, 'c')).toEqual({ sector: 3, armour: 0, energy: 20, engaging: false })
    expect(s.offences).toEqual([])
  })

  it('S-10: the galaxy has players + 2 sectors; a rank beyond it is malformed', () => {
    expect(last(HEADER3 + ticks(['a: move 2 3 4 5']))).toMatchObject({ ships: { a: { sector: 5, energy: 16 } } })
    expect(last(HEADER3 + ticks(['a: move 6'])).offences).toEqual([{ player: 'a', rule: 'S-37' }])
  })

  it('S-11: sectors are adjacent iff their ranks differ by 1; the wormhole joins the day and the month', () => {
    expect(isAdjacent(2, 3, null)).toBe(true)
    expect(isAdjacent(2, 4, null)).toBe(false)
    expect(isAdjacent(2, 2, [2, 2])).toBe(false)
    expect(last(HEADER3 + ticks(['a: move 3']))).toMatchObject({ ships: { a: { sector: 1, energy: 20 } } })
    const terms = { ...DEFAULT_TERMS, wormhole: true, start: Date.UTC(2019, 1, 5), tickMs: 86_400_000 }
    // Tick 1 starts on 5 February: sectors 5 and 2; tick 2 on the 6th: no sector 6 in 5.
    expect(wormholeOf(terms, 3, 1)).toEqual([2, 5])
    expect(wormholeOf(terms, 3, 2)).toBeNull()
    const worm =
      'spaaace 1\nterms wormhole=on start=2019-02-05T00:00:00Z tickMs=86400000\nplayer a\nplayer b\nplayer c\n'
    expect(last(worm + ticks(['b: move 5']))).toMatchObject({ ships: { b: { sector: 5, energy: 19 } } })
    expect(last(worm + ticks([], ['b: move 5']))).toMatchObject({ ships: { b: { sector: 2, energy: 20 } } })
    expect(last(HEADER3 + ticks(['b: move 5']))).toMatchObject({ ships: { b: { sector: 2 } } })
    expect(refereeOf('spaaace 1\nterms wormhole=on\nplayer a\nplayer b\nplayer c\n').error).toEqual({
      line: 2,
      message: expect.stringContaining('S-11') as string,
    })
    expect(refereeOf('spaaace 1\nterms wormhole=on start=2019-02-30T00:00:00Z tickMs=1\n').error?.line).toBe(2)
  })

  it('S-12, S-21: ships are created in roster order in the empty sector of lowest rank, with armour 10 and energy 20', () => {
    const s = last(HEADER3 + ticks([]))
    expect(Object.keys(s.ships)).toEqual(['a', 'b', 'c'])
    expect([ship(s, 'a').sector, ship(s, 'b').sector, ship(s, 'c').sector]).toEqual([1, 2, 3])
    expect(genesis(3).ships.every((x) => x.armour === 10 && x.energy === 20)).toBe(true)
  })
})

/** Tick 1: a joins b and attacks; tick 2: the bids. */
const fight = (bidA: number, bidB: number): string[][] => [
  ['a: move 2; attack b'],
  [`a: bid ${bidA}`, `b: bid ${bidB}`],
]

describe('ships, energy, coins', () => {
  it('S-20: one ship for the whole game: a defeated ship is repaired, never replaced, and stays where it was', () => {
    const s = states(HEADER3 + ticks(...fight(10, 0), ['b: repair 3']))
    expect(ship(s[1]!, 'b').armour).toBe(0)
    expect(ship(s[2]!, 'b')).toEqual({ sector: 2, armour: 3, energy: 20, engaging: false })
    expect(Object.keys(s[2]!.ships)).toHaveLength(3)
  })

  it('S-22: armour 0 is defeated (not pilotable: no move); energy above 20 is lost', () => {
    const s = states(HEADER3 + ticks(...fight(10, 0), ['b: move 3', 'a: buy 20']))
    expect(ship(s[2]!, 'b').sector).toBe(2)
    // c gains 2 energy a tick at 20 and keeps 20: the excess is lost.
    expect(s.map((x) => ship(x, 'c').energy)).toEqual([20, 20, 20])
    // a spent 10 in tick 2 (energy 9), gains 2 in tick 3, and its 13 coins buy 6 points (S-38).
    expect(ship(s[2]!, 'a').energy).toBe(17)
    expect(player(s[2]!, 'a').coins).toBe(1)
  })

  it('S-23: an engaging ship is not pilotable: it cannot move or buy until its battle resolves', () => {
    const s = last(HEADER3 + ticks(['a: move 2; attack b', 'b: move 3']))
    expect(ship(s, 'b').sector).toBe(3)
    expect(s.battles).toEqual([])
    const t = states(HEADER3 + ticks(['a: move 2; attack b'], ['a: move 3; bid 0', 'b: bid 0']))
    expect(ship(t[1]!, 'a').sector).toBe(2)
    expect(ship(t[0]!, 'a').engaging).toBe(true)
    expect(ship(t[1]!, 'a').engaging).toBe(false)
  })

  it('S-24: coins start at `coins` and grow by `income` each tick; they never go negative', () => {
    expect(states(HEADER3 + ticks([], [])).map((s) => player(s, 'a').coins)).toEqual([11, 12])
    const poor = 'spaaace 1\nterms coins=0 income=0\nplayer a\nplayer b\nplayer c\n'
    const s = last(poor + ticks(['a: move 2 3 4 5'], ['a: buy 3; repair 2', 'b: withheld']))
    expect(ship(s, 'a').energy).toBe(18)
    expect(player(s, 'a').coins).toBe(0)
    expect(player(s, 'b').coins).toBe(0)
  })
})

describe('orders', () => {
  it('S-30: repair pays 1 coin a point, cut to the cap; no effect while engaging; a defeated ship becomes pilotable', () => {
    const s = states(
      HEADER3 + ticks(...fight(3, 0), ['b: repair 5'], ['c: move 2; attack b'], ['b: repair 3; bid 0', 'c: bid 0']),
    )
    expect(ship(s[1]!, 'b').armour).toBe(7)
    expect(ship(s[2]!, 'b').armour).toBe(10)
    expect(player(s[2]!, 'b').coins).toBe(13 - 3)
    expect(ship(s[4]!, 'b').armour).toBe(10)
    expect(player(s[4]!, 'b').coins).toBe(12)
  })

  it('S-31, S-04: declarations stand until broken; allies are pairs who each declared; allies cannot attack each other', () => {
    const s = states(HEADER3 + ticks(['a: ally b; ally c', 'b: ally a'], ['a: break c'], ['b: break a']))
    expect(s[0]!.declarations).toEqual([
      ['a', 'b'],
      ['a', 'c'],
      ['b', 'a'],
    ])
    expect(s[0]!.alliances).toEqual([['a', 'b']])
    expect(s[1]!.declarations).toEqual([
      ['a', 'b'],
      ['b', 'a'],
    ])
    expect(s[2]!.alliances).toEqual([])
    expect(last(HEADER3 + ticks(['a: ally b; move 2; attack b', 'b: ally a'])).battles).toEqual([])
    // One declaration alone is no alliance.
    expect(last(HEADER3 + ticks(['a: ally b; move 2; attack b'])).battles).toHaveLength(1)
  })

  it('S-32: buy pays 2 coins a point, cut to the cap and to the coins', () => {
    const s = last(HEADER3 + ticks(['a: move 2 3 4 5'], ['a: buy 3']))
    expect(ship(s, 'a').energy).toBe(20)
    expect(player(s, 'a').coins).toBe(12 - 4)
    const poor = last(
      'spaaace 1\nterms coins=1 income=0\nplayer a\nplayer b\nplayer c\n' + ticks(['a: move 2 3 4 5'], ['a: buy 3']),
    )
    expect([ship(poor, 'a').energy, player(poor, 'a').coins]).toEqual([18, 1])
  })

  it('S-33: a move pays 1 energy a step and stops before a step not adjacent or without energy', () => {
    expect(last(HEADER3 + ticks(['a: move 2 3 5 4']))).toMatchObject({ ships: { a: { sector: 3, energy: 18 } } })
    const s = last(HEADER3 + ticks(['a: withheld'], ['a: move 2 3 4']))
    expect(ship(s, 'a')).toMatchObject({ sector: 3, energy: 0 })
  })

  it('S-34, S-35: attack initiates a battle that awaits bids next tick; bid is the energy offered', () => {
    const s = states(HEADER3 + ticks(...fight(4, 2)))
    expect(s[0]!.battles).toEqual([{ a: 'a', b: 'b', initiated: 1, bids: null, spent: null, winner: null }])
    expect(s[1]!.battles).toEqual([{ a: 'a', b: 'b', initiated: 1, bids: [4, 2], spent: [4, 2], winner: 'a' }])
    expect([ship(s[1]!, 'a').armour, ship(s[1]!, 'b').armour]).toEqual([8, 6])
  })

  it('S-36: claim below fame 10 has no effect and is no offence', () => {
    const s = last(HEADER3 + ticks(['a: claim']))
    expect(s.claims).toEqual([])
    expect(s.offences).toEqual([])
  })

  const MALFORMED = [
    'bid -10',
    'bid 21',
    'bid 02',
    'buy 0',
    'buy 21',
    'repair 0',
    'repair 21',
    'buy',
    'buy 2 3',
    'Buy 2',
    'move',
    'move 0',
    'move 6',
    'move 2 x',
    'attack a',
    'attack zed',
    'attack',
    'attack b c',
    'ally a',
    'break zed',
    'frobnicate',
    'claim now',
    '',
    'buy 2;',
    ';',
    '-; buy 2',
    'buy 2; buy 3',
    'repair 1; repair 1',
    'move 2; move 3',
    'bid 1; bid 2',
    'attack b; attack c',
    'claim; claim',
    'ally b; break b',
    'ally b; ally b',
  ]
  it.each(MALFORMED)('S-37: "%s" is malformed: the set is empty and an offence', (text) => {
    const parsed = parseOrderSet(text, ['a', 'b', 'c'], 0, 5)
    expect(parsed.ok).toBe(false)
    const s = last(HEADER3 + ticks([`a: ${text}`, 'c: move 4']))
    expect(s.offences).toEqual([{ player: 'a', rule: 'S-37' }])
    expect(ship(s, 'a').sector).toBe(1)
  })

  it('S-37: well-formed sets, with blanks and several ally/break naming different players', () => {
    expect(
      parseOrderSet(' ally b ;break c; repair 3;buy 20; move 2 1 2; attack b; bid 0; claim ', ['a', 'b', 'c'], 0, 5),
    ).toEqual({
      ok: true,
      orders: {
        repair: 3,
        buy: 20,
        move: [2, 1, 2],
        attack: 1,
        bid: 0,
        claim: true,
        alliances: [
          { kind: 'ally', other: 1 },
          { kind: 'break', other: 2 },
        ],
      },
    })
  })

  it('S-38: orders that cannot take effect have none, and are no offence', () => {
    const s = last(HEADER3 + ticks(['a: attack c; bid 5; claim; move 3; repair 4; buy 2', 'b: break c']))
    expect(s.offences).toEqual([])
    expect(s.battles).toEqual([])
    expect(ship(s, 'a')).toEqual({ sector: 1, armour: 10, energy: 20, engaging: false })
    expect(player(s, 'a').coins).toBe(11)
  })
})
