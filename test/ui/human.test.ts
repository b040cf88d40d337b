/** The human strategy with a scripted prompter: what it says between the prompts. */
import { describe, expect, it } from 'vitest'
import { randomSetup } from '../../src/games/spaceships/rules/enumerate.js'
import { seededRandom } from '../../src/games/spaceships/rules/rng.js'
import { DEFAULT_RULESET, parseRuleset } from '../../src/games/spaceships/rules/ruleset.js'
import { initialPlayerState } from '../../src/games/spaceships/rules/state.js'
import { NO_PAINT } from '../../src/games/spaceships/ui/board.js'
import { Notices, type Prompter, humanStrategy, turnReport } from '../../src/games/spaceships/ui/terminal.js'
import type { TurnSummary } from '../../src/games/spaceships/knowledge/summary.js'
import type { Aspects, Results } from '../../src/games/spaceships/protocol/messages.js'

/** A prompter that does nothing this turn (`-`) and confirms it. */
const nothing: Prompter = {
  input: () => Promise.resolve('-'),
  select: () => Promise.reject(new Error('no menu expected')),
  confirm: () => Promise.resolve(true),
}

/** A prompter whose record prompt waits for `answer`, and is withdrawn as a terminal's is when its signal aborts. */
function waitingPrompter(): { prompter: Prompter; answer: (v: string) => void } {
  let pending: (v: string) => void = () => undefined
  const prompter: Prompter = {
    ...nothing,
    input: (q) =>
      new Promise((resolve, reject) => {
        pending = resolve
        q.signal?.addEventListener('abort', () => {
          reject(new Error('withdrawn'))
        })
      }),
  }
  return {
    prompter,
    answer: (v) => {
      pending(v)
    },
  }
}

