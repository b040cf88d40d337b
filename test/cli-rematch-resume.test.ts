/**
 * Stops that tell the truth, through the built executable in real processes killed with SIGKILL:
 * a rematch game (SPEC §2.4) whose joiner crashed is resumed by its own invite id and finished,
 * both transcripts deciding it alike; and a resume of a game its host no longer serves stops after
 * one line, with exit status 69, having signed no stop (SPEC §2.3).
 */
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { gameDir, readMeta } from '../src/cli/games.js'
import { EXIT } from '../src/cli/io.js'
import { parseInvite } from '../src/games/spaceships/net/invite.js'
import { INVITE_PATTERN, cli } from './cli.js'
import { home, lines, start, text, until } from './processes.js'
import { partsOf } from './helpers.js'

const gameId = (env: NodeJS.ProcessEnv, prefix: string): string | undefined =>
  readdirSync(join(env['XDG_STATE_HOME'] ?? '', 'spaceships', 'games')).find((d) => d.startsWith(prefix))

/** `spaceships verify --json` on one file, run as the executable: its verdict and exit status. */
async function verified(path: string): Promise<{ code: number | null; verdict: unknown }> {
  const v = start(['verify', '--json', path], {})
  const code = await v.exit
  // Said whole when it is not JSON (a file missing under load, say), so a failure tells why.
  if (!v.out().startsWith('{')) throw new Error(`verify ${path}: exit ${String(code)}: ${v.err()}${v.out()}`)
  return { code, verdict: (JSON.parse(v.out()) as { verdict: unknown }).verdict }
}

