/**
 * The README's screens are real: each fenced block of README.md that shows what a command prints
 * (the boards at the end of `play`, a turn screen, `games`, `verify`, `referee`, the Spaaace!
 * referee) is made here by the program, from fixed seeds and the protocol's vectors, and compared
 * with the README, so a README screen cannot drift from what the program prints.
 *
 * What no seed fixes is normalised in both before comparing: clocks ("9:59 left"), dates, game ids
 * (named in their order of appearance), and the line saying the node waits for the opponent, which
 * depends on timing. `UPDATE_README=1 npx vitest run test/ui/readme-screens.test.ts` writes the
 * program's screens into README.md instead of comparing (the words around them are left alone).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { type GameMeta, endedMeta, gameDir, writeMeta } from '../../src/cli/games.js'
import { formatInvite } from '../../src/games/spaceships/net/invite.js'
import { DEFAULT_TERMS } from '../../src/games/spaceships/protocol/messages.js'
import { outcomeLine } from '../../src/games/spaceships/ui/panel.js'
import { verifyTranscript } from '../../src/games/spaceships/verify/verify.js'
import { cli } from '../cli.js'
import { freshHome, onTerminal } from './terminal-screen.js'

const ROOT = join(import.meta.dirname, '..', '..')
const README = join(ROOT, 'README.md')
const UPDATE = process.env['UPDATE_README'] !== undefined && process.env['UPDATE_README'] !== ''

/** A fenced block of the README: the lines between its fences, and where they are. */
interface Block {
  readonly start: number
  readonly end: number
  readonly lines: string[]
}

/** The first fenced block after the first line of `text` that matches `after`. */
function blockAfter(text: string, after: RegExp): Block {
  const lines = text.split('\n')
  const from = lines.findIndex((l) => after.test(l))
  if (from < 0) throw new Error(`README.md: no line matches ${String(after)}`)
  const open = lines.findIndex((l, i) => i > from && l.startsWith('```'))
  const close = lines.findIndex((l, i) => i > open && l.startsWith('```'))
  if (open < 0 || close < 0) throw new Error(`README.md: no fenced block after ${String(after)}`)
  return { start: open + 1, end: close, lines: lines.slice(open + 1, close) }
}

/** The screens made in this file, by the README line they follow, waiting to be written (UPDATE_README). */
const made = new Map<RegExp, string[]>()

/** Compares the README's block after `after` with the program's `screen` (or records it to be written). */
function compare(after: RegExp, screen: readonly string[], normalise: (lines: string[]) => string[] = (l) => l): void {
  const block = blockAfter(readFileSync(README, 'utf8'), after)
  if (UPDATE) {
    // A block that differs only in what is normalised (a date, an id) is left as it is.
    if (normalise(block.lines).join('\n') !== normalise([...screen]).join('\n')) made.set(after, [...screen])
    return
  }
  expect(normalise(block.lines).join('\n'), `README.md block after ${String(after)}`).toBe(
    normalise([...screen]).join('\n'),
  )
}

afterAll(() => {
  if (!UPDATE || made.size === 0) return
  let text = readFileSync(README, 'utf8')
  for (const [after, screen] of made) {
    const block = blockAfter(text, after)
    const lines = text.split('\n')
    text = [...lines.slice(0, block.start), ...screen, ...lines.slice(block.end)].join('\n')
  }
  writeFileSync(README, text)
})

const textLines = (text: string): string[] => text.replace(/\n$/, '').split('\n')

/** Clocks as the panel and the notices show them ("9:59 left", "10:00 left"). */
const clocks = (lines: string[]): string[] => lines.map((l) => l.replace(/\b\d+:\d\d left\b/g, 'M:SS left'))

/**
 * The `$` commands of a block and what each printed, as a README shows them: a command's lines
 * follow it up to a blank line or the next command; a line `...` elides the rest of its output;
 * a command with no lines shown is run (it may write a file a later one reads) and not compared.
 */
