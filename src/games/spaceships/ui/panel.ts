/**
 * What the terminal game tells the player in words: the status panel of each turn (who you are,
 * materiel and ships on both sides, the time left), what a record will do before it is signed,
 * the in-game help, and the result as a sentence from the player's side. Pure text; the terminal
 * module prints it.
 */
import { formatCell, formatPartial, rowCells } from '../rules/coords.js'
import type { Action } from '../rules/record.js'
import { type FleetCounts, legalFleets } from '../rules/fleet.js'
import { type Ruleset, formatRuleset } from '../rules/ruleset.js'
import { SHIP_TYPES, type ShipType, type Variant, formatShipName } from '../rules/ships.js'
import { type PlayerState, isShipDestroyed, remainingMateriel } from '../rules/state.js'
import type { TurnSummary } from '../session/strategy.js'
import type { Role } from '../protocol/messages.js'
import type { Verdict } from '../verify/verify.js'

/** Lines are wrapped to this many columns (the narrowest terminal the game is laid out for). */
export const SCREEN_COLUMNS = 100

/** Wraps `text` at word boundaries to `width` columns, each continuation indented by `indent`. */
export function wrap(text: string, width = SCREEN_COLUMNS, indent = '  '): string {
  const out: string[] = []
  for (const paragraph of text.split('\n')) {
    // A paragraph's own indentation is kept on its first line.
    const lead = /^ */.exec(paragraph)?.[0] ?? ''
    let line = lead
    for (const word of paragraph.slice(lead.length).split(' ')) {
      const next = line === lead ? lead + word : `${line} ${word}`
      if (Array.from(next).length <= width || line === lead || line === indent) line = next
      else {
        out.push(line)
        line = indent + word
      }
    }
    out.push(line)
  }
  return out.join('\n')
}

/** "9:41" for a number of milliseconds (never negative). */
export function clockText(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000))
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const sec = String(s % 60).padStart(2, '0')
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`
}

/** "2d 3h", "5h 12m", "7m", "40 s" for a number of milliseconds (never negative): a witnessed game's time left. */
export function spanText(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000))
  const d = Math.floor(s / 86_400)
  const h = Math.floor((s % 86_400) / 3600)
  const m = Math.floor((s % 3600) / 60)
  if (d > 0) return `${d}d ${h}h`
  if (h > 0) return `${h}h ${m}m`
  return m > 0 ? `${m}m` : `${s} s`
}

/** A deadline as the terms screens say it: "1 day", "2 days", "3 h", "10 min", "45 s". */
export function deadlineText(ms: number): string {
  const s = Math.round(ms / 1000)
  const unit = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`
  if (s % 86_400 === 0) return unit(s / 86_400, 'day')
  if (s % 3600 === 0) return `${s / 3600} h`
  if (s % 60 === 0) return `${s / 60} min`
  return `${s} s`
}

/** Names a ship by its type and identity. */
export type ShipNamer = (type: ShipType, id: number) => string

/** A ship named as the wire carries it: type and identity (SPEC §3.2 writes the identity even for a lone ship). */
export const WIRE_NAME: ShipNamer = (type, id) => `${type}${id}`

/** The legal fleets of a ruleset (no continued-match allowance), enumerated once per ruleset. */
const FLEETS = new Map<string, readonly FleetCounts[]>()
function fleetsOf(ruleset: Ruleset): readonly FleetCounts[] {
  const key = formatRuleset(ruleset)
  let fleets = FLEETS.get(key)
  if (fleets === undefined) {
    if (FLEETS.size >= 16) FLEETS.clear()
    FLEETS.set(key, (fleets = legalFleets(ruleset, 0)))
  }
  return fleets
}

/**
 * The opponent's ships named as the notation names them (NOTATION.md, C-05): the identity only
 * when the player has two or more ships of that type. Their fleet is hidden, so a type goes
 * without its identity when no legal fleet of the ruleset holding every ship they reported
 * destroyed has two of it (always so in a standard fleet); where the count is open, the identity
 * the wire carries is kept. Display only: the wire and the records are unchanged.
 */
