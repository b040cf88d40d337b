/**
 * One Spaaace! game in memory, with people and bots in its seats: each tick the screen for each
 * person, their orders asked for and checked as typed (S-37), the bots' orders from their seeded
 * sources, the tick played (S-70) and told in words, to the end of the game (S-50, S-51, S-82) or
 * until a person quits. No I/O of its own: it prints through `print` and asks through `prompter`
 * (the terminal's, or a test's script), so the networked game can reuse the same turn of a person.
 *
 * Every order set, a person's and a bot's, is read as the open record reads it (`submissionOf`,
 * S-37), and the game is written as that record (rules appendix), so `spaceships spaaace referee`
 * plays the record to the same closing states.
 */
import type { SpaaaceBot } from '../bot/bot.js'
import type { Rng } from '../referee/random.js'
import { FORMAT_LINE, submissionOf } from '../referee/record.js'
import { recentRefusal } from '../rules/battle.js'
import { formatOrderSet, parseOrderSet } from '../rules/orders.js'
import { genesis, sectorCount } from '../rules/state.js'
import { playTick, type TickOutcome } from '../rules/tick.js'
import {
  DEFAULT_TERMS,
  EMPTY_ORDERS,
  LIMITS,
  NUMERIC_TERMS,
  type GameState,
  type NumericTerm,
  type OrderSet,
  type PlayerIndex,
  type Submission,
  type Terms,
} from '../rules/types.js'
import { SCREEN_COLUMNS, orderGuide, renderScreen, tellTick, type Seat, wrapLine } from './screen.js'

/** The one prompt the game needs; the Spaceships terminal's Prompter is one, and tests script it. */
export interface OrderPrompter {
  /** With `signal`, the prompt is withdrawn when it aborts (the promise rejects). */
  input(o: {
    message: string
    validate?: (v: string) => true | string
    signal?: AbortSignal
    /** A clock shown after the message and redrawn as it runs (the time left to choose), or none. */
    clock?: () => string | undefined
    /** What an empty answer stands for (shown with the prompt). */
    default?: string
  }): Promise<string>
}

/** Said with `orderNotes`: the same orders are sent by Enter, or others typed. */
export const NOTES_CONFIRM =
  'Press Enter to send these orders as they are, or change them (Ctrl-U clears the line; - orders nothing).'

/** Who plays a seat: a person at this terminal, or a bot drawing from its own seeded source. */
export type SeatPlayer =
  | { readonly kind: 'person' }
  | { readonly kind: 'bot'; readonly bot: SpaaaceBot; readonly rng: Rng; readonly shown?: boolean }

export interface LocalGameOptions {
  /** Roster order (S-01): each seat's label and bot, as the screen names it. */
  readonly seats: readonly Seat[]
  readonly players: readonly SeatPlayer[]
  /** Whose screen is shown (a person's, or the seat a bot plays for a person under autoplay). */
  readonly viewer: PlayerIndex
  readonly terms?: Terms
  readonly prompter?: OrderPrompter
  /** Screen lines (without newlines); absent prints nothing. */
  readonly print?: (line: string) => void
  /** Each tick once played, with the record lines of its orders. */
  readonly onTick?: (outcome: TickOutcome, lines: readonly string[]) => void
  readonly columns?: number
  /** A comment for the record's head (`# ...`). */
  readonly comment?: string
}

export interface LocalGameResult {
  readonly state: GameState
  /** The open game record (rules appendix) of the ticks played. */
  readonly record: string
  /** A person quit before the end. */
  readonly abandoned: boolean
}

/** What a person typed, once checked: orders in the record's syntax, or a command. */
export type Answer =
  | { readonly kind: 'orders'; readonly text: string }
  | { readonly kind: 'help' }
  | { readonly kind: 'quit' }
  | { readonly kind: 'error'; readonly reason: string }

