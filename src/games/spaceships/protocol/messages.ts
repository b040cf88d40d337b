/**
 * The protocol's messages (protocol/SPEC.md §6, §7) as values: envelope parts, terms, limits and
 * the wire codes of §3.2. Cells are held in the conventional notation (`Rv1`), which is what the
 * players, the UI and the bots read; the codec (`codec.ts`) turns them into cell indices on the wire.
 */
import { cellByName, formatCell, parseCell } from '../rules/coords.js'
import { ALL_SHIP_TYPES, type ShipType } from '../rules/ships.js'

/**
 * SPEC §1, §5.1: the protocol versions a node speaks, plays and verifies. A game's version is its
 * envelopes' first byte, fixed by A's hello: a version 3 game never becomes a version 4 game.
 */
export const PROTOCOL_VERSIONS = [3, 4] as const
export type ProtocolVersion = (typeof PROTOCOL_VERSIONS)[number]
/** The version a node offers for a new game. */
export const PROTOCOL_VERSION: ProtocolVersion = 4
/** SPEC §2: the libp2p protocol id of each version. */
export const PROTOCOL_IDS: Readonly<Record<ProtocolVersion, string>> = { 3: '/spaceships/3.0.0', 4: '/spaceships/4.0.0' }
export const PROTOCOL_ID = PROTOCOL_IDS[PROTOCOL_VERSION]

export function isProtocolVersion(v: number): v is ProtocolVersion {
  return v === 3 || v === 4
}

/** SPEC §9: limits. Every list and string a peer sends is bounded by one of these. */
export const LIMITS = {
  /** Bytes of an envelope that carries a reveal part. */
  revealEnvelopeBytes: 1_048_576,
  /** Bytes of any other envelope. */
  envelopeBytes: 65_536,
  /** Bytes of a frame on the wire (the largest envelope and a frame header). */
  frameBytes: 1_048_576 + 128,
  maxTurns: 1000,
  recordBytes: 1024,
  detailBytes: 200,
  rulesetBytes: 200,
  listItems: 255,
  beams: 16,
  beamCells: 5,
  reportCells: 16,
  setupShips: 125,
  maxSeq: 4096,
  /** SPEC §2.2: bytes resent in answer to resume frames per `replyMs`. */
  resendBudgetBytes: 2_097_152,
  /** SPEC §2.2: envelopes held ahead of a gap. */
  heldEnvelopes: 4,
  /** SPEC §2.4: chat lines shown per second; more are dropped. */
  chatPerSecond: 10,
  /** SPEC §11: the other side's envelopes persisted and not yet acted on. */
  openEnvelopes: 2,
  /** SPEC §11: the other side's envelopes persisted after this side's stop. */
  afterStopEnvelopes: 2,
  /** SPEC §6.6: the most a claim may follow its deadline. */
  marginMs: 1000,
  /** SPEC §6.1: deadlines are between 2 seconds and 1 day (version 3) or 30 days (version 4). */
  minDeadlineMs: 2000,
  maxDeadlineMs: 86_400_000,
  maxDeadlineMsV4: 2_592_000_000,
  /** SPEC §6.1 (version 4): a witnessed game's time reserve, at most 30 days. */
  maxReserveMs: 2_592_000_000,
  /** SPEC §11: transcript files. */
  fileBytes: 16_777_216,
  fileLines: 16_384,
  /** SPEC §9 (version 4): both chains at the largest seq and a notary receipt for each envelope. */
  fileLinesV4: 16_392,
  /** SPEC §2.4: control frame text. */
  controlTextBytes: 280,
} as const

export const ROLES = ['A', 'B'] as const
export type Role = (typeof ROLES)[number]

export function otherRole(r: Role): Role {
  return r === 'A' ? 'B' : 'A'
}

/** SPEC §3.2: roles on the wire. */
export const ROLE_INDEX: Readonly<Record<Role, 0 | 1>> = { A: 0, B: 1 }
export const INDEX_ROLE: readonly [Role, Role] = ['A', 'B']

/** SPEC §3.2: ship type codes. */
export const SHIP_CODES: Readonly<Record<ShipType, number>> = {
  DS: 1,
  KC: 2,
  FS: 3,
  PC: 4,
  MD: 5,
  HS: 6,
  LS: 7,
  AG: 8,
  LG: 9,
  HF: 10,
}
export const CODE_SHIPS: readonly (ShipType | undefined)[] = [undefined, ...ALL_SHIP_TYPES]

/** A cell in canonical notation (`Rv1`). */
export type CellName = string

/** Cell names by index, so the codec turns bytes into names without parsing. */
export const CELL_NAMES: readonly CellName[] = Array.from({ length: 125 }, (_, i) => formatCell(i))

/** The index of a canonical cell name, undefined for any other text (no parse, no throw). */
export function knownCellIndex(name: string): number | undefined {
  return cellByName(name)
}

export function cellIndex(name: CellName): number {
  const known = cellByName(name)
  if (known !== undefined) return known
  const c = parseCell(name)
  if (!c.ok) throw new Error(`not a cell: ${name}`)
  return c.value
}

