/**
 * Fields shared by the notary's byte layouts (NOTARY.md §3): 64-bit times (u64 big-endian, at
 * most 2^53 - 1 so that a JavaScript number holds them exactly) and fixed-length byte strings.
 */
import type { Reader, Writer } from '../wire/binary.js'
import { fail } from '../wire/binary.js'

/** NOTARY.md §3: the largest u64 value a decoder accepts (2^53 - 1 ms is 285,000 years). */
export const MAX_TIME = Number.MAX_SAFE_INTEGER

export function writeU64(w: Writer, v: number): Writer {
  return w.u32(Math.floor(v / 0x1_0000_0000)).u32(v % 0x1_0000_0000)
}

export function readU64(r: Reader, field: string, rule: string): number {
  const high = r.u32(field, rule)
  const low = r.u32(field, rule)
  if (high > 0x1f_ffff) fail('field.range', field, rule, 'a time above 2^53 - 1')
  return high * 0x1_0000_0000 + low
}

/** A byte as a side: 0 (A) or 1 (B). */
export function readSide(r: Reader, field: string, rule: string): 0 | 1 {
  return r.range(field, rule, r.u8(field, rule), 0, 1) as 0 | 1
}
