/**
 * What the Spaaace! terminal game shows one player: the galaxy with every ship placed, every
 * player's coins, fame and status, the alliances, the battles awaiting bids and the claims
 * standing, what this player may order now and how to write it (S-37), and after each tick what
 * happened, in words (`describeTick`). Pure text from the public closing state (every player signs
 * it, S-70): the same screen serves a game against bots and, later, one among peers.
 *
 * Width: lines are wrapped to `columns` (at most SCREEN_COLUMNS, the Spaceships screen's width),
 * at word or item boundaries; only a single word longer than the width can overflow.
 */
import { describeTick } from '../referee/words.js'
import { ORDER_WORDS, type OrderWord } from '../rules/orders.js'
import { recentRefusal } from '../rules/battle.js'
import { alliedPairs, isAdjacent, isPilotable, sectorCount, wormholeOf } from '../rules/state.js'
import type { TickOutcome } from '../rules/tick.js'
import { LIMITS, type GameState, type PlayerIndex } from '../rules/types.js'

/** Lines are wrapped to this many columns at most (as the Spaceships terminal game's). */
export const SCREEN_COLUMNS = 100

/** One place of the roster as the screen names it. */
export interface Seat {
  /** The record's label (rules appendix), the name orders use: `attack bot2`. */
  readonly label: string
  /** The bot's name when a bot plays this seat ("sensible"), else undefined (a person). */
  readonly bot?: string
  /** The name the viewer pinned to this player's PeerId (`spaceships names pin`), if any. */
  readonly name?: string
}

/** What one screen shows: the closing state of the last tick, seen by `viewer`. */
export interface ScreenInput {
  readonly state: GameState
  readonly seats: readonly Seat[]
  readonly viewer: PlayerIndex
  /** Time left before this tick's orders are due, when the game has a deadline (S-02). */
  readonly timeLeftMs?: number
  /**
   * When they are due on the wall clock (epoch ms), among people: said beside the time left, which
   * the screen draws once while the prompt below it counts down (the two had disagreed by the time
   * a player read them).
   */
  readonly dueAt?: number
  readonly columns?: number
}

const width = (columns: number | undefined): number => Math.min(SCREEN_COLUMNS, columns ?? SCREEN_COLUMNS)
const len = (s: string): number => Array.from(s).length

/** Wraps `text` at blanks to `cols` columns; continuation lines start with `indent`. */
export function wrapLine(text: string, cols: number, indent = '    '): string[] {
  const lead = /^ */.exec(text)?.[0] ?? ''
  const out: string[] = []
  let line = lead
  for (const word of text.slice(lead.length).split(' ')) {
    const next = line === lead || line === indent ? line + word : `${line} ${word}`
    if (len(next) <= cols || line === lead || line === indent) line = next
    else {
      out.push(line)
      line = indent + word
    }
  }
  out.push(line)
  return out
}

/** Items joined by `sep`, broken between items (never inside one) to `cols` columns. */
function wrapItems(first: string, items: readonly string[], sep: string, cols: number, indent: string): string[] {
  const out: string[] = []
  let line = first
  let fresh = true
  for (const item of items) {
    const next = fresh ? line + item : line + sep + item
    if (len(next) <= cols || fresh) {
      line = next
      fresh = false
    } else {
      out.push(line.trimEnd())
      line = indent + item
    }
  }
  out.push(line)
  return out
}

/**
 * How the screen names player `i`: "you", or its label with its bot or the name the viewer pinned
 * to it, as "p2 (sensible)" or "p3 (alice)".
 */
export function seatName(seats: readonly Seat[], i: PlayerIndex, viewer: PlayerIndex): string {
  const s = seats[i]
  const label = s?.label ?? `#${i + 1}`
  if (i === viewer) return label === 'you' ? 'you' : `you (${label})`
  const also = s?.bot ?? s?.name
  return also === undefined ? label : `${label} (${also})`
}

