/**
 * S-70: one tick resolved, as a reducer. `playTick(state, submissions)` takes a closing state and
 * what counts of each player in the next tick, and returns the next closing state with what
 * happened: the battles of the tick, the offences counted, and events for a words description.
 */
import { fameAfter, initiationRefusal, resolveBattle, type InitiationRefusal } from './battle.js'
import { alliedPairs, clamp, isPilotable, isAdjacent, towardZero, wormholeOf } from './state.js'
import {
  EMPTY_ORDERS,
  LIMITS,
  type Battle,
  type Claim,
  type GameState,
  type Initiation,
  type Offence,
  type OrderSet,
  type PlayerIndex,
  type PlayerState,
  type Ship,
  type Submission,
} from './types.js'

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

/** What happened in a tick, in step order, for a words description. */
export type TickEvent =
  | { readonly kind: 'silent'; readonly player: PlayerIndex }
  | { readonly kind: 'malformed'; readonly player: PlayerIndex; readonly reason: string }
  | {
      readonly kind: 'declare'
      readonly player: PlayerIndex
      readonly other: PlayerIndex
      readonly made: 'ally' | 'break'
      readonly changed: boolean
    }
  | {
      readonly kind: 'repair' | 'buy'
      readonly player: PlayerIndex
      readonly asked: number
      readonly points: number
      readonly why: string | null
    }
  | {
      readonly kind: 'move'
      readonly player: PlayerIndex
      readonly from: number
      readonly entered: readonly number[]
      readonly asked: readonly number[]
      readonly why: string | null
    }
  | { readonly kind: 'battle'; readonly battle: Battle }
  | { readonly kind: 'unused-bid'; readonly player: PlayerIndex }
  | {
      readonly kind: 'penalty'
      readonly player: PlayerIndex
      readonly cause: 'withheld' | 'mismatch' | 'equivocated'
      readonly fine: number
      readonly energyLost: number
    }
  | {
      readonly kind: 'attack'
      readonly player: PlayerIndex
      readonly target: PlayerIndex
      readonly sector: number
      readonly refused: InitiationRefusal | null
    }
  | { readonly kind: 'claim'; readonly player: PlayerIndex; readonly made: boolean; readonly why: string | null }
  | { readonly kind: 'removed'; readonly player: PlayerIndex; readonly cause: 'offence' | 'absence' }
  | { readonly kind: 'void'; readonly battle: Battle }
  | { readonly kind: 'end'; readonly winners: readonly PlayerIndex[]; readonly cause: 'claim' | 'last' | 'max-ticks' }

export interface TickOutcome {
  readonly state: GameState
  /** Battles initiated or resolved in this tick, in order of initiation (void ones only when initiated). */
  readonly battles: readonly Battle[]
  /** Offences counted in this tick, in roster order (S-80). */
  readonly offences: readonly Offence[]
  readonly events: readonly TickEvent[]
}

const OFFENCE_OF = { malformed: 'S-37', mismatch: 'S-60', equivocated: 'S-80' } as const
/** S-61, S-62, S-81 (and the record's `equivocated`): what counts toward absence. */
const ABSENT_KINDS: ReadonlySet<Submission['kind']> = new Set(['missing', 'withheld', 'mismatch', 'equivocated'])

/**
 * Resolves tick `state.tick + 1`. `submissions[i]` is what counts of player i (S-60..S-62); it is
 * ignored for a removed player. Throws only on a call no game can make (a finished game, a
 * submission list of the wrong length).
 */
