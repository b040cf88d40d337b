/**
 * Message bodies (protocol/SPEC.md §6, §7): their types, limits and strict decoders. Cells are
 * written in the conventional notation (`Rv1`), canonical form only.
 */
import { formatCell, parseCell } from '../rules/coords.js'
import { formatRuleset, parseRuleset } from '../rules/ruleset.js'
import { ALL_SHIP_TYPES, type ShipType } from '../rules/ships.js'
import { SALT_BYTES, SEED_BYTES, SETUP_COMMITMENT_BYTES } from '../commit/commitments.js'
import { HASH_BYTES } from '../commit/hash.js'
import { PUBLIC_KEY_BYTES } from '../commit/keys.js'
import { type Decoder, base64url, boolean, failAt, integer, list, object, oneOf, tagged, text } from './decode.js'

/** SPEC §2: the libp2p protocol id and the version carried in every envelope. */
export const PROTOCOL_ID = '/spaceships/1.0.0'
export const PROTOCOL_VERSION = 1

/** SPEC §8: limits. Every list and string a peer sends is bounded by one of these. */
export const LIMITS = {
  /** Bytes of one envelope line, reveal included. */
  envelopeBytes: 1024 * 1024,
  /** Bytes of every other envelope (SPEC §8: the reveal is the only large message). */
  smallEnvelopeBytes: 64 * 1024,
  maxTurns: 1000,
  recordChars: 1024,
  setupChars: 8192,
  listItems: 256,
  beams: 16,
  beamCells: 5,
  shipCells: 16,
  detailChars: 200,
  /** Deadlines are between 1 second and 1 day. */
  minDeadlineMs: 1000,
  maxDeadlineMs: 86_400_000,
  /** Transcript files: bytes and lines. */
  fileBytes: 32 * 1024 * 1024,
  fileLines: 20_000,
} as const

export const ROLES = ['A', 'B'] as const
export type Role = (typeof ROLES)[number]

export function otherRole(r: Role): Role {
  return r === 'A' ? 'B' : 'A'
}

/** A cell in canonical notation. */
export type CellName = string

export const cellName: Decoder<CellName> = (v, at) => {
  if (typeof v !== 'string') return failAt('field.type', at, '§3.5', 'expected a cell such as "Rv1"')
  const c = parseCell(v)
  if (!c.ok || formatCell(c.value) !== v) return failAt('field.format', at, '§3.5', `"${v.slice(0, 16)}" is not a cell in canonical notation (colour R O Y G B, letter v-z, number 1-5)`)
  return v
}

export function cellIndex(name: CellName): number {
  const c = parseCell(name)
  if (!c.ok) throw new Error(`not a cell: ${name}`)
  return c.value
}

const salt = base64url(SALT_BYTES)
const turn = integer(1, LIMITS.maxTurns, '§6')
const cells = list(cellName, LIMITS.listItems)
const shipType = oneOf(ALL_SHIP_TYPES)
const shipId = integer(1, 125)

/** SPEC §6.1: the terms both hellos must state identically. */
export interface Terms {
  /** Canonical ruleset (NOTATION.md), e.g. `2.6.1 fleet=standard`. */
  readonly ruleset: string
  readonly maxTurns: number
  readonly setupMs: number
  readonly turnMs: number
  readonly replyMs: number
  readonly sanction: 'forfeit'
}

const canonicalRuleset: Decoder<string> = (v, at) => {
  const t = text(200, '§6.1')(v, at)
  const r = parseRuleset(t)
  if (!r.ok) return failAt('field.format', at, '§6.1', r.error.message)
  if (formatRuleset(r.value) !== t) return failAt('field.format', at, '§6.1', `not canonical: write "${formatRuleset(r.value)}"`)
  return t
}

const deadline = integer(LIMITS.minDeadlineMs, LIMITS.maxDeadlineMs, '§6.1')
export const termsDecoder = object<Terms>({
  ruleset: canonicalRuleset,
  maxTurns: integer(1, LIMITS.maxTurns, '§6.1'),
  setupMs: deadline,
  turnMs: deadline,
  replyMs: deadline,
  sanction: oneOf(['forfeit'], '§6.1'),
}, '§6.1')

export interface Hello {
  readonly t: 'hello'
  readonly protocol: typeof PROTOCOL_ID
  readonly role: Role
  readonly key: string
  readonly nonce: string
  readonly terms: Terms
}