describe('the human player at the terminal', () => {
  it('the setup menu\'s "Load a setup file": an unreadable path is refused with the reason, and an empty line goes back to the menu', async () => {
    const menu: string[] = ['file', 'use']
    const refusals: (string | true | undefined)[] = []
    const human = humanStrategy({
      prompter: {
        ...nothing,
        select: <T>() => Promise.resolve(menu.shift() as T),
        input: (q) => {
          refusals.push(q.validate?.('/no/such/setup'), q.validate?.(''))
          return Promise.resolve('')
        },
      },
      screen: { print: () => undefined, paint: NO_PAINT },
      setup: { kind: 'ask' },
      rng: seededRandom('file'),
    })
    const setup = await human.setup(DEFAULT_RULESET)
    expect(setup.length).toBeGreaterThan(0)
    expect(menu).toEqual([])
    expect(refusals).toEqual(['cannot read /no/such/setup: no such file (an empty line goes back to the menu)', true])
  })

  it('chats while waiting for the opponent (no prompt open): say TEXT is sent as at the record prompt, any other line is left to be dropped (SPEC §2.4)', async () => {
    let between: ((line: string) => boolean | Promise<boolean>) | undefined
    const lines: string[] = []
    const sent: string[] = []
    const make = (say: boolean) =>
      humanStrategy({
        prompter: {
          ...nothing,
          between: (h) => {
            between = h
          },
        },
        screen: { print: (t) => lines.push(t), paint: NO_PAINT },
        setup: { kind: 'random' },
        rng: seededRandom('h'),
        ...(say ? { say: () => (t: string) => (sent.push(t), Promise.resolve()) } : {}),
      })
    make(true)
    if (between === undefined) throw new Error('the human player takes lines typed between prompts')
    expect(await between('  say good luck ')).toBe(true)
    expect(sent).toEqual(['good luck'])
    expect(lines.at(-1)).toBe('You said: good luck')
    expect(await between('Bv1')).toBe(false)
    expect(await between('sayonara')).toBe(false)
    expect(await between('say')).toBe(true)
    expect(lines.at(-1)).toBe('(not sent: say what? e.g. say good luck)')
    expect(await between(`say ${'x'.repeat(300)}`)).toBe(true)
    expect(lines.at(-1)).toMatch(/^\(not sent: a chat line is at most \d+ bytes; this one is 300\)$/)
    expect(sent).toEqual(['good luck'])
    // Against a bot, or with no connection to the opponent (a check-in), nothing can go.
    make(false)
    expect(await between('say hi')).toBe(true)
    expect(lines.at(-1)).toBe('Chat is for games against a person, while your node is connected to theirs.')
  })

  it('a beam that burnt out is announced once, in words, with its rule (2.6.1 §8.2.4, C-21)', async () => {
    const lines: string[] = []
    const human = humanStrategy({
      prompter: nothing,
      screen: { print: (t) => lines.push(t), paint: NO_PAINT },
      setup: { kind: 'random' },
      rng: seededRandom('h'),
    })
    const setup = randomSetup(DEFAULT_RULESET, seededRandom('burn'))
    const fresh = initialPlayerState(setup)
    const ds = fresh.ships.findIndex((s) => s.type === 'DS')
    const burnt = { ...fresh, burntOut: fresh.burntOut.map((_, i) => i === ds) }
    expect(await human.record({ role: 'A', ruleset: DEFAULT_RULESET, turn: 1, state: fresh, history: [] })).toBe('-')
    expect(lines.join('\n')).not.toContain('burnt out')
    await human.record({ role: 'A', ruleset: DEFAULT_RULESET, turn: 2, state: burnt, history: [] })
    await human.record({ role: 'A', ruleset: DEFAULT_RULESET, turn: 3, state: burnt, history: [] })
    const said = lines
      .join('\n')
      .match(/Your death star DS's beam burnt out \(both end cells of its firing were hits, §8\.2\.4 C-21\)/g)
    expect(said).toHaveLength(1)
    expect(lines.join(' ').replace(/\s+/g, ' ')).toContain('it cannot fire again, and it keeps its conventional strike')
    // Destroyed in the turn its beam burnt out: nothing is kept (2.6.1 §3.8), and the words say so.
    const sunkLines: string[] = []
    const again = humanStrategy({
      prompter: nothing,
      screen: { print: (t) => sunkLines.push(t), paint: NO_PAINT },
      setup: { kind: 'random' },
      rng: seededRandom('h'),
    })
    const destroyed = Uint8Array.from(burnt.destroyed)
    for (const c of fresh.ships[ds]?.cells ?? []) destroyed[c] = 1
    await again.record({ role: 'A', ruleset: DEFAULT_RULESET, turn: 2, state: { ...burnt, destroyed }, history: [] })
    expect(sunkLines.join(' ').replace(/\s+/g, ' ')).toMatch(
      /beam burnt out \(both end cells of its firing were hits, §8\.2\.4 C-21\), and the ship is destroyed\./,
    )
    expect(sunkLines.join(' ').replace(/\s+/g, ' ')).not.toContain('keeps its conventional strike')
  })

  it('a chat line that arrives while the setup menu is open is written once the menu closes, not under it where its redraw would erase it (SPEC §2.4)', async () => {
    const lines: string[] = []
    const notices = new Notices()
    let choose: (v: 'use') => void = () => undefined
    const prompter: Prompter = {
      ...nothing,
      select: () =>
        new Promise((resolve) => {
          choose = resolve as (v: 'use') => void
        }),
    }
    const human = humanStrategy({
      prompter,
      screen: { print: (t) => lines.push(t), paint: NO_PAINT },
      setup: { kind: 'ask' },
      rng: seededRandom('menu'),
      notices,
    })
    const setup = human.setup(DEFAULT_RULESET, new AbortController().signal, undefined)
    await Promise.resolve()
    notices.say(() => lines.push('bob says: hi, good luck'))
    expect(lines).not.toContain('bob says: hi, good luck')
    choose('use')
    await setup
    expect(lines.at(-1)).toBe('bob says: hi, good luck')
    // With the menu closed, lines are written at once again.
    notices.say(() => lines.push('bob says: ready?'))
    expect(lines.at(-1)).toBe('bob says: ready?')
  })

  it('an 80-column terminal: the grids come in two bands and every line of a turn, help included, fits', async () => {
    const lines: string[] = []
    const asked: string[] = ['?', '-']
    const prompter: Prompter = { ...nothing, input: () => Promise.resolve(asked.shift() ?? '-') }
    const human = humanStrategy({
      prompter,
      screen: { print: (t) => lines.push(t), paint: NO_PAINT, columns: 80 },
      setup: { kind: 'random' },
      rng: seededRandom('narrow'),
    })
    const state = initialPlayerState(randomSetup(DEFAULT_RULESET, seededRandom('narrow')))
    await human.record({
      role: 'B',
      ruleset: DEFAULT_RULESET,
      turn: 1,
      state,
      history: [],
      deadline: Date.now() + 600_000,
    })
    const out = lines.join('\n')
    expect(out).toContain('How to play')
    for (const line of out.split('\n')) expect(Array.from(line).length, line).toBeLessThanOrEqual(80)
    // Both bands of the own space: R O Y, then G B, each with its five rows.
    expect(out).toMatch(/^ {2}R {2}1 {2}2 {2}3 {2}4 {2}5 {2}O .* Y .*$/m)
    expect(out).toMatch(/^ {2}G {2}1 {2}2 {2}3 {2}4 {2}5 {2}B {2}1 {2}2 {2}3 {2}4 {2}5$/m)
  })
})

describe('the clock at the record prompt (SPEC §6.6, §12.7)', () => {
  it('the setup clock is shown: the time left before the setup deadline, and the time of day it falls at on the menu, which is drawn only on a key', async () => {
    const lines: string[] = []
    const messages: string[] = []
    const prompter: Prompter = {
      ...nothing,
      select: <T>(q: { message: string; choices: readonly { value: T }[] }) => (
        messages.push(q.message),
        Promise.resolve(q.choices[0]?.value as T)
      ),
    }
    const human = humanStrategy({
      prompter,
      screen: { print: (t) => lines.push(t), paint: NO_PAINT },
      setup: { kind: 'ask' },
      rng: seededRandom('setup-clock'),
    })
    const deadline = Date.now() + 125_000
    await human.setup(DEFAULT_RULESET, undefined, deadline)
    expect(lines.join('\n').replace(/\n\s+/g, ' ')).toMatch(
      /Choose your setup: 2:0\d left before the game's setup deadline\. Past it your opponent may stop the game before it begins/,
    )
    expect(messages).toEqual([`Your setup (choose by ${new Date(deadline).toTimeString().slice(0, 8)})`])
  })

  it('a move already overdue (a resumed game) is said once as overdue, with what that means, never "0:00 left" and a loss', async () => {
    const lines: string[] = []
    const human = humanStrategy({
      prompter: nothing,
      screen: { print: (t) => lines.push(t), paint: NO_PAINT },
      setup: { kind: 'random' },
      rng: seededRandom('late'),
    })
    const state = initialPlayerState(randomSetup(DEFAULT_RULESET, seededRandom('late')))
    await human.record({
      role: 'B',
      ruleset: DEFAULT_RULESET,
      turn: 4,
      state,
      history: [],
      deadline: Date.now() - 95_000,
    })
    const out = lines.join('\n').replace(/\n\s+/g, ' ')
    expect(out).toMatch(
      /Your move for turn 4 was due 1:3\d ago: your opponent may stop the game at any moment \(it is then adjudicated on the turns both committed\), and may have already/,
    )
    expect(out).not.toMatch(/Hurry|forfeit/)
    // A witnessed game: the opponent claims the win on time through the notary (PROTOCOL-4.md §4.4), never adjudication.
    const witnessedLines: string[] = []
    const w = humanStrategy({
      prompter: nothing,
      screen: { print: (t) => witnessedLines.push(t), paint: NO_PAINT },
      setup: { kind: 'random' },
      rng: seededRandom('late'),
      witnessed: true,
    })
    await w.record({ role: 'B', ruleset: DEFAULT_RULESET, turn: 4, state, history: [], deadline: Date.now() - 95_000 })
    const wout = witnessedLines.join('\n').replace(/\n\s+/g, ' ')
    expect(wout).toMatch(
      /Your move for turn 4 was due 1:3\d ago: your opponent may claim the win on time through the notary at any moment \(you then lose on time\)/,
    )
    expect(wout).not.toMatch(/adjudicated/)
  })
})

describe('the clock at the record prompt while the opponent moves first (SPEC §6.6)', () => {
  it('warns nothing while this side is not due (its clock is not running), says so on the panel, and warns once its clock runs out', async () => {
    const lines: string[] = []
    const clock: { due?: number } = {}
    const { prompter, answer } = waitingPrompter()
    const human = humanStrategy({
      prompter,
      screen: { print: (t) => lines.push(t), paint: NO_PAINT },
      setup: { kind: 'random' },
      rng: seededRandom('first'),
    })
    const state = initialPlayerState(randomSetup(DEFAULT_RULESET, seededRandom('first')))
    // The last envelope came long ago, but the opponent moves first: no deadline runs for this side yet.
    const record = human.record({
      role: 'B',
      ruleset: DEFAULT_RULESET,
      turn: 2,
      state,
      history: [],
      deadline: Date.now() - 60_000,
      deadlineNow: () => clock.due,
      moveMs: 600_000,
    })
    await new Promise((r) => setTimeout(r, 1_100))
    expect(lines.join('\n')).not.toMatch(/Hurry|was due/)
    // The panel shows no time it would have to take back once the clock starts (a turn-1 panel
    // said 9:40 left while the prompt, once B's setup came, said 10:00).
    const panel = lines.join('\n').replace(/\n\s+/g, ' ')
    expect(panel).toContain(
      "Turn 2. You are B (the joiner); 10:00 for this move, from when your opponent's move arrives.",
    )
    expect(panel).not.toMatch(/left for this move/)
    // The opponent's move arrived 95 s ago (say): this side's move is now overdue, and is said to be once.
    clock.due = Date.now() - 95_000
    await expect
      .poll(() => lines.join('\n').replace(/\n\s+/g, ' '), { timeout: 3_000 })
      .toMatch(/Your move for turn 2 was due 1:3\d ago/)
    answer('-')
    expect(await record).toBe('-')
  })
})

describe('the deadline passing at the record prompt (SPEC §6.6, §12.7)', () => {
  it('is said once, after the warning: the move is overdue and the opponent may stop the game, never a loss', async () => {
    const lines: string[] = []
    const { prompter, answer } = waitingPrompter()
    const human = humanStrategy({
      prompter,
      screen: { print: (t) => lines.push(t), paint: NO_PAINT },
      setup: { kind: 'random' },
      rng: seededRandom('overdue'),
    })
    const state = initialPlayerState(randomSetup(DEFAULT_RULESET, seededRandom('overdue')))
    const deadline = Date.now() + 1_500
    const record = human.record({
      role: 'A',
      ruleset: DEFAULT_RULESET,
      turn: 3,
      state,
      history: [],
      deadline,
      deadlineNow: () => deadline,
    })
    const text = (): string => lines.join('\n').replace(/\n\s+/g, ' ')
    await expect.poll(text, { timeout: 3_000 }).toMatch(/Hurry: 0:0\d left to send turn 3/)
    await expect
      .poll(text, { timeout: 3_000 })
      .toMatch(/Your move for turn 3 was due 0:0\d ago: your opponent may stop the game at any moment/)
    answer('-')
    expect(await record).toBe('-')
    expect(text().match(/was due/g)).toHaveLength(1)
    expect(text()).not.toMatch(/forfeit|you lose/i)
  })
})

describe('lines that arrive while the player types', () => {
  it('are never glued onto the prompt: the prompt is withdrawn, the line written on its own, and the prompt asked again with the text typed so far', async () => {
    const lines: string[] = []
    const notices = new Notices()
    const asks: { default: string | undefined }[] = []
    let reply: (v: string) => void = () => undefined
    const prompter: Prompter = {
      ...nothing,
      input: (q) => {
        asks.push({ default: q.default })
        if (asks.length === 1) {
          q.transformer?.('Rv')
          return new Promise((_resolve, reject) =>
            q.signal?.addEventListener('abort', () => {
              reject(new Error('withdrawn'))
            }),
          )
        }
        return new Promise((resolve) => (reply = resolve))
      },
    }
    const human = humanStrategy({
      prompter,
      screen: { print: (t) => lines.push(t), paint: NO_PAINT },
      setup: { kind: 'random' },
      rng: seededRandom('notice'),
      notices,
    })
    const state = initialPlayerState(randomSetup(DEFAULT_RULESET, seededRandom('notice')))
    const record = human.record({ role: 'A', ruleset: DEFAULT_RULESET, turn: 1, state, history: [] })
    await expect.poll(() => asks.length).toBe(1)
    notices.say(() => lines.push('…kSzYFiDD says: good luck'))
    await expect.poll(() => asks.length).toBe(2)
    expect(lines.at(-1)).toBe('…kSzYFiDD says: good luck')
    expect(asks[1]?.default).toBe('Rv')
    reply('-')
    expect(await record).toBe('-')
    // With no prompt open, a line is written at once.
    notices.say(() => lines.push('connection lost'))
    expect(lines.at(-1)).toBe('connection lost')
  })
})

describe('the turn report: what both sides did, in words', () => {
  const aspects = (o: Partial<Aspects>): Aspects => ({
    t: 'aspects',
    turn: 6,
    idle: false,
    beams: [],
    strikes: [],
    scans: [],
    kamikaze: [],
    ...o,
  })
  const results = (o: Partial<Results>): Results => ({
    t: 'results',
    turn: 6,
    fleetDestroyed: false,
    beams: [],
    strikes: [],
    scans: [],
    destroyed: [],
    ...o,
  })
  const salt = new Uint8Array(16)

  it("a kamikaze on either side is shown: its target as a strike and its launch cell's death (2.6.1 §4.5.4, §5.4)", () => {
    const t: TurnSummary = {
      turn: 6,
      myAspects: aspects({ strikes: ['Rz1', 'Bx2'], kamikaze: ['Gz5'] }),
      theirResults: results({
        strikes: [
          { result: 'duplicate-hit', salt, explosions: [] },
          { result: 'miss', salt, explosions: [] },
        ],
      }),
      // The opponent's record kRz1 Yx4: a strike on Yx4 and the death of its own Rz1.
      theirAspects: aspects({ strikes: ['Yx4'], kamikaze: ['Rz1'] }),
      myReports: [{ type: 'MD', id: 1, cells: [{ cell: 'Gz5', salt }] }],
      theirFlashcube: { t: 'flashcube', turn: 6, reports: [] },
    }
    const lines = turnReport(t)
    expect(lines[0]).toBe(
      'Turn 6, yours: Rz1 duplicate-hit, Bx2 miss; kamikaze launched from your Gz5 (that cell is destroyed)',
    )
    expect(lines[1]).toBe('Turn 6, theirs: strikes at Yx4; kamikaze launched from their Rz1 (destroyed in their space)')
    // Lost to one's own kamikaze, never "They destroyed your MD".
    expect(lines[2]).toBe('  Your MD1 is destroyed (one of its cells launched your kamikaze strike)')
  })

  it("their strikes that hit a ship of mine are named, from my own answers (a beam's cells first, then the strikes, as the results list them)", () => {
    const hit = { result: 'hit', salt, explosions: [] } as const
    const miss = { result: 'miss', salt, explosions: [] } as const
    const t: TurnSummary = {
      turn: 6,
      myAspects: aspects({}),
      theirResults: results({}),
      theirAspects: aspects({ beams: [['Rv1', 'Rv2', 'Rv3']], strikes: ['Yx4', 'Bz5'] }),
      myReports: [],
      myResults: results({ beams: [[miss, hit, miss]], strikes: [miss, hit] }),
      theirFlashcube: { t: 'flashcube', turn: 6, reports: [] },
    }
    expect(turnReport(t)[1]).toBe('Turn 6, theirs: strikes at Rv1 Rv2 Rv3 Yx4 Bz5 (hits: Rv2 Bz5)')
    const missed = { ...t, myResults: results({ beams: [[miss, miss, miss]], strikes: [miss, miss] }) }
    expect(turnReport(missed)[1]).toBe('Turn 6, theirs: strikes at Rv1 Rv2 Rv3 Yx4 Bz5 (all missed)')
    // Without my answers (a summary built from the wire alone), only the cells.
    expect(turnReport({ ...t, myResults: undefined })[1]).toBe('Turn 6, theirs: strikes at Rv1 Rv2 Rv3 Yx4 Bz5')
  })

  it('history and turn N at the record prompt show past turns as they were reported, then ask again', async () => {
    const turn = (n: number): TurnSummary => ({
      turn: n,
      myAspects: aspects({ turn: n, strikes: ['Bx2'] }),
      theirResults: results({ turn: n, strikes: [{ result: 'miss', salt, explosions: [] }] }),
      theirAspects: aspects({ turn: n, scans: ['Yw4'] }),
      myReports: [],
      theirFlashcube: { t: 'flashcube', turn: n, reports: [] },
    })
    const lines: string[] = []
    const asked = ['history', 'turn 1', 'turn 9', '-']
    const prompter: Prompter = { ...nothing, input: () => Promise.resolve(asked.shift() ?? '-') }
    const human = humanStrategy({
      prompter,
      screen: { print: (t) => lines.push(t), paint: NO_PAINT },
      setup: { kind: 'random' },
      rng: seededRandom('history'),
    })
    const state = initialPlayerState(randomSetup(DEFAULT_RULESET, seededRandom('history')))
    expect(
      await human.record({ role: 'A', ruleset: DEFAULT_RULESET, turn: 3, state, history: [turn(1), turn(2)] }),
    ).toBe('-')
    expect(asked).toEqual([])
    expect(lines).toContain(
      'Turn 1, yours: Bx2 miss\nTurn 1, theirs: no strikes; scans at Yw4\nTurn 2, yours: Bx2 miss\nTurn 2, theirs: no strikes; scans at Yw4',
    )
    expect(lines).toContain('Turn 1, yours: Bx2 miss\nTurn 1, theirs: no strikes; scans at Yw4')
    expect(lines).toContain('No turn 9 yet: 2 played.')
  })

  describe("the opponent's ships are numbered only among several of a type (NOTATION.md, C-05)", () => {
    /** Turn `turn`: this side hit Bv1..Bw2, and the opponent reported its flying saucer number `id` destroyed. */
    const saucerSunk = (turn: number, id: number): TurnSummary => {
      const cells = ['Bv1', 'Bv2', 'Bw1', 'Bw2']
      return {
        turn,
        myAspects: aspects({ turn, strikes: cells }),
        theirResults: results({
          turn,
          strikes: cells.map(() => ({ result: 'hit' as const, salt, explosions: [] })),
          destroyed: [{ type: 'FS', id, cells: cells.map((cell) => ({ cell, salt })) }],
        }),
        theirAspects: aspects({ turn }),
        myReports: [],
        theirFlashcube: { t: 'flashcube', turn, reports: [] },
      }
    }
    /** What the terminal game prints before its record prompt after `history`, under `rulesetText`. */
    const screenAfter = async (rulesetText: string, history: TurnSummary[]): Promise<string> => {
      const ruleset = parseRuleset(rulesetText)
      if (!ruleset.ok) throw new Error(rulesetText)
      const lines: string[] = []
      const human = humanStrategy({
        prompter: nothing,
        screen: { print: (t) => lines.push(t), paint: NO_PAINT },
        setup: { kind: 'random' },
        rng: seededRandom('names'),
      })
      const state = initialPlayerState(randomSetup(ruleset.value, seededRandom('names')))
      await human.record({ role: 'A', ruleset: ruleset.value, turn: history.length + 1, state, history })
      return lines.join('\n')
    }

    it('the only flying saucer a standard fleet can hold is FS, in the report and the panel', async () => {
      const shown = await screenAfter('2.6.1 fleet=standard', [saucerSunk(1, 1)])
      expect(shown).toContain('  You destroyed their FS at Bv1 Bv2 Bw1 Bw2')
      expect(shown).toContain('sunk FS.')
      expect(shown).not.toMatch(/\bFS1\b/)
      // A cost fleet capped at one saucer: the only one is FS too.
      expect(await screenAfter('2.6.1 fleet=cost:24 max=FS:1', [saucerSunk(1, 1)])).toContain(
        'You destroyed their FS at',
      )
    })

    it('where the fleet may hold several they are numbered: FS2 once reported, FS1 while the count is open', async () => {
      const two = await screenAfter('2.6.1 fleet=cost:8 allow=FS', [saucerSunk(1, 2), saucerSunk(2, 1)])
      expect(two).toContain('You destroyed their FS1 at')
      expect(two).toContain('sunk FS2 FS1.')
    })
  })
})

describe('a draw at the record prompt (version 4, SPEC §7.11, §7.12)', () => {
  const state = initialPlayerState(randomSetup(DEFAULT_RULESET, seededRandom('draw-ui')))
  const scripted = (answers: string[], lines: string[]) =>
    humanStrategy({
      prompter: { ...nothing, input: () => Promise.resolve(answers.shift() ?? '-') },
      screen: { print: (t) => lines.push(t), paint: NO_PAINT },
      setup: { kind: 'random' },
      rng: seededRandom('draw-ui'),
    })

  it('draw, then a record: the record goes with an offer; draw twice withdraws it', async () => {
    const lines: string[] = []
    const turn = { role: 'A' as const, ruleset: DEFAULT_RULESET, turn: 2, state, history: [], mayOfferDraw: true }
    expect(await scripted(['draw', '-'], lines).record(turn)).toEqual({ record: '-', offerDraw: true })
    expect(lines.join('\n')).toContain('You offer a draw with this turn')
    expect(lines.join(' ').replace(/\s+/g, ' ')).toContain('draw RECORD (your record, offering a draw)')
    expect(await scripted(['draw', 'draw', '-'], []).record(turn)).toBe('-')
  })

  it('draw RECORD on one line: the record goes with an offer; a version 3 game refuses it', async () => {
    const turn = { role: 'A' as const, ruleset: DEFAULT_RULESET, turn: 2, state, history: [], mayOfferDraw: true }
    expect(await scripted(['DRAW  -'], []).record(turn)).toEqual({ record: '-', offerDraw: true })
    const v3 = { ...turn, mayOfferDraw: false }
    let refused: string | true | undefined
    await humanStrategy({
      prompter: {
        ...nothing,
        input: (q) => {
          refused = q.validate?.('draw -')
          return Promise.resolve('-')
        },
      },
      screen: { print: () => undefined, paint: NO_PAINT },
      setup: { kind: 'random' },
      rng: seededRandom('draw-ui'),
    }).record(v3)
    expect(refused).toBe('a draw can be offered in a game of protocol version 4 only')
  })

  it('accept takes an offer standing for this decision, and nothing when none stands', async () => {
    const lines: string[] = []
    const turn = { role: 'B' as const, ruleset: DEFAULT_RULESET, turn: 3, state, history: [], mayOfferDraw: true }
    const answer = await scripted(['accept'], lines).record({ ...turn, drawOffered: () => true })
    expect(answer).toEqual({ acceptDraw: true })
    // With no offer standing, accept takes nothing: the next line is the record.
    const none: string[] = []
    expect(await scripted(['accept', '-'], none).record({ ...turn, drawOffered: () => false })).toBe('-')
    expect(none.join('\n')).not.toContain('offers a draw')
  })

  it('a record typed while an offer stands says, before it is signed, that it declines the offer (SPEC §6.3)', async () => {
    const asked: string[] = []
    const strategy = humanStrategy({
      prompter: {
        ...nothing,
        input: () => Promise.resolve('-'),
        confirm: (o) => {
          asked.push(o.message.replace(/\s+/g, ' '))
          return Promise.resolve(true)
        },
      },
      screen: { print: () => undefined, paint: NO_PAINT },
      setup: { kind: 'random' },
      rng: seededRandom('draw-ui'),
    })
    const turn = { role: 'B' as const, ruleset: DEFAULT_RULESET, turn: 3, state, history: [], mayOfferDraw: true }
    expect(await strategy.record({ ...turn, drawOffered: () => true })).toBe('-')
    expect(asked.at(-1)).toContain('(this declines the draw your opponent offered; type accept to take it)?')
    expect(await strategy.record({ ...turn, drawOffered: () => false })).toBe('-')
    expect(asked.at(-1)).not.toContain('declines')
  })

  it('version 3 games have no draw: the prompt does not offer it', async () => {
    const lines: string[] = []
    const turn = { role: 'A' as const, ruleset: DEFAULT_RULESET, turn: 2, state, history: [] }
    expect(await scripted(['draw', '-'], lines).record(turn)).toBe('-')
    expect(lines.join('\n')).not.toContain('draw RECORD')
  })
})