/** The short name of the galaxy line: "you" for the viewer, else the label. */
function shortName(seats: readonly Seat[], i: PlayerIndex, viewer: PlayerIndex): string {
  return i === viewer ? 'you' : (seats[i]?.label ?? `#${i + 1}`)
}

/** "1 min 05 s" / "42 s" for a number of milliseconds (never negative). */
export function timeText(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000))
  return s >= 60 ? `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, '0')} s` : `${s} s`
}

/** Each order word's syntax and meaning (S-30..S-36); a new word in ORDER_WORDS fails to compile here. */
const ORDER_GUIDE: Readonly<Record<OrderWord, { readonly syntax: string; readonly what: string }>> = {
  repair: { syntax: 'repair N', what: `raise armour by N (1..${LIMITS.maxOrderN}), 1 coin a point (S-30)` },
  ally: { syntax: 'ally L', what: 'declare alliance with L; allied when L declares too (S-31, S-04)' },
  break: { syntax: 'break L', what: 'withdraw your declaration for L (S-31)' },
  buy: { syntax: 'buy N', what: `buy N energy (1..${LIMITS.maxOrderN}), 2 coins a point (S-32)` },
  move: { syntax: 'move R ...', what: 'move along sectors by rank, each next to the last, 1 energy a step (S-33)' },
  attack: { syntax: 'attack L', what: 'start a battle with L in your sector; bids come next tick (S-34, S-40)' },
  bid: {
    syntax: 'bid N',
    what: `energy to spend in the battle awaiting your bid (0..${LIMITS.maxOrderN}) (S-35, S-42)`,
  },
  claim: { syntax: 'claim', what: 'claim the win at fame 10; it wins two ticks later (S-36, S-50)' },
}

/**
 * The guide to the order syntax (S-37): one line per order word, in ORDER_WORDS's order, how to
 * write a set, and the commands of the prompt.
 */
export function orderGuide(columns?: number): string[] {
  const cols = width(columns)
  const pad = Math.max(...ORDER_WORDS.map((w) => ORDER_GUIDE[w].syntax.length))
  return [
    ...wrapLine(
      'Orders (S-30..S-37): items separated by ";", at most one of each but ally/break; L is a label as shown, R a sector, N a number. A malformed set is an offence (S-37), so the prompt refuses one.',
      cols,
      '  ',
    ),
    ...ORDER_WORDS.flatMap((w) =>
      wrapLine(`  ${ORDER_GUIDE[w].syntax.padEnd(pad)}  ${ORDER_GUIDE[w].what}`, cols, ' '.repeat(pad + 4)),
    ),
    ...wrapLine(
      '  Example: "buy 2; move 3 4; attack bot3". An empty line orders nothing; help shows this guide; quit abandons the game.',
      cols,
      '    ',
    ),
  ]
}

/** The galaxy: every sector by rank with the ships in it, each with armour/energy and its marks. */
function galaxyLines(input: ScreenInput, cols: number): string[] {
  const { state, seats, viewer } = input
  const n = state.players.length
  const items: string[] = []
  for (let r = 1; r <= sectorCount(n); r++) {
    const ships = state.ships.flatMap((sh, i) => {
      if (sh.sector !== r) return []
      const removed = state.players[i]?.status === 'removed'
      const mark = removed ? 'r' : sh.armour === 0 ? 'x' : sh.engaging ? '*' : ''
      return [`${shortName(seats, i, viewer)} ${sh.armour}/${sh.energy}${mark}`]
    })
    items.push(`${r} ${ships.length === 0 ? '.' : ships.join(' ')}`)
  }
  const wormhole = wormholeOf(state.terms, n, state.tick + 1)
  return [
    ...wrapLine(
      `Sectors 1..${sectorCount(n)} (S-10), ships as armour/energy: * engaging (S-23), x defeated (S-22), r removed (S-81)${wormhole === null ? '' : `; this tick ${wormhole[0]} and ${wormhole[1]} are also adjacent (S-11)`}:`,
      cols,
    ),
    ...wrapItems('  ', items, ' | ', cols, '  '),
  ]
}

