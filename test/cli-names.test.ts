/**
 * Names at the command line (SPEC §2.4 kind 6): `name` sets the name this player sends, `names`
 * pins names to keys; the list of games and of games to resume show an opponent by its pinned
 * name, else by its own claim, and flag a claim of a name pinned to another key. Every refusal is
 * one line and an exit status; a damaged address book never stops a game command.
 */
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { type GameMeta, writeMeta } from '../src/cli/games.js'
import { formatInvite } from '../src/games/spaceships/net/invite.js'
import { TERMS } from './session/helpers.js'
import { cli } from './cli.js'

function home(): NodeJS.ProcessEnv {
  const d = mkdtempSync(join(tmpdir(), 'spaceships-names-'))
  return { XDG_CONFIG_HOME: join(d, 'config'), XDG_STATE_HOME: join(d, 'state'), NO_COLOR: '1' }
}
const configOf = (env: NodeJS.ProcessEnv): string => join(env['XDG_CONFIG_HOME'] ?? '', 'spaceships')

const ALICE = '12D3KooWJdUcJdPwryb8qs3uBvXBkasD8oRVgqpNwK36kSzYFiDD'
const MALLORY = '12D3KooWBd4fSbKhcMcGSAmzuV3prHKp36arKp5LsNZTzLgdGaNZ'

/** A finished game against `peer`, which called itself `name`, as a joiner's record keeps it. */
function gameAgainst(env: NodeJS.ProcessEnv, id: string, peer: string, name?: string): void {
  const meta: GameMeta = {
    v: 1,
    id,
    role: 'join',
    invite: formatInvite({ id, peer, addrs: ['/ip4/127.0.0.1/tcp/4001'], terms: TERMS }),
    opponent: peer,
    ...(name === undefined ? {} : { opponentName: name }),
    listen: [],
    relays: [],
    player: { kind: 'human' },
  }
  writeMeta(meta, env)
}

describe('spaceships name', () => {
  it('sets, shows and clears the name, keeping the rest of config.json, and refuses a name that breaks the rule in one line', async () => {
    const env = home()
    expect((await cli(['name'], {}, { env })).out).toMatch(/^You have no name set/)
    mkdirSync(configOf(env), { recursive: true })
    writeFileSync(join(configOf(env), 'config.json'), '{"theme":"dark"}')
    const set = await cli(['name', 'Alice B'], {}, { env })
    expect(set.code).toBe(0)
    expect(set.out).toMatch(/^Your name is now Alice B: sent to your opponent/)
    expect(JSON.parse(readFileSync(join(configOf(env), 'config.json'), 'utf8'))).toEqual({
      theme: 'dark',
      name: 'Alice B',
    })
    expect((await cli(['name', '--json'], {}, { env })).out).toBe('{"name":"Alice B"}\n')
    for (const [bad, why] of [
      ['al\u001b[2Jice', 'a name is printable ASCII; it holds U+001B'],
      ['x'.repeat(33), '33 bytes; a name is at most 32'],
      ['élise', 'a name is printable ASCII; it holds U+00E9'],
      [' alice', 'no spaces at its ends or two in a row'],
    ] as const) {
      const r = await cli(['name', bad], {}, { env })
      expect(r.code).toBe(64)
      expect(r.err).toBe(`spaceships name: ${JSON.stringify(bad)} is not a usable name: ${why}\n`)
    }
    expect((await cli(['name', '--clear'], {}, { env })).out).toMatch(/^You have no name set/)
    expect(JSON.parse(readFileSync(join(configOf(env), 'config.json'), 'utf8'))).toEqual({ theme: 'dark' })
    expect(readdirSync(configOf(env)).filter((f) => f.endsWith('.tmp'))).toEqual([])
  })

  it('a game command refuses a bad --name, or a damaged config.json, before any game is written', async () => {
    const env = home()
    const r = await cli(['host', '--autoplay', '--name', 'a\tb'], {}, { env })
    expect(r.code).toBe(64)
    expect(r.err).toBe(
      'spaceships host: --name: "a\\tb" is not a usable name: a name is printable ASCII; it holds U+0009\n',
    )
    await cli(['id'], {}, { env })
    writeFileSync(join(configOf(env), 'config.json'), '{"name": 7}')
    const damaged = await cli(['host', '--autoplay'], {}, { env })
    expect(damaged.code).toBe(74)
    expect(damaged.err).toMatch(
      /config\.json: its name is unusable: not text; set another with: spaceships name NAME\n$/,
    )
    expect((await cli(['games'], {}, { env })).out).toMatch(/^No games on this machine yet/)
  })
})

