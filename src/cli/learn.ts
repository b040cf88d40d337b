/**
 * `spaceships learn`: a first game's notation taught on a real board, in five short lessons, the
 * first four with an exercise, checked as typed by the rules engine itself (the same checks as the game's
 * prompts, so what it accepts here a game accepts). Without a terminal it prints the lessons with
 * their answers. Nothing is signed or sent: it plays no game.
 */
import { BEAM_LINES, formatCell, parseCell } from '../games/spaceships/rules/coords.js'
import { randomSetup } from '../games/spaceships/rules/enumerate.js'
import { readRecord } from '../games/spaceships/rules/legality.js'
import { seededRandom } from '../games/spaceships/rules/rng.js'
import { DEFAULT_RULESET } from '../games/spaceships/rules/ruleset.js'
import { formatSetup } from '../games/spaceships/rules/setup.js'
import { initialPlayerState } from '../games/spaceships/rules/state.js'
import { type Mark, OPPONENT_LEGEND, OWN_LEGEND, ownMarks, renderSpace } from '../games/spaceships/ui/board.js'
import { shipGuide, wrap } from '../games/spaceships/ui/panel.js'
import type { Prompter } from '../games/spaceships/ui/prompter.js'
import { type CliIo, EXIT, commandName } from './io.js'

const RULESET = DEFAULT_RULESET
/** The board of the lessons: one fixed legal fleet, so the lessons read the same for everyone. */
const SETUP = randomSetup(RULESET, seededRandom('spaceships/learn'))
const STATE = initialPlayerState(SETUP)
const DS_CELLS = SETUP.find((s) => s.type === 'DS')?.cells ?? []
/** The cell the first exercise marks. */
const MARKED = 'Yx3'

const blank = (): Mark[] => Array.from({ length: 125 }, () => ({ text: ' ·', style: 'dim' }) as const)

interface Exercise {
  readonly question: string
  /** Undefined when the answer is right, else what to tell the learner. */
  readonly check: (answer: string) => string | undefined
  /** A right answer, printed when there is no terminal to ask on. */
  readonly example: string
  readonly praise: string
}

interface Lesson {
  readonly title: string
  /** The lesson's lines for a terminal this many columns wide (boards come in two bands under 92). */
  readonly text: (columns: number) => readonly string[]
  readonly exercise: Exercise | undefined
}

function cellProblem(answer: string): { cell: number } | { problem: string } {
  const r = parseCell(answer.trim())
  return r.ok
    ? { cell: r.value }
    : { problem: 'a cell is a colour (R O Y G B), a letter (v w x y z) and a number (1-5), in that order: Yx3' }
}

/** A record the engine accepts for turn 1 of the lessons' fleet, or why not, in its own words. */
function recordOf(answer: string): ReturnType<typeof readRecord> {
  return readRecord(RULESET, STATE, 1, answer, 'lenient')
}

/** A beam this fleet may fire in turn 1, as the engine decides (the answer shown without a terminal). */
const BEAM = ((): string => {
  for (const [a, , c] of BEAM_LINES) {
    const text = `b${formatCell(a)}${formatCell(c)}`
    if (recordOf(text).ok) return text
  }
  return 'bRv1Rv3'
})()

