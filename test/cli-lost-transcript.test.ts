/**
 * SPEC §2.2 through the built executable in real processes: a node never signs twice at one place,
 * even after its transcript is lost. Found by the trust issue: kill both nodes mid-game, delete the
 * host's transcript or replace it with an older copy of its first 8 lines, resume both, and the
 * host replayed from its journal and signed a different envelope at a seq it had already signed;
 * the joiner's file convicted the honest host of equivocation. Now the resumed host refuses, in one
 * line, signing nothing; the joiner's file then decides the game, and convicts nobody.
 */
import { readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { gameDir } from '../src/cli/games.js'
import { EXIT } from '../src/cli/io.js'
import { verifyTranscript } from '../src/games/spaceships/verify/verify.js'
import { INVITE_PATTERN } from './cli.js'
import { home, lines, start, text, until } from './processes.js'

const onlyGame = (env: NodeJS.ProcessEnv): string =>
  readdirSync(join(env['XDG_STATE_HOME'] ?? '', 'spaceships', 'games')).find((d) => !d.startsWith('.')) ?? ''

/** Host and joiner, random bots, paced; both killed with SIGKILL once the host's file has 12 envelopes. */
async function killedMidGame(seed: string): Promise<{ hostEnv: NodeJS.ProcessEnv; joinEnv: NodeJS.ProcessEnv }> {
  const [hostEnv, joinEnv] = [home(), home()]
  const host = start(
    ['host', '--autoplay', '--bot', 'random', '--seed', `${seed}/A`, '--listen', '/ip4/127.0.0.1/tcp/0'],
    hostEnv,
  )
  const invite = await until(() => INVITE_PATTERN.exec(host.out())?.[0], 'the invite')
  const joiner = start(
    ['join', invite, '--yes', '--autoplay', '--bot', 'random', '--seed', `${seed}/B`, '--pace', '150'],
    joinEnv,
  )
  const transcript = (): string => join(gameDir(onlyGame(hostEnv), hostEnv), 'transcript')
  await until(() => (lines(transcript()) > 12 ? true : undefined), 'the game under way')
  host.child.kill('SIGKILL')
  joiner.child.kill('SIGKILL')
  await Promise.all([host.exit, joiner.exit])
  return { hostEnv, joinEnv }
}

describe('a lost transcript: the node refuses to sign again (SPEC §2.2)', () => {
  it.each([
    ['replaced by an older copy of its first 8 lines', (t: string) => t.split('\n').slice(0, 8).join('\n') + '\n'],
    ['deleted', undefined],
  ] as const)(
    "the host's transcript %s: resume refuses in one line (exit 75) and the file is left as it was",
    async (_name, older) => {
      const { hostEnv, joinEnv } = await killedMidGame(`lost/${older === undefined ? 'deleted' : 'older'}`)
      const id = onlyGame(hostEnv)
      const path = join(gameDir(id, hostEnv), 'transcript')
      const whole = readFileSync(path, 'utf8')
      if (older === undefined) rmSync(path)
      else writeFileSync(path, older(whole))
      const before = text(path)
      const resumed = start(['resume', id.slice(0, 8)], hostEnv)
      expect(await resumed.exit, resumed.err()).toBe(EXIT.storage)
      // A status line ("resuming game ..."), then the refusal in one line.
      const refusal = resumed
        .err()
        .split('\n')
        .filter((l) => l.startsWith('spaceships resume:'))
      expect(refusal, resumed.err()).toHaveLength(1)
      expect(refusal[0]).toMatch(
        /envelopes this node signed and sent \(its journal says so\): resuming would sign again/,
      )
      // Not one envelope written (a deleted file comes back as its header line only).
      const envelopes = (t: string): string[] =>
        t
          .split('\n')
          .slice(1)
          .filter((l) => l !== '')
      expect(envelopes(text(path))).toEqual(envelopes(before))
      // The joiner's file, which holds what the host signed before it died, convicts nobody.
      const joinerFile = join(gameDir(onlyGame(joinEnv), joinEnv), 'transcript')
      expect(verifyTranscript(readFileSync(joinerFile, 'utf8')).status).not.toBe('offence')
    },
    60_000,
  )

  it('neither transcript nor journal: resume refuses in one line (exit 74), creating neither', async () => {
    const { hostEnv } = await killedMidGame('lost/both')
    const id = onlyGame(hostEnv)
    const dir = gameDir(id, hostEnv)
    rmSync(join(dir, 'transcript'))
    rmSync(join(dir, 'journal'))
    const resumed = start(['resume', id.slice(0, 8)], hostEnv)
    expect(await resumed.exit, resumed.err()).toBe(EXIT.ioError)
    expect(resumed.err().trim()).toMatch(/has neither its transcript nor its journal .*nothing to resume from/)
    expect(readdirSync(dir)).not.toContain('transcript')
  }, 60_000)
})
