/**
 * The ruleset in force: variant, named options from CLARIFICATIONS.md and the fleet rule. The
 * protocol binds its canonical text into the game id, so two peers agree on every reading.
 */
import { type Result, type RuleViolation, fail, ok, violation } from './errors.js'
import { type ShipType, type Variant, VARIANT_SHIP_TYPES, isShipType } from './ships.js'

/** Restrictions on which ships a fleet may hold (§3.7.1, §10.5, C-10). */
export interface FleetRestrictions {
  /** Types allowed; all of the variant's types when absent. */
  readonly allowed?: readonly ShipType[]
  /** Most ships of a type; unlimited when absent. */
  readonly max?: Readonly<Partial<Record<ShipType, number>>>
}

export type FleetRule =
  /** §3.7 (classic §3.3): the fixed fleet with its two choices (2.6.1) or none (classic). */
  | { readonly kind: 'standard' }
  /** §3.7.1, C-10: any ships whose costs total exactly `total`. */
  | { readonly kind: 'cost'; readonly total: number; readonly restrictions: FleetRestrictions }

export interface Ruleset {
  readonly variant: Variant
  /** C-09 option. */
  readonly strictPatrolCruiser: boolean
  readonly fleet: FleetRule
  /** §10.5: restrictions on additional ships in a continued match. */
  readonly additional: FleetRestrictions
}

export const DEFAULT_RULESET: Ruleset = {
  variant: '2.6.1',
  strictPatrolCruiser: false,
  fleet: { kind: 'standard' },
  additional: {},
}

export const CLASSIC_RULESET: Ruleset = { ...DEFAULT_RULESET, variant: 'classic' }

function formatRestrictions(prefix: string, r: FleetRestrictions): string[] {
  const words: string[] = []
  if (r.allowed !== undefined) words.push(`${prefix}allow=${r.allowed.join(',')}`)
  const max = Object.entries(r.max ?? {})
  if (max.length > 0) words.push(`${prefix}max=${max.map(([t, v]) => `${t}:${String(v)}`).join(',')}`)
  return words
}

/**
 * Canonical one-line text of a ruleset, e.g. `2.6.1 fleet=cost:24 max=DS:1 strictPatrolCruiser`.
 * Word order is fixed: variant, fleet, fleet restrictions, additional restrictions, options.
 */
export function formatRuleset(r: Ruleset): string {
  const words: string[] = [r.variant]
  if (r.fleet.kind === 'standard') words.push('fleet=standard')
  else {
    words.push(`fleet=cost:${r.fleet.total}`)
    words.push(...formatRestrictions('', r.fleet.restrictions))
  }
  words.push(...formatRestrictions('additional-', r.additional))
  if (r.strictPatrolCruiser) words.push('strictPatrolCruiser')
  return words.join(' ')
}

function parseTypes(value: string, variant: Variant, word: string): Result<ShipType[], RuleViolation> {
  const types: ShipType[] = []
  for (const t of value.split(',')) {
    if (!isShipType(t) || !VARIANT_SHIP_TYPES[variant].includes(t)) {
      return fail(violation('ship.type-unknown', 'C-05', word, `${t} is not a ship type of variant ${variant}`))
    }
    types.push(t)
  }
  return ok(types)
}

function parseMax(
  value: string,
  variant: Variant,
  word: string,
): Result<Partial<Record<ShipType, number>>, RuleViolation> {
  const max: Partial<Record<ShipType, number>> = {}
  for (const part of value.split(',')) {
    const [t, n] = part.split(':')
    const types = parseTypes(t ?? '', variant, word)
    if (!types.ok) return types
    if (n === undefined || !/^\d{1,3}$/.test(n)) {
      return fail(violation('token.unknown', 'C-10', word, `max needs TYPE:COUNT, e.g. max=DS:1`))
    }
    max[types.value[0] ?? 'DS'] = Number(n)
  }
  return ok(max)
}

/** Parses the text `formatRuleset` writes (word order free, each word at most once). */
export function parseRuleset(text: string): Result<Ruleset, RuleViolation> {
  const words = text.trim().split(/\s+/)
  const variantWord = words[0] ?? ''
  if (variantWord !== '2.6.1' && variantWord !== 'classic') {
    return fail(violation('token.unknown', 'C-28', variantWord, 'ruleset must start with 2.6.1 or classic'))
  }
  const variant: Variant = variantWord
  let fleet: FleetRule = { kind: 'standard' }
  const fleetR: { allowed?: ShipType[]; max?: Partial<Record<ShipType, number>> } = {}
  const addR: { allowed?: ShipType[]; max?: Partial<Record<ShipType, number>> } = {}
  let strictPatrolCruiser = false
  const seen = new Set<string>()
  for (const word of words.slice(1)) {
    const [key, value] = word.includes('=')
      ? [word.slice(0, word.indexOf('=')), word.slice(word.indexOf('=') + 1)]
      : [word, '']
    if (seen.has(key)) return fail(violation('token.unknown', 'C-28', word, `${key} given twice`))
    seen.add(key)
    if (key === 'strictPatrolCruiser' && value === '') {
      if (variant === 'classic') return fail(violation('token.unknown', 'C-09', word, 'classic has no patrol cruiser'))
      strictPatrolCruiser = true
    } else if (key === 'fleet') {
      const m = /^(standard|cost:(\d{1,4}))$/.exec(value)
      if (m === null) return fail(violation('token.unknown', 'C-10', word, 'fleet must be standard or cost:N'))
      if (m[2] !== undefined) {
        if (variant === 'classic') return fail(violation('token.unknown', 'C-10', word, 'classic has no costs'))
        fleet = { kind: 'cost', total: Number(m[2]), restrictions: {} }
      }
    } else if (key === 'allow' || key === 'additional-allow') {
      const types = parseTypes(value, variant, word)
      if (!types.ok) return types
      ;(key === 'allow' ? fleetR : addR).allowed = types.value
    } else if (key === 'max' || key === 'additional-max') {
      const max = parseMax(value, variant, word)
      if (!max.ok) return max
      ;(key === 'max' ? fleetR : addR).max = max.value
    } else {
      return fail(violation('token.unknown', 'C-28', word, `unknown ruleset word ${word}`))
    }
  }
  if ((fleetR.allowed !== undefined || fleetR.max !== undefined) && fleet.kind !== 'cost') {
    return fail(violation('token.unknown', 'C-10', text, 'allow= and max= restrict a cost fleet (fleet=cost:N)'))
  }
  if (fleet.kind === 'cost') fleet = { ...fleet, restrictions: fleetR }
  return ok({ variant, strictPatrolCruiser, fleet, additional: addR })
}
