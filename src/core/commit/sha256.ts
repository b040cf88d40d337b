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
import { compress } from './sha256-rounds.js'

const IV = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19] as const

/*
 * Int32Array throughout: V8 keeps int32 values unboxed, where Uint32Array elements above 2^31
 * become doubles (a fivefold slowdown, measured). Every index below is within its fixed-size
 * array, hence the non-null assertions this file alone is allowed (eslint.config.js). The
 * compression itself, its rounds written out, is `sha256-rounds.ts`.
 */

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
