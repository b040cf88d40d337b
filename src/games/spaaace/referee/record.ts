/**
 * The open game record of rules/spaaace.md's appendix, read one line at a time. Lines are
 * classified here; the referee (referee.ts) holds the game and decides what each line means in
 * its place. Structure only: a bad order set is malformed by S-37, never a record error.
 */
import { parseOrderSet } from '../rules/orders.js'
import { sectorCount } from '../rules/state.js'
import { DEFAULT_TERMS, NUMERIC_TERMS, OPTIONS, type NumericTerm, type Submission, type Terms } from '../rules/types.js'

/** The citation of a record error that no S-rule governs. */
export const RECORD_RULE = 'spaaace.md appendix'
export const FORMAT_LINE = 'spaaace 1'
const LABEL = /^[A-Za-z0-9_-]{1,32}$/
const NUMBER = /^-?(0|[1-9][0-9]*)$/
const START = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})Z$/

/** A record error: the line (1-based) and a message that names the rule. */
export class RecordError extends Error {
  constructor(
    readonly line: number,
    message: string,
  ) {
    super(message)
  }
}

export function isLabel(text: string): boolean {
  return LABEL.test(text)
}

/** A line without its comment and surrounding blanks (`#` starts a comment anywhere). */
export function stripLine(raw: string): string {
  const hash = raw.indexOf('#')
  return (hash >= 0 ? raw.slice(0, hash) : raw).trim()
}

export type RecordLine =
  | { readonly kind: 'blank' }
  | { readonly kind: 'format' }
  | { readonly kind: 'terms'; readonly items: readonly string[] }
  | { readonly kind: 'player'; readonly label: string }
  | { readonly kind: 'tick'; readonly tick: number }
  | { readonly kind: 'orders'; readonly label: string; readonly text: string }
  | { readonly kind: 'other' }

/** Classifies one line of the record by its shape alone. */
export function classify(raw: string): RecordLine {
  const line = stripLine(raw)
  if (line === '') return { kind: 'blank' }
  const colon = /^([^\s:]+):(.*)$/.exec(line)
  if (colon !== null) {
    const label = colon[1] ?? ''
    return isLabel(label) ? { kind: 'orders', label, text: (colon[2] ?? '').trim() } : { kind: 'other' }
  }
  const [word, ...rest] = line.split(/\s+/)
  if (line === FORMAT_LINE || (word === 'spaaace' && rest.length === 1 && rest[0] === '1')) return { kind: 'format' }
  if (word === 'terms') return { kind: 'terms', items: rest }
  if (word === 'player' && rest.length === 1 && isLabel(rest[0] ?? '')) return { kind: 'player', label: rest[0] ?? '' }
  if (word === 'tick' && rest.length === 1 && NUMBER.test(rest[0] ?? '') && Number(rest[0]) >= 1)
    return { kind: 'tick', tick: Number(rest[0]) }
  return { kind: 'other' }
}

/** `start=YYYY-MM-DDTHH:MM:SSZ` as milliseconds since the epoch, or null when it names no instant. */
export function parseStart(text: string): number | null {
  const m = START.exec(text)
  if (m === null) return null
  const [y, mo, d, h, mi, s] = m.slice(1).map(Number) as [number, number, number, number, number, number]
  const at = new Date(0)
  at.setUTCFullYear(y, mo - 1, d)
  at.setUTCHours(h, mi, s, 0)
  // A date that rolled over (2019-02-30, 24:00:00) names no instant as written.
  if (
    at.getUTCFullYear() !== y ||
    at.getUTCMonth() !== mo - 1 ||
    at.getUTCDate() !== d ||
    at.getUTCHours() !== h ||
    at.getUTCMinutes() !== mi ||
    at.getUTCSeconds() !== s
  )
    return null
  return at.getTime()
}

function isNumericTerm(name: string): name is NumericTerm {
  return Object.hasOwn(NUMERIC_TERMS, name)
}

/** The terms of a `terms` line's items (S-90), or a RecordError at `line`. */
export function parseTerms(items: readonly string[], line: number): Terms {
  const seen = new Set<string>()
  const terms: { -readonly [K in keyof Terms]: Terms[K] } = { ...DEFAULT_TERMS }
  for (const item of items) {
    const eq = item.indexOf('=')
    const name = eq < 0 ? item : item.slice(0, eq)
    const value = eq < 0 ? '' : item.slice(eq + 1)
    if (eq < 0) throw new RecordError(line, `bad terms item "${item}": expected name=value (${RECORD_RULE})`)
    if (seen.has(name)) throw new RecordError(line, `term ${name} given twice (${RECORD_RULE}, S-90)`)
    seen.add(name)
    if (isNumericTerm(name)) {
      const b = NUMERIC_TERMS[name]
      if (!NUMBER.test(value)) throw new RecordError(line, `term ${name}=${value} is not a number (${RECORD_RULE})`)
      const v = Number(value)
      if (v < b.min || v > b.max)
        throw new RecordError(line, `term ${name}=${value} is outside ${b.min}..${b.max} (${b.rule}, S-90)`)
      terms[name] = v
    } else if ((OPTIONS as readonly string[]).includes(name)) {
      if (value !== 'on' && value !== 'off')
        throw new RecordError(line, `term ${name}=${value}: expected on or off (${RECORD_RULE})`)
      terms[name as (typeof OPTIONS)[number]] = value === 'on'
    } else if (name === 'start') {
      const at = parseStart(value)
      if (at === null)
        throw new RecordError(line, `term start=${value}: expected a UTC time YYYY-MM-DDTHH:MM:SSZ (S-11)`)
      terms.start = at
    } else {
      throw new RecordError(line, `unknown term "${name}" (${RECORD_RULE}, S-90)`)
    }
  }
  if (terms.wormhole && (terms.start === null || terms.tickMs === null))
    throw new RecordError(line, `wormhole=on needs start and tickMs (S-11)`)
  return terms
}

/** What a line `LABEL: ORDERS` counts as for player `self` (S-37, S-60..S-62, the appendix). */
export function submissionOf(text: string, roster: readonly string[], self: number): Submission {
  switch (text) {
    case '-':
      return {
        kind: 'orders',
        orders: { repair: null, buy: null, move: null, attack: null, bid: null, claim: false, alliances: [] },
      }
    case 'withheld':
    case 'mismatch':
    case 'equivocated':
      return { kind: text }
  }
  const parsed = parseOrderSet(text, roster, self, sectorCount(roster.length))
  return parsed.ok ? { kind: 'orders', orders: parsed.orders } : { kind: 'malformed', reason: parsed.reason }
}
