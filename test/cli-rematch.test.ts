/**
 * SPEC §2.4: a rematch on the game's connection. After the game each side offers or accepts
 * another with the sides swapped; the new game is played on the same stream, the previous B as A,
 * kept in its own directory, verifiable on its own, and listed by `games`.
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { gameDir } from '../src/cli/games.js'
import { verifyFiles } from '../src/games/spaceships/verify/verify.js'
import { cli, inviteOn } from './cli.js'

function home(): NodeJS.ProcessEnv {
  const d = mkdtempSync(join(tmpdir(), 'spaceships-rematch-'))
  return { XDG_CONFIG_HOME: join(d, 'config'), XDG_STATE_HOME: join(d, 'state'), NO_COLOR: '1' }
}

interface Row {
  id: string
  you: string
  state: string
  turn: number
}

describe('rematch (SPEC §2.4)', () => {
  it('host and joiner both accept one rematch: a second game on the same connection, sides swapped, each verifiable, both listed', async () => {
    const [hostEnv, joinEnv] = [home(), home()]
    let hostScreen = ''
    const host = cli(
      [
        'host',
        '--autoplay',
        '--random',
        '--seed',
        'rematch-a',
        '--listen',
        '/ip4/127.0.0.1/tcp/0',
        '--max-turns',
        '6',
        '--rematch',
        '1',
      ],
      {},
      { env: hostEnv, tap: (t) => (hostScreen += t) },
    )
    const invite = await inviteOn(() => hostScreen)
    const [h, j] = await Promise.all([
      host,
      cli(['join', invite, '--yes', '--autoplay', '--seed', 'rematch-b', '--rematch', '1'], {}, { env: joinEnv }),
    ])
    expect(h.code, h.err).toBeLessThan(64)
    expect(j.code, j.err).toBeLessThan(64)
    expect(h.out).toMatch(/Rematch: game [0-9a-f]{8}; you are B this time\./)
    expect(j.out).toMatch(/Rematch: game [0-9a-f]{8}; you are A this time \(you move first\)\./)
    // Two verdicts on each side: one per game.
    expect(h.out.match(/The verifier, reading it with no trust in either player:/g)).toHaveLength(2)
    const rows = (env: NodeJS.ProcessEnv): Promise<Row[]> =>
      cli(['games', '--json'], {}, { env }).then((r) => JSON.parse(r.out) as Row[])
    const [hostRows, joinRows] = await Promise.all([rows(hostEnv), rows(joinEnv)])
    expect(hostRows.map((r) => [r.you, r.state])).toEqual([
      ['A', 'finished'],
      ['B', 'finished'],
    ])
    expect(joinRows.map((r) => [r.you, r.state])).toEqual([
      ['B', 'finished'],
      ['A', 'finished'],
    ])
    // Both sides name each game alike, and each game's two files decide it together.
    expect(hostRows.map((r) => r.id)).toEqual(joinRows.map((r) => r.id))
    for (const [k, row] of hostRows.entries()) {
      const files = [hostEnv, joinEnv].map((env, i) => ({
        name: `${k}/${i}`,
        content: readFileSync(join(gameDir(row.id, env), 'transcript')),
      }))
      const v = verifyFiles(files)
      expect(['complete', 'adjudicated'], JSON.stringify(v)).toContain(v.status)
    }
    expect((await cli(['resume'], {}, { env: hostEnv })).out).toBe('No game to resume (all games: spaceships games)\n')
  }, 90_000)

  it('a declined rematch ends quietly after the first game', async () => {
    const [hostEnv, joinEnv] = [home(), home()]
    let hostScreen = ''
    const host = cli(
      [
        'host',
        '--autoplay',
        '--random',
        '--seed',
        'rematch-no',
        '--listen',
        '/ip4/127.0.0.1/tcp/0',
        '--max-turns',
        '3',
        '--rematch',
        '1',
      ],
      {},
      { env: hostEnv, tap: (t) => (hostScreen += t) },
    )
    const invite = await inviteOn(() => hostScreen)
    const [h, j] = await Promise.all([
      host,
      cli(['join', invite, '--yes', '--autoplay', '--seed', 'rematch-no-b'], {}, { env: joinEnv }),
    ])
    expect(h.code, h.err).toBeLessThan(64)
    expect(j.code, j.err).toBeLessThan(64)
    expect(h.out).not.toContain('Rematch:')
    expect(JSON.parse((await cli(['games', '--json'], {}, { env: hostEnv })).out)).toHaveLength(1)
  }, 90_000)
})
