/**
 * The terminal game: a human player as a session strategy. Before each turn it draws both spaces
 * and lists what the player may do; the record is typed in the conventional notation and checked
 * by the rules engine as it is typed (the same check the opponent's verifier will make), so an
 * illegal record is never committed. Prompts come from @inquirer/prompts, colours from picocolors
 * (which honours NO_COLOR and FORCE_COLOR).
 *
 * In parts: the prompts (`prompter.ts`), what is drawn (`screen.ts`) and the setup prompt
 * (`setup-prompt.ts`); this file is the strategy and its record prompt loop.
 */
import { entitlementLine, entitlementView } from '../rules/entitlement-view.js'
import { randomSetup } from '../rules/enumerate.js'
import { describeViolation } from '../rules/errors.js'
import { readRecord } from '../rules/legality.js'
import type { RandomSource } from '../rules/rng.js'
import { readSetup } from '../rules/setup.js'
import { entitlements } from '../rules/state.js'
import { systemClock } from '../../../core/session/clock.js'
import { ACCEPT_DRAW, type PlayerStrategy, RESIGN, offerDraw } from '../session/strategy.js'
import { LIMITS } from '../protocol/messages.js'
import { SHIP_TYPES } from '../rules/ships.js'
import {
  SCREEN_COLUMNS,
  beamWords,
  chatLine,
  clockText,
  describeRecord,
  helpText,
  opponentShipNames,
  statusPanel,
  wrap,
} from './panel.js'
import type { Prompter } from './prompter.js'
import { type Screen, renderBoards, turnReport } from './screen.js'
import { askSetup } from './setup-prompt.js'

// The names other modules import from here, where they lived before this file was split.
export { type PromptStreams, type Prompter, inquirerPrompter } from './prompter.js'
export { type Screen, colourEnabled, painter, renderBoards, turnReport } from './screen.js'
export { fleetChoice, shipLineProblem } from './setup-prompt.js'

/** What is wrong with a chat line (SPEC §2.4): empty, or over the control text limit. */
function chatProblem(text: string): string | undefined {
  if (text === '') return 'say what? e.g. say good luck'
  const bytes = new TextEncoder().encode(text).length
  return bytes > LIMITS.controlTextBytes
    ? `a chat line is at most ${LIMITS.controlTextBytes} bytes; this one is ${bytes}`
    : undefined
}

/** Why a chat line cannot go: against a bot, or with no connection to the opponent (a check-in goes through the notary alone). */
const CHAT_NEEDS_PEER = 'Chat is for games against a person, while your node is connected to theirs.'

/** Columns a confirmation leaves for its prompt's mark ("? ") and its answer (" (Y/n) yes"). */
const CONFIRM_MARGIN = 10

/** The most warning before a move's deadline. */
const WARN_MS = 60_000

/** Returned when the game stopped during the prompt: a session that stopped never uses a record. */
const NOTHING_NEEDED = ''

