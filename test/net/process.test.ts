import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { verifyTranscript } from '../../src/games/spaceships/verify/verify.js'

const MAIN = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js')

interface Proc {
  readonly child: ChildProcess
  readonly out: () => string
  readonly err: () => string
  readonly exit: Promise<number | null>
}

function start(args: string[], home: string): Proc {
  const child = spawn(process.execPath, [MAIN, ...args], {
    env: { ...process.env, XDG_CONFIG_HOME: join(home, 'config'), XDG_STATE_HOME: join(home, 'state'), NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString()
  })
  let err = ''
  child.stderr.on('data', (d: Buffer) => {
    err += d.toString()
  })
  return {
    child,
    out: () => out,
    err: () => err,
    exit: new Promise((r) =>
      child.on('exit', (code) => {
        r(code)
      }),
    ),
  }
}

async function until<T>(f: () => T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const v = f()
    if (v !== undefined) return v
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 20))
  }
}

const lines = (path: string): number => {
  try {
    return readFileSync(path, 'utf8').split('\n').length
  } catch {
    return 0
  }
}

describe('two processes over TCP: one is killed mid-game and restarted (SPEC §2.2)', () => {
  it('the host is killed with SIGKILL, resumed from its transcript and journal, and the game finishes; both sides verify', async () => {
    const hostHome = mkdtempSync(join(tmpdir(), 'spaceships-host-'))
    const joinHome = mkdtempSync(join(tmpdir(), 'spaceships-join-'))
    const deadlines = ['--turn-seconds', '30', '--reply-seconds', '30']
    const host = start(
      [
        'host',
        '--autoplay',
        '--bot',
        'random',
        '--seed',
        'proc/A',
        '--pace',
        '10',
        '--listen',
        '/ip4/127.0.0.1/tcp/0',
        ...deadlines,
        '--json',
      ],
      hostHome,
    )
    const first = await until(() =>
      host
        .out()
        .split('\n')
        .find((l) => l.startsWith('{"invite"')),
    )
    const { invite, game } = JSON.parse(first) as { invite: string; game: string }
    const joiner = start(
      ['join', invite, '--autoplay', '--bot', 'random', '--yes', '--seed', 'proc/B', '--json'],
      joinHome,
    )
    const transcript = join(hostHome, 'state', 'spaceships', 'games', game, 'transcript')
    // Mid-game: after some turns, at whatever point the host happens to be.
    await until(() => (lines(transcript) > 80 ? true : undefined))
    host.child.kill('SIGKILL')
    expect(await host.exit).toBe(null)
    const killedAt = lines(transcript)
    const resumed = start(['resume', game, '--pace', '10', '--json'], hostHome)
    const [hostCode, joinCode] = await Promise.all([resumed.exit, joiner.exit])
    expect(hostCode, resumed.err() + resumed.out().slice(-300)).toBe(0)
    expect(joinCode, joiner.err() + joiner.out().slice(-300)).toBe(0)
    const hostResult = JSON.parse(resumed.out().slice(resumed.out().indexOf('{\n'))) as { verdict: { status: string } }
    const joinResult = JSON.parse(joiner.out().slice(joiner.out().indexOf('{\n'))) as {
      verdict: unknown
      transcript: string
    }
    expect(hostResult.verdict.status).toBe('complete')
    expect(joinResult.verdict).toEqual(hostResult.verdict)
    const hostText = readFileSync(transcript, 'utf8')
    expect(lines(transcript)).toBeGreaterThan(killedAt)
    // Nothing lost, nothing duplicated: each envelope once, and the verifier agrees with both.
    const envelopes = hostText.trim().split('\n').slice(1)
    expect(new Set(envelopes).size).toBe(envelopes.length)
    expect(verifyTranscript(hostText)).toEqual(hostResult.verdict)
    expect(verifyTranscript(readFileSync(joinResult.transcript, 'utf8'))).toEqual(hostResult.verdict)
  }, 90_000)
})
