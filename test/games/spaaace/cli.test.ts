/** `spaceships spaaace referee` and `spaaace record random`, through the command line. */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from '../../cli.js'
import { unfinishedNote } from '../../../src/cli/spaaace-games.js'
import { formatSpaaaceInvite } from '../../../src/games/spaaace/node/invite.js'
import { liveGenesis, roster, sealedGenesis } from './peers/fixtures.js'
import { HEADER3, ticks } from './helpers.js'

const GOOD = HEADER3 + ticks(['a: move 2; attack b', 'c: withheld'], ['a: bid 12', 'b: bid 0'])
const BAD = `${GOOD}tick 3\nzed: buy 2\n`

describe('spaceships spaaace', () => {
  it('referee FILE prints each tick in words and exits 0', async () => {
    const r = await cli(['spaaace', 'referee', 'g.rec'], { 'g.rec': GOOD })
    expect(r.code).toBe(0)
    expect(r.out).toMatch(/^tick 1\n/)
    expect(r.out).toContain('a attacks b in sector 2')
    expect(r.out).toContain(
      "Battle a against b (initiated in tick 1): bids 12 and 0, spent 12 and 0; a wins (S-42). Fame (S-43): a win over an infamous player raises the winner's by 1, any other win lowers it by 1; the loser's moves one toward 0.",
    )
    expect(r.err).toBe('')
  })

  it('referee --json prints one compact JSON line per tick, keys in the appendix order', async () => {
    const r = await cli(['spaaace', 'referee', '--json', 'g.rec'], { 'g.rec': GOOD })
    expect(r.code).toBe(0)
    const lines = r.out.trimEnd().split('\n')
    expect(lines).toHaveLength(2)
    expect(Object.keys(JSON.parse(lines[0]!) as object)).toEqual([
      'tick',
      'ships',
      'players',
      'declarations',
      'alliances',
      'battles',
      'claims',
      'offences',
      'winners',
      'ended',
    ])
    expect(lines[1]).toContain('"battles":[{"a":"a","b":"b","initiated":1,"bids":[12,0],"spent":[12,0],"winner":"a"}]')
  })

  it('a record error: the ticks before the bad line on stdout, "error LINE: MESSAGE" on stderr, exit 2', async () => {
    const r = await cli(['spaaace', 'referee', '--json', 'g.rec'], { 'g.rec': BAD })
    expect(r.code).toBe(2)
    expect(r.out.trimEnd().split('\n')).toHaveLength(2)
    expect(r.err).toBe('error 12: unknown player "zed" (spaaace.md appendix)\n')
  })

  it('hostile records give one line naming the line and the rule, never a stack trace', async () => {
    const hostile = [
      '',
      '\u0000\u0001garbage',
      'spaaace 2\n',
      `spaaace 1\nterms maxTicks=99999999999999999999\n`,
      `spaaace 1\nplayer ${'x'.repeat(33)}\n`,
      `${HEADER3}tick 1\na: move ${'3 '.repeat(5000)}\n`,
      `${HEADER3}tick 1\na: -\na: -\n`,
      `${HEADER3}tick 1\ntick 1\n`,
    ]
    for (const text of hostile) {
      const r = await cli(['spaaace', 'referee', 'h.rec'], { 'h.rec': text })
      if (r.code === 0) continue
      expect(r.code).toBe(2)
      expect(r.err).toMatch(/^error \d+: [^\n]+\((S-\d\d|spaaace\.md appendix)[^\n]*\)\n$/)
    }
    const missing = await cli(['spaaace', 'referee', '/nonexistent/x.rec'])
    expect(missing.code).toBe(2)
    expect(missing.err).toMatch(/^spaceships spaaace referee: cannot read/)
  })

  it('record random writes the same record for the same seed, a valid one the referee plays to its end', async () => {
    const a = await cli(['spaaace', 'record', 'random', '--seed', 's1', '--players', '5'])
    const b = await cli(['spaaace', 'record', 'random', '--seed', 's1', '--players', '5', '--out', 'r.rec'])
    expect(a.code).toBe(0)
    expect(b.files['r.rec']).toBe(a.out)
    expect(a.out).toMatch(/^spaaace 1\nterms /)
    const r = await cli(['spaaace', 'referee', '--json', 'r.rec'], { 'r.rec': a.out })
    expect(r.code).toBe(0)
    expect(r.out.trimEnd().split('\n').pop()).toMatch(/"ended":true}$/)
    expect((await cli(['spaaace', 'record', 'random', '--players', '2'])).code).toBe(64)
  })

  it('the built executable: streams, exit status', () => {
    const dir = mkdtempSync(join(tmpdir(), 'spaaace-'))
    writeFileSync(join(dir, 'bad.rec'), BAD)
    const bin = resolve('dist', 'cli', 'main.js')
    const r = spawnSync(process.execPath, [bin, 'spaaace', 'referee', '--json', join(dir, 'bad.rec')], {
      encoding: 'utf8',
    })
    expect(r.status).toBe(2)
    expect(r.stdout.split('\n').filter((l) => l !== '')).toHaveLength(2)
    expect(r.stderr).toBe('error 12: unknown player "zed" (spaaace.md appendix)\n')
  })

  it('spaaace games on a machine with no identity lists none and creates none', async () => {
    const home = mkdtempSync(join(tmpdir(), 'spaaace-games-none-'))
    const env = { ...process.env, XDG_STATE_HOME: join(home, 'state'), XDG_CONFIG_HOME: join(home, 'config') }
    const r = await cli(['spaaace', 'games'], {}, { env })
    expect(r.code).toBe(0)
    expect(r.out).toMatch(
      /^No Spaaace! games among people on this machine .* A game against bots \(spaaace play\) is written where it says/,
    )
    expect(r.err).toBe('')
    expect(existsSync(join(home, 'config'))).toBe(false)
    expect((await cli(['spaaace', 'games', '--json'], {}, { env })).out).toBe('[]\n')
  })

  it('spaaace host with a mistyped --player says which, before counting the players (S-01)', async () => {
    const home = mkdtempSync(join(tmpdir(), 'spaaace-host-bad-'))
    const env = { ...process.env, XDG_STATE_HOME: join(home, 'state'), XDG_CONFIG_HOME: join(home, 'config') }
    const r = await cli(['spaaace', 'host', '--player', '12D3KooWxyz'], {}, { env })
    expect(r.code).toBe(64)
    expect(r.err).toMatch(/--player 12D3KooWxyz: not a PeerId/)
    const one = await cli(['spaaace', 'host', '--bots', '1'], {}, { env })
    expect(one.err).toContain('you, 0 named with --player and 1 bot make 2')
  })

  it("spaaace host names the player's unfinished games before it starts a new one (found by a new-user pass)", () => {
    const home = mkdtempSync(join(tmpdir(), 'spaaace-host-again-'))
    const env = { XDG_STATE_HOME: home }
    const keys = roster(3)
    const me = keys[0]?.publicKey ?? new Uint8Array()
    expect(unfinishedNote(env, me, 'spaceships')).toBeUndefined()
    const g = sealedGenesis(liveGenesis(3))
    const dir = join(home, 'spaceships', 'spaaace', g.id.slice(0, 16))
    mkdirSync(dir, { recursive: true })
    writeFileSync(join(dir, 'invite'), `${formatSpaaaceInvite(g, [[], [], []])}\n`)
    expect(unfinishedNote(env, me, 'spaceships')).toBe(
      `Note: this starts a new game. You have a Spaaace! game on this machine that your transcript does not show over; spaceships spaaace join @${join(dir, 'invite')} resumes it.`,
    )
    // Not the player's game: nothing to say.
    expect(unfinishedNote(env, new Uint8Array(32).fill(7), 'spaceships')).toBeUndefined()
  })
})
