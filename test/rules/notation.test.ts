import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { COLOURS, LETTERS, NUMBERS } from '../../src/games/spaceships/rules/coords.js'
import { randomSetup } from '../../src/games/spaceships/rules/enumerate.js'
import { VIOLATION_CODES } from '../../src/games/spaceships/rules/errors.js'
import { readRecord } from '../../src/games/spaceships/rules/legality.js'
import { type Action, type RecordSyntax, formatRecord, parseRecord } from '../../src/games/spaceships/rules/record.js'
import { seededRandom } from '../../src/games/spaceships/rules/rng.js'
import {
  CLASSIC_RULESET,
  DEFAULT_RULESET,
  formatRuleset,
  parseRuleset,
} from '../../src/games/spaceships/rules/ruleset.js'
import { formatSetup, parseSetup, readSetup } from '../../src/games/spaceships/rules/setup.js'
import { SETUP_A, SETUP_B, cell, game } from '../helpers.js'

const STRICT: RecordSyntax = { variant: '2.6.1', mode: 'strict' }
const LENIENT: RecordSyntax = { variant: '2.6.1', mode: 'lenient' }
const CLASSIC_LENIENT: RecordSyntax = { variant: 'classic', mode: 'lenient' }

function parsed(text: string, syntax: RecordSyntax): readonly Action[] {
  const r = parseRecord(text, syntax)
  if (!r.ok) throw new Error(JSON.stringify(r.error))
  return r.value
}

function rejected(
  text: string,
  syntax: RecordSyntax,
): { code: string; rule: string; subject: string; message: string } {
  const r = parseRecord(text, syntax)
  if (r.ok) throw new Error(`accepted: ${text}`)
  const first = r.error[0]
  if (first === undefined) throw new Error('no violation')
  return first
}

describe('action record notation (2.6.1 §11.5, C-06)', () => {
  it('§11.5.1..§11.5.5: every token type parses to its action', () => {
    expect(parsed('Rv1 bRv1Rv3 mRv1 Ox3 kBz1 Yy2 sGw4', STRICT)).toEqual([
      { kind: 'strike', target: cell('Rv1') },
      { kind: 'beam', ends: [cell('Rv1'), cell('Rv3')], tag: undefined },
      { kind: 'missile', launch: { colour: 0, letter: 0, number: 0 }, target: cell('Ox3') },
      { kind: 'kamikaze', launch: cell('Bz1'), target: cell('Yy2') },
      { kind: 'scan', target: cell('Gw4') },
    ])
  })

  it('§11.5.2.1 C-15: a beam may carry the firing ship in parentheses', () => {
    expect(parsed('bRv1Yx3(DS2)', STRICT)).toEqual([
      { kind: 'beam', ends: [cell('Rv1'), cell('Yx3')], tag: { type: 'DS', id: 2 } },
    ])
    expect(parsed('bRv1Yx3(DS)', STRICT)).toEqual([
      { kind: 'beam', ends: [cell('Rv1'), cell('Yx3')], tag: { type: 'DS', id: undefined } },
    ])
    expect(rejected('bRv1Yx3(D2)', STRICT).code).toBe('beam.tag-syntax')
  })

  it('C-06 C-07: partial missile launch cells are lenient input; strict needs the full cell', () => {
    expect(parsed('m1 Ox3', LENIENT)).toEqual([{ kind: 'missile', launch: { number: 0 }, target: cell('Ox3') }])
    expect(parsed('mRw Ox3', LENIENT)).toEqual([
      { kind: 'missile', launch: { colour: 0, letter: 1 }, target: cell('Ox3') },
    ])
    expect(rejected('m1 Ox3', STRICT)).toMatchObject({ code: 'missile.launch-syntax', rule: 'C-06 §11.5.3' })
  })

  it('C-06: a joined missile target (m1Ox3) is accepted leniently and never emitted', () => {
    const actions = parsed('m1Ox3', LENIENT)
    expect(actions).toEqual([{ kind: 'missile', launch: { number: 0 }, target: cell('Ox3') }])
    expect(formatRecord(actions)).toBe('m1 Ox3')
    expect(rejected('mRv1Ox3', STRICT).code).toBe('missile.launch-syntax')
  })

  it('C-06: commas separate tokens leniently; strict wants single spaces', () => {
    expect(parsed('Rv1, Rv2,Rv3', LENIENT)).toHaveLength(3)
    expect(rejected('Rv1,Rv2', STRICT).code).toBe('cell.syntax')
    expect(rejected('Rv1  Rv2', STRICT).code).toBe('token.separator')
    expect(rejected(' Rv1', STRICT).code).toBe('token.separator')
    expect(rejected('Rv1\tRv2', STRICT).code).toBe('token.separator')
  })

  it('§11.5.3 §11.5.5: a missile or kamikaze token must be followed by its target cell', () => {
    expect(rejected('mRv1', STRICT)).toMatchObject({ code: 'missile.target-missing', rule: 'C-06 §11.5.3' })
    expect(rejected('kBz1', STRICT)).toMatchObject({ code: 'kamikaze.target-missing', rule: 'C-06 §11.5.5' })
    expect(rejected('kBz1 sRv1', STRICT)).toMatchObject({ code: 'kamikaze.target-missing', subject: 'kBz1 sRv1' })
  })

  it('C-01 C-06: errors name the token, the reason and the rule', () => {
    expect(rejected('Rv6', STRICT)).toMatchObject({
      code: 'cell.number',
      subject: 'Rv6',
      message: 'strike target: number must be 1..5',
    })
    expect(rejected('sRa1', STRICT)).toMatchObject({ code: 'cell.letter', subject: 'sRa1' })
    expect(rejected('x12', STRICT).code).toBe('cell.colour')
    expect(rejected('hello', STRICT)).toMatchObject({ code: 'token.unknown', rule: 'C-06 §11.5' })
    expect(rejected('v11', LENIENT).message).toMatch(/colour/)
    expect(rejected('bRv1', STRICT).code).toBe('beam.syntax')
  })

  it('every error in a record is reported, not just the first', () => {
    const r = parseRecord('Rv6 Ra1 sZz9', STRICT)
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error.map((e) => e.code)).toEqual(['cell.number', 'cell.letter', 'cell.colour'])
  })

  it('the empty record: empty text (strict and lenient) or "-" (lenient)', () => {
    expect(parsed('', STRICT)).toEqual([])
    expect(parsed('-', LENIENT)).toEqual([])
    expect(parsed('  ', LENIENT)).toEqual([])
    expect(formatRecord([])).toBe('')
  })

  it('classic §8.2.2: a beam is b and two coordinate values fixing a row; there are no scans', () => {
    expect(parsed('bRv bR1 bv1', CLASSIC_LENIENT)).toEqual([
      { kind: 'row', row: { free: 2, fixed: { colour: 0, letter: 0 } } },
      { kind: 'row', row: { free: 1, fixed: { colour: 0, number: 0 } } },
      { kind: 'row', row: { free: 0, fixed: { letter: 0, number: 0 } } },
    ])
    expect(rejected('bRv1', CLASSIC_LENIENT).code).toBe('beam.syntax')
    expect(rejected('sRv1', CLASSIC_LENIENT).code).toBe('token.unknown')
  })
})