export function playTick(state: GameState, submissions: readonly Submission[]): TickOutcome {
  if (state.ended) throw new RangeError('the game has ended (S-50, S-51, S-82)')
  const n = state.players.length
  if (submissions.length !== n) throw new RangeError(`${n} submissions expected, not ${submissions.length}`)
  const t = state.tick + 1
  const { terms } = state
  const ships: Mutable<Ship>[] = state.ships.map((s) => ({ ...s }))
  const players: Mutable<PlayerState>[] = state.players.map((p) => ({ ...p }))
  const ship = (i: PlayerIndex): Mutable<Ship> => ships[i] as Mutable<Ship>
  const person = (i: PlayerIndex): Mutable<PlayerState> => players[i] as Mutable<PlayerState>
  const roster = [...players.keys()]
  const active = roster.filter((i) => person(i).status === 'active')
  const sub = (i: PlayerIndex): Submission =>
    person(i).status === 'active' ? (submissions[i] ?? { kind: 'missing' }) : { kind: 'missing' }
  const orders = (i: PlayerIndex): OrderSet => {
    const s = sub(i)
    return s.kind === 'orders' ? s.orders : EMPTY_ORDERS
  }
  const events: TickEvent[] = []
  const offences: Offence[] = []
  for (const i of active) {
    const s = sub(i)
    if (s.kind === 'malformed' || s.kind === 'mismatch' || s.kind === 'equivocated')
      offences.push({ player: i, rule: OFFENCE_OF[s.kind] })
    if (s.kind === 'missing') events.push({ kind: 'silent', player: i })
    if (s.kind === 'malformed') events.push({ kind: 'malformed', player: i, reason: s.reason })
  }

  // Step 1: alliances (S-31, S-04).
  const declared = new Set(state.declarations.map(([p, q]) => `${p},${q}`))
  for (const i of active) {
    for (const o of orders(i).alliances) {
      const key = `${i},${o.other}`
      const had = declared.has(key)
      if (o.kind === 'ally') declared.add(key)
      else declared.delete(key)
      events.push({ kind: 'declare', player: i, other: o.other, made: o.kind, changed: had !== (o.kind === 'ally') })
    }
  }
  const declarationsNow = (): (readonly [PlayerIndex, PlayerIndex])[] =>
    [...declared].map((k) => k.split(',').map(Number) as [number, number]).sort((x, y) => x[0] - y[0] || x[1] - y[1])
  const allied = new Set(alliedPairs(declarationsNow()).map(([p, q]) => `${p},${q}`))

  // Step 2: income (S-24) and energy (S-70 step 2, S-22).
  for (const i of active) person(i).coins += terms.income
  for (const s of ships) if (isPilotable(s)) s.energy = Math.min(LIMITS.maxEnergy, s.energy + LIMITS.tickEnergy)

  // Step 3: repairs then purchases, player by player (S-30, S-32, S-38: cut to coins and caps).
  for (const i of active) {
    const o = orders(i)
    const s = ship(i)
    const p = person(i)
    if (o.repair !== null) {
      const points = s.engaging
        ? 0
        : Math.min(o.repair, LIMITS.maxArmour - s.armour, Math.floor(p.coins / LIMITS.armourPrice))
      s.armour += points
      p.coins -= points * LIMITS.armourPrice
      events.push({
        kind: 'repair',
        player: i,
        asked: o.repair,
        points,
        why: s.engaging
          ? 'engaging'
          : points === 0
            ? s.armour === LIMITS.maxArmour
              ? 'armour full'
              : 'no coins'
            : null,
      })
    }
    if (o.buy !== null) {
      const pilotable = isPilotable(s)
      const points = pilotable
        ? Math.min(o.buy, LIMITS.maxEnergy - s.energy, Math.floor(p.coins / LIMITS.energyPrice))
        : 0
      s.energy += points
      p.coins -= points * LIMITS.energyPrice
      events.push({
        kind: 'buy',
        player: i,
        asked: o.buy,
        points,
        why: !pilotable
          ? 'not pilotable'
          : points === 0
            ? s.energy === LIMITS.maxEnergy
              ? 'energy full'
              : 'too few coins'
            : null,
      })
    }
  }

  // Step 4: moves, all at once; ships never block each other, so one after another is the same (S-33).
  const wormhole = wormholeOf(terms, n, t)
  for (const i of active) {
    const path = orders(i).move
    if (path === null) continue
    const s = ship(i)
    const from = s.sector
    const entered: number[] = []
    let why: string | null = isPilotable(s) ? null : 'not pilotable'
    for (const r of why === null ? path : []) {
      if (!isAdjacent(s.sector, r, wormhole)) {
        why = `${r} is not adjacent to ${s.sector}`
        break
      }
      if (s.energy < 1) {
        why = 'no energy'
        break
      }
      s.energy -= 1
      s.sector = r
      entered.push(r)
    }
    events.push({ kind: 'move', player: i, from, entered, asked: path, why })
  }

  // Step 5: the battles awaiting bids, in order of initiation (S-41, S-42, S-43).
  const battles: Battle[] = []
  const bidUsed = new Set<PlayerIndex>()
  for (const b of state.awaiting) {
    const bidOf = (i: PlayerIndex): number => {
      bidUsed.add(i)
      return orders(i).bid ?? 0
    }
    const bids = [bidOf(b.a), bidOf(b.b)] as const
    const out = resolveBattle(ship(b.a), ship(b.b), bids)
    ships[b.a] = { ...out.ships[0] }
    ships[b.b] = { ...out.ships[1] }
    const winner = out.winner === null ? null : out.winner === 0 ? b.a : b.b
    if (winner !== null) {
      const loser = winner === b.a ? b.b : b.a
      const [wf, lf] = fameAfter(person(winner).fame, person(loser).fame)
      person(winner).fame = wf
      person(loser).fame = lf
    }
    const resolved: Battle = { ...b, bids, spent: out.spent, winner }
    battles.push(resolved)
    events.push({ kind: 'battle', battle: resolved })
  }
  for (const i of active) if (orders(i).bid !== null && !bidUsed.has(i)) events.push({ kind: 'unused-bid', player: i })

  // Step 6: withholding penalties (S-62; the record's `equivocated`: the fame only).
  for (const i of active) {
    const cause = sub(i).kind
    if (cause !== 'withheld' && cause !== 'mismatch' && cause !== 'equivocated') continue
    const s = ship(i)
    const p = person(i)
    const fine = cause === 'equivocated' ? 0 : Math.min(terms.withholdFine, p.coins)
    const energyLost = cause === 'equivocated' ? 0 : s.energy
    p.coins -= fine
    s.energy -= energyLost
    p.fame = towardZero(p.fame)
    events.push({ kind: 'penalty', player: i, cause, fine, energyLost })
  }

  // Step 7: initiations in roster order of the initiators, on the positions after the moves (S-40).
  const lookBack = Math.max(terms.battleCooldown, terms.rematchTicks)
  const initiations: Initiation[] = state.initiations.filter((x) => x.tick >= t - lookBack)
  const started: Mutable<Battle>[] = []
  for (const i of active) {
    const q = orders(i).attack
    if (q === null) continue
    const key = i < q ? `${i},${q}` : `${q},${i}`
    const refused = initiationRefusal(i, q, t, ships, allied.has(key), initiations, terms)
    events.push({ kind: 'attack', player: i, target: q, sector: ship(i).sector, refused })
    if (refused !== null) continue
    initiations.push({ a: i, b: q, tick: t })
    ship(i).engaging = true
    ship(q).engaging = true
    started.push({ a: i, b: q, initiated: t, bids: null, spent: null, winner: null, void: false })
  }

  // Step 8: claims (S-50).
  const claims: Mutable<Claim>[] = state.claims.map((c) => ({ ...c }))
  for (const i of active) {
    if (!orders(i).claim) continue
    const fame = person(i).fame
    const extreme = fame === LIMITS.maxFame || (terms.infamyWins && fame === -LIMITS.maxFame)
    const standing = claims.some((c) => c.player === i)
    const made = extreme && !standing
    if (made) claims.push({ player: i, tick: t, fame, intact: true })
    events.push({ kind: 'claim', player: i, made, why: made ? null : standing ? 'its claim stands' : `fame ${fame}` })
  }

  // Step 9: removals, for offences counted in this tick (S-80) and absences (S-81).
  for (const i of active) {
    const p = person(i)
    p.absent = ABSENT_KINDS.has(sub(i).kind) ? p.absent + 1 : 0
    const offence = offences.some((o) => o.player === i)
    if (!offence && p.absent < terms.absentTicks) continue
    p.status = 'removed'
    const s = ship(i)
    s.armour = 0
    s.engaging = false
    for (const k of [...declared]) if (k.startsWith(`${i},`)) declared.delete(k)
    for (let c = claims.length - 1; c >= 0; c--) if (claims[c]?.player === i) claims.splice(c, 1)
    events.push({ kind: 'removed', player: i, cause: offence ? 'offence' : 'absence' })
    for (const b of started) {
      if (b.void || (b.a !== i && b.b !== i)) continue
      // S-41: void; it still counts as initiated for S-40.
      b.void = true
      ship(b.a).engaging = false
      ship(b.b).engaging = false
      events.push({ kind: 'void', battle: { ...b } })
    }
  }

  // Step 10: the end (S-50, S-82, S-51).
  for (const c of claims) if (!isPilotable(ship(c.player))) c.intact = false
  const stillActive = roster.filter((i) => person(i).status === 'active')
  let winners: PlayerIndex[] = claims
    .filter(
      (c) =>
        c.tick === t - LIMITS.claimNotice &&
        c.intact &&
        person(c.player).status === 'active' &&
        person(c.player).fame === c.fame,
    )
    .map((c) => c.player)
  let cause: 'claim' | 'last' | 'max-ticks' | null = winners.length > 0 ? 'claim' : null
  if (cause === null && stillActive.length < 2) {
    winners = stillActive
    cause = 'last'
  } else if (cause === null && t === terms.maxTicks) {
    const best = Math.max(...stillActive.map((i) => person(i).fame))
    winners = best > 0 ? stillActive.filter((i) => person(i).fame === best) : []
    cause = 'max-ticks'
  }
  winners.sort((x, y) => x - y)
  if (cause !== null) events.push({ kind: 'end', winners, cause })
  const next: GameState = {
    terms,
    tick: t,
    ships: ships.map((s) => ({ ...s, armour: clamp(s.armour, 0, LIMITS.maxArmour) })),
    players,
    declarations: declarationsNow(),
    awaiting: started.filter((b) => !b.void),
    initiations,
    claims: claims.filter((c) => c.tick > t - LIMITS.claimNotice),
    ended: cause !== null,
    winners,
  }
  return { state: next, battles: [...battles, ...started], offences, events }
}
