/**
 * Spaaace!'s envelopes as the core's mesh reads them (protocol/SPAAACE-PEERS.md §4.1, §8): the
 * adapter between the game's bytes (`peers/`) and the game-agnostic forwarding layer
 * (`core/mesh/`), which may know neither of the other. Pure.
 */
import type { MeshCodec, MeshCodecErrorCode, MeshRef } from '../../../core/mesh/codec.js'
import { CONFLICTS_KEPT, type MeshLimits } from '../../../core/mesh/limits.js'
import type { WithinBound } from '../../../core/mesh/engine.js'
import { HELD_AHEAD, MAX_ENVELOPE, MAX_FRAME, RESEND_BUDGET, withinSeqBound } from '../peers/domain.js'
import { describeProtocolError } from '../../../core/wire/errors.js'
import { forksOf, readEnvelopeOnce, signatureValid } from '../peers/envelope.js'

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
      const r = readEnvelopeOnce(bytes, { players: roster.length, game })
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
    // Half of Δ: a peer's next envelope naming it, or its want, usually comes first (§8;
    // limits.ts). A commitment sent at the commit guard G_t through one forwarding hop still
    // reaches every seal by C_t = G_t + Δ + 2·SKEW_MS when each hop takes under Δ/4 + SKEW_MS.
    forwardDelayMs: Math.floor(marginMs / 2),
  }
}

/**
 * §4.2, §8: the mesh's bound on an author's envelopes, checked on receipt before anything is kept
 * or forwarded: `seq ≤ 2 + SEQ_PER_TICK · t_e`. The exact `t_e` needs each `state` part's
 * correctness over its past, which only the decision knows once that past is held; here it is
 * bounded from above by the highest `state` tick the author has claimed in envelopes kept so far
 * (or in this one), and that claim is believed at most up to this node's own last closing tick + 2
 * (`ownState`), so a flood of false `state` parts cannot raise it far. An honest author's envelopes
 * are always within (its parts are admissible and its chain within the bound, §4.2); one dropped
 * while this node lags comes again by `want` or resume once another envelope names it, as any
 * envelope not held does. What passes here is judged exactly by the decision (not evidence, §4.2).
 */
export function spaaaceWithinBound(players: number, game: Uint8Array, ownState: () => number): WithinBound {
  const claimed = new Map<number, number>()
  return (e, _store, restored = false) => {
    const r = readEnvelopeOnce(e.bytes, { players, game })
    let u = claimed.get(e.author) ?? 0
    // Read back from this node's own transcript (`MeshEngine.restore`), before it has decided any
    // tick again: what was admitted once is believed as claimed, and never refused.
    const cap = restored ? Infinity : ownState() + 2
    if (r.ok && r.value.body.ok)
      for (const p of r.value.body.value.parts) if (p.type === 'state') u = Math.max(u, Math.min(p.tick, cap))
    if (!restored && !withinSeqBound(e.seq, 1 + u)) return false
    claimed.set(e.author, u)
    return true
  }
}
