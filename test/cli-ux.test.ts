/**
 * What a new user meets at the command line: mistakes refused before anything is written, JSON
 * that parses, every turn narrated, limits and ids said where they are needed.
 */
import { existsSync, mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { formatInvite, notaryKeyOf } from '../src/games/spaceships/net/invite.js'
import { writeMeta } from '../src/cli/games.js'
import { DEFAULT_TERMS } from '../src/games/spaceships/protocol/messages.js'
import { cli } from './cli.js'

function home(): NodeJS.ProcessEnv {
  const d = mkdtempSync(join(tmpdir(), 'spaceships-ux-'))
  return { XDG_CONFIG_HOME: join(d, 'config'), XDG_STATE_HOME: join(d, 'state'), NO_COLOR: '1' }
}

const noTerminal = { prompter: () => undefined }

describe('the command line for a new user', () => {
  it('join and host without a terminal or with a bad address: one line, exit 64, and no game stored to get stuck on', async () => {
    const env = home()
    const invite = formatInvite({
      id: 'ab'.repeat(16),
      peer: '12D3KooWJdUcJdPwryb8qs3uBvXBkasD8oRVgqpNwK36kSzYFiDD',
      addrs: ['/ip4/127.0.0.1/tcp/1'],
      terms: DEFAULT_TERMS,
    })
    const joined = await cli(['join', invite, '--yes'], {}, { env, ...noTerminal })
    expect(joined.code).toBe(64)
    expect(joined.err).toMatch(
      /^spaceships join: standard input is not a terminal, so nobody can type your moves: add --autoplay/,
    )
    const hosted = await cli(['host', '--autoplay', '--listen', 'garbage'], {}, { env, ...noTerminal })
    expect(hosted.code).toBe(64)
    expect(hosted.err).toBe('spaceships host: --listen: "garbage" is not a multiaddr (e.g. /ip4/0.0.0.0/tcp/4011)\n')
    expect((await cli(['games'], {}, { env })).out).toMatch(/^No games on this machine yet/)
    expect(existsSync(join(env['XDG_STATE_HOME'] ?? '', 'spaceships', 'games'))).toBe(false)
  })

  it('a witnessed game of a move a day with short automatic replies is warned of before anything starts (PROTOCOL-4.md §4.2)', async () => {
    const notary = '/ip4/127.0.0.1/tcp/1/p2p/12D3KooWJdUcJdPwryb8qs3uBvXBkasD8oRVgqpNwK36kSzYFiDD'
    const day = ['host', '--notary', notary, '--turn-seconds', '86400', '--listen', '/ip4/127.0.0.1/tcp/0']
    const warned = await cli([...day, '--reply-seconds', '60'], {}, { env: home(), ...noTerminal })
    expect(warned.code).toBe(64)
    expect(warned.err.replace(/\s+/g, ' ')).toContain(
      'warning: --reply-seconds 60 in a game of 1 day per move: each automatic step (results, openings, flashcube data) is due within 1 min of the move it answers, so a player who only checks in loses on time unless `spaceships watch` runs on its machine.',
    )
    // Left to its default, a reply gets the move's day: nothing to warn of.
    const quiet = await cli(day, {}, { env: home(), ...noTerminal })
    expect(quiet.err).toMatch(/^spaceships host: standard input is not a terminal/)
  })

  it('a witnessed game nobody joined yet: a check-in says it has not begun, and watch passes it by (PROTOCOL-4.md §4)', async () => {
    const env = home()
    const notary = '/ip4/127.0.0.1/tcp/1/p2p/12D3KooWJdUcJdPwryb8qs3uBvXBkasD8oRVgqpNwK36kSzYFiDD'
    const key = notaryKeyOf(notary)
    if (!key.ok) throw new Error(key.message)
    const id = 'ab12'.repeat(8)
    writeMeta(
      {
        v: 1,
        id,
        role: 'host',
        invite: formatInvite({
          id,
          peer: '12D3KooWJdUcJdPwryb8qs3uBvXBkasD8oRVgqpNwK36kSzYFiDD',
          addrs: ['/ip4/127.0.0.1/tcp/1'],
          terms: { ...DEFAULT_TERMS, notary: key.key, reserveMs: 0 },
          notary: [notary],
        }),
        listen: [],
        relays: [],
        player: { kind: 'human' },
      },
      env,
    )
    // The host's identity exists, as it does on the machine that hosted the game.
    expect((await cli(['id'], {}, { env })).code).toBe(0)
    const checkIn = await cli(['resume', 'ab12ab12', '--check-in'], {}, { env })
    expect(checkIn.code).toBe(64)
    expect(checkIn.err).toBe(
      'spaceships resume: game ab12ab12 has not begun (nobody has joined it yet): a check-in goes through the notary once both nodes have met; carry it on live with spaceships resume ab12ab12\n',
    )
    const watched = await cli(['watch', '--once'], {}, { env })
    expect([watched.code, watched.out, watched.err]).toEqual([0, 'game ab12ab12: nobody has joined yet\n', ''])
  })

  it('a usage error is short: the problem and the suggestion, not the whole help', async () => {
    const r = await cli(['play', '--autopaly'])
    expect(r.code).toBe(64)
    expect(r.err.trim().split('\n').length).toBeLessThanOrEqual(2)
    expect(r.err).toContain("unknown option '--autopaly'")
  })

  it('play --json prints JSON alone, naming the game and your side; every turn is narrated without it; a turn-limited export says why the referee sees no end', async () => {
    const env = home()
    const json = await cli(
      ['play', '--autoplay', '--bot', 'random', '--max-turns', '3', '--seed', 'ux', '--json'],
      {},
      { env },
    )
    expect(json.code, json.err).toBe(0)
    const parsed = JSON.parse(json.out) as { game: string; you: string; verdict: { status: string } }
    expect(parsed).toMatchObject({ you: 'A', verdict: { status: 'complete' } })
    const told = await cli(
      ['play', '--autoplay', '--bot', 'random', '--max-turns', '4', '--seed', 'ux2', '--out', 'g.transcript'],
      {},
      { env },
    )
    expect(told.code, told.err).toBe(0)
    for (const t of [1, 2, 3, 4]) expect(told.out).toContain(`turn ${String(t).padStart(3)}:`)
    const id = /Saved as game ([0-9a-f]{8}) /.exec(told.out)?.[1] ?? ''
    expect(told.out).toContain(`its record for the referee: spaceships export ${id}`)
    const exported = await cli(['export', id, '--out', 'g.record'], {}, { env })
    expect(exported.out).toMatch(
      /Note: the game ended at the agreed limit of 4 turns: \d+-\d+; the referee, knowing no limit, reads it as stopped before its end\./,
    )
    expect(exported.files['g.record']).toContain('# the game ended at the agreed limit of 4 turns')
    const shown = await cli(
      ['show', 'g.transcript', '--as', 'A', '--turn', '9'],
      { 'g.transcript': told.files['g.transcript'] ?? '' },
      { env },
    )
    expect(shown.code).toBe(64)
    expect(shown.err).toBe('spaceships show: --turn: this game has 4 turns\n')
  }, 60_000)
})