/** Version 4 (SPEC §7.11, §7.12): the draw's words at the record prompt. */
export const DRAW_HELP = 'draw RECORD (your record, offering a draw) · accept (an offer made to you)'

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
  /** Lines kept while the player chooses a record (`whenChosen`), or undefined when none is being chosen. */
  private kept: Set<() => void> | undefined

  /** Writes a line now with `write`, or, while a prompt is open, once the prompt is withdrawn. */
  say(write: () => void): void {
    if (this.interrupt === undefined) write()
    else this.interrupt(write)
  }

  /**
   * A line about a wait (the opponent's move awaited): written now, or, while the player chooses a
   * record, once that record is signed; the returned function drops it if it is not written yet.
   * Withdrawing the prompt for it would leave the prompt's line behind, and tell a player still
   * typing that the game waits for the other side.
   */
  whenChosen(write: () => void): () => void {
    if (this.kept === undefined) {
      write()
      return () => undefined
    }
    const kept = this.kept
    kept.add(write)
    return () => kept.delete(write)
  }

  /**
   * From now until the returned function is called the player chooses a record; called with
   * `signed`, it writes the lines kept meanwhile (without, a resignation or a stop, it drops them).
   */
  choosing(): (signed: boolean) => void {
    const kept = new Set<() => void>()
    this.kept = kept
    return (signed) => {
      if (this.kept === kept) this.kept = undefined
      if (signed) for (const write of kept) write()
      kept.clear()
    }
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
  /**
   * A witnessed game (PROTOCOL-4.md §4.4): a move not receipted by its deadline loses on time once
   * the opponent claims, instead of the game being adjudicated (SPEC §12.7), and the words say so.
   */
  readonly witnessed?: boolean
}
/** A human at the terminal, as a session strategy. */
export function humanStrategy(o: HumanOptions): PlayerStrategy {
  const { prompter, screen } = o
  // Text fits the terminal: 100 columns at most, fewer on a narrower one.
  const width = Math.min(SCREEN_COLUMNS, screen.columns ?? SCREEN_COLUMNS)
  const fit = (text: string, indent?: string): string => wrap(text, width, indent)
  const burntOutSaid = new Set<number>()
  // Chat while waiting for the opponent (no prompt open): `say TEXT` is sent as at the record
  // prompt; any other line typed then is dropped by the prompter, so it never answers a prompt.
  prompter.between?.(async (line) => {
    const t = line.trim()
    if (t.toLowerCase() !== 'say' && !t.toLowerCase().startsWith('say ')) return false
    const text = t.slice(3).trim()
    const problem = chatProblem(text)
    const send = o.say?.()
    if (problem !== undefined) screen.print(fit(`(not sent: ${problem})`))
    else if (send === undefined) screen.print(fit(CHAT_NEEDS_PEER))
    else {
      await send(text)
      screen.print(chatLine('You said:', text))
    }
    return true
  })
  const player: PlayerStrategy = {
    async setup(ruleset, _signal, deadline) {
      if (o.setup.kind === 'random') return randomSetup(ruleset, o.rng)
      if (o.setup.kind === 'text') {
        const r = readSetup(o.setup.text, ruleset, 0, 'lenient')
        if (!r.ok) throw new Error(`the setup is not legal: ${r.error.map(describeViolation).join('; ')}`)
        return r.value
      }
      // Lines that arrive while the setup menu is open (the opponent's chat, its name) would be
      // written under the menu and erased by its redraw: they are kept and written once it closes.
      const held: (() => void)[] = []
      const release = o.notices?.hold((write) => held.push(write))
      try {
        return await askSetup({ prompter, screen, rng: o.rng, fit }, ruleset, deadline)
      } finally {
        release?.()
        for (const write of held) write()
      }
    },
    async record(ctx) {
      const last = ctx.history.at(-1)
      const theirName = opponentShipNames(ctx.ruleset, ctx.history)
      screen.print('')
      if (last !== undefined)
        screen.print(
          turnReport(last, ctx.state, theirName)
            .map((l) => fit(l))
            .join('\n'),
        )
      // A beam that burns out leaves "You may" with no word of its own: say it once (§8.2.4, C-21).
      for (const [i, burnt] of ctx.state.burntOut.entries()) {
        const ship = ctx.state.ships[i]
        if (!burnt || burntOutSaid.has(i) || ship === undefined) continue
        burntOutSaid.add(i)
        // A ship destroyed in the turn its beam burnt out keeps nothing (§3.8): say only the burn-out.
        const sunk = ship.cells.every((c) => ctx.state.destroyed[c] === 1)
        screen.print(
          fit(
            `Your ${SHIP_TYPES[ship.type].name} ${ship.name}'s beam burnt out (both end cells of its firing were hits, §8.2.4 C-21)${sunk ? ', and the ship is destroyed.' : ': it cannot fire again, and it keeps its conventional strike.'}`,
          ),
        )
      }
      screen.print(renderBoards(ctx, screen.paint, screen.columns))
      // This side's clock as it stands now: none while the opponent must move first (SPEC §6.6).
      const deadlineOf = (): number | undefined => (ctx.deadlineNow === undefined ? ctx.deadline : ctx.deadlineNow())
      // The panel shows the clock running, or, while the opponent moves first, the time the move
      // will have: its clock starts when their envelope arrives, so a time left counted from the
      // last envelope would be short of the prompt's by however long they take (about 20 s in
      // turn 1, while B chose its setup).
      const startDeadline = deadlineOf() ?? ctx.deadline
      const timeLeft = startDeadline === undefined ? undefined : startDeadline - systemClock.now()
      const panelClock =
        ctx.deadlineNow !== undefined && ctx.moveMs !== undefined && deadlineOf() === undefined
          ? { waiting: ctx.moveMs }
          : timeLeft
      screen.print(
        statusPanel(
          {
            role: ctx.role,
            opponent: o.opponent?.(),
            turn: ctx.turn,
            state: ctx.state,
            history: ctx.history,
            timeLeft: panelClock,
            theirName,
          },
          width,
        ).join('\n'),
      )
      const e = entitlements(ctx.ruleset, ctx.state, ctx.turn)
      screen.print(
        fit(`Turn ${ctx.turn}. You may: ${entitlementLine(entitlementView(ctx.ruleset, ctx.state, e), beamWords)}`),
      )
      screen.print(screen.paint(fit(ctx.mayOfferDraw === true ? `${RECORD_HELP} · ${DRAW_HELP}` : RECORD_HELP), 'dim'))
      // Version 4 (SPEC §7.11): an offer of a draw rides with this turn's record.
      // (An offer made to this player is told when it arrives, as a line of its own: cli/screen.ts.)
      let offering = false
      const command = (v: string): 'help' | 'resign' | 'say' | 'history' | 'draw' | 'accept' | undefined => {
        const t = v.trim().toLowerCase()
        return t === '?' || t === 'help'
          ? 'help'
          : t === 'resign'
            ? 'resign'
            : t === 'say' || t.startsWith('say ')
              ? 'say'
              : t === 'history' || /^turn \d+$/.test(t)
                ? 'history'
                : t === 'draw'
                  ? 'draw'
                  : t === 'accept'
                    ? 'accept'
                    : undefined
      }
      /** "draw Rv1 Rv2": a record typed after the word draw carries the offer (SPEC §7.11). */
      const withOffer = (text: string): string | undefined => /^draw\s+(\S.*)$/i.exec(text.trim())?.[1]
      const check = (text: string): true | string => {
        const offered = withOffer(text)
        if (offered !== undefined) {
          if (ctx.mayOfferDraw !== true) return 'a draw can be offered in a game of protocol version 4 only'
          return check(offered)
        }
        if (command(text) === 'say') return chatProblem(text.trim().slice(3).trim()) ?? true
        if (command(text) === 'draw' && ctx.mayOfferDraw !== true)
          return 'a draw can be offered in a game of protocol version 4 only'
        if (command(text) === 'accept' && ctx.drawOffered?.() !== true) return 'there is no offer of a draw to accept'
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
                ? o.witnessed === true
                  ? `Your move for turn ${ctx.turn} was due ${clockText(-left)} ago: your opponent may claim the win on time through the notary at any moment (you then lose on time), and may have already; your node tells you if so. You may still send it.`
                  : `Your move for turn ${ctx.turn} was due ${clockText(-left)} ago: your opponent may stop the game at any moment (it is then adjudicated on the turns both committed), and may have already; your node tells you if so. You may still send it.`
                : o.witnessed === true
                  ? `Hurry: ${clockText(left)} left to send turn ${ctx.turn}. After that your opponent may claim the win on time through the notary.`
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
            // The move's clock, live; none while the opponent must move first (its clock has not started).
            clock: () => {
              const d = deadlineOf()
              if (d === undefined) return undefined
              const left = d - systemClock.now()
              return left > 0 ? `${clockText(left)} left` : `due ${clockText(-left)} ago`
            },
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
                  .flatMap((h) => turnReport(h, ctx.state, theirName))
                  .map((l) => fit(l))
                  .join('\n'),
          )
          continue
        }
        if (c === 'say') {
          const send = o.say?.()
          const line = text.trim().slice(3).trim()
          if (send === undefined) screen.print(fit(CHAT_NEEDS_PEER))
          else {
            await send(line)
            screen.print(chatLine('You said:', line))
          }
          continue
        }
        if (c === 'draw') {
          if (ctx.mayOfferDraw !== true) {
            screen.print(fit('A draw can be offered in a game of protocol version 4 only.'))
            continue
          }
          offering = !offering
          screen.print(
            fit(
              offering
                ? "You offer a draw with this turn's record: it goes at the end of your next envelope and stands until your opponent's next move, which accepts it or plays on. Now type your record (draw again withdraws it)."
                : 'No draw offered.',
            ),
          )
          continue
        }
        if (c === 'accept') {
          if (
            ctx.drawOffered?.() === true &&
            (await prompter.confirm({
              message: 'Accept the draw? The game ends drawn, and both setups and moves are revealed.',
              default: false,
            }))
          )
            return ACCEPT_DRAW
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
        const offered = withOffer(text)
        const offer = offering || offered !== undefined
        const recordText = offered ?? text
        const r = readRecord(ctx.ruleset, ctx.state, ctx.turn, recordText, 'lenient')
        if (!r.ok) continue
        // A committed record is irrevocable (SPEC §4.3): say what it does, and ask once.
        // Wrapped with room for the prompt's mark before it and its answer after it, so the
        // terminal never wraps a line of it on its own (words split, lines counted apart).
        const confirmation = wrap(
          `Sign and send: ${describeRecord(r.value.actions)}${offer ? ', offering a draw' : ''}${
            // SPEC §6.3: a commitment declines the other side's standing offer; say so before it is signed.
            ctx.drawOffered?.() === true
              ? ' (this declines the draw your opponent offered; type accept to take it)'
              : ''
          }?`,
          width - CONFIRM_MARGIN,
        )
        if (await prompter.confirm({ message: confirmation })) return offer ? offerDraw(recordText) : recordText
      }
    },
    finished(ctx) {
      // The last turn's results, which no later prompt would show.
      const last = ctx.history.at(-1)
      if (last === undefined) return
      screen.print('')
      screen.print(
        turnReport(last, ctx.state, opponentShipNames(ctx.ruleset, ctx.history))
          .map((l) => fit(l))
          .join('\n'),
      )
    },
  }
  return {
    ...player,
    // Lines about a wait wait for the record (Notices.whenChosen), and are dropped without one.
    async record(ctx) {
      const chosen = o.notices?.choosing()
      let record: Awaited<ReturnType<PlayerStrategy['record']>> = NOTHING_NEEDED
      try {
        record = await player.record(ctx)
        return record
      } finally {
        chosen?.(typeof record === 'string' && record !== NOTHING_NEEDED)
      }
    },
  }
}
