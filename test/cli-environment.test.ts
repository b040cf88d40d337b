/**
 * A machine that refuses something (a directory that cannot be written or read, a port in use, a
 * damaged file) is one line naming the problem and what to do, with a documented exit status:
 * never an internal error (70), never a stack trace, never a silent wrong answer.
 *
 * Tests run as root here, which ignores file modes. Where a check needs a directory that cannot
 * be written, the command runs as its own process as the user nobody, for whom the modes hold;
 * as any other user it runs as that user.
 */
import { spawnSync } from 'node:child_process'
import {
  appendFileSync,
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { readFile, writeFile } from 'node:fs/promises'
import { createServer, type Server } from 'node:net'
import { hostname, tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EXIT, type CliIo } from '../src/cli/io.js'
import { run } from '../src/cli/main.js'
import { ephemeralIdentity } from '../src/core/net/identity.js'
import { formatInvite } from '../src/games/spaceships/net/invite.js'
import { DEFAULT_TERMS } from '../src/games/spaceships/protocol/messages.js'
import { cli } from './cli.js'

const MAIN = new URL('../dist/cli/main.js', import.meta.url).pathname
const ROOT = process.getuid?.() === 0
const NOBODY = 65534

/** A scratch directory; as root, owned by nobody, who runs the spawned commands. */
function sandbox(): NodeJS.ProcessEnv & { dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'spaceships-env-'))
  if (ROOT) chownSync(dir, NOBODY, NOBODY)
  return { dir, XDG_CONFIG_HOME: join(dir, 'config'), XDG_STATE_HOME: join(dir, 'state'), NO_COLOR: '1' }
}

/** Gives everything under `path` to nobody, as root (the files the test itself wrote). */
function handOver(path: string): void {
  if (!ROOT) return
  chownSync(path, NOBODY, NOBODY)
  if (statSync(path).isDirectory()) for (const n of readdirSync(path)) handOver(join(path, n))
}

/** The built command in its own process, as nobody when the tests run as root. */
function spawnCli(args: string[], env: NodeJS.ProcessEnv): { code: number | null; out: string; err: string } {
  const r = spawnSync(process.execPath, [MAIN, ...args], {
    env: { PATH: process.env['PATH'] ?? '', ...env },
    encoding: 'utf8',
    timeout: 20_000,
    ...(ROOT ? { uid: NOBODY, gid: NOBODY } : {}),
  })
  return { code: r.status, out: r.stdout, err: r.stderr }
}

/** One line on stderr, no stack frame, and not the internal error's. */
function oneLine(err: string): string {
  const lines = err.trimEnd().split('\n')
  expect(lines, err).toHaveLength(1)
  expect(err).not.toMatch(/\n\s+at |internal error/)
  return lines[0] ?? ''
}

/** The last line on stderr, the error, after any progress line ("created your identity ..."). */
function lastLine(err: string): string {
  expect(err).not.toMatch(/\n\s+at |internal error/)
  return err.trimEnd().split('\n').at(-1) ?? ''
}

/** A stored host game waiting for its opponent, as `host` leaves it, played by a bot. */
async function storedGame(env: NodeJS.ProcessEnv & { dir: string }, id = 'ab'.repeat(16)): Promise<string> {
  const dir = join(env.dir, 'state', 'spaceships', 'games', id)
  mkdirSync(dir, { recursive: true })
  const peer = (await ephemeralIdentity()).peerId.toString()
  const invite = formatInvite({ id, peer, addrs: ['/ip4/127.0.0.1/tcp/1'], terms: DEFAULT_TERMS })
  writeFileSync(
    join(dir, 'meta.json'),
    JSON.stringify({
      v: 1,
      id,
      role: 'host',
      invite,
      listen: ['/ip4/127.0.0.1/tcp/0'],
      relays: [],
      player: { kind: 'bot', bot: 'random', seed: 's' },
      created: '2026-01-01T00:00:00.000Z',
    }),
  )
  return dir
}

/** A port something else listens on. */
async function busyPort(): Promise<{ port: number; server: Server }> {
  const server = createServer()
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return { port: (server.address() as { port: number }).port, server }
}

/**
 * As root, nobody must reach the built command and the Node that runs it: a checkout under a
 * private directory (a temporary one is mode 0700) would refuse it before any check. So the
 * directories above them that nobody cannot pass through get the pass bit (o+x, never read),
 * taken back when the tests end.
 */
