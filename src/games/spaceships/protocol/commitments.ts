/**
 * Salted commitments (protocol/SPEC.md §4): per cell of a player's space, one to occupancy and
 * one to detail, each with its own 128-bit salt; and one per turn to the action record.
 *
 * Salts are derived from one secret 256-bit seed per player and game (SPEC §4.1): each salt is a
 * PRF output under the seed (SHA-256 keyed through its chaining value, HMAC's own assumption), so
 * opening one cell discloses nothing about any other, and revealing the seed at the end discloses
 * them all at once. SPEC §4.4 argues the 128-bit salts.
 *
 * The objects below hold one side of one game: the domain blocks are absorbed once, and the seed
 * is copied at construction, so nothing a caller does to its own buffers afterwards changes them.
 * The free functions compute the same values the plain way (vectors, other implementations).
 */
import { constantTimeEqual, utf8 } from '../../../core/commit/bytes.js'
import { BlockHash, HASH_BYTES, SEED_BYTES, SaltPrf, domainBlock, sha256 } from '../../../core/commit/hash.js'
import { type Sha256x4, sha256x4 } from '../../../core/commit/sha256x4.js'
import { DOMAINS } from './domain.js'
import type { ProtocolVersion } from './messages.js'

export { SEED_BYTES }
/** SPEC §4.1, §4.4: 128 bits, the hiding level; binding rests on the 256-bit outputs. */
export const SALT_BYTES = 16
export const GAME_ID_BYTES = 32
/** SPEC §4.2: cells per space; the setup commitment holds two commitments per cell. */
export const SPACE_CELLS = 125
export const SETUP_COMMITMENT_BYTES = SPACE_CELLS * 2 * HASH_BYTES
/** SPACE_CELLS rounded up to whole calls of four lanes (`setupVectorX4`'s salt tables). */
const SALT_TABLE_CELLS = Math.ceil(SPACE_CELLS / 4) * 4

/** SPEC §4.1: the kind byte of a salt derivation. */
export const SALT_KIND = { occupancy: 1, detail: 2, record: 3 } as const
export type SaltKind = keyof typeof SALT_KIND

/**
 * What a cell holds, as committed (SPEC §4.2): occupancy, and the detail as the ship's type code
 * (SPEC §3.2) and identity, both 0 for an empty cell.
 */
export interface CellValue {
  readonly occupied: boolean
  readonly type: number
  readonly id: number
}

export const EMPTY_CELL: CellValue = { occupied: false, type: 0, id: 0 }

/**
 * SPEC §4.1: the kind byte a salt is derived under. Version 4 derives a cell's two salts from one
 * compression (kind 1: the first 16 bytes its occupancy salt, the last 16 its detail salt), which
 * saves the verifier a quarter of a setup vector's compressions (PROTOCOL-4.md §7a).
 */
function saltInput(kind: SaltKind, index: number, version: ProtocolVersion): Uint8Array {
  const k = version === 4 && kind === 'detail' ? SALT_KIND.occupancy : SALT_KIND[kind]
  return Uint8Array.of(k, (index >>> 8) & 0xff, index & 0xff)
}

/** Where in the 32-byte PRF output a salt lies (SPEC §4.1): version 4's detail salts are its second half. */
function saltOffset(kind: SaltKind, version: ProtocolVersion): number {
  return version === 4 && kind === 'detail' ? SALT_BYTES : 0
}

/** SPEC §4.2's inputs after the domain block, written into `out` (a scratch buffer, on the hot path). */
function occupancyInput(
  cell: number,
  occupied: boolean,
  salt: Uint8Array,
  out = new Uint8Array(2 + SALT_BYTES),
): Uint8Array {
  out[0] = cell
  out[1] = occupied ? 1 : 0
  out.set(salt, 2)
  return out
}

function detailInput(
  cell: number,
  type: number,
  id: number,
  salt: Uint8Array,
  out = new Uint8Array(3 + SALT_BYTES),
): Uint8Array {
  out[0] = cell
  out[1] = type
  out[2] = id
  out.set(salt, 3)
  return out
}

