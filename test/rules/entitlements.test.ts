import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type Cell, adjacent } from '../../src/games/spaceships/rules/coords.js'
import { actionOptions } from '../../src/games/spaceships/rules/enumerate.js'
import { CLASSIC_RULESET } from '../../src/games/spaceships/rules/ruleset.js'
import { entitlements, maximumMatching } from '../../src/games/spaceships/rules/state.js'
import { SETUP_A, SETUP_B, cells, damaged, game, names, turn, turnResult } from '../helpers.js'

const CLASSIC_A =
  'DS Rv1 Rv2 Rw1 Rw2 Ov1 Ov2 Ow1 Ow2\nKC Rv4 Rv5 Rw4 Rw5 Rx4 Rx5\nFS Bv1 Bv2 Bw1 Bw2\nMD Bz1 Bz2 Bz3\nHF Yy3 Yy4'

function shipEnt(g: ReturnType<typeof game>, player: 0 | 1, name: string) {
  const e = entitlements(g.ruleset, g.players[player], g.turn)
  const s = e.ships.find((x) => x.name === name)
  if (s === undefined) throw new Error(name)
  return s
}

function violations(g: ReturnType<typeof game>, a: string, b = ''): string[] {
  const r = turnResult(g, a, b)
  if (r.ok) return []
  return r.error.reason === 'illegal'
    ? r.error.offences.flatMap((o) => o.violations.map((v) => v.code))
    : [r.error.reason]
}

describe('conventional strikes (2.6.1 §4.4.1, §6.2.4, C-12)', () => {
  it('C-12: pool = 1 per death star + maximum matching of each other ship: A 1+3+2+1 = 7, B 1+3+2+1+1 = 8', () => {
    const g = game(SETUP_A, SETUP_B)
    expect(entitlements(g.ruleset, g.players[0], 1).conventionalPool).toBe(7)
    expect(entitlements(g.ruleset, g.players[1], 1).conventionalPool).toBe(8)
    expect(shipEnt(g, 0, 'LS').conventional).toBe(0)
  })

  it('C-12 §4.4.1: non-overlapping pairs: a damaged KC counts a maximum matching, not all pairs', () => {
    const g = game(SETUP_A, SETUP_B)
    expect(shipEnt(damaged(g, 0, 'Rw4'), 0, 'KC').conventional).toBe(2)
    expect(shipEnt(damaged(g, 0, 'Rw4 Rw5'), 0, 'KC').conventional).toBe(2)
    expect(shipEnt(damaged(g, 0, 'Rv5 Rw4 Rx5'), 0, 'KC').conventional).toBe(0)
    expect(maximumMatching(cells('Bz1 Bz2 Bz4 Bz5'))).toBe(2) // gapped patrol cruiser (C-09)
    expect(maximumMatching(cells('Rv1 Rv2 Rv3'))).toBe(1)
  })

  it('C-12: the maximum matching is the exhaustive search over the cells, on any cells', () => {
    // The search written plainly, on lists: the first cell unmatched, or matched with each neighbour.
    const reference = (rest: readonly Cell[]): number => {
      const [first, ...others] = rest
      if (first === undefined) return 0
      let best = reference(others)
      for (const o of others)
        if (adjacent(first, o)) best = Math.max(best, 1 + reference(others.filter((c) => c !== o)))
      return best
    }
    // One colour's layer (25 cells, many neighbours) and the whole space (few).
    for (const max of [24, 124])
      fc.assert(
        fc.property(fc.uniqueArray(fc.integer({ min: 0, max }), { maxLength: 13 }), (cs) => {
          expect(maximumMatching(cs)).toBe(reference(cs))
        }),
        { numRuns: 400 },
      )
  })

  it('§6.2.4 C-12: a death star gives exactly one strike until destroyed, even with no adjacent pair left', () => {
    const g = damaged(game(SETUP_A, SETUP_B), 0, 'Rv1 Rv2 Rw1 Rw2 Ov1 Ow2')
    expect(shipEnt(g, 0, 'DS').conventional).toBe(1)
    expect(shipEnt(damaged(g, 0, 'Ov2 Ow1'), 0, 'DS').conventional).toBe(0)
  })

  it('C-17: more conventional strikes than the pool is illegal; equal is legal', () => {
    const g = game(SETUP_A, SETUP_B)
    expect(violations(g, 'Gv1 Gv2 Gv3 Gv4 Gv5 Gw1 Gw2')).toEqual([])
    expect(violations(g, 'Gv1 Gv2 Gv3 Gv4 Gv5 Gw1 Gw2 Gw3')).toEqual(['record.strikes-exceed-pool'])
  })

  it('classic §4.3.1: one strike per distinct adjacent pair: KC 7, FS 4, MD 2, HF 1, DS 1 = 15', () => {
    const g = game(CLASSIC_A, CLASSIC_A, CLASSIC_RULESET)
    expect(entitlements(g.ruleset, g.players[0], 1).conventionalPool).toBe(15)
    expect(shipEnt(g, 0, 'KC').conventional).toBe(7)
  })
})

