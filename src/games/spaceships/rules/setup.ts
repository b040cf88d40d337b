/**
 * Setups: the ships a player records in the setup phase (2.6.1 §2.1, §3, §11.3.1). Notation: one
 * line per ship, its type and identity then its cells, e.g. `DS1 Rv1 Rv2 Rw1 Rw2 Ov1 Ov2 Ow1 Ow2`.
 */
import { CELL_COUNT, type Cell, formatCell, parseCell, sortCells } from './coords.js'
import { type Result, type RuleViolation, fail, ok, violation } from './errors.js'
import { type FleetCounts, fleetProblem } from './fleet.js'
import type { Ruleset } from './ruleset.js'
import {
  ALL_SHIP_TYPES,
  SHIP_TYPES,
  type ShipType,
  VARIANT_SHIP_TYPES,
  formatShipName,
  isShipType,
  shapeProblem,
} from './ships.js'

/** A ship as placed. `id` is 1..k among the player's k ships of its type (C-05). */
export interface PlacedShip {
  readonly type: ShipType
  readonly id: number
  readonly cells: readonly Cell[]
}

export type Setup = readonly PlacedShip[]

/** A ship as written, before identities are settled: `KC` has no written id. */
export interface WrittenShip {
  readonly type: ShipType
  readonly id: number | undefined
  readonly cells: readonly Cell[]
  readonly text: string
}

export type NotationMode = 'strict' | 'lenient'

/** `TYPE` or `TYPEn` (C-05): returns the type and written identity. */
export function parseShipName(text: string): Result<{ type: ShipType; id: number | undefined }, RuleViolation> {
  const m = /^([A-Z]{2})([1-9][0-9]{0,2})?$/.exec(text)
  const code = m?.[1] ?? text.slice(0, 2)
  if (m === null || !isShipType(code)) {
    if (isShipType(code)) {
      return fail(
        violation(
          'ship.identity-syntax',
          'C-05 §11.6.1',
          text,
          'identity must be a number 1, 2, ... right after the type code',
        ),
      )
    }
    return fail(
      violation(
        'ship.type-unknown',
        'C-05 §11.6',
        text,
        `unknown ship type; the notation's types are ${ALL_SHIP_TYPES.join(' ')} (a variant has only some of them)`,
      ),
    )
  }
  return ok({ type: code, id: m[2] === undefined ? undefined : Number(m[2]) })
}

function splitWords(line: string, mode: NotationMode): string[] | undefined {
  if (mode === 'strict') return line === '' || line !== line.trim() || line.includes('  ') ? undefined : line.split(' ')
  return line.split(/[\s,]+/).filter((w) => w !== '')
}

/** Parses one ship line: `TYPE[ID] CELL...`. */
export function parseShipLine(line: string, mode: NotationMode = 'lenient'): Result<WrittenShip, RuleViolation> {
  const words = splitWords(line, mode)
  if (words === undefined || words.length === 0) {
    return fail(
      violation(
        'setup.line-syntax',
        'C-05 §11.3.1',
        line,
        'a ship line is its type and identity then its cells, separated by single spaces',
      ),
    )
  }
  const name = parseShipName(words[0] ?? '')
  if (!name.ok) return name
  const cells: Cell[] = []
  for (const w of words.slice(1)) {
    const cell = parseCell(w)
    if (!cell.ok) return cell
    cells.push(cell.value)
  }
  if (cells.length === 0) return fail(violation('setup.line-syntax', '§3.2', line, 'a ship needs its cells'))
  return ok({ ...name.value, cells, text: line })
}

/**
 * Parses a whole setup: one ship per line; blank lines and `#` comments allowed in lenient mode.
 * Only notation is checked here; `validateSetup` checks the rules.
 */
export function parseSetup(text: string, mode: NotationMode = 'lenient'): Result<WrittenShip[]> {
  const ships: WrittenShip[] = []
  const errors: RuleViolation[] = []
  const lines = mode === 'lenient' ? text.split(/\r?\n|;/) : text.split('\n')
  for (const raw of lines) {
    const line = mode === 'lenient' ? (raw.split('#')[0] ?? '').trim() : raw
    if (line === '' && mode === 'lenient') continue
    const ship = parseShipLine(line, mode)
    if (ship.ok) ships.push(ship.value)
    else errors.push(ship.error)
  }
  return errors.length > 0 ? fail(errors) : ok(ships)
}

/** Canonical setup text: ships in type-table order then identity, cells in index order. */
export function formatSetup(setup: Setup): string {
  return canonicalOrder(setup)
    .map((s) =>
      [formatShipName(s.type, s.id, countOfType(setup, s.type)), ...sortCells(s.cells).map(formatCell)].join(' '),
    )
    .join('\n')
}

export function countOfType(setup: readonly { type: ShipType }[], type: ShipType): number {
  return setup.filter((s) => s.type === type).length
}