function recordInput(turn: number, salt: Uint8Array, text: string): Uint8Array {
  const t = textBytes(text)
  const out = new Uint8Array(2 + SALT_BYTES + 2 + t.length)
  out[0] = (turn >>> 8) & 0xff
  out[1] = turn & 0xff
  out.set(salt, 2)
  out[2 + SALT_BYTES] = (t.length >>> 8) & 0xff
  out[3 + SALT_BYTES] = t.length & 0xff
  out.set(t, 4 + SALT_BYTES)
  return out
}

/**
 * A record's UTF-8 bytes. Records are printable ASCII (NOTATION.md; a reveal that holds anything
 * else does not decode), whose UTF-8 is one byte a character: written directly, without a call
 * into the native encoder for a few characters (twice per turn and side in a replay).
 */
function textBytes(text: string): Uint8Array {
  const out = new Uint8Array(text.length)
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (c > 0x7f) return utf8(text)
    out[i] = c
  }
  return out
}

/** The public commitment functions of one side of one game: what a verifier recomputes. */
export class SideCommitments {
  protected readonly occupancyHash: BlockHash
  protected readonly detailHash: BlockHash
  protected readonly record: BlockHash
  /** The padded last blocks of openings (`opensOccupancy`, `opensDetail`), made at the first. */
  private occupancyTail: Uint8Array | undefined
  private detailTail: Uint8Array | undefined
  /** The digest of the last opening checked. */
  private readonly opened = new Uint8Array(HASH_BYTES)
  /**
   * Occupancy openings hashed ahead (`prepareOccupancy`): the list, their digests (32 bytes each,
   * in list order), and the next one the checks are expected to ask for. Decoded salts never change.
   */
  private ahead: readonly { readonly cell: number; readonly occupied: boolean; readonly salt: Uint8Array }[] = []
  private aheadDigests: Uint8Array = new Uint8Array(0)
  private aheadNext = 0
  /** The same for detail openings (`prepareDetail`). */
  private aheadDetail: readonly {
    readonly cell: number
    readonly type: number
    readonly id: number
    readonly salt: Uint8Array
  }[] = []
  private aheadDetailDigests: Uint8Array = new Uint8Array(0)
  private aheadDetailNext = 0
  private detailState: Int32Array | undefined
  private detailTailWords: Int32Array | undefined
  private occupancyState: Int32Array | undefined
  private occupancyTailWords: Int32Array | undefined
  protected recordState: Int32Array | undefined

  constructor(
    readonly game: Uint8Array,
    readonly role: 0 | 1,
    readonly version: ProtocolVersion = 3,
  ) {
    const d = DOMAINS[version]
    this.occupancyHash = new BlockHash(d.occupancy, game, role)
    this.detailHash = new BlockHash(d.detail, game, role)
    this.record = new BlockHash(d.record, game, role)
  }

  /** SPEC §4.2. */
  occupancyOf(cell: number, occupied: boolean, salt: Uint8Array): Uint8Array {
    return this.occupancyHash.of(occupancyInput(cell, occupied, salt))
  }

  /** SPEC §4.2. */
  detailOf(cell: number, type: number, id: number, salt: Uint8Array): Uint8Array {
    return this.detailHash.of(detailInput(cell, type, id, salt))
  }

  /** SPEC §4.3. */
  recordOf(turn: number, salt: Uint8Array, text: string): Uint8Array {
    return this.record.of(recordInput(turn, salt, text))
  }

