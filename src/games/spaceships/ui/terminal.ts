/**
 * The terminal game: a human player as a session strategy. Before each turn it draws both spaces
 * and lists what the player may do; the record is typed in the conventional notation and checked
 * by the rules engine as it is typed (the same check the opponent's verifier will make), so an
 * illegal record is never committed. Prompts come from @inquirer/prompts, colours from picocolors
 * (which honours NO_COLOR and FORCE_COLOR).
 */
import { confirm, input, select } from '@inquirer/prompts'
import pc from 'picocolors'
import { readFileSync } from 'node:fs'
import { Writable } from 'node:stream'
import { entitlementLine, entitlementView } from '../rules/entitlement-view.js'
import { randomSetup } from '../rules/enumerate.js'
import { describeViolation } from '../rules/errors.js'
import { readRecord } from '../rules/legality.js'
import type { RandomSource } from '../rules/rng.js'
import type { Ruleset } from '../rules/ruleset.js'
import { type Setup, formatSetup, parseSetup, parseShipLine, readSetup, validateSetup } from '../rules/setup.js'
import { formatCounts, legalFleets } from '../rules/fleet.js'
import { type PlayerState, entitlements, initialPlayerState } from '../rules/state.js'
import { systemClock } from '../../../core/session/clock.js'
import { type PlayerStrategy, RESIGN, type TurnContext } from '../session/strategy.js'
import type { TurnSummary } from '../knowledge/summary.js'
import { opponentKnowledge } from '../knowledge/knowledge.js'
import { LIMITS } from '../protocol/messages.js'
import { SHIP_TYPES } from '../rules/ships.js'
import {
  SCREEN_COLUMNS,
  beamWords,
  chatLine,
  clockText,
  describeRecord,
  helpText,
  shipGuide,
  statusPanel,
  wrap,
} from './panel.js'
import {
  NO_PAINT,
  OPPONENT_LEGEND,
  OWN_LEGEND,
  type Paint,
  type Style,
  knowledgeMark,
  ownMarks,
  renderSpace,
} from './board.js'

/** The prompts the game needs; the real one is inquirer, tests may script it. */
export interface Prompter {
  /** With `signal`, the prompt is withdrawn when it aborts (the promise rejects); `default` is editable text. */
  input(o: {
    message: string
    validate?: (v: string) => true | string
    transformer?: (v: string) => string
    default?: string
    signal?: AbortSignal
  }): Promise<string>
  select<T>(o: { message: string; choices: readonly { name: string; value: T; description?: string }[] }): Promise<T>
  confirm(o: { message: string; default?: boolean }): Promise<boolean>
}

export interface PromptStreams {
  readonly input: NodeJS.ReadableStream
  readonly output: NodeJS.WritableStream
}

/** Inquirer prompts on the given streams (default: the process's terminal). */
export function inquirerPrompter(streams?: PromptStreams): Prompter {
  // Inquirer ends the output stream it is given when a prompt is done; a stream that outlives one
  // prompt (a test's screen, a pipe) gets a fresh forwarding stream per prompt.
  const forward = (out: NodeJS.WritableStream): Writable =>
    new Writable({
      write: (chunk: Buffer, _enc, done) =>
        void out.write(chunk, () => {
          done()
        }),
    })
  const ctx = (
    signal?: AbortSignal,
  ):
    | { input?: NodeJS.ReadableStream; output?: Writable; clearPromptOnDone?: boolean; signal?: AbortSignal }
    | undefined => {
    const s = signal === undefined ? {} : { signal }
    return streams === undefined
      ? signal === undefined
        ? undefined
        : s
      : { input: streams.input, output: forward(streams.output), clearPromptOnDone: false, ...s }
  }
  return {
    input: (o) =>
      input(
        {
          message: o.message,
          ...(o.default === undefined || o.default === '' ? {} : { default: o.default, prefill: 'editable' as const }),
          ...(o.validate === undefined ? {} : { validate: o.validate }),
          ...(o.transformer === undefined
            ? {}
            : {
                transformer: (v: string, { isFinal }: { isFinal: boolean }) =>
                  isFinal ? v : (o.transformer?.(v) ?? v),
              }),
        },
        ctx(o.signal),
      ),
    select: <T>(o: { message: string; choices: readonly { name: string; value: T; description?: string }[] }) =>
      select<T>({ message: o.message, choices: o.choices.map((c) => ({ ...c })) }, ctx()),
    confirm: (o) => confirm({ message: o.message, default: o.default ?? true }, ctx()),
  }
}

