/**
 * Legality of a player's action record against its entitlements at the start of the turn (C-07,
 * C-12..C-17), and its canonical form. Returns every violation, never throws.
 */
import {
  AXIAL_DIRECTIONS,
  type Cell,
  beamLine,
  formatCell,
  formatPartial,
  matchesPartial,
  partialOf,
  rowCells,
} from './coords.js'
import { type Result, type RuleViolation, fail, ok, violation } from './errors.js'
import { type Action, type ActionRecord, formatAction, formatRecord, parseRecord } from './record.js'
import type { NotationMode } from './setup.js'
import type { Ruleset } from './ruleset.js'
import { type Entitlements, type PlayerState, entitlements } from './state.js'

/** One beam firing as it will resolve: its target cells in resolution order and its ship. */
export interface BeamFiring {
  readonly targets: readonly Cell[]
  readonly ship: number
  readonly direction: number
}

/** A legal record in canonical form, with everything resolution needs spelled out. */
export interface CheckedRecord {
  /** Canonical tokens: full missile launch cells, beam tags present exactly when required. */
  readonly actions: ActionRecord
  readonly beams: readonly BeamFiring[]
  /** Every strike target (conventional, missile, kamikaze) in record order (C-19). */
  readonly strikes: readonly Cell[]
  readonly missileLaunches: readonly Cell[]
  readonly kamikazeLaunches: readonly Cell[]
  readonly scans: readonly Cell[]
  readonly entitlements: Entitlements
}

/** Assigns each beam to a distinct ship from its candidates (augmenting paths; tiny graphs). */
function assignShips(candidates: readonly (readonly number[])[]): number[] | undefined {
  const owner = new Map<number, number>()
  const tryBeam = (b: number, seen: Set<number>): boolean => {
    for (const s of candidates[b] ?? []) {
      if (seen.has(s)) continue
      seen.add(s)
      const current = owner.get(s)
      if (current === undefined || tryBeam(current, seen)) {
        owner.set(s, b)
        return true
      }
    }
    return false
  }
  for (let b = 0; b < candidates.length; b++) if (!tryBeam(b, new Set())) return undefined
  const out: number[] = new Array<number>(candidates.length).fill(-1)
  for (const [s, b] of owner) out[b] = s
  return out
}

