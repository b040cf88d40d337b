/**
 * The mesh's limits (protocol/SPAAACE-PEERS.md §10, with SPAAACE-PEERS-REVIEW.md R3 and R10). A
 * game passes its own where they differ; these are the design's.
 */
export interface MeshLimits {
  /** The largest envelope a node accepts (§10 `MAX_ENVELOPE`). */
  readonly maxEnvelope: number
  /** The largest frame (§10 `MAX_FRAME` = `MAX_ENVELOPE` + 16); a longer one is malformed. */
  readonly maxFrame: number
  /** Envelopes held ahead of a gap, per author (§10 `HELD_AHEAD`, review R3 "Held ahead"). */
  readonly heldAhead: number
  /** Their bytes, per author (review R3 and §2.15 4: `HELD_AHEAD · MAX_ENVELOPE` per author). */
  readonly heldAheadBytes: number
  /** Versions kept at one `(author, seq)` unless a kept envelope's past names more (§10, review R3). */
  readonly conflictsKept: number
  /** Bytes resent to one peer (answers to resume and `want` frames) per window (review R10). */
  readonly resendBudget: number
  /** The window, Δ (`marginMs`, a genesis term) in the design. */
  readonly windowMs: number
  /**
   * How long an envelope of another author waits before it is forwarded to a peer not yet known
   * to hold it (0: at once). Within that wait a peer usually shows it holds the envelope (it sent
   * it, or signed an envelope naming it), and is then not sent it: in a full mesh each envelope
   * would otherwise cross every link n − 2 more times. A node's own envelopes always go at once;
   * an envelope a peer lacks past the wait still goes, and one never forwarded is fetched by `want`
   * once a signed envelope names it, so withholding from one player still hides nothing (§8).
   */
  readonly forwardDelayMs: number
}

export const MAX_ENVELOPE = 8_192
export const MAX_FRAME = MAX_ENVELOPE + 16
export const HELD_AHEAD = 8
export const RESEND_BUDGET = 262_144
export const CONFLICTS_KEPT = 2
/** Δ's live default (§10). */
export const WINDOW_MS = 2_000

export const MESH_LIMITS: MeshLimits = {
  maxEnvelope: MAX_ENVELOPE,
  maxFrame: MAX_FRAME,
  heldAhead: HELD_AHEAD,
  heldAheadBytes: HELD_AHEAD * MAX_ENVELOPE,
  conflictsKept: CONFLICTS_KEPT,
  resendBudget: RESEND_BUDGET,
  windowMs: WINDOW_MS,
  forwardDelayMs: 0,
}
