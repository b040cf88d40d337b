/**
 * Four SHA-256 compressions at once (FIPS 180-4 §6.2.2), one per 32-bit lane of WebAssembly's
 * 128-bit SIMD, for the setup vector's hundreds of independent one-block hashes (SPEC §4.1,
 * §4.2): a verifier recomputes 750 of them per version 4 game, and in JS each costs about 0.4 µs.
 *
 * The module is written here, instruction by instruction (no toolchain): one function, the 64
 * rounds and the message schedule unrolled with the working variables renamed instead of moved.
 * Its bytes are kept made (sha256x4-module.ts, deflated; checked equal to `sha256x4Module()` by
 * the tests): inflating and compiling them take about a millisecond at a process's first setup
 * vector, where writing them took 5 to 25 ms; the optimising tier takes over in the background.
 *
 * Memory: the eight state words at bytes 0..127 (word i of lane j at int32 index 4i + j), the
 * sixteen message words at 128..383 (word i of lane j at 32 + 4i + j), each a big-endian word of
 * the block as an int32. `compress` writes each lane's compression of its block from its state at
 * 384..511 (word i of lane j at 96 + 4i + j) and leaves states and blocks as they were, so a batch
 * of blocks from one midstate writes the state and what its blocks share once, not once a call.
 * (Two groups of lanes in one call, their rounds interleaved or not, ran slower: measured.)
 * `test/transcript/hash.test.ts` holds every lane equal to node:crypto.
 */

import { inflateRawSync } from 'node:zlib'
import { SHA256X4_WASM_DEFLATED } from './sha256x4-module.js'

const K = [
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]

/** WebAssembly opcodes used (core spec §5.4; SIMD opcodes follow the 0xfd prefix, LEB128). */
const OP = {
  end: 0x0b,
  localGet: 0x20,
  localSet: 0x21,
  i32Const: 0x41,
  simd: 0xfd,
} as const
const SIMD = {
  load: 0x00,
  store: 0x0b,
  const: 0x0c,
  bitselect: 0x52,
  xor: 0x51,
  or: 0x50,
  shl: 0xab,
  shrU: 0xad,
  add: 0xae,
} as const

/**
 * Bytes written in place: the module is made at the first setup vector of a process, while V8
 * still interprets this code, so nothing here spreads arrays or takes rest parameters (that made
 * it 20 ms, against about 1 ms).
 */
class Out {
  buf = new Uint8Array(24_576)
  n = 0

  byte(b: number): void {
    if (this.n === this.buf.length) {
      const bigger = new Uint8Array(this.buf.length * 2)
      bigger.set(this.buf)
      this.buf = bigger
    }
    this.buf[this.n++] = b
  }

  /** Unsigned LEB128. */
  leb(n: number): void {
    do {
      let b = n & 0x7f
      n >>>= 7
      if (n !== 0) b |= 0x80
      this.byte(b)
    } while (n !== 0)
  }

  bytes(): Uint8Array {
    return this.buf.slice(0, this.n)
  }
}

