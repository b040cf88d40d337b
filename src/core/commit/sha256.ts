/**
 * SHA-256 (FIPS 180-4) for the many short, structured inputs of the protocol, with resumable
 * states.
 *
 * Why not only node:crypto: a native hash call costs a few microseconds of binding overhead
 * whatever the input, and a setup commitment is 250 salt derivations and 250 cell commitments
 * per player (SPEC §4.1, §4.2), each a one-block message after a fixed 64-byte domain block. A
 * state that has absorbed the domain block is kept, and each commitment compresses only its last
 * block, on a scratch state: one compression per commitment and one per salt.
 *
 * The output is SHA-256, byte for byte: `test/transcript/hash.test.ts` holds it equal to
 * @noble/hashes on arbitrary inputs, split across arbitrary `update` calls and clones. A finished
 * state refuses to be used again, so a digest can never be taken twice from one state.
 */

const K = Int32Array.from([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
])
const IV = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19] as const

/** The message schedule, shared: compression is synchronous and never re-entered. */
const W = new Int32Array(64)

/*
 * Int32Array throughout: V8 keeps int32 values unboxed, where Uint32Array elements above 2^31
 * become doubles (a fivefold slowdown, measured). Every index below is within its fixed-size
 * array, hence the non-null assertions this file alone is allowed (eslint.config.js).
 *
 * A loop, on purpose. The 64 rounds written out run in 0.21 µs against 0.31 once optimised, but
 * V8 optimises a straight-line function of that size late, and runs it unoptimised meanwhile
 * (measured, Node 24: 17 ms for the first 1,000 compressions against 2.6 for this loop, which is
 * optimised within its first call), so `spaceships verify` on one file started 13 ms slower.
 */
function compress(h: Int32Array, block: Uint8Array, at: number): void {
  for (let i = 0; i < 16; i++, at += 4)
    W[i] = (block[at]! << 24) | (block[at + 1]! << 16) | (block[at + 2]! << 8) | block[at + 3]!
  for (let i = 16; i < 64; i++) {
    const w15 = W[i - 15]!
    const w2 = W[i - 2]!
    const s0 = ((w15 >>> 7) | (w15 << 25)) ^ ((w15 >>> 18) | (w15 << 14)) ^ (w15 >>> 3)
    const s1 = ((w2 >>> 17) | (w2 << 15)) ^ ((w2 >>> 19) | (w2 << 13)) ^ (w2 >>> 10)
    W[i] = (s1 + W[i - 7]! + s0 + W[i - 16]!) | 0
  }
  let a = h[0]!
  let b = h[1]!
  let c = h[2]!
  let d = h[3]!
  let e = h[4]!
  let f = h[5]!
  let g = h[6]!
  let k = h[7]!
  for (let i = 0; i < 64; i++) {
    const s1 = ((e >>> 6) | (e << 26)) ^ ((e >>> 11) | (e << 21)) ^ ((e >>> 25) | (e << 7))
    const t1 = (k + s1 + ((e & f) ^ (~e & g)) + K[i]! + W[i]!) | 0
    const s0 = ((a >>> 2) | (a << 30)) ^ ((a >>> 13) | (a << 19)) ^ ((a >>> 22) | (a << 10))
    const t2 = (s0 + ((a & b) ^ (a & c) ^ (b & c))) | 0
    k = g
    g = f
    f = e
    e = (d + t1) | 0
    d = c
    c = b
    b = a
    a = (t1 + t2) | 0
  }
  h[0] = (h[0]! + a) | 0
  h[1] = (h[1]! + b) | 0
  h[2] = (h[2]! + c) | 0
  h[3] = (h[3]! + d) | 0
  h[4] = (h[4]! + e) | 0
  h[5] = (h[5]! + f) | 0
  h[6] = (h[6]! + g) | 0
  h[7] = (h[7]! + k) | 0
}

/** A SHA-256 computation in progress; `clone` forks it (a midstate) so a shared prefix is hashed once. */
export class Sha256 {
  private readonly h: Int32Array
  private readonly buffer: Uint8Array
  private buffered: number
  private length: number
  /** A finished state refuses further use: its words are the digest, not a midstate. */
  private finished = false

  constructor(from?: Sha256) {
    if (from === undefined) {
      this.h = Int32Array.from(IV)
      this.buffer = new Uint8Array(64)
      this.buffered = 0
      this.length = 0
    } else {
      from.live()
      this.h = from.h.slice()
      this.buffer = from.buffer.slice()
      this.buffered = from.buffered
      this.length = from.length
    }
  }

  private live(): void {
    if (this.finished)
      throw new Error('this SHA-256 state is finished; clone a state before finishing it to reuse its prefix')
  }

  clone(): Sha256 {
    return new Sha256(this)
  }

  update(data: Uint8Array): this {
    this.live()
    const n = data.length
    const b = this.buffer
    this.length += n
    let i = this.buffered
    let at = 0
    // Fields are mostly a few bytes, so they are copied byte by byte (no subarray per call).
    while (i > 0 && at < n) {
      b[i++] = data[at++]!
      if (i === 64) {
        compress(this.h, b, 0)
        i = 0
      }
    }
    for (; n - at >= 64; at += 64) compress(this.h, data, at)
    while (at < n) b[i++] = data[at++]!
    this.buffered = i
    return this
  }