const LESSONS: readonly Lesson[] = [
  {
    title: '1. Cells',
    text: (columns) => [
      'Each player hides a fleet in a space of 5x5x5 cells. The space is drawn as five grids, one per',
      'colour R O Y G B; in each grid the rows are the letters v to z and the columns the numbers 1 to 5.',
      'A cell is written colour, letter, number: Yx3 is in grid Y, row x, column 3.',
      '',
      ...renderSpace(
        'The cell marked ??',
        blank().map((m, i) => (formatCell(i) === MARKED ? { text: '??', style: 'hit' } : m)),
        undefined,
        columns,
      ),
    ],
    exercise: {
      question: 'Which cell is marked ?? (type it, as in Rv1)',
      check: (a) => {
        const c = cellProblem(a)
        if ('problem' in c) return c.problem
        return formatCell(c.cell) === MARKED
          ? undefined
          : `that is ${formatCell(c.cell)}: find grid ${MARKED[0] ?? ''} first (the third), then row ${MARKED[1] ?? ''}, then column ${MARKED[2] ?? ''}`
      },
      example: MARKED,
      praise: 'Right: colour, letter, number.',
    },
  },
  {
    title: '2. Your fleet',
    text: (columns) => [
      'Before the first turn each player places its ships. The ship types of rules 2.6.1 (a standard',
      'fleet is a DS, a KC, an FS or a PC, an MD, and an LS or an HS):',
      // A shape's line is wrapped under its name (the gapped patrol cruiser's is long).
      ...shipGuide(RULESET).flatMap((l) => wrap(l, Math.min(columns, 100), '      ').split('\n')),
      'Here is one legal fleet, as the game draws your own space, and the same fleet in notation (one',
      'line per ship: its name, then its cells):',
      '',
      ...renderSpace('A fleet', ownMarks(STATE), undefined, columns),
      `  ${OWN_LEGEND}`,
      '',
      ...formatSetup(SETUP)
        .split('\n')
        .map((l) => `  ${l}`),
    ],
    exercise: {
      question: 'Name one cell of the death star (DS)',
      check: (a) => {
        const c = cellProblem(a)
        if ('problem' in c) return c.problem
        return DS_CELLS.includes(c.cell)
          ? undefined
          : `${formatCell(c.cell)} is not a DS cell: look for DS on the board, or read the DS line above`
      },
      example: formatCell(DS_CELLS[0] ?? 0),
      praise: 'Right: the death star is the largest ship, eight cells, here over two grids.',
    },
  },
  {
    title: '3. A turn: strikes and scans',
    text: () => [
      "Each turn both players record their actions at once, without seeing the other's. Actions are",
      'separated by spaces. A cell alone is a conventional strike; s before a cell is a scan:',
      '  Gy2        a strike on Gy2: it destroys the ship cell there, if any ("hit" or "miss")',
      '  sBx3       a scan of Bx3 (your scouts): it tells whether a ship is there, destroying nothing',
      '  -          nothing this turn',
      'Your fleet decides how many of each you may make: the game shows it before every turn.',
    ],
    exercise: {
      question: 'Record a strike on Gy2 and a scan of Bx3',
      check: (a) => {
        const r = recordOf(a)
        if (!r.ok) return r.error.map((v) => v.message).join('; ')
        const strikes = r.value.strikes.map(formatCell)
        const scans = r.value.scans.map(formatCell)
        if (strikes.join(' ') !== 'Gy2') return `that strikes ${strikes.join(' ') || 'nothing'}: one strike, on Gy2`
        if (scans.join(' ') !== 'Bx3') return `that scans ${scans.join(' ') || 'nothing'}: one scan, of Bx3 (sBx3)`
        return r.value.beams.length > 0 ? 'no beam this time: just the strike and the scan' : undefined
      },
      example: 'Gy2 sBx3',
      praise: 'Right. The order of strikes matters when they interact; scans come after them.',
    },
  },
  {
    title: "4. The death star's beam",
    text: () => [
      'A death star may fire a beam through three cells in a straight line, written b and the two end',
      'cells: bRv1Rv3 hits Rv1, Rv2 and Rv3. The line must run in the direction of two undamaged cells',
      'of the death star: along the colours, the letters or the numbers, or diagonally across two or',
      'three of them (13 directions). Two hits of one beam that are not next to each other burn it out.',
      `This fleet's death star stands on ${DS_CELLS.map(formatCell).join(' ')}.`,
    ],
    exercise: {
      question: 'Fire a beam (bCELLCELL, the two end cells of three cells in a line)',
      check: (a) => {
        const r = recordOf(a)
        if (!r.ok) return r.error.map((v) => v.message).join('; ')
        return r.value.beams.length === 1 && r.value.strikes.length === 0 && r.value.scans.length === 0
          ? undefined
          : 'one beam only, as in bRv1Rv3'
      },
      example: BEAM,
      praise: 'Right: the engine checked its line and its direction against your death star.',
    },
  },
  {
    title: '5. What you learn',
    text: () => [
      "You never see the other fleet. The opponent's space shows only what your actions and its",
      'answers taught you, and every answer is checked against its commitments at once (hits and',
      'misses) or at the end, when both reveal everything:',
      `  ${OPPONENT_LEGEND.split('\n').join('\n  ')}`,
      'More: missiles (mRv2 Ox3) and kamikaze strikes (kGz5 Bx1); ? at the move prompt lists them all.',
    ],
    exercise: undefined,
  },
]

export async function learnCommand(io: CliIo): Promise<number> {
  const columns = io.columns ?? 100
  const cmd = commandName(io.env ?? process.env)
  const prompter: Prompter | undefined = io.prompter?.()
  io.stdout(
    `A first game's notation in five lessons${prompter === undefined ? ' (no terminal to ask on: the answers are shown)' : ', four with an exercise checked as you type'}.\n`,
  )
  for (const lesson of LESSONS) {
    io.stdout(`\n${lesson.title}\n${lesson.text(columns).join('\n')}\n`)
    const ex = lesson.exercise
    if (ex === undefined) continue
    if (prompter === undefined) {
      io.stdout(`\n${ex.question}: ${ex.example}\n`)
      continue
    }
    await prompter.input({ message: `${ex.question}:`, validate: (v) => ex.check(v) ?? true })
    io.stdout(`${ex.praise}\n`)
  }
  io.stdout(
    `\nThat is all a first game needs. Play one against the bot: ${cmd} play\n(at the move prompt, ? lists every action and command).\n`,
  )
  return EXIT.ok
}
