/**
 * The part readers (protocol/SPEC.md §3, §6.1, §7): each part of an envelope read strictly from
 * its bytes, refusing values out of range, lists out of order or over their limit, for `codec.ts`,
 * which reads the envelope around them.
 */
import { formatRuleset, parseRuleset } from '../rules/ruleset.js'
import { HASH_BYTES } from '../../../core/commit/hash.js'
import { PUBLIC_KEY_BYTES, publicKeyProblem } from '../../../core/commit/keys.js'
import { SALT_BYTES, SEED_BYTES, SETUP_COMMITMENT_BYTES } from './commitments.js'
import { Reader, fail } from '../../../core/wire/binary.js'
import {
  type Aspects,
  CELL_NAMES,
  CODE_SHIPS,
  type CellName,
  type Destruction,
  type Flashcube,
  type FlashcubeAnswer,
  type Hello,
  LIMITS,
  type MatchTerms,
  PART_CODES_BY_VERSION,
  type Part,
  type PartType,
  type ProtocolVersion,
  REFUSAL_REASONS,
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

/** The reader with Spaceships' cells and ship types (SPEC §3.1, §7). */
export class PartReader extends Reader {
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

function readTerms(r: PartReader, at: string, version: ProtocolVersion): Terms {
  const rule = '§6.1'
  const ruleset = r.text(1, LIMITS.rulesetBytes, `${at}.ruleset`, rule)
  const parsed = parseRuleset(ruleset)
  if (!parsed.ok) fail('field.text', `${at}.ruleset`, rule, parsed.error.message)
  if (formatRuleset(parsed.value) !== ruleset)
    fail('field.text', `${at}.ruleset`, rule, `not canonical: write "${formatRuleset(parsed.value)}"`)
  const maxTurns = r.range(`${at}.maxTurns`, rule, r.u16(`${at}.maxTurns`, rule), 1, LIMITS.maxTurns)
  const maxDeadline = version === 3 ? LIMITS.maxDeadlineMs : LIMITS.maxDeadlineMsV4
  const deadline = (name: string): number =>
    r.range(`${at}.${name}`, rule, r.u32(`${at}.${name}`, rule), LIMITS.minDeadlineMs, maxDeadline)
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
  const terms: Terms = { ruleset, maxTurns, setupMs, turnMs, replyMs, sanction: 'forfeit', match }
  return version === 3 ? terms : { ...terms, ...readWitness(r, at) }
}

/** SPEC §6.1 (version 4): the reserve and the witness terms. */
function readWitness(r: PartReader, at: string): { reserveMs: number; notary?: Uint8Array } {
  const rule = '§6.1'
  const reserveMs = r.range(`${at}.reserveMs`, rule, r.u32(`${at}.reserveMs`, rule), 0, LIMITS.maxReserveMs)
  const witness = r.range(`${at}.witness`, rule, r.u8(`${at}.witness`, rule), 0, 1)
  if (witness === 0) {
    // A reserve is drawn down by receipts: without a notary nothing could draw it down.
    if (reserveMs !== 0) fail('field.range', `${at}.reserveMs`, rule, 'a time reserve needs a notary (witness 1)')
    return { reserveMs }
  }
  const notary = r.bytes(PUBLIC_KEY_BYTES, `${at}.notary`, rule)
  const problem = publicKeyProblem(notary)
  if (problem !== undefined) fail('field.range', `${at}.notary`, '§5.2', `the notary key is not usable (${problem})`)
  return { reserveMs, notary }
}

const TURN_RULE = '§7'

function readTurn(r: PartReader, at: string): number {
  return r.range(`${at}.turn`, TURN_RULE, r.u16(`${at}.turn`, TURN_RULE), 1, LIMITS.maxTurns)
}

function readAnswer(r: PartReader, at: string, version: ProtocolVersion): StrikeAnswer {
  const rule = '§7.6'
  const code = r.range(`${at}.result`, rule, r.u8(`${at}.result`, rule), 0, 2)
  const salt = r.bytes(SALT_BYTES, `${at}.salt`, rule)
  // A hit on a missile explodes it and at most its six face neighbours (C-20).
  const explosions = r.cells(`${at}.explosions`, rule, 0, 7)
  const answer: StrikeAnswer = { result: STRIKE_RESULTS[code] ?? 'miss', salt, explosions }
  if (version === 3) return answer
  // Version 4: the occupancy opening of each explosion cell after the target (PROTOCOL-4.md §7).
  const explosionSalts: Uint8Array[] = []
  for (let i = 1; i < explosions.length; i++)
    explosionSalts.push(r.bytes(SALT_BYTES, `${at}.explosionSalts[${i - 1}]`, rule))
  return { ...answer, explosionSalts }
}

/** SPEC §7: each version's part types by code. */
const CODE_PARTS: Readonly<Record<ProtocolVersion, ReadonlyMap<number, PartType>>> = {
  3: new Map(Object.entries(PART_CODES_BY_VERSION[3]).map(([t, c]) => [c, t as PartType])),
  4: new Map(Object.entries(PART_CODES_BY_VERSION[4]).map(([t, c]) => [c, t as PartType])),
}

function ascending(r: PartReader, cells: readonly number[], field: string, rule: string): void {
  for (let i = 1; i < cells.length; i++)
    if ((cells[i] ?? 0) <= (cells[i - 1] ?? 0))
      fail('field.order', `${field}[${i}]`, rule, 'cells must be in strictly ascending index order')
}

function readPart(r: PartReader, sender: Role, at: string, version: ProtocolVersion): Part {
  const code = r.u8(`${at}.type`, '§7')
  const type = CODE_PARTS[version].get(code)
  switch (type) {
    case 'hello': {
      const key = r.bytes(PUBLIC_KEY_BYTES, `${at}.key`, '§6.1')
      const nonce = r.bytes(32, `${at}.nonce`, '§6.1')
      const terms = sender === 'A' ? readTerms(r, `${at}.terms`, version) : undefined
      const h: Hello = { t: 'hello', key, nonce, terms }
      return h
    }
    case 'refuse': {
      const reason =
        REFUSAL_REASONS[r.range(`${at}.reason`, '§6.2', r.u8(`${at}.reason`, '§6.2'), 1, REFUSAL_REASONS.length) - 1] ??
        'busy'
      return { t: 'refuse', reason, detail: r.text(1, LIMITS.detailBytes, `${at}.detail`, '§6.2') }
    }
    case 'setup':
      return { t: 'setup', cells: r.bytes(SETUP_COMMITMENT_BYTES, `${at}.cells`, '§4.2') }
    case 'commit':
      return { t: 'commit', turn: readTurn(r, at), record: r.bytes(HASH_BYTES, `${at}.record`, '§4.3') }
    case 'aspects': {
      const rule = '§7.5'
      const turn = readTurn(r, at)
      const idle = r.bool(`${at}.idle`, rule)
      const n = r.count(`${at}.beams`, rule, 0, LIMITS.beams)
      const beams: CellName[][] = []
      for (let i = 0; i < n; i++) beams.push(r.cells(`${at}.beams[${i}]`, rule, 3, LIMITS.beamCells))
      const strikes = r.cells(`${at}.strikes`, rule, 0, LIMITS.listItems)
      const scans = r.cells(`${at}.scans`, rule, 0, LIMITS.listItems)
      if (version === 3) {
        const kamikaze = r.cells(`${at}.kamikaze`, rule, 0, LIMITS.listItems)
        const a: Aspects = { t: 'aspects', turn, idle, beams, strikes, scans, kamikaze }
        return a
      }
      // Version 4: each launch cell with its occupancy opening (PROTOCOL-4.md §7).
      const n4 = r.count(`${at}.kamikaze`, rule, 0, LIMITS.listItems)
      const kamikaze: CellName[] = []
      const kamikazeSalts: Uint8Array[] = []
      for (let i = 0; i < n4; i++) {
        kamikaze.push(r.cell(`${at}.kamikaze[${i}].cell`, rule))
        kamikazeSalts.push(r.bytes(SALT_BYTES, `${at}.kamikaze[${i}].salt`, rule))
      }
      const a: Aspects = { t: 'aspects', turn, idle, beams, strikes, scans, kamikaze, kamikazeSalts }
      return a
    }
    case 'results': {
      const rule = '§7.6'
      const turn = readTurn(r, at)
      const fleetDestroyed = r.bool(`${at}.fleetDestroyed`, rule)
      const nb = r.count(`${at}.beams`, rule, 0, LIMITS.beams)
      const beams: StrikeAnswer[][] = []
      for (let i = 0; i < nb; i++) {
        const k = r.count(`${at}.beams[${i}]`, rule, 3, LIMITS.beamCells)
        const answers: StrikeAnswer[] = []
        for (let j = 0; j < k; j++) answers.push(readAnswer(r, `${at}.beams[${i}][${j}]`, version))
        beams.push(answers)
      }
      const ns = r.count(`${at}.strikes`, rule, 0, LIMITS.listItems)
      const strikes: StrikeAnswer[] = []
      for (let i = 0; i < ns; i++) strikes.push(readAnswer(r, `${at}.strikes[${i}]`, version))
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
    case 'flashcube': {
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
    case 'reveal': {
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
    case 'stop': {
      // Version 3 has four reasons; version 4 adds the outage (5).
      const reasons = version === 3 ? 4 : STOP_REASONS.length
      const reason = STOP_REASONS[r.range(`${at}.reason`, '§7.9', r.u8(`${at}.reason`, '§7.9'), 1, reasons) - 1] ?? 'claim'
      return { t: 'stop', reason, detail: r.text(1, LIMITS.detailBytes, `${at}.detail`, '§7.9') }
    }
    case 'close':
      return { t: 'close' }
    case 'offer':
      r.range(`${at}.kind`, '§7.11', r.u8(`${at}.kind`, '§7.11'), 1, 1)
      return { t: 'offer', kind: 'draw' }
    case 'accept':
      return { t: 'accept' }
    case 'verdict': {
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

export function readParts(r: PartReader, sender: Role, at: string, version: ProtocolVersion = 3): Part[] {
  const n = r.count(`${at}.count`, '§5.1', 1, 4)
  const parts: Part[] = []
  for (let i = 0; i < n; i++) parts.push(readPart(r, sender, `parts[${i}]`, version))
  return parts
}