/** Where the game is drawn. `paint` is identity when colours are off. */
export interface Screen {
  print(text: string): void
  readonly paint: Paint
  /** The terminal's width, if known: under 92 columns the grids come in two bands. */
  readonly columns?: number
}

/** NO_COLOR (any value) turns colours off; FORCE_COLOR turns them on; otherwise a TTY decides. */
export function colourEnabled(env: NodeJS.ProcessEnv, isTty: boolean): boolean {
  if (env['NO_COLOR'] !== undefined && env['NO_COLOR'] !== '') return false
  if (env['FORCE_COLOR'] !== undefined && env['FORCE_COLOR'] !== '0') return true
  return isTty
}

export function painter(enabled: boolean): Paint {
  if (!enabled) return NO_PAINT
  const c = pc.createColors(true)
  const styles: Record<Style, (s: string) => string> = {
    plain: (s) => s,
    dim: c.dim,
    ship: c.cyan,
    damage: c.red,
    hit: (s) => c.bold(c.red(s)),
    miss: c.blue,
    scan: c.yellow,
    known: c.magenta,
  }
  return (text, style) => styles[style](text)
}

/** Both spaces as this player sees them after `history`. */
export function renderBoards(
  ctx: { state: TurnContext['state']; history: readonly TurnSummary[] },
  paint: Paint,
  columns?: number,
): string {
  const own = renderSpace('Your space', ownMarks(ctx.state), paint, columns)
  const theirs = renderSpace(
    "Opponent's space (what you know)",
    opponentKnowledge(ctx.history).map(knowledgeMark),
    paint,
    columns,
  )
  const legend = (text: string): string[] => text.split('\n').map((l) => paint(`  ${l}`, 'dim'))
  return [...own, ...legend(OWN_LEGEND), '', ...theirs, ...legend(OPPONENT_LEGEND)].join('\n')
}

/** One line per answer the opponent gave last turn, in the order they resolved; `own` names own ships as the setup does (C-05: a lone ship has no number). */
export function turnReport(t: TurnSummary, own?: PlayerState): string[] {
  const out: string[] = []
  const strike = (target: string, a: { result: string; explosions: readonly string[] } | undefined): string =>
    a === undefined
      ? `${target} ?`
      : `${target} ${a.result}${a.explosions.length > 1 ? ` (missiles exploded: ${a.explosions.slice(1).join(' ')})` : ''}`
  const mine = [
    ...t.myAspects.beams.flatMap((b, i) => b.map((c, j) => strike(c, t.theirResults.beams[i]?.[j]))),
    ...t.myAspects.strikes.map((c, i) => strike(c, t.theirResults.strikes[i])),
    ...t.myAspects.scans.map((c, i) => `scan ${c} ${t.theirResults.scans[i]?.result ?? '?'}`),
  ]
  // A kamikaze strike's visible aspects are a strike on its target and the death of its launch
  // cell in the striker's own space (2.6.1 §4.5.4, §5.4): both sides are told of both.
  const myDeaths =
    t.myAspects.kamikaze.length === 0
      ? ''
      : `; kamikaze launched from your ${t.myAspects.kamikaze.join(' ')} (that cell is destroyed)`
  out.push(`Turn ${t.turn}, yours: ${mine.length === 0 ? 'no strikes or scans' : mine.join(', ')}${myDeaths}`)
  for (const d of t.theirResults.destroyed)
    out.push(`  You destroyed their ${d.type}${d.id} at ${d.cells.map((c) => c.cell).join(' ')}`)
  const theirs = [...t.theirAspects.beams.flat(), ...t.theirAspects.strikes]
  const theirDeaths =
    t.theirAspects.kamikaze.length === 0
      ? ''
      : `; kamikaze launched from their ${t.theirAspects.kamikaze.join(' ')} (destroyed in their space)`
  out.push(
    `Turn ${t.turn}, theirs: ${theirs.length === 0 ? 'no strikes' : `strikes at ${theirs.join(' ')}`}${t.theirAspects.scans.length > 0 ? `; scans at ${t.theirAspects.scans.join(' ')}` : ''}${theirDeaths}`,
  )
  for (const r of t.myReports) {
    const name = own?.ships.find((s) => s.type === r.type && s.id === r.id)?.name ?? `${r.type}${r.id}`
    // A ship whose cells include this turn's own kamikaze launch was lost at least partly to it.
    const byOwnKamikaze = r.cells.some((c) => t.myAspects.kamikaze.includes(c.cell))
    out.push(
      byOwnKamikaze
        ? `  Your ${name} is destroyed (one of its cells launched your kamikaze strike)`
        : `  They destroyed your ${name}`,
    )
  }
  return out
}

