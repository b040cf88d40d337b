/**
 * Turning a bot's values of the opponent's cells into a legal record: which weapons to use and
 * at what (2.6.1 §4, §8; classic §4, §6). Shared by the levels; each supplies its own values.
 *
 * Every beam fires at the line with the greatest value (a burn-out needs hits on both ends, C-21,
 * so a beam is never worth saving); every missile fires each turn (an unfired missile is a
 * liability, C-20); the conventional pool goes to the best cells left; scans to the best cells for
 * scanning that no strike this turn covers (a strike resolves before a scan, C-19, so scanning a
 * struck cell would tell nothing new); kamikaze strikes only when nothing else is left and the
 * bot is not ahead (C-26, C-27). Targets are distinct: in classic repeated strikes would all hit
 * one cell, and in 2.6.1 the second would find it destroyed.
 */
import { ALL_CELLS, type Cell, partialOf, rowCells } from '../rules/coords.js'
import { actionOptions } from '../rules/enumerate.js'
import { checkRecord } from '../rules/legality.js'
import type { Action } from '../rules/record.js'
import { remainingMateriel } from '../rules/state.js'
import type { TurnContext } from '../session/strategy.js'

export interface CellValues {
  /** Whether striking the cell can do any good. */
  readonly strikable: (c: Cell) => boolean
  /** The value of striking the cell (ties already broken). */
  readonly strike: (c: Cell) => number
  /** Whether scanning the cell can tell anything. */
  readonly scannable: (c: Cell) => boolean
  readonly scan: (c: Cell) => number
  /** The opponent's undamaged ship cells, expected: its score if the game ended now. */
  readonly theirRemaining: () => number
  /** The value of a beam at a line [end, middle, end]; the sum of its strike values if absent. */
  readonly beam?: (line: readonly Cell[]) => number
  /** Which unfired missile of a ship to launch; the first if absent. */
  readonly launch?: (missiles: readonly Cell[]) => Cell | undefined
}

/** This turn's actions: always a legal record (checked; a weaker fallback never fails). */
export function planActions(ctx: TurnContext, v: CellValues): Action[] {
  const { ruleset, state, turn } = ctx
  const taken = new Set<Cell>()
  const best = (n: number, eligible: (c: Cell) => boolean, value: (c: Cell) => number): Cell[] => {
    const out = ALL_CELLS.filter((c) => !taken.has(c) && eligible(c))
      .sort((a, b) => value(b) - value(a))
      .slice(0, n)
    for (const c of out) taken.add(c)
    return out
  }
  const target = (n: number): Cell[] => best(n, v.strikable, v.strike)
  const opts = actionOptions(ruleset, state, turn)
  const actions: Action[] = []
  // Beams first (they resolve first, C-19): the line of greatest value.
  for (const b of opts.beams) {
    let top: { line: readonly Cell[]; value: number } | undefined
    for (const line of b.lines) {
      if (line.some((c) => taken.has(c))) continue
      const value = v.beam === undefined ? line.reduce((s, c) => s + v.strike(c), 0) : v.beam(line)
      if (top === undefined || value > top.value) top = { line, value }
    }
    if (top === undefined || top.value <= 0) continue
    const [e1, , e2] = top.line as [Cell, Cell, Cell]
    for (const c of top.line) taken.add(c)
    const ship = state.ships[b.ship]
    actions.push({
      kind: 'beam',
      ends: [e1, e2],
      tag: ship === undefined ? undefined : { type: ship.type, id: ship.id },
    })
  }
  for (const r of opts.rows) {
    const ranked = r.rows
      .map((row) => ({ row, value: rowCells(row).reduce((s, c) => s + (taken.has(c) ? 0 : v.strike(c)), 0) }))
      .sort((a, b) => b.value - a.value)
    const top = ranked[0]
    if (top === undefined || top.value <= 0) continue
    for (const c of rowCells(top.row)) taken.add(c)
    actions.push({ kind: 'row', row: top.row })
  }
  for (const m of opts.missiles) {
    const [t] = target(1)
    const launch = v.launch === undefined ? m.cells[0] : v.launch(m.cells)
    if (t === undefined || launch === undefined) break
    actions.push({ kind: 'missile', launch: partialOf(launch), target: t })
  }
  for (const t of target(opts.entitlements.conventionalPool)) actions.push({ kind: 'strike', target: t })
  if (opts.entitlements.onlyKamikazeAndScans && opts.kamikazes.length > 0) {
    // C-26/C-27: with nothing else left, a kamikaze strike trades a cell of ours for a chance at
    // one of theirs; worth it only when not ahead (otherwise the game may end as it stands).
    if (remainingMateriel(state) <= v.theirRemaining())
      for (const k of opts.kamikazes) {
        const [t] = target(1)
        const launch = k.cells[0]
        if (t === undefined || launch === undefined) break
        actions.push({ kind: 'kamikaze', launch, target: t })
      }
  }
  for (const t of best(opts.entitlements.scans, v.scannable, v.scan)) actions.push({ kind: 'scan', target: t })
  const checked = checkRecord(ruleset, state, turn, actions)
  if (checked.ok) return [...checked.value.actions]
  // Never illegal: fall back to conventional strikes alone, which are always within the pool.
  const plain = actions.filter((a) => a.kind === 'strike')
  const retry = checkRecord(ruleset, state, turn, plain)
  return retry.ok ? [...retry.value.actions] : []
}
