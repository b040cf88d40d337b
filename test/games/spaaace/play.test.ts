/**
 * `spaceships spaaace play`: one person against bots at the terminal, driven in-process by a
 * scripted prompter; the game replayed independently through the engine with the same orders and
 * seeds; the record it writes refereed to the same closing states (rules appendix).
 */
import { describe, expect, it } from 'vitest'
import { sensibleBot } from '../../../src/games/spaaace/bot/sensible.js'
import { closingStateJson } from '../../../src/games/spaaace/referee/json.js'
import { seededRng } from '../../../src/games/spaaace/referee/random.js'
import { referee } from '../../../src/games/spaaace/referee/referee.js'
import { parseOrderSet } from '../../../src/games/spaaace/rules/orders.js'
import { genesis } from '../../../src/games/spaaace/rules/state.js'
import { playTick, type TickOutcome } from '../../../src/games/spaaace/rules/tick.js'
import { DEFAULT_TERMS, type Submission } from '../../../src/games/spaaace/rules/types.js'
import { cli } from '../../cli.js'
import { scripted } from './helpers.js'

const LABELS = ['you', 'bot2', 'bot3', 'bot4']

/** The game replayed with the engine alone: the person's orders as given, each bot from seededRng(`${seed}/${i}`). */
function replay(seed: string, ticks: number, person: readonly string[]): TickOutcome {
  const bots = LABELS.map((_, i) => ({ bot: sensibleBot(), rng: seededRng(`${seed}/${i}`) }))
  let state = genesis(4, { ...DEFAULT_TERMS, maxTicks: ticks })
  let last: TickOutcome | undefined
  for (let t = 0; !state.ended; t++) {
    const now = state
    const subs = LABELS.map((_, i): Submission => {
      if (now.players[i]?.status !== 'active') return { kind: 'missing' }
      if (i === 0) {
        const p = parseOrderSet(person[t] ?? '', LABELS, 0, 6)
        return p.ok ? { kind: 'orders', orders: p.orders } : { kind: 'orders', orders: EMPTY }
      }
      const b = bots[i]!
      return { kind: 'orders', orders: b.bot.orders({ self: i, state: now }, b.rng) }
    })
    last = playTick(now, subs)
    state = last.state
  }
  if (last === undefined) throw new Error('no tick played')
  return last
}
const EMPTY = { repair: null, buy: null, move: null, attack: null, bid: null, claim: false, alliances: [] }

/** "  1. bot2 (sensible)  fame   3  coins   40  active  winner" as [name, fame, coins, status]. */
function standingRows(out: string): [string, number, number, string][] {
  return [...out.matchAll(/^ +\d+\. (.+?) +fame +(-?\d+) +coins +(\d+) +(active|removed)/gm)].map((m) => [
    m[1]!,
    Number(m[2]),
    Number(m[3]),
    m[4]!,
  ])
}