/**
 * Reads a person's line for player `self` (S-37): empty or `-` orders nothing, `help` and `quit`
 * are commands, anything else is an order set parsed as the record parses it; its canonical text
 * (`formatOrderSet`) is what the record writes, with `written` as the labels (the screen's by
 * default; the protocol's `p1`..`pn` for a commitment among peers).
 */
export function readAnswer(
  line: string,
  labels: readonly string[],
  self: PlayerIndex,
  written: readonly string[] = labels,
): Answer {
  const text = line.trim()
  // A person may type `Move 2` or `QUIT`: the words are read whatever their case. The orders
  // committed are the canonical text (formatOrderSet), so this changes nothing that is signed.
  const lower = text.toLowerCase()
  if (lower === '' || lower === '-') return { kind: 'orders', text: '-' }
  if (lower === 'help' || lower === '?') return { kind: 'help' }
  if (lower === 'quit') return { kind: 'quit' }
  const sectors = sectorCount(labels.length)
  let parsed = parseOrderSet(text, labels, self, sectors)
  // Labels are compared as written; the line in lower case is tried only when it does not read as typed.
  if (!parsed.ok && lower !== text) {
    const again = parseOrderSet(lower, labels, self, sectors)
    if (again.ok) parsed = again
  }
  if (!parsed.ok) return { kind: 'error', reason: parsed.reason }
  return { kind: 'orders', text: formatOrderSet(parsed.orders, written) }
}

/**
 * What a person's orders cannot do this tick, said before they are sent: a repair or purchase cut
 * or refused (S-23, S-30, S-32, S-38), a move that stops short (S-33), a bid with no battle awaiting
 * it (S-41). Only what follows from the player's own state and orders, whatever the others order:
 * steps 2 to 4 of S-70 touch each player's own ship and coins alone, so the tick played with every
 * other player ordering nothing gives the same events for this player. An attack or a claim depends
 * on the others' moves and battles, and is never judged here.
 */
export function orderNotes(
  state: GameState,
  self: PlayerIndex,
  orders: OrderSet,
  shown: readonly string[] = state.players.map((_, i) => `p${i + 1}`),
): string[] {
  const label = (i: PlayerIndex): string => shown[i] ?? `p${i + 1}`
  if (state.ended || state.players[self]?.status !== 'active') return []
  const subs: Submission[] = state.players.map((_, i) => ({
    kind: 'orders',
    orders: i === self ? orders : EMPTY_ORDERS,
  }))
  const notes: string[] = []
  const ship = state.ships[self]
  // Why a ship cannot act (S-22 defeated, S-23 engaging), as the engine's 'not pilotable' means both.
  const unpilotable = ship?.engaging === true ? 'your ship is engaging (S-23)' : 'your ship is defeated (S-22)'
  const energyAdded = (ship?.energy ?? 0) < LIMITS.maxEnergy && ship?.engaging !== true
  for (const e of playTick(state, subs).events) {
    if (!('player' in e) || e.player !== self) continue
    if ((e.kind === 'repair' || e.kind === 'buy') && e.points < e.asked) {
      const what = `${e.kind} ${e.asked}`
      const rule = e.kind === 'repair' ? 'S-30' : 'S-32'
      const why =
        e.why === 'engaging'
          ? 'your ship is engaging (S-23)'
          : e.why === 'not pilotable'
            ? unpilotable
            : e.why === 'armour full'
              ? 'your armour is full'
              : e.why === 'energy full'
                ? energyAdded
                  ? "your energy is full once this tick's energy is added (S-70 step 2)"
                  : 'your energy is full'
                : "too few coins, this tick's income included (S-24)"
      notes.push(
        e.points === 0
          ? `${what} does nothing: ${why} (${rule}, S-38).`
          : `${what} gives ${e.points} (the cap or your coins, this tick's income included, ${rule}, S-38).`,
      )
    }
    if (e.kind === 'move' && e.why !== null)
      notes.push(
        `move ${e.asked.join(' ')} ${e.entered.length === 0 ? `does not leave sector ${e.from}` : `stops at sector ${e.entered[e.entered.length - 1] ?? e.from}`}: ${e.why === 'no energy' ? 'no energy left' : e.why === 'not pilotable' ? unpilotable : e.why} (S-33).`,
      )
  }
  if (orders.bid !== null && !state.awaiting.some((b) => b.a === self || b.b === self))
    notes.push(`bid ${orders.bid} does nothing: no battle awaits your bid this tick (S-41).`)
  const battle = state.awaiting.find((b) => b.a === self || b.b === self)
  if (orders.bid === null && battle !== undefined)
    notes.push(
      `no bid: your battle with ${label(battle.a === self ? battle.b : battle.a)} awaits your bid, and no bid bids 0 (S-41, S-42).`,
    )
  // S-40: an attack a cooldown or a rematch refuses, from the initiations of earlier ticks alone.
  const refused =
    orders.attack === null ? null : recentRefusal(self, orders.attack, state.tick + 1, state.initiations, state.terms)
  if (orders.attack !== null && refused !== null)
    notes.push(
      `attack ${label(orders.attack)} does nothing: ${refused === 'rematch' ? `you fought ${label(orders.attack)} too recently (rematch)` : 'you or it fought too recently (cooldown)'} (S-40).`,
    )
  // S-31: a break withdraws a declaration of this player's own; with none standing it does nothing.
  for (const a of orders.alliances)
    if (a.kind === 'break' && !state.declarations.some(([p, q]) => p === self && q === a.other))
      notes.push(`break ${label(a.other)} does nothing: you have no declaration for ${label(a.other)} standing (S-31).`)
  return notes
}

