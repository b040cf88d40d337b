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
import { type Setup, formatSetup, readSetup } from '../rules/setup.js'
import { entitlements, initialPlayerState } from '../rules/state.js'
import { systemClock } from '../session/clock.js'
import { type PlayerStrategy, RESIGN, type TurnContext } from '../session/strategy.js'
import type { TurnSummary } from '../knowledge/summary.js'
import { opponentKnowledge } from '../knowledge/knowledge.js'
import { describeRecord, helpText, statusPanel, wrap } from './panel.js'
import { NO_PAINT, OPPONENT_LEGEND, OWN_LEGEND, type Paint, type Style, knowledgeMark, ownMarks, renderSpace } from './board.js'

/** The prompts the game needs; the real one is inquirer, tests may script it. */
export interface Prompter {
  input(o: { message: string; validate?: (v: string) => true | string; transformer?: (v: string) => string; default?: string }): Promise<string>
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
  const forward = (out: NodeJS.WritableStream): Writable => new Writable({ write: (chunk: Buffer, _enc, done) => void out.write(chunk, () => { done(); }) })
  const ctx = (): { input: NodeJS.ReadableStream; output: Writable; clearPromptOnDone: boolean } | undefined => (streams === undefined ? undefined : { input: streams.input, output: forward(streams.output), clearPromptOnDone: false })
  return {
    input: (o) => input({ message: o.message, ...(o.default === undefined ? {} : { default: o.default }), ...(o.validate === undefined ? {} : { validate: o.validate }), ...(o.transformer === undefined ? {} : { transformer: (v: string, { isFinal }: { isFinal: boolean }) => (isFinal ? v : (o.transformer?.(v) ?? v)) }) }, ctx()),
    select: <T>(o: { message: string; choices: readonly { name: string; value: T; description?: string }[] }) => select<T>({ message: o.message, choices: o.choices.map((c) => ({ ...c })) }, ctx()),
    confirm: (o) => confirm({ message: o.message, default: o.default ?? true }, ctx()),
  }
}

/** Where the game is drawn. `paint` is identity when colours are off. */
export interface Screen {
  print(text: string): void
  readonly paint: Paint
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
  const styles: Record<Style, (s: string) => string> = { plain: (s) => s, dim: c.dim, ship: c.cyan, damage: c.red, hit: (s) => c.bold(c.red(s)), miss: c.blue, scan: c.yellow, known: c.magenta }
  return (text, style) => styles[style](text)
}

/** Both spaces as this player sees them after `history`. */
export function renderBoards(ctx: { state: TurnContext['state']; history: readonly TurnSummary[] }, paint: Paint): string {
  const own = renderSpace('Your space', ownMarks(ctx.state), paint)
  const theirs = renderSpace("Opponent's space (what you know)", opponentKnowledge(ctx.history).map(knowledgeMark), paint)
  return [...own, paint(`  ${OWN_LEGEND}`, 'dim'), '', ...theirs, paint(`  ${OPPONENT_LEGEND}`, 'dim')].join('\n')
}

/** One line per answer the opponent gave last turn, in the order they resolved. */
export function turnReport(t: TurnSummary): string[] {
  const out: string[] = []
  const strike = (target: string, a: { result: string; explosions: readonly string[] } | undefined): string => (a === undefined ? `${target} ?` : `${target} ${a.result}${a.explosions.length > 1 ? ` (missiles exploded: ${a.explosions.slice(1).join(' ')})` : ''}`)
  const mine = [...t.myAspects.beams.flatMap((b, i) => b.map((c, j) => strike(c, t.theirResults.beams[i]?.[j]))), ...t.myAspects.strikes.map((c, i) => strike(c, t.theirResults.strikes[i])), ...t.myAspects.scans.map((c, i) => `scan ${c} ${t.theirResults.scans[i]?.result ?? '?'}`)]
  out.push(`Turn ${t.turn}, yours: ${mine.length === 0 ? 'no strikes or scans' : mine.join(', ')}`)
  for (const d of t.theirResults.destroyed) out.push(`  You destroyed their ${d.type}${d.id} at ${d.cells.map((c) => c.cell).join(' ')}`)
  const theirs = [...t.theirAspects.beams.flat(), ...t.theirAspects.strikes]
  out.push(`Turn ${t.turn}, theirs: ${theirs.length === 0 ? 'no strikes' : `strikes at ${theirs.join(' ')}`}${t.theirAspects.scans.length > 0 ? `; scans at ${t.theirAspects.scans.join(' ')}` : ''}`)
  for (const r of t.myReports) out.push(`  They destroyed your ${r.type}${r.id}`)
  return out
}

export const RECORD_HELP = 'Type: Rv1 strike · bRv1Rv3 beam (end cells) · mRv2 Ox3 missile from Rv2 at Ox3 · kGz5 Bx1 kamikaze · sYw4 scan · - nothing · ? help · resign'

export type SetupChoice = { kind: 'ask' } | { kind: 'random' } | { kind: 'text'; text: string }

