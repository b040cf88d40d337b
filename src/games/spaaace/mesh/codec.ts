/**
 * Spaaace!'s envelopes as the core's mesh reads them (protocol/SPAAACE-PEERS.md §4.1, §8): the
 * adapter between the game's bytes (`peers/`) and the game-agnostic forwarding layer
 * (`core/mesh/`), which may know neither of the other. Pure.
 */
import type { MeshCodec, MeshCodecErrorCode, MeshRef } from '../../../core/mesh/codec.js'
import { CONFLICTS_KEPT, type MeshLimits } from '../../../core/mesh/limits.js'
import { HELD_AHEAD, MAX_ENVELOPE, MAX_FRAME, RESEND_BUDGET } from '../peers/domain.js'
import { describeProtocolError } from '../../../core/wire/errors.js'
import { forksOf, readEnvelope, signatureValid } from '../peers/envelope.js'

/** The mesh's coarse code for a header that does not decode (the bytes are no envelope of this game, BD-6). */
function meshCode(code: string, field: string): MeshCodecErrorCode {
  if (code === 'wire.truncated') return 'envelope.truncated'
  if (code === 'wire.trailing') return 'envelope.trailing'
  if (code === 'wire.version' || field === 'version') return 'envelope.version'
  if (field === 'author') return 'envelope.author'
  if (field === 'game' || field === 'prev') return 'envelope.foreign'
  return 'envelope.field'
}

/**
 * The codec of one game: its roster's keys, in roster order, and its id `G`. An envelope whose
 * body does not decode names only its `prev` (§4.1, §9 (i)): the mesh forwards it as evidence of
 * that violation but fetches nothing its unreadable heads might name.
 */
export function spaaaceMeshCodec(roster: readonly Uint8Array[], game: Uint8Array): MeshCodec {
  return {
    authors: roster.length,
    decode(bytes) {
      const r = readEnvelope(bytes, { players: roster.length, game })
      if (!r.ok)
        return {
          ok: false,
          error: { code: meshCode(r.error.code, r.error.field), detail: describeProtocolError(r.error) },
        }
      const { header, body, hash } = r.value
      const heads: MeshRef[] = body.ok
        ? body.value.heads.map((h) => ({ author: h.author, seq: h.seq, hash: h.hash }))
        : []
      // A fork part names both envelopes at its place: the mesh keeps and fetches them (review R1).
      const names: MeshRef[] = body.ok
        ? forksOf(body.value).flatMap((f) => [
            { author: f.author, seq: f.seq, hash: f.hashA },
            { author: f.author, seq: f.seq, hash: f.hashB },
          ])
        : []
      return {
        ok: true,
        value: { author: header.author, seq: header.seq, prev: header.prev, heads, names, hash, bytes: r.value.bytes },
      }
    },
    signatureValid(e) {
      const key = roster[e.author]
      return key !== undefined && signatureValid(e, key)
    },
  }
}

/** §10: the mesh's limits for a game with Δ = `marginMs`: Spaaace!'s own envelope bound, and Δ as the resend window. */
export function spaaaceMeshLimits(marginMs: number): MeshLimits {
  return {
    maxEnvelope: MAX_ENVELOPE,
    maxFrame: MAX_FRAME,
    heldAhead: HELD_AHEAD,
    heldAheadBytes: HELD_AHEAD * MAX_ENVELOPE,
    conflictsKept: CONFLICTS_KEPT,
    resendBudget: RESEND_BUDGET,
    windowMs: marginMs,
  }
}