async function commandsOf(block: readonly string[], env: NodeJS.ProcessEnv): Promise<string[]> {
  const files: Record<string, string> = {}
  const out: string[] = []
  for (let i = 0; i < block.length; i++) {
    const line = block[i] ?? ''
    if (!line.startsWith('$ ')) {
      if (line === '' && out.at(-1) !== '') out.push('')
      continue
    }
    const shown: string[] = []
    for (let j = i + 1; j < block.length && block[j] !== '' && !(block[j] ?? '').startsWith('$ '); j++)
      shown.push(block[j] ?? '')
    const words = line
      .slice(2)
      .replace(/\s+#.*$/, '')
      .split(/\s+/)
    const args = words.slice(words[0] === 'npx' ? 2 : 1)
    const r = await cli(args, files, { env })
    out.push(line)
    if (shown.length === 0) continue
    const printed = textLines(r.out)
    const elided = shown.findIndex((l) => l.trim() === '...')
    out.push(...(elided < 0 ? printed : [...printed.slice(0, elided), shown[elided] ?? '...']))
    i += shown.length
  }
  return out
}

describe('the screens in README.md are what the program prints', () => {
  const env = freshHome()

  it('verify: each command of the block, on the protocol vectors', async () => {
    const after = /the verdict a verifier must reach:/
    compare(after, await commandsOf(blockAfter(readFileSync(README, 'utf8'), after).lines, env))
  })

  it('referee: a record file, its adjudication, and an illegal record', async () => {
    const record = readFileSync(join(ROOT, 'protocol/examples/no-actions.record'), 'utf8')
    compare(
      /^A game record \(`protocol\/GAME-RECORD\.md`\)/,
      textLines(record).filter((l) => !l.startsWith('#')),
    )
    const legal = textLines((await cli(['referee', 'protocol/examples/no-actions.record'], {}, { env })).out)
    compare(
      /^`npx spaceships referee protocol\/examples\/no-actions\.record` prints/,
      legal.slice(legal.indexOf('Turn 1')),
    )
    const illegal = textLines((await cli(['referee', 'protocol/examples/illegal-missile.record'], {}, { env })).out)
    compare(/^An illegal record is attributed/, illegal.slice(illegal.findIndex((l) => l.startsWith('ILLEGAL'))))
  })

  it('Spaaace!: a random record and its referee', async () => {
    const after = /appendix\) is refereed by:/
    compare(after, await commandsOf(blockAfter(readFileSync(README, 'utf8'), after).lines, env))
  })

  it('Spaaace! play: the screen of a tick with a battle awaiting your bid, your orders, the tick told, the standings', async () => {
    const r = await cli(['spaaace', 'play', '--autoplay', '--bot', 'mix', '--seed', 'demo'], {}, { env })
    expect(r.code, r.err).toBe(0)
    const out = textLines(r.out)
    const from = out.indexOf('Spaaace! tick 47 of 60 (S-02, S-51), 4 players')
    const auto = out.findIndex((l, i) => i > from && l.startsWith('you (sensible): '))
    const told = out.indexOf('tick 47', auto)
    const ships = out.findIndex((l, i) => i > told && l.startsWith('  = '))
    const end = out.indexOf('Standings after tick 60 (fame first, S-43, S-51):')
    expect(Math.min(from, auto, told, ships, end)).toBeGreaterThan(0)
    // At a terminal the autoplayed line is the prompt a person answers (inquirer marks it done with ✔).
    const orders = (out[auto] ?? '').slice('you (sensible): '.length)
    compare(/^signs nothing more\)\. Then the tick settles and is told in words:/, [
      ...out.slice(from, auto),
      `✔ Your orders for tick 47 (help, quit): ${orders}`,
      '',
      ...out.slice(told, ships),
      '  ...',
      ...out.slice(end, end + 3),
      '   ...',
      ...out.slice(end + 5),
    ])
  })

  it('play --autoplay: the boards at the end of the game', async () => {
    const r = await cli(['play', '--autoplay', '--seed', 'readme'], {}, { env })
    expect(r.code, r.err).toBe(0)
    const lines = textLines(r.out)
    const boards = lines.slice(
      lines.findIndex((l) => l.startsWith('Your space')),
      lines.findIndex((l) => l.startsWith('Their fleet, as they revealed it')),
    )
    while (boards.at(-1) === '') boards.pop()
    compare(/^In the game, each space is five 5x5 grids/, boards)
  }, 30_000)

  it('play: the screen of turn 2, a mistyped record refused, then one signed', async () => {
    const t = onTerminal(['play', '--seed', 'readme', '--max-turns', '2'], { env })
    let at = await t.seen('Your setup')
    await t.type('\r')
    at = await t.seen('Turn 1 record', at)
    await t.type('Rv1\r')
    at = await t.seen('Sign and send: strike Rv1?', at)
    await t.type('\r')
    at = await t.seen('Turn 2 record', at + 1)
    await t.type('Zz9\r')
    await t.seen('> Zz9', at)
    // The screen as the refusal leaves it: from the turn's results to the prompt and its error.
    const refused = t.terminal.lines()
    const first = refused.findIndex((l) => l.startsWith('Turn 1, yours'))
    const shown = refused.slice(first, refused.findIndex((l, i) => i > first && l.startsWith('> Zz9')) + 1)
    await t.type('\u0015Ow2 Bz5\r')
    await t.seen('Sign and send: strike Ow2; strike Bz5?', at)
    await t.type('\r')
    const r = await t.done
    expect(r.code, r.err).toBe(0)
    // Then, once it is signed: the prompt's last state, the confirmation, up to the end of the turn.
    const end = t.terminal.lines()
    const signed = end.findIndex((l) => l.startsWith('✔ Turn 2 record'))
    const after = end.slice(signed, end.indexOf('', signed))
    // Both spaces are drawn in the block above this one: here they are said in one line.
    const boards = shown.findIndex((l) => l.startsWith('Your space'))
    const panel = shown.findIndex((l) => /^Turn 2\. You are/.test(l))
    const screen = [...shown.slice(0, boards), '  ...both spaces...', ...shown.slice(panel), ...after]
    const noWaiting = (lines: string[]): string[] =>
      clocks(lines).filter((l) => !l.startsWith("waiting for your opponent's move"))
    compare(/a signed record cannot be taken back/, screen, noWaiting)
  }, 30_000)

  it('games: the games of this machine', async () => {
    // Two network games as host and join store them at their end (net.ts): one the opponent
    // stopped (a protocol vector), one unfinished (the first turns of another), beside the two
    // games against the bot played above.
    const peer = '12D3KooWJdUcJdPwryb8qs3uBvXBkasD8oRVgqpNwK36kSzYFiDD'
    const hosted = (id: string, created: string): GameMeta => ({
      v: 1,
      id,
      role: 'host',
      invite: formatInvite({ id, peer, addrs: ['/ip4/127.0.0.1/tcp/4011'], terms: DEFAULT_TERMS }),
      opponent: peer,
      listen: ['/ip4/127.0.0.1/tcp/4011'],
      relays: [],
      player: { kind: 'human' },
      created,
    })
    const day = (n: number): string => new Date(Date.now() - n * 86_400_000).toISOString()
    const store = (meta: GameMeta, transcript: string): void => {
      mkdirSync(gameDir(meta.id, env), { recursive: true })
      writeFileSync(join(gameDir(meta.id, env), 'transcript'), transcript)
      writeMeta(meta, env)
    }
    const stall = readFileSync(join(ROOT, 'protocol/vectors/stall-b.transcript'), 'utf8')
    const stopped = hosted('3c1f07aa5e2b4d6f8a9c0b1d2e3f4a5b', day(2))
    const verdict = verifyTranscript(stall)
    store(endedMeta(stopped, verdict, outcomeLine(verdict, 'A')), stall)
    const honest = textLines(readFileSync(join(ROOT, 'protocol/vectors/honest-a.transcript'), 'utf8'))
    store(hosted('98e0215f7c3d4b2a9e8f7a6b5c4d3e2f', day(1)), honest.slice(0, 13).join('\n') + '\n')
    const r = await cli(['games'], {}, { env })
    expect(r.code, r.err).toBe(0)
    const ids = (lines: string[]): string[] => {
      const seen: string[] = []
      const name = (id: string): string => {
        if (!seen.includes(id)) seen.push(id)
        return `id${seen.indexOf(id) + 1}`
      }
      return lines.map((l) =>
        l.replace(/\d{4}-\d\d-\d\d \d\d:\d\d/g, 'YYYY-MM-DD hh:mm').replace(/\b[0-9a-f]{8}\b/g, name),
      )
    }
    compare(/^`spaceships games` lists every game/, textLines(r.out), ids)
  })
})
