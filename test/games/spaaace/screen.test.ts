/**
 * The Spaaace! terminal screen (src/games/spaaace/ui/screen.ts): a known state rendered exactly,
 * what happened told in words (describeTick), the guide to the order syntax (S-37), and the width.
 */
import { describe, expect, it } from 'vitest'
import { genesis } from '../../../src/games/spaaace/rules/state.js'
import { playTick } from '../../../src/games/spaaace/rules/tick.js'
import { ORDER_WORDS, parseOrderSet } from '../../../src/games/spaaace/rules/orders.js'
import type { GameState, Submission } from '../../../src/games/spaaace/rules/types.js'
import { orderGuide, renderScreen, standingsLines, tellTick, type Seat } from '../../../src/games/spaaace/ui/screen.js'

const SEATS: Seat[] = [
  { label: 'you' },
  { label: 'bot2', bot: 'sensible' },
  { label: 'bot3', bot: 'random' },
  { label: 'bot4', bot: 'sensible' },
]
const LABELS = SEATS.map((s) => s.label)

function orders(text: string, self: number): Submission {
  const p = parseOrderSet(text, LABELS, self, 6)
  if (!p.ok) throw new Error(p.reason)
  return { kind: 'orders', orders: p.orders }
}

/** Tick 1: you move to sector 2 and attack bot2 there; bot2 declares for you; bot3 and bot4 ally; bot4 moves to 5. */
const TICK1 = playTick(genesis(4), [
  orders('move 2; attack bot2', 0),
  orders('ally you', 1),
  orders('ally bot4', 2),
  orders('ally bot3; move 5', 3),
])

/** The closing state of tick 1, with bot4 at fame 10 and its claim of tick 1 standing (S-50), bot3 defeated. */
const STATE: GameState = {
  ...TICK1.state,
  players: TICK1.state.players.map((p, i) => (i === 3 ? { ...p, fame: 10 } : i === 2 ? { ...p, fame: -2 } : p)),
  ships: TICK1.state.ships.map((s, i) => (i === 2 ? { ...s, armour: 0 } : s)),
  claims: [{ player: 3, tick: 1, fame: 10, intact: true }],
}

