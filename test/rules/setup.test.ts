import { describe, expect, it } from 'vitest'
import { randomSetup } from '../../src/games/spaceships/rules/enumerate.js'
import { fleetProblem, legalFleets } from '../../src/games/spaceships/rules/fleet.js'
import { seededRandom } from '../../src/games/spaceships/rules/rng.js'
import { CLASSIC_RULESET, DEFAULT_RULESET, type Ruleset } from '../../src/games/spaceships/rules/ruleset.js'
import { readSetup, validateSetup } from '../../src/games/spaceships/rules/setup.js'
import { SETUP_A, ruleset } from '../helpers.js'

function codes(text: string, ruleset: Ruleset = DEFAULT_RULESET, additional = 0): string[] {
  const r = readSetup(text, ruleset, additional)
  return r.ok ? [] : r.error.map((e) => e.code)
}

describe('setup legality (2.6.1 §3, §6)', () => {
  it('§3.6 §3.7: the standard fleet is legal', () => {
    expect(codes(SETUP_A)).toEqual([])
  })

  it('§3.4: ships may not intersect', () => {
    const r = readSetup(SETUP_A.replace('LS Yy3', 'LS Bz3'), DEFAULT_RULESET)
    expect(r.ok).toBe(false)
    if (!r.ok)
      expect(r.error[0]).toMatchObject({
        code: 'setup.intersect',
        rule: '§3.4',
        subject: 'LS',
        message: 'cell Bz3 is also in MD',
      })
  })

  it("§3.5: each ship must have its type's shape and size", () => {
    expect(codes(SETUP_A.replace('MD Bz1 Bz2 Bz3', 'MD Bz1 Bz2 By3'))).toEqual(['setup.shape'])
    expect(codes(SETUP_A.replace('MD Bz1 Bz2 Bz3', 'MD Bz1 Bz2'))).toEqual(['setup.size'])
    expect(codes(SETUP_A.replace('MD Bz1 Bz2 Bz3', 'MD Bz1 Bz1 Bz2'))).toEqual(['setup.duplicate-cell'])
  })

  it('§3.6 §3.7: exactly the fleet: a missing or extra ship is a fleet violation', () => {
    expect(codes(SETUP_A.replace('LS Yy3', ''))).toEqual(['setup.fleet'])
    expect(codes(`${SETUP_A}\nLG Gz5`)).toEqual(['setup.fleet'])
    const r = readSetup(SETUP_A.replace('LS Yy3', ''), DEFAULT_RULESET)
    if (!r.ok) expect(r.error[0]?.message).toBe('fleet must be DS, KC, FS or PC, MD, LS or HS; got DS KC FS MD')
  })

  it('§3.7: the four standard fleets (FS or PC, LS or HS) are each legal', () => {
    expect(legalFleets(DEFAULT_RULESET, 0)).toHaveLength(4)
    const pc = SETUP_A.replace('FS Bv1 Bv2 Bw1 Bw2', 'PC Bv1 Bv2 Bv4 Bv5')
    expect(codes(pc)).toEqual([])
    expect(codes(SETUP_A.replace('LS Yy3', 'HS Yy3 Yy4'))).toEqual([])
  })

  it('C-05 §11.6.1: several ships of a type need identities exactly 1..k', () => {
    const r = ruleset('2.6.1 fleet=cost:24')
    const base =
      'DS Rv1 Rv2 Rw1 Rw2 Ov1 Ov2 Ow1 Ow2\nKC Rv4 Rv5 Rw4 Rw5 Rx4 Rx5\nMD Bz1 Bz2 Bz3\nMD By1 By2 By3\nLG Yy3\nLG Yy5\nAG Gv5 Gw5'
    expect(
      codes(
        base
          .replace('MD Bz1', 'MD1 Bz1')
          .replace('MD By1', 'MD2 By1')
          .replace('LG Yy3', 'LG1 Yy3')
          .replace('LG Yy5', 'LG2 Yy5'),
        r,
      ),
    ).toEqual([])
    expect(codes(base, r)).toContain('setup.identity')
    expect(
      codes(
        base
          .replace('MD Bz1', 'MD1 Bz1')
          .replace('MD By1', 'MD3 By1')
          .replace('LG Yy3', 'LG1 Yy3')
          .replace('LG Yy5', 'LG2 Yy5'),
        r,
      ),
    ).toEqual(['setup.identity'])
    expect(codes(SETUP_A.replace('KC ', 'KC2 '))).toEqual(['setup.identity'])
  })

  it('C-10 §3.7.1: a cost fleet totals exactly C, within the agreed restrictions', () => {
    const r = ruleset('2.6.1 fleet=cost:24 max=DS:1')
    const lgs = Array.from({ length: 24 }, (_, i) => `LG${i + 1} ${'ROYGB'[Math.floor(i / 5)]}${'vwxyz'[i % 5]}1`).join(
      '\n',
    )
    expect(codes(lgs, r)).toEqual([])
    expect(codes(lgs.split('\n').slice(0, 23).join('\n'), r)).toEqual(['setup.fleet'])
    expect(fleetProblem({ DS: 3 }, r, 0)).toMatch(/at most 1 DS/)
    expect(fleetProblem({ DS: 3 }, ruleset('2.6.1 fleet=cost:24'), 0)).toBeUndefined()
    expect(fleetProblem({ DS: 2, LG: 8 }, ruleset('2.6.1 fleet=cost:24 allow=DS'), 0)).toMatch(/types DS/)
  })

  it('C-11 §10.3: continued match: additional ships cost exactly the remaining materiel', () => {
    expect(codes(`${SETUP_A}\nLG Gz5`, DEFAULT_RULESET, 1)).toEqual([])
    expect(codes(`${SETUP_A}\nLG Gz5`, DEFAULT_RULESET, 2)).toEqual(['setup.fleet'])
    // Additional ships may repeat base types; identities then cover both (C-11).
    expect(codes(`${SETUP_A.replace('LS Yy3', 'LS1 Yy3')}\nLS2 Gz5`, DEFAULT_RULESET, 3)).toEqual([])
    // §10.5: restrictions on additional ships.
    expect(codes(`${SETUP_A}\nLG Gz5`, ruleset('2.6.1 fleet=standard additional-allow=AG'), 1)).toEqual(['setup.fleet'])
  })

  it('classic §3.3 §7.2: fleet DS KC FS MD HF; additional ships count cells', () => {
    const classic =
      'DS Rv1 Rv2 Rw1 Rw2 Ov1 Ov2 Ow1 Ow2\nKC Rv4 Rv5 Rw4 Rw5 Rx4 Rx5\nFS Bv1 Bv2 Bw1 Bw2\nMD Bz1 Bz2 Bz3\nHF Yy3 Yy4'
    expect(codes(classic, CLASSIC_RULESET)).toEqual([])
    expect(codes(classic.replace('HF', 'HS'), CLASSIC_RULESET)).toEqual(['setup.type-not-in-variant', 'setup.fleet'])
    expect(codes(`${classic}\nHF2 Gz4 Gz5`.replace('HF Yy3', 'HF1 Yy3'), CLASSIC_RULESET, 2)).toEqual([])
    expect(codes(`${classic}\nHF2 Gz4 Gz5`.replace('HF Yy3', 'HF1 Yy3'), CLASSIC_RULESET, 3)).toEqual(['setup.fleet'])
  })

  it('random setups are always legal, for every fleet rule (the enumerator never lies)', () => {
    const rng = seededRandom(7)
    for (const r of [
      DEFAULT_RULESET,
      CLASSIC_RULESET,
      ruleset('2.6.1 fleet=cost:24'),
      ruleset('2.6.1 fleet=standard strictPatrolCruiser'),
    ]) {
      for (let i = 0; i < 40; i++) {
        const additional = i % 4 === 0 ? 5 : 0
        const setup = randomSetup(r, rng, additional)
        const v = validateSetup(
          setup.map((s) => ({ ...s, text: s.type })),
          r,
          additional,
        )
        expect(v.ok, JSON.stringify(v)).toBe(true)
      }
    }
  })
})

