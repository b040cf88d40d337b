/**
 * How a networked command's failure reaches the player (src/cli/guarded.ts): one line, the
 * command that carries the game on, and the exit status the README lists.
 */
import { describe, expect, it } from 'vitest'
import { GameLeftError, guarded, interruptedWhileWaiting, interruptible } from '../src/cli/guarded.js'
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

  it("Ctrl-C after this side's stop is signed (waiting for the other side's answer) never says no stop was signed", async () => {
    const t = io()
    const code = await guarded(t.io, 'join', () =>
      Promise.reject(new GameLeftError('3f917e6b'.repeat(4), false, 'while waiting', true, true)),
    )
    expect(code).toBe(3)
    expect(t.err()).toBe(
      "spaceships join: stopped while waiting; your node's stop is signed already, so game 3f917e6b is ending: it waits for your opponent's node to answer. Finish it with npx spaceships resume 3f917e6b\n",
    )
  })

  it('Ctrl-C while the game waits (a SIGINT: no prompt holds the terminal) is said as at a prompt, where it came; a second kills as usual', async () => {
    const before = process.listenerCount('SIGINT')
    const waiting = interruptible(() => new Promise<never>(() => undefined))
    expect(process.listenerCount('SIGINT')).toBe(before + 1)
    process.emit('SIGINT')
    const e = await waiting.then(
      () => undefined,
      (x: unknown) => x,
    )
    expect(interruptedWhileWaiting(e)).toBe(true)
    // Only the first: the listener is gone, so a second Ctrl-C is the default kill.
    expect(process.listenerCount('SIGINT')).toBe(before)
    const t = io()
    await guarded(t.io, 'join', () => Promise.reject(new GameLeftError('c66d5395'.repeat(4), false, 'while waiting')))
    expect(t.err()).toBe(
      'spaceships join: stopped while waiting; no stop was signed, and game c66d5395 is paused. Carry it on with npx spaceships resume c66d5395\n',
    )
    // Before anyone joined, no game began: no clock, no check-in to suggest.
    const early = io()
    await guarded(early.io, 'host', () =>
      Promise.reject(new GameLeftError('3b9a834b'.repeat(4), false, 'while waiting', false)),
    )
    expect(early.err()).toBe(
      'spaceships host: stopped while waiting for your opponent to join; no game began, and the invite stays valid: wait again with npx spaceships resume 3b9a834b\n',
    )
    // A body that ends first leaves no listener behind.
    expect(await interruptible(() => Promise.resolve(7))).toBe(7)
    expect(process.listenerCount('SIGINT')).toBe(before)
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
