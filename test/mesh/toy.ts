/**
 * A toy game for the mesh's tests: Ed25519-signed chains in the layout of
 * protocol/SPAAACE-PEERS.md §4.1 (author, seq, game, prev, heads, fork parts), with a few bytes of
 * payload in place of Spaaace!'s parts. Its codec never throws; `next` composes a node's next
 * envelope from what its store holds, as an honest signer does (heads: the main chains' tips;
 * a `fork` part per author with two held versions at one place, review R2).
 */
import { concatBytes, u16, u8, utf8 } from '../../src/core/commit/bytes.js'
import { sha256, tag, taggedHash } from '../../src/core/commit/hash.js'
import { type KeyPair, keyPairFromSecret, sign, verifySignature } from '../../src/core/commit/keys.js'
import { seededSecrets } from '../../src/core/commit/secrets.js'
import type { MeshCodec, MeshDecoded, MeshEnvelope, MeshRef } from '../../src/core/mesh/codec.js'
import type { MeshStore } from '../../src/core/mesh/store.js'

const HASH_TAG = 'mesh-toy/1/envelope-hash'
const SIG_TAG = 'mesh-toy/1/envelope'
const HEADER = 1 + 1 + 2 + 32 + 32

export interface ToyFields {
  readonly author: number
  readonly seq: number
  readonly prev: Uint8Array
  readonly heads: readonly MeshRef[]
  /** Fork parts: author, seq, two hashes. */
  readonly forks: readonly { author: number; seq: number; a: Uint8Array; b: Uint8Array }[]
  readonly payload: Uint8Array
  /** Sign with this key instead of the author's (a forgery). */
  readonly key?: KeyPair
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return (a[i] ?? 0) - (b[i] ?? 0)
  return a.length - b.length
}

export class ToyGame {
  readonly keys: KeyPair[]
  readonly game: Uint8Array
  readonly codec: MeshCodec

  constructor(
    readonly n: number,
    seed = 'toy',
  ) {
    const secrets = seededSecrets(`mesh-toy/${seed}`)
    this.keys = Array.from({ length: n }, () => keyPairFromSecret(secrets.bytes(32)))
    this.game = sha256(utf8(`mesh-toy game ${seed} ${n}`))
    this.codec = {
      authors: n,
      decode: (bytes) => this.decode(bytes),
      signatureValid: (e) => {
        const key = this.keys[e.author]
        if (key === undefined || e.bytes.length < 64) return false
        const unsigned = e.bytes.subarray(0, e.bytes.length - 64)
        return verifySignature(
          key.publicKey,
          concatBytes(tag(SIG_TAG), unsigned),
          e.bytes.subarray(e.bytes.length - 64),
        )
      },
    }
  }

  compose(f: ToyFields, game = this.game): Uint8Array {
    const heads = f.heads.map((h) => concatBytes(u8(h.author), u16(h.seq), h.hash))
    const forks = f.forks.map((k) => concatBytes(u8(k.author), u16(k.seq), k.a, k.b))
    const unsigned = concatBytes(
      u8(1),
      u8(f.author),
      u16(f.seq),
      game,
      f.prev,
      u8(heads.length),
      ...heads,
      u8(forks.length),
      ...forks,
      u16(f.payload.length),
      f.payload,
    )
    const key = f.key ?? this.keys[f.author]
    if (key === undefined) throw new Error('no key')
    return concatBytes(unsigned, sign(key, concatBytes(tag(SIG_TAG), unsigned)))
  }

  hashOf(bytes: Uint8Array): Uint8Array {
    return taggedHash(HASH_TAG, bytes.subarray(0, bytes.length - 64))
  }

