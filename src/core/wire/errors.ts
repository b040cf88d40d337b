/**
 * Coded errors for untrusted protocol input (protocol/SPEC.md §10). Decoders return these, never
 * throw: each names the offending field by its path and the spec section it breaks.
 */
export const PROTOCOL_ERROR_CODES = [
  'wire.too-large',
  'wire.truncated',
  'wire.trailing',
  'wire.version',
  'wire.frame',
  'wire.base64',
  'field.range',
  'field.text',
  'field.order',
  'field.count',
  'file.header',
  'file.version',
  'file.too-large',
  'file.line',
  /** Invites (SPEC §2.3) are JSON: these name what is wrong with a field of one. */
  'wire.json',
  'field.type',
  'field.missing',
  'field.unknown',
  'field.format',
  'field.length',
  /** The file could not be read at all (the CLI's report; no decoder returns it). */
  'file.io',
] as const
export type ProtocolErrorCode = (typeof PROTOCOL_ERROR_CODES)[number]

export interface ProtocolError {
  readonly code: ProtocolErrorCode
  /** Path of the offending field, e.g. `results.strikes[2].salt`; `` for the whole input. */
  readonly field: string
  /** The SPEC.md section broken, e.g. `§7.6`. */
  readonly rule: string
  readonly message: string
}

export function protocolError(code: ProtocolErrorCode, field: string, rule: string, message: string): ProtocolError {
  return { code, field, rule, message }
}

export function describeProtocolError(e: ProtocolError): string {
  return `${e.code}${e.field === '' ? '' : ` at ${e.field}`} (SPEC ${e.rule}): ${e.message}`
}

export type Decoded<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: ProtocolError }