describe('missile strikes (2.6.1 §8.1, C-07, C-13)', () => {
  it('C-13: one missile strike per ship with an unfired missile, from one of its unfired missiles', () => {
    const g = game(SETUP_A, SETUP_B)
    expect(names(shipEnt(g, 0, 'MD').missileCells)).toBe('Bz1 Bz2 Bz3')
    expect(violations(g, 'mBz1 Gv1')).toEqual([])
    expect(violations(g, 'mBz1 Gv1 mBz2 Gv2')).toEqual(['record.missile-twice'])
  })

  it('C-13 §8.1.2: a fired missile never fires again; a destroyed cell is no missile', () => {
    const g = turn(game(SETUP_A, SETUP_B), 'mBz1 Gv1', '').game
    expect(names(shipEnt(g, 0, 'MD').missileCells)).toBe('Bz2 Bz3')
    expect(violations(g, 'mBz1 Gv1')).toEqual(['record.missile-no-match'])
    expect(names(shipEnt(damaged(g, 0, 'Bz2'), 0, 'MD').missileCells)).toBe('Bz3')
  })

  it('C-07: a partial launch cell must match exactly one unfired missile', () => {
    const g = game(SETUP_A, SETUP_B)
    expect(violations(g, 'm1 Gv1')).toEqual([]) // Bz1 is the only unfired missile with number 1
    expect(violations(g, 'mBz Gv1')).toEqual(['record.missile-ambiguous'])
    expect(violations(g, 'mRv1 Gv1')).toEqual(['record.missile-no-match'])
    const r = turn(g, 'm1 Gv1', '')
    expect(r.report.records[0].actions).toEqual([
      { kind: 'missile', launch: { colour: 4, letter: 4, number: 0 }, target: cells('Gv1')[0] },
    ])
  })
})

describe('kamikaze strikes (2.6.1 §4.5, §6.8.2, C-14)', () => {
  it('C-14: only a ship with no conventional strike and no unfired missile may kamikaze', () => {
    const g = game(SETUP_A, SETUP_B)
    expect(violations(g, 'kRv4 Gv1')).toEqual(['record.kamikaze-not-entitled'])
    expect(violations(g, 'kBz1 Gv1')).toEqual(['record.kamikaze-not-entitled']) // MD has missiles
    expect(violations(g, 'kRv1 Gv1')).toEqual(['record.kamikaze-not-entitled']) // DS never
    const broken = damaged(g, 0, 'Rv5 Rw4 Rx5')
    expect(names(shipEnt(broken, 0, 'KC').kamikazeCells)).toBe('Rv4 Rw5 Rx4')
    expect(violations(broken, 'kRw5 Gv1')).toEqual([])
    expect(violations(broken, 'kRw5 Gv1 kRv4 Gv2')).toEqual(['record.kamikaze-twice'])
    expect(violations(broken, 'kRv5 Gv1')).toEqual(['record.kamikaze-launch']) // §4.5.2: destroyed cell
    expect(violations(g, 'kGv1 Gv1')).toEqual(['record.kamikaze-launch']) // not own ship
  })

  it('§6.8.2: a light scout never kamikazes', () => {
    const g = game(SETUP_A, SETUP_B)
    expect(shipEnt(g, 0, 'LS').kamikazeCells).toEqual([])
    expect(violations(g, 'kYy3 Gv1')).toEqual(['record.kamikaze-not-entitled'])
  })

  it('C-14: a missile ship with all missiles fired, and no pair, may kamikaze', () => {
    let g = game(SETUP_A, SETUP_B)
    g = damaged(g, 0, 'Bz2')
    g = turn(g, 'mBz1 Gv1', '').game
    expect(names(shipEnt(g, 0, 'MD').kamikazeCells)).toBe('')
    g = turn(g, 'mBz3 Gv1', '').game
    expect(names(shipEnt(g, 0, 'MD').kamikazeCells)).toBe('Bz1 Bz3')
  })
})