describe('a crashed rematch game resumes; a game its host no longer serves stops (SPEC §2.3, §2.4)', () => {
  it("the joiner is killed during the rematch game; resume presents that game's own invite id, the host takes it back, and both transcripts verify to the same result", async () => {
    const [hostEnv, joinEnv] = [home(), home()]
    const host = start(
      [
        'host',
        '--autoplay',
        '--bot',
        'random',
        '--seed',
        'stops/A',
        '--listen',
        '/ip4/127.0.0.1/tcp/0',
        '--max-turns',
        '8',
        '--rematch',
        '1',
      ],
      hostEnv,
    )
    const invite = await until(() => INVITE_PATTERN.exec(host.out())?.[0], 'the invite')
    const joiner = start(
      [
        'join',
        invite,
        '--yes',
        '--autoplay',
        '--bot',
        'random',
        '--seed',
        'stops/B',
        '--pace',
        '150',
        '--rematch',
        '1',
      ],
      joinEnv,
    )
    const short = await until(
      () => /Rematch: game ([0-9a-f]{8}); you are A this time/.exec(joiner.out())?.[1],
      'the rematch',
    )
    const id = await until(() => gameId(joinEnv, short), 'the rematch game directory')
    const transcript = join(gameDir(id, joinEnv), 'transcript')
    // Mid-game: both hellos, both setups and a turn or so signed.
    await until(() => (lines(transcript) > 8 ? true : undefined), 'the rematch game under way')
    joiner.child.kill('SIGKILL')
    expect(await joiner.exit).toBe(null)
    // Listed with the role it plays in this game, and with its own invite id to present.
    const listed = await cli(['resume'], {}, { env: joinEnv })
    expect(listed.out).toContain(`${short}  you joined (A in a rematch)`)
    const stored = parseInvite(readMeta(id, joinEnv)?.invite ?? '')
    expect(stored.ok && stored.value.id).toBe(id)
    const killedAt = lines(transcript)
    const resumed = start(['resume', short], joinEnv)
    const [resumedCode, hostCode] = await Promise.all([resumed.exit, host.exit])
    expect(resumedCode, resumed.err() + resumed.out().slice(-500)).toBeLessThan(64)
    expect(hostCode, host.err() + host.out().slice(-500)).toBeLessThan(64)
    expect(lines(transcript)).toBeGreaterThan(killedAt)
    // The host took the stream back at once: no refusal, no reconnection loop.
    expect(host.err()).not.toContain('refused')
    expect(
      resumed
        .err()
        .split('\n')
        .filter((l) => l !== '').length,
      resumed.err(),
    ).toBeLessThanOrEqual(2)
    // The host's record of the rematch game can be resumed too: its own invite id, the ports it bound.
    const hostMeta = readMeta(id, hostEnv)
    const hostInvite = parseInvite(hostMeta?.invite ?? '')
    expect(hostInvite.ok && hostInvite.value.id).toBe(id)
    expect(hostMeta?.listen.some((a) => a.includes('/tcp/0'))).toBe(false)
    // Each side's file, verified on its own by `spaceships verify`, decides the game alike.
    const [mine, theirs] = await Promise.all([verified(transcript), verified(join(gameDir(id, hostEnv), 'transcript'))])
    expect(mine.verdict).toEqual(theirs.verdict)
    expect(mine.code).toBe(resumedCode)
    expect(['complete', 'adjudicated']).toContain((mine.verdict as { status: string }).status)
  }, 60_000)

  it('a game begun with --rematch keeps it across a resume: the joiner killed in the first game, resumed without the flag, still plays the rematch (SPEC §2.4)', async () => {
    const [hostEnv, joinEnv] = [home(), home()]
    const bot = (seed: string): string[] => ['--autoplay', '--bot', 'random', '--seed', seed]
    const host = start(
      ['host', ...bot('kept/A'), '--listen', '/ip4/127.0.0.1/tcp/0', '--max-turns', '4', '--rematch', '1'],
      hostEnv,
    )
    const invite = await until(() => INVITE_PATTERN.exec(host.out())?.[0], 'the invite')
    const joiner = start(['join', invite, '--yes', ...bot('kept/B'), '--pace', '150', '--rematch', '1'], joinEnv)
    const first = parseInvite(invite)
    if (!first.ok) throw new Error(first.error.message)
    const transcript = join(gameDir(first.value.id, joinEnv), 'transcript')
    await until(() => (lines(transcript) > 6 ? true : undefined), 'the first game under way')
    joiner.child.kill('SIGKILL')
    await joiner.exit
    expect(readMeta(first.value.id, joinEnv)?.rematch).toBe(1)
    const resumed = start(['resume', first.value.id.slice(0, 8)], joinEnv)
    const [resumedCode, hostCode] = await Promise.all([resumed.exit, host.exit])
    expect(resumedCode, resumed.err()).toBeLessThan(64)
    expect(hostCode, host.err()).toBeLessThan(64)
    expect(resumed.out()).toMatch(/Rematch: game [0-9a-f]{8}; you are A this time/)
  }, 60_000)

  it("the host is killed during the rematch game; its resume listens where it did and admits the joiner, which presents the rematch game's id", async () => {
    const [hostEnv, joinEnv] = [home(), home()]
    const host = start(
      [
        'host',
        '--autoplay',
        '--bot',
        'random',
        '--seed',
        'stops/hA',
        '--listen',
        '/ip4/127.0.0.1/tcp/0',
        '--max-turns',
        '8',
        '--pace',
        '150',
        '--rematch',
        '1',
      ],
      hostEnv,
    )
    const invite = await until(() => INVITE_PATTERN.exec(host.out())?.[0], 'the invite')
    const joiner = start(
      ['join', invite, '--yes', '--autoplay', '--bot', 'random', '--seed', 'stops/hB', '--rematch', '1'],
      joinEnv,
    )
    const short = await until(
      () => /Rematch: game ([0-9a-f]{8}); you are B this time/.exec(host.out())?.[1],
      'the rematch',
    )
    const id = await until(() => gameId(hostEnv, short), 'the rematch game directory')
    const transcript = join(gameDir(id, hostEnv), 'transcript')
    await until(() => (lines(transcript) > 8 ? true : undefined), 'the rematch game under way')
    host.child.kill('SIGKILL')
    await host.exit
    const resumed = start(['resume', short], hostEnv)
    const [resumedCode, joinCode] = await Promise.all([resumed.exit, joiner.exit])
    expect(resumedCode, resumed.err() + resumed.out().slice(-500)).toBeLessThan(64)
    expect(joinCode, joiner.err() + joiner.out().slice(-500)).toBeLessThan(64)
    const [mine, theirs] = await Promise.all([verified(transcript), verified(join(gameDir(id, joinEnv), 'transcript'))])
    expect(mine.verdict).toEqual(theirs.verdict)
    expect(['complete', 'adjudicated']).toContain((mine.verdict as { status: string }).status)
  }, 60_000)

  it('a resume of a game whose host has moved on (it now hosts another game on that address) stops after one line, exit 69, having signed no stop', async () => {
    const [hostEnv, joinEnv] = [home(), home()]
    const first = start(
      [
        'host',
        '--autoplay',
        '--bot',
        'random',
        '--seed',
        'zombie/A',
        '--listen',
        '/ip4/127.0.0.1/tcp/0',
        '--max-turns',
        '50',
        '--json',
      ],
      hostEnv,
    )
    const { invite, game } = JSON.parse(
      await until(
        () =>
          first
            .out()
            .split('\n')
            .find((l) => l.startsWith('{"invite"')),
        'the invite',
      ),
    ) as { invite: string; game: string }
    const joiner = start(
      ['join', invite, '--yes', '--autoplay', '--bot', 'random', '--seed', 'zombie/B', '--pace', '100', '--json'],
      joinEnv,
    )
    const transcript = join(gameDir(game, joinEnv), 'transcript')
    await until(() => (lines(transcript) > 6 ? true : undefined), 'the game under way')
    joiner.child.kill('SIGKILL')
    first.child.kill('SIGKILL')
    await Promise.all([joiner.exit, first.exit])
    const before = text(transcript)
    // The host's next game listens where the old one did.
    const address = readMeta(game, hostEnv)?.listen[0] ?? ''
    expect(address).toMatch(/^\/ip4\/127\.0\.0\.1\/tcp\/[1-9]\d*$/)
    const next = start(['host', '--autoplay', '--bot', 'random', '--seed', 'zombie/A2', '--listen', address], hostEnv)
    await until(() => INVITE_PATTERN.exec(next.out())?.[0], "the next game's invite")
    const started = Date.now()
    const zombie = start(['resume', game.slice(0, 8)], joinEnv)
    const code = await zombie.exit
    const took = Date.now() - started
    next.child.kill('SIGKILL')
    await next.exit
    expect(code, zombie.err()).toBe(EXIT.unavailable)
    const said = zombie
      .err()
      .split('\n')
      .filter((l) => l !== '')
    expect(said, zombie.err()).toHaveLength(1)
    expect(said[0]).toMatch(
      /^spaceships resume: The other side no longer serves this game \(it refused our invite 3 times, saying "no game here for this invite"\): stopping\. No stop was signed: game [0-9a-f]{8} stays unfinished/,
    )
    // Three streams, 1 s and 2 s apart: then it stops, well before any deadline.
    expect(took).toBeLessThan(15_000)
    // Its move, if it was due, may have been signed (and kept for the host); never a stop.
    // (A line the kill tore was never sent, and resuming drops it: compare whole lines.)
    expect(text(transcript).startsWith(before.slice(0, before.lastIndexOf('\n') + 1))).toBe(true)
    expect(partsOf(text(transcript), 'B', 'stop')).toEqual([])
    // The host said so once, not once a stream.
    expect(
      next
        .err()
        .split('\n')
        .filter((l) => l.includes('presented the wrong invite')),
    ).toHaveLength(1)
    // Still resumable: nothing ended it.
    expect(readMeta(game, joinEnv)?.finished).toBeUndefined()
  }, 60_000)
})
