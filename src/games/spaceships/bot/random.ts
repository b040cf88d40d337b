/**
 * The bots' randomness for one game, drawn from the side's per-game secret (`gameSecret` in
 * `session/strategy.ts`, derived from the salt seed the reveal discloses). Before the reveal the
 * opponent cannot predict it; after, anyone can draw it again and replay the bot exactly.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import type { RandomSource } from '../rules/rng.js'

// The bots sit below the protocol's commit layer (DESIGN §4), so the hash comes from the library
// the project's own SHA-256 is checked against, not from commit/.
const STREAM_TAG = new TextEncoder().encode('spaceships/bot/stream')

/** A counter as 4 big-endian bytes. */
function u32(n: number): Uint8Array {
  const b = new Uint8Array(4)
  new DataView(b.buffer).setUint32(0, n, false)
  return b
}
const BLOCK_BYTES = 64

/**
 * SHA-256 in counter mode keyed by `secret`: word i comes from `H(block ‖ u32(⌊i/8⌋))`, where the
 * first block holds the tag and the secret, absorbed once. A PRF output, so the words tell nothing
 * of the secret or of later words; a bot draws a few thousand words a move, so a compression per
 * eight words costs nothing noticeable.
 */
export function secretRandom(secret: Uint8Array): RandomSource {
  if (1 + STREAM_TAG.length + secret.length > BLOCK_BYTES) throw new Error('a game secret is at most 32 bytes')
  const block = new Uint8Array(BLOCK_BYTES)
  block[0] = STREAM_TAG.length
  block.set(STREAM_TAG, 1)
  block.set(secret, 1 + STREAM_TAG.length)
  const keyed = sha256.create().update(block)
  block.fill(0)
  let view = new DataView(new ArrayBuffer(32))
  let counter = 0
  let at = 8
  return {
    nextU32(): number {
      if (at === 8) {
        const out = keyed.clone().update(u32(counter++)).digest()
        view = new DataView(out.buffer, out.byteOffset, out.byteLength)
        at = 0
      }
      return view.getUint32(4 * at++, false)
    },
  }
}

/**
 * The source a per-game bot holds from its making: until the session calls `begin`, words from the
 * system's CSPRNG (a bot used outside a session still plays unpredictably); from `begin` on, only
 * words of `secretRandom(gameSecret)`, so the game's every choice follows from the revealed seed.
 */
export class GameRandom implements RandomSource {
  private inner: RandomSource = secretRandom(crypto.getRandomValues(new Uint8Array(32)))

  begin(gameSecret: Uint8Array): void {
    this.inner = secretRandom(gameSecret)
  }

  nextU32(): number {
    return this.inner.nextU32()
  }
}