const cellName = fc
  .tuple(fc.constantFrom(...COLOURS), fc.constantFrom(...LETTERS), fc.constantFrom(...NUMBERS))
  .map((t) => t.join(''))
const token = fc.oneof(
  cellName,
  fc.tuple(cellName, cellName).map(([a, b]) => `b${a}${b}`),
  fc.tuple(cellName, cellName, fc.integer({ min: 1, max: 3 })).map(([a, b, n]) => `b${a}${b}(DS${n})`),
  fc.tuple(cellName, cellName).map(([a, b]) => `m${a} ${b}`),
  fc.tuple(cellName, cellName).map(([a, b]) => `k${a} ${b}`),
  cellName.map((a) => `s${a}`),
)

describe('notation properties (fast-check)', () => {
  it('C-06: format(parse(x)) == x for canonical records', () => {
    fc.assert(
      fc.property(fc.array(token, { maxLength: 12 }), (tokens) => {
        const text = tokens.join(' ')
        const r = parseRecord(text, STRICT)
        expect(r.ok).toBe(true)
        if (r.ok) expect(formatRecord(r.value)).toBe(text)
      }),
    )
  })

  it('C-06: lenient parse of any separator mix formats to the canonical text', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(token, fc.constantFrom(' ', ',', ', ', '\t', '  ', '\n')), { maxLength: 10 }),
        (pairs) => {
          const text = pairs.map(([t, sep]) => t + sep).join('')
          const r = parseRecord(text, LENIENT)
          expect(r.ok).toBe(true)
          if (r.ok) expect(formatRecord(r.value)).toBe(pairs.map(([t]) => t).join(' '))
        },
      ),
    )
  })

  it('hostile text: parse never throws; every rejection carries a known code and a rule', () => {
    const codes = new Set<string>(VIOLATION_CODES)
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string({ maxLength: 40 }),
          fc.array(fc.oneof(token, fc.string({ maxLength: 5 })), { maxLength: 8 }).map((a) => a.join(' ')),
        ),
        (text) => {
          for (const syntax of [STRICT, LENIENT, CLASSIC_LENIENT]) {
            const r = parseRecord(text, syntax)
            if (!r.ok) {
              expect(r.error.length).toBeGreaterThan(0)
              for (const e of r.error) {
                expect(codes.has(e.code)).toBe(true)
                expect(e.rule).not.toBe('')
              }
            }
          }
        },
      ),
      { numRuns: 2000 },
    )
  })
})

