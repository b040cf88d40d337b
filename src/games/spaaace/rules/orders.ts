/**
 * S-37: the text of an order set, parsed. A set that is not well formed is malformed, with the
 * reason; whether a well-formed order can take effect is decided at its step (S-38), never here.
 */
import { EMPTY_ORDERS, LIMITS, type AllianceOrder, type OrderSet, type PlayerIndex } from './types.js'

/** The order words (S-30..S-36), with how many arguments each takes. */
export const ORDER_WORDS = ['repair', 'ally', 'break', 'buy', 'move', 'attack', 'bid', 'claim'] as const
export type OrderWord = (typeof ORDER_WORDS)[number]

/** A number as the record writes it: `-?(0|[1-9][0-9]*)`. */
const NUMBER = /^-?(0|[1-9][0-9]*)$/

export type ParsedOrders =
  { readonly ok: true; readonly orders: OrderSet } | { readonly ok: false; readonly reason: string }

function isOrderWord(w: string): w is OrderWord {
  return (ORDER_WORDS as readonly string[]).includes(w)
}

/** A number in min..max, or the reason it is not one. */
function numberIn(token: string, min: number, max: number, what: string): number | string {
  if (!NUMBER.test(token)) return `${what} "${token}" is not a number`
  const n = Number(token)
  if (n < min || n > max) return `${what} ${token} is outside ${min}..${max}`
  return n
}

/**
 * Parses `item; item; ...` for player `self` of `roster` in a galaxy of `sectors` sectors. The
 * whole text is one order set; `''` (a line `LABEL:` with nothing after it) is an empty item and
 * so malformed, the empty set being written `-` by the record, which the caller handles.
 */
export function parseOrderSet(
  text: string,
  roster: readonly string[],
  self: PlayerIndex,
  sectors: number,
): ParsedOrders {
  const fail = (reason: string): ParsedOrders => ({ ok: false, reason: `${reason} (S-37)` })
  const player = (token: string): PlayerIndex | string => {
    const i = roster.indexOf(token)
    if (i < 0) return `"${token}" names no player of the roster`
    if (i === self) return `"${token}" names its author`
    return i
  }
  let repair: number | null = null
  let buy: number | null = null
  let move: number[] | null = null
  let attack: PlayerIndex | null = null
  let bid: number | null = null
  let claim = false
  const alliances: AllianceOrder[] = []
  for (const raw of text.split(';')) {
    const tokens = raw
      .trim()
      .split(/\s+/)
      .filter((t) => t !== '')
    const [word, ...args] = tokens
    if (word === undefined) return fail('an empty item')
    if (!isOrderWord(word)) return fail(`unknown order "${word}"`)
    const arity = word === 'claim' ? 0 : word === 'move' ? -1 : 1
    if (arity === 0 && args.length > 0) return fail(`"${word}" takes no argument`)
    if (arity === 1 && args.length !== 1) return fail(`"${word}" takes one argument, not ${args.length}`)
    if (arity === -1 && args.length === 0) return fail('"move" needs a path of at least one sector')
    const arg = args[0] ?? ''
    switch (word) {
      case 'repair':
      case 'buy': {
        const n = numberIn(arg, 1, LIMITS.maxOrderN, `${word} N`)
        if (typeof n === 'string') return fail(n)
        if ((word === 'repair' ? repair : buy) !== null) return fail(`more than one "${word}"`)
        if (word === 'repair') repair = n
        else buy = n
        break
      }
      case 'bid': {
        const n = numberIn(arg, 0, LIMITS.maxOrderN, 'bid N')
        if (typeof n === 'string') return fail(n)
        if (bid !== null) return fail('more than one "bid"')
        bid = n
        break
      }
      case 'move': {
        const path: number[] = []
        for (const token of args) {
          const r = numberIn(token, 1, sectors, 'rank')
          if (typeof r === 'string') return fail(r)
          path.push(r)
        }
        if (move !== null) return fail('more than one "move"')
        move = path
        break
      }
      case 'attack': {
        const q = player(arg)
        if (typeof q === 'string') return fail(q)
        if (attack !== null) return fail('more than one "attack"')
        attack = q
        break
      }
      case 'ally':
      case 'break': {
        const q = player(arg)
        if (typeof q === 'string') return fail(q)
        if (alliances.some((o) => o.other === q)) return fail(`more than one "ally"/"break" naming "${arg}"`)
        alliances.push({ kind: word, other: q })
        break
      }
      case 'claim':
        if (claim) return fail('more than one "claim"')
        claim = true
        break
    }
  }
  return { ok: true, orders: { ...EMPTY_ORDERS, repair, buy, move, attack, bid, claim, alliances } }
}

/** The canonical text of a well-formed order set (`-` when empty), as the record writes it. */
export function formatOrderSet(orders: OrderSet, roster: readonly string[]): string {
  const items: string[] = []
  const name = (i: PlayerIndex): string => roster[i] ?? String(i)
  for (const a of orders.alliances) items.push(`${a.kind} ${name(a.other)}`)
  if (orders.repair !== null) items.push(`repair ${orders.repair}`)
  if (orders.buy !== null) items.push(`buy ${orders.buy}`)
  if (orders.move !== null) items.push(`move ${orders.move.join(' ')}`)
  if (orders.attack !== null) items.push(`attack ${name(orders.attack)}`)
  if (orders.bid !== null) items.push(`bid ${orders.bid}`)
  if (orders.claim) items.push('claim')
  return items.length === 0 ? '-' : items.join('; ')
}
