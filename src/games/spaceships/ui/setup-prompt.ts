/**
 * The setup, asked for at the terminal: a random one, another, one typed ship by ship (each line
 * checked as it is typed), or a setup file, until the player accepts one.
 */
import { readFileSync } from 'node:fs'
import { randomSetup } from '../rules/enumerate.js'
import { describeViolation } from '../rules/errors.js'
import type { RandomSource } from '../rules/rng.js'
import type { Ruleset } from '../rules/ruleset.js'
import { type Setup, formatSetup, parseSetup, parseShipLine, readSetup, validateSetup } from '../rules/setup.js'
import { formatCounts, legalFleets } from '../rules/fleet.js'
import { initialPlayerState } from '../rules/state.js'
import { systemClock } from '../../../core/session/clock.js'
import { clockText, shipGuide } from './panel.js'
import { ownMarks, renderSpace } from './board.js'
import type { Prompter } from './prompter.js'
import type { Screen } from './screen.js'

const SETUP_COMMANDS = new Set(['', 'undo', 'cancel', '?', 'help'])

/**
 * What is wrong with one more typed ship line, given the lines typed so far: its notation, shape,
 * size, a cell listed twice or shared with another ship, a type not in the variant (§3.4, §3.5,
 * §6). The fleet and the identities can only be judged on the whole setup, at the end.
 */
export function shipLineProblem(typed: readonly string[], line: string, ruleset: Ruleset): string | undefined {
  const t = line.trim()
  if (SETUP_COMMANDS.has(t)) return undefined
  const one = parseShipLine(t, 'lenient')
  if (!one.ok) return describeViolation(one.error)
  const all = parseSetup([...typed, t].join('\n'), 'lenient')
  if (!all.ok) return all.error.map(describeViolation).join('; ')
  // Identities are judged at the end; here each ship gets one of its own, so that a missing or
  // repeated identity (two FS typed, neither numbered yet) never hides a line's shape or an
  // overlap: validateSetup skips the other checks of a ship whose identity it cannot settle.
  const nth = new Map<string, number>()
  const numbered = all.value.map((w) => {
    const n = (nth.get(w.type) ?? 0) + 1
    nth.set(w.type, n)
    return { ...w, id: n }
  })
  const v = validateSetup(numbered, ruleset, 0)
  if (v.ok) return undefined
  const now = v.error.filter((x) => x.code !== 'setup.fleet' && x.code !== 'setup.identity')
  return now.length === 0 ? undefined : now.map(describeViolation).join('; ')
}

/** The fleets the ruleset allows, in words. */
export function fleetChoice(ruleset: Ruleset): string {
  const fleets = legalFleets(ruleset, 0)
  if (fleets.length === 1 && fleets[0] !== undefined) return formatCounts(fleets[0])
  if (fleets.length <= 6) return `one of ${fleets.map(formatCounts).join(' | ')}`
  return ruleset.fleet.kind === 'cost'
    ? `ships whose costs add up to exactly ${ruleset.fleet.total} (${fleets.length} fleets)`
    : `${fleets.length} possible fleets`
}

/** What asking for a setup needs of the terminal game. */
export interface SetupPrompt {
  readonly prompter: Prompter
  readonly screen: Screen
  readonly rng: RandomSource
  /** Text wrapped to the terminal's width. */
  readonly fit: (text: string, indent?: string) => string
}

