/**
 * What one player knows of the opponent's space, cell by cell, from what the wire told it
 * (TurnSummary): strike and scan results, missile explosions, kamikaze deaths, destruction
 * reports and flashcube data. Pure; shared by the terminal game and the bots.
 */
import { parseCell } from '../rules/coords.js'
import type { ShipType } from '../rules/ships.js'
import type { CellName } from '../protocol/messages.js'
import type { TurnSummary } from './summary.js'

/** What this player knows of each cell of the opponent's space, strongest knowledge first. */
export type Knowledge =
  | { readonly kind: 'unknown' }
  | { readonly kind: 'empty'; readonly how: 'miss' | 'scan' | 'flashcube' }
  /** An undamaged ship cell, seen by a scan. */
  | { readonly kind: 'ship' }
  | { readonly kind: 'hit' }
  | { readonly kind: 'explosion' }
  /** A destroyed ship cell known otherwise: a duplicate hit, a scan, the opponent's kamikaze. */
  | { readonly kind: 'destroyed' }
  | { readonly kind: 'identified'; readonly type: ShipType; readonly destroyed: boolean }

const RANK: Record<Knowledge['kind'], number> = {
  unknown: 0,
  empty: 1,
  ship: 2,
  hit: 3,
  explosion: 4,
  destroyed: 4,
  identified: 5,
}

export function opponentKnowledge(history: readonly TurnSummary[]): Knowledge[] {
  const k: Knowledge[] = Array.from({ length: 125 }, () => ({ kind: 'unknown' }))
  const learn = (name: CellName, what: Knowledge): void => {
    // Cell names in a TurnSummary were decoded strictly; anything else teaches nothing.
    const parsed = parseCell(name)
    if (!parsed.ok) return
    const c = parsed.value
    const was = k[c]
    if (was === undefined) return
    // A ship seen undestroyed by flashcube and destroyed since stays identified, now destroyed.
    if (
      was.kind === 'identified' &&
      !was.destroyed &&
      (what.kind === 'hit' ||
        what.kind === 'explosion' ||
        what.kind === 'destroyed' ||
        (what.kind === 'identified' && what.destroyed))
    )
      k[c] = { ...was, destroyed: true }
    else if (RANK[what.kind] > RANK[was.kind]) k[c] = what
  }
  for (const t of history) {
    const strike = (target: CellName, a: { result: string; explosions: readonly CellName[] } | undefined): void => {
      if (a === undefined) return
      if (a.result === 'miss') learn(target, { kind: 'empty', how: 'miss' })
      else if (a.result === 'hit') learn(target, { kind: 'hit' })
      else learn(target, { kind: 'destroyed' })
      for (const e of a.explosions.slice(1)) learn(e, { kind: 'explosion' })
    }
    t.myAspects.strikes.forEach((target, i) => {
      strike(target, t.theirResults.strikes[i])
    })
    t.myAspects.beams.forEach((beam, b) => {
      beam.forEach((target, i) => {
        strike(target, t.theirResults.beams[b]?.[i])
      })
    })
    t.myAspects.scans.forEach((target, i) => {
      const r = t.theirResults.scans[i]?.result
      if (r === 'empty') learn(target, { kind: 'empty', how: 'scan' })
      else if (r === 'ship') learn(target, { kind: 'ship' })
      else if (r === 'ship-destroyed') learn(target, { kind: 'destroyed' })
    })
    for (const d of t.theirResults.destroyed)
      for (const c of d.cells) learn(c.cell, { kind: 'identified', type: d.type, destroyed: true })
    // The opponent's kamikaze launch cells die with the strike (C-19).
    for (const c of t.theirAspects.kamikaze) learn(c, { kind: 'destroyed' })
    for (const report of t.theirFlashcube.reports)
      for (const a of report)
        learn(
          a.cell,
          a.kind === 'empty'
            ? { kind: 'empty', how: 'flashcube' }
            : { kind: 'identified', type: a.type, destroyed: a.destroyed },
        )
  }
  return k
}