/**
 * `orderNotes` of a canonical order text as `readAnswer` wrote it (with the labels `written`), naming
 * players as the screen does (`shown`).
 */
export function answerNotes(
  state: GameState,
  self: PlayerIndex,
  text: string,
  written: readonly string[],
  shown: readonly string[] = written,
): string[] {
  // "-" (or nothing) is no orders at all: its notes too (a battle awaiting a bid gets none).
  if (text.trim() === '-' || text.trim() === '') return orderNotes(state, self, EMPTY_ORDERS, shown)
  const parsed = parseOrderSet(text, written, self, sectorCount(written.length))
  return parsed.ok ? orderNotes(state, self, parsed.orders, shown) : []
}

/** Orders said to have notes: the line as typed (the next prompt's default) and their canonical text. */
export interface NotedOrders {
  readonly line: string
  readonly text: string
}

/**
 * Whether a person's orders (`text`, typed as `line`) go as they are: yes when `orderNotes` has
 * nothing to say of them, or said it already (the same orders again, Enter on the default); else
 * the notes are printed, and the orders returned as noted, to be the next prompt's default.
 */
export function sendOrNote(
  o: {
    readonly state: GameState
    readonly self: PlayerIndex
    readonly written: readonly string[]
    readonly shown?: readonly string[]
  },
  line: string,
  text: string,
  noted: NotedOrders | undefined,
  print: (line: string) => void,
): NotedOrders | 'send' {
  const notes = answerNotes(o.state, o.self, text, o.written, o.shown)
  if (notes.length === 0 || text === noted?.text) return 'send'
  for (const n of notes) print(`Note: ${n}`)
  print(NOTES_CONFIRM)
  return { line: line.trim(), text }
}

/** The record's head: format, the terms that differ from the defaults (S-90), the roster. */
export function recordHead(terms: Terms, labels: readonly string[], comment?: string): string[] {
  const items = (Object.keys(NUMERIC_TERMS) as NumericTerm[]).flatMap((k) =>
    k !== 'tickMs' && terms[k] !== DEFAULT_TERMS[k] ? [`${k}=${terms[k]}`] : [],
  )
  if (terms.wormhole || terms.infamyWins || terms.start !== null || terms.tickMs !== null)
    throw new RangeError('a local game is played with the default options (no wormhole, no infamyWins)')
  return [
    FORMAT_LINE,
    ...(comment === undefined ? [] : [`# ${comment.replace(/\n/g, ' ')}`]),
    ...(items.length === 0 ? [] : [`terms ${items.join(' ')}`]),
    ...labels.map((l) => `player ${l}`),
  ]
}