export interface HumanOptions {
  readonly prompter: Prompter
  readonly screen: Screen
  readonly setup: SetupChoice
  readonly rng: RandomSource
  /** Who the opponent is, for the status panel (a PeerId or a bot's name), once known. */
  readonly opponent?: () => string | undefined
}

/** A human at the terminal, as a session strategy. */
export function humanStrategy(o: HumanOptions): PlayerStrategy {
  const { prompter, screen } = o
  const showSetup = (setup: Setup): void => {
    screen.print(renderSpace('Your setup', ownMarks(initialPlayerState(setup)), screen.paint).join('\n'))
    screen.print(formatSetup(setup))
  }
  const askSetup = async (ruleset: Ruleset): Promise<Setup> => {
    for (;;) {
      const candidate = randomSetup(ruleset, o.rng)
      showSetup(candidate)
      const how = await prompter.select({
        message: 'Your setup',
        choices: [
          { name: 'Play this setup', value: 'use' as const },
          { name: 'Another random setup', value: 'again' as const },
          { name: 'Type my own, one ship per line', value: 'type' as const },
          { name: 'Load a setup file', value: 'file' as const },
        ],
      })
      if (how === 'use') return candidate
      if (how === 'again') continue
      const text =
        how === 'file'
          ? readFileSync(await prompter.input({ message: 'Setup file', validate: (p) => (readable(p) ? true : 'cannot read that file') }), 'utf8')
          : await typeSetup(ruleset)
      const r = readSetup(text, ruleset, 0, 'lenient')
      if (r.ok) {
        showSetup(r.value)
        if (await prompter.confirm({ message: 'Play this setup?' })) return r.value
      } else screen.print(r.error.map((v) => `  ${describeViolation(v)}`).join('\n'))
    }
  }
  const typeSetup = async (ruleset: Ruleset): Promise<string> => {
    screen.print(`One ship per line: type then cells, e.g. "DS Rv1 Rv2 Rw1 Rw2 Ov1 Ov2 Ow1 Ow2". Fleet: ${ruleset.fleet.kind === 'standard' ? 'a standard fleet' : 'see the ruleset'}. An empty line ends.`)
    const lines: string[] = []
    for (;;) {
      const line = await prompter.input({ message: `Ship ${lines.length + 1}` })
      if (line.trim() === '') return lines.join('\n')
      lines.push(line)
    }
  }
  return {
    async setup(ruleset) {
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
      if (last !== undefined) screen.print(turnReport(last).map((l) => wrap(l)).join('\n'))
      screen.print(renderBoards(ctx, screen.paint))
      const timeLeft = ctx.deadline === undefined ? undefined : ctx.deadline - systemClock.now()
      screen.print(statusPanel({ role: ctx.role, opponent: o.opponent?.(), turn: ctx.turn, state: ctx.state, history: ctx.history, timeLeft }).join('\n'))
      const e = entitlements(ctx.ruleset, ctx.state, ctx.turn)
      screen.print(wrap(`Turn ${ctx.turn}. You may: ${entitlementLine(entitlementView(ctx.ruleset, ctx.state, e))}`))
      screen.print(screen.paint(wrap(RECORD_HELP), 'dim'))
      const command = (v: string): 'help' | 'resign' | undefined => {
        const t = v.trim().toLowerCase()
        return t === '?' || t === 'help' ? 'help' : t === 'resign' ? 'resign' : undefined
      }
      const check = (text: string): true | string => {
        if (command(text) !== undefined) return true
        // An empty line is never taken as "nothing": one stray Enter must not lose a turn.
        if (text.trim() === '') return 'type - to do nothing this turn, ? for help'
        const r = readRecord(ctx.ruleset, ctx.state, ctx.turn, text, 'lenient')
        return r.ok ? true : r.error.map(describeViolation).join('; ')
      }
      for (;;) {
        const text = await prompter.input({
          message: `Turn ${ctx.turn} record`,
          validate: check,
          // Checked as it is typed: the player sees a problem before pressing enter.
          transformer: (v) => {
            if (v === '') return v
            const r = check(v)
            return r === true ? `${v}  ${screen.paint('ok', 'ship')}` : `${v}  ${screen.paint(r.length > 60 ? r.slice(0, 57) + '...' : r, 'dim')}`
          },
        })
        const c = command(text)
        if (c === 'help') {
          screen.print(helpText(ctx.ruleset))
          continue
        }
        if (c === 'resign') {
          if (await prompter.confirm({ message: 'Resign this game? You lose it, and your setup and moves are revealed.', default: false })) return RESIGN
          continue
        }
        const r = readRecord(ctx.ruleset, ctx.state, ctx.turn, text, 'lenient')
        if (!r.ok) continue
        // A committed record is irrevocable (SPEC §4.3): say what it does, and ask once.
        if (await prompter.confirm({ message: wrap(`Sign and send: ${describeRecord(r.value.actions)}?`) })) return text
      }
    },
    finished(ctx) {
      // The last turn's results, which no later prompt would show.
      const last = ctx.history.at(-1)
      if (last === undefined) return
      screen.print('')
      screen.print(turnReport(last).map((l) => wrap(l)).join('\n'))
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
