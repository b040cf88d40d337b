/**
 * Spaaace! among peers (protocol/SPAAACE-PEERS.md): the protocol's identifiers and domain tags (§2)
 * and its named limits (§10). Every constant cites the section that fixes it; the byte-level
 * decisions this implementation took are the document's last section ("Byte-level decisions", BD-n).
 */

/** §2: the libp2p protocol id. */
export const PEERS_PROTOCOL_ID = '/spaaace/1.0.0'
/** §3.1, §4.1: the protocol byte of a genesis and the version byte of an envelope. */
export const PEERS_VERSION = 1

/** §2: the domain-separation tags (`tag(T)`, `block(T, G, p)` of SPEC §3.3). */
export const PEERS_DOMAIN = {
  gameId: 'spaaace/1/game-id',
  envelope: 'spaaace/1/envelope',
  envelopeHash: 'spaaace/1/envelope-hash',
  salt: 'spaaace/1/salt',
  orders: 'spaaace/1/orders',
  state: 'spaaace/1/state',
} as const

/** §2: the first byte of each kind of transcript line. */
export const LINE_KIND = { genesis: 0x47, envelope: 0x01, receipt: 0x84 } as const

/** §2: the transcript file's first line. */
export const TRANSCRIPT_HEADER = 'spaaace-transcript 1'

/**
 * §2, §10: the most bytes a transcript file holds. An honest file is about 1 KB a player a tick
 * with 3 players and 4 KB with 16 (heads grow with the roster), so 62 MB for 16 players over the
 * most ticks (1,000); this is four times that, and its text stays well inside what a JavaScript
 * string holds (2^29 - 24 characters). A larger file is no game (`file.too-large`).
 */
export const MAX_FILE_BYTES = 268_435_456

/** Whether a file's text is a Spaaace! transcript of any version (its first line's word, §2). */
export function isSpaaaceTranscript(text: string): boolean {
  return text.startsWith('spaaace-transcript ')
}

/** §3.1, §10, S-01: players in a game. */
export const MIN_PLAYERS = 3
export const MAX_PLAYERS = 16

/** §10: honest clocks are within this of UTC. */
export const SKEW_MS = 1000
/** §3.1, §10: the least choice window a node plays a tick with. */
export const THINK_MS = 5000
/** §3.1, §10: Δ = `marginMs`, the delivery bound honest nodes assume. */
export const MIN_MARGIN_MS = 500
export const MAX_MARGIN_MS = 600_000
/** §3.1: the most `commitMs`, `revealMs` and the tick length `L` may be (the rules' `tickMs` bound, S-11). */
export const MAX_PHASE_MS = 2_592_000_000
/** §3.1: `start` is at most 2^53 − 1. */
export const MAX_START_MS = Number.MAX_SAFE_INTEGER
/** §10: `maxTicks` ≤ 1,000 (S-51), the bound of every tick field (BD-3). */
export const MAX_TICKS = 1000

/** §3.1: the least `commitMs` for a margin Δ: `2·Δ + 4·SKEW_MS + THINK_MS`. */
export function commitMsFloor(marginMs: number): number {
  return 2 * marginMs + 4 * SKEW_MS + THINK_MS
}

/** §3.1: the least `revealMs` for a margin Δ: `3·Δ + 4·SKEW_MS`. */
export function revealMsFloor(marginMs: number): number {
  return 3 * marginMs + 4 * SKEW_MS
}

/** §10: `STALL_MS` = `4·Δ + 4·SKEW_MS` after `R_t`. */
export function stallMs(marginMs: number): number {
  return 4 * marginMs + 4 * SKEW_MS
}

/** §3.1: the `commitMs` a client SHOULD propose at least: `STALL_MS + 2·SKEW_MS + THINK_MS`. */
export function commitMsAdvised(marginMs: number): number {
  return stallMs(marginMs) + 2 * SKEW_MS + THINK_MS
}

/** §3.1: the tick length `L = commitMs + revealMs + 2·Δ + 2·SKEW_MS`. */
export function tickLength(t: {
  readonly commitMs: number
  readonly revealMs: number
  readonly marginMs: number
}): number {
  return t.commitMs + t.revealMs + 2 * t.marginMs + 2 * SKEW_MS
}

/** §4.1, §4.2: field sizes. */
export const HEADER_BYTES = 68
export const HEAD_BYTES = 35
export const SALT_BYTES = 16
export const SIGNATURE_BYTES = 64
/** §4.1: parts in one envelope. */
export const MIN_PARTS = 1
export const MAX_PARTS = 8
/** §4.2: the order text of a reveal. */
export const MAX_ORDERS_BYTES = 1024

/**
 * §10: the largest envelope that decodes: header 68, `h` and 15 heads 526, count 1, one reveal
 * 1,045, seven `fork` parts 476, sig 64 (review F6, F7, R10: exact).
 */
export const MAX_ENVELOPE = 2180
/** §10: a frame carries at most one envelope and its frame header. */
export const MAX_FRAME = MAX_ENVELOPE + 16
/** §4.2, §10: an author's envelope at `seq > 2 + SEQ_PER_TICK · t_e` is not evidence. */
export const SEQ_PER_TICK = 12
/** §8, §10: envelopes (and `HELD_AHEAD · MAX_ENVELOPE` bytes) per author waiting for their past. */
export const HELD_AHEAD = 8
/** §8, §10: bytes resent per Δ per peer. */
export const RESEND_BUDGET = 262_144
/** §8, §10: new streams accepted per peer per Δ. */
export const STREAMS_PER_MARGIN = 1

/** §4.2: whether an envelope at `seq` is within the bound for its `t_e`. */
export function withinSeqBound(seq: number, te: number): boolean {
  return seq <= 2 + SEQ_PER_TICK * te
}

/** §2: a player's label in order text, `p1` .. `p16` (1-based roster position). */
export function peerLabel(index: number): string {
  return `p${index + 1}`
}

/** §2: the engine's roster for `n` players, `["p1", ..., "pn"]`. */
export function peerLabels(n: number): string[] {
  return Array.from({ length: n }, (_, i) => peerLabel(i))
}