const opened: { path: string; mode: number }[] = []
beforeAll(() => {
  if (!ROOT) return
  for (const start of [dirname(MAIN), dirname(process.execPath)])
    for (let d = start; ; d = dirname(d)) {
      const mode = statSync(d).mode & 0o7777
      if ((mode & 0o001) === 0 && !opened.some((o) => o.path === d)) {
        opened.push({ path: d, mode })
        chmodSync(d, mode | 0o001)
      }
      if (dirname(d) === d) break
    }
})
afterAll(() => {
  for (const o of opened.reverse()) chmodSync(o.path, o.mode)
})

describe('the environment refuses something: one line and its exit status (README, exit statuses)', () => {
  it('a read-only state or config directory: play, host and id exit 73 naming the directory and the setting; games exits 74 on one it cannot list', () => {
    const env = sandbox()
    const state = join(env.dir, 'state', 'spaceships')
    mkdirSync(state, { recursive: true })
    handOver(env.dir)
    chmodSync(state, 0o555)
    const noGames =
      /^spaceships: cannot create the directory .*\/state\/spaceships\/games\/[0-9a-f]{32}: permission denied\. spaceships keeps its games in .*\/state\/spaceships: make that a directory you can read and write, or set XDG_STATE_HOME to one$/
    const play = spawnCli(['play', '--autoplay', '--bot', 'random'], env)
    expect(play.code, play.err).toBe(EXIT.cannotCreate)
    expect(lastLine(play.err)).toMatch(noGames)
    const host = spawnCli(['host', '--autoplay', '--wait', '1', '--listen', '/ip4/127.0.0.1/tcp/0'], env)
    expect(host.code, host.err).toBe(EXIT.cannotCreate)
    expect(oneLine(host.err)).toMatch(noGames)

    const fresh = sandbox()
    const config = join(fresh.dir, 'config', 'spaceships')
    mkdirSync(config, { recursive: true })
    handOver(fresh.dir)
    chmodSync(config, 0o555)
    const noKey =
      /^spaceships: cannot open .*\/config\/spaceships\/identity: permission denied\. spaceships keeps your identity in .*\/config\/spaceships: make that a directory you can read and write, or set XDG_CONFIG_HOME to one \(or give --identity FILE\)$/
    const id = spawnCli(['id'], fresh)
    expect(id.code, id.err).toBe(EXIT.cannotCreate)
    expect(oneLine(id.err)).toMatch(noKey)
    const playNoKey = spawnCli(['play', '--autoplay', '--bot', 'random'], fresh)
    expect(playNoKey.code, playNoKey.err).toBe(EXIT.cannotCreate)
    expect(oneLine(playNoKey.err)).toMatch(noKey)

    // A games directory that cannot be listed is not "no games".
    chmodSync(state, 0o755)
    mkdirSync(join(state, 'games'), { mode: 0o311 })
    handOver(join(state, 'games'))
    const games = spawnCli(['games'], env)
    expect(games.code, games.err).toBe(EXIT.ioError)
    expect(games.out).not.toMatch(/No games/)
    expect(oneLine(games.err)).toMatch(
      /^spaceships: cannot list .*\/state\/spaceships\/games: permission denied\. spaceships keeps its games in /,
    )
  }, 30_000)

  it('an unwritable HOME with no XDG directory set: one line naming HOME and the setting, exit 73', () => {
    const env = sandbox()
    const home = join(env.dir, 'home')
    mkdirSync(home)
    handOver(home)
    chmodSync(home, 0o555)
    const r = spawnCli(['id'], { HOME: home, NO_COLOR: '1' })
    expect(r.code, r.err).toBe(EXIT.cannotCreate)
    expect(oneLine(r.err)).toMatch(
      /^spaceships: cannot create the directory .*\/home\/\.config\/spaceships: permission denied\. spaceships keeps your identity in .*\/home\/\.config\/spaceships \(under your HOME, as XDG_CONFIG_HOME is not set\): make that a directory you can read and write, or set XDG_CONFIG_HOME to one/,
    )
  }, 20_000)

  it('a dangling identity symlink is named with its target; no key is written through it', async () => {
    const env = sandbox()
    const config = join(env.dir, 'config', 'spaceships')
    mkdirSync(config, { recursive: true })
    symlinkSync(join(env.dir, 'backup-disk', 'identity'), join(config, 'identity'))
    const r = await cli(['id'], {}, { env })
    expect(r.code).toBe(EXIT.usage)
    expect(oneLine(r.err)).toMatch(
      /^spaceships id: your identity file is unusable: .*\/config\/spaceships\/identity: a symbolic link to .*\/backup-disk\/identity, which does not exist \(restore it from a backup, or move it away to create a new identity\)$/,
    )
    expect(existsSync(join(env.dir, 'backup-disk'))).toBe(false)
  })

  it('a stale lock in a read-only game directory: resume names the lock and the fix, exit 73', async () => {
    const env = sandbox()
    const dir = await storedGame(env)
    // A process on this machine that is gone (a pid no system hands out).
    writeFileSync(join(dir, 'lock'), `2147483646 ${hostname()}\n`)
    handOver(env.dir)
    chmodSync(dir, 0o555)
    const r = spawnCli(['resume', 'abababab'], env)
    expect(r.code, r.err).toBe(EXIT.cannotCreate)
    expect(lastLine(r.err)).toMatch(
      /^spaceships resume: game (ab){16}: the lock .*\/lock is left from process 2147483646, which is gone, but cannot be removed \(permission denied\); make .*(ab){16} writable, then run again$/,
    )
  }, 20_000)

  it('selfplay --out into a missing directory: one line naming --out, exit 73', async () => {
    const env = sandbox()
    let out = ''
    let err = ''
    const io: CliIo = {
      stdout: (t) => (out += t),
      stderr: (t) => (err += t),
      readFile: (p) => readFile(p),
      writeFile: (p, t) => writeFile(p, t),
      env,
    }
    const code = await run(['selfplay', '--seed', 'env', '--out', join(env.dir, 'missing', 'out.transcript')], io)
    expect(code, err).toBe(EXIT.cannotCreate)
    expect(oneLine(err)).toMatch(
      /^spaceships: --out .*\/missing\/out\.transcript: cannot write it: its directory does not exist; create that directory, or choose another --out$/,
    )
    expect(out).toBe('')
  })

  it('a listen address that cannot be bound (a port in use, an address not on this machine): one line, exit 69, and no game left behind', async () => {
    const env = sandbox()
    const { port, server } = await busyPort()
    try {
      const inUse = await cli(
        ['host', '--autoplay', '--wait', '1', '--listen', `/ip4/127.0.0.1/tcp/${port}`],
        {},
        { env },
      )
      expect(inUse.code, inUse.err).toBe(EXIT.unavailable)
      expect(lastLine(inUse.err)).toBe(
        `spaceships: --listen: cannot listen on /ip4/127.0.0.1/tcp/${port}: that port is already in use by another program; choose another port, or port 0 for any free one`,
      )
      const relay = await cli(['relay', '--open', '--listen', `/ip4/127.0.0.1/tcp/${port}`], {}, { env })
      expect(relay.code, relay.err).toBe(EXIT.unavailable)
      expect(oneLine(relay.err)).toMatch(/that port is already in use/)
    } finally {
      server.close()
    }
    // 192.0.2.1 is TEST-NET-1 (RFC 5737): never an address of this machine.
    const elsewhere = await cli(['host', '--autoplay', '--wait', '1', '--listen', '/ip4/192.0.2.1/tcp/0'], {}, { env })
    expect(elsewhere.code, elsewhere.err).toBe(EXIT.unavailable)
    expect(lastLine(elsewhere.err)).toMatch(
      /^spaceships: --listen: cannot listen on \/ip4\/192\.0\.2\.1\/tcp\/0: that address is not one of this machine's/,
    )
    const games = await cli(['games'], {}, { env })
    expect(games.out).toMatch(/^No games on this machine yet/)
  }, 20_000)

  it('a journal line of the wrong type: resume names the game and the line, never "charCodeAt"', async () => {
    const env = sandbox()
    const dir = await storedGame(env)
    writeFileSync(join(dir, 'journal'), '{"k":"secret","bytes":"AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"}\n')
    appendFileSync(join(dir, 'journal'), '{"k":"setup","text":42}\n')
    const r = await cli(['resume', 'abababab'], {}, { env })
    expect(r.code, r.err).toBe(EXIT.storage)
    expect(lastLine(r.err)).toMatch(
      /^spaceships resume: game (ab){16}: .*\/journal line 2 is damaged \(its setup is not text\); the game cannot resume from it\./,
    )
    // The lock was given back: the game is not left open by the failed attempt.
    expect(existsSync(join(dir, 'lock'))).toBe(false)
  })

  it('a damaged meta.json or an unreadable game directory: games lists each as damaged with its id and the fix; resume ID names it (exit 74)', async () => {
    const env = sandbox()
    const games = join(env.dir, 'state', 'spaceships', 'games')
    await storedGame(env, 'cd'.repeat(16))
    mkdirSync(join(games, 'ef'.repeat(16)))
    writeFileSync(join(games, 'ef'.repeat(16), 'meta.json'), '{"v":1,"id":"efef')
    mkdirSync(join(games, '12'.repeat(16)))
    writeFileSync(
      join(games, '12'.repeat(16), 'meta.json'),
      JSON.stringify({
        v: 1,
        id: '12'.repeat(16),
        role: 'host',
        invite: 7,
        listen: [],
        relays: [],
        player: { kind: 'human' },
      }),
    )
    // A meta.json nobody can read, root included: a directory in its place.
    mkdirSync(join(games, '34'.repeat(16), 'meta.json'), { recursive: true })
    const listed = await cli(['games'], {}, { env })
    expect(listed.code).toBe(EXIT.ok)
    expect(listed.out).not.toMatch(/No games/)
    expect(listed.out).toContain('cdcdcdcd')
    expect(listed.out).toMatch(
      /efefefef {2}damaged\n {10}game (ef){16} is damaged: meta\.json is damaged \(not JSON\)\. Restore .*meta\.json from a backup, or move .* away/,
    )
    expect(listed.out).toMatch(/12121212 {2}damaged\n {10}game (12){16} is damaged: meta\.json has no invite text/)
    expect(listed.out).toMatch(
      /34343434 {2}damaged\n {10}game (34){16} is damaged: meta\.json cannot be read: a directory stands in its place/,
    )
    const json = JSON.parse((await cli(['games', '--json'], {}, { env })).out) as {
      id: string
      state: string
      problem?: string
    }[]
    expect(
      json
        .filter((g) => g.state === 'damaged')
        .map((g) => g.id)
        .sort(),
    ).toEqual(['12'.repeat(16), '34'.repeat(16), 'ef'.repeat(16)])
    const resumed = await cli(['resume', 'efefefef'], {}, { env })
    expect(resumed.code).toBe(EXIT.ioError)
    expect(oneLine(resumed.err)).toMatch(
      /^spaceships resume: game (ef){16} is damaged: meta\.json is damaged \(not JSON\)\. Restore /,
    )
  })

  it('relay --allow with a value that is not a PeerId is refused before anything starts (exit 64)', async () => {
    const env = sandbox()
    const r = await cli(['relay', '--allow', 'bogus', '--for', '1'], {}, { env })
    expect(r.code).toBe(EXIT.usage)
    expect(oneLine(r.err)).toBe(
      'spaceships relay: --allow: "bogus" is not a PeerId (each player prints theirs with: spaceships id)',
    )
    expect(existsSync(join(env.dir, 'config'))).toBe(false)
  })

  it('an identity key others can write is refused, and said to be writable by others', async () => {
    const env = sandbox()
    const key = join(env.dir, 'mine')
    expect((await cli(['id', '--identity', key], {}, { env })).code).toBe(0)
    chmodSync(key, 0o666)
    const r = await cli(['id', '--identity', key], {}, { env })
    expect(r.code).toBe(EXIT.usage)
    const line = oneLine(r.err)
    expect(line).toMatch(
      /^spaceships id: your identity file is unusable: .*mine: writable by others \(mode 666\), so anyone could have replaced it with a key of theirs; if its PeerId is still yours, make it private \(chmod 600 .*mine\) and run again/,
    )
    expect(line).not.toMatch(/readable by others/)
    expect(r.out).toBe('')
    // Left as it was found: its owner decides.
    expect(statSync(key).mode & 0o777).toBe(0o666)
  })

  it('help: an unknown command is named (exit 64); play lists every exit status; join and resume describe only what their options do there', async () => {
    const unknown = await cli(['witness', '--help'])
    expect(unknown.code).toBe(EXIT.usage)
    expect(unknown.out).toBe('')
    expect(oneLine(unknown.err)).toMatch(
      /^error: unknown command 'witness' \(the commands: (npx )?spaceships --help\)$/,
    )
    expect((await cli(['setup', 'bogus', '-h'])).code).toBe(EXIT.usage)
    expect((await cli(['help', 'play'])).code).toBe(EXIT.ok)
    const play = await cli(['play', '--help'])
    for (const code of [0, 1, 3, 4, 5, 64, 69, 70, 73, 74, 75, 78])
      expect(play.out).toMatch(new RegExp(`\\b${code} [a-z]`))
    // Spaaace!'s outcomes too (its verdicts exit 0, 1, 2 or 3: verify-spaaace.ts), not only the two-player ones.
    expect((await cli(['verify', '--help'])).out.replace(/\s+/g, ' ')).toMatch(
      /Spaaace! games \(SPAAACE-PEERS\.md §13\): 0 complete, 1 a proven offence, 2 unreadable file, 3 not complete \(stalled, ongoing or not started/,
    )
    for (const cmd of ['join', 'resume']) {
      const help = (await cli([cmd, '--help'])).out
      expect(help, cmd).not.toMatch(/your opponent/)
      expect(help, cmd).toMatch(/with --autoplay: the built-in bot that plays your side/)
    }
  })
})
