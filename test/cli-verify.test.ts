/** `spaceships verify` and `spaceships selfplay` from the command line (issue 3). */
import { describe, expect, test } from 'vitest'
import { cli } from './cli.js'

const vector = (name: string): string => new URL(`../protocol/vectors/${name}`, import.meta.url).pathname

describe('spaceships verify', () => {
  test('exit 0 and the score for a complete honest game', async () => {
    const r = await cli(['verify', vector('honest.transcript')])
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/^complete and honest/)
    expect(r.out).toMatch(/score A \d+, B \d+/)
  })

  test('exit 1 naming offender, class, rule and turn for a proven offence (C-28)', async () => {
    const r = await cli(['verify', vector('illegal-record.transcript')])
    expect(r.code).toBe(1)
    expect(r.out).toMatch(/^offence by B: illegal-record in turn 2/)
    const j = await cli(['verify', '--json', vector('equivocation.transcript')])
    expect(j.code).toBe(1)
    expect(JSON.parse(j.out)).toMatchObject({ status: 'offence', offence: { offender: 'B', class: 'equivocation' } })
  })

  test('exit 3 for an abandoned game, naming who stopped and who was honest (DESIGN goal 4)', async () => {
    const r = await cli(['verify', vector('abandonment.transcript')])
    expect(r.code).toBe(3)
    expect(r.out).toMatch(/B stopped after its aspects of turn 3/)
    expect(r.out).toMatch(/honest as far as its own reveal shows: A/)
  })

  test('exit 2 for an unreadable or missing file', async () => {
    expect((await cli(['verify', vector('garbage.transcript')])).code).toBe(2)
    expect((await cli(['verify', '/nonexistent/x.transcript'])).code).toBe(2)
  })

  test('a whole tournament at once: verdicts on several threads equal the one-file verdicts, one line each, the worst exit status (issue 6)', async () => {
    const names = ['honest.transcript', 'illegal-record.transcript', 'abandonment.transcript', 'equivocation.transcript', 'false-flashcube-data.transcript', 'honest.transcript']
    const files = names.map(vector)
    const many = await cli(['verify', '--json', '--jobs', '3', ...files])
    const parsed = JSON.parse(many.out) as { summary: Record<string, number>; transcripts: { file: string; verdict: unknown }[] }
    expect(parsed.summary).toEqual({ transcripts: 6, complete: 2, offence: 3, incomplete: 1, unreadable: 0 })
    for (const [i, f] of files.entries()) {
      const one = await cli(['verify', '--json', f])
      expect(parsed.transcripts[i]).toEqual({ file: f, verdict: JSON.parse(one.out) as unknown })
    }
    // Any offence outranks an incomplete game; an unreadable file outranks both.
    expect(many.code).toBe(1)
    const text = await cli(['verify', '--jobs', '2', vector('honest.transcript'), vector('abandonment.transcript'), '/nonexistent/x.transcript'])
    expect(text.code).toBe(2)
    expect(text.out.split('\n')).toEqual([
      expect.stringMatching(/honest\.transcript: complete and honest, turn \d+, A \d+ B \d+: /),
      expect.stringMatching(/abandonment\.transcript: incomplete: .*B stopped after its aspects of turn 3/),
      expect.stringMatching(/x\.transcript: unreadable: cannot read the file: ENOENT/),
      '3 transcripts: 1 complete and honest, 0 with an offence, 1 incomplete, 1 unreadable',
      '',
    ])
    expect((await cli(['verify', '--jobs', '0', vector('honest.transcript')])).code).toBe(64)
  })

  test('selfplay writes a transcript that verify accepts', async () => {
    const r = await cli(['selfplay', '--seed', 'cli', '--out', 'game.transcript'])
    expect(r.code).toBe(0)
    const v = await cli(['verify', 'game.transcript'], r.files)
    expect(v.code).toBe(0)
    expect(v.out).toBe(r.out.split('\n').slice(1).join('\n'))
  })
})