  /**
   * Hashes the occupancy openings a check is about to make, four at a time (`sha256x4`), so that
   * `opensOccupancy` finds each one's digest made. Only a cache: an opening not listed, or listed
   * with another cell or value, is hashed when it is checked, and the checks run as before.
   */
  prepareOccupancy(
    openings: readonly { readonly cell: number; readonly occupied: boolean; readonly salt: Uint8Array }[],
    lanes: Sha256x4 | null = sha256x4() ?? null,
  ): void {
    this.ahead = []
    this.aheadNext = 0
    if (lanes === null || openings.length < 2) return
    const w = lanes.words
    loadState(w, (this.occupancyState ??= this.occupancyHash.midstate()))
    loadTail(w, (this.occupancyTailWords ??= wordsOf(this.occupancyHash.tailBlock(2 + SALT_BYTES))), 5)
    const digests = (this.aheadDigests = room(this.aheadDigests, openings.length * HASH_BYTES))
    for (let base = 0; base < openings.length; base += 4) {
      const n = Math.min(4, openings.length - base)
      for (let k = 0; k < n; k++) {
        const o = openings[base + k]
        if (o === undefined || o.salt.length !== SALT_BYTES) continue
        // [cell, occupied, salt 0..15, 0x80] (`occupancyInput`'s layout)
        const s = o.salt
        const at = k + 32
        w[at] = ((o.cell & 0xff) << 24) | ((o.occupied ? 1 : 0) << 16) | ((s[0] ?? 0) << 8) | (s[1] ?? 0)
        w[at + 4] = ((s[2] ?? 0) << 24) | ((s[3] ?? 0) << 16) | ((s[4] ?? 0) << 8) | (s[5] ?? 0)
        w[at + 8] = ((s[6] ?? 0) << 24) | ((s[7] ?? 0) << 16) | ((s[8] ?? 0) << 8) | (s[9] ?? 0)
        w[at + 12] = ((s[10] ?? 0) << 24) | ((s[11] ?? 0) << 16) | ((s[12] ?? 0) << 8) | (s[13] ?? 0)
        w[at + 16] = ((s[14] ?? 0) << 24) | ((s[15] ?? 0) << 16) | 0x8000
      }
      lanes.compress()
      for (let k = 0; k < n; k++) {
        const o = openings[base + k]
        if (o === undefined || o.salt.length !== SALT_BYTES) continue
        digestOfLane(w, k, digests, (base + k) * HASH_BYTES)
      }
    }
    this.ahead = openings
  }

  /** `prepareOccupancy` for detail openings (destruction reports, flashcube data): `opensDetail` finds them made. */
  prepareDetail(
    openings: readonly { readonly cell: number; readonly type: number; readonly id: number; readonly salt: Uint8Array }[],
    lanes: Sha256x4 | null = sha256x4() ?? null,
  ): void {
    this.aheadDetail = []
    this.aheadDetailNext = 0
    if (lanes === null || openings.length < 2) return
    const w = lanes.words
    loadState(w, (this.detailState ??= this.detailHash.midstate()))
    loadTail(w, (this.detailTailWords ??= wordsOf(this.detailHash.tailBlock(3 + SALT_BYTES))), 5)
    const digests = (this.aheadDetailDigests = room(this.aheadDetailDigests, openings.length * HASH_BYTES))
    for (let base = 0; base < openings.length; base += 4) {
      const n = Math.min(4, openings.length - base)
      for (let k = 0; k < n; k++) {
        const o = openings[base + k]
        if (o === undefined || o.salt.length !== SALT_BYTES) continue
        // [cell, type, id, salt 0..15, 0x80] (`detailInput`'s layout)
        const s = o.salt
        const at = k + 32
        w[at] = ((o.cell & 0xff) << 24) | ((o.type & 0xff) << 16) | ((o.id & 0xff) << 8) | (s[0] ?? 0)
        w[at + 4] = ((s[1] ?? 0) << 24) | ((s[2] ?? 0) << 16) | ((s[3] ?? 0) << 8) | (s[4] ?? 0)
        w[at + 8] = ((s[5] ?? 0) << 24) | ((s[6] ?? 0) << 16) | ((s[7] ?? 0) << 8) | (s[8] ?? 0)
        w[at + 12] = ((s[9] ?? 0) << 24) | ((s[10] ?? 0) << 16) | ((s[11] ?? 0) << 8) | (s[12] ?? 0)
        w[at + 16] = ((s[13] ?? 0) << 24) | ((s[14] ?? 0) << 16) | ((s[15] ?? 0) << 8) | 0x80
      }
      lanes.compress()
      for (let k = 0; k < n; k++) digestOfLane(w, k, digests, (base + k) * HASH_BYTES)
    }
    this.aheadDetail = openings
  }

