/**
 * One process per game directory: two processes resuming one game could each sign an envelope at
 * the same place (equivocation, SPEC §5.3), so the second is refused with a clear message.
 */
import { mkdtempSync, writeFileSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { gameDir, openGameFiles, readMeta, writeMeta } from '../src/cli/games.js'
import { UserError } from '../src/cli/io.js'
import { formatInvite } from '../src/games/spaceships/net/invite.js'
import { cli } from './cli.js'
import { NET_TERMS, testIdentity } from './net/helpers.js'

function env(): NodeJS.ProcessEnv {
  const d = mkdtempSync(join(tmpdir(), 'spaceships-lock-'))
  return { XDG_CONFIG_HOME: join(d, 'config'), XDG_STATE_HOME: join(d, 'state'), NO_COLOR: '1' }
}

describe('the lock on a game directory', () => {
  it('a second open of a game is refused while the first holds it, and allowed once released', () => {
    const e = env()
    const first = openGameFiles('g1', e)
    expect(() => openGameFiles('g1', e)).toThrow(UserError)
    expect(() => openGameFiles('g1', e)).toThrow(/^game g1 is open in another process \(pid \d+ on /)
    first.release()
    const again = openGameFiles('g1', e)
    again.release()
  })

  it('a lock left by a process that is gone (SIGKILL) is taken over', () => {
    const e = env()
    openGameFiles('g2', e).release()
    // No process has pid 2^22 + 1 here (Linux pids stop at 2^22).
    writeFileSync(join(gameDir('g2', e), 'lock'), `${2 ** 22 + 1} ${hostname()}\n`)
    openGameFiles('g2', e).release()
  })

  it('spaceships resume refuses a game another process is playing, in one line', async () => {
    const e = env()
    const peer = (await testIdentity('lock/host')).peerId.toString()
    const invite = formatInvite({
      id: 'ab'.repeat(16),
      peer,
      addrs: [`/ip4/127.0.0.1/tcp/9/p2p/${peer}`],
      terms: NET_TERMS,
    })
    writeMeta({ v: 1, id: 'g3', role: 'join', invite, listen: [], relays: [], player: { kind: 'human' } }, e)
    const held = openGameFiles('g3', e)
    try {
      const r = await cli(['resume', 'g3'], {}, { env: e })
      expect(r.code).toBe(64)
      // The identity is created on first use (one line), then the refusal (one line).
      expect(r.err.trimEnd().split('\n').at(-1)).toMatch(
        /^spaceships resume: game g3 is open in another process \(pid \d+ on [^)]*\); finish or stop that one first/,
      )
    } finally {
      held.release()
    }
    expect(readMeta('g3', e)?.finished).toBeUndefined()
  })
})
