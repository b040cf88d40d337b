/**
 * The only randomness the rules layer knows: an injected source of 32-bit words. Bots, random
 * setups and tests take one of these, so a seed replays a game exactly. Salts are not drawn from
 * here: they come from a CSPRNG in the commit layer.
 */
export interface RandomSource {
  /** A uniformly distributed unsigned 32-bit integer. */
  nextU32(): number
}

/** xoshiro128** seeded through splitmix32: small, fast, well distributed; not cryptographic. */
export function seededRandom(seed: number | string): RandomSource {
  let x = typeof seed === 'number' ? seed >>> 0 : hashSeed(seed)
  const splitmix = (): number => {
    x = (x + 0x9e3779b9) >>> 0
    let z = x
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0
    return (z ^ (z >>> 16)) >>> 0
  }
  let s0 = splitmix()
  let s1 = splitmix()
  let s2 = splitmix()
  let s3 = splitmix()
  return {
    nextU32(): number {
      const result = Math.imul(rotl(Math.imul(s1, 5) >>> 0, 7), 9) >>> 0
      const t = (s1 << 9) >>> 0
      s2 = (s2 ^ s0) >>> 0
      s3 = (s3 ^ s1) >>> 0
      s1 = (s1 ^ s2) >>> 0
      s0 = (s0 ^ s3) >>> 0
      s2 = (s2 ^ t) >>> 0
      s3 = rotl(s3, 11)
      return result
    },
  }
}

function rotl(v: number, k: number): number {
  return ((v << k) | (v >>> (32 - k))) >>> 0
}

/** FNV-1a over UTF-16 code units: turns a textual seed into 32 bits. */
function hashSeed(text: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i)
    h = Math.imul(h, 0x01000193) >>> 0
  }
  return h
}

/** Uniform integer in [0, n) by rejection, so no value is favoured (n >= 1). */
export function randomInt(rng: RandomSource, n: number): number {
  if (!Number.isInteger(n) || n < 1 || n > 0x100000000) throw new RangeError(`randomInt bound ${n}`)
  const limit = 0x100000000 - (0x100000000 % n)
  for (;;) {
    const v = rng.nextU32()
    if (v < limit) return v % n
  }
}

/** Uniform choice from a non-empty list. */
export function pick<T>(rng: RandomSource, items: readonly T[]): T {
  const item = items[randomInt(rng, items.length)]
  if (item === undefined) throw new RangeError('pick from an empty list')
  return item
}

/** Fisher-Yates shuffle into a new array. */
export function shuffled<T>(rng: RandomSource, items: readonly T[]): T[] {
  const out = [...items]
  for (let i = out.length - 1; i > 0; i--) {
    const j = randomInt(rng, i + 1)
    const a = out[i] as T
    out[i] = out[j] as T
    out[j] = a
  }
  return out
}
