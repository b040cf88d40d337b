/**
 * Four SHA-256 compressions at once (FIPS 180-4 §6.2.2), one per 32-bit lane of WebAssembly's
 * 128-bit SIMD, for the setup vector's hundreds of independent one-block hashes (SPEC §4.1,
 * §4.2): a verifier recomputes 750 of them per version 4 game, and in JS each costs about 0.4 µs.
 *
 * The module is written here, instruction by instruction (no toolchain, no binary blob): one
 * function, the 64 rounds and the message schedule unrolled with the working variables renamed
 * instead of moved. Liftoff compiles it at once, so the first call is as fast to reach as a JS
 * function's; the optimising tier takes over in the background.
 *
 * Memory: the eight state words at bytes 0..127 (word i of lane j at int32 index 4i + j), the
 * sixteen message words at 128..383 (word i of lane j at 32 + 4i + j), each a big-endian word of
 * the block as an int32. `compress` replaces each lane's state with the compression of its block.
 * `test/transcript/hash.test.ts` holds every lane equal to node:crypto.
 */

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

function leb(n: number): number[] {
  const out: number[] = []
  do {
    let b = n & 0x7f
    n >>>= 7
    if (n !== 0) b |= 0x80
    out.push(b)
  } while (n !== 0)
  return out
}

/** The body of `compress`: locals 0..7 the working variables, 8..23 the schedule window, 24 T1. */
function body(): number[] {
  const c: number[] = []
  const simd = (op: number, ...imm: number[]): void => void c.push(OP.simd, ...leb(op), ...imm)
  const get = (l: number): void => void c.push(OP.localGet, l)
  const set = (l: number): void => void c.push(OP.localSet, l)
  const i32 = (n: number): void => void c.push(OP.i32Const, ...leb(n))
  // memarg: alignment 2^4, offset
  const load = (offset: number): void => {
    i32(0)
    simd(SIMD.load, 4, ...leb(offset))
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
  // v[0..7] = the locals holding a..h this round
  let v = [0, 1, 2, 3, 4, 5, 6, 7]
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
    const [a, b, cc, d, e, f, g, h] = v as [number, number, number, number, number, number, number, number]
    // T1 = h + Σ1(e) + Ch(e, f, g) + K[t] + W[t]; Ch = bitselect(f, g, e)
    get(h)
    sigma(e, 6, 11, 25, false)
    simd(SIMD.add)
    get(f)
    get(g)
    get(e)
    simd(SIMD.bitselect)
    simd(SIMD.add)
    const k = K[t] ?? 0
    const kb: number[] = []
    for (let lane = 0; lane < 4; lane++) kb.push(k & 0xff, (k >>> 8) & 0xff, (k >>> 16) & 0xff, (k >>> 24) & 0xff)
    simd(SIMD.const, ...kb)
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
    v = [h, a, b, cc, d, e, f, g]
  }
  for (let i = 0; i < 8; i++) {
    i32(0)
    load(16 * i)
    get(v[i] ?? 0)
    simd(SIMD.add)
    simd(SIMD.store, 4, ...leb(16 * i))
  }
  c.push(OP.end)
  return c
}

function section(id: number, content: number[]): number[] {
  return [id, ...leb(content.length), ...content]
}

function name(s: string): number[] {
  return [...leb(s.length), ...Array.from(s, (ch) => ch.charCodeAt(0))]
}

/** The module's bytes. */
export function sha256x4Module(): Uint8Array {
  const locals = [1, 25, 0x7b] // one declaration: 25 locals of type v128
  const code = [...locals, ...body()]
  return Uint8Array.from([
    ...[0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00],
    ...section(1, [1, 0x60, 0, 0]),
    ...section(3, [1, 0]),
    ...section(5, [1, 0, 1]),
    ...section(7, [2, ...name('memory'), 2, 0, ...name('compress'), 0, 0]),
    ...section(10, [1, ...leb(code.length), ...code]),
  ])
}

/** Four lanes of SHA-256 compression: write states and blocks into `words`, then `compress`. */
export interface Sha256x4 {
  /** State words at 4i + lane (i < 8), message words at 32 + 4i + lane (i < 16). */
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
      const bytes = sha256x4Module()
      if (wasm !== undefined && wasm.validate(bytes)) {
        const { exports } = new wasm.Instance(new wasm.Module(bytes))
        const memory = exports['memory'] as { readonly buffer: ArrayBuffer }
        instance = { words: new Int32Array(memory.buffer, 0, 96), compress: exports['compress'] as () => void }
      }
    } catch {
      instance = null
    }
  }
  return instance ?? undefined
}
