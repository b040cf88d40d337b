/**
 * Action records in the conventional notation (2.6.1 §11.5, classic §8.2; C-06). A record is a
 * list of tokens. Missile and kamikaze tokens are each followed by their target as a separate
 * strike token (§11.5.3, §11.5.5); the parser binds that target to them, so the model says which
 * strike each missile or kamikaze launched, and the remaining strike tokens are conventional.
 */
import {
  COLOURS,
  type Cell,
  LETTERS,
  NUMBERS,
  type PartialCell,
  type Row,
  formatCell,
  formatPartial,
  isFullPartial,
  parseCell,
  readPartial,
} from './coords.js'
import { type Result, type RuleViolation, fail, ok, violation } from './errors.js'
import type { NotationMode } from './setup.js'
import { type ShipType, type Variant, isShipType } from './ships.js'

/** A ship named in a beam tag: `(DS2)`; id undefined when written without one. */
export interface ShipTag {
  readonly type: ShipType
  readonly id: number | undefined
}

export type Action =
  | { readonly kind: 'strike'; readonly target: Cell }
  /** 2.6.1 beam: the two written end cells of a 3-cell line (§11.5.2, C-04). */
  | { readonly kind: 'beam'; readonly ends: readonly [Cell, Cell]; readonly tag: ShipTag | undefined }
  /** Classic beam: a full 5-cell axial row named by two coordinate values (classic §8.2.2). */
  | { readonly kind: 'row'; readonly row: Row }
  | { readonly kind: 'missile'; readonly launch: PartialCell; readonly target: Cell }
  | { readonly kind: 'kamikaze'; readonly launch: Cell; readonly target: Cell }
  | { readonly kind: 'scan'; readonly target: Cell }

export type ActionRecord = readonly Action[]

export interface RecordSyntax {
  readonly variant: Variant
  /** strict: canonical text only (single spaces, full missile cells); lenient: for people typing. */
  readonly mode: NotationMode
}

function formatTag(tag: ShipTag): string {
  return `(${tag.type}${tag.id === undefined ? '' : String(tag.id)})`
}

export function formatAction(a: Action): string {
  switch (a.kind) {
    case 'strike':
      return formatCell(a.target)
    case 'beam':
      return `b${formatCell(a.ends[0])}${formatCell(a.ends[1])}${a.tag === undefined ? '' : formatTag(a.tag)}`
    case 'row':
      return `b${formatPartial(a.row.fixed)}`
    case 'missile':
      return `m${formatPartial(a.launch)} ${formatCell(a.target)}`
    case 'kamikaze':
      return `k${formatCell(a.launch)} ${formatCell(a.target)}`
    case 'scan':
      return `s${formatCell(a.target)}`
  }
}

/** Record text with single spaces; the empty record is the empty string. */
export function formatRecord(record: ActionRecord): string {
  return record.map(formatAction).join(' ')
}

function cellAt(word: string, rule: string, what: string): Result<Cell, RuleViolation> {
  const cell = parseCell(word)
  if (cell.ok) return cell
  return fail({ ...cell.error, rule: `${cell.error.rule} ${rule}`, message: `${what}: ${cell.error.message}` })
}

function parseBeam(word: string, syntax: RecordSyntax): Result<Action, RuleViolation> {
  const body = word.slice(1)
  if (syntax.variant === 'classic') {
    const { partial, used } = readPartial(body)
    const given = [partial.colour, partial.letter, partial.number].filter((v) => v !== undefined).length
    if (used !== body.length || given !== 2) {
      return fail(
        violation(
          'beam.syntax',
          'classic §8.2.2',
          word,
          'a classic beam is b and the two coordinate values that fix a row, e.g. bRv, bR1 or bv1',
        ),
      )
    }
    const free = partial.colour === undefined ? 0 : partial.letter === undefined ? 1 : 2
    return ok({ kind: 'row', row: { free, fixed: partial } })
  }
  const m = /^([A-Za-z0-9]{3})([A-Za-z0-9]{3})(?:\((.*)\))?$/.exec(body)
  if (m === null) {
    return fail(
      violation(
        'beam.syntax',
        'C-06 §11.5.2',
        word,
        'a beam is b and the two end cells of its line, e.g. bRv1Rv3, with an optional (DS2) tag',
      ),
    )
  }
  const a = cellAt(m[1] ?? '', '§11.5.2', 'first beam end')
  if (!a.ok) return a
  const b = cellAt(m[2] ?? '', '§11.5.2', 'second beam end')
  if (!b.ok) return b
  let tag: ShipTag | undefined
  if (m[3] !== undefined) {
    const t = /^([A-Z]{2})([1-9][0-9]{0,2})?$/.exec(m[3])
    if (t === null || !isShipType(t[1] ?? '')) {
      return fail(
        violation(
          'beam.tag-syntax',
          'C-15 §11.5.2.1',
          word,
          'the beam tag names the firing ship by type and identity, e.g. (DS2)',
        ),
      )
    }
    tag = { type: t[1] as ShipType, id: t[2] === undefined ? undefined : Number(t[2]) }
  }
  return ok({ kind: 'beam', ends: [a.value, b.value], tag })
}

