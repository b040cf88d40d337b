/**
 * What the terminal game shows, as a person sees it: ships named as the notation names them (a
 * number only among several of a type, NOTATION.md C-05), the confirmation drawn once and whole
 * however it wraps, a refused line kept in the prompt to be mended under its error, and `games` saying
 * when a stopped game stopped in the words of its end screen.
 */
import { describe, expect, it } from 'vitest'
import { parseRecord } from '../../src/games/spaceships/rules/record.js'
import { describeRecord } from '../../src/games/spaceships/ui/panel.js'
import { cli } from '../cli.js'
import { freshHome, onTerminal } from './terminal-screen.js'

// The live game's names of the opponent's ships, from a scripted turn: test/ui/human.test.ts.
describe('ships are numbered only among several of a type (NOTATION.md, C-05)', () => {
  it('show names both sides as their revealed setups do: KC in a standard fleet, FS1 and FS2 in a fleet of two saucers', async () => {
    const env = freshHome()
    for (const [ruleset, lone, pair] of [
      ['2.6.1 fleet=standard', /\b(your|their) (DS|KC|MD)\b/i, /\b(your|their) (DS|KC|MD)1\b/i],
      ['2.6.1 fleet=cost:8 allow=FS', /\b(your|their) FS[12]\b/i, /\b(your|their) FS\b/i],
    ] as const) {
      const played = await cli(
        ['play', '--autoplay', '--bot', 'random', '--seed', 'names', '--ruleset', ruleset, '--out', 'g.transcript'],
        {},
        { env },
      )
      expect(played.code, played.err).toBe(0)
      const transcript = played.files['g.transcript'] ?? ''
      for (const side of ['A', 'B']) {
        const shown = await cli(['show', 'g.transcript', '--as', side], { 'g.transcript': transcript }, { env })
        expect(shown.code).toBe(0)
        expect(shown.out, ruleset).toMatch(lone)
        expect(shown.out, ruleset).not.toMatch(pair)
      }
    }
  }, 30_000)

  it(
    'the live game against the bot says which of your ships it destroyed without a number',
    { timeout: 30_000 },
    async () => {
      const t = onTerminal(['play', '--seed', 'readme', '--max-turns', '3'], { env: freshHome() })
      let at = await t.seen('Your setup')
      await t.type('\r')
      for (const turn of [1, 2, 3]) {
        at = await t.seen(`? Turn ${turn} record`, at)
        await t.type('-\r')
        await t.seen('Sign and send: nothing this turn?', at)
        await t.type('\r')
      }
      await t.done
      const screen = t.terminal.text()
      expect(screen).toMatch(/They destroyed your (DS|KC|PC|FS|MD|HS|LS)\n/)
      expect(screen).not.toMatch(/your [A-Z]{2}\d/)
    },
  )
})

describe('the prompts as a terminal shows them', () => {
  /** Plays turn 1 of `play --seed readme` on a terminal `columns` wide; returns the terminal once the record typed is signed. */
  async function signTurn1(record: string, columns?: number): Promise<ReturnType<typeof onTerminal>> {
    const t = onTerminal(['play', '--seed', 'readme', '--max-turns', '1'], {
      env: freshHome(),
      ...(columns === undefined ? {} : { columns }),
    })
    const at = await t.seen('Your setup')
    await t.type('\r')
    const prompt = await t.seen('? Turn 1 record', at)
    await t.type('Zz9\r')
    await t.seen('> Zz9', prompt)
    // The refused line stays in the prompt, to be mended; its error is under it.
    // The prompt carries the move's clock, running (SPEC §6.6): what is left of the 10 minutes.
    expect(t.terminal.lines()[prompt]).toMatch(/^\? Turn 1 record \(\d+:\d\d left\) Zz9 /)
    expect(
      t.terminal
        .lines()
        .slice(prompt + 1)
        .find((l) => l.startsWith('> ')),
    ).toMatch(/^> Zz9: strike target: colour must be one of R O Y G B/)
    // Mended: the bad word rubbed out, the record typed.
    await t.type(`\b\b\b${record}\r`)
    await t.seen('Sign and send', prompt)
    await t.type('\r')
    const r = await t.done
    expect(r.code, r.err).toBe(0)
    return t
  }

  // Records whose confirmation, wrapped to the width, had a line the prompt's mark or answer pushed
  // over it: the terminal broke it mid-word ("launched from R" / "v1").
  for (const [columns, record] of [
    [undefined, 'Ov1 Ov2 Ov3 Ov4 Ov5 mRv1 Gz5 sYw3'],
    [80, 'mRv1 Gz5 Ov1 Ov2 Ov3 Ov4 Ov5 Ow1 Ow2 Ow3 sYw3'],
  ] as const)
    it(`a confirmation that wraps is drawn once, whole, no word split (${columns ?? 'default'} columns); a refused line stays to be mended`, async () => {
      const t = await signTurn1(record, columns)
      const lines = t.terminal.lines()
      expect(lines.filter((l) => l.includes('Sign and send')).length).toBe(1)
      expect(lines.filter((l) => l.includes('Turn 1 record')).length).toBe(1)
      expect(lines).toContain(`✔ Turn 1 record ${record}`)
      const from = lines.findIndex((l) => l.startsWith('✔ Sign and send'))
      const to = lines.findIndex((l, i) => i >= from && l.endsWith('? Yes'))
      expect(to - from, lines.slice(from, to + 1).join('\n')).toBeGreaterThan(0)
      for (const line of lines) expect(Array.from(line).length, line).toBeLessThanOrEqual(columns ?? 100)
      const actions = parseRecord(record, { variant: '2.6.1', mode: 'lenient' })
      if (!actions.ok) throw new Error(record)
      expect(
        lines
          .slice(from, to + 1)
          .map((l) => l.trim())
          .join(' '),
      ).toBe(`✔ Sign and send: ${describeRecord(actions.value)}? Yes`)
    }, 30_000)
})

describe('games and the end screen say when a stopped game stopped in one wording', () => {
  it('a game the bot stopped while this side’s move was due: "stopped in turn 1" in games as at the end, the committed turns unchanged in --json', async () => {
    const env = freshHome()
    const t = onTerminal(['play', '--random', '--turn-seconds', '3', '--max-turns', '3', '--seed', 'stopped'], {
      env,
    })
    await t.seen('? Turn 1 record')
    const r = await t.done
    expect(r.code, r.err).toBe(5)
    const ended = /Adjudicated: your opponent \(B\) (stopped in turn \d+) while your move was due/.exec(r.out)
    expect(ended?.[1]).toBe('stopped in turn 1')
    const listed = await cli(['games'], {}, { env })
    expect(listed.out).toMatch(
      /play you A vs the hard bot, stopped in turn 1\n {10}Adjudicated: your opponent \(B\) stopped in turn 1 /,
    )
    for (const line of listed.out.split('\n')) expect(Array.from(line).length, line).toBeLessThanOrEqual(100)
    const json = JSON.parse((await cli(['games', '--json'], {}, { env })).out) as { turn: number; status: string }[]
    expect(json[0]).toMatchObject({ turn: 0, status: 'adjudicated' })
  }, 30_000)
})
