/**
 * A witnessed game through the built executable in real processes (PROTOCOL-4.md §4.1, §5):
 * `spaceships notary`, a host naming it with `--notary`, a joiner whose terms screen names it.
 * Both nodes submit every envelope; each transcript keeps the receipts it fetched; the two files
 * together hold the whole log, with no fault, from the genesis to the last envelope.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { gameDir } from '../src/cli/games.js'
import { EXIT } from '../src/cli/io.js'
import { verifyFiles } from '../src/games/spaceships/verify/verify.js'
import { INVITE_PATTERN } from './cli.js'
import { home, start, until } from './processes.js'

const gameOf = (env: NodeJS.ProcessEnv): string =>
  readdirSync(join(env['XDG_STATE_HOME'] ?? '', 'spaceships', 'games')).find((d) => !d.startsWith('.')) ?? ''

const receiptsIn = (file: string): number =>
  file
    .split('\n')
    .slice(1)
    .filter((l) => l !== '' && Buffer.from(l, 'base64url')[0] === 0x84).length

/**
 * A notary, and a witnessed game between two bots (each side's `--seed` from `seed`), short
 * deadlines (`seconds` for a move and a reply) and a long game: the processes and their homes.
 */
async function shortWitnessedGame(seed: string, seconds: number) {
  const [notaryEnv, hostEnv, joinEnv] = [home(), home(), home()]
  const notary = start(['notary', '--listen', '/ip4/127.0.0.1/tcp/0', '--for', '120'], notaryEnv)
  const address = await until(() => /\/ip4\/127\.0\.0\.1\/tcp\/\d+\/p2p\/\w+/.exec(notary.out())?.[0], 'the notary')
  const bot = (side: string): string[] => [
    '--autoplay',
    '--bot',
    'random',
    '--seed',
    `${seed}/${side}`,
    '--pace',
    '300',
  ]
  const deadlines = ['--turn-seconds', String(seconds), '--reply-seconds', String(seconds), '--max-turns', '200']
  const host = start(
    ['host', ...bot('A'), '--listen', '/ip4/127.0.0.1/tcp/0', '--notary', address, ...deadlines],
    hostEnv,
  )
  const invite = await until(() => INVITE_PATTERN.exec(host.out())?.[0], 'the invite')
  const joiner = start(['join', invite, '--yes', ...bot('B')], joinEnv)
  return { notary, host, joiner, hostEnv, joinEnv }
}