export const REFUSAL_REASONS = ['version', 'terms', 'roles', 'key', 'busy'] as const
export type RefusalReason = (typeof REFUSAL_REASONS)[number]

export interface Refuse {
  readonly t: 'refuse'
  readonly reason: RefusalReason
  readonly detail: string
}

export interface SetupCommit {
  readonly t: 'setup'
  /** SETUP_COMMITMENT_BYTES in base64url (SPEC §4.2). */
  readonly cells: string
}

export interface RecordCommit {
  readonly t: 'commit'
  readonly turn: number
  readonly record: string
}

export interface Aspects {
  readonly t: 'aspects'
  readonly turn: number
  /** Beam firings, each its target cells in resolution order (C-19). */
  readonly beams: readonly (readonly CellName[])[]
  readonly strikes: readonly CellName[]
  readonly scans: readonly CellName[]
  readonly kamikaze: readonly CellName[]
  /** C-26 claim: no actions but kamikaze strikes and scans at the start of this turn, and only scans recorded. */
  readonly idle: boolean
}

export type StrikeResultName = 'miss' | 'hit' | 'duplicate-hit'
export type ScanResultName = 'empty' | 'ship' | 'ship-destroyed'

export interface StrikeAnswer {
  readonly result: StrikeResultName
  /** Occupancy opening of the target: value 0 for a miss, 1 otherwise. */
  readonly salt: string
  /** C-20 missile explosions, the target first; empty unless the result is a hit on an unfired missile. */
  readonly explosions: readonly CellName[]
}

export interface ScanAnswer {
  readonly result: ScanResultName
  readonly salt: string
}

export interface OpenedCell {
  readonly cell: CellName
  /** Detail opening of the cell, value `${type}${id}`. */
  readonly salt: string
}

export interface Destruction {
  readonly type: ShipType
  readonly id: number
  readonly cells: readonly OpenedCell[]
}

export interface Results {
  readonly t: 'results'
  readonly turn: number
  /** One list per beam firing of the opponent's aspects, same shape. */
  readonly beams: readonly (readonly StrikeAnswer[])[]
  readonly strikes: readonly StrikeAnswer[]
  readonly scans: readonly ScanAnswer[]
  /** C-23 destruction reports of the sender's own ships destroyed this turn. */
  readonly destroyed: readonly Destruction[]
  /** C-25 claim: every ship of the sender is destroyed at the end of this turn. */
  readonly fleetDestroyed: boolean
}

export type FlashcubeAnswer =
  | { readonly cell: CellName; readonly kind: 'empty'; readonly salt: string }
  | { readonly cell: CellName; readonly kind: 'ship'; readonly type: ShipType; readonly id: number; readonly destroyed: boolean; readonly salt: string }

export interface Flashcube {
  readonly t: 'flashcube'
  readonly turn: number
  /** One list per destruction report the opponent sent this turn, same cells in the same order. */
  readonly reports: readonly (readonly FlashcubeAnswer[])[]
}

export interface Reveal {
  readonly t: 'reveal'
  readonly seed: string
  /** Canonical setup text (NOTATION.md). */
  readonly setup: string
  /** Canonical record text of every turn the sender committed, from turn 1. */
  readonly records: readonly string[]
}

export const OFFENCE_CLASSES = [
  'illegal-setup',
  'illegal-record',
  'false-visible-result',
  'false-destruction-report',
  'false-flashcube-data',
  'commitment-mismatch',
  'invalid-signature',
  'equivocation',
  'protocol-violation',
  'abandonment',
] as const
/** C-28. */
export type OffenceClass = (typeof OFFENCE_CLASSES)[number]

export const END_REASONS = ['fleet-destroyed', 'no-actions', 'turn-limit'] as const
export type EndReason = (typeof END_REASONS)[number]

export type Verdict =
  | {
      readonly t: 'verdict'
      readonly outcome: 'complete'
      readonly reason: EndReason
      readonly turn: number
      readonly scores: readonly [number, number]
      readonly winner: Role | 'draw'
    }
  | {
      readonly t: 'verdict'
      readonly outcome: 'offence'
      readonly offender: Role
      readonly class: OffenceClass
      readonly rule: string
      readonly turn: number
      readonly detail: string
    }
  | { readonly t: 'verdict'; readonly outcome: 'abandoned'; readonly by: Role; readonly detail: string }

export type Body = Hello | Refuse | SetupCommit | RecordCommit | Aspects | Results | Flashcube | Reveal | Verdict
export type BodyType = Body['t']