export function opponentShipNames(ruleset: Ruleset, history: readonly TurnSummary[]): ShipNamer {
  const reported = new Map<ShipType, number>()
  for (const t of history)
    for (const d of t.theirResults.destroyed) reported.set(d.type, Math.max(reported.get(d.type) ?? 0, d.id))
  const fleets = fleetsOf(ruleset).filter((f) => [...reported].every(([type, id]) => (f[type] ?? 0) >= id))
  const several = (type: ShipType): boolean => fleets.length === 0 || fleets.some((f) => (f[type] ?? 0) >= 2)
  return (type, id) => (id === 1 && !several(type) ? type : `${type}${id}`)
}

/** A revealed fleet's ships named as its setup names them (C-05). */
export function fleetShipNames(setup: readonly { readonly type: ShipType }[]): ShipNamer {
  return (type, id) => formatShipName(type, id, setup.filter((s) => s.type === type).length)
}

/** The opponent's ships this player saw destroyed (their destruction reports), by name. */
export function theirShipsSunk(history: readonly TurnSummary[], name: ShipNamer = WIRE_NAME): string[] {
  return history.flatMap((t) => t.theirResults.destroyed.map((d) => name(d.type, d.id)))
}

/** Opponent ship cells this player destroyed, as far as the answers show (hits and reported ships). */
export function theirCellsDestroyed(history: readonly TurnSummary[]): number {
  const cells = new Set<string>()
  for (const t of history) {
    for (const [i, a] of [...t.theirResults.beams.flat(), ...t.theirResults.strikes].entries()) {
      const target = [...t.myAspects.beams.flat(), ...t.myAspects.strikes][i]
      if (a.result === 'hit' && target !== undefined) cells.add(target)
      for (const e of a.explosions.slice(1)) cells.add(e)
    }
    for (const d of t.theirResults.destroyed) for (const c of d.cells) cells.add(c.cell)
  }
  return cells.size
}

export interface PanelInput {
  readonly role: Role
  readonly opponent: string | undefined
  readonly turn: number
  readonly state: PlayerState
  readonly history: readonly TurnSummary[]
  /**
   * Milliseconds left for this move, if a deadline runs; while the opponent must move first, the
   * time the move will have, since its clock starts only when their envelope arrives (SPEC §6.6).
   */
  readonly timeLeft: number | { readonly waiting: number } | undefined
  /** How the opponent's ships are named (default: as the wire carries them). */
  readonly theirName?: ShipNamer
}

/** The status panel printed above each turn's prompt. */
export function statusPanel(p: PanelInput, width = SCREEN_COLUMNS): string[] {
  const total = p.state.ships.reduce((n, s) => n + s.cells.length, 0)
  const mine = remainingMateriel(p.state)
  const sunk = p.state.ships.filter((_, i) => isShipDestroyed(p.state, i)).map((s) => s.name)
  const afloat = p.state.ships.filter((_, i) => !isShipDestroyed(p.state, i)).map((s) => s.name)
  const theirs = theirShipsSunk(p.history, p.theirName)
  const who = p.role === 'A' ? 'A (the host)' : 'B (the joiner)'
  const against = p.opponent === undefined ? '' : ` against ${shortId(p.opponent)}`
  const clock =
    p.timeLeft === undefined
      ? ''
      : typeof p.timeLeft === 'number'
        ? `; ${clockText(p.timeLeft)} left for this move`
        : `; ${clockText(p.timeLeft.waiting)} for this move, from when your opponent's move arrives`
  return [
    `Turn ${p.turn}. You are ${who}${against}${clock}.`,
    `  You: ${mine} of ${total} ship cells intact; afloat ${afloat.join(' ') || 'none'}${sunk.length > 0 ? `; sunk ${sunk.join(' ')}` : ''}.`,
    `  Them: ${theirCellsDestroyed(p.history)} of their ship cells destroyed by you; sunk ${theirs.length > 0 ? theirs.join(' ') : 'none yet'}.`,
  ].map((l) => wrap(l, width, '    '))
}

/** A PeerId shortened for display (its last eight characters); any other name as it is. */
export function shortId(peer: string): string {
  return /^(12D3KooW|Qm)\w{30,}$/.test(peer) ? `…${peer.slice(-8)}` : peer
}

