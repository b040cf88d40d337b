import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { playRandomGame } from '../../src/games/spaceships/rules/enumerate.js'
import {
  type GameState,
  type TurnReport,
  matchScores,
  matchWinner,
  nextAdditional,
  playTurn,
} from '../../src/games/spaceships/rules/game.js'
import { formatRecord, parseRecord } from '../../src/games/spaceships/rules/record.js'
import { seededRandom } from '../../src/games/spaceships/rules/rng.js'
import { CLASSIC_RULESET, DEFAULT_RULESET, type Ruleset } from '../../src/games/spaceships/rules/ruleset.js'
import { remainingMateriel } from '../../src/games/spaceships/rules/state.js'
import { SETUP_A, SETUP_B, game, ruleset, turn } from '../helpers.js'

describe('termination and scoring (2.6.1 §2.3, C-25..C-27)', () => {
  it('C-25 §2.3.1: the game ends when a fleet is wholly destroyed; that turn still completes', () => {
    const r = ruleset('2.6.1 fleet=cost:2')
    const g = game('LG Rv1\nLG2 Rv3'.replace('LG Rv1', 'LG1 Rv1'), 'AG Rv1 Rv2', r)
    const t = turn(g, 'mRv1 Rv1 mRv3 Rv2', 'mRv1 Rv3')
    expect(t.report.end).toMatchObject({ reason: 'fleet-destroyed', by: [1], turn: 1, scores: [1, 0], winner: 0 })
    expect(t.report.players[1].destructions.map((d) => d.name)).toEqual(['AG'])
    expect(t.report.players[0].flashcube).toHaveLength(1)
  })

  it('C-25: both fleets destroyed at once is a 0-0 draw', () => {
    const r = ruleset('2.6.1 fleet=cost:1')
    const t = turn(game('LG Rv1', 'LG Rv1', r), 'mRv1 Rv1', 'mRv1 Rv1')
    expect(t.report.end).toMatchObject({ reason: 'fleet-destroyed', by: [0, 1], scores: [0, 0], winner: 'draw' })
  })

  it('C-26 §2.3.2: a player with only kamikaze and scans who records only scans ends the game at the end of the turn', () => {
    const r = ruleset('2.6.1 fleet=cost:3')
    const g = game('LS Rv1', 'LS Bz5', r)
    // Both have only scans; A scans, B does nothing: the game ends after turn 1, scores 1-1.
    const t = turn(g, 'sBz5', '')
    expect(t.report.end).toMatchObject({ reason: 'no-actions', by: [0, 1], turn: 1, scores: [1, 1], winner: 'draw' })
  })

  it("C-26: the opponent's actions that turn still resolve, and a kamikaze strike keeps the game going", () => {
    const r = ruleset('2.6.1 fleet=cost:3 allow=LS,LG,AG')
    const g = game('LS Rv1', 'AG Bz4 Bz5\nLG Rv5', r)
    const t = turn(g, 'sBz5', 'mRv5 Bz1')
    expect(t.report.end).toMatchObject({ reason: 'no-actions', by: [0], scores: [1, 3] })
    // B with only kamikaze options who kamikazes: the game goes on (it recorded more than scans).
    const kc = game(
      'DS Rv1 Rv2 Rw1 Rw2 Ov1 Ov2 Ow1 Ow2\nKC Rv4 Rv5 Rw4 Rw5 Rx4 Rx5\nFS Bv1 Bv2 Bw1 Bw2\nMD Bz1 Bz2 Bz3\nLS Yy3',
      SETUP_B,
    )
    expect(turn(kc, '', '').report.end).toBeUndefined() // A still has strikes available: no C-26
  })

  it('C-26: a player who still has strikes but records nothing does not end the game', () => {
    expect(turn(game(SETUP_A, SETUP_B), '', '').report.end).toBeUndefined()
  })

  it('C-26 classic §2.3.2: without scans, recording nothing with only kamikaze left ends the game', () => {
    const classic =
      'DS Rv1 Rv2 Rw1 Rw2 Ov1 Ov2 Ow1 Ow2\nKC Rv4 Rv5 Rw4 Rw5 Rx4 Rx5\nFS Bv1 Bv2 Bw1 Bw2\nMD Bz1 Bz2 Bz3\nHF Yy3 Yy4'
    let g = game(classic, classic, CLASSIC_RULESET)
    const gone = 'Rv1 Rv2 Rw1 Rw2 Ov1 Ov2 Ow1 Ow2 Rv4 Rv5 Rw4 Rw5 Rx4 Rx5 Bv1 Bv2 Bw1 Bw2 Bz2 Yy4'
    g = {
      ...g,
      players: [
        g.players[0],
        {
          ...g.players[1],
          destroyed: g.players[1].destroyed.map((_, i) => (gone.split(' ').some((n) => cellIndex(n) === i) ? 1 : 0)),
        },
      ],
    }
    // B: MD Bz1, Bz3 unfired missiles -> not idle yet. Fire both, over two turns.
    g = turn(g, '', 'mBz1 Gz5').game
    g = turn(g, '', 'mBz3 Gz5').game
    const t = turn(g, '', '')
    expect(t.report.end).toMatchObject({ reason: 'no-actions', by: [1] })
  })

  it('C-27 §2.3.3..§2.3.5: score is the count of undamaged ship cells; higher wins', () => {
    const g = game(SETUP_A, SETUP_B)
    expect(remainingMateriel(g.players[0])).toBe(8 + 6 + 4 + 3 + 1)
    expect(remainingMateriel(g.players[1])).toBe(8 + 6 + 4 + 3 + 2)
  })

  it('§2.2 a finished game accepts no more turns', () => {
    const r = ruleset('2.6.1 fleet=cost:1')
    const t = turn(game('LG Rv1', 'LG Rv1', r), 'mRv1 Rv1', '')
    const again = playTurn(t.game, [[], []])
    expect(again.ok).toBe(false)
    if (!again.ok) expect(again.error).toEqual({ reason: 'game-over', end: t.report.end })
  })
})