/** Every player's coins, fame and status, with what stands for it (claims). */
function playerLines(input: ScreenInput, cols: number): string[] {
  const { state, seats, viewer } = input
  const names = state.players.map((_, i) => seatName(seats, i, viewer))
  const pad = Math.max(7, ...names.map(len))
  const rows = state.players.map((p, i) => {
    const claim = state.claims.find((c) => c.player === i)
    // S-81: absences in a row so far, against the number that removes.
    const absent =
      p.status === 'active' && p.absent > 0 ? [`absent ${p.absent} of ${state.terms.absentTicks} (S-81)`] : []
    const notes = [p.status, ...absent, ...(claim === undefined ? [] : ['claim standing'])].join(', ')
    return `  ${(names[i] ?? '').padEnd(pad)}  ${String(p.coins).padStart(5)}  ${String(p.fame).padStart(4)}  ${notes}`
  })
  return [`${'Players'.padEnd(pad + 2)}  coins  fame  status (S-24, S-43, S-03)`, ...rows].flatMap((l) =>
    wrapLine(l, cols, ' '.repeat(pad + 4)),
  )
}

/** Alliances (S-04), declarations not returned (S-31), battles awaiting bids (S-41), claims (S-50). */
function relationLines(input: ScreenInput, cols: number): string[] {
  const { state, seats, viewer } = input
  const name = (i: PlayerIndex): string => shortName(seats, i, viewer)
  const pairs = alliedPairs(state.declarations)
  const allied = new Set(pairs.flatMap(([p, q]) => [`${p},${q}`, `${q},${p}`]))
  const oneWay = state.declarations.filter(([p, q]) => !allied.has(`${p},${q}`))
  const lines = [
    `Alliances (S-04): ${pairs.length === 0 ? 'none' : pairs.map(([p, q]) => `${name(p)} & ${name(q)}`).join('; ')}`,
  ]
  if (oneWay.length > 0)
    lines.push(`Declared, not returned (S-31): ${oneWay.map(([p, q]) => `${name(p)} -> ${name(q)}`).join('; ')}`)
  const battles = state.awaiting.map(
    (b) => `${name(b.a)} against ${name(b.b)} in sector ${state.ships[b.a]?.sector ?? '?'}`,
  )
  lines.push(`Battles awaiting bids this tick (S-41, S-42): ${battles.length === 0 ? 'none' : battles.join('; ')}`)
  const claims = state.claims.map(
    (c) =>
      `${name(c.player)} (made in tick ${c.tick}; ${c.intact ? `wins at the end of tick ${c.tick + LIMITS.claimNotice} if its fame stays ${c.fame} and its ship pilotable` : 'spoilt: its ship was not pilotable'})`,
  )
  lines.push(`Claims (S-50): ${claims.length === 0 ? 'none' : claims.join('; ')}`)
  return lines.flatMap((l) => wrapLine(l, cols))
}

