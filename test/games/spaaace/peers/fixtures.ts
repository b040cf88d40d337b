/**
 * Fixed keys and values for the Spaaace! peers tests and vectors (protocol/SPAAACE-PEERS.md §3,
 * §4): a pool of keys from fixed seeds, a genesis of any of them, and raw signing of hand-made
 * bytes (hostile encodings that `sealEnvelope` would never write).
 */
import { concatBytes, utf8 } from '../../../../src/core/commit/bytes.js'
import { taggedHash } from '../../../../src/core/commit/hash.js'
import { type KeyPair, keyPairFromSecret, sign } from '../../../../src/core/commit/keys.js'
import { commitMsFloor, revealMsFloor } from '../../../../src/games/spaaace/peers/domain.js'
import { signingMessage } from '../../../../src/games/spaaace/peers/envelope.js'
import { type Genesis, decodeGenesis, encodeGenesis } from '../../../../src/games/spaaace/peers/genesis.js'
import type { SealedGenesis } from '../../../../src/games/spaaace/peers/genesis.js'
import { compareBytes } from '../../../../src/games/spaaace/peers/parts.js'

/** A fixed 32-byte value per label. */
export const fixed = (label: string): Uint8Array => taggedHash('spaaace-peers-vectors', utf8(label))

/** Sixteen key pairs from fixed seeds, in roster order (ascending public key, §3.1). */
export const POOL: readonly KeyPair[] = Array.from({ length: 16 }, (_, i) =>
  keyPairFromSecret(fixed(`seed ${i}`)),
).sort((a, b) => compareBytes(a.publicKey, b.publicKey))

/** The first `n` keys of the pool: a roster in key order. */
export function roster(n: number): KeyPair[] {
  return POOL.slice(0, n)
}

/** A live genesis (Δ = 2 s, the floors of §3.1) for `n` players. */
export function liveGenesis(n: number, overrides: Partial<Genesis> = {}): Genesis {
  const marginMs = 2000
  return {
    terms: {
      coins: 10,
      income: 1,
      battleCooldown: 1,
      rematchTicks: 3,
      withholdFine: 5,
      maxTicks: 60,
      absentTicks: 3,
      wormhole: false,
      infamyWins: false,
    },
    timing: {
      start: 1_790_000_000_000,
      commitMs: commitMsFloor(marginMs) + 20_000,
      revealMs: revealMsFloor(marginMs),
      marginMs,
    },
    notaryKey: null,
    keys: roster(n).map((k) => k.publicKey),
    nonce: fixed('nonce'),
    ...overrides,
  }
}

export function sealedGenesis(g: Genesis): SealedGenesis {
  const d = decodeGenesis(encodeGenesis(g))
  if (!d.ok) throw new Error(d.error.message)
  return d.value
}

/** `U ‖ sig`: hand-made unsigned bytes signed under the envelope tag (§4.1). */
export function signRaw(keys: KeyPair, unsigned: Uint8Array): Uint8Array {
  return concatBytes(unsigned, sign(keys, signingMessage(unsigned)))
}
