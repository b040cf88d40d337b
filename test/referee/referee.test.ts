import { readFile } from 'node:fs/promises'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { cli } from '../cli.js'
import { type Adjudication, adjudicate } from '../../src/games/spaceships/referee/adjudicate.js'
import { FILE_ERROR_CODES, parseGameRecord } from '../../src/games/spaceships/referee/file.js'
import { randomGameRecord } from '../../src/games/spaceships/referee/simulate.js'
import { CLASSIC_RULESET, DEFAULT_RULESET } from '../../src/games/spaceships/rules/ruleset.js'

const EXAMPLES = new URL('../../protocol/examples/', import.meta.url)

const example = (name: string): string => new URL(name, EXAMPLES).pathname

describe('spaceships referee on protocol/examples', () => {
  it.each([
    ['tour.record', 0, 'unfinished'],
    ['no-actions.record', 0, 'complete'],
    ['continued-match.record', 0, 'complete'],
    ['random-standard.record', 0, 'complete'],
    ['random-classic.record', 0, 'complete'],
    ['illegal-setup.record', 1, 'illegal'],
    ['illegal-missile.record', 1, 'illegal'],
  ])('%s: exit %i, %s', async (name, code, status) => {
    const r = await cli(['referee', '--json', example(name)])
    expect(r.code).toBe(code)
    const a = JSON.parse(r.out) as Adjudication
    expect(a.status).toBe(status)
  })

  it('tour: beam burn-out, missile explosions, flashcube data, kamikaze and C-16 scans as documented', async () => {
    const a = JSON.parse((await cli(['referee', '--json', example('tour.record')])).out) as Adjudication
    const [t1, t2] = a.games[0]!.turns
    expect(t1!.players[0].burnouts).toEqual(['DS'])
    expect(t1!.players[0].exchanges[3]).toEqual({
      kind: 'strike',
      target: 'Oy5',
      result: 'hit',
      explosions: ['Oy5', 'Ox5', 'Oz5'],
    })
    expect(t1!.players[1].flashcube).toEqual([
      [
        { cell: 'Bv1', empty: false, destroyed: false, ship: 'DS' },
        { cell: 'Bv2', empty: false, destroyed: false, ship: 'DS' },
        { cell: 'Bw1', empty: false, destroyed: false, ship: 'DS' },
        { cell: 'Bw2', empty: false, destroyed: false, ship: 'DS' },
      ],
    ])
    expect(t2!.players[0].entitlements.scans).toBe(4)
    expect(t2!.players[1].entitlements.kamikazes).toEqual([
      { ship: 'PC', cells: ['Rz5'] },
      { ship: 'HS', cells: ['Yx2'] },
    ])
    expect(t2!.players[1].exchanges.at(-1)).toEqual({ kind: 'kamikaze-death', cell: 'Yx2' })
    expect(a.games[0]!.turns[2]!.players[0].record).toBe('mBz3 Yz3 Yz1 Yz2 Gz1 Gz2') // C-06: canonical full launch cell
  })

  it('C-28: the illegal examples name the player, the turn, the rule and the line', async () => {
    const setup = JSON.parse((await cli(['referee', '--json', example('illegal-setup.record')])).out) as Adjudication
    expect(setup.offence).toMatchObject({ player: 'A', turn: 0, kind: 'illegal setup', line: 6 })
    expect(setup.offence?.violations[0]).toMatchObject({ code: 'setup.shape', rule: '§3.5 §6.2.2 C-08', subject: 'DS' })
    const missile = JSON.parse(
      (await cli(['referee', '--json', example('illegal-missile.record')])).out,
    ) as Adjudication
    expect(missile.offence).toMatchObject({ player: 'B', turn: 2, kind: 'illegal record', line: 24 })
    expect(missile.offence?.violations[0]?.code).toBe('record.missile-no-match')
  })

  it("§9.4 C-11: the continued match carries B's 3 into game 2 and sums the scores", async () => {
    const a = JSON.parse((await cli(['referee', '--json', example('continued-match.record')])).out) as Adjudication
    expect(a.games.map((g) => g.additional)).toEqual([
      [0, 0],
      [0, 3],
    ])
    expect(a.result).toEqual({ scores: [0, 8], winner: 'B' })
  })

  it('text output ends in a verdict line and prints every turn', async () => {
    const r = await cli(['referee', example('random-classic.record')])
    expect(r.out).toMatch(
      /Game 1 ends after turn 36: A's fleet destroyed \(§2\.3\.1 C-25\)\. Score A 0, B 15\. B wins\./,
    )
    expect(r.out.trimEnd().split('\n').at(-1)).toBe('LEGAL: every setup and record obeys the rules.')
    expect(r.out.match(/^Turn \d+$/gm)).toHaveLength(36)
  })
})

