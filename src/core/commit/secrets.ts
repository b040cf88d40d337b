/**
 * Sources of secrets (salt seeds, nonces, keys). Production uses the operating system's CSPRNG;
 * tests inject a seeded source so every game replays exactly.
 */
import { randomBytes } from 'node:crypto'
import { u32, utf8 } from './bytes.js'
import { taggedHash } from './hash.js'

/**
 * Not on the wire: the tag of deterministic secrets for tests and vectors. It keeps the name it was
 * given under protocol 2, so a seeded test game keeps its keys across versions and games.
 */
const SEEDED_SECRETS = 'spaceships/2/seeded-secrets'

export interface SecretSource {
  bytes(length: number): Uint8Array
}

export const systemSecrets: SecretSource = { bytes: (n) => new Uint8Array(randomBytes(n)) }

/** Deterministic secrets for tests and test vectors: SHA-256 in counter mode over a seed. Never for play. */
export function seededSecrets(seed: string): SecretSource {
  let counter = 0
  return {
    bytes(n) {
      const out = new Uint8Array(n)
      for (let at = 0; at < n; at += 32)
        out.set(taggedHash(SEEDED_SECRETS, utf8(seed), u32(counter++)).subarray(0, Math.min(32, n - at)), at)
      return out
    },
  }
}
