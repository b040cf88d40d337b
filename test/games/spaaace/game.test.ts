/** Spaaace! rules S-40..S-90 (rules/spaaace.md): battles, fame, the win, the tick, offences. */
import { describe, expect, it } from 'vitest'
import { fameAfter, resolveBattle } from '../../../src/games/spaaace/rules/battle.js'
import { genesis } from '../../../src/games/spaaace/rules/state.js'
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
const idle = (n = 3): Submission[] => Array.from({ length: n }, () => O())
const withFame = (s: GameState, fames: readonly number[]): GameState => ({
  ...s,
  players: s.players.map((p, i) => ({ ...p, fame: fames[i] ?? p.fame })),
})
const fight = (bidA: number, bidB: number): string[][] => [
  ['a: move 2; attack b'],
  [`a: bid ${bidA}`, `b: bid ${bidB}`],
]
const armed = { sector: 1, armour: 10, energy: 20, engaging: true }

describe('space battles', () => {
  it('S-40: an attack needs both ships pilotable in one sector; initiations go in roster order and one per ship a step', () => {
    expect(last(HEADER3 + ticks(['a: attack b'])).battles).toEqual([])
    const s = last(HEADER3 + ticks(['a: move 2; attack b', 'c: move 2; attack b']))
    expect(s.battles.map((b) => [b.a, b.b])).toEqual([['a', 'b']])
    expect(ship(s, 'c').engaging).toBe(false)
  })

  it('S-40: battleCooldown keeps a combatant out of battles for that many ticks; rematchTicks keeps a pair apart', () => {
    const patient = 'spaaace 1\nterms absentTicks=10\nplayer a\nplayer b\nplayer c\n'
    const cool = states(
      patient + ticks(['a: move 2; attack b'], ['a: bid 0; attack c', 'b: bid 0', 'c: move 2'], ['a: attack c']),
    )
    expect(cool[1]!.battles.map((b) => b.initiated)).toEqual([1])
    expect(cool[2]!.battles).toEqual([{ a: 'a', b: 'c', initiated: 3, bids: null, spent: null, winner: null }])
    const re = states(patient + ticks(...fight(0, 0), [], ['a: attack b'], ['a: attack b']))
    // Tick 4 looks back on ticks 1..3, which hold the first battle; tick 5 on 2..4.
    expect(re[3]!.battles).toEqual([])
    expect(re[4]!.battles).toEqual([{ a: 'a', b: 'b', initiated: 5, bids: null, spent: null, winner: null }])
    const zero = states(
      'spaaace 1\nterms battleCooldown=0\nplayer a\nplayer b\nplayer c\n' +
        ticks(['a: move 2; attack b', 'c: move 2'], ['a: bid 0; attack c', 'b: bid 0']),
    )
    expect(zero[1]!.battles.map((b) => [b.a, b.b, b.initiated])).toEqual([
      ['a', 'b', 1],
      ['a', 'c', 2],
    ])
  })

  it('S-41: a combatant that does not bid, withholds or is malformed bids 0; a combatant removed first voids the battle', () => {
    const s = last(HEADER3 + ticks(['a: move 2; attack b'], ['a: bid 3']))
    expect(s.battles[0]).toMatchObject({ bids: [3, 0], spent: [3, 0], winner: 'a' })
    expect(last(HEADER3 + ticks(['a: move 2; attack b'], ['a: withheld', 'b: bid 1'])).battles[0]).toMatchObject({
      bids: [0, 1],
      winner: 'b',
    })
    expect(last(HEADER3 + ticks(['a: move 2; attack b'], ['a: bid 2', 'b: bid 99'])).battles[0]).toMatchObject({
      bids: [2, 0],
      winner: 'a',
    })
    const v = states(HEADER3 + ticks(['a: move 2; attack b', 'b: nonsense'], ['a: bid 5']))
    expect(v[0]!.battles).toEqual([{ a: 'a', b: 'b', initiated: 1, bids: null, spent: null, winner: null }])
    expect(ship(v[0]!, 'a').engaging).toBe(false)
    expect(v[1]!.battles).toEqual([])
    // The void battle still counts as initiated (S-40): a is cooling down in tick 2.
    expect(last(HEADER3 + ticks(['a: move 2; attack b', 'b: nonsense'], ['a: attack c', 'c: move 2'])).battles).toEqual(
      [],
    )
  })

  it('S-42: golden cases from the 2019 battle table (armour 10, enough energy): the bigger spender wins', () => {
    const table: [number, number, 0 | 1][] = [
      [0, 20, 1],
      [10, 0, 0],
      [11, 0, 0],
      [20, 0, 0],
      [20, 0, 0],
      [19, 0, 0],
    ]
    for (const [x, y, w] of table)
      expect(resolveBattle(armed, armed, [x, y])).toMatchObject({ spent: [x, y], winner: w })
    const out = resolveBattle(armed, armed, [20, 0])
    expect(out.ships[1]).toEqual({ sector: 1, armour: 0, energy: 20, engaging: false })
    expect(out.ships[0]).toEqual({ sector: 1, armour: 10, energy: 0, engaging: false })
  })

  it('S-42: spending is cut to energy, armour loss to armour; equal spending has no winner', () => {
    expect(resolveBattle({ ...armed, energy: 5 }, armed, [20, 4])).toMatchObject({ spent: [5, 4], winner: 0 })
    expect(resolveBattle({ ...armed, armour: 1 }, armed, [20, 20])).toMatchObject({ spent: [20, 20], winner: null })
    expect(resolveBattle({ ...armed, armour: 1 }, armed, [20, 20]).ships.map((s) => s.armour)).toEqual([0, 0])
  })

  it('S-43: the winner gains fame against the infamous and loses it otherwise; the loser moves toward 0; bounds hold', () => {
    expect(fameAfter(0, 0)).toEqual([-1, 0])
    expect(fameAfter(0, -3)).toEqual([1, -2])
    expect(fameAfter(5, 2)).toEqual([4, 1])
    expect(fameAfter(10, -1)).toEqual([10, 0])
    expect(fameAfter(-10, 0)).toEqual([-10, 0])
    const s = last(HEADER3 + ticks(...fight(1, 0)))
    expect([player(s, 'a').fame, player(s, 'b').fame]).toEqual([-1, 0])
  })
})