/** What is wrong with a chat line (SPEC §2.4): empty, or over the control text limit. */
function chatProblem(text: string): string | undefined {
  if (text === '') return 'say what? e.g. say good luck'
  const bytes = new TextEncoder().encode(text).length
  return bytes > LIMITS.controlTextBytes
    ? `a chat line is at most ${LIMITS.controlTextBytes} bytes; this one is ${bytes}`
    : undefined
}

/** The most warning before a move's deadline. */
const WARN_MS = 60_000

/** Returned when the game stopped during the prompt: a session that stopped never uses a record. */
const NOTHING_NEEDED = ''

export const RECORD_HELP =
  'Type: Rv1 strike · bRv1Rv3 beam (end cells) · mRv2 Ox3 missile from Rv2 at Ox3 · kGz5 Bx1 kamikaze · sYw4 scan · - nothing · ? help · history or turn N · say TEXT (chat) · resign'

export type SetupChoice = { kind: 'ask' } | { kind: 'random' } | { kind: 'text'; text: string }

/**
 * Lines that arrive on their own (chat, a stop, the connection) while a person types at the record
 * prompt: written onto the prompt's line they would be glued to it and redrawn over, so the open
 * prompt is withdrawn, the lines written, and the prompt asked again with what was typed.
 */
export class Notices {
  private interrupt: ((write: () => void) => void) | undefined

  /** Writes a line now with `write`, or, while a prompt is open, once the prompt is withdrawn. */
  say(write: () => void): void {
    if (this.interrupt === undefined) write()
    else this.interrupt(write)
  }

  /** While the returned function has not been called, lines go to `interrupt`. */
  hold(interrupt: (write: () => void) => void): () => void {
    this.interrupt = interrupt
    return () => {
      if (this.interrupt === interrupt) this.interrupt = undefined
    }
  }
}

export interface HumanOptions {
  readonly prompter: Prompter
  readonly screen: Screen
  readonly setup: SetupChoice
  readonly rng: RandomSource
  /** Who the opponent is, for the status panel (a PeerId or a bot's name), once known. */
  readonly opponent?: () => string | undefined
  /** Sends the opponent a line of chat (SPEC §2.4), once the game's channel exists; absent against a bot. */
  readonly say?: () => ((text: string) => Promise<void>) | undefined
  /** Where lines that arrive on their own are said, so none is glued onto an open prompt. */
  readonly notices?: Notices
}

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
  const v = validateSetup(all.value, ruleset, 0)
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

