/**
 * Names between two real processes with homes of their own (SPEC §2.4 kind 6): the host's name
 * comes from its config (`spaceships name`), the joiner's from `--name`; each side is told the
 * other's name as its own claim, the joiner flags a host claiming a name it pinned to another key,
 * and `games` shows both afterwards. Nothing of either name is in either transcript.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { gameDir, listGames } from '../src/cli/games.js'
import { INVITE_PATTERN, cli } from './cli.js'
import { home, start, until } from './processes.js'

const ELSEWHERE = '12D3KooWBd4fSbKhcMcGSAmzuV3prHKp36arKp5LsNZTzLgdGaNZ'

const peerOf = async (env: NodeJS.ProcessEnv): Promise<string> =>
  (await cli(['id'], {}, { env })).out.split('\n')[0] ?? ''
const tail = (peer: string): string => `…${peer.slice(-8)}`

describe('names between two processes (SPEC §2.4 kind 6)', () => {
  it("host and joiner show each other's names; a name pinned to another key is flagged", async () => {
    const [hostEnv, joinEnv] = [home(), home()]
    const [hostPeer, joinPeer] = await Promise.all([peerOf(hostEnv), peerOf(joinEnv)])
    expect((await cli(['name', 'alice'], {}, { env: hostEnv })).code).toBe(0)
    // The joiner knows another key as alice: the host claiming that name is not her.
    expect((await cli(['names', 'pin', ELSEWHERE, 'alice'], {}, { env: joinEnv })).code).toBe(0)
    const bot = (seed: string): string[] => ['--autoplay', '--bot', 'random', '--seed', seed]
    const host = start(['host', ...bot('names/A'), '--listen', '/ip4/127.0.0.1/tcp/0', '--max-turns', '3'], hostEnv)
    const invite = await until(() => INVITE_PATTERN.exec(host.out())?.[0], 'the invite')
    const joiner = start(['join', invite, '--yes', ...bot('names/B'), '--name', 'Bob B'], joinEnv)
    const [hostExit, joinExit] = await Promise.all([host.exit, joiner.exit])
    expect([hostExit, joinExit], host.err() + joiner.err()).toEqual([0, 0])

    // However the program is run (npx spaceships, spaceships), the command it names is the same.
    expect(host.out().replaceAll('npx spaceships', 'spaceships')).toContain(
      `Your opponent ${tail(joinPeer)} calls itself “Bob B” (its own claim; to pin it to this key: spaceships names pin ${joinPeer} "Bob B").`,
    )
    expect(joiner.out()).toContain(
      `Warning: ${tail(hostPeer)} claims to be alice, whom you pinned to ${tail(ELSEWHERE)}: not the same key.`,
    )
    expect(joiner.out()).toContain(`Host ${hostPeer} (not in your address book)`)

    const hostGames = await cli(['games'], {}, { env: hostEnv })
    expect(hostGames.out).toContain(`vs “Bob B”? (${tail(joinPeer)})`)
    const joinGames = await cli(['games'], {}, { env: joinEnv })
    expect(joinGames.out).toContain(`vs “alice”? (${tail(hostPeer)}; not the alice you pinned)`)

    // Pinning the game's opponent takes the name it sent; from then on the pin is what shows.
    const id = listGames(hostEnv).games[0]?.id ?? ''
    expect((await cli(['names', 'pin', id.slice(0, 8)], {}, { env: hostEnv })).out).toMatch(/^Pinned Bob B to /)
    expect((await cli(['games'], {}, { env: hostEnv })).out).toContain(`vs Bob B (${tail(joinPeer)})`)

    for (const env of [hostEnv, joinEnv]) {
      const transcript = readFileSync(join(gameDir(id, env), 'transcript'), 'utf8')
      expect(transcript).not.toMatch(/alice|Bob B/)
    }
  })
})
