/**
 * The game library: `games` lists every game on this machine with its date, opponent, turn and
 * result; `resume` offers only games it can carry on; `export` writes the game record
 * (protocol/GAME-RECORD.md) that `referee` adjudicates to the same result as the verifier.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type GameMeta, gameDir, writeMeta } from '../src/cli/games.js'
import { formatInvite } from '../src/games/spaceships/net/invite.js'
import { TERMS } from './session/helpers.js'
import { verifyTranscript } from '../src/games/spaceships/verify/verify.js'
import { cli } from './cli.js'

function home(): NodeJS.ProcessEnv {
  const d = mkdtempSync(join(tmpdir(), 'spaceships-games-'))
  return { XDG_CONFIG_HOME: join(d, 'config'), XDG_STATE_HOME: join(d, 'state'), NO_COLOR: '1' }
}

const PEER = '12D3KooWJdUcJdPwryb8qs3uBvXBkasD8oRVgqpNwK36kSzYFiDD'
const invite = (id: string): string =>
  formatInvite({ id, peer: PEER, addrs: ['/ip4/127.0.0.1/tcp/4001'], terms: TERMS })

describe('games on a machine that holds Spaaace! games only', () => {
  it('names them and the command that lists them, never just "no games"', async () => {
    const env = home()
    mkdirSync(join(env['XDG_STATE_HOME'] ?? '', 'spaceships', 'spaaace', 'KxBmyTZbpftcsEpP'), { recursive: true })
    const r = await cli(['games'], {}, { env })
    expect(r.out).toBe(
      'No games on this machine yet. Play one: spaceships play\n1 Spaaace! game is listed by: spaceships spaaace games\n',
    )
  })
})

describe('the game library: games, resume, export', () => {
  it('a finished play game is listed with its result, refused by resume, and exports a record the referee adjudicates as the verifier did (GAME-RECORD.md)', async () => {
    const env = home()
    const empty = await cli(['games'], {}, { env })
    expect(empty.out).toBe('No games on this machine yet. Play one: spaceships play\n')

    const played = await cli(
      ['play', '--autoplay', '--seed', 'library', '--bot', 'medium', '--out', 'g.transcript'],
      {},
      { env },
    )
    expect(played.code, played.err).toBe(0)
    const verdict = verifyTranscript(played.files['g.transcript'] ?? '')
    expect(verdict.status).toBe('complete')
    if (verdict.status !== 'complete') return

    const listed = await cli(['games', '--json'], {}, { env })
    const rows = JSON.parse(listed.out) as {
      id: string
      kind: string
      you: string
      opponent: string
      turn: number
      state: string
      result: string
      created: string
    }[]
    expect(rows).toHaveLength(1)
    const row = rows[0]
    if (row === undefined) return
    expect(row).toMatchObject({
      kind: 'play',
      you: 'A',
      opponent: 'the medium bot',
      state: 'finished',
      turn: verdict.turn,
      status: 'complete',
    })
    expect(row.result).toMatch(/^(You win \d+-\d+|You lose \d+-\d+|A draw, \d+-\d+)\.$/)
    expect(Date.now() - Date.parse(row.created)).toBeLessThan(600_000)
    const text = await cli(['games'], {}, { env })
    expect(text.out).toContain(`${row.id.slice(0, 8)}  `)
    expect(text.out).toContain(`play you A vs the medium bot, turn ${verdict.turn}`)
    expect(text.out).toContain(row.result)

    expect((await cli(['resume'], {}, { env })).out).toBe('No game to resume (all games: spaceships games)\n')
    const again = await cli(['resume', row.id.slice(0, 8)], {}, { env })
    expect(again.code).toBe(64)
    expect(again.err).toContain('is already over')

    const exported = await cli(['export', row.id.slice(0, 8), '--out', 'g.record'], {}, { env })
    expect(exported.code, exported.err).toBe(0)
    expect(exported.out).toContain(`Wrote g.record (${verdict.turn} turns). Adjudicate it: spaceships referee g.record`)
    const record = exported.files['g.record'] ?? ''
    expect(record.split('\n')[0]).toBe('spaceships-record 1')
    // --out never replaces another file (as play --out); the same record again is left as it is.
    const clobber = await cli(
      ['export', row.id.slice(0, 8), '--out', 'g.record'],
      { 'g.record': 'my notes\n' },
      { env },
    )
    expect([clobber.code, clobber.files['g.record']]).toEqual([73, 'my notes\n'])
    expect(clobber.err).toContain('--out: g.record already exists and holds something else')
    const same = await cli(['export', row.id.slice(0, 8), '--out', 'g.record'], { 'g.record': record }, { env })
    expect(same.code, same.err).toBe(0)
    // The same record from the transcript file itself.
    const fromFile = await cli(
      ['export', 'g.transcript'],
      { 'g.transcript': played.files['g.transcript'] ?? '' },
      { env },
    )
    expect(fromFile.out.replace(/^# .*\n/m, '')).toBe(record.replace(/^# .*\n/m, ''))
    // show takes a game's id as export does, and draws what the transcript file gives.
    const shownById = await cli(['show', row.id.slice(0, 8), '--turn', '1'], {}, { env })
    expect(shownById.code, shownById.err).toBe(0)
    const shownByFile = await cli(
      ['show', 'g.transcript', '--turn', '1'],
      { 'g.transcript': played.files['g.transcript'] ?? '' },
      { env },
    )
    expect(shownById.out).toBe(shownByFile.out)
    // verify takes a game's id too, and reads that game's transcript.
    const verifiedById = await cli(['verify', row.id.slice(0, 8)], {}, { env })
    expect(verifiedById.code, verifiedById.err).toBe(0)
    expect(verifiedById.out).toContain('complete: the game ended after turn')
    const unknown = await cli(['show', 'ffff0000'], {}, { env })
    expect([unknown.code, unknown.err]).toEqual([
      2,
      'spaceships show: no game or transcript file named ffff0000 (see: spaceships games)\n',
    ])

    const refereed = await cli(['referee', 'g.record', '--json'], { 'g.record': record }, { env })
    expect(refereed.code, refereed.out).toBe(0)
    const a = JSON.parse(refereed.out) as { legal: boolean; games: { end: { scores: number[]; winner: string } }[] }
    expect(a.games[0]?.end.scores).toEqual(verdict.scores)
    expect(a.games[0]?.end.winner).toBe(verdict.winner)
    // A directory given as the record: said in words, not as Node's EISDIR message.
    const dir = await cli(['referee', tmpdir()], {}, { env })
    expect([dir.code, dir.err]).toEqual([
      2,
      `spaceships referee: cannot read ${tmpdir()}: a directory stands where a file is expected\n`,
    ])
  }, 60_000)

  it('resume offers only networked games it can carry on; an interrupted play game says it cannot be resumed', async () => {
    const env = home()
    const base = { v: 1, listen: [], relays: [], player: { kind: 'human' } } as const
    const games: GameMeta[] = [
      {
        ...base,
        id: 'aaaa1111aaaa1111aaaa1111aaaa1111',
        role: 'host',
        invite: invite('aaaa1111aaaa1111aaaa1111aaaa1111'),
        opponent: PEER,
        created: '2026-11-01T10:00:00.000Z',
      },
      {
        ...base,
        id: 'bbbb2222bbbb2222bbbb2222bbbb2222',
        role: 'host',
        invite: '',
        against: 'hard',
        created: '2026-11-02T10:00:00.000Z',
      },
      {
        ...base,
        id: 'cccc3333cccc3333cccc3333cccc3333',
        role: 'join',
        invite: invite('cccc3333cccc3333cccc3333cccc3333'),
        opponent: PEER,
        finished: 'complete',
        result: 'You win 6-0.',
        created: '2026-11-03T10:00:00.000Z',
      },
      {
        ...base,
        id: 'dddd4444dddd4444dddd4444dddd4444',
        role: 'host',
        invite: invite('dddd4444dddd4444dddd4444dddd4444'),
        created: '2026-11-04T10:00:00.000Z',
      },
      // A game begun by a protocol 2 node: this version cannot carry it on (SPEC §1).
      {
        ...base,
        id: 'eeee5555eeee5555eeee5555eeee5555',
        role: 'join',
        invite: 'spaceships2.eyJ4IjoxfQ',
        opponent: PEER,
        created: '2026-11-05T10:00:00.000Z',
      },
    ]
    for (const g of games) writeMeta(g, env)
    // aaaa1111 holds the honest vector's hellos, setups and A's turn-1 commitment: B's step is due.
    const honest = readFileSync(new URL('../protocol/vectors/honest-a.transcript', import.meta.url), 'utf8')
    writeFileSync(
      join(gameDir('aaaa1111aaaa1111aaaa1111aaaa1111', env), 'transcript'),
      `${honest.split('\n').slice(0, 6).join('\n')}\n`,
    )
    const list = await cli(['resume'], {}, { env: { ...env, npm_command: 'exec' } })
    expect(list.out.split('\n').filter((l) => l !== '')).toEqual([
      'aaaa1111  you host (A)  2026-11-01 10:00  opponent …kSzYFiDD',
      'dddd4444  you host (A)  2026-11-04 10:00  opponent (not yet joined)',
      'Resume one: npx spaceships resume ID',
    ])
    const shown = await cli(['games'], {}, { env })
    expect(shown.out).toContain(
      // A game going on: the turn its due step is in, and whose step that is (as this file has it).
      'aaaa1111  2026-11-01 10:00  host you A vs …kSzYFiDD, in turn 1, their step\n          unfinished: spaceships resume aaaa1111',
    )
    expect(shown.out).toContain(
      'bbbb2222  2026-11-02 10:00  play you A vs the hard bot, turn 0\n          interrupted; a game against the bot cannot be resumed',
    )
    expect(shown.out).toContain('cccc3333  2026-11-03 10:00  join you B vs …kSzYFiDD, turn 0\n          You win 6-0.')
    expect(shown.out).toContain(
      'dddd4444  2026-11-04 10:00  host you A vs nobody yet, turn 0\n          waiting for the opponent to join',
    )
    expect(shown.out).toContain(
      'eeee5555  2026-11-05 10:00  join you B vs …kSzYFiDD, turn 0\n          cannot go on here (another protocol version?): spaceships resume eeee5555 says why',
    )
    for (const line of shown.out.split('\n')) expect(Array.from(line).length).toBeLessThanOrEqual(100)
    // The JSON rows say what the text says: the due step's turn and whose it is, for a game going on
    // only (`turn` stays the turns both committed).
    const rows = JSON.parse((await cli(['games', '--json'], {}, { env })).out) as {
      id: string
      turn: number
      step?: unknown
    }[]
    expect(rows.find((r) => r.id.startsWith('aaaa1111'))).toMatchObject({ turn: 0, step: { turn: 1, yours: false } })
    expect(rows.find((r) => r.id.startsWith('cccc3333'))?.step).toBeUndefined()
    // A game its own process holds now (games.ts lockGame) is said to be in play there, not to be resumed.
    const lock = join(gameDir('aaaa1111aaaa1111aaaa1111aaaa1111', env), 'lock')
    writeFileSync(lock, `${process.pid} ${hostname()}\n`)
    expect((await cli(['games'], {}, { env })).out).toContain(
      `in turn 1, their step\n          being played now, by process ${process.pid} on this machine`,
    )
    rmSync(lock)
    const old = await cli(['resume', 'eeee'], {}, { env })
    expect(old.code).toBe(64)
    expect(old.err).toBe(
      'spaceships resume: game eeee5555eeee5555eeee5555eeee5555 cannot be resumed: its invite: an invite of protocol version 2; this node speaks versions 3 and 4 (SPEC §1): both players need the same version\n',
    )

    const play = await cli(['resume', 'bbbb'], {}, { env })
    expect(play.code).toBe(64)
    expect(play.err).toBe(
      'spaceships resume: game bbbb2222bbbb2222bbbb2222bbbb2222 was against the hard bot, whose side lived only in that process: it cannot be resumed; start a new one with spaceships play\n',
    )
    expect((await cli(['resume', 'ffff'], {}, { env })).err).toBe(
      'spaceships resume: no game or transcript file named ffff (see: spaceships games)\n',
    )
    const noRecord = await cli(['export', 'aaaa1111'], {}, { env })
    expect(noRecord.code).toBe(64)
    expect(noRecord.err).toBe(
      'spaceships: game aaaa1111 is not finished; carry it on with spaceships resume aaaa1111\n',
    )
  })
})
