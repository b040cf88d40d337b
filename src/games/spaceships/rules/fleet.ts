/**
 * Fleet composition (2.6.1 §3.6, §3.7, §10; classic §3.3, §7; C-10, C-11). A fleet is a multiset
 * of ship types; positions do not matter here.
 */
import type { FleetRestrictions, Ruleset } from './ruleset.js'
import { SHIP_TYPES, type ShipType, VARIANT_SHIP_TYPES, type Variant } from './ships.js'

export type FleetCounts = Readonly<Partial<Record<ShipType, number>>>

/** What a continued match's additional ships are measured in: cost (C-11) or cells (classic §7.2). */
function measure(type: ShipType, variant: Variant): number {
  return variant === 'classic' ? SHIP_TYPES[type].size : SHIP_TYPES[type].cost
}

export function fleetMeasure(counts: FleetCounts, variant: Variant): number {
  let total = 0
  for (const [t, n] of Object.entries(counts) as [ShipType, number][]) total += measure(t, variant) * n
  return total
}

function respects(counts: FleetCounts, r: FleetRestrictions, variant: Variant): boolean {
  const allowed = r.allowed ?? VARIANT_SHIP_TYPES[variant]
  for (const [t, n] of Object.entries(counts) as [ShipType, number][]) {
    if (n === 0) continue
    if (!allowed.includes(t)) return false
    const max = r.max?.[t]
    if (max !== undefined && n > max) return false
  }
  return true
}

/** The standard fleets: 2.6.1 §3.7 has two binary choices; classic §3.3 has none. Made once (every setup is checked against them). */
const STANDARD_FLEETS: Readonly<Record<Variant, readonly FleetCounts[]>> = {
  classic: [{ DS: 1, KC: 1, FS: 1, MD: 1, HF: 1 }],
  '2.6.1': (['FS', 'PC'] as const).flatMap((saucer) =>
    (['LS', 'HS'] as const).map((scout) => ({ DS: 1, KC: 1, [saucer]: 1, MD: 1, [scout]: 1 })),
  ),
}

export function standardFleets(variant: Variant): FleetCounts[] {
  return [...STANDARD_FLEETS[variant]]
}

/** Measure of any base fleet: the standard fleet's (all four 2.6.1 choices cost 24) or C. */
function baseMeasure(ruleset: Ruleset): number {
  if (ruleset.fleet.kind === 'cost') return ruleset.fleet.total
  return fleetMeasure(standardFleets(ruleset.variant)[0] ?? {}, ruleset.variant)
}

function subtract(counts: FleetCounts, base: FleetCounts): FleetCounts | undefined {
  const out: Partial<Record<ShipType, number>> = {}
  for (const t of new Set([...Object.keys(counts), ...Object.keys(base)]) as Set<ShipType>) {
    const n = (counts[t] ?? 0) - (base[t] ?? 0)
    if (n < 0) return undefined
    out[t] = n
  }
  return out
}

/**
 * Whether some split of the fleet into a base fleet and additional ships respects every
 * restriction, given that the total measure already equals base + additional. Standard fleets
 * have at most four bases to try; a cost fleet is a knapsack over types: the base measures
 * reachable when each type puts between 0 and all of its ships in the base, each part within its
 * restrictions. Polynomial, so no fleet a peer sends can make this slow.
 */
function splitExists(counts: FleetCounts, ruleset: Ruleset): boolean {
  const variant = ruleset.variant
  if (ruleset.fleet.kind === 'standard') {
    return standardFleets(variant).some((base) => {
      const extra = subtract(counts, base)
      return extra !== undefined && respects(extra, ruleset.additional, variant)
    })
  }
  const baseR = ruleset.fleet.restrictions
  const target = ruleset.fleet.total
  const within = (r: FleetRestrictions, t: ShipType, n: number): boolean =>
    n === 0 || ((r.allowed ?? VARIANT_SHIP_TYPES[variant]).includes(t) && n <= (r.max?.[t] ?? Infinity))
  let reachable = new Set<number>([0])
  for (const [t, n] of Object.entries(counts) as [ShipType, number][]) {
    const next = new Set<number>()
    for (let k = 0; k <= n; k++) {
      if (!within(baseR, t, k) || !within(ruleset.additional, t, n - k)) continue
      for (const m of reachable) if (m + k * measure(t, variant) <= target) next.add(m + k * measure(t, variant))
    }
    reachable = next
  }
  return reachable.has(target)
}