describe('beam weapons (2.6.1 §8.2, C-15, C-21)', () => {
  it('C-15: an undamaged cube can fire in all 13 directions; each option is a target line', () => {
    const g = game(SETUP_A, SETUP_B)
    expect(shipEnt(g, 0, 'DS').beamDirections).toHaveLength(13)
    expect(actionOptions(g.ruleset, g.players[0], 1).beams[0]?.lines).toHaveLength(603)
  })

  it('C-15 §8.2.2: the firing pair must be undamaged, loosely adjacent and parallel to the targets', () => {
    // Only Rv1 and Ow2 survive: a body diagonal (+colour +letter +number).
    const g = damaged(game(SETUP_A, SETUP_B), 0, 'Rv2 Rw1 Rw2 Ov1 Ov2 Ow1')
    expect(shipEnt(g, 0, 'DS').beamDirections).toHaveLength(1)
    expect(violations(g, 'bOv1Gx3')).toEqual([])
    expect(violations(g, 'bGx3Ov1')).toEqual([]) // either end first
    expect(violations(g, 'bGv1Gv3')).toEqual(['record.beam-not-entitled'])
    expect(violations(g, 'bGv1Gv2')).toEqual(['record.beam-line'])
    expect(violations(g, 'bOv1Gx3 bRv1Yx3')).toEqual(['record.beam-assignment'])
  })

  it('C-15: with two able death stars the tag is required and must name one of them', () => {
    const two = 'DS1 Rv1 Rv2 Rw1 Rw2 Ov1 Ov2 Ow1 Ow2\nDS2 Bv1 Bv2 Bw1 Bw2 Gv1 Gv2 Gw1 Gw2\nLG Yy3\nLG2 Yy5'.replace(
      'LG Yy3',
      'LG1 Yy3',
    )
    const g = game(two, two, {
      variant: '2.6.1',
      strictPatrolCruiser: false,
      fleet: { kind: 'cost', total: 18, restrictions: {} },
      additional: {},
    })
    expect(violations(g, 'bRv1Rv3')).toEqual(['record.beam-tag-required'])
    expect(violations(g, 'bRv1Rv3(DS2)')).toEqual([])
    expect(violations(g, 'bRv1Rv3(DS)')).toEqual(['record.beam-tag-wrong'])
    expect(violations(g, 'bRv1Rv3(DS1) bRv1Rv3(DS2)')).toEqual([])
    expect(violations(g, 'bRv1Rv3(DS1) bRv1Rv3(DS1)')).toEqual(['record.beam-assignment'])
    // Only DS1 can fire the body diagonal after DS2 loses all but an axial pair: no tag needed.
    const g2 = damaged(g, 0, 'Bv1 Bv2 Bw1 Gv1 Gv2 Gw1')
    expect(violations(g2, 'bRv1Yx3')).toEqual([])
    const canonical = turn(g2, 'bRv1Yx3(DS1)', '').report.records[0].actions
    expect(canonical).toEqual([{ kind: 'beam', ends: cells('Rv1 Yx3'), tag: undefined }])
  })

  it('C-21 §8.2.4: both end cells HIT burns the beam out from the next turn', () => {
    // B's patrol cruiser Rz2 Rz3 Rz4 Rz5: a beam along it hits both ends.
    let g = game(SETUP_A, SETUP_B)
    const r = turn(g, 'bRz2Rz4', '')
    expect(r.report.players[0].burnouts).toEqual([0])
    expect(r.report.players[0].exchanges.map((e) => e.kind === 'beam-strike' && e.result)).toEqual([
      'hit',
      'hit',
      'hit',
    ])
    g = r.game
    expect(shipEnt(g, 0, 'DS').beamDirections).toEqual([])
    expect(shipEnt(g, 0, 'DS').conventional).toBe(1) // C-21: it keeps its conventional strike
    expect(violations(g, 'bRv1Rv3')).toEqual(['record.beam-not-entitled'])
  })

  it('C-21: a duplicate hit or a miss on an end does not burn out', () => {
    const g = game(SETUP_A, SETUP_B)
    const r = turn(g, 'Rz2 bRz2Rz4', '') // beams resolve first (C-19): both ends hit -> burn-out
    expect(r.report.players[0].burnouts).toEqual([0])
    const r2 = turn(damaged(g, 1, 'Rz2'), 'bRz2Rz4', '')
    expect(r2.report.players[0].exchanges.map((e) => e.kind === 'beam-strike' && e.result)).toEqual([
      'duplicate-hit',
      'hit',
      'hit',
    ])
    expect(r2.report.players[0].burnouts).toEqual([])
    expect(turn(g, 'bRz1Rz3', '').report.players[0].burnouts).toEqual([]) // Rz1 empty: miss
  })

  it('classic §6.1.3: only a wholly undamaged death star fires, along a row through its own cells', () => {
    const g = game(CLASSIC_A, CLASSIC_A, CLASSIC_RULESET)
    expect(violations(g, 'bRv')).toEqual([])
    expect(violations(g, 'bv1')).toEqual([])
    expect(violations(g, 'bYv')).toEqual(['record.beam-not-entitled'])
    expect(violations(damaged(g, 0, 'Ow2'), 'bRv')).toEqual(['record.beam-not-entitled'])
    expect(actionOptions(g.ruleset, g.players[0], 1).rows[0]?.rows).toHaveLength(12)
  })
})

