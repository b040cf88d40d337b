/**
 * Who chooses a node's orders (protocol/SPAAACE-PEERS.md §6.1): a person's line is read with the
 * screen's labels and committed with the protocol's (`p1`..`pn`, §4.3); a malformed set is refused
 * as typed (S-37); at the commit guard the prompt is withdrawn and nothing is committed (S-61).
 */
import { describe, expect, it } from 'vitest'
import { personChooser, readPersonAnswer } from '../../../../src/games/spaaace/node/choosers.js'
import { genesis } from '../../../../src/games/spaaace/rules/state.js'
import { VirtualClock } from '../../../../src/core/session/clock.js'
import type { OrderPrompter } from '../../../../src/games/spaaace/ui/game.js'

const LABELS = ['you', 'bot2', 'bot3', 'bot4']

/** A person at `prompter` whose screen shows `print`'s lines (no guide; `quit` does nothing else). */
function chooserAt(
  prompter: OrderPrompter,
  print: (line: string) => void,
  more: Pick<Parameters<typeof personChooser>[0], 'timeLeft' | 'clock'> = {},
): ReturnType<typeof personChooser> {
  return personChooser({ prompter, labels: LABELS, guide: () => [], print, onQuit: () => undefined, ...more })
}

/** A person who never answers: the prompt waits until it is withdrawn (its signal aborts). */
function untilWithdrawn(o: { readonly signal?: AbortSignal }): Promise<string> {
  return new Promise((_, reject) => {
    o.signal?.addEventListener('abort', () => {
      reject(new Error('withdrawn'))
    })
  })
}

describe('choosers (§6.1, S-37, S-61)', () => {
  it('a person’s orders are rewritten with the protocol’s labels', () => {
    expect(readPersonAnswer('buy 2; attack bot3', LABELS, 0)).toEqual({ kind: 'orders', text: 'buy 2; attack p3' })
    expect(readPersonAnswer('', LABELS, 0)).toEqual({ kind: 'orders', text: '-' })
    expect(readPersonAnswer('bid 21', LABELS, 0).kind).toBe('error')
    expect(readPersonAnswer('attack you', LABELS, 0).kind).toBe('error')
  })

  it('order words and commands are read whatever their case; what is committed is the canonical text (S-37)', () => {
    expect(readPersonAnswer('Move 2', LABELS, 0)).toEqual({ kind: 'orders', text: 'move 2' })
    expect(readPersonAnswer('BUY 2; Attack Bot3', LABELS, 0)).toEqual({ kind: 'orders', text: 'buy 2; attack p3' })
    expect(readPersonAnswer('QUIT', LABELS, 0)).toEqual({ kind: 'quit' })
    expect(readPersonAnswer('Help', LABELS, 0)).toEqual({ kind: 'help' })
    expect(readPersonAnswer('Bid 21', LABELS, 0).kind).toBe('error')
  })

  it('at the commit guard the prompt is withdrawn: nothing committed, and the person is told', async () => {
    const told: string[] = []
    const prompter: OrderPrompter = { input: untilWithdrawn }
    const chooser = chooserAt(prompter, (l) => told.push(l))
    const stop = new AbortController()
    const answer = chooser.choose({ tick: 3, state: genesis(4), self: 0, deadline: 0 }, stop.signal)
    expect(chooser.busy()).toBeDefined()
    stop.abort()
    expect(await answer).toBeNull()
    expect(told).toEqual(['Time is up for tick 3: nothing was committed (S-61).'])
  })

  it('among people the prompt counts down to the commit guard (§6.1); in `spaaace play`, where time stands still, it shows no clock', async () => {
    const clocks: ((() => string | undefined) | undefined)[] = []
    const prompter: OrderPrompter = {
      input: (o) => {
        clocks.push(o.clock)
        return Promise.resolve('-')
      },
    }
    const view = { tick: 2, state: genesis(4), self: 0, deadline: 1_000_000 }
    const among = chooserAt(prompter, () => undefined, { timeLeft: (v) => `${v.deadline / 1000} s left` })
    await among.choose(view, new AbortController().signal)
    const alone = chooserAt(prompter, () => undefined)
    await alone.choose(view, new AbortController().signal)
    expect(clocks[0]?.()).toBe('1000 s left')
    expect(clocks[1]).toBeUndefined()
  })

  it('orders that cannot take effect are said before they are sent; Enter on the same orders sends them, others are read afresh (S-33, S-41)', async () => {
    const told: string[] = []
    const asked: (string | undefined)[] = []
    const lines = ['move 1; bid 2', 'bid 2', 'bid 2']
    const prompter: OrderPrompter = {
      input: (o) => {
        asked.push(o.default)
        return Promise.resolve(lines.shift() ?? '-')
      },
    }
    const chooser = chooserAt(prompter, (l) => told.push(l))
    // Player 0 starts in sector 1 (S-10): `move 1` goes nowhere it can; no battle awaits a bid.
    const state = genesis(4)
    expect(state.ships[0]?.sector).toBe(1)
    const text = await chooser.choose({ tick: 1, state, self: 0, deadline: 0 }, new AbortController().signal)
    expect(text).toBe('bid 2')
    // Asked three times: the notes of the first set, then of the second (other orders), then sent.
    expect(asked).toEqual([undefined, 'move 1; bid 2', 'bid 2'])
    expect(told).toEqual([
      'Note: move 1 does not leave sector 1: 1 is not adjacent to 1 (S-33).',
      'Note: bid 2 does nothing: no battle awaits your bid this tick (S-41).',
      'Press Enter to send these orders as they are, or change them (Ctrl-U clears the line; - orders nothing).',
      'Note: bid 2 does nothing: no battle awaits your bid this tick (S-41).',
      'Press Enter to send these orders as they are, or change them (Ctrl-U clears the line; - orders nothing).',
    ])
  })

  it('orders said to have notes are never lost to the deadline: they go as typed 3 s before it, or at once when less is left (§6.1, S-61)', async () => {
    const clock = new VirtualClock(0)
    const told: string[] = []
    let calls = 0
    const prompter: OrderPrompter = {
      input: (o) => {
        calls++
        // The person types orders with a note, then does not press Enter again.
        if (calls === 1) return Promise.resolve('bid 2')
        return untilWithdrawn(o)
      },
    }
    const chooser = chooserAt(prompter, (l) => told.push(l), { clock })
    const answer = Promise.resolve(
      chooser.choose({ tick: 1, state: genesis(4), self: 0, deadline: 20_000 }, new AbortController().signal),
    )
    await clock.settle([answer])
    expect(await answer).toBe('bid 2')
    expect(clock.now()).toBe(17_000)
    expect(told.at(-1)).toBe('Time is nearly up for tick 1: your orders go as typed (bid 2).')
    // Noted with under 3 s left: sent at once.
    calls = 0
    const late = chooser.choose({ tick: 2, state: genesis(4), self: 0, deadline: 19_000 }, new AbortController().signal)
    expect(await late).toBe('bid 2')
    expect(told.at(-1)).toBe('Too little time is left to change them: your orders go as typed.')
  })
})