/** What one action does, in words. */
export function describeAction(a: Action): string {
  switch (a.kind) {
    case 'strike':
      return `strike ${formatCell(a.target)}`
    case 'beam':
      return `beam from ${formatCell(a.ends[0])} to ${formatCell(a.ends[1])}${a.tag === undefined ? '' : ` (${a.tag.type}${a.tag.id ?? ''})`}`
    case 'row':
      return `beam along the row ${rowCells(a.row).map(formatCell).join(' ')}`
    case 'missile':
      return `missile launched from ${formatPartial(a.launch)} at ${formatCell(a.target)}`
    case 'kamikaze':
      // 2.6.1 §4.5.3: the launch cell alone becomes destroyed; the ship's other cells stay as they are.
      return `kamikaze strike by the ship at ${formatCell(a.launch)} on ${formatCell(a.target)} (only its cell ${formatCell(a.launch)} is destroyed)`
    case 'scan':
      return `scan ${formatCell(a.target)}`
  }
}

/** What a whole record will do, for the confirmation before it is signed. */
export function describeRecord(actions: readonly Action[]): string {
  if (actions.length === 0) return 'nothing this turn'
  return actions.map(describeAction).join('; ')
}

/** Each ship's shape in words (2.6.1 §6.2-§6.10; classic §6.1-§6.5). */
const SHAPES: Record<Variant, Partial<Record<ShipType, string>>> = {
  '2.6.1': {
    DS: '8 cells, each next to two others, holding a 2x2x2 cube or a 3x2x1 block',
    KC: '6 cells in a 3x2x1 block',
    FS: '4 cells in a 2x2 square',
    PC: '4 cells in a row along one line of the space',
    MD: '3 cells in a straight line, each a missile',
    HS: '2 adjacent cells, a scanner',
    LS: '1 cell, a scanner',
    AG: '2 adjacent cells, each a missile',
    LG: '1 cell, a missile',
  },
  classic: {
    DS: '8 cells in a 2x2x2 cube',
    KC: '6 cells in a 3x2x1 block',
    FS: '4 cells in a 2x2 square',
    MD: '3 cells in a straight line, each a missile',
    HF: '2 adjacent cells',
  },
}

/** The ship types of the ruleset's variant, one line each: code, name, shape (the fleet guide). */
export function shipGuide(ruleset: Ruleset): string[] {
  return (Object.entries(SHAPES[ruleset.variant]) as [ShipType, string][]).map(
    ([t, shape]) =>
      `  ${t.padEnd(3)}${SHIP_TYPES[t].name}: ${t === 'PC' && !ruleset.strictPatrolCruiser ? GAPPED_PC : shape}`,
  )
}

/** C-09: unless `strictPatrolCruiser` is agreed, a patrol cruiser may also be a bar with a gap. */
const GAPPED_PC =
  '4 cells along one line of the space: in a row, or cells 1, 2, 4 and 5 of a full line (a gap in the middle)'

/** The in-game help (`?` or `help` at the record prompt). */
export function helpText(ruleset: Ruleset): string {
  return [
    'How to play (rules 2.6.1; the full rules are in the project):',
    '  Each side hides a fleet in a 5x5x5 space. A cell is a colour R O Y G B, a letter v w x y z and a',
    '  number 1-5, as in Rv1. Each turn both sides record their actions at once; a strike that hits',
    '  destroys a ship cell, and a ship whose cells are all destroyed is sunk. The game ends when a',
    '  fleet is destroyed, when nobody can act, or at the turn limit; more intact ship cells wins.',
    'Ship types:',
    ...shipGuide(ruleset),
    'Actions, as you type them (separate with spaces):',
    '  Rv1            a conventional strike on Rv1 (your fleet gives a number of them each turn)',
    '  bRv1Rv3        a death star beam through three cells in a line, written by its two end cells',
    '  mRv2 Ox3       a missile fired from your missile ship at Rv2 onto Ox3',
    '  kGz5 Bx1       a kamikaze strike on Bx1 launched from Gz5: only your cell Gz5 is destroyed',
    '  sYw4           a scan of Yw4 (scouts): empty or ship, without destroying anything',
    '  -              nothing this turn',
    '  A beam hits three cells in a straight line, in the same direction as two undamaged cells of the',
    '  death star: along the colours, the letters or the numbers, or diagonally across two or three of',
    '  them (13 directions). Two hits that are not next to each other burn the beam out.',
    'Commands: ? or help (this); history (every turn so far) or turn N (one); say TEXT (a line of',
    '  chat to a person: not signed, not kept);',
    '  resign (give up the game: you lose); draw RECORD (your record with an offer of a draw, e.g.',
    '  draw Rv1 Rv2; draw alone, then the record, does the same), which your opponent accepts or',
    '  declines by recording a move (bots always play on); accept (take a draw offered to you, instead',
    '  of your record; both sides then reveal and nobody wins).',
  ].join('\n')
}

