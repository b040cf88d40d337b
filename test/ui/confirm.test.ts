/**
 * A confirmation takes only yes or no (DESIGN: a node never signs anything its player did not
 * mean): inquirer's own confirm took any other answer as its default, so "x" accepted a game's
 * terms, signed a record or resigned. Now y, yes, n, no (any case) or Enter answer, and anything
 * else is refused under the prompt, which stays.
 */
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { inquirerPrompter } from '../../src/games/spaceships/ui/terminal.js'

/** Asks once, typing each of `keys` after the prompt has drawn what came before. */
async function answer(keys: readonly string[], byDefault?: boolean): Promise<{ value: boolean; screen: string }> {
  const input = new PassThrough()
  const output = new PassThrough()
  let screen = ''
  output.on('data', (c: Buffer) => {
    screen += c.toString()
  })
  const prompter = inquirerPrompter({ input, output })
  const asked = prompter.confirm({
    message: 'Accept these terms and play?',
    ...(byDefault === undefined ? {} : { default: byDefault }),
  })
  for (const k of keys) {
    await new Promise((r) => setImmediate(r))
    input.write(k)
  }
  const value = await asked
  return { value, screen }
}

describe('a confirmation (y, yes, n, no or Enter)', () => {
  it('refuses any other answer and keeps asking: "x" is not a yes', async () => {
    const { value, screen } = await answer(['x\r', '\u0015', 'n\r'])
    expect(screen).toContain('Answer y or n (Enter: yes).')
    expect(value).toBe(false)
  })

  it.each([
    [['y\r'], undefined, true],
    [['YES\r'], false, true],
    [['No\r'], true, false],
    [['\r'], undefined, true],
    [['\r'], false, false],
  ] as const)('%j with default %s answers %s', async (keys, byDefault, expected) => {
    expect((await answer(keys, byDefault)).value).toBe(expected)
  })
})
