/**
 * The binary encoding of envelopes and their parts (protocol/SPEC.md §3, §5.1, §6.1, §7). Every
 * layout is exact, so every value has one encoding: the decoder refuses trailing bytes, values out
 * of range, lists out of order or over their limit, and text outside printable ASCII, naming the
 * field and the section.
 */
import { formatRuleset, parseRuleset } from '../rules/ruleset.js'
import { HASH_BYTES } from '../../../core/commit/hash.js'
import { PUBLIC_KEY_BYTES, SIGNATURE_BYTES } from '../../../core/commit/keys.js'
import { SALT_BYTES, SEED_BYTES, SETUP_COMMITMENT_BYTES } from './commitments.js'
import { Reader, Writer, decoded, fail } from '../../../core/wire/binary.js'
import { type Decoded, protocolError } from '../../../core/wire/errors.js'
import {
  type Aspects,
  CELL_NAMES,
  CODE_SHIPS,
  type CellName,
  type Destruction,
  type Flashcube,
  type FlashcubeAnswer,
  type Hello,
  INDEX_ROLE,
  LIMITS,
  type MatchTerms,
  PART_CODES,
  PROTOCOL_VERSION,
  type Part,
  type PartType,
  REFUSAL_REASONS,
  ROLE_INDEX,
  type Results,
  type Reveal,
  type RevealedShip,
  type Role,
  SCAN_RESULTS,
  SHIP_CODES,
  STOP_REASONS,
  STRIKE_RESULTS,
  type ScanAnswer,
  type StrikeAnswer,
  type Terms,
  VERDICT_OUTCOMES,
  WINNERS,
  cellIndex,
} from './messages.js'

/** An envelope as values (SPEC §5.1). */
export interface Envelope {
  readonly sender: Role
  readonly seq: number
  /** Present iff `seq >= 1`. */
  readonly game: Uint8Array | undefined
  /** Present iff `seq >= 1`. */
  readonly prev: Uint8Array | undefined
  /** Absent only in A's envelope 0. */
  readonly ack: Uint8Array | undefined
  readonly parts: readonly Part[]
  readonly sig: Uint8Array
}

export type Unsigned = Omit<Envelope, 'sig'>

/* ------------------------------------------------------------------------------------------ */
/* Writing                                                                                     */