/** Plays the game to its end, or until a person quits. */
export async function playLocalGame(o: LocalGameOptions): Promise<LocalGameResult> {
  const terms = o.terms ?? DEFAULT_TERMS
  const labels = o.seats.map((s) => s.label)
  const print = o.print ?? ((): void => undefined)
  const record = recordHead(terms, labels, o.comment)
  let state = genesis(labels.length, terms)
  const show = (lines: readonly string[]): void => {
    for (const l of lines) print(l)
  }
  for (;;) {
    if (state.ended) return { state, record: `${record.join('\n')}\n`, abandoned: false }
    const now = state
    show(['', ...renderScreen({ state: now, seats: o.seats, viewer: o.viewer, ...cols(o.columns) })])
    const lines: string[] = []
    const subs: Submission[] = []
    for (const [i, player] of o.players.entries()) {
      if (now.players[i]?.status !== 'active') {
        subs.push({ kind: 'missing' })
        continue
      }
      let text: string
      if (player.kind === 'person') {
        const asked = await askOrders(o, now, i)
        if (asked === null) {
          print(`You quit in tick ${now.tick + 1}: the game is abandoned.`)
          return {
            state: now,
            record: `${[...record, `# abandoned in tick ${now.tick + 1}`].join('\n')}\n`,
            abandoned: true,
          }
        }
        text = asked
      } else {
        text = formatOrderSet(player.bot.orders({ self: i, state: now }, player.rng), labels)
        if (player.shown === true)
          show(
            wrapLine(
              `${i === o.viewer ? 'you' : (labels[i] ?? '')} (${player.bot.name}): ${text}`,
              Math.min(SCREEN_COLUMNS, o.columns ?? SCREEN_COLUMNS),
            ),
          )
      }
      lines.push(`${labels[i] ?? ''}: ${text}`)
      subs.push(submissionOf(text, labels, i))
    }
    const outcome = playTick(now, subs)
    record.push(`tick ${outcome.state.tick}`, ...lines)
    o.onTick?.(outcome, lines)
    show(['', ...tellTick(outcome, o.seats, o.viewer, o.columns)])
    state = outcome.state
  }
}

const cols = (columns: number | undefined): { columns?: number } => (columns === undefined ? {} : { columns })

/** A person's orders for the next tick, asked until legal (S-37); null when the person quits. */
async function askOrders(o: LocalGameOptions, state: GameState, self: PlayerIndex): Promise<string | null> {
  const labels = o.seats.map((s) => s.label)
  const print = o.print ?? ((): void => undefined)
  const prompter = o.prompter
  if (prompter === undefined) throw new Error('a person plays a seat, and there is no prompter to ask')
  const message = `Your orders for tick ${state.tick + 1} (help, quit):`
  // The orders last answered with notes: the same again sends them (Enter, by default).
  let warned: NotedOrders | undefined
  for (;;) {
    const line = await prompter.input({
      message,
      validate: (v) => {
        const a = readAnswer(v, labels, self)
        return a.kind === 'error' ? a.reason : true
      },
      ...(warned === undefined ? {} : { default: warned.line }),
    })
    const a = readAnswer(line, labels, self)
    switch (a.kind) {
      case 'orders': {
        const said = sendOrNote({ state, self, written: labels }, line, a.text, warned, (l) => {
          for (const w of wrapLine(l, Math.min(SCREEN_COLUMNS, o.columns ?? SCREEN_COLUMNS))) print(w)
        })
        if (said === 'send') return a.text
        warned = said
        break
      }
      case 'quit':
        return null
      case 'help':
        for (const l of orderGuide(o.columns)) print(l)
        break
      case 'error':
        // A prompter that does not check as typed: said here, one line, and asked again.
        print(`Not an order set: ${a.reason}`)
        break
    }
  }
}