describe('fame and the end', () => {
  const famous = (): GameState => withFame(genesis(3), [10, 0, 0])
  const claimA = (): Submission[] => [O({ claim: true }), O(), O()]

  it('S-50: a claim at fame 10 wins at the end of tick t + 2 if the claimant stays pilotable and famous', () => {
    let s = playTick(famous(), claimA())
    expect(s.state.claims.map((c) => [c.player, c.tick])).toEqual([[0, 1]])
    s = playTick(s.state, claimA())
    expect(s.events).toContainEqual({ kind: 'claim', player: 0, made: false, why: 'its claim stands' })
    s = playTick(s.state, idle())
    expect(s.state).toMatchObject({ ended: true, winners: [0], claims: [] })
  })

  it('S-50: any attack on the claimant stops the claim; the claim still stands until it lapses', () => {
    let s = playTick(famous(), [O({ claim: true }), O({ move: [1], attack: 0 }), O()])
    expect(s.state.claims).toHaveLength(1)
    s = playTick(s.state, [O({ bid: 0 }), O({ bid: 0 }), O()])
    s = playTick(s.state, idle())
    expect(s.state).toMatchObject({ ended: false, winners: [], claims: [] })
  })

  it('S-50: below 10 a claim has no effect; -10 claims only under infamyWins', () => {
    expect(playTick(withFame(genesis(3), [9]), claimA()).state.claims).toEqual([])
    expect(playTick(withFame(genesis(3), [-10]), claimA()).state.claims).toEqual([])
    let s = playTick(withFame(genesis(3, { ...DEFAULT_TERMS, infamyWins: true }), [-10]), claimA())
    s = playTick(playTick(s.state, idle()).state, idle())
    expect(s.state.winners).toEqual([0])
  })

  it('S-50: claims that win in the same tick win together', () => {
    const s = playTick(withFame(genesis(3), [10, 10, 0]), [O({ claim: true }), O({ claim: true }), O()])
    expect(playTick(playTick(s.state, idle()).state, idle()).state.winners).toEqual([0, 1])
  })

  it('S-51: at maxTicks the active players with the greatest positive fame win together; else nobody', () => {
    const terms = { ...DEFAULT_TERMS, maxTicks: 1 }
    expect(playTick(withFame(genesis(3, terms), [3, 3, 1]), idle()).state).toMatchObject({
      ended: true,
      winners: [0, 1],
    })
    expect(playTick(withFame(genesis(3, terms), [0, -1, 0]), idle()).state).toMatchObject({ ended: true, winners: [] })
    const r = refereeOf('spaaace 1\nterms maxTicks=2\nplayer a\nplayer b\nplayer c\n' + ticks([], [], []))
    expect(r.ticks.map((t) => JSON.parse(t.json) as { ended: boolean }).map((x) => x.ended)).toEqual([false, true])
    expect(r.error?.message).toMatch(/after the game ended/)
  })
})