/** What the viewer's orders can do this tick, from its ship and the battles (S-23, S-30..S-41, S-50). */
function mayLines(input: ScreenInput, cols: number): string[] {
  const { state, seats, viewer } = input
  const me = state.players[viewer]
  const ship = state.ships[viewer]
  if (me === undefined || ship === undefined) return []
  if (me.status === 'removed') return wrapLine('You are removed (S-80, S-81): you order nothing more (S-03).', cols)
  const name = (i: PlayerIndex): string => shortName(seats, i, viewer)
  const n = state.players.length
  const out: string[] = [
    `You: sector ${ship.sector}, armour ${ship.armour}/${LIMITS.maxArmour}, energy ${ship.energy}/${LIMITS.maxEnergy}, coins ${me.coins}, fame ${me.fame}.`,
  ]
  // S-81: the tick that would remove the player for absence, said before it comes.
  const left = state.terms.absentTicks - me.absent
  if (me.absent > 0)
    out.push(
      `You have been absent ${me.absent === 1 ? 'the last tick' : `the last ${me.absent} ticks`} (no orders of yours counted, S-61, S-62)${
        left === 1
          ? ': if your orders do not count this tick too, you are removed (S-81).'
          : `; ${left} more in a row remove you (S-81).`
      }`,
    )
  const battle = state.awaiting.find((b) => b.a === viewer || b.b === viewer)
  if (battle !== undefined) {
    const other = battle.a === viewer ? battle.b : battle.a
    out.push(
      `Your battle with ${name(other)} awaits your bid (S-41): "bid N" spends min(N, your ${ship.energy} energy), ${name(other)} has ${state.ships[other]?.energy ?? 0}; whoever spends more wins (S-42); no bid bids 0.`,
    )
  }
  if (ship.engaging)
    out.push(
      'Your ship is engaging (S-23): no repair, purchase or move of yours takes effect this tick (S-30, S-32, S-33).',
    )
  else if (ship.armour === 0)
    out.push(
      'Your ship is defeated (S-22): "repair N" makes it pilotable again (S-30); nothing else it does takes effect.',
    )
  else {
    const wormhole = wormholeOf(state.terms, n, state.tick + 1)
    const next = Array.from({ length: sectorCount(n) }, (_, r) => r + 1).filter((r) =>
      isAdjacent(ship.sector, r, wormhole),
    )
    // S-40: the pilotable ships of this sector that are not allies; cooldowns and moves may still refuse.
    const allies = new Set(
      alliedPairs(state.declarations).flatMap(([p, q]) => (p === viewer ? [q] : q === viewer ? [p] : [])),
    )
    // Nor a ship either fought too recently (S-40's cooldown and rematch, from earlier ticks).
    const here = state.ships.flatMap((sh, i) =>
      i !== viewer &&
      sh.sector === ship.sector &&
      state.players[i]?.status === 'active' &&
      isPilotable(sh) &&
      !allies.has(i) &&
      recentRefusal(viewer, i, state.tick + 1, state.initiations, state.terms) === null
        ? [seats[i]?.label ?? '']
        : [],
    )
    out.push(
      `You may move to ${next.join(' or ')} (1 energy a step, S-33)${here.length === 0 ? '' : `; attack here: ${here.join(', ')} (S-40)`}${
        allies.size === 0
          ? ''
          : `; allied with ${[...allies]
              .sort((a, b) => a - b)
              .map(name)
              .join(', ')}, whom you cannot attack (S-04)`
      }.`,
    )
  }
  const claimAt = state.terms.infamyWins ? [LIMITS.maxFame, -LIMITS.maxFame] : [LIMITS.maxFame]
  if (claimAt.includes(me.fame) && !state.claims.some((c) => c.player === viewer))
    out.push(`Your fame is ${me.fame}: you may claim the win (S-50).`)
  return out.flatMap((l) => wrapLine(l, cols))
}

/** The screen before the viewer orders for tick `state.tick + 1`. */
export function renderScreen(input: ScreenInput): string[] {
  const { state } = input
  const cols = width(input.columns)
  const n = state.players.length
  const active = state.players.filter((p) => p.status === 'active').length
  const next = state.tick + 1
  const head = state.ended
    ? `Spaaace! after tick ${state.tick} of ${state.terms.maxTicks}: the game is over`
    : `Spaaace! tick ${next} of ${state.terms.maxTicks} (S-02, S-51), ${n} players${
        // S-81: a removed player plays no more; the count of those who do (it had read "3 players" on).
        active === n ? '' : `, ${active} active`
      }`
  const clock =
    input.timeLeftMs === undefined || state.ended
      ? ''
      : input.dueAt === undefined
        ? ` · ${timeText(input.timeLeftMs)} left`
        : ` · orders due at ${new Date(input.dueAt).toTimeString().slice(0, 8)} (${timeText(input.timeLeftMs)} left)`
  return [
    ...wrapLine(head + clock, cols),
    ...galaxyLines(input, cols),
    ...playerLines(input, cols),
    ...relationLines(input, cols),
    ...(state.ended ? [] : mayLines(input, cols)),
  ]
}