describe('a witnessed game between two processes and a notary (PROTOCOL-4.md §4)', () => {
  it('every envelope receipted in one log, kept in the transcripts, decided the same from either file', async () => {
    const [notaryEnv, hostEnv, joinEnv] = [home(), home(), home()]
    const notary = start(['notary', '--listen', '/ip4/127.0.0.1/tcp/0', '--for', '120'], notaryEnv)
    const address = await until(() => /\/ip4\/127\.0\.0\.1\/tcp\/\d+\/p2p\/\w+/.exec(notary.out())?.[0], 'the notary')
    try {
      const host = start(
        [
          'host',
          '--autoplay',
          '--bot',
          'random',
          '--seed',
          'witnessed/A',
          '--listen',
          '/ip4/127.0.0.1/tcp/0',
          '--notary',
          address,
          '--max-turns',
          '5',
        ],
        hostEnv,
      )
      const invite = await until(() => INVITE_PATTERN.exec(host.out())?.[0], 'the invite')
      expect(invite.startsWith('spaceships4.')).toBe(true)
      expect(host.out()).toContain(`Witnessed by notary ${address.slice(address.lastIndexOf('/') + 1)}`)
      const joiner = start(['join', invite, '--yes', '--autoplay', '--bot', 'random', '--seed', 'witnessed/B'], joinEnv)
      expect(await host.exit, host.err()).toBe(EXIT.ok)
      expect(await joiner.exit, joiner.err()).toBe(EXIT.ok)
      expect(joiner.out()).toContain('Witnessed by notary')
      expect(joiner.out()).not.toContain('the notary is the host itself')
      const files = [hostEnv, joinEnv].map((env) => ({
        name: env === hostEnv ? 'host' : 'joiner',
        content: readFileSync(join(gameDir(gameOf(env), env), 'transcript'), 'utf8'),
      }))
      for (const f of files) {
        expect(receiptsIn(f.content), f.name).toBeGreaterThan(10)
        const v = verifyFiles([f])
        // The end screen's two verdicts (the node's, the verifier's) and `verify` of the saved file
        // rest on the same receipts: those of this side's last envelopes arrive after the session
        // decided, and the node reads its file again once its link settled.
        const shown = [...(f.name === 'host' ? host : joiner).out().matchAll(/(\d+) receipts from the genesis/g)]
        expect(
          shown.map((m) => m[1]),
          f.name,
        ).toHaveLength(2)
        if (v.status !== 'unreadable')
          for (const m of shown) expect(v.notes.join('\n'), f.name).toContain(`${m[1]} receipts from the genesis`)
        expect(v.status, f.name).toBe('complete')
        if (v.status !== 'unreadable')
          expect(v.notes.join('\n')).toMatch(/witnessed by notary .*receipts from the genesis/)
      }
      const both = verifyFiles(files)
      const envelopes =
        (files[0]?.content ?? '')
          .split('\n')
          .slice(1)
          .filter((l) => l !== '').length - receiptsIn(files[0]?.content ?? '')
      // The genesis and one receipt per envelope after the hellos, no fault and no gap.
      if (both.status !== 'unreadable') {
        expect(both.notes.join('\n')).toContain(`${envelopes - 2 + 1} receipts from the genesis`)
        expect(both.notes.join('\n')).not.toMatch(/notary fault|missing: the notary/)
      }
    } finally {
      notary.child.kill('SIGTERM')
      await notary.exit
    }
  }, 90_000)

  it('a stall loses on time (PROTOCOL-4.md §4.4): the joiner killed mid-game, the host claims through the notary once the deadline passes, and the joiner checking in later is told the same', async () => {
    const { notary, host, joiner, hostEnv, joinEnv } = await shortWitnessedGame('stall', 3)
    try {
      await until(() => (/turn +3:/.test(host.out()) ? true : undefined), 'turn 3')
      joiner.child.kill('SIGKILL')
      await joiner.exit
      // 3 s for the step and 10 s of margin in notary time: then the host's claim is receipted.
      expect(await host.exit, host.err()).toBe(EXIT.abandoned)
      expect(host.out()).toMatch(/Your opponent \(B\) lost on time in turn \d+/)
      expect(host.out()).toContain('(B lost on time): A wins')
      const id = gameOf(joinEnv).slice(0, 8)
      const checkIn = start(['resume', id, '--check-in'], joinEnv)
      expect(await checkIn.exit, checkIn.err()).toBe(EXIT.abandoned)
      expect(checkIn.out()).toContain('(B lost on time): A wins')
      const files = [hostEnv, joinEnv].map((env) => ({
        name: env === hostEnv ? 'host' : 'joiner',
        content: readFileSync(join(gameDir(gameOf(env), env), 'transcript'), 'utf8'),
      }))
      for (const v of [...files.map((f) => verifyFiles([f])), verifyFiles(files)]) {
        expect(v.status).toBe('abandoned')
        if (v.status === 'abandoned') expect([v.how, v.by, v.winner]).toEqual(['time', 'B', 'A'])
      }
    } finally {
      notary.child.kill('SIGTERM')
      await notary.exit
    }
  }, 90_000)

  it('a check-in claims (PROTOCOL-4.md §4.4): both nodes killed, the joiner never returns, and the host checking in after the deadline wins on time', async () => {
    const { notary, host, joiner, hostEnv } = await shortWitnessedGame('check-in-claim', 2)
    try {
      await until(() => (/turn +2:/.test(host.out()) ? true : undefined), 'turn 2')
      host.child.kill('SIGKILL')
      joiner.child.kill('SIGKILL')
      await Promise.all([host.exit, joiner.exit])
      const id = gameOf(hostEnv).slice(0, 8)
      // Check in until the host's is the waiting side and the joiner's deadline (2 s + 10 s of margin
      // in notary time) has passed: that check-in claims, and the host wins on time.
      let last = ''
      for (let i = 0; i < 8 && !last.includes('lost on time'); i++) {
        const c = start(['resume', id, '--check-in'], hostEnv)
        await c.exit
        last = c.out()
        if (!last.includes('lost on time')) await new Promise((r) => setTimeout(r, 3_000))
      }
      expect(last).toContain('(B lost on time): A wins')
      const v = verifyFiles([
        { name: 'host', content: readFileSync(join(gameDir(gameOf(hostEnv), hostEnv), 'transcript'), 'utf8') },
      ])
      expect(v.status === 'abandoned' && [v.how, v.by]).toEqual(['time', 'B'])
    } finally {
      notary.child.kill('SIGTERM')
      await notary.exit
    }
  }, 90_000)
})
