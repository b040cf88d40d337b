/**
 * Every user error is one line naming what is wrong and how to fix it, with its documented exit
 * status; an internal error exits 70 with one line; nothing prints a stack trace.
 */
import { spawnSync } from 'node:child_process'
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  statSync,
  truncateSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { EXIT, type CliIo, MAX_INPUT_BYTES } from '../src/cli/io.js'
import { run } from '../src/cli/main.js'
import { cli } from './cli.js'

function home(): NodeJS.ProcessEnv & { dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'spaceships-errors-'))
  return { dir, XDG_CONFIG_HOME: join(dir, 'config'), XDG_STATE_HOME: join(dir, 'state'), NO_COLOR: '1' }
}

/** One line on stderr, no stack frame. */
function oneLine(err: string): string {
  const lines = err.trimEnd().split('\n')
  expect(lines, err).toHaveLength(1)
  expect(err).not.toMatch(/\n\s+at /)
  return lines[0] ?? ''
}

describe('clean errors (exit statuses of the README)', () => {
  it('numeric flags are checked when parsed, naming the flag and the range', async () => {
    const env = home()
    for (const args of [
      ['host', '--wait', 'abc'],
      ['host', '--wait', '0'],
      ['play', '--autoplay', '--pace', '-5'],
      ['relay', '--for', '1.5'],
      ['show', 'x', '--turn', 'ten'],
    ]) {
      const r = await cli(args, {}, { env })
      expect(r.code, args.join(' ')).toBe(EXIT.usage)
      expect(oneLine(r.err)).toMatch(
        new RegExp(
          `^spaceships: ${args[args.length - 2] ?? ''}: expected a whole number from \\d+ to \\d+, got "${args.at(-1) ?? ''}"$`,
        ),
      )
    }
  })

  it('join @FILE reads the invite from the file; a missing file or a directory is one line, and a failed join stores nothing', async () => {
    const env = home()
    const missing = await cli(['join', `@${join(env.dir, 'nope')}`, '--yes'], {}, { env })
    expect(missing.code).toBe(EXIT.ioError)
    expect(oneLine(missing.err)).toMatch(/cannot read the invite from .*nope: no such file or directory$/)
    const dir = await cli(['join', `@${env.dir}`, '--yes'], {}, { env })
    expect(oneLine(dir.err)).toMatch(/: a directory stands where a file is expected$/)
    // The file is read and its content parsed: a version 1 invite is named as such.
    writeFileSync(join(env.dir, 'invite.txt'), 'spaceships1.eyJpZCI6IjAwIn0\n')
    const old = await cli(['join', `@${join(env.dir, 'invite.txt')}`, '--yes'], {}, { env })
    expect(oneLine(old.err)).toMatch(/an invite of protocol version 1; this node speaks versions 3 and 4/)
    let games: string[] = []
    try {
      games = readdirSync(join(env.dir, 'state', 'spaceships', 'games'))
    } catch {
      // no games directory at all
    }
    expect(games).toEqual([])
  })

  // SPAAACE-PEERS §10 MAX_FILE_BYTES: a hostile file past what any transcript holds is refused
  // unread; read whole, 600 MB had made more text than a string holds and was reported as a bug.
  it('verify refuses a file larger than any transcript, unread: one line, exit 2, never an internal error', async () => {
    const env = home()
    const sparse = join(env.dir, 'huge.transcript')
    writeFileSync(sparse, 'spaaace-transcript 1\n')
    truncateSync(sparse, MAX_INPUT_BYTES + 1)
    for (const path of [sparse, '/dev/zero']) {
      const r = await cli(['verify', path], {}, { env })
      expect(r.code, path).toBe(EXIT.unreadable)
      expect(oneLine(r.err)).toBe(
        `spaceships verify: cannot read ${path}: too large: over 268,435,456 bytes, more than any transcript holds`,
      )
    }
    // At the bound itself the file is read, and judged: a Spaaace! header and no genesis is no game.
    truncateSync(sparse, MAX_INPUT_BYTES)
    const at = await cli(['verify', sparse], {}, { env })
    expect(at.code).toBe(EXIT.unreadable)
    expect(at.out + at.err).not.toMatch(/too large|internal error/)
  }, 60_000)

  it('a bad --setup file is refused before anything listens or dials', async () => {
    const env = home()
    writeFileSync(join(env.dir, 'setup.txt'), 'DS Rv1\n')
    const r = await cli(['host', '--setup', join(env.dir, 'setup.txt'), '--wait', '1'], {}, { env })
    expect(r.code).toBe(EXIT.usage)
    expect(oneLine(r.err)).toMatch(
      /^spaceships host: --setup .*setup\.txt: not a legal setup for 2\.6\.1 fleet=standard: DS: a death star has 8 cells/,
    )
    expect(r.out).toBe('')
  })

  it('a corrupted identity file is named with the fix; a key readable by others is reported and made private', async () => {
    const env = home()
    mkdirSync(join(env.dir, 'config', 'spaceships'), { recursive: true })
    const path = join(env.dir, 'config', 'spaceships', 'identity')
    writeFileSync(path, 'garbage\n')
    const bad = await cli(['id'], {}, { env })
    expect(bad.code).toBe(EXIT.usage)
    expect(oneLine(bad.err)).toMatch(
      /your identity file is unusable: .*identity: not a spaceships identity .*move it away to create a new identity\)$/,
    )
    writeFileSync(path, '')
    const fresh = await cli(['id', '--identity', join(env.dir, 'mine')], {}, { env })
    expect(fresh.code).toBe(0)
    chmodSync(join(env.dir, 'mine'), 0o644)
    const exposed = await cli(['id', '--identity', join(env.dir, 'mine')], {}, { env })
    expect(exposed.code).toBe(0)
    expect(oneLine(exposed.err.split('\n')[0] ?? '')).toMatch(
      /^warning: your identity key .*mine was readable by others \(mode 644\); it is now private \(600\)/,
    )
    // Standard output is the PeerId alone (`--player $(spaceships id)`); where it is stored goes to stderr.
    expect(exposed.out).toMatch(/^12D3KooW\w+\n$/)
    expect(exposed.err).toMatch(/stored in .*mine \(keep it private; it signs your transcripts\)/)
    expect(statSync(join(env.dir, 'mine')).mode & 0o777).toBe(0o600)
  })

  it('nobody joining within --wait: one line, exit 3, and the game can be waited for again', async () => {
    const env = home()
    const r = await cli(
      ['host', '--autoplay', '--wait', '1', '--listen', '/ip4/127.0.0.1/tcp/0', '--json'],
      {},
      { env },
    )
    expect(r.code, r.err).toBe(EXIT.incomplete)
    expect(oneLine(r.err)).toMatch(/^spaceships host: nobody joined within 1 s; no game began\. The invite stays valid/)
    const listed = await cli(['resume'], {}, { env })
    expect(listed.out).toContain((JSON.parse(r.out.trim().split('\n')[0] ?? '{}') as { game: string }).game.slice(0, 8))
  }, 20_000)

  it('an unexpected failure is an internal error: exit 70 and one line, never a verdict status', async () => {
    const io: CliIo = {
      stdout: () => {
        throw new TypeError('the terminal went away')
      },
      stderr: (t) => (err += t),
      readFile: (p) => Promise.resolve(readFileSync(p)),
      writeFile: () => Promise.resolve(),
    }
    let err = ''
    const code = await run(['verify', new URL('../protocol/vectors/honest-a.transcript', import.meta.url).pathname], io)
    expect(code).toBe(EXIT.internal)
    expect(oneLine(err)).toBe(
      'spaceships: internal error: the terminal went away (a bug: run again with DEBUG=spaceships:* for details, and please report it)',
    )
  })

  it('on a Node older than 22.13 the executable says what it needs in one line (exit 78)', () => {
    // The system Node of these machines is 20; skip where there is none older than 22.13.
    const system = spawnSync('/usr/bin/node', ['--version'], { encoding: 'utf8' })
    const [major = 99, minor = 99] = (system.stdout || 'v99.99').slice(1).split('.').map(Number)
    if (system.status !== 0 || major > 22 || (major === 22 && minor >= 13)) return
    const bin = new URL('../dist/cli/bin.js', import.meta.url).pathname
    const r = spawnSync('/usr/bin/node', [bin, '--help'], { encoding: 'utf8' })
    expect(r.status).toBe(78)
    expect(oneLine(r.stderr)).toMatch(/^spaceships: needs Node\.js 22\.13 or later; this is v\d+/)
  })
})