/** A human at the terminal, as a session strategy. */
export function humanStrategy(o: HumanOptions): PlayerStrategy {
  const { prompter, screen } = o
  // Text fits the terminal: 100 columns at most, fewer on a narrower one.
  const width = Math.min(SCREEN_COLUMNS, screen.columns ?? SCREEN_COLUMNS)
  const fit = (text: string, indent?: string): string => wrap(text, width, indent)
  const burntOutSaid = new Set<number>()
  const showSetup = (setup: Setup): void => {
    screen.print(
      renderSpace('Your setup', ownMarks(initialPlayerState(setup)), screen.paint, screen.columns).join('\n'),
    )
    screen.print(formatSetup(setup))
  }
  /** " (m:ss left)" before the setup deadline (SPEC §6.6), when there is one. */
  let setupDeadline: number | undefined
  const setupLeft = (): string =>
    setupDeadline === undefined ? '' : ` (${clockText(Math.max(0, setupDeadline - systemClock.now()))} left)`
  const askSetup = async (ruleset: Ruleset): Promise<Setup> => {
    if (setupDeadline !== undefined)
      screen.print(
        fit(
          `Choose your setup: ${clockText(Math.max(0, setupDeadline - systemClock.now()))} left before the game's setup deadline. Past it your opponent may stop the game before it begins (no game, nobody wins).`,
        ),
      )
    for (;;) {
      const candidate = randomSetup(ruleset, o.rng)
      showSetup(candidate)
      const how = await prompter.select({
        message: `Your setup${setupLeft()}`,
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
      const text = readFileSync(
        await prompter.input({
          message: 'Setup file',
          validate: (p) => (readable(p) ? true : 'cannot read that file'),
        }),
        'utf8',
      )
      const r = readSetup(text, ruleset, 0, 'lenient')
      if (r.ok) {
        showSetup(r.value)
        if (await prompter.confirm({ message: 'Play this setup?' })) return r.value
      } else screen.print(r.error.map((v) => `  ${describeViolation(v)}`).join('\n'))
    }
  }
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
          message: `Ship ${lines.length + 1}${setupLeft()}`,
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
  return {
    async setup(ruleset, _signal, deadline) {
      setupDeadline = deadline
      if (o.setup.kind === 'random') return randomSetup(ruleset, o.rng)
      if (o.setup.kind === 'text') {
        const r = readSetup(o.setup.text, ruleset, 0, 'lenient')
        if (!r.ok) throw new Error(`the setup is not legal: ${r.error.map(describeViolation).join('; ')}`)
        return r.value
      }
      return askSetup(ruleset)
    },
    async record(ctx) {
      const last = ctx.history.at(-1)
      screen.print('')
      if (last !== undefined)
        screen.print(
          turnReport(last, ctx.state)
            .map((l) => fit(l))
            .join('\n'),
        )
      // A beam that burns out leaves "You may" with no word of its own: say it once (§8.2.4, C-21).
      for (const [i, burnt] of ctx.state.burntOut.entries()) {
        const ship = ctx.state.ships[i]
        if (!burnt || burntOutSaid.has(i) || ship === undefined) continue
        burntOutSaid.add(i)
        screen.print(
          fit(
            `Your ${SHIP_TYPES[ship.type].name} ${ship.name}'s beam burnt out (both end cells of its firing were hits, §8.2.4 C-21): it cannot fire again, and it keeps its conventional strike.`,
          ),
        )
      }
      screen.print(renderBoards(ctx, screen.paint, screen.columns))
      // This side's clock as it stands now: none while the opponent must move first (SPEC §6.6).
      const deadlineOf = (): number | undefined => (ctx.deadlineNow === undefined ? ctx.deadline : ctx.deadlineNow())
      // The panel shows the clock running, or, while the opponent moves first, the least time this
      // move will have (its clock starts no earlier than the last envelope received).
      const startDeadline = deadlineOf() ?? ctx.deadline
      const timeLeft = startDeadline === undefined ? undefined : startDeadline - systemClock.now()
      screen.print(
        statusPanel(
          {
            role: ctx.role,
            opponent: o.opponent?.(),
            turn: ctx.turn,
            state: ctx.state,
            history: ctx.history,
            timeLeft,
          },
          width,
        ).join('\n'),
      )
      const e = entitlements(ctx.ruleset, ctx.state, ctx.turn)
      screen.print(
        fit(`Turn ${ctx.turn}. You may: ${entitlementLine(entitlementView(ctx.ruleset, ctx.state, e), beamWords)}`),
      )
      screen.print(screen.paint(fit(RECORD_HELP), 'dim'))
      const command = (v: string): 'help' | 'resign' | 'say' | 'history' | undefined => {
        const t = v.trim().toLowerCase()
        return t === '?' || t === 'help'
          ? 'help'
          : t === 'resign'
            ? 'resign'
            : t === 'say' || t.startsWith('say ')
              ? 'say'
              : t === 'history' || /^turn \d+$/.test(t)
                ? 'history'
                : undefined
      }
      const check = (text: string): true | string => {
        if (command(text) === 'say') return chatProblem(text.trim().slice(3).trim()) ?? true
        if (command(text) !== undefined) return true
        // An empty line is never taken as "nothing": one stray Enter must not lose a turn.
        if (text.trim() === '') return 'type - to do nothing this turn, ? for help'
        const r = readRecord(ctx.ruleset, ctx.state, ctx.turn, text, 'lenient')
        return r.ok ? true : r.error.map(describeViolation).join('; ')
      }
      // A warning before the deadline: a minute, or a fifth of the time left when the clock is
      // first seen running (short moves). The clock may start while the prompt is open.
      let warnMs = timeLeft === undefined ? undefined : Math.min(WARN_MS, timeLeft / 5)
      // Two notices, each once: a warning before the deadline, and the deadline passed.
      const said = { warning: false, overdue: false }
      const noticeDue = (): 'warning' | 'overdue' | undefined => {
        const d = deadlineOf()
        if (d === undefined) return undefined
        warnMs ??= Math.min(WARN_MS, Math.max(0, d - systemClock.now()) / 5)
        const now = systemClock.now()
        if (now >= d) return said.overdue ? undefined : 'overdue'
        return !said.warning && now >= d - warnMs ? 'warning' : undefined
      }
      let typed = ''
      const notice = (which: 'warning' | 'overdue'): void => {
        said.warning = true
        if (which === 'overdue') said.overdue = true
        const left = (deadlineOf() ?? 0) - systemClock.now()
        screen.print(
          screen.paint(
            fit(
              which === 'overdue'
                ? `Your move for turn ${ctx.turn} was due ${clockText(-left)} ago: your opponent may stop the game at any moment (it is then adjudicated on the turns both committed), and may have already; your node tells you if so. You may still send it.`
                : `Hurry: ${clockText(left)} left to send turn ${ctx.turn}. After that your opponent may stop the game, and it is adjudicated on the turns both committed.`,
            ),
            'hit',
          ),
        )
      }
      for (;;) {
        const due = noticeDue()
        if (due !== undefined) notice(due)
        const withdraw = new AbortController()
        const stopped = (): void => {
          withdraw.abort()
        }
        ctx.signal?.addEventListener('abort', stopped)
        // The next notice's time, or, while the opponent must move first, a look each second: the
        // clock may start while the prompt is open.
        let timer: NodeJS.Timeout | undefined
        const schedule = (): void => {
          if (said.overdue) return
          const d = deadlineOf()
          const next = d === undefined ? undefined : said.warning ? d : d - (warnMs ?? 0)
          timer = setTimeout(
            () => {
              if (noticeDue() !== undefined) stopped()
              else schedule()
            },
            next === undefined ? 1000 : Math.max(0, next - systemClock.now()),
          )
        }
        schedule()
        const arrived: (() => void)[] = []
        const release = o.notices?.hold((write) => {
          arrived.push(write)
          withdraw.abort()
        })
        let text: string
        try {
          text = await prompter.input({
            message: `Turn ${ctx.turn} record`,
            validate: check,
            default: typed,
            signal: withdraw.signal,
            // Checked as it is typed: the player sees a problem before pressing enter.
            transformer: (v) => {
              typed = v
              if (v === '') return v
              const r = check(v)
              return r === true
                ? `${v}  ${screen.paint('ok', 'ship')}`
                : `${v}  ${screen.paint(r.length > 60 ? r.slice(0, 57) + '...' : r, 'dim')}`
            },
          })
        } catch (e) {
          if (!withdraw.signal.aborted) throw e
          release?.()
          // Lines that came while the player typed, each on a line of its own above the prompt.
          for (const write of arrived.splice(0)) write()
          // The game stopped while the player typed: the session no longer needs a record.
          if (ctx.signal?.aborted === true) return NOTHING_NEEDED
          // Withdrawn for the clock's warning or for lines that arrived: asked again (the
          // warning, when due, is given at the top of the loop).
          continue
        } finally {
          release?.()
          clearTimeout(timer)
          ctx.signal?.removeEventListener('abort', stopped)
        }
        typed = ''
        const c = command(text)
        if (c === 'help') {
          screen.print(
            helpText(ctx.ruleset)
              .split('\n')
              .map((l) => fit(l, '    '))
              .join('\n'),
          )
          continue
        }
        if (c === 'history') {
          // Past turns, as each was reported when it ended: all of them, or `turn N` alone.
          const n = /^turn (\d+)$/.exec(text.trim().toLowerCase())?.[1]
          const turns = n === undefined ? ctx.history : ctx.history.filter((h) => h.turn === Number(n))
          screen.print(
            turns.length === 0
              ? n === undefined
                ? 'No turn has been played yet.'
                : `No turn ${n} yet: ${ctx.history.length} played.`
              : turns
                  .flatMap((h) => turnReport(h, ctx.state))
                  .map((l) => fit(l))
                  .join('\n'),
          )
          continue
        }
        if (c === 'say') {
          const send = o.say?.()
          const line = text.trim().slice(3).trim()
          if (send === undefined) screen.print('Chat is for games against a person.')
          else {
            await send(line)
            screen.print(chatLine('You said:', line))
          }
          continue
        }
        if (c === 'resign') {
          if (
            await prompter.confirm({
              message: 'Resign this game? You lose it, and your setup and moves are revealed.',
              default: false,
            })
          )
            return RESIGN
          continue
        }
        const r = readRecord(ctx.ruleset, ctx.state, ctx.turn, text, 'lenient')
        if (!r.ok) continue
        // A committed record is irrevocable (SPEC §4.3): say what it does, and ask once.
        if (await prompter.confirm({ message: fit(`Sign and send: ${describeRecord(r.value.actions)}?`) })) return text
      }
    },
    finished(ctx) {
      // The last turn's results, which no later prompt would show.
      const last = ctx.history.at(-1)
      if (last === undefined) return
      screen.print('')
      screen.print(
        turnReport(last, ctx.state)
          .map((l) => fit(l))
          .join('\n'),
      )
    },
  }
}

function readable(path: string): boolean {
  try {
    readFileSync(path)
    return true
  } catch {
    return false
  }
}