export function checkRecord(
  ruleset: Ruleset,
  p: PlayerState,
  turn: number,
  record: ActionRecord,
): Result<CheckedRecord> {
  const ent = entitlements(ruleset, p, turn)
  const errors: RuleViolation[] = []
  const allMissiles = ent.ships.flatMap((s) => s.missileCells)
  const missileShips = new Set<number>()
  const kamikazeShips = new Set<number>()
  const beamCandidates: number[][] = []
  const beamTokens: { action: Action; targets: readonly Cell[]; direction: number; tagged: boolean }[] = []
  const canonical: Action[] = []
  const strikes: Cell[] = []
  const missileLaunches: Cell[] = []
  const kamikazeLaunches: Cell[] = []
  const scans: Cell[] = []
  let conventional = 0

  for (const action of record) {
    const token = formatAction(action)
    switch (action.kind) {
      case 'strike':
        conventional++
        strikes.push(action.target)
        canonical.push(action)
        break
      case 'missile': {
        const matches = allMissiles.filter((c) => matchesPartial(c, action.launch))
        const launch = matches[0]
        if (matches.length !== 1 || launch === undefined) {
          const what =
            matches.length === 0
              ? 'matches none of your unfired missiles'
              : `is ambiguous: matches ${matches.map(formatCell).join(', ')}`
          errors.push(
            violation(
              matches.length === 0 ? 'record.missile-no-match' : 'record.missile-ambiguous',
              'C-07 C-13 §8.1.3.1',
              token,
              `m${formatPartial(action.launch)} ${what}`,
            ),
          )
          break
        }
        const ship = p.shipAt[launch] ?? -1
        if (missileShips.has(ship)) {
          errors.push(
            violation(
              'record.missile-twice',
              'C-13 C-17 §8.1.3',
              token,
              `${p.ships[ship]?.name ?? '?'} may launch one missile a turn`,
            ),
          )
          break
        }
        missileShips.add(ship)
        missileLaunches.push(launch)
        strikes.push(action.target)
        canonical.push({ kind: 'missile', launch: partialOf(launch), target: action.target })
        break
      }
      case 'kamikaze': {
        const ship = p.shipAt[action.launch] ?? -1
        const shipEnt = ent.ships[ship]
        if (shipEnt === undefined || p.destroyed[action.launch] === 1) {
          errors.push(
            violation(
              'record.kamikaze-launch',
              '§4.5.2',
              token,
              `${formatCell(action.launch)} is not an undamaged cell of your ships`,
            ),
          )
          break
        }
        if (shipEnt.kamikazeCells.length === 0) {
          errors.push(
            violation(
              'record.kamikaze-not-entitled',
              'C-14 §4.5 §6.8.2',
              token,
              `${shipEnt.name} may not kamikaze: it gives ${kamikazeBlocker(ent, ship)}`,
            ),
          )
          break
        }
        if (kamikazeShips.has(ship)) {
          errors.push(
            violation(
              'record.kamikaze-twice',
              'C-17 §4.5',
              token,
              `${shipEnt.name} may launch one kamikaze strike a turn`,
            ),
          )
          break
        }
        kamikazeShips.add(ship)
        kamikazeLaunches.push(action.launch)
        strikes.push(action.target)
        canonical.push(action)
        break
      }
      case 'scan':
        scans.push(action.target)
        canonical.push(action)
        break
      case 'beam': {
        const line = beamLine(action.ends[0], action.ends[1])
        if (line === undefined) {
          errors.push(
            violation(
              'record.beam-line',
              'C-04 §8.2.1',
              token,
              `${formatCell(action.ends[0])} and ${formatCell(action.ends[1])} are not the ends of three loosely adjacent cells in a straight line`,
            ),
          )
          break
        }
        const able = ent.ships.filter((s) => s.beamDirections.includes(line.direction)).map((s) => s.ship)
        if (able.length === 0) {
          errors.push(
            violation(
              'record.beam-not-entitled',
              'C-15 §8.2.2',
              token,
              'no death star of yours has two undamaged loosely adjacent cells parallel to this line, or its beam has burnt out',
            ),
          )
          break
        }
        let candidates = able
        if (action.tag !== undefined) {
          const tag = action.tag
          const named = p.ships.findIndex(
            (s) =>
              s.type === tag.type &&
              (tag.id === undefined ? p.ships.filter((o) => o.type === tag.type).length === 1 : s.id === tag.id),
          )
          if (named < 0 || !able.includes(named)) {
            errors.push(
              violation(
                'record.beam-tag-wrong',
                'C-15 §8.2.3.1',
                token,
                `the tag must name a death star that can fire this beam: ${able.map((s) => p.ships[s]?.name ?? '?').join(', ')}`,
              ),
            )
            break
          }
          candidates = [named]
        } else if (able.length >= 2) {
          errors.push(
            violation(
              'record.beam-tag-required',
              'C-15 §8.2.3.1 §11.5.2.1',
              token,
              `several ships could fire this beam (${able.map((s) => p.ships[s]?.name ?? '?').join(', ')}): name one, e.g. b${formatCell(action.ends[0])}${formatCell(action.ends[1])}(${p.ships[able[0] ?? 0]?.name ?? ''})`,
            ),
          )
          break
        }
        beamCandidates.push(candidates)
        beamTokens.push({ action, targets: line.cells, direction: line.direction, tagged: able.length >= 2 })
        break
      }
      case 'row': {
        const cells = rowCells(action.row)
        const able = ent.ships
          .filter((s) => s.beamDirections.length > 0 && cells.some((c) => (p.shipAt[c] ?? -1) === s.ship))
          .map((s) => s.ship)
        if (able.length === 0) {
          errors.push(
            violation(
              'record.beam-not-entitled',
              'classic §6.1.3',
              token,
              'the row must pass through an undamaged death star of yours',
            ),
          )
          break
        }
        beamCandidates.push(able)
        beamTokens.push({ action, targets: cells, direction: AXIAL_DIRECTIONS[action.row.free], tagged: false })
        break
      }
    }
  }

  if (conventional > ent.conventionalPool) {
    errors.push(
      violation(
        'record.strikes-exceed-pool',
        'C-12 C-17 §4.4.1',
        `${conventional} strikes`,
        `${conventional} conventional strikes but the pool holds ${ent.conventionalPool}`,
      ),
    )
  }
  if (scans.length > ent.scans) {
    errors.push(
      violation(
        'record.scans-exceed',
        'C-16 §8.3.1',
        `${scans.length} scans`,
        `${scans.length} scans but ${ent.scans} available`,
      ),
    )
  }
  const assignment = assignShips(beamCandidates)
  if (assignment === undefined) {
    errors.push(
      violation(
        'record.beam-assignment',
        'C-15 §8.2',
        `${beamTokens.length} beams`,
        'each death star fires at most one beam a turn: these beams need more death stars than can fire them',
      ),
    )
  }
  if (errors.length > 0) return fail(errors)

  // Rebuild canonical order: beams were held aside so tags could be settled; put them back in place.
  const beams: BeamFiring[] = beamTokens.map((b, i) => ({
    targets: b.targets,
    ship: assignment?.[i] ?? -1,
    direction: b.direction,
  }))
  const actions: Action[] = []
  let nextBeam = 0
  let rest = 0
  for (const action of record) {
    if (action.kind === 'beam' || action.kind === 'row') {
      const b = beamTokens[nextBeam]
      const firing = beams[nextBeam]
      nextBeam++
      if (b === undefined || firing === undefined) continue
      if (action.kind === 'beam') {
        const ship = p.ships[firing.ship]
        actions.push({
          ...action,
          tag:
            b.tagged && ship !== undefined
              ? { type: ship.type, id: p.ships.filter((s) => s.type === ship.type).length >= 2 ? ship.id : undefined }
              : undefined,
        })
      } else actions.push(action)
    } else {
      const c = canonical[rest++]
      if (c !== undefined) actions.push(c)
    }
  }
  return ok({ actions, beams, strikes, missileLaunches, kamikazeLaunches, scans, entitlements: ent })
}