  /** Whether (value, salt) opens cell `cell`'s occupancy commitment in `vector` (constant time). */
  opensOccupancy(vector: Uint8Array, cell: number, occupied: boolean, salt: Uint8Array): boolean {
    if (salt.length !== SALT_BYTES)
      return constantTimeEqual(committedAt(vector, cell, 0), this.occupancyOf(cell, occupied, salt))
    // The checks ask in the order listed: the next one is looked for first, then those after it.
    const ahead = this.ahead
    for (let k = this.aheadNext; k < ahead.length; k++) {
      const o = ahead[k]
      if (o?.salt !== salt || o.cell !== cell || o.occupied !== occupied) continue
      this.aheadNext = k + 1
      return sameDigest(vector, cell, 0, this.aheadDigests, k)
    }
    // The verifier opens a cell per strike, beam and scan answer: the input is written into a
    // padded last block kept for it (`occupancyInput`'s layout), hashed into a scratch digest.
    const block = (this.occupancyTail ??= this.occupancyHash.tailBlock(2 + SALT_BYTES))
    block[0] = cell
    block[1] = occupied ? 1 : 0
    block.set(salt, 2)
    this.occupancyHash.ofTail(block, this.opened, 0)
    return sameDigest(vector, cell, 0, this.opened, 0)
  }

  /** Whether (type, id, salt) opens cell `cell`'s detail commitment in `vector` (constant time). */
  opensDetail(vector: Uint8Array, cell: number, type: number, id: number, salt: Uint8Array): boolean {
    if (salt.length !== SALT_BYTES)
      return constantTimeEqual(committedAt(vector, cell, 1), this.detailOf(cell, type, id, salt))
    const ahead = this.aheadDetail
    for (let k = this.aheadDetailNext; k < ahead.length; k++) {
      const o = ahead[k]
      if (o?.salt !== salt || o.cell !== cell || o.type !== type || o.id !== id) continue
      this.aheadDetailNext = k + 1
      return sameDigest(vector, cell, 1, this.aheadDetailDigests, k)
    }
    const block = (this.detailTail ??= this.detailHash.tailBlock(3 + SALT_BYTES))
    block[0] = cell
    block[1] = type
    block[2] = id
    block.set(salt, 3)
    this.detailHash.ofTail(block, this.opened, 0)
    return sameDigest(vector, cell, 1, this.opened, 0)
  }
}

/** One side's secrets for one game: its salts, its setup vector, its record commitments. */
export class SideSecrets extends SideCommitments {
  private readonly salts: SaltPrf
  /** A copy of the seed: revealed at the end (SPEC §7.8), never changed by the caller. */
  readonly seed: Uint8Array

  constructor(seed: Uint8Array, game: Uint8Array, role: 0 | 1, version: ProtocolVersion = 3) {
    super(game, role, version)
    if (seed.length !== SEED_BYTES) throw new Error(`a seed is ${SEED_BYTES} bytes`)
    this.seed = seed.slice()
    this.salts = new SaltPrf(DOMAINS[version].salt, this.seed, game, role)
  }

  /** SPEC §4.1: `salt(kind, index)`. */
  salt(kind: SaltKind, index: number): Uint8Array {
    const at = saltOffset(kind, this.version)
    return this.salts.of(saltInput(kind, index, this.version), at + SALT_BYTES).slice(at)
  }