describe('setup notation (2.6.1 §11.3.1, §11.6, C-05)', () => {
  it('C-05: one line per ship; identities omitted for a single ship, written 1..k for several', () => {
    const r = readSetup(
      'DS Rv1 Rv2 Rw1 Rw2 Ov1 Ov2 Ow1 Ow2\nKC1 Rv4 Rv5 Rw4 Rw5 Rx4 Rx5\nFS Bv1 Bv2 Bw1 Bw2\nMD Bz1 Bz2 Bz3\nLS Yy3',
      DEFAULT_RULESET,
    )
    expect(r.ok).toBe(true)
    if (r.ok) expect(formatSetup(r.value).split('\n')[1]).toBe('KC Rv4 Rv5 Rw4 Rw5 Rx4 Rx5')
  })

  it('format(parse(x)) round-trips random legal setups in strict mode', () => {
    const rng = seededRandom('setup-roundtrip')
    for (let i = 0; i < 50; i++) {
      const ruleset = i % 5 === 0 ? CLASSIC_RULESET : DEFAULT_RULESET
      const text = formatSetup(randomSetup(ruleset, rng))
      const back = readSetup(text, ruleset, 0, 'strict')
      expect(back.ok).toBe(true)
      if (back.ok) expect(formatSetup(back.value)).toBe(text)
    }
  })

  it('C-05: an unknown type or malformed identity is named', () => {
    const r = parseSetup('XX Rv1\nDSa Rv1\nDS Rv9')
    expect(r.ok).toBe(false)
    if (!r.ok)
      expect(r.error.map((e) => [e.code, e.subject])).toEqual([
        ['ship.type-unknown', 'XX'],
        ['ship.identity-syntax', 'DSa'],
        ['cell.number', 'Rv9'],
      ])
  })
})

describe('ruleset text (C-09, C-10, CLARIFICATIONS options)', () => {
  it('round-trips the default, classic and option forms', () => {
    for (const text of [
      '2.6.1 fleet=standard',
      'classic fleet=standard',
      '2.6.1 fleet=cost:24 allow=DS,KC,LG max=DS:1 additional-allow=LG strictPatrolCruiser',
    ]) {
      const r = parseRuleset(text)
      expect(r.ok).toBe(true)
      if (r.ok) expect(formatRuleset(r.value)).toBe(text)
    }
    expect(formatRuleset(DEFAULT_RULESET)).toBe('2.6.1 fleet=standard')
  })

  it('rejects unknown words, classic options that do not exist, and repeats', () => {
    for (const bad of [
      '2.7',
      '2.6.1 turbo',
      'classic strictPatrolCruiser',
      'classic fleet=cost:24',
      '2.6.1 fleet=standard fleet=standard',
      '2.6.1 max=DS:1',
      '2.6.1 fleet=cost:24 allow=HF',
    ]) {
      expect(parseRuleset(bad).ok, bad).toBe(false)
    }
  })
})

describe('canonical records against a state (C-06, C-07, C-15; what the protocol commits to)', () => {
  it('strict mode accepts exactly the canonical text; lenient accepts any legal spelling', () => {
    const g = game(SETUP_A, SETUP_B)
    const read = (text: string, mode: 'strict' | 'lenient') => readRecord(g.ruleset, g.players[0], 1, text, mode)
    expect(read('bRv1Yx3 mBz1 Gv1 Rv2', 'strict').ok).toBe(true)
    // A superfluous tag (one death star) is legal but not canonical.
    const tagged = read('bRv1Yx3(DS) Rv2', 'strict')
    expect(tagged.ok).toBe(false)
    if (!tagged.ok)
      expect(tagged.error[0]).toMatchObject({
        code: 'record.not-canonical',
        message: 'not in canonical form; canonical: "bRv1Yx3 Rv2"',
      })
    expect(read('bRv1Yx3(DS) Rv2', 'lenient').ok).toBe(true)
    // Partial launch cells are lenient only (C-07); strict rejects them at parse time.
    expect(read('m1 Gv1', 'lenient').ok).toBe(true)
    expect(read('mBz1 Gv1', 'strict').ok).toBe(true)
    expect(read('m1 Gv1', 'strict').ok).toBe(false)
    // Illegal stays illegal in either mode, with the legality code.
    const over = read('mBz1 Gv1 mBz2 Gv2', 'strict')
    expect(over.ok).toBe(false)
    if (!over.ok) expect(over.error[0]?.code).toBe('record.missile-twice')
  })
})