describe('referee input handling (exit 2 for unreadable files)', () => {
  it('a missing file is exit 2 with the reason', async () => {
    const r = await cli(['referee', '/nonexistent/x.record'])
    expect(r.code).toBe(2)
    expect(r.err).toMatch(/cannot read/)
  })

  it.each([
    ['no magic', 'ruleset 2.6.1\n', 'file.magic', 1],
    ['bad ruleset', 'spaceships-record 1\nruleset 2.7\n', 'file.ruleset', 2],
    ['turn before setup', 'spaceships-record 1\nturn 1\n', 'file.order', 2],
    ['skipped turn number', 'spaceships-record 1\nsetup A\nLS Rv1\nsetup B\nLS Rv2\nturn 2\nA:\nB:\n', 'file.order', 6],
    ['missing B record', 'spaceships-record 1\nsetup A\nLS Rv1\nsetup B\nLS Rv2\nturn 1\nA: sRv2\n', 'file.missing', 6],
    [
      'two games without match',
      'spaceships-record 1\ngame 1\nsetup A\nsetup B\ngame 2\nsetup A\nsetup B\n',
      'file.match',
      5,
    ],
    ['stray text', 'spaceships-record 1\nhello\n', 'file.directive', 2],
  ])('%s -> %s at line %i', async (_name, text, code, line) => {
    const parsed = parseGameRecord(text)
    expect(parsed.ok).toBe(false)
    if (!parsed.ok) expect(parsed.error).toMatchObject({ code, line })
    const r = await cli(['referee', 'x.record'], { 'x.record': text })
    expect(r.code).toBe(2)
    expect(r.err).toContain(`x.record:${line}:`)
  })

  it('turns recorded after the game ended make the record malformed (exit 2)', async () => {
    const text =
      'spaceships-record 1\nruleset 2.6.1 fleet=cost:1\nsetup A\nLG Rv1\nsetup B\nLG Rv1\nturn 1\nA: mRv1 Rv1\nB:\nturn 2\nA:\nB:\n'
    const r = await cli(['referee', 'x.record'], { 'x.record': text })
    expect(r.code).toBe(2)
    expect(r.out).toMatch(/MALFORMED: game 1 ended after turn 1, but the record goes on to turn 2/)
  })

  it('invalid UTF-8 is refused', () => {
    const r = parseGameRecord(new Uint8Array([0x73, 0xff, 0xfe]))
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error.code).toBe('file.encoding')
  })

  it('hostile bytes never crash: a file error with a known code, or an adjudication', () => {
    const codes = new Set<string>(FILE_ERROR_CODES)
    const lines = [
      'spaceships-record 1',
      'ruleset 2.6.1',
      'ruleset classic',
      'match continued',
      'game 1',
      'game 2',
      'setup A',
      'setup B',
      'turn 1',
      'turn 2',
      'A: Rv1',
      'B: sRv1',
      'A: mBz1 Rv1',
      'B: -',
      'LS Rv1',
      'LG Bz1',
      'DS Rv1',
      'players a b',
      '#x',
    ]
    fc.assert(
      fc.property(
        fc.oneof(
          fc.uint8Array({ maxLength: 200 }),
          fc.array(fc.constantFrom(...lines), { maxLength: 30 }).map((l) => new TextEncoder().encode(l.join('\n'))),
        ),
        (bytes) => {
          const parsed = parseGameRecord(bytes)
          if (!parsed.ok) {
            expect(codes.has(parsed.error.code)).toBe(true)
            return
          }
          const a = adjudicate(parsed.value)
          expect(['complete', 'unfinished', 'illegal', 'malformed']).toContain(a.status)
        },
      ),
      { numRuns: 1500 },
    )
  })
})

describe('record random (reproducible material for the referee)', () => {
  it('the same seed gives the same game; every random game adjudicates legal and complete', () => {
    expect(randomGameRecord(DEFAULT_RULESET, 's1')).toBe(randomGameRecord(DEFAULT_RULESET, 's1'))
    for (let i = 0; i < 10; i++) {
      const parsed = parseGameRecord(randomGameRecord(i % 2 === 0 ? DEFAULT_RULESET : CLASSIC_RULESET, `seed-${i}`))
      expect(parsed.ok).toBe(true)
      if (parsed.ok) expect(adjudicate(parsed.value).status).toBe('complete')
    }
  })

  it('the committed random examples are exactly what their seeds produce', async () => {
    const standard = await readFile(example('random-standard.record'), 'utf8')
    expect(standard).toBe(randomGameRecord(DEFAULT_RULESET, '9'))
    const classic = await readFile(example('random-classic.record'), 'utf8')
    expect(classic).toBe(randomGameRecord(CLASSIC_RULESET, '12'))
  })
})

describe('CLI basics', () => {
  it('--help lists every command; each command has its own --help', async () => {
    const top = await cli(['--help'])
    expect(top.code).toBe(0)
    for (const c of ['referee', 'setup', 'record']) expect(top.out).toContain(c)
    for (const c of [['referee'], ['setup', 'random'], ['setup', 'check'], ['record', 'random']]) {
      const r = await cli([...c, '--help'])
      expect(r.code, c.join(' ')).toBe(0)
      expect(r.out).toMatch(/Usage: spaceships/)
    }
  })

  it('an unknown command is a usage error', async () => {
    const r = await cli(['fly'])
    expect(r.code).toBe(64)
    expect(r.err).toMatch(/unknown command/)
  })

  it('setup random | setup check round-trips, and check names what is wrong', async () => {
    const made = await cli(['setup', 'random', '--seed', 'x', '--ruleset', '2.6.1 fleet=cost:24'])
    expect(made.code).toBe(0)
    const checked = await cli(['setup', 'check', 'mine.setup', '--ruleset', '2.6.1 fleet=cost:24'], {
      'mine.setup': made.out,
    })
    expect(checked.code).toBe(0)
    expect(checked.out).toMatch(/^LEGAL setup/)
    const bad = await cli(['setup', 'check', 'bad.setup'], { 'bad.setup': 'DS Rv1 Rv2\nKC Rv6' })
    expect(bad.code).toBe(1)
    expect(bad.out).toMatch(/Rv6: number must be 1\.\.5 \(C-01 §11\.4\.3\)/)
  })
})
