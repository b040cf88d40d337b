/** Genesis and the relations every step uses: sectors (S-10..S-12), pilotable (S-23), allies (S-04). */
import {
  DEFAULT_TERMS,
  LIMITS,
  NUMERIC_TERMS,
  type GameState,
  type PlayerIndex,
  type Ship,
  type Terms,
} from './types.js'

/** S-10: the number of sectors, fixed at genesis. */
export function sectorCount(players: number): number {
  return players + 2
}

/** The first term outside its bounds or inconsistent (S-90, S-11), or null. */
export function termsProblem(terms: Terms): string | null {
  for (const [name, b] of Object.entries(NUMERIC_TERMS)) {
    if (name === 'tickMs') continue
    const v = terms[name as Exclude<keyof typeof NUMERIC_TERMS, 'tickMs'>]
    if (!Number.isInteger(v) || v < b.min || v > b.max)
      return `${name}=${v} is outside ${b.min}..${b.max} (${b.rule}, S-90)`
  }
  if (
    terms.tickMs !== null &&
    (!Number.isInteger(terms.tickMs) ||
      terms.tickMs < NUMERIC_TERMS.tickMs.min ||
      terms.tickMs > NUMERIC_TERMS.tickMs.max)
  ) {
    return `tickMs=${terms.tickMs} is outside ${NUMERIC_TERMS.tickMs.min}..${NUMERIC_TERMS.tickMs.max} (S-11, S-90)`
  }
  if (terms.wormhole && (terms.start === null || terms.tickMs === null))
    return 'the wormhole needs start and tickMs (S-11)'
  return null
}

/** S-01, S-21, S-24: the state at genesis (tick 0). Throws on terms no game can have (S-90). */
export function genesis(players: number, terms: Terms = DEFAULT_TERMS): GameState {
  if (!Number.isInteger(players) || players < LIMITS.minPlayers || players > LIMITS.maxPlayers) {
    throw new RangeError(`a game has ${LIMITS.minPlayers} to ${LIMITS.maxPlayers} players, not ${players} (S-01)`)
  }
  const problem = termsProblem(terms)
  if (problem !== null) throw new RangeError(problem)
  // S-21: created in roster order, each in the empty sector of lowest rank, so player i is in i + 1.
  const ships: Ship[] = Array.from({ length: players }, (_, i) => ({
    sector: i + 1,
    armour: LIMITS.maxArmour,
    energy: LIMITS.maxEnergy,
    engaging: false,
  }))
  return {
    terms,
    tick: 0,
    ships,
    players: Array.from({ length: players }, () => ({
      coins: terms.coins,
      fame: 0,
      status: 'active' as const,
      absent: 0,
    })),
    declarations: [],
    awaiting: [],
    initiations: [],
    claims: [],
    ended: false,
    winners: [],
  }
}

/** S-22. */
export function isDefeated(ship: Ship): boolean {
  return ship.armour === 0
}

/** S-23. */
export function isPilotable(ship: Ship): boolean {
  return !isDefeated(ship) && !ship.engaging
}

/** S-11: the wormhole's pair of ranks during tick t, or null when it is off or opens nothing. */
export function wormholeOf(terms: Terms, players: number, tick: number): readonly [number, number] | null {
  if (!terms.wormhole || terms.start === null || terms.tickMs === null) return null
  const at = new Date(terms.start + (tick - 1) * terms.tickMs)
  const day = at.getUTCDate()
  const month = at.getUTCMonth() + 1
  const sectors = sectorCount(players)
  if (day === month || day > sectors || month > sectors) return null
  return [Math.min(day, month), Math.max(day, month)]
}

/** S-11: whether two ranks are adjacent during a tick whose wormhole is `wormhole`. */
export function isAdjacent(r1: number, r2: number, wormhole: readonly [number, number] | null): boolean {
  if (Math.abs(r1 - r2) === 1) return true
  return wormhole !== null && r1 !== r2 && Math.min(r1, r2) === wormhole[0] && Math.max(r1, r2) === wormhole[1]
}

/** S-04: allied iff a declaration by each of the other stands. */
export function alliedPairs(
  declarations: readonly (readonly [PlayerIndex, PlayerIndex])[],
): (readonly [PlayerIndex, PlayerIndex])[] {
  const has = new Set(declarations.map(([p, q]) => `${p},${q}`))
  return declarations.filter(([p, q]) => p < q && has.has(`${q},${p}`)).map(([p, q]) => [p, q] as const)
}

/** S-43: one point toward 0. */
export function towardZero(fame: number): number {
  return fame - Math.sign(fame)
}

/** S-22, S-43: a value held within its bounds. */
export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value))
}