describe('matches (2.6.1 §9, §10, C-11, C-27)', () => {
  const end = (a: number, b: number) => ({
    reason: 'fleet-destroyed' as const,
    by: [1 as const],
    turn: 9,
    scores: [a, b] as const,
    winner: a > b ? (0 as const) : (1 as const),
  })

  it('§9.4 §9.5 C-27: scored match overall score is the sum of game scores', () => {
    expect(matchScores([end(5, 0), end(0, 3), end(2, 0)])).toEqual([7, 3])
    expect(matchWinner([end(5, 0), end(0, 5)])).toBe('draw')
  })

  it("§10.3 C-11: a continued match carries each player's remaining materiel into the next game", () => {
    expect(nextAdditional('continued', end(5, 0))).toEqual([5, 0])
    expect(nextAdditional('scored', end(5, 0))).toEqual([0, 0])
    expect(nextAdditional('continued', undefined)).toEqual([0, 0])
  })
})

function cellIndex(name: string): number {
  return 'ROYGB'.indexOf(name[0] ?? '') * 25 + 'vwxyz'.indexOf(name[1] ?? '') * 5 + Number(name[2]) - 1
}

/** Plays a random legal game from a seed; returns every report. */
function randomGame(
  r: Ruleset,
  seed: number,
  maxTurns = 400,
): { reports: readonly TurnReport[]; states: readonly GameState[] } {
  return playRandomGame(r, seededRandom(seed), maxTurns)
}