export function canonicalOrder<T extends { type: ShipType; id: number }>(ships: readonly T[]): T[] {
  return [...ships].sort((a, b) => ALL_SHIP_TYPES.indexOf(a.type) - ALL_SHIP_TYPES.indexOf(b.type) || a.id - b.id)
}

export function fleetOf(ships: readonly { type: ShipType }[]): FleetCounts {
  const counts: Partial<Record<ShipType, number>> = {}
  for (const s of ships) counts[s.type] = (counts[s.type] ?? 0) + 1
  return counts
}

/**
 * Checks a written setup against the rules and settles identities: every violation is returned,
 * each naming the ship and the rule (§3.4 intersection, §3.5 shape, §3.6/§3.7 fleet, C-05
 * identities). `additional` is the continued-match allowance (§10.3, C-11), 0 otherwise.
 */
export function validateSetup(written: readonly WrittenShip[], ruleset: Ruleset, additional = 0): Result<Setup> {
  const errors: RuleViolation[] = []
  const variant = ruleset.variant
  // Ships may not intersect (§3.4) and have at least one cell, so no legal setup has more ships
  // than the space has cells; refusing early keeps hostile input linear.
  if (written.length > CELL_COUNT) {
    return fail([
      violation(
        'setup.fleet',
        '§3.4 §3.6',
        'fleet',
        `${written.length} ships cannot fit in ${CELL_COUNT} cells without intersecting`,
      ),
    ])
  }
  const counts = fleetOf(written)
  const owner = new Map<Cell, string>()
  const ships: PlacedShip[] = []
  for (const w of written) {
    const name = w.text.split(/[\s,]+/)[0] ?? w.type
    if (!VARIANT_SHIP_TYPES[variant].includes(w.type)) {
      errors.push(
        violation(
          'setup.type-not-in-variant',
          variant === 'classic' ? 'classic §3.3' : '§6',
          name,
          `${SHIP_TYPES[w.type].name} is not a ship of variant ${variant}`,
        ),
      )
      continue
    }
    const k = counts[w.type] ?? 0
    let id = w.id
    if (k === 1 && (id === undefined || id === 1)) id = 1
    else if (k === 1) {
      errors.push(
        violation('setup.identity', 'C-05 §11.6.1', name, `only one ${w.type}: write ${w.type} (or ${w.type}1)`),
      )
      continue
    } else if (id === undefined) {
      errors.push(
        violation(
          'setup.identity',
          'C-05 §11.6.1',
          name,
          `${k} ships of type ${w.type}: identities ${w.type}1..${w.type}${k} are required`,
        ),
      )
      continue
    }
    const seen = new Set<Cell>()
    const dups = w.cells.filter((c) => (seen.has(c) ? true : (seen.add(c), false)))
    if (dups.length > 0) {
      errors.push(violation('setup.duplicate-cell', '§3.2', name, `cell ${formatCell(dups[0] ?? 0)} listed twice`))
      continue
    }
    for (const c of w.cells) {
      const other = owner.get(c)
      if (other !== undefined)
        errors.push(violation('setup.intersect', '§3.4', name, `cell ${formatCell(c)} is also in ${other}`))
      else owner.set(c, name)
    }
    const problem = shapeProblem(w.type, w.cells, ruleset)
    if (problem !== undefined)
      errors.push(
        violation(
          w.cells.length === SHIP_TYPES[w.type].size ? 'setup.shape' : 'setup.size',
          `§3.5 ${problem.rule}`,
          name,
          problem.message,
        ),
      )
    ships.push({ type: w.type, id, cells: sortCells(w.cells) })
  }
  for (const t of ALL_SHIP_TYPES) {
    const ids = ships
      .filter((s) => s.type === t)
      .map((s) => s.id)
      .sort((a, b) => a - b)
    if (ids.length >= 2 && !ids.every((id, i) => id === i + 1)) {
      errors.push(
        violation(
          'setup.identity',
          'C-05 §11.6.1',
          t,
          `identities of the ${ids.length} ${t} ships must be exactly 1..${ids.length}; got ${ids.join(', ')}`,
        ),
      )
    }
  }
  const fleet = fleetProblem(counts, ruleset, additional)
  if (fleet !== undefined)
    errors.push(
      violation('setup.fleet', variant === 'classic' ? 'classic §3.3 §7.2' : '§3.6 §3.7 C-10 C-11', 'fleet', fleet),
    )
  return errors.length > 0 ? fail(errors) : ok(canonicalOrder(ships))
}

/** Parse and validate in one step. */
export function readSetup(
  text: string,
  ruleset: Ruleset,
  additional = 0,
  mode: NotationMode = 'lenient',
): Result<Setup> {
  const parsed = parseSetup(text, mode)
  return parsed.ok ? validateSetup(parsed.value, ruleset, additional) : parsed
}