/**
 * The result, said to the player who is `me`. Only resignation, not revealing and a proven
 * offence lose; a game stopped at a deadline is adjudicated on the turns both committed (SPEC
 * §12.7, DESIGN §1 goal 4: between two parties time is not evidence), and a result that rests on
 * an envelope the other side may still hold is said to be provisional.
 */
export function outcomeLine(v: Verdict, me: Role): string {
  const them = me === 'A' ? 'B' : 'A'
  const score = (s: readonly [number, number]): string => (me === 'A' ? `${s[0]}-${s[1]}` : `${s[1]}-${s[0]}`)
  const result = (w: Role | 'draw', s: readonly [number, number]): string =>
    w === 'draw' ? `A draw, ${score(s)}.` : w === me ? `You win ${score(s)}.` : `You lose ${score(s)}.`
  const who = (r: Role): string => (r === me ? 'you' : `your opponent (${them})`)
  switch (v.status) {
    case 'complete':
      // Version 4 (SPEC §12.7): an accepted offer is a draw whatever the score stood at.
      return v.reason === 'agreed-draw'
        ? `A draw by agreement after turn ${v.turn} (${score(v.scores)}).`
        : result(v.winner, v.scores)
    case 'resigned':
      return (
        (v.by === me ? 'You resigned: your opponent wins.' : 'Your opponent resigned: you win.') +
        (v.provisional ? ` ${PROVISIONAL_NOTE}` : '')
      )
    case 'offence':
      return v.offence.offender === me
        ? `Your side broke a rule (${v.offence.class}): you lose by forfeit.`
        : `Your opponent cheated (${v.offence.class} in turn ${v.offence.turn}): you win by forfeit.`
    case 'abandoned': {
      const settle = v.provisional ? ` ${PROVISIONAL_NOTE}` : ''
      // PROTOCOL-4.md §4.4 rule 5: the notary's receipts show the owed step's deadline passed before the claim.
      if (v.how === 'time')
        return v.by === me
          ? `You lost on time in turn ${v.turn}: your move was not receipted by its deadline, and your opponent claimed.`
          : `Your opponent (${them}) lost on time in turn ${v.turn}: its move was not receipted by its deadline. You win.`
      if (v.how === 'no-reveal') {
        return v.by === me
          ? `Your reveal is not in this transcript: your opponent claims the win.${settle}`
          : `You claim the win: your opponent stopped answering and has not revealed. It stands unless their transcript shows they answered in time.${settle}`
      }
      return v.by === me
        ? `You ${stoppedIn(v.turn)} while your move was due: your opponent wins.${settle}`
        : `Your opponent (${them}) ${stoppedIn(v.turn)} while its move was due: you win.${settle}`
    }
    case 'adjudicated': {
      const stopped =
        v.stoppedBy.length === 2
          ? 'both of you'
          : v.stoppedBy.length === 1 && v.stoppedBy[0] !== undefined
            ? who(v.stoppedBy[0])
            : 'it'
      const due =
        v.due === undefined ? '' : v.due === me ? ' while your move was due' : ' while your opponent’s move was due'
      const turns = `${v.turn} turn${v.turn === 1 ? '' : 's'}`
      return `Adjudicated: ${stopped} ${stoppedIn(v.stopTurn)}${due}, so the game is scored on the ${turns} both committed. ${result(v.winner, v.scores)}`
    }
    case 'incomplete':
      return `No result: ${v.detail}.`
    case 'unreadable':
      return 'No result: the transcript is unreadable.'
  }
}

