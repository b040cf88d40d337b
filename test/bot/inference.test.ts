import { describe, expect, it } from 'vitest'
import { SALT_BYTES } from '../../src/games/spaceships/protocol/commitments.js'
import { runArena } from '../../src/games/spaceships/arena/arena.js'
import { DEFAULT_WORK, inferFleet } from '../../src/games/spaceships/bot/inference.js'
import { evidenceOf } from '../../src/games/spaceships/knowledge/evidence.js'
import type { TurnSummary } from '../../src/games/spaceships/knowledge/summary.js'
import { parseCell } from '../../src/games/spaceships/rules/coords.js'
import { seededRandom } from '../../src/games/spaceships/rules/rng.js'
import { DEFAULT_RULESET } from '../../src/games/spaceships/rules/ruleset.js'

const cell = (name: string): number => {
  const c = parseCell(name)
  if (!c.ok) throw new Error(name)
  return c.value
}

const NO_SALT = new Uint8Array(SALT_BYTES)

/** A turn in which I struck and scanned and was answered, in wire form (salts play no part). */
function turnOf(
  turn: number,
  o: {
    strikes?: [string, 'miss' | 'hit' | 'duplicate-hit'][]
    scans?: [string, 'empty' | 'ship' | 'ship-destroyed'][]
    destroyed?: { type: 'LS' | 'HS' | 'MD'; cells: string[] }[]
  },
): TurnSummary {
  const aspects = (strikes: string[], scans: string[]) => ({
    t: 'aspects' as const,
    turn,
    beams: [],
    strikes,
    scans,
    kamikaze: [],
    idle: false,
  })
  return {
    turn,
    myAspects: aspects(
      (o.strikes ?? []).map(([c]) => c),
      (o.scans ?? []).map(([c]) => c),
    ),
    theirAspects: aspects([], []),
    theirResults: {
      t: 'results',
      turn,
      beams: [],
      strikes: (o.strikes ?? []).map(([, result]) => ({ result, salt: NO_SALT, explosions: [] })),
      scans: (o.scans ?? []).map(([, result]) => ({ result, salt: NO_SALT })),
      destroyed: (o.destroyed ?? []).map((d) => ({
        type: d.type,
        id: 1,
        cells: d.cells.map((c) => ({ cell: c, salt: NO_SALT })),
      })),
      fleetDestroyed: false,
    },
    myReports: [],
    theirFlashcube: { t: 'flashcube', turn, reports: [] },
  }
}

/** The hard bot's prior: setups weigh exp(-1.5 x contacts between ships). */
const CONTACT_PENALTY = 1.5

