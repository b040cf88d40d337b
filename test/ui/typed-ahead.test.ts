/**
 * Lines typed while no prompt is open must not answer the next prompt (prompter.ts
 * `typedAheadGuard`): a move typed while waiting for the opponent had been taken as the next
 * turn's record, with "Sign and send? (Y/n)" under it.
 */
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { typedAheadGuard } from '../../src/games/spaceships/ui/prompter.js'

/** A terminal's input as the guard sees it: a readable stream that says it is a TTY. */
function terminal(): PassThrough & { isTTY: boolean; ref(): void; unref(): void } {
  return Object.assign(new PassThrough(), { isTTY: true, ref: () => undefined, unref: () => undefined })
}

describe('lines typed between prompts (prompter.ts)', () => {
  it('are read and dropped between prompts, each said; a prompt opened after them reads nothing of them', async () => {
    const input = terminal()
    let said = ''
    const output = new PassThrough()
    output.on('data', (c: Buffer) => (said += c.toString()))
    const guard = typedAheadGuard(input as unknown as NodeJS.ReadStream, output)
    if (guard === undefined) throw new Error('a terminal is guarded')
    guard.start()
    input.write('Bv1\n')
    input.write('\n')
    await new Promise((r) => setImmediate(r))
    guard.stop()
    expect(said).toBe('(not kept, typed before the prompt: "Bv1")\n')
    // The prompt's own lines reach the prompt: the guard no longer reads.
    input.write('Rv2\n')
    await new Promise((r) => setImmediate(r))
    expect(String(input.read())).toBe('Rv2\n')
    expect(said).toBe('(not kept, typed before the prompt: "Bv1")\n')
  })

  it('a line someone takes (a chat line while waiting) is not said to be dropped; a pasted block is read line by line, in order', async () => {
    const input = terminal()
    let said = ''
    const output = new PassThrough()
    output.on('data', (c: Buffer) => (said += c.toString()))
    const taken: string[] = []
    const guard = typedAheadGuard(input as unknown as NodeJS.ReadStream, output)
    if (guard === undefined) throw new Error('a terminal is guarded')
    guard.take(async (line) => {
      await new Promise((r) => setImmediate(r))
      if (!line.startsWith('say ')) return false
      taken.push(line)
      return true
    })
    guard.start()
    input.write('say hi\nBv1\r\nsay there\n')
    await expect.poll(() => taken.length).toBe(2)
    guard.stop()
    expect(taken).toEqual(['say hi', 'say there'])
    expect(said).toBe('(not kept, typed before the prompt: "Bv1")\n')
  })

  it('one guard per terminal: a second prompter (the join asked its terms, then the moves) shares it, so a record typed at a prompt is never said to be dropped', async () => {
    const input = terminal()
    let said = ''
    const output = new PassThrough()
    output.on('data', (c: Buffer) => (said += c.toString()))
    const terms = typedAheadGuard(input as unknown as NodeJS.ReadStream, output)
    const moves = typedAheadGuard(input as unknown as NodeJS.ReadStream, output)
    expect(moves).toBe(terms)
    // The terms prompter's prompt is over: between prompts, lines are read.
    terms?.start()
    // The moves prompter opens a record prompt: nothing reads the terminal but the prompt.
    moves?.stop()
    input.write('-\n')
    await new Promise((r) => setImmediate(r))
    expect(said).toBe('')
    expect(String(input.read())).toBe('-\n')
  })

  it('leaves piped input alone: a script types ahead on purpose', () => {
    const piped = Object.assign(new PassThrough(), { isTTY: false })
    expect(typedAheadGuard(piped as unknown as NodeJS.ReadStream, new PassThrough())).toBeUndefined()
  })
})