  /**
   * SPEC §4.2: the 8,000-byte setup commitment of `cells` (index order); four cells at a time in
   * WebAssembly SIMD where it runs (`lanes`; null hashes in JS, one compression after another).
   */
  setupVector(cells: readonly CellValue[], lanes: Sha256x4 | null = sha256x4() ?? null): Uint8Array {
    if (cells.length !== SPACE_CELLS) throw new Error(`a setup has ${SPACE_CELLS} cells`)
    const out = new Uint8Array(SETUP_COMMITMENT_BYTES)
    // The verifier recomputes two of these per game, 375 (version 4) or 500 compressions each:
    // every input is one last block after a block-aligned state, so each is written in place
    // into a padded block made once (the layouts of `saltInput`, `occupancyInput` and
    // `detailInput`), and each commitment straight into the vector.
    const saltIn = this.salts.tailBlock(3)
    const occupancy = this.occupancyHash.tailBlock(2 + SALT_BYTES)
    const detail = this.detailHash.tailBlock(3 + SALT_BYTES)
    if (lanes !== null) {
      this.setupVectorX4(cells, lanes, saltIn, occupancy, detail, out)
      return out
    }
    const salt = new Uint8Array(HASH_BYTES)
    const v4 = this.version === 4
    // Version 4: the detail salt is the same compression's second half (§4.1).
    const detailSaltAt = v4 ? SALT_BYTES : 0
    for (let cell = 0; cell < SPACE_CELLS; cell++) {
      const v = cells[cell] ?? EMPTY_CELL
      const at = 2 * cell * HASH_BYTES
      saltIn[0] = SALT_KIND.occupancy
      saltIn[1] = cell >>> 8
      saltIn[2] = cell & 0xff
      this.salts.intoTail(saltIn, salt, 0)
      occupancy[0] = cell
      occupancy[1] = v.occupied ? 1 : 0
      for (let i = 0; i < SALT_BYTES; i++) occupancy[2 + i] = salt[i] ?? 0
      this.occupancyHash.ofTail(occupancy, out, at)
      if (!v4) {
        saltIn[0] = SALT_KIND.detail
        this.salts.intoTail(saltIn, salt, 0)
      }
      detail[0] = cell
      detail[1] = v.type
      detail[2] = v.id
      for (let i = 0; i < SALT_BYTES; i++) detail[3 + i] = salt[detailSaltAt + i] ?? 0
      this.detailHash.ofTail(detail, out, at + HASH_BYTES)
    }
    salt.fill(0)
    saltIn.fill(0)
    occupancy.fill(0)
    detail.fill(0)
    return out
  }

