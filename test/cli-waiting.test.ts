/**
 * The lines a human's side prints while a game runs (src/cli/screen.ts `waitingPrinter`): the
 * opponent's move awaited is said in a live game, once per wait, and never in a check-in, which
 * does not wait (PROTOCOL-4.md §4: it ends and says when to come back).
 */
import { describe, expect, it } from 'vitest'
import type { CliIo } from '../src/cli/io.js'
import { waitingPrinter } from '../src/cli/screen.js'
import { systemClock } from '../src/core/session/clock.js'

function printer(checkIn: boolean) {
  let out = ''
  const io = { stdout: (t: string) => (out += t), stderr: () => undefined, env: {} } as unknown as CliIo
  const print = waitingPrinter(io, { bot: 'medium' }, 'A', () => 'Bob', undefined, true, checkIn)
  if (print === undefined) throw new Error('a human side prints')
  return { print, out: () => out }
}

describe('waitingPrinter', () => {
  const wait = { kind: 'waiting', side: 'B', what: 'commit+aspects', deadline: systemClock.now() + 599_700 } as const

  it("a live game says the opponent's move awaited, with the time left, once per wait", () => {
    const p = printer(false)
    p.print(wait)
    p.print(wait)
    expect(p.out()).toBe("waiting for your opponent's move (10:00 left)\n")
  })

  it('a check-in says no wait (the time it knows can be the deadline just met, before the notary receipts this move)', () => {
    const p = printer(true)
    p.print(wait)
    expect(p.out()).toBe('')
    // What the opponent did is still said.
    p.print({ kind: 'chat', text: 'hello' })
    expect(p.out()).toContain('hello')
  })
})
