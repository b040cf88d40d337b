/**
 * The record prompt's live clock (the terminal game's move clock, SPEC §6.6): the time left is
 * shown after the message and drawn again as it runs, while the player types or not, and the
 * prompt still answers as inquirer's input does (validation on enter, the typed text kept).
 */
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { timedInput } from '../../src/games/spaceships/ui/timed-input.js'

function streams(): { input: PassThrough; output: PassThrough; text: () => string } {
  const input = new PassThrough()
  const output = new PassThrough()
  let text = ''
  output.on('data', (d: Buffer) => (text += d.toString()))
  return { input, output, text: () => text }
}

describe('the live clock of the record prompt', () => {
  it('is drawn again as it runs, with nobody typing; the answer is still validated on enter', async () => {
    const s = streams()
    let left = '4:12 left'
    const answer = timedInput(
      {
        message: 'Turn 3 record',
        clock: () => left,
        tickMs: 10,
        validate: (v) => (v === '-' ? true : 'type - to do nothing this turn'),
      },
      { input: s.input, output: s.output },
    )
    await expect.poll(s.text).toContain('Turn 3 record (4:12 left)')
    left = '4:11 left'
    await expect.poll(s.text).toContain('Turn 3 record (4:11 left)')
    // Past the deadline it says so, and the prompt still takes the move.
    left = 'due 0:03 ago'
    await expect.poll(s.text).toContain('(due 0:03 ago)')
    s.input.write('x\r')
    await expect.poll(s.text).toContain('type - to do nothing this turn')
    // The refused line stays, to be mended.
    s.input.write('\b-\r')
    expect(await answer).toBe('-')
  })

  it('shows no clock while there is none (the opponent moves first), and one once it starts', async () => {
    const s = streams()
    let clock: string | undefined = undefined
    const stop = new AbortController()
    const answer = timedInput(
      { message: 'Turn 1 record', clock: () => clock, tickMs: 10 },
      { input: s.input, output: s.output, signal: stop.signal },
    )
    await expect.poll(s.text).toContain('Turn 1 record')
    expect(s.text()).not.toContain('left)')
    clock = '10:00 left'
    await expect.poll(s.text).toContain('Turn 1 record (10:00 left)')
    stop.abort()
    await expect(answer).rejects.toThrow()
  })
})
