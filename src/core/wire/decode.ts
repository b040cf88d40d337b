/**
 * A small strict decoder toolkit over parsed JSON: every value is checked for type, range and
 * format, objects must have exactly the schema's keys, and the decoded value is rebuilt in schema
 * order so that re-encoding it gives the canonical bytes (SPEC §3.4).
 */
import { isBase64url } from '../commit/bytes.js'
import { type ProtocolError, type ProtocolErrorCode, protocolError } from './errors.js'

/** Internal: carries a coded error up through nested decoders; never escapes `decodeWith`. */
class DecodeFailure {
  constructor(readonly error: ProtocolError) {}
}

export type Decoder<T> = (value: unknown, at: string) => T

export function failAt(code: ProtocolErrorCode, at: string, rule: string, message: string): never {
  // Throwing a non-Error value on purpose: it is caught by `decodeWith` and nowhere else.
  // eslint-disable-next-line @typescript-eslint/only-throw-error
  throw new DecodeFailure(protocolError(code, at, rule, message))
}

export function decodeWith<T>(
  decoder: Decoder<T>,
  value: unknown,
  at = '',
): { ok: true; value: T } | { ok: false; error: ProtocolError } {
  try {
    return { ok: true, value: decoder(value, at) }
  } catch (e) {
    if (e instanceof DecodeFailure) return { ok: false, error: e.error }
    throw e
  }
}

const RULE_TYPES = '§3.4'

export function integer(min: number, max: number, rule = RULE_TYPES): Decoder<number> {
  return (v, at) => {
    if (typeof v !== 'number' || !Number.isInteger(v) || Object.is(v, -0))
      failAt('field.type', at, rule, 'expected an integer')
    if (v < min || v > max) failAt('field.range', at, rule, `expected ${min}..${max}, got ${v}`)
    return v
  }
}

export const boolean: Decoder<boolean> = (v, at) =>
  typeof v === 'boolean' ? v : failAt('field.type', at, RULE_TYPES, 'expected true or false')

/** Text without control characters (newlines allowed where `multiline`), at most `max` UTF-16 units. */
export function text(max: number, rule = RULE_TYPES, multiline = false): Decoder<string> {
  // Lone surrogates are refused too: they have no UTF-8 encoding (SPEC §3.4).
  // eslint-disable-next-line no-control-regex -- refusing control characters is the point
  const allowed = multiline ? /^[^\x00-\x09\x0b-\x1f\x7f]*$/u : /^[^\x00-\x1f\x7f]*$/u
  return (v, at) => {
    if (typeof v !== 'string') failAt('field.type', at, rule, 'expected a string')
    if (v.length > max) failAt('field.length', at, rule, `at most ${max} characters, got ${v.length}`)
    if (!allowed.test(v) || !v.isWellFormed())
      failAt('field.format', at, rule, multiline ? 'no control characters but newlines' : 'no control characters')
    return v
  }
}

export function oneOf<const T extends string>(values: readonly T[], rule = RULE_TYPES): Decoder<T> {
  return (v, at) => {
    if (typeof v !== 'string') failAt('field.type', at, rule, 'expected a string')
    if (!(values as readonly string[]).includes(v))
      failAt('field.format', at, rule, `expected one of ${values.join(', ')}`)
    return v as T
  }
}

/** Strict base64url of exactly `bytes` bytes (SPEC §3.2); `allowEmpty` also admits "". */
export function base64url(bytes: number, rule = '§3.2', allowEmpty = false): Decoder<string> {
  return (v, at) => {
    if (typeof v !== 'string') failAt('field.type', at, rule, 'expected a base64url string')
    if (allowEmpty && v === '') return v
    if (!isBase64url(v, bytes)) {
      failAt('field.format', at, rule, `expected ${bytes} bytes in unpadded canonical base64url`)
    }
    return v
  }
}

export function list<T>(item: Decoder<T>, max: number, rule = RULE_TYPES, min = 0): Decoder<T[]> {
  return (v, at) => {
    if (!Array.isArray(v)) failAt('field.type', at, rule, 'expected an array')
    if (v.length > max || v.length < min)
      failAt('field.length', at, rule, `expected ${min}..${max} items, got ${v.length}`)
    return v.map((x, i) => item(x, `${at}[${i}]`))
  }
}

export type Shape<T> = { readonly [K in keyof T]-?: Decoder<T[K]> }

function join(at: string, key: string): string {
  return at === '' ? key : `${at}.${key}`
}

/** An object with exactly the keys of `shape`, rebuilt in `shape`'s key order. */
export function object<T>(shape: Shape<T>, rule = RULE_TYPES): Decoder<T> {
  const keys = Object.keys(shape) as (keyof T & string)[]
  return (v, at) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) failAt('field.type', at, rule, 'expected an object')
    const record = v as Record<string, unknown>
    for (const k of Object.keys(record))
      if (!(keys as string[]).includes(k)) failAt('field.unknown', join(at, k), rule, `unknown field "${k}"`)
    const out: Partial<T> = {}
    for (const k of keys) {
      if (!Object.hasOwn(record, k)) failAt('field.missing', join(at, k), rule, `missing field "${k}"`)
      out[k] = shape[k](record[k], join(at, k))
    }
    return out as T
  }
}

/** Reads a discriminant field first, then decodes with the shape it selects. */
export function tagged<T>(key: string, shapes: Readonly<Record<string, Decoder<T>>>, rule: string): Decoder<T> {
  return (v, at) => {
    if (typeof v !== 'object' || v === null || Array.isArray(v)) failAt('field.type', at, rule, 'expected an object')
    const tag = (v as Record<string, unknown>)[key]
    if (typeof tag !== 'string' || !Object.hasOwn(shapes, tag)) {
      failAt(
        tag === undefined ? 'field.missing' : 'field.format',
        join(at, key),
        rule,
        `expected one of ${Object.keys(shapes).join(', ')}`,
      )
    }
    const d = shapes[tag]
    if (d === undefined) return failAt('field.format', join(at, key), rule, 'unknown kind')
    return d(v, at)
  }
}