  /**
   * `setupVector` four cells at a time, one cell per lane of `sha256x4`: the same blocks, the same
   * compressions, a quarter of the calls. Pass by pass (every cell's salts, then every occupancy
   * commitment, then every detail commitment), so each pass writes its state and what its blocks
   * share once. The salts pass through the lanes' memory, wiped after.
   */
  private setupVectorX4(
    cells: readonly CellValue[],
    lanes: Sha256x4,
    saltIn: Uint8Array,
    occupancy: Uint8Array,
    detail: Uint8Array,
    out: Uint8Array,
  ): void {
    const w = lanes.words
    const v4 = this.version === 4
    const saltState = this.salts.midstate()
    // Each cell's salt digest, eight words a cell (SPACE_CELLS rounded up to the lanes): the
    // occupancy salt in words 0..3, version 4's detail salt in words 4..7; version 3's detail
    // salts in a table of their own.
    const salts = new Int32Array(8 * SALT_TABLE_CELLS)
    const detailSalts = v4 ? salts : new Int32Array(8 * SALT_TABLE_CELLS)
    const detailWord = v4 ? 4 : 0
    const saltPass = (kind: number, into: Int32Array): void => {
      loadState(w, saltState)
      loadTail(w, wordsOf(saltIn), 1)
      for (let base = 0; base < SPACE_CELLS; base += 4) {
        for (let k = 0; k < 4; k++) {
          const cell = base + k
          // [kind, cell >> 8, cell & 0xff, 0x80]
          w[k + 32] = (kind << 24) | ((cell >>> 8) << 16) | ((cell & 0xff) << 8) | 0x80
        }
        lanes.compress()
        for (let k = 0; k < 4; k++) {
          const at = k + 96
          for (let i = 0; i < 8; i++) into[8 * (base + k) + i] = w[at + 4 * i] ?? 0
        }
      }
    }
    saltPass(SALT_KIND.occupancy, salts)
    if (!v4) saltPass(SALT_KIND.detail, detailSalts)
    // The digests go straight into the vector.
    loadState(w, this.occupancyHash.midstate())
    loadTail(w, wordsOf(occupancy), 5)
    for (let base = 0; base < SPACE_CELLS; base += 4) {
      for (let k = 0; k < 4; k++) {
        const cell = base + k
        const at = k + 32
        // [cell, occupied, salt 0..15, 0x80]: the salt's words shifted by two bytes.
        const s0 = salts[8 * cell] ?? 0
        const s1 = salts[8 * cell + 1] ?? 0
        const s2 = salts[8 * cell + 2] ?? 0
        const s3 = salts[8 * cell + 3] ?? 0
        const occupied = (cells[cell] ?? EMPTY_CELL).occupied ? 1 : 0
        w[at] = ((cell & 0xff) << 24) | (occupied << 16) | (s0 >>> 16)
        w[at + 4] = (s0 << 16) | (s1 >>> 16)
        w[at + 8] = (s1 << 16) | (s2 >>> 16)
        w[at + 12] = (s2 << 16) | (s3 >>> 16)
        w[at + 16] = (s3 << 16) | 0x8000
      }
      lanes.compress()
      for (let k = 0; k < 4 && base + k < SPACE_CELLS; k++)
        digestOfLane(w, k, out, 2 * (base + k) * HASH_BYTES)
    }
    loadState(w, this.detailHash.midstate())
    loadTail(w, wordsOf(detail), 5)
    for (let base = 0; base < SPACE_CELLS; base += 4) {
      for (let k = 0; k < 4; k++) {
        const cell = base + k
        const at = k + 32
        const v = cells[cell] ?? EMPTY_CELL
        // [cell, type, id, salt 0..15, 0x80]: the salt's words shifted by three bytes.
        const s0 = detailSalts[8 * cell + detailWord] ?? 0
        const s1 = detailSalts[8 * cell + detailWord + 1] ?? 0
        const s2 = detailSalts[8 * cell + detailWord + 2] ?? 0
        const s3 = detailSalts[8 * cell + detailWord + 3] ?? 0
        w[at] = ((cell & 0xff) << 24) | ((v.type & 0xff) << 16) | ((v.id & 0xff) << 8) | (s0 >>> 24)
        w[at + 4] = (s0 << 8) | (s1 >>> 24)
        w[at + 8] = (s1 << 8) | (s2 >>> 24)
        w[at + 12] = (s2 << 8) | (s3 >>> 24)
        w[at + 16] = (s3 << 8) | 0x80
      }
      lanes.compress()
      for (let k = 0; k < 4 && base + k < SPACE_CELLS; k++)
        digestOfLane(w, k, out, (2 * (base + k) + 1) * HASH_BYTES)
    }
    w.fill(0)
    salts.fill(0)
    detailSalts.fill(0)
    saltState.fill(0)
    saltIn.fill(0)
    occupancy.fill(0)
    detail.fill(0)
  }


  /** SPEC §4.3: the commitment to turn `turn`'s canonical record text. */
  recordCommitment(turn: number, text: string): Uint8Array {
    return this.recordOf(turn, this.salt('record', turn), text)
  }