describe('inference over whole fleets', () => {
  const history = [
    turnOf(1, {
      strikes: [
        ['Rv1', 'miss'],
        ['Ox3', 'hit'],
        ['Bz5', 'miss'],
      ],
      scans: [['Gy2', 'ship']],
    }),
    turnOf(2, {
      strikes: [
        ['Ox4', 'hit'],
        ['Ox2', 'miss'],
        ['Yv5', 'hit'],
      ],
      destroyed: [{ type: 'LS', cells: ['Yv5'] }],
    }),
  ]
  const ev = evidenceOf('2.6.1', history)

  it('follows the evidence: misses empty, a scanned ship certain, destroyed cells dead, the reported scout gone (2.6.1 §5.2, §8.3.4, §2.2.4, §3.7; C-22, C-23)', () => {
    const b = inferFleet(DEFAULT_RULESET, ev, seededRandom('inf'))
    expect(b.method).not.toBe('none')
    expect(b.live[cell('Rv1')]).toBe(0)
    expect(b.live[cell('Ox2')]).toBe(0)
    // Seen undamaged by a scan: some ship is there.
    expect(b.live[cell('Gy2')]).toBeCloseTo(1, 9)
    // Destroyed cells hold no undamaged ship cell, reported or not.
    expect(b.live[cell('Ox3')]).toBe(0)
    expect(b.live[cell('Yv5')]).toBe(0)
    // The light scout is reported, so the fleet is DS KC FS|PC MD LS (22 cells) and its heavy
    // scout alternative is out: the unreported ships hold 21 cells, of which the hits Ox3 Ox4 are 2.
    expect(b.remaining).toBeCloseTo(19, 6)
    expect(b.liveByType.get('HS')?.some((p) => p > 0) ?? false).toBe(false)
  })

  it('explains the hits by whole ships: cells that would extend the hit pair Ox3 Ox4 are likelier than any far cell (2.6.1 §3.5)', () => {
    const b = inferFleet(DEFAULT_RULESET, ev, seededRandom('inf'))
    const p = (name: string): number => b.live[cell(name)] ?? 0
    for (const near of ['Ox5', 'Ow3', 'Oy4', 'Rx3', 'Yx4'])
      for (const far of ['Bv1', 'Bz1', 'Rz5', 'Gv1']) expect(p(near)).toBeGreaterThan(p(far))
  })

  it('is a function of the evidence, the seed and the work alone', () => {
    const work = { ...DEFAULT_WORK, exactNodes: 0 }
    const a = inferFleet(DEFAULT_RULESET, ev, seededRandom('same'), work, CONTACT_PENALTY)
    expect(a.method).toBe('sampled')
    expect(inferFleet(DEFAULT_RULESET, ev, seededRandom('same'), work, CONTACT_PENALTY).live).toEqual(a.live)
    expect(inferFleet(DEFAULT_RULESET, ev, seededRandom('other'), work, CONTACT_PENALTY).live).not.toEqual(a.live)
  })

  it('sampling converges to exact enumeration, with and without the contact prior (ships of a block change which known cells they explain)', async () => {
    // Positions from real games between medium bots, seen by one side from turn 4 on: every one
    // that exact enumeration settles within a generous budget and that still has something to find.
    const positions: TurnSummary[][] = []
    for (const seed of ['m2', 'm3'])
      await runArena({
        a: 'medium',
        b: 'medium',
        games: 1,
        seed,
        ruleset: DEFAULT_RULESET,
        fast: true,
        observe: (side, bot) =>
          side === 'b'
            ? bot
            : {
                setup: (r) => bot.setup(r),
                record: (ctx) => {
                  if (ctx.turn >= 4) positions.push([...ctx.history])
                  return bot.record(ctx)
                },
              },
      })
    let compared = 0
    for (const h of positions) {
      const e = evidenceOf('2.6.1', h)
      for (const penalty of [0, CONTACT_PENALTY]) {
        const exact = inferFleet(
          DEFAULT_RULESET,
          e,
          seededRandom('x'),
          { ...DEFAULT_WORK, exactNodes: 300_000 },
          penalty,
        )
        // Only positions with something left to find: some cell neither surely a ship nor surely not.
        if (exact.method !== 'exact' || !exact.live.some((p) => p > 0.01 && p < 0.99)) continue
        const sampled = inferFleet(
          DEFAULT_RULESET,
          e,
          seededRandom('y'),
          { ...DEFAULT_WORK, exactNodes: 0, chains: 12, burnIn: 10, sweeps: 40 },
          penalty,
        )
        expect(sampled.method).toBe('sampled')
        let worst = 0
        for (let c = 0; c < 125; c++) worst = Math.max(worst, Math.abs((exact.live[c] ?? 0) - (sampled.live[c] ?? 0)))
        expect(worst, `turn ${h.length + 1}, penalty ${penalty}`).toBeLessThan(0.08)
        expect(sampled.remaining).toBeCloseTo(exact.remaining, 1)
        compared++
      }
    }
    expect(compared).toBeGreaterThanOrEqual(8)
  }, 60_000)

  it('says none when nothing the rules allow explains the answers (a lying opponent: 2.6.1 §3.7)', () => {
    // Two light scouts reported: no legal fleet holds two.
    const lie = evidenceOf('2.6.1', [
      turnOf(1, {
        strikes: [
          ['Rv1', 'hit'],
          ['Bz5', 'hit'],
        ],
        destroyed: [
          { type: 'LS', cells: ['Rv1'] },
          { type: 'LS', cells: ['Bz5'] },
        ],
      }),
    ])
    expect(inferFleet(DEFAULT_RULESET, lie, seededRandom('lie')).method).toBe('none')
  })
})