/** SPEC §6.1: the match a game belongs to (2.6.1 §9, §10). */
export interface MatchTerms {
  readonly kind: 'single' | 'scored' | 'continued'
  /** This game's number in the match, from 1. */
  readonly game: number
  /** Games agreed; 0 for open-ended. */
  readonly of: number
  /** The match's previous game id (32 bytes, all zero for the first game). */
  readonly previous: Uint8Array
  /** Each player's additional ships (cost; classic: cells), C-11. */
  readonly additional: readonly [number, number]
}

export const SINGLE_GAME: MatchTerms = {
  kind: 'single',
  game: 1,
  of: 1,
  previous: new Uint8Array(32),
  additional: [0, 0],
}

/** SPEC §6.1: the terms A states in its hello and B accepts by acknowledging it. */
export interface Terms {
  /** Canonical ruleset (NOTATION.md), e.g. `2.6.1 fleet=standard`. */
  readonly ruleset: string
  readonly maxTurns: number
  readonly setupMs: number
  readonly turnMs: number
  readonly replyMs: number
  readonly sanction: 'forfeit'
  readonly match: MatchTerms
  /**
   * Version 4 (SPEC §6.1): each player's time reserve, added once and drawn down by a witnessed
   * game's receipts; 0 (or absent) in an unwitnessed game and in every version 3 game.
   */
  readonly reserveMs?: number
  /** Version 4 (SPEC §6.1): the notary's Ed25519 key in a witnessed game; absent when unwitnessed. */
  readonly notary?: Uint8Array
}

/**
 * Terms for a single game at the standard ruleset with ten minutes per setup and per turn and a
 * minute per answer (SPEC §6.1): what the CLI offers unless told otherwise.
 */
export const DEFAULT_TERMS: Terms = {
  ruleset: '2.6.1 fleet=standard',
  maxTurns: 1000,
  setupMs: 600_000,
  turnMs: 600_000,
  replyMs: 60_000,
  sanction: 'forfeit',
  match: SINGLE_GAME,
}

export interface Hello {
  readonly t: 'hello'
  readonly key: Uint8Array
  readonly nonce: Uint8Array
  /** Present exactly in A's hello (SPEC §6.1). */
  readonly terms: Terms | undefined
}

export const REFUSAL_REASONS = ['version', 'terms', 'key', 'busy'] as const
export type RefusalReason = (typeof REFUSAL_REASONS)[number]

export interface Refuse {
  readonly t: 'refuse'
  readonly reason: RefusalReason
  readonly detail: string
}

export interface SetupCommit {
  readonly t: 'setup'
  /** The 8,000-byte vector of SPEC §4.2. */
  readonly cells: Uint8Array
}

export interface RecordCommit {
  readonly t: 'commit'
  readonly turn: number
  readonly record: Uint8Array
}

export interface Aspects {
  readonly t: 'aspects'
  readonly turn: number
  /** C-26 claim: no actions but kamikaze strikes and scans at the start of this turn, and only scans recorded. */
  readonly idle: boolean
  /** Beam firings, each its target cells in resolution order (C-19). */
  readonly beams: readonly (readonly CellName[])[]
  readonly strikes: readonly CellName[]
  readonly scans: readonly CellName[]
  readonly kamikaze: readonly CellName[]
  /** Version 4 (SPEC §7.5): each launch cell's occupancy opening, proving the lost cell; absent in version 3. */
  readonly kamikazeSalts?: readonly Uint8Array[]
}

export const STRIKE_RESULTS = ['miss', 'hit', 'duplicate-hit'] as const
export type StrikeResultName = (typeof STRIKE_RESULTS)[number]
export const SCAN_RESULTS = ['empty', 'ship', 'ship-destroyed'] as const
export type ScanResultName = (typeof SCAN_RESULTS)[number]

export interface StrikeAnswer {
  readonly result: StrikeResultName
  /** Occupancy opening of the target: value 0 for a miss, 1 otherwise. */
  readonly salt: Uint8Array
  /** C-20 missile explosions, the target first; empty unless the result is a hit on an unfired missile. */
  readonly explosions: readonly CellName[]
  /**
   * Version 4 (SPEC §7.6): the occupancy opening of each explosion cell after the target (the
   * target's is `salt`), so a loss that raises the next turn's scan bound is proven; absent in
   * version 3.
   */
  readonly explosionSalts?: readonly Uint8Array[]
}

export interface ScanAnswer {
  readonly result: ScanResultName
  readonly salt: Uint8Array
}

export interface OpenedCell {
  readonly cell: CellName
  /** Detail opening of the cell, value (type, id). */
  readonly salt: Uint8Array
}

export interface Destruction {
  readonly type: ShipType
  readonly id: number
  readonly cells: readonly OpenedCell[]
}

export interface Results {
  readonly t: 'results'
  readonly turn: number
  /** C-25 claim: every ship of the sender is destroyed at the end of this turn. */
  readonly fleetDestroyed: boolean
  /** One list per beam firing of the other side's aspects, same shape. */
  readonly beams: readonly (readonly StrikeAnswer[])[]
  readonly strikes: readonly StrikeAnswer[]
  readonly scans: readonly ScanAnswer[]
  /** C-23 destruction reports of the sender's own ships destroyed this turn. */
  readonly destroyed: readonly Destruction[]
}

