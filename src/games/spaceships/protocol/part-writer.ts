/**
 * The part writers (protocol/SPEC.md §3, §6.1, §7): each part of an envelope as its exact bytes,
 * for `codec.ts`, which frames them as an envelope or a compact frame's part list.
 */
import { SALT_BYTES } from './commitments.js'
import { Writer } from '../../../core/wire/binary.js'
import {
  type CellName,
  PART_CODES_BY_VERSION,
  type Part,
  type ProtocolVersion,
  REFUSAL_REASONS,
  SCAN_RESULTS,
  SHIP_CODES,
  STOP_REASONS,
  STRIKE_RESULTS,
  type StrikeAnswer,
  type Terms,
  VERDICT_OUTCOMES,
  WINNERS,
  cellIndex,
} from './messages.js'

/** The writer with Spaceships' cell lists (SPEC §3.1: a count, then one byte per cell). */
export class PartWriter extends Writer {
  cells(list: readonly CellName[]): this {
    this.u8(list.length)
    for (const c of list) this.u8(cellIndex(c))
    return this
  }
}

function writeTerms(w: PartWriter, t: Terms, version: ProtocolVersion): void {
  w.text8(t.ruleset).u16(t.maxTurns).u32(t.setupMs).u32(t.turnMs).u32(t.replyMs).u8(1)
  const m = t.match
  w.u8(m.kind === 'single' ? 0 : m.kind === 'scored' ? 1 : 2)
    .u8(m.game)
    .u8(m.of)
    .bytes(m.previous)
    .u16(m.additional[0])
    .u16(m.additional[1])
  if (version === 3) {
    if ((t.reserveMs ?? 0) !== 0 || t.notary !== undefined) throw new Error('version 3 terms have no witness')
    return
  }
  // SPEC §6.1 (version 4): the reserve, then the witness: 0, or 1 and the notary's key.
  w.u32(t.reserveMs ?? 0)
  if (t.notary === undefined) w.u8(0)
  else w.u8(1).bytes(t.notary)
}

/** SPEC §7.6, §7.7: a salt is exactly `SALT_BYTES`; anything else would be signed as malformed bytes. */
function salt(s: Uint8Array): Uint8Array {
  if (s.length !== SALT_BYTES) throw new Error(`a salt is ${SALT_BYTES} bytes, not ${s.length}`)
  return s
}

function writeAnswer(w: PartWriter, a: StrikeAnswer, version: ProtocolVersion): void {
  w.u8(STRIKE_RESULTS.indexOf(a.result)).bytes(salt(a.salt)).cells(a.explosions)
  if (version === 3) return
  // SPEC §7.6 (version 4): the occupancy opening of each explosion cell after the target.
  const salts = a.explosionSalts ?? []
  if (salts.length !== Math.max(0, a.explosions.length - 1))
    throw new Error(`${a.explosions.length} explosion cells need ${Math.max(0, a.explosions.length - 1)} salts`)
  for (const x of salts) w.bytes(salt(x))
}

export function writePart(w: PartWriter, p: Part, version: ProtocolVersion = 3): void {
  const code = PART_CODES_BY_VERSION[version][p.t]
  if (code === undefined) throw new Error(`version ${version} has no ${p.t} part`)
  w.u8(code)
  switch (p.t) {
    case 'hello':
      w.bytes(p.key).bytes(p.nonce)
      if (p.terms !== undefined) writeTerms(w, p.terms, version)
      return
    case 'refuse':
      w.u8(REFUSAL_REASONS.indexOf(p.reason) + 1).text8(p.detail)
      return
    case 'setup':
      w.bytes(p.cells)
      return
    case 'commit':
      w.u16(p.turn).bytes(p.record)
      return
    case 'aspects':
      w.u16(p.turn)
        .u8(p.idle ? 1 : 0)
        .u8(p.beams.length)
      for (const b of p.beams) w.cells(b)
      w.cells(p.strikes).cells(p.scans)
      if (version === 3) w.cells(p.kamikaze)
      else {
        // SPEC §7.5 (version 4): each launch cell with its occupancy opening.
        const salts = p.kamikazeSalts ?? []
        if (salts.length !== p.kamikaze.length) throw new Error('each kamikaze launch cell needs its salt')
        w.u8(p.kamikaze.length)
        p.kamikaze.forEach((c, i) => w.u8(cellIndex(c)).bytes(salt(salts[i] ?? new Uint8Array())))
      }
      return
    case 'results':
      w.u16(p.turn)
        .u8(p.fleetDestroyed ? 1 : 0)
        .u8(p.beams.length)
      for (const b of p.beams) {
        w.u8(b.length)
        for (const a of b) writeAnswer(w, a, version)
      }
      w.u8(p.strikes.length)
      for (const a of p.strikes) writeAnswer(w, a, version)
      w.u8(p.scans.length)
      for (const s of p.scans) w.u8(SCAN_RESULTS.indexOf(s.result)).bytes(salt(s.salt))
      w.u8(p.destroyed.length)
      for (const d of p.destroyed) {
        w.u8(SHIP_CODES[d.type]).u8(d.id).u8(d.cells.length)
        for (const c of d.cells) w.u8(cellIndex(c.cell)).bytes(salt(c.salt))
      }
      return
    case 'flashcube':
      w.u16(p.turn).u8(p.reports.length)
      for (const r of p.reports) {
        w.u8(r.length)
        for (const e of r) {
          w.u8(cellIndex(e.cell))
          if (e.kind === 'empty') w.u8(0)
          else
            w.u8(e.destroyed ? 2 : 1)
              .u8(SHIP_CODES[e.type])
              .u8(e.id)
          w.bytes(salt(e.salt))
        }
      }
      return
    case 'reveal':
      w.bytes(p.seed).u8(p.setup.length)
      for (const s of p.setup) {
        w.u8(SHIP_CODES[s.type]).u8(s.id).u8(s.cells.length)
        for (const c of s.cells) w.u8(c)
      }
      w.u16(p.records.length)
      for (const r of p.records) w.text16(r)
      return
    case 'stop':
      if (version === 3 && p.reason === 'outage') throw new Error('version 3 has no outage stop')
      w.u8(STOP_REASONS.indexOf(p.reason) + 1).text8(p.detail)
      return
    case 'offer':
      w.u8(1)
      return
    case 'close':
    case 'accept':
      return
    case 'verdict':
      w.u8(VERDICT_OUTCOMES.indexOf(p.outcome))
        .u8(WINNERS.indexOf(p.winner))
        .u8(p.scores[0])
        .u8(p.scores[1])
        .text8(p.detail)
      return
  }
}
