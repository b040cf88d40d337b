/**
 * What a person's orders cannot do, said before they are sent (src/games/spaaace/ui/game.ts
 * `orderNotes`): only what follows from the player's own state (S-70 steps 2 to 4), each note
 * citing its rule, and nothing for an order that takes effect.
 */
import { describe, expect, it } from 'vitest'
import { parseOrderSet } from '../../../src/games/spaaace/rules/orders.js'
import { genesis, isAdjacent, sectorCount, wormholeOf } from '../../../src/games/spaaace/rules/state.js'
import { type GameState, LIMITS } from '../../../src/games/spaaace/rules/types.js'
import { answerNotes, orderNotes } from '../../../src/games/spaaace/ui/game.js'
import { renderScreen } from '../../../src/games/spaaace/ui/screen.js'

const LABELS = ['you', 'bot2', 'bot3', 'bot4']
const notes = (state: GameState, text: string): string[] => {
  const p = parseOrderSet(text, LABELS, 0, sectorCount(4))
  if (!p.ok) throw new Error(p.reason)
  return orderNotes(state, 0, p.orders, LABELS)
}

describe('order notes (S-30, S-32, S-33, S-38, S-41)', () => {
  const g = genesis(4)
  const from = g.ships[0]?.sector ?? 1
  const wormhole = wormholeOf(g.terms, 4, 1)
  const sectors = Array.from({ length: sectorCount(4) }, (_, r) => r + 1)
  const far = sectors.find((r) => r !== from && !isAdjacent(from, r, wormhole)) ?? 0
  const near = sectors.find((r) => r !== from && isAdjacent(from, r, wormhole)) ?? 0

  it('a full ship: repair and buy do nothing (S-30, S-32, S-38); a bid with no battle awaiting does nothing (S-41)', () => {
    expect(notes(g, 'repair 2; buy 1; bid 3')).toEqual([
      'repair 2 does nothing: your armour is full (S-30, S-38).',
      'buy 1 does nothing: your energy is full (S-32, S-38).',
      'bid 3 does nothing: no battle awaits your bid this tick (S-41).',
    ])
  })

  it('a move to a sector not adjacent does not leave (S-33); one that goes on past the first step stops where it must', () => {
    expect(notes(g, `move ${far}`)).toEqual([
      `move ${far} does not leave sector ${from}: ${far} is not adjacent to ${from} (S-33).`,
    ])
    const beyond = sectors.find((r) => r !== near && !isAdjacent(near, r, wormhole)) ?? 0
    expect(notes(g, `move ${near} ${beyond}`)).toEqual([
      `move ${near} ${beyond} stops at sector ${near}: ${beyond} is not adjacent to ${near} (S-33).`,
    ])
  })

  it('orders that take effect, and those it cannot judge alone (attack, claim, alliances), get no note', () => {
    expect(notes(g, `move ${near}; ally bot2; attack bot3; claim`)).toEqual([])
    const poor: GameState = {
      ...g,
      players: g.players.map((p, i) => (i === 0 ? { ...p, coins: 1 } : p)),
      ships: g.ships.map((s, i) => (i === 0 ? { ...s, armour: 5 } : s)),
    }
    // Income first (S-24): 1 + the income buys what it can, and no more.
    const income = g.terms.income
    expect(notes(poor, 'repair 5')).toEqual([
      `repair 5 gives ${Math.floor((1 + income) / LIMITS.armourPrice)} (the cap or your coins, this tick's income included, S-30, S-38).`,
    ])
  })

  it("a battle awaiting the player's bid and no bid (S-41, S-42); a break with no declaration standing (S-31); a ship engaging (S-23); energy full only once the tick's is added (S-70 step 2)", () => {
    const waiting: GameState = {
      ...g,
      awaiting: [{ a: 0, b: 1, initiated: 0, bids: null, spent: null, winner: null, void: false }],
    }
    expect(notes(waiting, 'move 2')).toContain(
      'no bid: your battle with bot2 awaits your bid, and no bid bids 0 (S-41, S-42).',
    )
    expect(notes(waiting, 'bid 2')).toEqual([])
    // No orders at all ("-", or an empty line) is noted too: it bids nothing in the battle.
    for (const none of ['-', '', ' - '])
      expect(answerNotes(waiting, 0, none, LABELS)).toEqual([
        'no bid: your battle with bot2 awaits your bid, and no bid bids 0 (S-41, S-42).',
      ])
    expect(notes(g, 'break bot3')).toEqual([
      'break bot3 does nothing: you have no declaration for bot3 standing (S-31).',
    ])
    const allied: GameState = { ...g, declarations: [[0, 2]] }
    expect(notes(allied, 'break bot3')).toEqual([])
    const engaging: GameState = { ...g, ships: g.ships.map((s, i) => (i === 0 ? { ...s, engaging: true } : s)) }
    expect(notes(engaging, 'repair 1; buy 1; move 2')).toEqual([
      'repair 1 does nothing: your ship is engaging (S-23) (S-30, S-38).',
      'buy 1 does nothing: your ship is engaging (S-23) (S-32, S-38).',
      `move 2 does not leave sector ${from}: your ship is engaging (S-23) (S-33).`,
    ])
    const spent: GameState = {
      ...g,
      ships: g.ships.map((s, i) => (i === 0 ? { ...s, energy: LIMITS.maxEnergy - LIMITS.tickEnergy } : s)),
    }
    expect(notes(spent, 'buy 2')).toEqual([
      "buy 2 does nothing: your energy is full once this tick's energy is added (S-70 step 2) (S-32, S-38).",
    ])
  })

  it('an attack S-40 refuses from earlier ticks alone: a rematch, a cooldown; the screen offers neither as a target', () => {
    // Tick 3 next; you and bot2 fought in tick 1 (a rematch within 3 ticks, no cooldown after 1).
    const met: GameState = {
      ...g,
      tick: 2,
      initiations: [{ a: 0, b: 1, tick: 1 }],
      ships: g.ships.map((s, i) => (i === 1 ? { ...s, sector: g.ships[0]?.sector ?? 1 } : s)),
    }
    expect(notes(met, 'attack bot2')).toEqual([
      'attack bot2 does nothing: you fought bot2 too recently (rematch) (S-40).',
    ])
    expect(notes(met, 'attack bot3')).toEqual([])
    const fresh: GameState = { ...met, initiations: [{ a: 0, b: 2, tick: 2 }] }
    expect(notes(fresh, 'attack bot2')).toEqual([
      'attack bot2 does nothing: you or it fought too recently (cooldown) (S-40).',
    ])
    const screen = (st: GameState): string =>
      renderScreen({ state: st, seats: LABELS.map((label) => ({ label })), viewer: 0, columns: 100 }).join('\n')
    expect(screen(met)).not.toMatch(/attack here/)
    expect(screen({ ...met, initiations: [] })).toMatch(/attack here: bot2 \(S-40\)/)
  })
})
