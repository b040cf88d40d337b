/**
 * What a person's orders cannot do, said before they are sent (src/games/spaaace/ui/game.ts
 * `orderNotes`): only what follows from the player's own state (S-70 steps 2 to 4), each note
 * citing its rule, and nothing for an order that takes effect.
 */
import { describe, expect, it } from 'vitest'
import { parseOrderSet } from '../../../src/games/spaaace/rules/orders.js'
import { genesis, isAdjacent, sectorCount, wormholeOf } from '../../../src/games/spaaace/rules/state.js'
import { type GameState, LIMITS } from '../../../src/games/spaaace/rules/types.js'
import { orderNotes } from '../../../src/games/spaaace/ui/game.js'

const LABELS = ['you', 'bot2', 'bot3', 'bot4']
const notes = (state: GameState, text: string): string[] => {
  const p = parseOrderSet(text, LABELS, 0, sectorCount(4))
  if (!p.ok) throw new Error(p.reason)
  return orderNotes(state, 0, p.orders)
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
      `repair 5 gives ${Math.floor((1 + income) / LIMITS.armourPrice)} (the cap or your coins, S-30, S-38).`,
    ])
  })
})