/** The player's setup, asked for until one is accepted; `setupDeadline` is the game's (SPEC §6.6), if it has one. */
export async function askSetup(io: SetupPrompt, ruleset: Ruleset, setupDeadline: number | undefined): Promise<Setup> {
  const { prompter, screen, fit } = io
  const showSetup = (setup: Setup): void => {
    screen.print(
      renderSpace('Your setup', ownMarks(initialPlayerState(setup)), screen.paint, screen.columns).join('\n'),
    )
    screen.print(formatSetup(setup))
  }
  /**
   * The time left before the setup deadline (SPEC §6.6), when there is one: a live clock on the
   * ship prompts; on the menu, which inquirer draws only when a key is pressed, the time of day the
   * deadline falls at, which stays true however long the menu is open.
   */
  const clock =
    setupDeadline === undefined ? undefined : () => `${clockText(Math.max(0, setupDeadline - systemClock.now()))} left`
  const menuDeadline =
    setupDeadline === undefined ? '' : ` (choose by ${new Date(setupDeadline).toTimeString().slice(0, 8)})`
  /** Ship by ship, each line checked as it is typed; what was typed is kept until it is legal. */
  const typeSetup = async (ruleset: Ruleset): Promise<Setup | undefined> => {
    const guide = (): void => {
      screen.print(
        [`Your fleet: ${fleetChoice(ruleset)}.`, 'Ship types:', ...shipGuide(ruleset)]
          .map((l) => fit(l, '      '))
          .join('\n'),
      )
    }
    guide()
    screen.print(
      fit(
        'One ship per line: its type (numbered when there are several: LG1, LG2) and its cells, e.g. FS Rv1 Rv2 Rw1 Rw2. Each line is checked as you type it. Commands: undo (remove the last ship), ? (the ship types), cancel (back to the menu); an empty line when the fleet is complete.',
        '',
      ),
    )
    const lines: string[] = []
    for (;;) {
      const line = (
        await prompter.input({
          message: `Ship ${lines.length + 1}`,
          ...(clock === undefined ? {} : { clock }),
          validate: (l) => shipLineProblem(lines, l, ruleset) ?? true,
        })
      ).trim()
      if (line === 'cancel') return undefined
      if (line === '?' || line === 'help') guide()
      else if (line === 'undo') {
        const gone = lines.pop()
        screen.print(gone === undefined ? 'No ship to remove.' : `Removed: ${gone}`)
      } else if (line !== '') lines.push(line)
      else {
        const r = readSetup(lines.join('\n'), ruleset, 0, 'lenient')
        if (r.ok) return r.value
        screen.print(
          [
            `Not a whole legal setup yet (your ${lines.length} ships are kept: add more, undo, or cancel):`,
            ...r.error.map((v) => fit(`  ${describeViolation(v)}`)),
          ].join('\n'),
        )
      }
    }
  }
  if (setupDeadline !== undefined)
    screen.print(
      fit(
        `Choose your setup: ${clockText(Math.max(0, setupDeadline - systemClock.now()))} left before the game's setup deadline. Past it your opponent may stop the game before it begins (no game, nobody wins).`,
      ),
    )
  for (;;) {
    const candidate = randomSetup(ruleset, io.rng)
    showSetup(candidate)
    const how = await prompter.select({
      message: `Your setup${menuDeadline}`,
      choices: [
        { name: 'Play this setup', value: 'use' as const },
        { name: 'Another random setup', value: 'again' as const },
        { name: 'Type my own, one ship per line', value: 'type' as const },
        { name: 'Load a setup file', value: 'file' as const },
      ],
    })
    if (how === 'use') return candidate
    if (how === 'again') continue
    if (how === 'type') {
      const typed = await typeSetup(ruleset)
      if (typed === undefined) continue
      showSetup(typed)
      if (await prompter.confirm({ message: 'Play this setup?' })) return typed
      continue
    }
    const path = (
      await prompter.input({
        message: 'Setup file (an empty line: back to the menu)',
        ...(clock === undefined ? {} : { clock }),
        validate: (p) => (p.trim() === '' ? true : (unreadable(p.trim()) ?? true)),
      })
    ).trim()
    if (path === '') continue
    const text = readFileSync(path, 'utf8')
    const r = readSetup(text, ruleset, 0, 'lenient')
    if (r.ok) {
      showSetup(r.value)
      if (await prompter.confirm({ message: 'Play this setup?' })) return r.value
    } else screen.print(r.error.map((v) => `  ${describeViolation(v)}`).join('\n'))
  }
}

/** Why a setup file cannot be read, in words, or undefined when it can. */
function unreadable(path: string): string | undefined {
  try {
    readFileSync(path)
    return undefined
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'a directory, not a file'
          : code === 'EACCES' || code === 'EPERM'
            ? 'not permitted to read it'
            : (code ?? 'it cannot be read')
    return `cannot read ${path}: ${why} (an empty line goes back to the menu)`
  }
}
