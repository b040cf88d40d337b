/** The referee's reading of the record and its JSON (rules/spaaace.md appendix). */
import { describe, expect, it } from 'vitest'
import { referee } from '../../../src/games/spaaace/referee/referee.js'
import { HEADER3, last, states, ticks } from './helpers.js'

describe('the open game record', () => {
  it('the appendix example: comments, blank lines, terms in any order', () => {
    const text = `# before the first line\n\nspaaace 1\nterms withholdFine=2 coins=10\nplayer alice\nplayer bob\nplayer carol\ntick 1\nalice: move 2; attack bob    # alice joins bob\nbob: buy 2\ncarol: withheld\ntick 2\nalice: bid 12\nbob: bid 0\ncarol: -\n`
    const s = states(text)
    expect(s[0]!.players['carol']).toEqual({ coins: 9, fame: 0, status: 'active', absent: 1 })
    expect(s[1]!.battles[0]).toEqual({
      a: 'alice',
      b: 'bob',
      initiated: 1,
      bids: [12, 0],
      spent: [12, 0],
      winner: 'alice',
    })
    expect(s[1]!.players['alice']?.fame).toBe(-1)
  })

  it('labels that JavaScript objects would reorder or drop keep roster order: "12", "__proto__", "0"', () => {
    const r = referee('spaaace 1\nplayer zed\nplayer 12\nplayer __proto__\nplayer 0\ntick 1\n12: ally 0\n0: ally 12\n')
    const json = r.ticks[0]!.json
    expect(json.indexOf('"zed"')).toBeLessThan(json.indexOf('"12"'))
    expect(json).toContain('"ships":{"zed":{"sector":1,"armour":10,"energy":20,"engaging":false},"12":{"sector":2,')
    expect(json).toContain('"__proto__":{"sector":3')
    expect(json).toContain('"declarations":[["12","0"],["0","12"]],"alliances":[["12","0"]]')
  })

  it('sorts: declarations by roster index of author then other; claims by tick then roster; winners in roster order', () => {
    const s = last(HEADER3 + ticks(['c: ally a; ally b', 'a: ally c', 'b: ally a']))
    expect(s.declarations).toEqual([
      ['a', 'c'],
      ['b', 'a'],
      ['c', 'a'],
      ['c', 'b'],
    ])
    expect(s.alliances).toEqual([['a', 'c']])
  })

  it('CRLF line ends, tabs, a line `LABEL:` with nothing after it (malformed, not a record error)', () => {
    const s = last('spaaace 1\r\nplayer a\r\nplayer b\r\nplayer c\r\ntick 1\r\na:\tmove\t2\r\nb:\r\n')
    expect(s.ships['a']?.sector).toBe(2)
    expect(s.offences).toEqual([{ player: 'b', rule: 'S-37' }])
  })

  it('a truncated record is valid: the ticks so far, no error', () => {
    const r = referee(HEADER3)
    expect(r).toMatchObject({ ticks: [], error: null })
  })

  it.each([
    ['', 1, /spaaace 1/],
    ['spaaace 2\n', 1, /first line/],
    ['# only a comment\n', 2, /spaaace 1/],
    ['spaaace 1\nplayer a\nplayer a\n', 3, /twice/],
    ['spaaace 1\nplayer a b\n', 2, /not a line/],
    ['spaaace 1\nplayer a\nplayer b\n', 4, /S-01/],
    [`${HEADER3}a: -\n`, 5, /before the first tick/],
    [`${HEADER3}tick 1\na: -\na: buy 1\n`, 7, /second line/],
    [`${HEADER3}tick 1\nd: -\n`, 6, /unknown player/],
    [`${HEADER3}tick 1\na : -\n`, 6, /not a line/],
    [`${HEADER3}tick 01\n`, 5, /not a line/],
    [`${HEADER3}spaaace 1\n`, 5, /not a line/],
    ['spaaace 1\nterms coins\n', 2, /name=value/],
    ['spaaace 1\nterms infamyWins=yes\n', 2, /on or off/],
    ['spaaace 1\nterms tickMs=0\n', 2, /S-90/],
  ])('record error in %j at line %i', (text, line, message) => {
    const r = referee(text)
    expect(r.error?.line).toBe(line)
    expect(r.error?.message).toMatch(message)
  })

  it('a bad line inside a tick block: the ticks closed before it only', () => {
    const r = referee(`${HEADER3}tick 1\ntick 2\nnonsense\n`)
    expect(r.ticks.map((t) => t.tick)).toEqual([1])
    expect(r.error?.line).toBe(7)
  })

  it('start and tickMs may be given with the wormhole off, to no effect', () => {
    expect(
      last(
        'spaaace 1\nterms start=2019-02-05T00:00:00Z tickMs=86400000\nplayer a\nplayer b\nplayer c\n' +
          ticks(['b: move 5']),
      ).ships['b']?.sector,
    ).toBe(2)
  })
})
