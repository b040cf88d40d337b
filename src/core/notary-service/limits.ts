/**
 * The notary's named limits (PROTOCOL-4.md §5.4, §4.6; NOTARY.md §8). Every resource a remote
 * peer can make the notary spend is bounded by one of these; a deployment may lower or raise them
 * (the `limits` option), and NOTARY.md §8 gives these defaults.
 */
export interface NotaryLimits {
  /** Unsealed games held at once (NOTARY.md §8). */
  readonly openGames: number
  /** register, submit, complain and seal requests per peer per minute (§8). */
  readonly submissionsPerPeerPerMinute: number
  /** fetch requests per peer per minute (§8). */
  readonly fetchesPerPeerPerMinute: number
  /** Bytes of hellos, receipts and deposits held, all games together (§8). */
  readonly bytesHeld: number
}

export const NOTARY_LIMITS: NotaryLimits = {
  openGames: 10_000,
  submissionsPerPeerPerMinute: 240,
  fetchesPerPeerPerMinute: 240,
  bytesHeld: 8 * 1024 ** 3,
}

/** PROTOCOL-4.md §4.6, §9: deposits are deleted this long after the seal, never before. */
export const RETENTION_MS = 30 * 24 * 3_600_000

/** PROTOCOL-4.md §5.3: complaints receipted per side per game. */
export const COMPLAINTS_PER_SIDE = 2

/** NOTARY.md §8: the window of the per-peer rates. */
export const RATE_WINDOW_MS = 60_000

/** SPAAACE-WITNESSED §2: a game whose horizon is further than this from the notary's now is refused (26). */
export const MAX_HORIZON_MS = 34_560_000_000
