/**
 * How a networked command's failure reaches the player (src/cli/guarded.ts): one line, the
 * command that carries the game on, and the exit status the README lists.
 */
import { describe, expect, it } from 'vitest'
import { GameLeftError, guarded } from '../src/cli/guarded.js'
import type { CliIo } from '../src/cli/io.js'

function io(): { io: CliIo; err: () => string } {
  let err = ''
  const io = {
    stdout: () => undefined,
    stderr: (t: string) => (err += t),
    env: { npm_command: 'exec' },
  } as unknown as CliIo
  return { io, err: () => err }
}

describe('guarded: a game left at a prompt (Ctrl-C)', () => {
  it('a witnessed game: paused, the deadline runs on, and both ways to carry it on, the check-in among them (README, Witnessed games)', async () => {
    const t = io()
    const code = await guarded(t.io, 'host', () => Promise.reject(new GameLeftError('3f917e6b'.repeat(4), true)))
    expect(code).toBe(3)
    expect(t.err()).toBe(
      'spaceships host: stopped at the prompt; no stop was signed, and game 3f917e6b is paused, but the clock runs on: once your move is past its deadline, your opponent may claim the win on time through the notary. Carry it on with npx spaceships resume 3f917e6b, or play what is due through the notary and exit with npx spaceships resume 3f917e6b --check-in\n',
    )
  })

  it('play: a game against the bot cannot be resumed, and says so', async () => {
    const t = io()
    const left = Object.assign(new Error('User force closed the prompt'), { name: 'ExitPromptError' })
    expect(await guarded(t.io, 'play', () => Promise.reject(left))).toBe(3)
    expect(t.err()).toBe(
      'spaceships play: stopped. A game against the bot cannot be resumed; start a new one with npx spaceships play\n',
    )
  })
})
