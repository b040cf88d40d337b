/**
 * Canonical binary encoding (protocol/SPEC.md §3.1): big-endian integers, fixed-length byte
 * strings, printable-ASCII text after a length. A writer grows one buffer; a reader refuses
 * truncation, values out of range and trailing bytes, naming the field and the section, through a
 * coded error (`decoded`) rather than an exception that could escape to a caller.
 */
import { type Decoded, type ProtocolErrorCode, protocolError } from './errors.js'

export class Writer {
  private buf = new Uint8Array(256)
  private n = 0

  private room(k: number): void {
    if (this.n + k <= this.buf.length) return
    let size = this.buf.length * 2
    while (size < this.n + k) size *= 2
    const next = new Uint8Array(size)
    next.set(this.buf.subarray(0, this.n))
    this.buf = next
  }

  u8(v: number): this {
    this.room(1)
    this.buf[this.n++] = v & 0xff
    return this
  }

  u16(v: number): this {
    this.room(2)
    this.buf[this.n++] = (v >>> 8) & 0xff
    this.buf[this.n++] = v & 0xff
    return this
  }

  u32(v: number): this {
    this.room(4)
    this.buf[this.n++] = (v >>> 24) & 0xff
    this.buf[this.n++] = (v >>> 16) & 0xff
    this.buf[this.n++] = (v >>> 8) & 0xff
    this.buf[this.n++] = v & 0xff
    return this
  }

  bytes(b: Uint8Array): this {
    this.room(b.length)
    this.buf.set(b, this.n)
    this.n += b.length
    return this
  }

  text8(t: string): this {
    return this.u8(t.length).ascii(t)
  }

  text16(t: string): this {
    return this.u16(t.length).ascii(t)
  }

  private ascii(t: string): this {
    this.room(t.length)
    for (let i = 0; i < t.length; i++) this.buf[this.n++] = t.charCodeAt(i) & 0xff
    return this
  }

  finish(): Uint8Array {
    return this.buf.slice(0, this.n)
  }
}

/** Internal: carries a coded error up through nested readers; caught by `decoded` only. */
class DecodeFailure {
  constructor(readonly error: ReturnType<typeof protocolError>) {}
}

export function fail(code: ProtocolErrorCode, field: string, rule: string, message: string): never {
  // A non-Error value on purpose: it is caught by `decoded` below and nowhere else.
  // eslint-disable-next-line @typescript-eslint/only-throw-error
  throw new DecodeFailure(protocolError(code, field, rule, message))
}

export function decoded<T>(read: () => T): Decoded<T> {
  try {
    return { ok: true, value: read() }
  } catch (e) {
    if (e instanceof DecodeFailure) return { ok: false, error: e.error }
    throw e
  }
}

export class Reader {
  at = 0
  /**
   * `views`: the caller owns `b` and never changes it (a framed envelope's private copy), so the
   * byte strings read are views of it instead of copies (hundreds of salts an envelope).
   */
  constructor(
    protected readonly b: Uint8Array,
    private readonly views = false,
  ) {}

  get left(): number {
    return this.b.length - this.at
  }

  private need(n: number, field: string, rule: string): void {
    if (this.at + n > this.b.length) fail('wire.truncated', field, rule, `${n} more bytes expected, ${this.left} left`)
  }

  u8(field: string, rule: string): number {
    this.need(1, field, rule)
    return this.b[this.at++] ?? 0
  }

  u16(field: string, rule: string): number {
    this.need(2, field, rule)
    const v = ((this.b[this.at] ?? 0) << 8) | (this.b[this.at + 1] ?? 0)
    this.at += 2
    return v
  }

  u32(field: string, rule: string): number {
    this.need(4, field, rule)
    const v =
      (this.b[this.at] ?? 0) * 0x1000000 +
      (((this.b[this.at + 1] ?? 0) << 16) | ((this.b[this.at + 2] ?? 0) << 8) | (this.b[this.at + 3] ?? 0))
    this.at += 4
    return v
  }

  /** A copy, unless the reader was made on bytes of its own (`views`): decoded values never alias a caller's buffer. */
  bytes(n: number, field: string, rule: string): Uint8Array {
    this.need(n, field, rule)
    const out = this.views ? this.b.subarray(this.at, this.at + n) : this.b.slice(this.at, this.at + n)
    this.at += n
    return out
  }

  range(field: string, rule: string, v: number, min: number, max: number): number {
    if (v < min || v > max) fail('field.range', field, rule, `expected ${min}..${max}, got ${v}`)
    return v
  }

  bool(field: string, rule: string): boolean {
    return this.range(field, rule, this.u8(field, rule), 0, 1) === 1
  }

  /** SPEC §3.1: printable ASCII of at most `max` bytes, after a length of `width` bytes. */
  text(width: 1 | 2, max: number, field: string, rule: string): string {
    const n = width === 1 ? this.u8(field, rule) : this.u16(field, rule)
    if (n > max) fail('field.count', field, rule, `at most ${max} bytes, got ${n}`)
    this.need(n, field, rule)
    let s = ''
    for (let i = 0; i < n; i++) {
      const c = this.b[this.at + i] ?? 0
      if (c < 0x20 || c > 0x7e)
        fail('field.text', field, rule, `byte ${i} is 0x${c.toString(16).padStart(2, '0')}, not printable ASCII`)
      s += String.fromCharCode(c)
    }
    this.at += n
    return s
  }

  count(field: string, rule: string, min: number, max: number): number {
    const n = this.u8(field, rule)
    if (n < min || n > max) fail('field.count', field, rule, `expected ${min}..${max} items, got ${n}`)
    return n
  }

  end(field: string, rule: string): void {
    if (this.left !== 0) fail('wire.trailing', field, rule, `${this.left} bytes after the end`)
  }
}
