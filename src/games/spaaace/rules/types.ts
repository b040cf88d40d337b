/**
 * Spaaace! (rules/spaaace.md): the types and tables of the rules engine. Players are named by
 * their roster index (S-01) everywhere in the engine; labels and keys belong to the record and
 * the protocol.
 */

/** Fixed quantities of the rules (S-01, S-21, S-22, S-37, S-43). */
export const LIMITS = {
  minPlayers: 3,
  maxPlayers: 16,
  /** S-21, S-22. */
  maxArmour: 10,
  /** S-21, S-22. */
  maxEnergy: 20,
  /** S-43. */
  maxFame: 10,
  /** S-37: N of `repair` and `buy` is 1..20, of `bid` 0..20. */
  maxOrderN: 20,
  /** S-70 step 2: a pilotable ship's energy per tick. */
  tickEnergy: 2,
  /** S-32: coins per point of energy. */
  energyPrice: 2,
  /** S-30: coins per point of armour. */
  armourPrice: 1,
  /** S-50: a claim wins at the end of tick t + 2. */
  claimNotice: 2,
} as const

/** The numeric terms of a game with their defaults and bounds (S-24, S-40, S-51, S-62, S-81, S-11). */
export const NUMERIC_TERMS = {
  coins: { default: 10, min: 0, max: 1000, rule: 'S-24' },
  income: { default: 1, min: 0, max: 100, rule: 'S-24' },
  battleCooldown: { default: 1, min: 0, max: 10, rule: 'S-40' },
  rematchTicks: { default: 3, min: 1, max: 20, rule: 'S-40' },
  withholdFine: { default: 5, min: 0, max: 1000, rule: 'S-62' },
  maxTicks: { default: 60, min: 1, max: 1000, rule: 'S-51' },
  absentTicks: { default: 3, min: 1, max: 10, rule: 'S-81' },
  tickMs: { default: 0, min: 1, max: 2_592_000_000, rule: 'S-11' },
} as const
export type NumericTerm = keyof typeof NUMERIC_TERMS

/** The options, off by default (S-11, S-50). */
export const OPTIONS = ['wormhole', 'infamyWins'] as const
export type OptionTerm = (typeof OPTIONS)[number]

/** The terms fixed at genesis (S-90). */
export interface Terms {
  readonly coins: number
  readonly income: number
  readonly battleCooldown: number
  readonly rematchTicks: number
  readonly withholdFine: number
  readonly maxTicks: number
  readonly absentTicks: number
  readonly wormhole: boolean
  readonly infamyWins: boolean
  /** S-11: the start of tick 1 in milliseconds since the epoch (UTC); required iff `wormhole`. */
  readonly start: number | null
  /** S-11: the length of a tick in milliseconds; required iff `wormhole`. */
  readonly tickMs: number | null
}

export const DEFAULT_TERMS: Terms = {
  coins: NUMERIC_TERMS.coins.default,
  income: NUMERIC_TERMS.income.default,
  battleCooldown: NUMERIC_TERMS.battleCooldown.default,
  rematchTicks: NUMERIC_TERMS.rematchTicks.default,
  withholdFine: NUMERIC_TERMS.withholdFine.default,
  maxTicks: NUMERIC_TERMS.maxTicks.default,
  absentTicks: NUMERIC_TERMS.absentTicks.default,
  wormhole: false,
  infamyWins: false,
  start: null,
  tickMs: null,
}

/** A player's index in the roster (S-01). */
export type PlayerIndex = number

/** S-31: a declaration of alliance made or withdrawn. */
export interface AllianceOrder {
  readonly kind: 'ally' | 'break'
  readonly other: PlayerIndex
}

/** A well-formed order set (S-30..S-37): at most one of each order but `ally`/`break`. */
export interface OrderSet {
  readonly repair: number | null
  readonly buy: number | null
  /** Ranks, never empty when present (S-37). */
  readonly move: readonly number[] | null
  readonly attack: PlayerIndex | null
  readonly bid: number | null
  readonly claim: boolean
  /** In the order written; at most one per other player (S-37). */
  readonly alliances: readonly AllianceOrder[]
}

export const EMPTY_ORDERS: OrderSet = {
  repair: null,
  buy: null,
  move: null,
  attack: null,
  bid: null,
  claim: false,
  alliances: [],
}

/**
 * What counts of one player in one tick: nothing committed (S-61), withheld (S-62), a reveal that
 * does not match its commitment (S-62, S-80), an equivocation counted in this tick (S-80; the
 * record appendix), a malformed set (S-37), or a well-formed order set.
 */
export type Submission =
  | { readonly kind: 'missing' }
  | { readonly kind: 'withheld' }
  | { readonly kind: 'mismatch' }
  | { readonly kind: 'equivocated' }
  | { readonly kind: 'malformed'; readonly reason: string }
  | { readonly kind: 'orders'; readonly orders: OrderSet }

/** The rule an offence is counted under, lowest first (record appendix: `offences`). */
export const OFFENCE_RULES = ['S-37', 'S-60', 'S-80'] as const
export type OffenceRule = (typeof OFFENCE_RULES)[number]

export interface Ship {
  /** A rank, 1..players + 2 (S-10). */
  readonly sector: number
  readonly armour: number
  readonly energy: number
  /** S-23. */
  readonly engaging: boolean
}

export type PlayerStatus = 'active' | 'removed'

export interface PlayerState {
  readonly coins: number
  readonly fame: number
  readonly status: PlayerStatus
  /** Consecutive ticks counted toward S-81. */
  readonly absent: number
}

/** A space battle (S-40..S-42); `a` initiated it against `b`. */
export interface Battle {
  readonly a: PlayerIndex
  readonly b: PlayerIndex
  readonly initiated: number
  /** The bids as they count after S-41, once resolved. */
  readonly bids: readonly [number, number] | null
  /** The energy each spent (S-42 step 1), once resolved. */
  readonly spent: readonly [number, number] | null
  readonly winner: PlayerIndex | null
  /** S-41: a combatant was removed before it resolved. */
  readonly void: boolean
}

/** An initiation, kept for the limits of S-40 (void battles included). */
export interface Initiation {
  readonly a: PlayerIndex
  readonly b: PlayerIndex
  readonly tick: number
}

/** S-50: a standing claim. */
export interface Claim {
  readonly player: PlayerIndex
  readonly tick: number
  /** The fame claimed at: 10, or -10 under `infamyWins`. */
  readonly fame: number
  /** False once the claimant's ship was not pilotable at the end of a tick of the claim. */
  readonly intact: boolean
}

/** A closing state (S-70), and the state at genesis (tick 0). */
export interface GameState {
  readonly terms: Terms
  /** The last tick resolved; 0 at genesis. */
  readonly tick: number
  readonly ships: readonly Ship[]
  readonly players: readonly PlayerState[]
  /** Standing declarations [author, other], sorted by author then other (S-31). */
  readonly declarations: readonly (readonly [PlayerIndex, PlayerIndex])[]
  /** Battles initiated in `tick`, awaiting bids in the next tick (S-41); void ones excluded. */
  readonly awaiting: readonly Battle[]
  /** Initiations of the last ticks that S-40 looks back on. */
  readonly initiations: readonly Initiation[]
  /** Standing claims, by tick then roster order (S-50). */
  readonly claims: readonly Claim[]
  readonly ended: boolean
  /** In roster order; empty until the end. */
  readonly winners: readonly PlayerIndex[]
}

/** An offence counted in a tick (S-80), one per player. */
export interface Offence {
  readonly player: PlayerIndex
  readonly rule: OffenceRule
}