function kamikazeBlocker(ent: Entitlements, ship: number): string {
  const s = ent.ships[ship]
  if (s === undefined) return 'nothing'
  if (s.conventional > 0) return `${s.conventional} conventional strike${s.conventional === 1 ? '' : 's'}`
  if (s.missileCells.length > 0) return 'a missile strike'
  return 'no kamikaze strike (light scouts never kamikaze, §6.8.2)'
}

/**
 * Reads a record's text against the player's state at the start of the turn. In strict mode the
 * text must also be exactly the record's canonical form (protocol/NOTATION.md), which is what the
 * protocol commits to and signs: one record, one byte string.
 */
export function readRecord(
  ruleset: Ruleset,
  p: PlayerState,
  turn: number,
  text: string,
  mode: NotationMode,
): Result<CheckedRecord> {
  const parsed = parseRecord(text, { variant: ruleset.variant, mode })
  if (!parsed.ok) return parsed
  const checked = checkRecord(ruleset, p, turn, parsed.value)
  if (!checked.ok || mode === 'lenient') return checked
  const canonical = formatRecord(checked.value.actions)
  if (canonical !== text) {
    return fail([
      violation('record.not-canonical', 'C-06 C-15', text, `not in canonical form; canonical: "${canonical}"`),
    ])
  }
  return checked
}
