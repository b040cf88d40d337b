/**
 * The part writers (protocol/SPEC.md §3, §6.1, §7): each part of an envelope as its exact bytes,
 * for `codec.ts`, which frames them as an envelope or a compact frame's part list.
 */
import { SALT_BYTES } from './commitments.js'
import { Writer } from '../../../core/wire/binary.js'
import {
  type CellName,
  PART_CODES,
  type Part,
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

function writeTerms(w: PartWriter, t: Terms): void {
  w.text8(t.ruleset).u16(t.maxTurns).u32(t.setupMs).u32(t.turnMs).u32(t.replyMs).u8(1)
  const m = t.match
  w.u8(m.kind === 'single' ? 0 : m.kind === 'scored' ? 1 : 2)
    .u8(m.game)
    .u8(m.of)
    .bytes(m.previous)
    .u16(m.additional[0])
    .u16(m.additional[1])
}

/** SPEC §7.6, §7.7: a salt is exactly `SALT_BYTES`; anything else would be signed as malformed bytes. */
function salt(s: Uint8Array): Uint8Array {
  if (s.length !== SALT_BYTES) throw new Error(`a salt is ${SALT_BYTES} bytes, not ${s.length}`)
  return s
}

function writeAnswer(w: PartWriter, a: StrikeAnswer): void {
  w.u8(STRIKE_RESULTS.indexOf(a.result)).bytes(salt(a.salt)).cells(a.explosions)
}

export function writePart(w: PartWriter, p: Part): void {
  w.u8(PART_CODES[p.t])
  switch (p.t) {
    case 'hello':
      w.bytes(p.key).bytes(p.nonce)
      if (p.terms !== undefined) writeTerms(w, p.terms)
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
      w.cells(p.strikes).cells(p.scans).cells(p.kamikaze)
      return
    case 'results':
      w.u16(p.turn)
        .u8(p.fleetDestroyed ? 1 : 0)
        .u8(p.beams.length)
      for (const b of p.beams) {
        w.u8(b.length)
        for (const a of b) writeAnswer(w, a)
      }
      w.u8(p.strikes.length)
      for (const a of p.strikes) writeAnswer(w, a)
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
      w.u8(STOP_REASONS.indexOf(p.reason) + 1).text8(p.detail)
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