/** The writer with Spaceships' cell lists (SPEC §3.1: a count, then one byte per cell). */
class PartWriter extends Writer {
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

function writePart(w: PartWriter, p: Part): void {
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

/** SPEC §5.1: the envelope without its signature (what is hashed and signed). */
export function encodeUnsigned(e: Unsigned): Uint8Array {
  const w = new PartWriter()
  w.u8(PROTOCOL_VERSION).u8(ROLE_INDEX[e.sender]).u16(e.seq)
  if (e.seq >= 1) w.bytes(e.game ?? new Uint8Array(HASH_BYTES)).bytes(e.prev ?? new Uint8Array(HASH_BYTES))
  if (!(e.sender === 'A' && e.seq === 0)) w.bytes(e.ack ?? new Uint8Array(HASH_BYTES))
  w.u8(e.parts.length)
  for (const p of e.parts) writePart(w, p)
  return w.finish()
}

/** SPEC §7: a part count and the parts, as a compact frame carries them (§2.1). */
export function encodeParts(parts: readonly Part[]): Uint8Array {
  const w = new PartWriter()
  w.u8(parts.length)
  for (const p of parts) writePart(w, p)
  return w.finish()
}

/* ------------------------------------------------------------------------------------------ */
/* Reading                                                                                     */

/** The reader with Spaceships' cells and ship types (SPEC §3.1, §7). */
class PartReader extends Reader {
  cell(field: string, rule: string): CellName {
    const c = this.u8(field, rule)
    if (c >= 125) fail('field.range', field, rule, `a cell index is 0..124, got ${c}`)
    return CELL_NAMES[c] ?? ''
  }

  cells(field: string, rule: string, min: number, max: number): CellName[] {
    const n = this.count(field, rule, min, max)
    const out: CellName[] = []
    for (let i = 0; i < n; i++) out.push(this.cell(`${field}[${i}]`, rule))
    return out
  }

  shipType(field: string, rule: string): NonNullable<(typeof CODE_SHIPS)[number]> {
    const code = this.u8(field, rule)
    const t = CODE_SHIPS[code]
    if (t === undefined) fail('field.range', field, rule, `a ship type code is 1..10, got ${code}`)
    return t
  }

}

const ZERO_ID = new Uint8Array(32)

function isZero(b: Uint8Array): boolean {
  return b.every((x) => x === 0)
}

function readTerms(r: PartReader, at: string): Terms {
  const rule = '§6.1'
  const ruleset = r.text(1, LIMITS.rulesetBytes, `${at}.ruleset`, rule)
  const parsed = parseRuleset(ruleset)
  if (!parsed.ok) fail('field.text', `${at}.ruleset`, rule, parsed.error.message)
  if (formatRuleset(parsed.value) !== ruleset)
    fail('field.text', `${at}.ruleset`, rule, `not canonical: write "${formatRuleset(parsed.value)}"`)
  const maxTurns = r.range(`${at}.maxTurns`, rule, r.u16(`${at}.maxTurns`, rule), 1, LIMITS.maxTurns)
  const deadline = (name: string): number =>
    r.range(`${at}.${name}`, rule, r.u32(`${at}.${name}`, rule), LIMITS.minDeadlineMs, LIMITS.maxDeadlineMs)
  const setupMs = deadline('setupMs')
  const turnMs = deadline('turnMs')
  const replyMs = deadline('replyMs')
  r.range(`${at}.sanction`, rule, r.u8(`${at}.sanction`, rule), 1, 1)
  const kindCode = r.range(`${at}.matchKind`, rule, r.u8(`${at}.matchKind`, rule), 0, 2)
  const kind = (['single', 'scored', 'continued'] as const)[kindCode] ?? 'single'
  const game = r.range(`${at}.gameNumber`, rule, r.u8(`${at}.gameNumber`, rule), 1, 255)
  const of = r.u8(`${at}.gameCount`, rule)
  const previous = r.bytes(32, `${at}.previous`, rule)
  const additional: [number, number] = [r.u16(`${at}.additionalA`, rule), r.u16(`${at}.additionalB`, rule)]
  for (const [i, a] of additional.entries()) r.range(`${at}.additional${i === 0 ? 'A' : 'B'}`, rule, a, 0, 125)
  const noExtra = additional[0] === 0 && additional[1] === 0
  if (kind === 'single' && (game !== 1 || of !== 1 || !isZero(previous) || !noExtra))
    fail(
      'field.range',
      `${at}.matchKind`,
      rule,
      'a single game is game 1 of 1, with no previous game and no additional ships',
    )
  if (kind !== 'single' && of !== 0 && of < game) fail('field.range', `${at}.gameCount`, rule, `game ${game} of ${of}`)
  if (kind !== 'single' && (game === 1) !== isZero(previous))
    fail('field.range', `${at}.previous`, rule, 'the previous game id is zero exactly in the first game of a match')
  if (kind !== 'continued' && !noExtra)
    fail('field.range', `${at}.additionalA`, rule, 'additional ships belong to continued matches')
  if (kind === 'continued' && game === 1 && !noExtra)
    fail('field.range', `${at}.additionalA`, rule, 'the first game of a continued match has no additional ships')
  const match: MatchTerms = { kind, game, of, previous: isZero(previous) ? ZERO_ID : previous, additional }
  return { ruleset, maxTurns, setupMs, turnMs, replyMs, sanction: 'forfeit', match }
}

const TURN_RULE = '§7'

function readTurn(r: PartReader, at: string): number {
  return r.range(`${at}.turn`, TURN_RULE, r.u16(`${at}.turn`, TURN_RULE), 1, LIMITS.maxTurns)
}

function readAnswer(r: PartReader, at: string): StrikeAnswer {
  const rule = '§7.6'
  const code = r.range(`${at}.result`, rule, r.u8(`${at}.result`, rule), 0, 2)
  const salt = r.bytes(SALT_BYTES, `${at}.salt`, rule)
  // A hit on a missile explodes it and at most its six face neighbours (C-20).
  const explosions = r.cells(`${at}.explosions`, rule, 0, 7)
  return { result: STRIKE_RESULTS[code] ?? 'miss', salt, explosions }
}

function ascending(r: PartReader, cells: readonly number[], field: string, rule: string): void {
  for (let i = 1; i < cells.length; i++)
    if ((cells[i] ?? 0) <= (cells[i - 1] ?? 0))
      fail('field.order', `${field}[${i}]`, rule, 'cells must be in strictly ascending index order')
}

function readPart(r: PartReader, sender: Role, at: string): Part {
  const code = r.u8(`${at}.type`, '§7')
  switch (code) {
    case PART_CODES.hello: {
      const key = r.bytes(PUBLIC_KEY_BYTES, `${at}.key`, '§6.1')
      const nonce = r.bytes(32, `${at}.nonce`, '§6.1')
      const h: Hello = { t: 'hello', key, nonce, terms: sender === 'A' ? readTerms(r, `${at}.terms`) : undefined }
      return h
    }
    case PART_CODES.refuse: {
      const reason =
        REFUSAL_REASONS[r.range(`${at}.reason`, '§6.2', r.u8(`${at}.reason`, '§6.2'), 1, REFUSAL_REASONS.length) - 1] ??
        'busy'
      return { t: 'refuse', reason, detail: r.text(1, LIMITS.detailBytes, `${at}.detail`, '§6.2') }
    }
    case PART_CODES.setup:
      return { t: 'setup', cells: r.bytes(SETUP_COMMITMENT_BYTES, `${at}.cells`, '§4.2') }
    case PART_CODES.commit:
      return { t: 'commit', turn: readTurn(r, at), record: r.bytes(HASH_BYTES, `${at}.record`, '§4.3') }
    case PART_CODES.aspects: {
      const rule = '§7.5'
      const turn = readTurn(r, at)
      const idle = r.bool(`${at}.idle`, rule)
      const n = r.count(`${at}.beams`, rule, 0, LIMITS.beams)
      const beams: CellName[][] = []
      for (let i = 0; i < n; i++) beams.push(r.cells(`${at}.beams[${i}]`, rule, 3, LIMITS.beamCells))
      const strikes = r.cells(`${at}.strikes`, rule, 0, LIMITS.listItems)
      const scans = r.cells(`${at}.scans`, rule, 0, LIMITS.listItems)
      const kamikaze = r.cells(`${at}.kamikaze`, rule, 0, LIMITS.listItems)
      const a: Aspects = { t: 'aspects', turn, idle, beams, strikes, scans, kamikaze }
      return a
    }
    case PART_CODES.results: {
      const rule = '§7.6'
      const turn = readTurn(r, at)
      const fleetDestroyed = r.bool(`${at}.fleetDestroyed`, rule)
      const nb = r.count(`${at}.beams`, rule, 0, LIMITS.beams)
      const beams: StrikeAnswer[][] = []
      for (let i = 0; i < nb; i++) {
        const k = r.count(`${at}.beams[${i}]`, rule, 3, LIMITS.beamCells)
        const answers: StrikeAnswer[] = []
        for (let j = 0; j < k; j++) answers.push(readAnswer(r, `${at}.beams[${i}][${j}]`))
        beams.push(answers)
      }
      const ns = r.count(`${at}.strikes`, rule, 0, LIMITS.listItems)
      const strikes: StrikeAnswer[] = []
      for (let i = 0; i < ns; i++) strikes.push(readAnswer(r, `${at}.strikes[${i}]`))
      const nq = r.count(`${at}.scans`, rule, 0, LIMITS.listItems)
      const scans: ScanAnswer[] = []
      for (let i = 0; i < nq; i++) {
        const c = r.range(`${at}.scans[${i}].result`, rule, r.u8(`${at}.scans[${i}].result`, rule), 0, 2)
        scans.push({ result: SCAN_RESULTS[c] ?? 'empty', salt: r.bytes(SALT_BYTES, `${at}.scans[${i}].salt`, rule) })
      }
      const nd = r.count(`${at}.destroyed`, rule, 0, LIMITS.listItems)
      const destroyed: Destruction[] = []
      let last = -1
      for (let i = 0; i < nd; i++) {
        const f = `${at}.destroyed[${i}]`
        const type = r.shipType(`${f}.type`, rule)
        const id = r.range(`${f}.id`, rule, r.u8(`${f}.id`, rule), 1, 255)
        const key = SHIP_CODES[type] * 256 + id
        if (key <= last) fail('field.order', f, rule, 'reports must be in strictly ascending (type code, id) order')
        last = key
        const k = r.count(`${f}.cells`, rule, 1, LIMITS.reportCells)
        const cells: { cell: CellName; salt: Uint8Array }[] = []
        const idx: number[] = []
        for (let j = 0; j < k; j++) {
          const cell = r.cell(`${f}.cells[${j}].cell`, rule)
          idx.push(cellIndex(cell))
          cells.push({ cell, salt: r.bytes(SALT_BYTES, `${f}.cells[${j}].salt`, rule) })
        }
        ascending(r, idx, `${f}.cells`, rule)
        destroyed.push({ type, id, cells })
      }
      const res: Results = { t: 'results', turn, fleetDestroyed, beams, strikes, scans, destroyed }
      return res
    }
    case PART_CODES.flashcube: {
      const rule = '§7.7'
      const turn = readTurn(r, at)
      const n = r.count(`${at}.reports`, rule, 0, LIMITS.listItems)
      const reports: FlashcubeAnswer[][] = []
      for (let i = 0; i < n; i++) {
        const k = r.count(`${at}.reports[${i}]`, rule, 1, LIMITS.reportCells)
        const entries: FlashcubeAnswer[] = []
        for (let j = 0; j < k; j++) {
          const f = `${at}.reports[${i}][${j}]`
          const cell = r.cell(`${f}.cell`, rule)
          const kind = r.range(`${f}.kind`, rule, r.u8(`${f}.kind`, rule), 0, 2)
          if (kind === 0) entries.push({ cell, kind: 'empty', salt: r.bytes(SALT_BYTES, `${f}.salt`, rule) })
          else {
            const type = r.shipType(`${f}.type`, rule)
            const id = r.range(`${f}.id`, rule, r.u8(`${f}.id`, rule), 1, 255)
            entries.push({
              cell,
              kind: 'ship',
              type,
              id,
              destroyed: kind === 2,
              salt: r.bytes(SALT_BYTES, `${f}.salt`, rule),
            })
          }
        }
        reports.push(entries)
      }
      const fc: Flashcube = { t: 'flashcube', turn, reports }
      return fc
    }
    case PART_CODES.reveal: {
      const rule = '§7.8'
      const seed = r.bytes(SEED_BYTES, `${at}.seed`, rule)
      const n = r.count(`${at}.setup`, rule, 1, LIMITS.setupShips)
      const setup: RevealedShip[] = []
      let last = -1
      for (let i = 0; i < n; i++) {
        const f = `${at}.setup[${i}]`
        const type = r.shipType(`${f}.type`, rule)
        const id = r.range(`${f}.id`, rule, r.u8(`${f}.id`, rule), 1, 255)
        const key = SHIP_CODES[type] * 256 + id
        if (key <= last) fail('field.order', f, rule, 'ships must be in strictly ascending (type code, id) order')
        last = key
        const cells = r.cells(`${f}.cells`, rule, 1, 125).map(cellIndex)
        ascending(r, cells, `${f}.cells`, rule)
        setup.push({ type, id, cells })
      }
      const nr = r.range(`${at}.records`, rule, r.u16(`${at}.records`, rule), 0, LIMITS.maxTurns)
      const records: string[] = []
      for (let i = 0; i < nr; i++) records.push(r.text(2, LIMITS.recordBytes, `${at}.records[${i}]`, rule))
      const rv: Reveal = { t: 'reveal', seed, setup, records }
      return rv
    }
    case PART_CODES.stop: {
      const reason =
        STOP_REASONS[r.range(`${at}.reason`, '§7.9', r.u8(`${at}.reason`, '§7.9'), 1, STOP_REASONS.length) - 1] ??
        'claim'
      return { t: 'stop', reason, detail: r.text(1, LIMITS.detailBytes, `${at}.detail`, '§7.9') }
    }
    case PART_CODES.verdict: {
      const rule = '§7.10'
      const outcome =
        VERDICT_OUTCOMES[r.range(`${at}.outcome`, rule, r.u8(`${at}.outcome`, rule), 0, VERDICT_OUTCOMES.length - 1)] ??
        'incomplete'
      const winner = WINNERS[r.range(`${at}.winner`, rule, r.u8(`${at}.winner`, rule), 0, WINNERS.length - 1)] ?? 'none'
      const a = r.range(`${at}.scoreA`, rule, r.u8(`${at}.scoreA`, rule), 0, 125)
      const b = r.range(`${at}.scoreB`, rule, r.u8(`${at}.scoreB`, rule), 0, 125)
      return {
        t: 'verdict',
        outcome,
        winner,
        scores: [a, b],
        detail: r.text(1, LIMITS.detailBytes, `${at}.detail`, rule),
      }
    }
    default:
      return fail('field.range', `${at}.type`, '§7', `unknown part type ${code}`)
  }
}

function readParts(r: PartReader, sender: Role, at: string): Part[] {
  const n = r.count(`${at}.count`, '§5.1', 1, 4)
  const parts: Part[] = []
  for (let i = 0; i < n; i++) parts.push(readPart(r, sender, `parts[${i}]`))
  return parts
}

/** Bytes at least this long, of this version and a known sender, frame as an envelope (SPEC §12.1). */
export const MIN_ENVELOPE_BYTES = 4 + SIGNATURE_BYTES

/** What can be read of an envelope without decoding its parts: enough to authenticate it (SPEC §12.2). */
export interface Framed {
  readonly sender: Role
  readonly seq: number
  /** Everything but the signature (SPEC §5.2). */
  readonly unsigned: Uint8Array
  readonly sig: Uint8Array
}

export function frameEnvelope(bytes: Uint8Array): Decoded<Framed> {
  if (bytes.length < MIN_ENVELOPE_BYTES)
    return {
      ok: false,
      error: protocolError(
        'wire.truncated',
        '',
        '§5.1',
        `${bytes.length} bytes; an envelope has at least ${MIN_ENVELOPE_BYTES}`,
      ),
    }
  if (bytes.length > LIMITS.revealEnvelopeBytes)
    return {
      ok: false,
      error: protocolError('wire.too-large', '', '§9', `${bytes.length} bytes; at most ${LIMITS.revealEnvelopeBytes}`),
    }
  if (bytes[0] !== PROTOCOL_VERSION)
    return {
      ok: false,
      error: protocolError(
        'wire.version',
        'version',
        '§5.1',
        `version ${bytes[0] ?? 0}; this is version ${PROTOCOL_VERSION}`,
      ),
    }
  const role = INDEX_ROLE[bytes[1] ?? 9]
  if (role === undefined || (bytes[1] ?? 9) > 1)
    return {
      ok: false,
      error: protocolError('field.range', 'sender', '§5.1', `sender ${bytes[1] ?? 0}; 0 (A) or 1 (B)`),
    }
  const seq = ((bytes[2] ?? 0) << 8) | (bytes[3] ?? 0)
  const cut = bytes.length - SIGNATURE_BYTES
  return { ok: true, value: { sender: role, seq, unsigned: bytes.slice(0, cut), sig: bytes.slice(cut) } }
}

/** Decodes an envelope's unsigned bytes and signature strictly (SPEC §5.1, §7, §9). */
export function decodeFramed(f: Framed): Decoded<Envelope> {
  return decoded(() => {
    const r = new PartReader(f.unsigned)
    r.u8('version', '§5.1')
    r.u8('sender', '§5.1')
    const seq = r.range('seq', '§9', r.u16('seq', '§5.1'), 0, LIMITS.maxSeq)
    const game = seq >= 1 ? r.bytes(HASH_BYTES, 'game', '§5.1') : undefined
    const prev = seq >= 1 ? r.bytes(HASH_BYTES, 'prev', '§5.1') : undefined
    const ack = f.sender === 'A' && seq === 0 ? undefined : r.bytes(HASH_BYTES, 'ack', '§5.1')
    const parts = readParts(r, f.sender, 'parts')
    r.end('parts', '§5.1')
    if (f.unsigned.length + SIGNATURE_BYTES > LIMITS.envelopeBytes && !parts.some((p) => p.t === 'reveal')) {
      fail(
        'wire.too-large',
        '',
        '§9',
        `${f.unsigned.length + SIGNATURE_BYTES} bytes; only an envelope with a reveal may exceed ${LIMITS.envelopeBytes}`,
      )
    }
    const e: Envelope = { sender: f.sender, seq, game, prev, ack, parts, sig: f.sig }
    return e
  })
}

export function decodeEnvelopeBytes(bytes: Uint8Array): Decoded<Envelope> {
  const f = frameEnvelope(bytes)
  return f.ok ? decodeFramed(f.value) : f
}

/** Decodes a part count and parts as a compact frame carries them (SPEC §2.1). */
export function decodeParts(bytes: Uint8Array, sender: Role): Decoded<Part[]> {
  return decoded(() => {
    const r = new PartReader(bytes)
    const parts = readParts(r, sender, 'parts')
    r.end('parts', '§2.1')
    return parts
  })
}

export function partTypes(parts: readonly Part[]): PartType[] {
  return parts.map((p) => p.t)
}