describe('one tick, offences, absence', () => {
  it('S-60: revealed orders that do not match the commitment are an offence (rule S-60) with the S-62 penalty', () => {
    const s = last(HEADER3 + ticks(['b: mismatch']))
    expect(s.offences).toEqual([{ player: 'b', rule: 'S-60' }])
    expect(player(s, 'b')).toEqual({ coins: 6, fame: 0, status: 'removed', absent: 1 })
    expect(ship(s, 'b')).toEqual({ sector: 2, armour: 0, energy: 0, engaging: false })
  })

  it('S-61: committing nothing is the empty set and counts toward absence', () => {
    const s = last(HEADER3 + ticks(['a: -', 'b: -']))
    expect(player(s, 'c')).toEqual({ coins: 11, fame: 0, status: 'active', absent: 1 })
    expect(player(s, 'a').absent).toBe(0)
  })

  it('S-62: withholding empties the energy, fines withholdFine as far as coins go, moves fame toward 0', () => {
    const g = playTick(withFame(genesis(3, { ...DEFAULT_TERMS, withholdFine: 12 }), [3]), [
      { kind: 'withheld' },
      O(),
      O(),
    ])
    expect(g.state.players[0]).toEqual({ coins: 0, fame: 2, status: 'active', absent: 1 })
    expect(g.state.ships[0]?.energy).toBe(0)
    expect(g.offences).toEqual([])
  })

  it('S-70: steps in order: income before purchases, repair before purchase, moves before initiations', () => {
    const s = states(HEADER3 + ticks(...fight(10, 5), ['b: repair 1; buy 1']))
    expect(ship(s[2]!, 'b')).toEqual({ sector: 2, armour: 1, energy: 16, engaging: false })
    expect(player(s[2]!, 'b').coins).toBe(10)
    const poor = last(
      'spaaace 1\nterms coins=0 income=2\nplayer a\nplayer b\nplayer c\n' + ticks(['a: move 2 3 4 5'], ['a: buy 1']),
    )
    expect([ship(poor, 'a').energy, player(poor, 'a').coins]).toEqual([19, 2])
  })

  it('S-80: an equivocation is an offence: empty set, fame toward 0, no fine, removed at step 9', () => {
    const s = last(HEADER3 + ticks(['c: equivocated']))
    expect(s.offences).toEqual([{ player: 'c', rule: 'S-80' }])
    expect(player(s, 'c')).toEqual({ coins: 11, fame: 0, status: 'removed', absent: 1 })
    expect(ship(s, 'c')).toEqual({ sector: 3, armour: 0, energy: 20, engaging: false })
  })

  it("S-81: absentTicks consecutive ticks without orders remove a player; its declarations lapse, others' stand", () => {
    const s = states(HEADER3 + ticks(['a: ally c', 'c: ally a'], ['a: -'], ['a: -'], ['a: -']))
    expect(s.map((x) => player(x, 'c').absent)).toEqual([0, 1, 2, 3])
    expect(player(s[2]!, 'c').status).toBe('active')
    expect(player(s[3]!, 'c').status).toBe('removed')
    expect(s[3]!.declarations).toEqual([['a', 'c']])
    expect(s[3]!.alliances).toEqual([])
    expect(ship(s[3]!, 'c').armour).toBe(0)
  })

  it('S-82: fewer than two active players end the game; the one left wins', () => {
    expect(last(HEADER3 + ticks(['a: x', 'b: x']))).toMatchObject({ ended: true, winners: ['c'] })
    expect(last(HEADER3 + ticks(['a: x', 'b: x', 'c: x']))).toMatchObject({ ended: true, winners: [] })
  })

  it('S-90: terms are fixed at genesis and bounded: out of range, twice, unknown, or a second terms line are record errors', () => {
    expect(refereeOf('spaaace 1\nterms maxTicks=0\n').error).toEqual({
      line: 2,
      message: expect.stringContaining('S-90') as string,
    })
    expect(refereeOf('spaaace 1\nterms coins=1 coins=2\n').error?.message).toMatch(/twice/)
    expect(refereeOf('spaaace 1\nterms gravity=9\n').error?.line).toBe(2)
    expect(refereeOf('spaaace 1\nterms coins=1\nterms income=2\n').error?.line).toBe(3)
    expect(refereeOf(`${HEADER3}tick 1\nterms coins=99\n`).error?.line).toBe(6)
    expect(() => genesis(3, { ...DEFAULT_TERMS, rematchTicks: 0 })).toThrow(/S-90/)
  })
})