/** How the result and the list of games say when a game stopped before its end. */
function stoppedIn(turn: number): string {
  return `stopped in turn ${turn}`
}

/**
 * The turn a game ended in, for a game that ended before its end, in the words of its result
 * (`outcomeLine`): "stopped in turn 3" (adjudicated, abandoned), "resigned in turn 2"; undefined
 * for a game that ran to its end, an offence, or no result.
 */
export function endedInTurn(v: Verdict): string | undefined {
  switch (v.status) {
    case 'adjudicated':
      return stoppedIn(v.stopTurn)
    case 'abandoned':
      return v.how === 'time' ? `lost on time in turn ${v.turn}` : stoppedIn(v.turn)
    case 'resigned':
      return `resigned in turn ${v.turn}`
    default:
      return undefined
  }
}

/**
 * What an unwitnessed game's terms mean, said before the game (DESIGN §1 goal 4, SPEC §12.7,
 * §13.3): timing is not evidence between two parties, so a deadline ends a game by adjudication.
 */
export const UNWITNESSED_TERMS =
  'Unwitnessed game: either player can end it at any moment by stopping; it is then adjudicated on the turns both committed, and nobody loses on time. Resigning, not revealing and a proven offence lose.'

/**
 * PROTOCOL-4.md §4: what a witnessed game's clock means, for the terms screens: `notary` is its
 * address (the key is in the terms); undefined for an unwitnessed game.
 */
export function witnessText(notary: readonly string[] | undefined): string {
  if (notary === undefined) return UNWITNESSED_TERMS
  const id = /\/p2p\/([^/]+)$/.exec(notary[0] ?? '')?.[1] ?? '?'
  return `Witnessed by notary ${id}: it receipts every envelope with its time, keeps them encrypted for the two players, and learns no move; the receipts it signs are in both transcripts. Its clock decides: a player who does not move by the deadline loses on time once the other claims, whoever is ahead. Quitting pauses the game (resume it later); only a deadline, a resignation or a proven offence ends it.`
}

/** How a provisional result is settled (SPEC §12.7): the two nodes meet again, or the files are merged. */
export const PROVISIONAL_NOTE =
  'This result is provisional until the two nodes meet again: both running resume on the game settles it, as does verify on both transcripts.'

/**
 * A chat line after `prefix` (who said it), safe to print: the wire already refuses control characters (SPEC §2.4);
 * format characters (bidirectional overrides, zero-width joiners) could still disguise the text
 * on a terminal, so they are shown as their code points.
 */
export function chatLine(prefix: string, text: string): string {
  const shown = text.replace(
    /\p{Cf}/gu,
    (c) => `<U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}>`,
  )
  return wrap(`${prefix} ${shown}`)
}

const AXIS_WORDS: Record<string, string> = { colour: 'colours', letter: 'letters', number: 'numbers' }

/**
 * A death star's beam directions in words (2.6.1 §8.2, C-15): the straight ones by the axis they
 * run along, the diagonals counted (the help explains them). Directions come as the referee
 * writes them: signed axes such as `+number` or `+colour-letter`.
 */
export function beamWords(directions: readonly string[]): string {
  if (directions.length === 13) return 'any direction: along the colours, letters or numbers, or 10 diagonals'
  // Classic beams are written in words already ("rows through it").
  if (directions.some((d) => !/^([+-](colour|letter|number))+$/.test(d))) return directions.join(', ')
  const straight = directions
    .filter((d) => (d.match(/[+-]/g) ?? []).length === 1)
    .map((d) => AXIS_WORDS[d.slice(1)] ?? d)
  const diagonals = directions.length - straight.length
  const along =
    straight.length === 0
      ? ''
      : `along the ${straight.length === 1 ? straight[0] : `${straight.slice(0, -1).join(', ')} or ${straight.at(-1)}`}`
  const across = diagonals === 0 ? '' : `${diagonals} diagonal${diagonals === 1 ? '' : 's'}`
  return along !== '' && across !== '' ? `${along}, or ${across}` : along + across
}
