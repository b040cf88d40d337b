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

  test('selfplay writes a transcript that verify accepts', async () => {
    const r = await cli(['selfplay', '--seed', 'cli', '--out', 'game.transcript'])
    expect(r.code).toBe(0)
    const v = await cli(['verify', 'game.transcript'], r.files)
    expect(v.code).toBe(0)
    expect(v.out).toBe(r.out.split('\n').slice(1).join('\n'))
  })
})
