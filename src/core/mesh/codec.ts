/**
 * What the mesh needs to know of a game's envelopes (protocol/SPAAACE-PEERS.md §4.1), supplied by
 * the game: who signed one, where it stands in its author's chain, what it names, its hash, and
 * whether its signature is good. The mesh itself knows no layout, no tag and no key.
 *
 * Authentication is SPEC §5.4's rule: an envelope is authentic iff its signature is valid under its
 * author's roster key (`signatureValid`), or an authenticated envelope of the same author names its
 * hash by `prev` (the store decides that one, `MeshStore.binds`; SPEC §13.2). Identity is the hash
 * (SPAAACE-PEERS-REVIEW.md F14, R3): two envelopes with one hash are one envelope, whatever their
 * signature bytes.
 */
import { toHex } from '../commit/bytes.js'

/** One envelope named by hash, where its author's chain puts it (a head, a `prev`, a `fork` part). */
export interface MeshRef {
  readonly author: number
  readonly seq: number
  readonly hash: Uint8Array
}

/** What the mesh reads of an envelope. */
export interface MeshEnvelope {
  /** Roster index of the signer, 0..authors-1. */
  readonly author: number
  /** Its place in the author's chain, from 0. */
  readonly seq: number
  /** The hash of the author's envelope `seq - 1`; at `seq = 0` the game id (never a reference). */
  readonly prev: Uint8Array
  /** §4.1 heads: for other authors, the highest envelope the signer held contiguously. */
  readonly heads: readonly MeshRef[]
  /**
   * Every other envelope the envelope's past names directly (SPAAACE-PEERS §4.1 `past`, review R1):
   * both envelopes of each `fork` part. The mesh obtains and keeps them as it does heads.
   */
  readonly names: readonly MeshRef[]
  /** Its hash (the game's envelope-hash tag over the unsigned bytes). */
  readonly hash: Uint8Array
  /** Its bytes, as received. */
  readonly bytes: Uint8Array
}

/** Why bytes are not an envelope of this game, as a game's codec says. */
export const MESH_CODEC_ERRORS = [
  /** Fewer bytes than the layout needs, or bytes after it. */
  'envelope.truncated',
  'envelope.trailing',
  /** A version byte other than the game's. */
  'envelope.version',
  /** An author outside the roster. */
  'envelope.author',
  /** Another game's envelope: its game id, or at `seq = 0` its `prev`, is not this game's. */
  'envelope.foreign',
  /** Any other field the mesh reads (a head's author, a count) out of range or order. */
  'envelope.field',
] as const
export type MeshCodecErrorCode = (typeof MESH_CODEC_ERRORS)[number]

export interface MeshCodecError {
  readonly code: MeshCodecErrorCode
  readonly detail: string
}

export type MeshDecoded =
  { readonly ok: true; readonly value: MeshEnvelope } | { readonly ok: false; readonly error: MeshCodecError }

/**
 * A game's envelopes for the mesh. Both methods are called on hostile bytes and MUST NOT throw.
 *
 * `decode` reads only what the mesh needs (the header, heads, `fork` parts and the signature's
 * place): an envelope whose other parts a game cannot decode is still an authenticated envelope,
 * evidence of a protocol violation (review R9), and the mesh keeps and forwards it like any other.
 */
export interface MeshCodec {
  /** The roster size `n`: authors are 0..n-1, resume frames carry `n` counts. */
  readonly authors: number
  decode(bytes: Uint8Array): MeshDecoded
  /** The signature under the author's roster key (SPEC §5.2's rule, Ed25519 for Spaaace!). */
  signatureValid(envelope: MeshEnvelope): boolean
}

/** A hash as a map key. */
export function hashKey(hash: Uint8Array): string {
  return toHex(hash)
}

/** The ref of `e` itself. */
export function refOf(e: MeshEnvelope): MeshRef {
  return { author: e.author, seq: e.seq, hash: e.hash }
}

/** Every envelope `e` names directly: its `prev` (from `seq = 1`), its heads and its `names`. */
export function refsOf(e: MeshEnvelope): MeshRef[] {
  const out: MeshRef[] = []
  if (e.seq > 0) out.push({ author: e.author, seq: e.seq - 1, hash: e.prev })
  out.push(...e.heads, ...e.names)
  return out
}