describe('hostile setups stay cheap (DESIGN.md §6: every resource a peer can make us allocate is bounded)', () => {
  it('§3.4: more ships than cells is refused at once', () => {
    const many = Array.from({ length: 5000 }, () => 'LG Rv1').join('\n')
    // Refused by the count alone, before any cell is checked (a regression is a hang, which the runner's timeout catches).
    const r = readSetup(many, ruleset('2.6.1 fleet=cost:24'))
    expect(r.ok ? '' : r.error.map((v) => v.message).join('; ')).toBe(
      '5000 ships cannot fit in 125 cells without intersecting',
    )
  })

  it('§3.6 C-10: a fleet of many small ships with the wrong total is refused without searching its sub-fleets', () => {
    const cellsList = Array.from(
      { length: 120 },
      (_, i) => `${'ROYGB'[Math.floor(i / 25)]}${'vwxyz'[Math.floor(i / 5) % 5]}${(i % 5) + 1}`,
    )
    const types = ['LG', 'LS', 'AG', 'HS']
    const lines: string[] = []
    let next = 0
    for (const t of types) {
      for (let k = 1; k <= 12; k++) {
        const size = t === 'AG' || t === 'HS' ? 2 : 1
        lines.push(`${t}${k} ${cellsList.slice(next, next + size).join(' ')}`)
        next += size
      }
    }
    // The total cost is wrong, so no split into sub-fleets is searched (a regression is a hang, caught by the runner's timeout).
    expect(codes(lines.join('\n'), ruleset('2.6.1 fleet=cost:24'))).toContain('setup.fleet')
  })
})