/**
 * Whether the fleet is legal for the ruleset when the player brings `additional` worth of
 * additional ships (0 outside continued matches): some split into a base fleet and additional
 * ships whose total measure is exactly `additional` and that respect §10.5 restrictions.
 * Returns a reason when it is not.
 */
export function fleetProblem(counts: FleetCounts, ruleset: Ruleset, additional: number): string | undefined {
  const variant = ruleset.variant
  const unknown = (Object.keys(counts) as ShipType[]).filter(
    (t) => (counts[t] ?? 0) > 0 && !VARIANT_SHIP_TYPES[variant].includes(t),
  )
  if (unknown.length > 0) return `${unknown.join(', ')} not in variant ${variant}`
  // Every base fleet has the same measure, so the total is fixed; then look for a legal split.
  if (fleetMeasure(counts, variant) === baseMeasure(ruleset) + additional && splitExists(counts, ruleset))
    return undefined
  const unit = variant === 'classic' ? 'cells' : 'cost'
  const expected =
    ruleset.fleet.kind === 'standard'
      ? variant === 'classic'
        ? 'DS KC FS MD HF'
        : 'DS, KC, FS or PC, MD, LS or HS'
      : `ships of total cost ${ruleset.fleet.total}${describeRestrictions(ruleset.fleet.restrictions)}`
  const extraText =
    additional > 0
      ? `, plus additional ships of total ${unit} ${additional}${describeRestrictions(ruleset.additional)}`
      : ''
  return `fleet must be ${expected}${extraText}; got ${formatCounts(counts)}`
}

function describeRestrictions(r: FleetRestrictions): string {
  const parts: string[] = []
  if (r.allowed !== undefined) parts.push(`types ${r.allowed.join(' ')}`)
  const max = Object.entries(r.max ?? {})
  if (max.length > 0) parts.push(`at most ${max.map(([t, n]) => `${String(n)} ${t}`).join(', ')}`)
  return parts.length === 0 ? '' : ` (${parts.join('; ')})`
}

export function formatCounts(counts: FleetCounts): string {
  const parts: string[] = []
  for (const t of Object.keys(SHIP_TYPES) as ShipType[]) {
    const n = counts[t] ?? 0
    if (n > 0) parts.push(n === 1 ? t : `${n}x${t}`)
  }
  return parts.length === 0 ? 'no ships' : parts.join(' ')
}

/**
 * Every legal fleet for the ruleset and additional allowance, in a fixed order. Used by the random
 * setup so that every legal setup, hence every legal fleet, is reachable.
 */
export function legalFleets(ruleset: Ruleset, additional: number): FleetCounts[] {
  const variant = ruleset.variant
  const types = VARIANT_SHIP_TYPES[variant]
  const bases =
    ruleset.fleet.kind === 'standard'
      ? standardFleets(variant)
      : compositions(types, ruleset.fleet.total, ruleset.fleet.restrictions, variant)
  const extras = additional === 0 ? [{}] : compositions(types, additional, ruleset.additional, variant)
  const seen = new Set<string>()
  const out: FleetCounts[] = []
  for (const b of bases)
    for (const e of extras) {
      const sum: Partial<Record<ShipType, number>> = {}
      for (const t of types) {
        const n = (b[t] ?? 0) + (e[t] ?? 0)
        if (n > 0) sum[t] = n
      }
      const key = formatCounts(sum)
      if (!seen.has(key)) {
        seen.add(key)
        out.push(sum)
      }
    }
  return out
}

/** Multisets of the allowed types whose measure totals exactly `total`. */
function compositions(
  types: readonly ShipType[],
  total: number,
  r: FleetRestrictions,
  variant: Variant,
): FleetCounts[] {
  const allowed = types.filter((t) => (r.allowed ?? types).includes(t))
  const out: FleetCounts[] = []
  const chosen: Partial<Record<ShipType, number>> = {}
  const go = (i: number, left: number): void => {
    if (left === 0) {
      out.push({ ...chosen })
      return
    }
    const t = allowed[i]
    if (t === undefined) return
    const m = measure(t, variant)
    const cap = Math.min(Math.floor(left / m), r.max?.[t] ?? Infinity)
    for (let k = cap; k >= 0; k--) {
      chosen[t] = k
      go(i + 1, left - k * m)
    }
    chosen[t] = 0
  }
  go(0, total)
  return out
}