/** Verbs of describeTick's sentences, as they read after "you". */
const YOU_VERBS: Readonly<Record<string, string>> = {
  declares: 'declare',
  breaks: 'break',
  repairs: 'repair',
  buys: 'buy',
  moves: 'move',
  attacks: 'attack',
  claims: 'claim',
  wins: 'win',
  is: 'are',
}

/**
 * What happened in a tick, in words (`describeTick`, S-70), wrapped to the width. When the
 * viewer's label is "you", its sentences read in the second person ("you move", "your bid").
 */
export function tellTick(
  outcome: TickOutcome,
  seats: readonly Seat[],
  viewer: PlayerIndex,
  columns?: number,
): string[] {
  const cols = width(columns)
  const labels = seats.map((s) => s.label)
  const you = labels[viewer] === 'you'
  const text = describeTick(outcome, labels).trimEnd()
  return text.split('\n').flatMap((raw) => {
    const line = you
      ? raw
          .replace(/\byou's\b/g, 'your')
          .replace(
            /\byou (declares|breaks|repairs|buys|moves|attacks|claims|wins|is)\b/g,
            (_, v: string) => `you ${YOU_VERBS[v] ?? v}`,
          )
          // The referee's words speak of a player as "it"; of this one, as "you".
          .replace(/\byou (withheld|break) its\b/g, 'you $1 your')
          .replace(/^(\s*you are removed .*); its ship\b/, '$1; your ship')
      : raw
    return wrapLine(line, cols, '      ')
  })
}

/** A player's place at the end: fame first (S-51), then roster order. */
export interface StandingRow {
  readonly player: PlayerIndex
  readonly name: string
  readonly fame: number
  readonly coins: number
  readonly status: 'active' | 'removed'
  readonly winner: boolean
}

/** The standings of a closing state: by fame, highest first, ties in roster order. */
export function standings(state: GameState, seats: readonly Seat[], viewer: PlayerIndex): StandingRow[] {
  return state.players
    .map((p, i) => ({
      player: i,
      name: seatName(seats, i, viewer),
      fame: p.fame,
      coins: p.coins,
      status: p.status,
      winner: state.winners.includes(i),
    }))
    .sort((a, b) => b.fame - a.fame || a.player - b.player)
}

/** The standings as lines, then who won (S-50, S-51, S-82). */
export function standingsLines(
  state: GameState,
  seats: readonly Seat[],
  viewer: PlayerIndex,
  columns?: number,
): string[] {
  const cols = width(columns)
  const rows = standings(state, seats, viewer)
  const pad = Math.max(...rows.map((r) => len(r.name)))
  const winners = state.winners.map((w) => seatName(seats, w, viewer))
  const verdict = !state.ended
    ? 'The game did not end: nobody wins.'
    : winners.length === 0
      ? 'Nobody wins.'
      : `${winners.length === 1 ? 'Winner' : 'Winners'}: ${winners.join(', ')}.`
  return [
    `Standings after tick ${state.tick} (fame first, S-43, S-51):`,
    // Places by fame alone (S-51): players of equal fame share a place (1, 1, 3), never ranked by seat.
    ...rows.map(
      (r) =>
        `  ${String(1 + rows.filter((o) => o.fame > r.fame).length).padStart(2)}. ${r.name.padEnd(pad)}  fame ${String(r.fame).padStart(3)}  coins ${String(r.coins).padStart(4)}  ${r.status}${r.winner ? '  winner' : ''}`,
    ),
    verdict,
  ].flatMap((l) => wrapLine(l, cols, ' '.repeat(pad + 6)))
}
