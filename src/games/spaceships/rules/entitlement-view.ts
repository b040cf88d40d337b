/**
 * What a player may do in a turn, in words: ship names and cells in notation. The referee's
 * adjudication and the terminal game both show it.
 */
import { formatCell } from './coords.js'
import type { Ruleset } from './ruleset.js'
import { type Entitlements, type PlayerState, describeDirection } from './state.js'

export interface EntitlementView {
  readonly conventional: number
  readonly missiles: readonly { ship: string; cells: string[] }[]
  readonly beams: readonly { ship: string; directions: string[] }[]
  readonly kamikazes: readonly { ship: string; cells: string[] }[]
  readonly scans: number
  /** §2.3.2: nothing but kamikaze strikes and scans available. */
  readonly onlyKamikazeAndScans: boolean
}

/** What a player may do this turn, with ship names and cells in notation (also the live game's). */
export function entitlementView(ruleset: Ruleset, p: PlayerState, e: Entitlements): EntitlementView {
  const nameOf = (i: number): string => p.ships[i]?.name ?? '?'
  return {
    conventional: e.conventionalPool,
    missiles: e.ships
      .filter((s) => s.missileCells.length > 0)
      .map((s) => ({ ship: nameOf(s.ship), cells: s.missileCells.map(formatCell) })),
    beams: e.ships
      .filter((s) => s.beamDirections.length > 0)
      .map((s) => ({
        ship: nameOf(s.ship),
        directions: ruleset.variant === 'classic' ? ['rows through it'] : s.beamDirections.map(describeDirection),
      })),
    kamikazes: e.ships
      .filter((s) => s.kamikazeCells.length > 0)
      .map((s) => ({ ship: nameOf(s.ship), cells: s.kamikazeCells.map(formatCell) })),
    scans: e.scans,
    onlyKamikazeAndScans: e.onlyKamikazeAndScans,
  }
}

/** One line: the entitlements separated by semicolons. */
/** `beams` words a beam's directions; the default lists them in the notation (`+letter-number`). */
export function entitlementLine(
  e: EntitlementView,
  beams: (directions: readonly string[]) => string = (d) => (d.length === 13 ? 'any direction' : d.join(', ')),
): string {
  const parts = [`${e.conventional} conventional strike${e.conventional === 1 ? '' : 's'}`]
  for (const m of e.missiles) parts.push(`missile from ${m.ship} (${m.cells.join(' ')})`)
  for (const b of e.beams) parts.push(`beam from ${b.ship} (${beams(b.directions)})`)
  for (const k of e.kamikazes) parts.push(`kamikaze from ${k.ship} (${k.cells.join(' ')})`)
  if (e.scans > 0) parts.push(`${e.scans} scan${e.scans === 1 ? '' : 's'}`)
  return parts.join('; ')
}