describe('spaceships spaaace play', () => {
  it('a scripted person against three sensible bots to the end: help, an illegal set re-prompted, and the standings of an independent replay', async () => {
    const s = scripted([
      ['help'],
      // Energy is full at the start: the note says so, and Enter sends the orders as they are.
      ['buy 2'],
      [''],
      ['attack you', 'move 2'],
      ['ally bot2; ally bot3; ally bot4'],
      ['bid -1', 'move 1 2; bid 3'],
      // Then empty lines: no orders, to the end.
    ])
    const r = await cli(
      ['spaaace', 'play', '--offline', '--bots', '3', '--seed', 't1', '--ticks', '8', '--out', 'g.rec'],
      {},
      {
        prompter: () => s.prompter,
      },
    )
    expect(r.code, r.err).toBe(0)
    expect(r.err).toBe('')
    // One prompt per tick, one more after help, and one more after each set with notes.
    const tick = (t: number): string => `Your orders for tick ${t} (help, quit):`
    expect(s.asked).toEqual([tick(1), tick(1), tick(1), tick(2), tick(3), tick(4), tick(4), ...[5, 6, 7, 8].map(tick)])
    expect(r.out).toContain('Note: buy 2 does nothing: your energy is full (S-32, S-38).\nPress Enter to send these')
    // The illegal sets were refused as typed, each with its reason in one line (S-37).
    expect(s.told).toEqual([
      'attack you -> "you" names its author (S-37)',
      'bid -1 -> bid N -1 is outside 0..20 (S-37)',
    ])
    // help showed the guide (S-37) before the first orders.
    expect(r.out).toContain('Orders (S-30..S-37): items separated by ";"')
    expect(r.out).toContain('  you move 1 -> 2 (S-33).')
    expect(r.out).toContain('Spaaace! tick 8 of 8 (S-02, S-51), 4 players')
    for (const line of r.out.split('\n')) expect(Array.from(line).length, line).toBeLessThanOrEqual(100)

    const person = ['buy 2', 'move 2', 'ally bot2; ally bot3; ally bot4', 'move 1 2; bid 3']
    const last = replay('t1', 8, person)
    const end = last.state
    expect(end.ended).toBe(true)
    expect(end.tick).toBe(8)
    // The printed standings are the replay's: fame, coins and status of each player (S-51).
    const rows = standingRows(r.out)
    const names = ['you', 'bot2 (sensible)', 'bot3 (sensible)', 'bot4 (sensible)']
    expect(rows.map((x) => x[0]).sort()).toEqual([...names].sort())
    for (const [name, fame, coins, status] of rows) {
      const p = end.players[names.indexOf(name)]!
      expect([fame, coins, status], name).toEqual([p.fame, p.coins, p.status])
    }
    const winners = end.winners.map((w) => names[w])
    expect(r.out).toContain(
      winners.length === 0
        ? '\nNobody wins.\n'
        : `${winners.length === 1 ? 'Winner' : 'Winners'}: ${winners.join(', ')}.`,
    )
    // The record is refereed to the replay's closing state, tick for tick to the last.
    const record = r.files['g.rec']!
    expect(record).toMatch(
      /^spaaace 1\n# spaceships spaaace play --bots 3 --bot sensible --ticks 8 --seed t1\nterms maxTicks=8\nplayer you\n/,
    )
    expect(record).toContain('tick 2\nyou: move 2\n')
    const refereed = referee(record)
    expect(refereed.error).toBeNull()
    expect(refereed.ticks).toHaveLength(8)
    expect(refereed.ticks.at(-1)!.json).toBe(closingStateJson(last, LABELS))
    expect(r.out).toMatch(/The game's record: g\.rec \(check it: (npx )?spaceships spaaace referee g\.rec\)/)
  })

  it('quit abandons the game (exit 4), and the record of the ticks played is a valid, unfinished one', async () => {
    const s = scripted([['move 2'], ['quit']])
    const r = await cli(
      ['spaaace', 'play', '--offline', '--seed', 'q', '--out', 'q.rec'],
      {},
      { prompter: () => s.prompter },
    )
    expect(r.code).toBe(4)
    expect(r.out).toContain('You quit in tick 2: the game is abandoned.')
    expect(r.out).toContain('The game did not end: nobody wins.')
    const refereed = referee(r.files['q.rec']!)
    expect(refereed.error).toBeNull()
    expect(refereed.ticks).toHaveLength(1)
  })

  it('--autoplay --json: the closing states are the referee --json lines of the record written, then the result', async () => {
    const r = await cli([
      'spaaace',
      'play',
      '--offline',
      '--autoplay',
      '--json',
      '--bot',
      'mix',
      '--seed',
      'j',
      '--ticks',
      '12',
      '--out',
      'j.rec',
    ])
    expect(r.code, r.err).toBe(0)
    const lines = r.out.trimEnd().split('\n')
    const result = JSON.parse(lines.pop()!) as {
      seed: string
      winners: string[]
      standings: { label: string }[]
      record: string
    }
    expect(result.seed).toBe('j')
    expect(result.record).toBe('j.rec')
    expect(result.standings).toHaveLength(4)
    const ref = await cli(['spaaace', 'referee', '--json', 'j.rec'], { 'j.rec': r.files['j.rec']! })
    expect(ref.code).toBe(0)
    expect(lines).toEqual(ref.out.trimEnd().split('\n'))
    expect(r.files['j.rec']).toMatch(/\nplayer bot2\nplayer bot3\nplayer bot4\n/)
    expect(lines.at(-1)).toMatch(/"ended":true}$/)
  })

  it('--autoplay --bots 15: a 16-player game of 60 ticks ends in bounded time', async () => {
    const t0 = performance.now()
    const r = await cli([
      'spaaace',
      'play',
      '--offline',
      '--autoplay',
      '--bots',
      '15',
      '--seed',
      'big',
      '--out',
      'big.rec',
    ])
    const ms = performance.now() - t0
    expect(r.code, r.err).toBe(0)
    expect(r.out).toContain('Standings after tick 60')
    expect(standingRows(r.out)).toHaveLength(16)
    expect(ms).toBeLessThan(20_000)
    for (const line of r.out.split('\n')) expect(Array.from(line).length, line).toBeLessThanOrEqual(100)
  }, 60_000)

  it('bad flags and no terminal: one line, exit 64', async () => {
    const noTty = await cli(['spaaace', 'play', '--offline', '--seed', 'n'])
    expect(noTty.code).toBe(64)
    expect(noTty.err).toMatch(/standard input is not one; --autoplay lets a sensible bot play your seat\n$/)
    for (const args of [
      ['--bots', '1'],
      ['--bots', '16'],
      ['--bot', 'clever'],
      ['--ticks', '0'],
    ]) {
      const r = await cli(['spaaace', 'play', '--offline', '--autoplay', ...args])
      expect(r.code, args.join(' ')).toBe(64)
      expect(r.err.trimEnd().split('\n'), args.join(' ')).toHaveLength(1)
    }
  })
})
