/**
 * Coded results for everything the rules reject. The engine never throws for illegal input
 * (boardgame.io style): it returns a `RuleViolation` naming the offending token or field, the
 * rule broken (a clarification tag `C-nn` or a paragraph `§x.y` of the rules in force) and a
 * message a person can act on.
 */
export const VIOLATION_CODES = [
  // notation (C-01, C-05, C-06)
  'cell.syntax',
  'cell.colour',
  'cell.letter',
  'cell.number',
  'token.unknown',
  'token.separator',
  'missile.launch-syntax',
  'missile.target-missing',
  'kamikaze.target-missing',
  'beam.syntax',
  'beam.tag-syntax',
  'ship.type-unknown',
  'ship.identity-syntax',
  'setup.line-syntax',
  // setup (§3, §6, C-05, C-08..C-11)
  'setup.duplicate-cell',
  'setup.intersect',
  'setup.shape',
  'setup.size',
  'setup.fleet',
  'setup.identity',
  'setup.type-not-in-variant',
  // records (C-07, C-12..C-17)
  'record.strikes-exceed-pool',
  'record.missile-ambiguous',
  'record.missile-no-match',
  'record.missile-twice',
  'record.kamikaze-not-entitled',
  'record.kamikaze-launch',
  'record.kamikaze-twice',
  'record.beam-line',
  'record.beam-not-entitled',
  'record.beam-tag-required',
  'record.beam-tag-wrong',
  'record.beam-assignment',
  'record.scans-exceed',
  'record.not-canonical',
] as const

export type ViolationCode = (typeof VIOLATION_CODES)[number]

export interface RuleViolation {
  readonly code: ViolationCode
  /** Clarification tag or rule paragraph, e.g. `C-06` or `§11.5.3`; several joined by a space. */
  readonly rule: string
  /** The token, line or field that is wrong, exactly as written where there is one. */
  readonly subject: string
  readonly message: string
}

export type Result<T, E = readonly RuleViolation[]> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: E }

export function ok<T>(value: T): { readonly ok: true; readonly value: T } {
  return { ok: true, value }
}

export function fail<E>(error: E): { readonly ok: false; readonly error: E } {
  return { ok: false, error }
}

export function violation(code: ViolationCode, rule: string, subject: string, message: string): RuleViolation {
  return { code, rule, subject, message }
}

/** One line per violation, `subject: message (rule)`, for terminals and logs. */
export function describeViolation(v: RuleViolation): string {
  return `${v.subject === '' ? '' : `${v.subject}: `}${v.message} (${v.rule})`
}