  /** A big-endian u32 length prefix (SPEC §3.1) without allocating it. */
  updateU32(n: number): this {
    this.live()
    if (this.buffered <= 60) {
      const b = this.buffer
      const i = this.buffered
      b[i] = n >>> 24
      b[i + 1] = n >>> 16
      b[i + 2] = n >>> 8
      b[i + 3] = n
      this.buffered += 4
      this.length += 4
      if (this.buffered === 64) {
        compress(this.h, b, 0)
        this.buffered = 0
      }
      return this
    }
    return this.update(Uint8Array.of(n >>> 24, n >>> 16, n >>> 8, n))
  }

  /** Finishes the hash (the state is spent). */
  digest(): Uint8Array {
    return this.digestInto(new Uint8Array(32))
  }

  /** Finishes the hash into `out` (the state is spent). */
  digestInto(out: Uint8Array): Uint8Array {
    this.live()
    this.finished = true
    return finishBlock(this.h, this.buffer, this.buffered, this.length, out)
  }

  /**
   * The digest of what this state has absorbed followed by `bytes`, leaving the state as it is:
   * the rest is hashed on a scratch block and state, so there is no copy of the state object and
   * no allocation but `out` (a salt or cell commitment is one compression past its prefix).
   */
  digestWithBytes(bytes: Uint8Array, out: Uint8Array = new Uint8Array(32)): Uint8Array {
    return finishBlock(SCRATCH_H, SCRATCH_BLOCK, absorb(bytes, this.startScratch()), this.length + bytes.length, out)
  }

  /**
   * A last block for messages that end `n` bytes (at most 55) past this state, which must sit on a
   * block boundary (a domain block, a keyed salt state): the padding and the length are written,
   * and the caller writes the `n` message bytes at 0..n-1 before each `digestTail`. For the setup
   * vector's 375 or 500 one-block hashes per side (SPEC §4.1, §4.2): no copying, no allocation.
   */
  tailBlock(n: number): Uint8Array {
    this.live()
    if (this.buffered !== 0 || n < 0 || n > 55) throw new Error('a tail block follows a block boundary, 0..55 bytes')
    const block = new Uint8Array(64)
    block[n] = 0x80
    writeLength(block, this.length + n)
    return block
  }

  /**
   * The digest of what this state has absorbed followed by the message bytes of `block` (a
   * `tailBlock`), written at `out[at..at+32)`: one compression on a scratch state, leaving this
   * state as it is.
   */
  digestTail(block: Uint8Array, out: Uint8Array, at: number): void {
    this.live()
    SCRATCH_H.set(this.h)
    compress(SCRATCH_H, block, 0)
    wordsAt(SCRATCH_H, out, at)
  }

  /**
   * The chaining value of a state on a block boundary (a domain block, a keyed salt state), for
   * hashing many last blocks after it four at a time (`sha256x4.ts`): a copy of its eight words.
   */
  midstate(): Int32Array {
    this.live()
    if (this.buffered !== 0) throw new Error('a midstate is taken on a block boundary')
    return this.h.slice()
  }

  /** Loads this state into the scratch; returns how many bytes of the scratch block are pending. */
  private startScratch(): number {
    this.live()
    SCRATCH_H.set(this.h)
    for (let i = 0; i < this.buffered; i++) SCRATCH_BLOCK[i] = this.buffer[i]!
    return this.buffered
  }
}

/** Scratch for `digestWithBytes` (synchronous, never re-entered). */
const SCRATCH_BLOCK = new Uint8Array(64)
const SCRATCH_H = new Int32Array(8)

/** Appends `data` to the scratch block at `at`, compressing each block as it fills; returns the new `at`. */
function absorb(data: Uint8Array, at: number): number {
  const n = data.length
  for (let i = 0; i < n; i++) {
    SCRATCH_BLOCK[at++] = data[i]!
    if (at === 64) {
      compress(SCRATCH_H, SCRATCH_BLOCK, 0)
      at = 0
    }
  }
  return at
}

/**
 * FIPS 180-4 §5.1.1 padding: `block` holds the message's last `at` bytes (at most 63) of a
 * `length`-byte message; compresses the last block(s) into `h` and writes the digest to `out`.
 */
function finishBlock(h: Int32Array, block: Uint8Array, at: number, length: number, out: Uint8Array): Uint8Array {
  block[at++] = 0x80
  if (at > 56) {
    while (at < 64) block[at++] = 0
    compress(h, block, 0)
    at = 0
  }
  while (at < 56) block[at++] = 0
  writeLength(block, length)
  compress(h, block, 0)
  wordsAt(h, out, 0)
  return out
}

/** FIPS 180-4 §5.1.1: the message length in bits, big-endian, in a last block's final 8 bytes. */
function writeLength(block: Uint8Array, length: number): void {
  const bits = length * 8
  const high = Math.floor(bits / 0x1_0000_0000)
  block[56] = high >>> 24
  block[57] = high >>> 16
  block[58] = high >>> 8
  block[59] = high
  block[60] = bits >>> 24
  block[61] = bits >>> 16
  block[62] = bits >>> 8
  block[63] = bits
}

function wordsAt(h: Int32Array, out: Uint8Array, at: number): void {
  for (let j = 0; j < 8; j++) {
    const w = h[j]!
    out[at + 4 * j] = w >>> 24
    out[at + 4 * j + 1] = w >>> 16
    out[at + 4 * j + 2] = w >>> 8
    out[at + 4 * j + 3] = w
  }
}
