/**
 * Salted commitments (protocol/SPEC.md §4): per cell of a player's space, one to occupancy and
 * one to detail, each with its own 256-bit salt; and one per turn to the action record.
 *
 * Salts are derived from one secret 256-bit seed per player and game with HMAC-SHA256 (SPEC
 * §4.1). Each salt is a PRF output under a secret key, so opening one cell's salt discloses
 * nothing about any other; revealing the seed at the end discloses them all at once, which keeps
 * the reveal to 32 bytes plus the setup and records.
 */
import { constantTimeEqual, u16, u8, utf8 } from './bytes.js'
import { DOMAIN, HASH_BYTES, TaggedPrefix, taggedHash } from './hash.js'

export const SEED_BYTES = 32
export const SALT_BYTES = 32
export const GAME_ID_BYTES = 32
/** SPEC §4.2: cells per space; the setup commitment holds two commitments per cell. */
export const SPACE_CELLS = 125
export const SETUP_COMMITMENT_BYTES = SPACE_CELLS * 2 * HASH_BYTES

export type CellCommitmentKind = 'occupancy' | 'detail'
type SaltKind = CellCommitmentKind | 'record'
/** SPEC §4.1: the kind byte of a salt derivation. */
const SALT_KIND_BYTE: Readonly<Record<SaltKind, number>> = { occupancy: 1, detail: 2, record: 3 }

/** What a cell holds, as committed: occupancy and detail (`-` or ship type then identity, e.g. `PC2`). */
export interface CellValue {
  readonly occupied: boolean
  readonly detail: string
}

export const EMPTY_DETAIL = '-'

export interface CommitmentContext {
  readonly gameId: Uint8Array
  /** 0 for A, 1 for B. */
  readonly player: 0 | 1
}

/*
 * Every salt and cell commitment of one side of one game shares its leading fields (tag, game
 * id, player), so those are absorbed once per (seed, context) and per context, and only the rest
 * is hashed per cell (issue 6: a setup commitment is 500 of each per game). Keyed by the objects
 * a session or verifier holds for the whole game. The values are exactly those of the
 * definitions in SPEC §4.1 and §4.2.
 */
const saltPrefixes = new WeakMap<Uint8Array, WeakMap<CommitmentContext, TaggedPrefix>>()
const cellPrefixes = new WeakMap<CommitmentContext, Record<CellCommitmentKind, TaggedPrefix>>()

function saltPrefix(seed: Uint8Array, ctx: CommitmentContext): TaggedPrefix {
  let perSeed = saltPrefixes.get(seed)
  if (perSeed === undefined) saltPrefixes.set(seed, (perSeed = new WeakMap()))
  let p = perSeed.get(ctx)
  if (p === undefined) perSeed.set(ctx, (p = TaggedPrefix.mac(seed, DOMAIN.salt, ctx.gameId, u8(ctx.player))))
  return p
}

function cellPrefix(kind: CellCommitmentKind, ctx: CommitmentContext): TaggedPrefix {
  let p = cellPrefixes.get(ctx)
  if (p === undefined) {
    const make = (k: CellCommitmentKind): TaggedPrefix => TaggedPrefix.hash(DOMAIN[k], ctx.gameId, u8(ctx.player))
    cellPrefixes.set(ctx, (p = { occupancy: make('occupancy'), detail: make('detail') }))
  }
  return p[kind]
}

/** SPEC §4.1: HMAC-SHA256(seed, lp(tag) ‖ lp(game id) ‖ lp(player) ‖ lp(kind) ‖ lp(u16 index)). */
export function deriveSalt(seed: Uint8Array, ctx: CommitmentContext, kind: SaltKind, index: number): Uint8Array {
  return saltPrefix(seed, ctx).of(u8(SALT_KIND_BYTE[kind]), u16(index))
}

export function occupancyValue(occupied: boolean): Uint8Array {
  return u8(occupied ? 1 : 0)
}

export function detailValue(detail: string): Uint8Array {
  return utf8(detail)
}

/** SPEC §4.2: SHA-256(lp(tag) ‖ lp(game id) ‖ lp(player) ‖ lp(u8 cell) ‖ lp(value) ‖ lp(salt)). */
export function cellCommitment(kind: CellCommitmentKind, ctx: CommitmentContext, cell: number, value: Uint8Array, salt: Uint8Array): Uint8Array {
  return cellPrefix(kind, ctx).of(u8(cell), value, salt)
}

/** SPEC §4.2: for cells 0..124 in index order, the occupancy commitment then the detail commitment. */
export function commitSetup(ctx: CommitmentContext, cells: readonly CellValue[], seed: Uint8Array): Uint8Array {
  const out = new Uint8Array(SETUP_COMMITMENT_BYTES)
  const salt = saltPrefix(seed, ctx)
  const occupancy = cellPrefix('occupancy', ctx)
  const detail = cellPrefix('detail', ctx)
  const occupancyKind = u8(SALT_KIND_BYTE.occupancy)
  const detailKind = u8(SALT_KIND_BYTE.detail)
  cells.forEach((v, cell) => {
    const index = u16(cell)
    const at = u8(cell)
    out.set(occupancy.of(at, occupancyValue(v.occupied), salt.of(occupancyKind, index)), 2 * cell * HASH_BYTES)
    out.set(detail.of(at, detailValue(v.detail), salt.of(detailKind, index)), (2 * cell + 1) * HASH_BYTES)
  })
  return out
}

function committedAt(vector: Uint8Array, kind: CellCommitmentKind, cell: number): Uint8Array {
  const at = (2 * cell + (kind === 'occupancy' ? 0 : 1)) * HASH_BYTES
  return vector.subarray(at, at + HASH_BYTES)
}

/** Whether (value, salt) opens the committed cell (constant-time compare). */
export function opens(vector: Uint8Array, kind: CellCommitmentKind, ctx: CommitmentContext, cell: number, value: Uint8Array, salt: Uint8Array): boolean {
  return constantTimeEqual(committedAt(vector, kind, cell), cellCommitment(kind, ctx, cell, value, salt))
}

/** SPEC §4.3: the commitment to turn `turn`'s canonical record text. */
export function recordCommitment(ctx: CommitmentContext, turn: number, recordText: string, salt: Uint8Array): Uint8Array {
  return taggedHash(DOMAIN.record, ctx.gameId, u8(ctx.player), u16(turn), utf8(recordText), salt)
}

export function recordSalt(seed: Uint8Array, ctx: CommitmentContext, turn: number): Uint8Array {
  return deriveSalt(seed, ctx, 'record', turn)
}