  /**
   * `recordCommitment(t, texts[t - 1])` for turns 1..n (a replay's every record): four turns at a
   * time in the SIMD lanes, every salt in one pass and every commitment in another; a record whose
   * input does not fit one last block (over 35 bytes of text) is committed the plain way.
   */
  recordCommitments(texts: readonly string[], lanes: Sha256x4 | null = sha256x4() ?? null): Uint8Array[] {
    if (lanes === null || texts.length < 2) return texts.map((t, i) => this.recordCommitment(i + 1, t))
    const w = lanes.words
    const out: Uint8Array[] = []
    const saltState = this.salts.midstate()
    const saltIn = this.salts.tailBlock(3)
    // Each turn's salt: the first four words of its digest.
    const salts = new Int32Array(4 * texts.length)
    loadState(w, saltState)
    loadTail(w, wordsOf(saltIn), 1)
    for (let base = 0; base < texts.length; base += 4) {
      const n = Math.min(4, texts.length - base)
      for (let k = 0; k < n; k++) {
        const turn = base + k + 1
        // [3, turn >> 8, turn & 0xff, 0x80] (`saltInput`)
        w[k + 32] = (SALT_KIND.record << 24) | (((turn >>> 8) & 0xff) << 16) | ((turn & 0xff) << 8) | 0x80
      }
      lanes.compress()
      for (let k = 0; k < n; k++) for (let i = 0; i < 4; i++) salts[4 * (base + k) + i] = w[k + 96 + 4 * i] ?? 0
    }
    loadState(w, (this.recordState ??= this.record.midstate()))
    const salt = new Uint8Array(SALT_BYTES)
    for (let base = 0; base < texts.length; base += 4) {
      const n = Math.min(4, texts.length - base)
      const fits: boolean[] = []
      for (let k = 0; k < n; k++) {
        const turn = base + k + 1
        for (let i = 0; i < 4; i++) {
          const x = salts[4 * (base + k) + i] ?? 0
          salt[4 * i] = x >>> 24
          salt[4 * i + 1] = x >>> 16
          salt[4 * i + 2] = x >>> 8
          salt[4 * i + 3] = x
        }
        const input = recordInput(turn, salt, texts[base + k] ?? '')
        fits.push(input.length <= 55)
        if (input.length > 55) {
          input.fill(0)
          continue
        }
        // The last block after the domain block: the input, then the padding `tailBlock` writes.
        const block = this.record.tailBlock(input.length)
        block.set(input)
        const at = k + 32
        for (let i = 0; i < 16; i++)
          w[at + 4 * i] =
            ((block[4 * i] ?? 0) << 24) |
            ((block[4 * i + 1] ?? 0) << 16) |
            ((block[4 * i + 2] ?? 0) << 8) |
            (block[4 * i + 3] ?? 0)
        input.fill(0)
        block.fill(0)
      }
      lanes.compress()
      for (let k = 0; k < n; k++) {
        const turn = base + k + 1
        if (fits[k] !== true) out.push(this.recordCommitment(turn, texts[base + k] ?? ''))
        else {
          const digest = new Uint8Array(HASH_BYTES)
          digestOfLane(w, k, digest, 0)
          out.push(digest)
        }
      }
    }
    w.fill(0)
    salts.fill(0)
    salt.fill(0)
    saltState.fill(0)
    return out
  }
}


/**
 * `constantTimeEqual(committedAt(vector, cell, which), the k-th digest of digests)`, without a view
 * of either (a view is an object; the checks open hundreds of cells a game).
 */
function sameDigest(vector: Uint8Array, cell: number, which: 0 | 1, digests: Uint8Array, k: number): boolean {
  const at = (2 * cell + which) * HASH_BYTES
  if (vector.length < at + HASH_BYTES) return false
  let diff = 0
  for (let i = 0; i < HASH_BYTES; i++) diff |= (vector[at + i] ?? 0) ^ (digests[k * HASH_BYTES + i] ?? 0)
  return diff === 0
}

/**
 * `bytes`, or a larger array when it holds fewer than `n` (its contents not kept): the digests
 * hashed ahead are only read until the next batch, so one array serves every batch of a side.
 */