  /** A node's next envelope, from what its store holds (an honest signer). */
  next(store: MeshStore, author: number, payload: Uint8Array = u8(0)): Uint8Array {
    const seq = store.contiguous(author)
    const prev = seq === 0 ? this.game : (store.mainAt(author, seq - 1)?.envelope.hash ?? this.game)
    const heads: MeshRef[] = []
    const forks: { author: number; seq: number; a: Uint8Array; b: Uint8Array }[] = []
    for (let a = 0; a < this.n; a++) {
      if (a === author) continue
      const c = store.contiguous(a)
      const tip = store.mainAt(a, c - 1)
      if (tip !== undefined) heads.push({ author: a, seq: c - 1, hash: tip.envelope.hash })
      for (const s of store.conflicts(a)) {
        const held = store.versions(a, s).filter((v) => v.held)
        const [x, y] = held
        if (x === undefined || y === undefined) continue
        const [lo, hi] = [x.envelope.hash, y.envelope.hash].sort(compareBytes) as [Uint8Array, Uint8Array]
        forks.push({ author: a, seq: s, a: lo, b: hi })
        break
      }
    }
    return this.compose({ author, seq, prev, heads, forks, payload })
  }

  decode(bytes: Uint8Array): MeshDecoded {
    const fail = (
      code:
        | 'envelope.truncated'
        | 'envelope.trailing'
        | 'envelope.version'
        | 'envelope.author'
        | 'envelope.foreign'
        | 'envelope.field',
      detail: string,
    ): MeshDecoded => ({
      ok: false,
      error: { code, detail },
    })
    if (bytes.length < HEADER + 1 + 1 + 2 + 64) return fail('envelope.truncated', 'shorter than a header')
    if (bytes[0] !== 1) return fail('envelope.version', `version ${bytes[0]}`)
    const author = bytes[1] ?? 0
    if (author >= this.n) return fail('envelope.author', `author ${author}`)
    const seq = ((bytes[2] ?? 0) << 8) | (bytes[3] ?? 0)
    const game = bytes.subarray(4, 36)
    if (compareBytes(game, this.game) !== 0) return fail('envelope.foreign', 'another game')
    const prev = bytes.slice(36, 68)
    if (seq === 0 && compareBytes(prev, this.game) !== 0)
      return fail('envelope.foreign', 'seq 0 does not follow the game')
    let at = HEADER
    const h = bytes[at++] ?? 0
    if (at + h * 35 > bytes.length) return fail('envelope.truncated', 'heads')
    const heads: MeshRef[] = []
    for (let i = 0; i < h; i++, at += 35) {
      const a = bytes[at] ?? 0
      if (a >= this.n || a === author || (heads.length > 0 && a <= (heads[heads.length - 1]?.author ?? 0)))
        return fail('envelope.field', `head ${i}`)
      heads.push({
        author: a,
        seq: ((bytes[at + 1] ?? 0) << 8) | (bytes[at + 2] ?? 0),
        hash: bytes.slice(at + 3, at + 35),
      })
    }
    const f = bytes[at++]
    if (f === undefined || at + f * 67 > bytes.length) return fail('envelope.truncated', 'forks')
    const names: MeshRef[] = []
    for (let i = 0; i < f; i++, at += 67) {
      const a = bytes[at] ?? 0
      if (a >= this.n) return fail('envelope.field', `fork ${i}`)
      const s = ((bytes[at + 1] ?? 0) << 8) | (bytes[at + 2] ?? 0)
      names.push(
        { author: a, seq: s, hash: bytes.slice(at + 3, at + 35) },
        { author: a, seq: s, hash: bytes.slice(at + 35, at + 67) },
      )
    }
    if (at + 2 > bytes.length) return fail('envelope.truncated', 'payload length')
    const len = ((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0)
    at += 2 + len
    if (at + 64 > bytes.length) return fail('envelope.truncated', 'payload or signature')
    if (at + 64 < bytes.length) return fail('envelope.trailing', 'bytes after the signature')
    const value: MeshEnvelope = { author, seq, prev, heads, names, hash: this.hashOf(bytes), bytes }
    return { ok: true, value }
  }
}

/** The payload's first byte: the toy's "tick" (for the bound). */
export function toyTick(e: MeshEnvelope): number {
  const h = e.bytes[68] ?? 0
  const at = 69 + h * 35
  const f = e.bytes[at] ?? 0
  return e.bytes[at + 1 + f * 67 + 2] ?? 0
}