describe('spaceships names: the address book', () => {
  it('pins by PeerId or by a game (its opponent, the name it sent), lists, unpins; refusals are one line', async () => {
    const env = home()
    expect((await cli(['names'], {}, { env })).out).toMatch(/^Your address book is empty/)
    gameAgainst(env, 'a1'.repeat(16), ALICE, 'alice')
    const pinned = await cli(['names', 'pin', 'a1a1a1a1'], {}, { env })
    expect(pinned.out).toBe(
      `Pinned alice to ${ALICE}: shown as alice (…kSzYFiDD) from now on, whatever name it sends\n`,
    )
    expect((await cli(['names', 'pin', MALLORY, 'mallory'], {}, { env })).code).toBe(0)
    const listed = await cli(['names'], {}, { env })
    expect(listed.out.split('\n').slice(0, 2)).toEqual([`alice    ${ALICE}`, `mallory  ${MALLORY}`])
    expect(JSON.parse((await cli(['names', '--json'], {}, { env })).out)).toEqual([
      { name: 'alice', peer: ALICE },
      { name: 'mallory', peer: MALLORY },
    ])
    const renamed = await cli(['names', 'pin', MALLORY, 'Alice'], {}, { env })
    expect(renamed.out).toContain('(it was mallory)')
    expect(renamed.out).toContain(`The same name is also pinned to ${ALICE}`)
    expect((await cli(['names', 'unpin', MALLORY], {}, { env })).out).toBe(
      `Unpinned Alice from ${MALLORY}: it is shown by the name it sends, as its own claim\n`,
    )
    const file = JSON.parse(readFileSync(join(configOf(env), 'names.json'), 'utf8')) as unknown
    expect(file).toEqual({ v: 1, pins: { [ALICE]: 'alice' } })
    for (const [args, err] of [
      [
        ['names', 'unpin', MALLORY],
        `spaceships names unpin: ${MALLORY} is not in your address book (see: spaceships names)\n`,
      ],
      [
        ['names', 'pin', 'bob', 'bob'],
        'spaceships names pin: "bob" is neither a PeerId (12D3KooW...) nor a game id (see: spaceships games)\n',
      ],
      [['names', 'pin', MALLORY], `spaceships names pin: give the name to pin to ${MALLORY}\n`],
      [
        ['names', 'pin', MALLORY, 'a\u0007'],
        'spaceships names pin: "a\\u0007" is not a usable name: a name is printable ASCII; it holds U+0007\n',
      ],
    ] as const) {
      const r = await cli([...args], {}, { env })
      expect(r.code).toBe(64)
      expect(r.err).toBe(err)
    }
  })

  it("refuses to pin a name to the player's own PeerId, in one line, and pins nothing", async () => {
    const env = home()
    const own = JSON.parse((await cli(['id', '--json'], {}, { env })).out) as { peerId: string }
    const r = await cli(['names', 'pin', own.peerId, 'me'], {}, { env })
    expect(r.code).toBe(64)
    expect(r.err).toBe(
      `spaceships names pin: ${own.peerId} is your own PeerId: a pin names another player's key. Set the name you send with: spaceships name NAME\n`,
    )
    expect((await cli(['names'], {}, { env })).out).toMatch(/^Your address book is empty/)
    // Without an identity nothing is created to check against, and any other key pins as before.
    const fresh = home()
    expect((await cli(['names', 'pin', MALLORY, 'mallory'], {}, { env: fresh })).code).toBe(0)
    expect(readdirSync(configOf(fresh))).not.toContain('identity')
  })

  it('games and resume show a pinned name, a claim as a claim, and flag a claim of a name pinned to another key', async () => {
    const env = home()
    gameAgainst(env, 'b2'.repeat(16), ALICE, 'alice')
    gameAgainst(env, 'c3'.repeat(16), MALLORY, 'alice')
    const before = await cli(['games'], {}, { env })
    expect(before.out).toContain('you B vs “alice”? (…kSzYFiDD), turn 0')
    expect(before.out).toContain('you B vs “alice”? (…zLgdGaNZ), turn 0')
    await cli(['names', 'pin', ALICE, 'alice'], {}, { env })
    const after = await cli(['games'], {}, { env })
    expect(after.out).toContain('you B vs alice (…kSzYFiDD), turn 0')
    expect(after.out).toContain('you B vs “alice”? (…zLgdGaNZ; not the alice you pinned), turn 0')
    const rows = JSON.parse((await cli(['games', '--json'], {}, { env })).out) as Record<string, unknown>[]
    expect(rows.map((r) => [r['opponentName'], r['pinnedName']])).toEqual(
      expect.arrayContaining([
        ['alice', 'alice'],
        ['alice', undefined],
      ]),
    )
    const open = await cli(['resume'], {}, { env })
    expect(open.out).toContain('opponent alice (…kSzYFiDD)')
    expect(open.out).toContain('opponent “alice”? (…zLgdGaNZ; not the alice you pinned)')
  })

  it('a damaged address book: names refuses it in one line (exit 74) and never overwrites it; games goes on, warning once', async () => {
    const env = home()
    gameAgainst(env, 'd4'.repeat(16), ALICE, 'alice')
    await cli(['id'], {}, { env })
    const path = join(configOf(env), 'names.json')
    for (const text of [
      '{not json',
      '{"v":1,"pins":{"12D3KooWJdUcJdPwryb8qs3uBvXBkasD8oRVgqpNwK36kSzYFiDD":"\\u001b[2J"}}',
    ]) {
      writeFileSync(path, text)
      const r = await cli(['names', 'pin', MALLORY, 'mallory'], {}, { env })
      expect(r.code).toBe(74)
      expect(r.err.split('\n')).toHaveLength(2)
      expect(r.err).toMatch(/^spaceships names pin: .*names\.json is damaged.*; fix it or move it away\n$/)
      expect(readFileSync(path, 'utf8')).toBe(text)
      const games = await cli(['games'], {}, { env })
      expect(games.code).toBe(0)
      expect(games.err).toMatch(
        /^warning: your address book is unusable \(.*\); names are shown as your opponents' own claims until it is fixed\n$/,
      )
      expect(games.out).toContain('you B vs “alice”? (…kSzYFiDD)')
    }
  })
})
