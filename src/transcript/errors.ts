/**
 * Coded errors for untrusted protocol input (protocol/SPEC.md §9). Decoders return these, never
 * throw: each names the offending field by its JSON path and the spec section it breaks.
 */
export const PROTOCOL_ERROR_CODES = [
  'wire.too-large',
  'wire.utf8',
  'wire.json',
  'wire.not-canonical',
  'wire.frame',
  'field.missing',
  'field.unknown',
  'field.type',
  'field.range',
  'field.format',
  'field.length',
  'file.header',
  'file.too-large',
  /** The file could not be read at all (the CLI's report; no decoder returns it). */
  'file.io',
] as const
export type ProtocolErrorCode = (typeof PROTOCOL_ERROR_CODES)[number]

export interface ProtocolError {
  readonly code: ProtocolErrorCode
  /** JSON path of the offending field, e.g. `body.strikes[2].salt`; `` for the whole message. */
  readonly field: string
  /** The SPEC.md section broken. */
  readonly rule: string
  readonly message: string
}

export function protocolError(code: ProtocolErrorCode, field: string, rule: string, message: string): ProtocolError {
  return { code, field, rule, message }
}

export function describeProtocolError(e: ProtocolError): string {
  return `${e.code}${e.field === '' ? '' : ` at ${e.field}`} (SPEC ${e.rule}): ${e.message}`
}