export type FlashcubeAnswer =
  | { readonly cell: CellName; readonly kind: 'empty'; readonly salt: Uint8Array }
  | {
      readonly cell: CellName
      readonly kind: 'ship'
      readonly type: ShipType
      readonly id: number
      readonly destroyed: boolean
      readonly salt: Uint8Array
    }

export interface Flashcube {
  readonly t: 'flashcube'
  readonly turn: number
  /** One list per destruction report the other side sent this turn, same cells in the same order. */
  readonly reports: readonly (readonly FlashcubeAnswer[])[]
}

/** A ship of a revealed setup (SPEC §7.8): type, identity (always written) and cells ascending. */
export interface RevealedShip {
  readonly type: ShipType
  readonly id: number
  readonly cells: readonly number[]
}

export interface Reveal {
  readonly t: 'reveal'
  readonly seed: Uint8Array
  readonly setup: readonly RevealedShip[]
  /** Canonical record text of every turn the sender committed, from turn 1. */
  readonly records: readonly string[]
}

/** SPEC §7.9: stop reasons; `outage` exists from version 4 (a witnessed game's notary unreachable). */
export const STOP_REASONS = ['claim', 'accusation', 'resignation', 'answer', 'outage'] as const
export type StopReason = (typeof STOP_REASONS)[number]

export interface Stop {
  readonly t: 'stop'
  readonly reason: StopReason
  readonly detail: string
}

/** SPEC §7.10, §12.8: the status a verdict part states. */
export const VERDICT_OUTCOMES = [
  'complete',
  'offence',
  'resigned',
  'abandoned',
  'no-reveal',
  'adjudicated',
  'incomplete',
] as const
export type VerdictOutcome = (typeof VERDICT_OUTCOMES)[number]
export const WINNERS = ['A', 'B', 'draw', 'none'] as const
export type Winner = (typeof WINNERS)[number]

export interface VerdictPart {
  readonly t: 'verdict'
  readonly outcome: VerdictOutcome
  readonly winner: Winner
  readonly scores: readonly [number, number]
  readonly detail: string
}

/** Version 4 (SPEC §7.10): the last end step, acknowledging the other side's reveal; it states nothing. */
export interface Close {
  readonly t: 'close'
}

/** Version 4 (SPEC §7.11): an offer of a draw, standing for exactly the other side's next phase envelope. */
export interface Offer {
  readonly t: 'offer'
  readonly kind: 'draw'
}

/** Version 4 (SPEC §7.12): the acceptance of the offer the envelope it answers carries. */
export interface Accept {
  readonly t: 'accept'
}

export type Part =
  | Hello
  | Refuse
  | SetupCommit
  | RecordCommit
  | Aspects
  | Results
  | Flashcube
  | Reveal
  | Stop
  | VerdictPart
  | Close
  | Offer
  | Accept
export type PartType = Part['t']

/** SPEC §7: part type codes of each version; a type a version lacks does not decode in it. */
export const PART_CODES_BY_VERSION: Readonly<Record<ProtocolVersion, Readonly<Partial<Record<PartType, number>>>>> = {
  3: { hello: 1, refuse: 2, setup: 3, commit: 4, aspects: 5, results: 6, flashcube: 7, reveal: 8, stop: 9, verdict: 10 },
  4: {
    hello: 1,
    refuse: 2,
    setup: 3,
    commit: 4,
    aspects: 5,
    results: 6,
    flashcube: 7,
    reveal: 8,
    stop: 9,
    close: 10,
    offer: 11,
    accept: 12,
  },
}

/** SPEC §7: version 3's codes (the parts both versions share have the same codes). */
export const PART_CODES = PART_CODES_BY_VERSION[3]

export const OFFENCE_CLASSES = [
  'illegal-setup',
  'illegal-record',
  'false-visible-result',
  'false-destruction-report',
  'false-flashcube-data',
  'commitment-mismatch',
  'equivocation',
  'protocol-violation',
  // Version 4, witnessed games (PROTOCOL-4.md §5.3): a receipted header whose deposit does not open.
  'false-deposit',
] as const
/** C-28; `false-deposit` is version 4's (SPEC §12.4). */
export type OffenceClass = (typeof OFFENCE_CLASSES)[number]

/** SPEC §6.4; `agreed-draw` (version 4, §7.12): an offer of a draw accepted. */
export const END_REASONS = ['fleet-destroyed', 'no-actions', 'turn-limit', 'agreed-draw'] as const
export type EndReason = (typeof END_REASONS)[number]

/** The turn a part belongs to (SPEC §12.6): its own for turn parts, 0 for hellos and setups. */
export function partTurn(p: Part): number | undefined {
  return 'turn' in p ? p.turn : p.t === 'hello' || p.t === 'refuse' || p.t === 'setup' ? 0 : undefined
}

export function isCellName(text: string): boolean {
  const c = parseCell(text)
  return c.ok && CELL_NAMES[c.value] === text
}
