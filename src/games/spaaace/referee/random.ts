/**
 * Random open game records for testing referees: legal order sets, sets that cannot take effect
 * (S-38), malformed ones (S-37), withheld, mismatched and equivocated reveals and missing lines,
 * all drawn from an injected seeded source, so a seed always writes the same record.
 */
import { formatOrderSet } from '../rules/orders.js'
import { genesis, sectorCount } from '../rules/state.js'
import { playTick } from '../rules/tick.js'
import {
  DEFAULT_TERMS,
  EMPTY_ORDERS,
  LIMITS,
  type AllianceOrder,
  type GameState,
  type OrderSet,
  type Terms,
} from '../rules/types.js'
import { FORMAT_LINE, submissionOf } from './record.js'

/** A source of numbers in [0, 1). */
export interface Rng {
  readonly next: () => number
}

/** A seeded source: the seed hashed (xmur3) into sfc32's state. Deterministic, not secret. */
export function seededRng(seed: string): Rng {
  let h = 1779033703 ^ seed.length
  for (let i = 0; i < seed.length; i++) {
    h = Math.imul(h ^ seed.charCodeAt(i), 3432918353)
    h = (h << 13) | (h >>> 19)
  }
  const word = (): number => {
    h = Math.imul(h ^ (h >>> 16), 2246822507)
    h = Math.imul(h ^ (h >>> 13), 3266489909)
    return (h ^= h >>> 16) >>> 0
  }
  let a = word()
  let b = word()
  let c = word()
  let d = word()
  return {
    next: () => {
      a >>>= 0
      b >>>= 0
      c >>>= 0
      d >>>= 0
      let t = (a + b) | 0
      a = b ^ (b >>> 9)
      b = (c + (c << 3)) | 0
      c = (c << 21) | (c >>> 11)
      d = (d + 1) | 0
      t = (t + d) | 0
      c = (c + t) | 0
      return (t >>> 0) / 4294967296
    },
  }
}

const NAMES = [
  'alice',
  'bob',
  'carol',
  'dave',
  'erin',
  'frank',
  'grace',
  'heidi',
  'ivan',
  'judy',
  'mallory',
  'niaj',
  'olivia',
  'peggy',
  'rupert',
  'sybil',
] as const
/** Sets that S-37 makes malformed, among them Agora's -10 bid. */
const MALFORMED = [
  'bid -10',
  'buy 0',
  'repair 21',
  'move',
  'attack',
  'fly 3',
  'buy 2; buy 2',
  'claim; claim',
  'bid 3;',
  '',
] as const

function int(rng: Rng, lo: number, hi: number): number {
  return lo + Math.floor(rng.next() * (hi - lo + 1))
}

function pick<T>(rng: Rng, items: readonly T[]): T {
  const x = items[int(rng, 0, items.length - 1)]
  if (x === undefined) throw new RangeError('pick from nothing')
  return x
}

/** Terms drawn within their bounds, kept small so that games are short and eventful (S-90). */
function randomTerms(rng: Rng): Terms {
  return {
    ...DEFAULT_TERMS,
    coins: int(rng, 0, 30),
    income: int(rng, 0, 3),
    battleCooldown: int(rng, 0, 2),
    rematchTicks: int(rng, 1, 4),
    withholdFine: int(rng, 0, 8),
    maxTicks: int(rng, 4, 24),
    absentTicks: int(rng, 2, 5),
  }
}

/** Orders a player might send, knowing the state: mostly sensible, sometimes futile (S-38). */
function randomOrders(rng: Rng, s: GameState, self: number): OrderSet {
  const ship = s.ships[self]
  const me = s.players[self]
  if (ship === undefined || me === undefined) return EMPTY_ORDERS
  const n = s.players.length
  const others = [...s.players.keys()].filter((i) => i !== self)
  const alliances: AllianceOrder[] =
    rng.next() < 0.15 ? [{ kind: rng.next() < 0.6 ? 'ally' : 'break', other: pick(rng, others) }] : []
  const awaiting = s.awaiting.some((b) => b.a === self || b.b === self)
  let at = ship.sector
  const move: number[] = []
  if (rng.next() < 0.5) {
    for (let k = int(rng, 1, 3); k > 0; k--) {
      at = Math.min(sectorCount(n), Math.max(1, at + (rng.next() < 0.5 ? -1 : 1)))
      move.push(at)
    }
  }
  const near = others.filter((i) => s.ships[i]?.sector === at)
  const attack = rng.next() < 0.6 && near.length > 0 ? pick(rng, near) : rng.next() < 0.1 ? pick(rng, others) : null
  return {
    repair: ship.armour < LIMITS.maxArmour && rng.next() < 0.5 ? int(rng, 1, LIMITS.maxArmour - ship.armour + 1) : null,
    buy: rng.next() < 0.25 ? int(rng, 1, 6) : null,
    move: move.length > 0 ? move : null,
    attack,
    bid: awaiting || rng.next() < 0.05 ? int(rng, 0, Math.min(LIMITS.maxOrderN, ship.energy + 2)) : null,
    claim: Math.abs(me.fame) === LIMITS.maxFame || rng.next() < 0.02,
    alliances,
  }
}

/** A whole random record of `players` players (3..16), ending where its game ends (S-50, S-51, S-82). */
export function randomRecord(rng: Rng, players: number): string {
  const terms = randomTerms(rng)
  let state = genesis(players, terms)
  const roster = NAMES.slice(0, players)
  const out = [
    FORMAT_LINE,
    `terms coins=${terms.coins} income=${terms.income} battleCooldown=${terms.battleCooldown} rematchTicks=${terms.rematchTicks} withholdFine=${terms.withholdFine} maxTicks=${terms.maxTicks} absentTicks=${terms.absentTicks}`,
  ]
  for (const name of roster) out.push(`player ${name}`)
  while (!state.ended) {
    out.push(`tick ${state.tick + 1}`)
    const texts = roster.map((_, i): string | null => {
      const r = rng.next()
      if (state.players[i]?.status === 'removed') return r < 0.1 ? 'move 1' : null
      if (r < 0.06) return null
      if (r < 0.1) return 'withheld'
      if (r < 0.11) return 'mismatch'
      if (r < 0.115) return 'equivocated'
      if (r < 0.14) return pick(rng, MALFORMED)
      return formatOrderSet(randomOrders(rng, state, i), roster)
    })
    for (const [i, text] of texts.entries())
      if (text !== null) out.push(`${roster[i] ?? ''}: ${text}${rng.next() < 0.05 ? '   # a comment' : ''}`)
    const subs = texts.map((text, i) =>
      text === null || state.players[i]?.status === 'removed'
        ? { kind: 'missing' as const }
        : submissionOf(text, roster, i),
    )
    state = playTick(state, subs).state
  }
  return `${out.join('\n')}\n`
}