describe('the Spaaace! screen (src/games/spaaace/ui/screen.ts)', () => {
  it('among people the header says when orders are due on the wall clock beside the time left (the prompt below counts down)', () => {
    const due = new Date(2026, 10, 27, 8, 12, 31).getTime()
    const [head] = renderScreen({ state: STATE, seats: SEATS, viewer: 0, timeLeftMs: 17_000, dueAt: due, columns: 100 })
    expect(head).toBe('Spaaace! tick 2 of 60 (S-02, S-51), 4 players · orders due at 08:12:31 (17 s left)')
  })

  it('renders a known state exactly, each element citing its rule', () => {
    const lines = renderScreen({ state: STATE, seats: SEATS, viewer: 0, timeLeftMs: 65_000, columns: 80 })
    expect(lines).toEqual([
      // The tick ordered now and the last (S-02, S-51); the time left, when a deadline is given.
      'Spaaace! tick 2 of 60 (S-02, S-51), 4 players · 1 min 05 s left',
      // The galaxy, a line of players + 2 sectors (S-10), every ship placed with armour/energy (S-22),
      // engaging (S-23) and defeated (S-22) marked.
      'Sectors 1..6 (S-10), ships as armour/energy: * engaging (S-23), x defeated',
      '    (S-22), r removed (S-81):',
      '  1 . | 2 you 10/19* bot2 10/20* | 3 bot3 0/20x | 4 . | 5 bot4 10/19 | 6 .',
      // Coins (S-24), fame (S-43), active or removed (S-03), and a standing claim (S-50).
      'Players            coins  fame  status (S-24, S-43, S-03)',
      '  you                 11     0  active',
      '  bot2 (sensible)     11     0  active',
      '  bot3 (random)       11    -2  active',
      '  bot4 (sensible)     11    10  active, claim standing',
      // Allied pairs (S-04) and one-way declarations (S-31).
      'Alliances (S-04): bot3 & bot4',
      'Declared, not returned (S-31): bot2 -> you',
      // Battles initiated last tick, resolved this tick on the bids (S-41, S-42).
      'Battles awaiting bids this tick (S-41, S-42): you against bot2 in sector 2',
      // Claims standing and when they win (S-50).
      'Claims (S-50): bot4 (made in tick 1; wins at the end of tick 3 if its fame stays',
      '    10 and its ship pilotable)',
      // What the viewer's orders can do this tick: its bid (S-41, S-42), and its ship engaging (S-23).
      'You: sector 2, armour 10/10, energy 19/20, coins 11, fame 0.',
      'Your battle with bot2 awaits your bid (S-41): "bid N" spends min(N, your 19',
      '    energy), bot2 has 20; whoever spends more wins (S-42); no bid bids 0.',
      'Your ship is engaging (S-23): no repair, purchase or move of yours takes effect',
      '    this tick (S-30, S-32, S-33).',
    ])
  })

  it("a pilotable ship's moves and attacks (S-33, S-40: allies excluded, S-04), and a claim at fame 10 (S-50)", () => {
    const g = genesis(4)
    const allied: GameState = {
      ...g,
      ships: g.ships.map((s, i) => (i === 1 || i === 2 ? { ...s, sector: 1 } : s)),
      players: g.players.map((p, i) => (i === 0 ? { ...p, fame: 10 } : p)),
      declarations: [
        [0, 2],
        [2, 0],
      ],
    }
    const lines = renderScreen({ state: allied, seats: SEATS, viewer: 0, columns: 100 })
    // No deadline, no clock.
    expect(lines[0]).toBe('Spaaace! tick 1 of 60 (S-02, S-51), 4 players')
    // S-81: a removed player is counted out of those who play (found by a new-user pass).
    const removed = {
      ...allied,
      players: allied.players.map((p, i) => (i === 3 ? { ...p, status: 'removed' as const } : p)),
    }
    expect(renderScreen({ state: removed, seats: SEATS, viewer: 0, columns: 100 })[0]).toBe(
      'Spaaace! tick 1 of 60 (S-02, S-51), 4 players, 3 active',
    )
    expect(lines.slice(-3)).toEqual([
      'You may move to 2 (1 energy a step, S-33); attack here: bot2 (S-40); allied with bot3, whom you',
      '    cannot attack (S-04).',
      'Your fame is 10: you may claim the win (S-50).',
    ])
  })

  it("says what 'not pilotable' means (defeated or engaging, S-22, S-23): an attack on an engaging ship", () => {
    const outcome = {
      ...TICK1,
      events: [{ kind: 'attack', player: 3, target: 0, sector: 2, refused: 'target not pilotable' }],
    } as unknown as typeof TICK1
    expect(tellTick(outcome, SEATS, 0, 80).join(' ').replace(/\s+/g, ' ')).toContain(
      "bot4's attack on you has no effect: the target is not pilotable (defeated or engaging, S-22, S-23) (S-40).",
    )
  })

  it('tells a tick in words (describeTick, S-70), the viewer in the second person', () => {
    expect(tellTick(TICK1, SEATS, 0, 80)).toEqual([
      'tick 1',
      '  bot2 declares alliance with you (S-31).',
      '  bot3 declares alliance with bot4 (S-31).',
      '  bot4 declares alliance with bot3 (S-31).',
      '  you move 1 -> 2 (S-33).',
      '  bot4 moves 4 -> 5 (S-33).',
      '  you attack bot2 in sector 2; the battle awaits bids next tick (S-40).',
      '  = you: sector 2, armour 10, energy 19, coins 11, fame 0, engaging',
      '  = bot2: sector 2, armour 10, energy 20, coins 11, fame 0, engaging',
      '  = bot3: sector 3, armour 10, energy 20, coins 11, fame 0',
      '  = bot4: sector 5, armour 10, energy 19, coins 11, fame 0',
    ])
    // Seen by bot2, the same tick reads in its labels (describeTick's own words).
    expect(
      tellTick(
        TICK1,
        SEATS.map((s, i) => (i === 0 ? { label: 'alice' } : s)),
        1,
        80,
      )[4],
    ).toBe('  alice moves 1 -> 2 (S-33).')
  })

  it('the viewer’s own penalty, removal and break read in the second person; the end reads whole (S-62, S-81, S-82)', () => {
    const outcome = {
      ...TICK1,
      events: [
        { kind: 'penalty' as const, player: 0, cause: 'withheld' as const, fine: 1, energyLost: 2 },
        { kind: 'declare' as const, player: 0, other: 1, made: 'break' as const, changed: true },
        { kind: 'removed' as const, player: 0, cause: 'absence' as const },
        { kind: 'removed' as const, player: 2, cause: 'absence' as const },
        { kind: 'end' as const, winners: [1], cause: 'last' as const },
      ],
    }
    expect(tellTick(outcome, SEATS, 0, 200).slice(1, 6)).toEqual([
      '  you withheld your orders: energy 2 lost, fine 1 coins, fame toward 0 (S-62).',
      '  you break your declaration for bot2 (S-31).',
      '  you are removed for absence (S-81); your ship is defeated.',
      '  bot3 is removed for absence (S-81); its ship is defeated.',
      '  The game ends with fewer than two active players (S-82): bot2 wins.',
    ])
  })

  it('the guide names every order word of S-37, in ORDER_WORDS order', () => {
    const guide = orderGuide(80)
    const words = guide.flatMap((l) => /^ {2}([a-z]+) /.exec(l)?.[1] ?? [])
    expect(words.filter((w) => (ORDER_WORDS as readonly string[]).includes(w))).toEqual([...ORDER_WORDS])
    expect(guide[0]).toMatch(/^Orders \(S-30\.\.S-37\): items separated by ";"/)
  })

  it('standings: fame first, equal fame sharing a place, listed in roster order (S-51)', () => {
    expect(standingsLines(STATE, SEATS, 0, 80)).toEqual([
      'Standings after tick 1 (fame first, S-43, S-51):',
      '   1. bot4 (sensible)  fame  10  coins   11  active',
      '   2. you              fame   0  coins   11  active',
      '   2. bot2 (sensible)  fame   0  coins   11  active',
      '   4. bot3 (random)    fame  -2  coins   11  active',
      'The game did not end: nobody wins.',
    ])
  })

  it('every line fits the width: 16 players at 60, 80 and 100 columns', () => {
    const seats: Seat[] = Array.from({ length: 16 }, (_, i) =>
      i === 0 ? { label: 'you' } : { label: `bot${i + 1}`, bot: 'sensible' },
    )
    const g = genesis(16)
    const busy: GameState = {
      ...g,
      declarations: seats.flatMap((_, p) => seats.flatMap((__, q) => (p === q ? [] : [[p, q] as const]))),
      claims: seats.slice(1).map((_, k) => ({ player: k + 1, tick: 0, fame: 10, intact: true })),
    }
    for (const columns of [60, 80, 100]) {
      const lines = [
        ...renderScreen({ state: busy, seats, viewer: 0, columns, timeLeftMs: 3_600_000 }),
        ...orderGuide(columns),
        ...standingsLines(busy, seats, 0, columns),
      ]
      for (const l of lines) expect(Array.from(l).length, l).toBeLessThanOrEqual(columns)
    }
  })

  it('absence counted before it removes (S-81): each absent player noted, and the viewer warned at the tick that would remove it', () => {
    // absentTicks 3 (the default): you absent twice, bot2 once, the others present.
    const terms = STATE.terms
    expect(terms.absentTicks).toBe(3)
    const state: GameState = {
      ...STATE,
      players: STATE.players.map((p, i) => ({ ...p, absent: i === 0 ? 2 : i === 1 ? 1 : 0 })),
    }
    const lines = renderScreen({ state, seats: SEATS, viewer: 0, columns: 100 })
    expect(lines).toContain('  you                 11     0  active, absent 2 of 3 (S-81)')
    expect(lines).toContain('  bot2 (sensible)     11     0  active, absent 1 of 3 (S-81)')
    expect(lines).toContain('  bot3 (random)       11    -2  active')
    // The words as read, whatever the wrapping.
    const words = (l: string[]): string => l.join(' ').replace(/\s+/g, ' ')
    expect(words(lines)).toContain(
      'You have been absent the last 2 ticks (no orders of yours counted, S-61, S-62): if your orders do not count this tick too, you are removed (S-81).',
    )
    // One absence: two more remove; none: nothing said.
    expect(words(renderScreen({ state, seats: SEATS, viewer: 1, columns: 100 }))).toContain(
      'You have been absent the last tick (no orders of yours counted, S-61, S-62); 2 more in a row remove you (S-81).',
    )
    expect(words(renderScreen({ state, seats: SEATS, viewer: 2, columns: 100 }))).not.toMatch(/absent the last/)
  })
})
