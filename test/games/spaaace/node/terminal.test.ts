/**
 * `spaceships spaaace play` among peers, driven as a person drives it: a scripted prompter answers
 * each tick (orders checked as typed, S-37; `help`; an order refused and typed again), three bots
 * in the other seats, every seat a node of the protocol; the game runs to its end, the screen
 * tells each tick and the standings, and the transcript written decides the game complete
 * (protocol/SPAAACE-PEERS.md §5, §13).
 */
import { PassThrough } from 'node:stream'
import { describe, expect, it } from 'vitest'
import { inquirerPrompter } from '../../../../src/games/spaceships/ui/prompter.js'
import { verifySpaaace } from '../../../../src/games/spaaace/verify/verify.js'
import { cli } from '../../../cli.js'
import { scripted } from '../helpers.js'

describe('spaaace play among peers, a person against three bots (§6, S-37)', () => {
  it('plays to the last tick: each tick asked and told, the standings, a transcript that decides complete', async () => {
    // Orders that draw no note wherever the seed seats the person (a claim is never judged ahead).
    const s = scripted([['bid 21', 'claim'], ['help'], ['claim'], ['-'], ['claim'], ['-']], ['-'])
    const r = await cli(
      ['spaaace', 'play', '--bots', '3', '--seed', 'person', '--ticks', '5', '--out', 'p.transcript'],
      {},
      { prompter: () => s.prompter },
    )
    expect(r.code, r.err).toBe(0)
    expect(r.err).toBe('')
    // S-37: the malformed set was refused as typed, and the prompt asked again.
    expect(s.told[0]).toMatch(/^bid 21 -> /)
    expect(s.asked[0]).toBe('Your orders for tick 1 (help, quit):')
    // One prompt per tick, and the `help` answer asked again within tick 2.
    expect(s.asked.filter((a) => a.startsWith('Your orders for tick 2'))).toHaveLength(2)
    expect(r.out).toContain('Spaaace! tick 1 of 5')
    expect(r.out).toMatch(/Standings after tick 5/)
    expect(r.out).toMatch(/Decided from the evidence \(§5\): complete after tick 5/)
    const text = r.files['p.transcript']
    expect(text).toBeDefined()
    const [v] = verifySpaaace([{ name: 'p.transcript', text: text ?? '' }])
    expect(v?.status).toBe('complete')
  }, 120_000)

  it('quit: exit 4, the game abandoned, the node signing nothing more', async () => {
    const s = scripted([['claim'], ['quit']], ['-'])
    const r = await cli(
      ['spaaace', 'play', '--bots', '3', '--seed', 'quitter', '--out', 'q.transcript'],
      {},
      {
        prompter: () => s.prompter,
      },
    )
    expect(r.code).toBe(4)
    expect(r.out).toMatch(/You quit in tick 2: the game is abandoned/)
  }, 60_000)

  it("a seed played again never overwrites the earlier transcript: the default name takes the next free number; --out is the person's own", async () => {
    const files: Record<string, string> = { 'spaaace-again.transcript': 'the hand-played game\n' }
    const r = await cli(['spaaace', 'play', '--autoplay', '--bots', '2', '--seed', 'again', '--ticks', '2'], files)
    expect(r.code, r.err).toBe(0)
    expect(files['spaaace-again.transcript']).toBe('the hand-played game\n')
    expect(files['spaaace-again-2.transcript']).toMatch(/^spaaace-transcript/)
    expect(r.out).toContain('Your transcript: spaaace-again-2.transcript')
    const o = await cli(
      [
        'spaaace',
        'play',
        '--autoplay',
        '--bots',
        '2',
        '--seed',
        'again',
        '--ticks',
        '2',
        '--out',
        'spaaace-again.transcript',
      ],
      files,
    )
    expect(o.code, o.err).toBe(0)
    expect(files['spaaace-again.transcript']).toMatch(/^spaaace-transcript/)
  }, 60_000)

  it('Ctrl-C at the prompt, and Ctrl-D closing the input, leave as quit does: exit 4, the transcript written, never a tick skipped or a wait on a closed input', async () => {
    const left = Object.assign(new Error('User force closed the prompt with SIGINT'), { name: 'ExitPromptError' })
    const s = scripted([['claim']], ['-'])
    const prompter = {
      ...s.prompter,
      input: (o: Parameters<typeof s.prompter.input>[0]) =>
        s.asked.length === 0 ? s.prompter.input(o) : Promise.reject(left),
    }
    const r = await cli(
      ['spaaace', 'play', '--bots', '3', '--seed', 'ctrl-c', '--out', 'c.transcript'],
      {},
      { prompter: () => prompter },
    )
    expect(r.code).toBe(4)
    expect(r.out).toMatch(/You quit in tick 2: the game is abandoned/)
    expect(r.files['c.transcript']).toMatch(/^spaaace-transcript/)
    // The real prompt on an input that ends (Ctrl-D): the same.
    const input = new PassThrough()
    const output = new PassThrough()
    let screen = ''
    output.on('data', (d: Buffer) => {
      screen += d.toString()
      if (screen.includes('Your orders for tick 1')) input.end()
    })
    const d = await cli(
      ['spaaace', 'play', '--bots', '3', '--seed', 'ctrl-d', '--out', 'd.transcript'],
      {},
      { prompter: () => inquirerPrompter({ input, output }) },
    )
    expect(d.code).toBe(4)
    expect(d.out).toMatch(/You quit in tick 1: the game is abandoned/)
    expect(d.files['d.transcript']).toMatch(/^spaaace-transcript/)
  }, 60_000)
})