const strikeAnswer = object<StrikeAnswer>({
  result: oneOf(['miss', 'hit', 'duplicate-hit'], '§7.3'),
  salt,
  explosions: list(cellName, 7, '§7.3'),
}, '§7.3')

const scanAnswer = object<ScanAnswer>({ result: oneOf(['empty', 'ship', 'ship-destroyed'], '§7.3'), salt }, '§7.3')

const flashcubeAnswer = tagged<FlashcubeAnswer>('kind', {
  empty: object({ cell: cellName, kind: oneOf(['empty']), salt }, '§7.4'),
  ship: object({ cell: cellName, kind: oneOf(['ship']), type: shipType, id: shipId, destroyed: boolean, salt }, '§7.4'),
}, '§7.4')

const score = integer(0, 125)
const scores: Decoder<readonly [number, number]> = (v, at) => {
  const l = list(score, 2, '§7.6', 2)(v, at)
  return [l[0] ?? 0, l[1] ?? 0]
}

const verdict = tagged<Verdict>('outcome', {
  complete: object({ t: oneOf(['verdict']), outcome: oneOf(['complete']), reason: oneOf(END_REASONS), turn, scores, winner: oneOf(['A', 'B', 'draw']) }, '§7.6'),
  offence: object({ t: oneOf(['verdict']), outcome: oneOf(['offence']), offender: oneOf(ROLES), class: oneOf(OFFENCE_CLASSES), rule: text(80, '§7.6'), turn: integer(0, LIMITS.maxTurns), detail: text(LIMITS.detailChars, '§7.6') }, '§7.6'),
  abandoned: object({ t: oneOf(['verdict']), outcome: oneOf(['abandoned']), by: oneOf(ROLES), detail: text(LIMITS.detailChars, '§7.6') }, '§7.6'),
}, '§7.6')

export const bodyDecoder: Decoder<Body> = tagged<Body>('t', {
  hello: object<Hello>({ t: oneOf(['hello']), protocol: oneOf([PROTOCOL_ID], '§6.1'), role: oneOf(ROLES, '§6.1'), key: base64url(PUBLIC_KEY_BYTES, '§6.1'), nonce: base64url(32, '§6.1'), terms: termsDecoder }, '§6.1'),
  refuse: object<Refuse>({ t: oneOf(['refuse']), reason: oneOf(REFUSAL_REASONS, '§6.2'), detail: text(LIMITS.detailChars, '§6.2') }, '§6.2'),
  setup: object<SetupCommit>({ t: oneOf(['setup']), cells: base64url(SETUP_COMMITMENT_BYTES, '§7.1') }, '§7.1'),
  commit: object<RecordCommit>({ t: oneOf(['commit']), turn, record: base64url(HASH_BYTES, '§7.2') }, '§7.2'),
  aspects: object<Aspects>({
    t: oneOf(['aspects']),
    turn,
    beams: list(list(cellName, LIMITS.beamCells, '§7.2', 3), LIMITS.beams, '§7.2'),
    strikes: cells,
    scans: cells,
    kamikaze: cells,
    idle: boolean,
  }, '§7.2'),
  results: object<Results>({
    t: oneOf(['results']),
    turn,
    beams: list(list(strikeAnswer, LIMITS.beamCells, '§7.3', 3), LIMITS.beams, '§7.3'),
    strikes: list(strikeAnswer, LIMITS.listItems, '§7.3'),
    scans: list(scanAnswer, LIMITS.listItems, '§7.3'),
    destroyed: list(object<Destruction>({ type: shipType, id: shipId, cells: list(object<OpenedCell>({ cell: cellName, salt }, '§7.3'), LIMITS.shipCells, '§7.3', 1) }, '§7.3'), LIMITS.listItems, '§7.3'),
    fleetDestroyed: boolean,
  }, '§7.3'),
  flashcube: object<Flashcube>({ t: oneOf(['flashcube']), turn, reports: list(list(flashcubeAnswer, LIMITS.shipCells, '§7.4', 1), LIMITS.listItems, '§7.4') }, '§7.4'),
  reveal: object<Reveal>({ t: oneOf(['reveal']), seed: base64url(SEED_BYTES, '§7.5'), setup: text(LIMITS.setupChars, '§7.5', true), records: list(text(LIMITS.recordChars, '§7.5'), LIMITS.maxTurns, '§7.5') }, '§7.5'),
  verdict,
}, '§6')

