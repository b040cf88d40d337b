/**
 * What a node must keep and never show before its time (protocol/SPAAACE-PEERS.md §4.3, §6.8):
 * its per-game seed, from which every salt comes, and the order text of each tick it commits,
 * written before the commitment is signed so that a node restarted between its commitment and its
 * reveal can still open it (a commitment it cannot open would make its player `withheld`, S-62);
 * and how many envelopes it has signed, so that a transcript lost or replaced by an older copy is
 * noticed before the node signs again at a place it has signed (§6.8).
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { fromBase64url, toBase64url } from '../../../core/commit/bytes.js'
import { SEED_BYTES } from '../../../core/commit/hash.js'
import type { SecretSource } from '../../../core/commit/secrets.js'

export interface PeerSecrets {
  readonly seed: Uint8Array
  /** The order text committed for tick `t`, if any. */
  orders(t: number): string | undefined
  /** Journals the text of tick `t` before its commitment is signed; throws if it cannot. */
  keepOrders(t: number, text: string): void
  /**
   * How many of its own envelopes the node has persisted (its chain's length as last journaled;
   * 0 for a file written before this was kept). A chain read back shorter than this was lost.
   */
  signed(): number
  /** Journals that the node's own envelope `count − 1` is persisted, before it is sent. */
  keepSigned(count: number): void
  /**
   * Made afresh by this process (a new seed): a node whose chain already holds more than its accept
   * lost the seed its commitments were salted with (§6.8 step 8).
   */
  readonly fresh?: boolean
  /** Whether a node of this file found its seed lost before (kept, so that a later run refuses too). */
  seedLost?(): boolean
  /** Journals that the seed is lost: every later run of the node signs nothing in this game. */
  keepSeedLost?(): void
}

/** Secrets in memory (tests, and the bots of a local game, which never restart). */
export function memorySecrets(source: SecretSource): PeerSecrets {
  const seed = source.bytes(SEED_BYTES)
  const kept = new Map<number, string>()
  let signed = 0
  return {
    seed,
    orders: (t) => kept.get(t),
    keepOrders: (t, text) => void kept.set(t, text),
    signed: () => signed,
    keepSigned(count) {
      signed = Math.max(signed, count)
    },
  }
}

interface SecretsFile {
  readonly seed: string
  readonly orders: Record<string, string>
  readonly signed?: number
  readonly seedLost?: boolean
}

/**
 * Secrets in a file (mode 0600), created with a fresh seed on first use and rewritten atomically
 * (a temporary file renamed over it) on each commitment: a crash leaves the old file or the new.
 */
export function fileSecrets(path: string, source: SecretSource): PeerSecrets {
  let file: SecretsFile
  const fresh = !existsSync(path)
  if (!fresh) {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as {
      seed?: unknown
      orders?: unknown
      signed?: unknown
      seedLost?: unknown
    }
    if (
      typeof parsed.seed !== 'string' ||
      typeof parsed.orders !== 'object' ||
      parsed.orders === null ||
      (parsed.signed !== undefined && !(Number.isSafeInteger(parsed.signed) && (parsed.signed as number) >= 0))
    )
      throw new Error(`${path} is not a Spaaace! secrets file`)
    file = {
      seed: parsed.seed,
      orders: { ...(parsed.orders as Record<string, string>) },
      ...(parsed.signed === undefined ? {} : { signed: parsed.signed as number }),
      ...(parsed.seedLost === true ? { seedLost: true } : {}),
    }
  } else {
    file = { seed: toBase64url(source.bytes(SEED_BYTES)), orders: {} }
    write(path, file)
  }
  const seed = fromBase64url(file.seed)
  if (seed === undefined || seed.length !== SEED_BYTES) throw new Error(`${path}: the seed is not ${SEED_BYTES} bytes`)
  return {
    seed,
    fresh,
    orders: (t) => file.orders[String(t)],
    keepOrders(t, text) {
      file = { ...file, orders: { ...file.orders, [String(t)]: text } }
      write(path, file)
    },
    signed: () => file.signed ?? 0,
    // Written, not flushed: the transcript's own flush (store.ts) comes first, so a machine crash
    // can leave this count behind the transcript, never ahead of it; what it guards against is a
    // file lost or replaced afterwards, by hand or by a restored backup.
    keepSigned(count) {
      if (count <= (file.signed ?? 0)) return
      file = { ...file, signed: count }
      write(path, file)
    },
    seedLost: () => file.seedLost === true,
    keepSeedLost() {
      if (file.seedLost === true) return
      file = { ...file, seedLost: true }
      write(path, file)
    },
  }
}

function write(path: string, file: SecretsFile): void {
  writeJsonAtomically(path, file)
}

/**
 * `value` as one line of JSON at `path` (mode 0600), its directory made if need be, through a
 * temporary file renamed over it: a crash leaves the old file or the new, never half of one.
 */
export function writeJsonAtomically(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true })
  const tmp = `${path}.tmp`
  writeFileSync(tmp, `${JSON.stringify(value)}\n`, { mode: 0o600 })
  renameSync(tmp, path)
}
