/**
 * The legal fleets of a ruleset as a table of counts, enumerated once per process and shared by
 * every side's public view (`view.ts`), whose bounds (SPEC §8) run through it each turn.
 */
import { fleetMeasure, legalFleets } from '../rules/fleet.js'
import { type Ruleset, formatRuleset } from '../rules/ruleset.js'
import { type ShipType, VARIANT_SHIP_TYPES } from '../rules/ships.js'

/**
 * The legal fleets of a ruleset and allowance as a table, one row per fleet and one column per
 * ship type of the variant (its count), enumerated once per process: pure, the same for every game
 * of those terms, and a cost fleet has thousands (3,771 for `2.6.1 fleet=cost:24`) that each turn's
 * bounds run through.
 */
export interface FleetTable {
  readonly types: readonly ShipType[]
  readonly rows: number
  readonly counts: Uint8Array
  /** The measure every legal fleet has (SPEC §8: the fleet is gone when the reports reach it). */
  readonly measure: number
}

const FLEETS = new Map<string, FleetTable>()
const FLEETS_KEPT = 64

export function fleetsOf(ruleset: Ruleset, additional: number): FleetTable {
  const key = `${formatRuleset(ruleset)}|${additional}`
  let table = FLEETS.get(key)
  if (table === undefined) {
    const types = VARIANT_SHIP_TYPES[ruleset.variant]
    const fleets = legalFleets(ruleset, additional)
    const counts = new Uint8Array(fleets.length * types.length)
    for (const [i, f] of fleets.entries())
      for (const [j, t] of types.entries()) counts[i * types.length + j] = f[t] ?? 0
    table = { types, rows: fleets.length, counts, measure: fleetMeasure(fleets[0] ?? {}, ruleset.variant) }
    if (FLEETS.size >= FLEETS_KEPT) FLEETS.clear()
    FLEETS.set(key, table)
  }
  return table
}