function room(bytes: Uint8Array, n: number): Uint8Array {
  return bytes.length >= n ? bytes : new Uint8Array(Math.max(n, 2 * bytes.length))
}

/** Every lane's state set to `state` (eight words). */
function loadState(w: Int32Array, state: Int32Array): void {
  for (let i = 0; i < 8; i++) {
    const x = state[i] ?? 0
    w[4 * i] = x
    w[4 * i + 1] = x
    w[4 * i + 2] = x
    w[4 * i + 3] = x
  }
}

/** A 64-byte block as sixteen big-endian words. */
function wordsOf(block: Uint8Array): Int32Array {
  const out = new Int32Array(16)
  for (let i = 0; i < 16; i++)
    out[i] =
      ((block[4 * i] ?? 0) << 24) | ((block[4 * i + 1] ?? 0) << 16) | ((block[4 * i + 2] ?? 0) << 8) | (block[4 * i + 3] ?? 0)
  return out
}

/** Every lane's message words `from..15` set to `words`' (what follows the inputs in a block). */
function loadTail(w: Int32Array, words: Int32Array, from: number): void {
  for (let i = from; i < 16; i++) {
    const x = words[i] ?? 0
    w[32 + 4 * i] = x
    w[32 + 4 * i + 1] = x
    w[32 + 4 * i + 2] = x
    w[32 + 4 * i + 3] = x
  }
}

/** Lane `j`'s digest (its eight output words, big-endian) at `out[pos..pos+32)`. */
function digestOfLane(w: Int32Array, j: number, out: Uint8Array, pos: number): void {
  for (let i = 0; i < 8; i++) {
    const x = w[j + 96 + 4 * i] ?? 0
    out[pos + 4 * i] = x >>> 24
    out[pos + 4 * i + 1] = x >>> 16
    out[pos + 4 * i + 2] = x >>> 8
    out[pos + 4 * i + 3] = x
  }
}

function committedAt(vector: Uint8Array, cell: number, which: 0 | 1): Uint8Array {
  const at = (2 * cell + which) * HASH_BYTES
  return vector.subarray(at, at + HASH_BYTES)
}

/*
 * The same definitions written the plain way, one call each (test vectors and a guide for other
 * implementations; `test/transcript/hash.test.ts` holds the objects above equal to them).
 */

export function deriveSalt(
  seed: Uint8Array,
  game: Uint8Array,
  role: 0 | 1,
  kind: SaltKind,
  index: number,
  version: ProtocolVersion = 3,
): Uint8Array {
  if (seed.length !== SEED_BYTES) throw new Error(`a seed is ${SEED_BYTES} bytes`)
  const at = saltOffset(kind, version)
  return sha256(
    domainBlock(DOMAINS[version].salt, game, role),
    seed,
    new Uint8Array(64 - SEED_BYTES),
    saltInput(kind, index, version),
  ).slice(at, at + SALT_BYTES)
}

export function occupancyCommitment(
  game: Uint8Array,
  role: 0 | 1,
  cell: number,
  occupied: boolean,
  salt: Uint8Array,
  version: ProtocolVersion = 3,
): Uint8Array {
  return sha256(domainBlock(DOMAINS[version].occupancy, game, role), occupancyInput(cell, occupied, salt))
}

export function detailCommitment(
  game: Uint8Array,
  role: 0 | 1,
  cell: number,
  type: number,
  id: number,
  salt: Uint8Array,
  version: ProtocolVersion = 3,
): Uint8Array {
  return sha256(domainBlock(DOMAINS[version].detail, game, role), detailInput(cell, type, id, salt))
}

export function recordCommitment(
  game: Uint8Array,
  role: 0 | 1,
  turn: number,
  salt: Uint8Array,
  text: string,
  version: ProtocolVersion = 3,
): Uint8Array {
  return sha256(domainBlock(DOMAINS[version].record, game, role), recordInput(turn, salt, text))
}