describe('fleet splits (§10.5 C-10 C-11): base and additional ships each within their restrictions', () => {
  it('finds the split when one exists and refuses when none does', () => {
    // Base: cost 6 with at most 2 LG; additional 3.
    expect(
      fleetProblem({ LG: 5, AG: 2 }, ruleset('2.6.1 fleet=cost:6 max=LG:2 additional-allow=LG'), 3),
    ).toBeUndefined()
    // Additional ships may only be AG: the only cost-6 base (2 LG + 2 AG) leaves 3 LG as additional.
    expect(fleetProblem({ LG: 5, AG: 2 }, ruleset('2.6.1 fleet=cost:6 max=LG:2 additional-allow=AG'), 3)).toMatch(
      /additional ships of total cost 3 \(types AG\)/,
    )
    // Standard base plus extras: the extras must respect additional-max.
    expect(
      fleetProblem(
        { DS: 1, KC: 1, FS: 1, MD: 1, LS: 1, LG: 2 },
        ruleset('2.6.1 fleet=standard additional-max=LG:1'),
        2,
      ),
    ).toMatch(/at most 1 LG/)
    expect(
      fleetProblem(
        { DS: 1, KC: 1, FS: 1, MD: 1, LS: 1, LG: 1 },
        ruleset('2.6.1 fleet=standard additional-max=LG:1'),
        1,
      ),
    ).toBeUndefined()
  })

  it('stays fast for a large continued-match fleet spread over every type', () => {
    const counts = { DS: 3, KC: 4, FS: 5, PC: 5, MD: 7, HS: 7, LS: 7, AG: 10, LG: 20 }
    const total = 3 * 8 + 4 * 6 + 10 * 4 + 21 * 3 + 10 * 2 + 20 // 191
    const t0 = Date.now()
    expect(
      fleetProblem(counts, ruleset('2.6.1 fleet=cost:24 max=LG:3 additional-max=DS:2'), total - 24),
    ).toBeUndefined()
    expect(
      fleetProblem(counts, ruleset('2.6.1 fleet=cost:24 max=LG:3 additional-max=DS:1'), total - 24),
    ).toBeUndefined() // base may take a DS
    expect(fleetProblem(counts, ruleset('2.6.1 fleet=cost:24 max=DS:0 additional-max=DS:2'), total - 24)).toMatch(
      /fleet must be/,
    )
    expect(Date.now() - t0).toBeLessThan(2000)
  })
})