/**
 * Parses a record. Errors name the token, the reason and the rule. In lenient mode commas separate
 * too, `-` alone means the empty record, and a missile's target may be joined to it (`m1Ox3`).
 */
export function parseRecord(text: string, syntax: RecordSyntax): Result<ActionRecord> {
  let words: string[]
  if (syntax.mode === 'strict') {
    if (text === '') return ok([])
    if (text !== text.trim() || /\s\s|[^\S ]/.test(text)) {
      return fail([violation('token.separator', 'C-06', text, 'canonical records separate tokens by single spaces')])
    }
    words = text.split(' ')
  } else {
    words = text.split(/[\s,]+/).filter((w) => w !== '')
    if (words.length === 1 && words[0] === '-') words = []
  }
  const actions: Action[] = []
  const errors: RuleViolation[] = []
  let i = 0
  // A missile or kamikaze token waits for its target: the next token, which must be a cell.
  const takeTarget = (word: string, kind: 'missile' | 'kamikaze', joined: string): Result<Cell, RuleViolation> => {
    const code = kind === 'missile' ? 'missile.target-missing' : 'kamikaze.target-missing'
    const rule = kind === 'missile' ? 'C-06 §11.5.3' : 'C-06 §11.5.5'
    const next = joined !== '' ? joined : words[i]
    if (joined === '') i++
    if (next === undefined) return fail(violation(code, rule, word, `a ${kind} strike is followed by its target cell`))
    const cell = parseCell(next)
    if (!cell.ok)
      return fail(
        violation(
          code,
          rule,
          `${word} ${next}`,
          `a ${kind} strike is followed by its target cell; ${cell.error.message}`,
        ),
      )
    return cell
  }
  while (i < words.length) {
    const word = words[i] ?? ''
    i++
    const head = word[0] ?? ''
    if (head === 'b') {
      const beam = parseBeam(word, syntax)
      if (beam.ok) actions.push(beam.value)
      else errors.push(beam.error)
    } else if (head === 's') {
      if (syntax.variant === 'classic') {
        errors.push(violation('token.unknown', 'C-28 classic', word, 'the classic variant has no scans'))
        continue
      }
      const cell = cellAt(word.slice(1), 'C-06 §11.5.4', 'scan target')
      if (cell.ok) actions.push({ kind: 'scan', target: cell.value })
      else errors.push({ ...cell.error, subject: word })
    } else if (head === 'm') {
      const { partial, used } = readPartial(word.slice(1))
      const rest = word.slice(1 + used)
      if (used === 0 || (rest !== '' && syntax.mode === 'strict')) {
        errors.push(
          violation(
            'missile.launch-syntax',
            'C-06 §11.5.3',
            word,
            'a missile strike is m and 1 to 3 coordinate values of the launch cell, then its target cell, e.g. mRv1 Ox3',
          ),
        )
        continue
      }
      if (syntax.mode === 'strict' && !isFullPartial(partial)) {
        errors.push(
          violation(
            'missile.launch-syntax',
            'C-06 §11.5.3',
            word,
            'canonical records write the missile launch cell in full',
          ),
        )
        continue
      }
      const target = takeTarget(word, 'missile', rest)
      if (target.ok) actions.push({ kind: 'missile', launch: partial, target: target.value })
      else errors.push(target.error)
    } else if (head === 'k') {
      const launch = cellAt(word.slice(1), 'C-06 §11.5.5', 'kamikaze launch cell')
      if (!launch.ok) {
        errors.push({ ...launch.error, subject: word })
        continue
      }
      const target = takeTarget(word, 'kamikaze', '')
      if (target.ok) actions.push({ kind: 'kamikaze', launch: launch.value, target: target.value })
      else errors.push(target.error)
    } else if ((COLOURS as readonly string[]).includes(head) || word.length === 3) {
      const cell = cellAt(word, 'C-06 §11.5.1', 'strike target')
      if (cell.ok) actions.push({ kind: 'strike', target: cell.value })
      else errors.push(cell.error)
    } else {
      const hint =
        (LETTERS as readonly string[]).includes(head) || (NUMBERS as readonly string[]).includes(head)
          ? ' (cells start with a colour R O Y G B)'
          : ''
      errors.push(
        violation('token.unknown', 'C-06 §11.5', word, `not an action: a cell, b..., m..., k..., or s...${hint}`),
      )
    }
  }
  return errors.length > 0 ? fail(errors) : ok(actions)
}