/** The body of `compress`: locals 0..7 the working variables, 8..23 the schedule window, 24 T1. */
function body(c: Out): void {
  const simd = (op: number): void => {
    c.byte(OP.simd)
    c.leb(op)
  }
  const get = (l: number): void => {
    c.byte(OP.localGet)
    c.byte(l)
  }
  const set = (l: number): void => {
    c.byte(OP.localSet)
    c.byte(l)
  }
  const i32 = (n: number): void => {
    c.byte(OP.i32Const)
    c.leb(n)
  }
  // memarg: alignment 2^4, offset
  const load = (offset: number): void => {
    i32(0)
    simd(SIMD.load)
    c.byte(4)
    c.leb(offset)
  }
  const rotr = (x: number, n: number): void => {
    get(x)
    i32(n)
    simd(SIMD.shrU)
    get(x)
    i32(32 - n)
    simd(SIMD.shl)
    simd(SIMD.or)
  }
  const sigma = (x: number, r1: number, r2: number, shiftOrR3: number, isShift: boolean): void => {
    rotr(x, r1)
    rotr(x, r2)
    simd(SIMD.xor)
    if (isShift) {
      get(x)
      i32(shiftOrR3)
      simd(SIMD.shrU)
    } else rotr(x, shiftOrR3)
    simd(SIMD.xor)
  }
  const W = (t: number): number => 8 + (t & 15)
  const T1 = 24
  for (let i = 0; i < 8; i++) {
    load(16 * i)
    set(i)
  }
  for (let i = 0; i < 16; i++) {
    load(128 + 16 * i)
    set(W(i))
  }
  // v[0..7]: the locals holding a..h this round
  const v = [0, 1, 2, 3, 4, 5, 6, 7]
  for (let t = 0; t < 64; t++) {
    if (t >= 16) {
      // W[t] = σ1(W[t-2]) + W[t-7] + σ0(W[t-15]) + W[t-16]
      sigma(W(t - 2), 17, 19, 10, true)
      get(W(t - 7))
      simd(SIMD.add)
      sigma(W(t - 15), 7, 18, 3, true)
      simd(SIMD.add)
      get(W(t))
      simd(SIMD.add)
      set(W(t))
    }
    const a = v[0] ?? 0
    const b = v[1] ?? 0
    const cc = v[2] ?? 0
    const d = v[3] ?? 0
    const e = v[4] ?? 0
    const f = v[5] ?? 0
    const g = v[6] ?? 0
    const h = v[7] ?? 0
    // T1 = h + Σ1(e) + Ch(e, f, g) + K[t] + W[t]; Ch = bitselect(f, g, e)
    get(h)
    sigma(e, 6, 11, 25, false)
    simd(SIMD.add)
    get(f)
    get(g)
    get(e)
    simd(SIMD.bitselect)
    simd(SIMD.add)
    // K[t] in every lane, little-endian
    const k = K[t] ?? 0
    simd(SIMD.const)
    for (let lane = 0; lane < 4; lane++) {
      c.byte(k & 0xff)
      c.byte((k >>> 8) & 0xff)
      c.byte((k >>> 16) & 0xff)
      c.byte((k >>> 24) & 0xff)
    }
    simd(SIMD.add)
    get(W(t))
    simd(SIMD.add)
    set(T1)
    // e' = d + T1, into d's local
    get(d)
    get(T1)
    simd(SIMD.add)
    set(d)
    // a' = T1 + Σ0(a) + Maj(a, b, c), into h's local; Maj = bitselect(c, b, a ^ b)
    get(T1)
    sigma(a, 2, 13, 22, false)
    simd(SIMD.add)
    get(cc)
    get(b)
    get(a)
    get(b)
    simd(SIMD.xor)
    simd(SIMD.bitselect)
    simd(SIMD.add)
    set(h)
    // rename: a..h of the next round
    v[7] = g
    v[6] = f
    v[5] = e
    v[4] = d
    v[3] = cc
    v[2] = b
    v[1] = a
    v[0] = h
  }
  for (let i = 0; i < 8; i++) {
    i32(0)
    load(16 * i)
    get(v[i] ?? 0)
    simd(SIMD.add)
    simd(SIMD.store)
    c.byte(4)
    c.leb(384 + 16 * i)
  }
  c.byte(OP.end)
}

/** A section: its id, its size, its content. */
function section(out: Out, id: number, content: Uint8Array): void {
  out.byte(id)
  out.leb(content.length)
  for (const b of content) out.byte(b)
}

function name(out: Out, s: string): void {
  out.leb(s.length)
  for (let i = 0; i < s.length; i++) out.byte(s.charCodeAt(i))
}

/** The module's bytes. */
export function sha256x4Module(): Uint8Array {
  const code = new Out()
  // one declaration: 25 locals of type v128
  code.byte(1)
  code.byte(25)
  code.byte(0x7b)
  body(code)
  const codeBytes = code.bytes()
  const exports = new Out()
  exports.byte(2)
  name(exports, 'memory')
  exports.byte(2)
  exports.byte(0)
  name(exports, 'compress')
  exports.byte(0)
  exports.byte(0)
  const codeSection = new Out()
  codeSection.byte(1)
  codeSection.leb(codeBytes.length)
  for (const b of codeBytes) codeSection.byte(b)
  const out = new Out()
  for (const b of [0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00]) out.byte(b)
  section(out, 1, Uint8Array.of(1, 0x60, 0, 0))
  section(out, 3, Uint8Array.of(1, 0))
  section(out, 5, Uint8Array.of(1, 0, 1))
  section(out, 7, exports.bytes())
  section(out, 10, codeSection.bytes())
  return out.bytes()
}

/** Four lanes of SHA-256 compression: write states and blocks into `words`, then `compress`. */
export interface Sha256x4 {
  /** State words at 4i + lane (i < 8), message words at 32 + 4i + lane (i < 16), the output at 96 + 4i + lane (i < 8). */
  readonly words: Int32Array
  readonly compress: () => void
}

/** What is used of the WebAssembly global (the project's TypeScript libraries do not declare it). */
interface Wasm {
  validate(bytes: Uint8Array): boolean
  Module: new (bytes: Uint8Array) => object
  Instance: new (module: object) => { readonly exports: Record<string, unknown> }
}

let instance: Sha256x4 | null | undefined

/** The four-lane compression, or undefined where WebAssembly SIMD is not available (then hash in JS). */
export function sha256x4(): Sha256x4 | undefined {
  if (instance === undefined) {
    instance = null
    try {
      const wasm = (globalThis as { WebAssembly?: Wasm }).WebAssembly
      const bytes = new Uint8Array(inflateRawSync(Buffer.from(SHA256X4_WASM_DEFLATED, 'base64')))
      if (wasm !== undefined && wasm.validate(bytes)) {
        const { exports } = new wasm.Instance(new wasm.Module(bytes))
        const memory = exports['memory'] as { readonly buffer: ArrayBuffer }
        instance = { words: new Int32Array(memory.buffer, 0, 128), compress: exports['compress'] as () => void }
      }
    } catch {
      instance = null
    }
  }
  return instance ?? undefined
}