describe('scans (2.6.1 §8.3, C-16)', () => {
  it('C-16: one scan in turn 1; later max(1, D) for D own cells destroyed in the previous turn', () => {
    let g = game(SETUP_A, SETUP_B)
    expect(entitlements(g.ruleset, g.players[0], 1).scans).toBe(1)
    expect(violations(g, 'sGv1 sGv2')).toEqual(['record.scans-exceed'])
    // B destroys three of A's cells (two KC hits and one MD explosion of three cells -> D = 2 + 3 = 5).
    g = turn(g, '', 'Rv4 Rv5 Bz2').game
    expect(g.players[0].lostLastTurn).toBe(5)
    expect(entitlements(g.ruleset, g.players[0], g.turn).scans).toBe(5)
    g = turn(g, '', '').game
    expect(entitlements(g.ruleset, g.players[0], g.turn).scans).toBe(1)
  })

  it('C-16: own kamikaze launches count toward D', () => {
    let g = damaged(game(SETUP_A, SETUP_B), 0, 'Rv5 Rw4 Rx5')
    g = turn(g, 'kRv4 Gv1', '').game
    expect(entitlements(g.ruleset, g.players[0], g.turn).scans).toBe(1)
    g = damaged(game(SETUP_A, SETUP_B), 0, 'Rv5 Rw4 Rx5')
    g = turn(g, 'kRv4 Gv1', 'Rw5').game
    expect(entitlements(g.ruleset, g.players[0], g.turn).scans).toBe(2)
  })

  it('§8.3.1.3 §8.3.2: no scans without an undestroyed scanner; several scanners give no more', () => {
    const g = damaged(game(SETUP_A, SETUP_B), 0, 'Yy3')
    expect(entitlements(g.ruleset, g.players[0], 1).scans).toBe(0)
    expect(violations(g, 'sGv1')).toEqual(['record.scans-exceed'])
    const two = `${SETUP_A.replace('LS Yy3', 'LS1 Yy3')}\nLS2 Gz5`
    const g2 = game(two, SETUP_B, undefined, [3, 0])
    expect(entitlements(g2.ruleset, g2.players[0], 1).scans).toBe(1)
  })

  it('C-16 classic: there are no scans', () => {
    const g = game(CLASSIC_A, CLASSIC_A, CLASSIC_RULESET)
    expect(entitlements(g.ruleset, g.players[0], 1).scans).toBe(0)
  })
})

describe('entitlements kept per ship (state.ts)', () => {
  it('are what a fresh computation gives, whatever the damage, firing and burn-out, asked again and again', () => {
    const g = game(SETUP_A, SETUP_B)
    fc.assert(
      fc.property(
        fc.constantFrom(0, 1),
        fc.array(fc.tuple(fc.nat(124), fc.boolean(), fc.boolean()), { maxLength: 40 }),
        fc.array(fc.boolean(), { maxLength: 20 }),
        (player, marks, burnt) => {
          const p = g.players[player]
          const destroyed = p.destroyed.slice()
          const fired = p.fired.slice()
          for (const [c, d, f] of marks) {
            if (d) destroyed[c] = 1
            if (f) fired[c] = 1
          }
          const burntOut = p.burntOut.map((b, i) => b || burnt[i] === true)
          // The same ships (their kept entitlements asked), and copies of them (computed afresh).
          const state = { ...p, destroyed, fired, burntOut }
          const fresh = { ...state, ships: p.ships.map((s) => ({ ...s })) }
          expect(entitlements(g.ruleset, state, 2)).toEqual(entitlements(g.ruleset, fresh, 2))
        },
      ),
      { numRuns: 500 },
    )
  })
})