describe('properties of random legal games (fast-check)', () => {
  const rulesets = [
    DEFAULT_RULESET,
    CLASSIC_RULESET,
    ruleset('2.6.1 fleet=cost:24'),
    ruleset('2.6.1 fleet=standard strictPatrolCruiser'),
  ]

  it('materiel never rises and falls by exactly the cells destroyed; destroyed cells stay destroyed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3 }), fc.nat(), (ri, seed) => {
        const { reports, states } = randomGame(rulesets[ri] ?? DEFAULT_RULESET, seed, 60)
        reports.forEach((rep, t) => {
          const before = states[t]
          const after = states[t + 1]
          if (before === undefined || after === undefined) return
          for (const k of [0, 1] as const) {
            const lost = remainingMateriel(before.players[k]) - remainingMateriel(after.players[k])
            expect(lost).toBe(rep.players[k].cellsLost)
            expect(lost).toBeGreaterThanOrEqual(0)
            for (let c = 0; c < 125; c++)
              if (before.players[k].destroyed[c] === 1) expect(after.players[k].destroyed[c]).toBe(1)
          }
        })
      }),
      { numRuns: 40 },
    )
  })

  it('§11.7.2.1: swapping which player is A never changes a result', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3 }), fc.nat(), (ri, seed) => {
        const r = rulesets[ri] ?? DEFAULT_RULESET
        const { reports, states } = randomGame(r, seed, 40)
        const first = states[0]
        if (first === undefined) return
        let swapped: GameState = { ...first, players: [first.players[1], first.players[0]] }
        for (const rep of reports) {
          const t = playTurn(swapped, [rep.records[1].actions, rep.records[0].actions])
          expect(t.ok).toBe(true)
          if (!t.ok) return
          expect(t.value.report.players[0]).toEqual(rep.players[1])
          expect(t.value.report.players[1]).toEqual(rep.players[0])
          swapped = t.value.game
        }
      }),
      { numRuns: 40 },
    )
  })

  it('C-17: random records are either legal or rejected with coded reasons, never a throw', () => {
    const tokens = [
      'Rv1',
      'Bz5',
      'Yx3',
      'mBz1 Gv1',
      'm1 Gv1',
      'mB Gv1',
      'kRv4 Gv1',
      'kYy3 Gv1',
      'bRv1Rv3',
      'bRv1Yx3(DS)',
      'bRv1Yx3(DS2)',
      'sGv1',
      'sGv2',
      'bRv1Rv2',
      'Gw1',
      'Gw2',
      'Gw3',
      'Gw4',
    ]
    const g = game(SETUP_A, SETUP_B)
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...tokens), { maxLength: 14 }), (picked) => {
        const parsed = parseRecord(picked.join(' '), { variant: '2.6.1', mode: 'lenient' })
        expect(parsed.ok).toBe(true)
        if (!parsed.ok) return
        const r = playTurn(g, [parsed.value, []])
        if (r.ok) {
          // A legal record's canonical text parses strictly to the same canonical record.
          const canonical = formatRecord(r.value.report.records[0].actions)
          const again = parseRecord(canonical, { variant: '2.6.1', mode: 'strict' })
          expect(again.ok).toBe(true)
        } else {
          expect(r.error.reason).toBe('illegal')
          if (r.error.reason !== 'illegal') return
          for (const o of r.error.offences) {
            expect(o.player).toBe(0)
            for (const v of o.violations) expect(v.code).toMatch(/^record\./)
          }
        }
      }),
      { numRuns: 1000 },
    )
  })

  it('every random legal game reaches an end within 400 turns, deterministically by seed', () => {
    for (let seed = 0; seed < 30; seed++) {
      const r = rulesets[seed % rulesets.length] ?? DEFAULT_RULESET
      const a = randomGame(r, seed)
      const b = randomGame(r, seed)
      expect(a.states.at(-1)?.end).toBeDefined()
      expect(a.reports.map((x) => x.records.map((y) => formatRecord(y.actions)))).toEqual(
        b.reports.map((x) => x.records.map((y) => formatRecord(y.actions))),
      )
    }
  })
})
