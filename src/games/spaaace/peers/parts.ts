/**
 * protocol/SPAAACE-PEERS.md §4.2, §4.3: the parts an envelope carries, their layouts and limits,
 * and the salts and commitments of §4.3. Each part is `u8 type ‖ content`; the reader refuses an
 * unknown type, a value out of range, parts out of order and text outside printable ASCII, with a
 * coded error naming the field and the section, and never throws on hostile bytes.
 */
import { HASH_BYTES, SEED_BYTES, sha256, tag, taggedHash } from '../../../core/commit/hash.js'
import { type Reader, type Writer, fail } from '../../../core/wire/binary.js'
import { parseOrderSet, type ParsedOrders } from '../rules/orders.js'
import { sectorCount } from '../rules/state.js'
import { EMPTY_ORDERS } from '../rules/types.js'
import { MAX_ORDERS_BYTES, MAX_TICKS, PEERS_DOMAIN, SALT_BYTES, peerLabels } from './domain.js'

/** §4.2: the part types and their codes; parts stand in an envelope in ascending code order. */
export const PART_CODES = {
  accept: 1,
  state: 2,
  commit: 3,
  seal: 4,
  reveal: 5,
  close: 6,
  fork: 7,
  seed: 8,
  stop: 9,
} as const
export type PartType = keyof typeof PART_CODES
const CODE_TYPES: readonly (PartType | undefined)[] = [
  undefined,
  'accept',
  'state',
  'commit',
  'seal',
  'reveal',
  'close',
  'fork',
  'seed',
  'stop',
]

/** §4.2: a `stop` vote's reason, for the report only (codes 0..4). */
export const STOP_REASONS = ['not-started', 'stalled', 'split', 'leaving', 'late'] as const
export type StopReason = (typeof STOP_REASONS)[number]

/** §3.2, §4.2: the acceptance of the genesis; alone, in every envelope at `seq = 0` and only there. */
export interface AcceptPart {
  readonly type: 'accept'
}
/** §4.2, §5.6: the signer's closing hash of tick `tick`. */
export interface StatePart {
  readonly type: 'state'
  readonly tick: number
  readonly stateHash: Uint8Array
}
/** §4.2, §4.3: the signer's commitment to its order set of tick `tick`. */
export interface CommitPart {
  readonly type: 'commit'
  readonly tick: number
  readonly commitment: Uint8Array
}
/** §4.2: the signer's commitment cut of tick `tick`. */
export interface SealPart {
  readonly type: 'seal'
  readonly tick: number
}
/** §4.2, §4.3: the opening of the signer's commitment of tick `tick`. */
export interface RevealPart {
  readonly type: 'reveal'
  readonly tick: number
  readonly salt: Uint8Array
  /** Printable ASCII, at most 1,024 bytes; what it means is decided at the reveal (S-37, `ordersOf`). */
  readonly orders: string
}
/** §4.2: the signer's reveal cut of tick `tick`. */
export interface ClosePart {
  readonly type: 'close'
  readonly tick: number
}
/** §4.2: a divergence of `author` (two envelopes at `seq` with one `prev`), `hashA < hashB` bytewise. */
export interface ForkPart {
  readonly type: 'fork'
  readonly author: number
  readonly seq: number
  readonly hashA: Uint8Array
  readonly hashB: Uint8Array
}
/** §4.2, §4.3: the signer's per-game seed, revealed once the game has ended. */
export interface SeedPart {
  readonly type: 'seed'
  readonly seed: Uint8Array
}
/** §4.2, §5.7: a vote that tick `tick` cannot be played (`tick = 0`: that the game cannot start). */
export interface StopPart {
  readonly type: 'stop'
  readonly tick: number
  readonly reason: StopReason
}

export type Part =
  AcceptPart | StatePart | CommitPart | SealPart | RevealPart | ClosePart | ForkPart | SeedPart | StopPart

/** §4.2: the tick of a part (`accept` is of tick 0; `fork` and `seed` have none). */
export function tickOf(p: Part): number | undefined {
  switch (p.type) {
    case 'accept':
      return 0
    case 'fork':
    case 'seed':
      return undefined
    default:
      return p.tick
  }
}

/** §4.2: appends one part. */
export function writePart(w: Writer, p: Part): void {
  w.u8(PART_CODES[p.type])
  switch (p.type) {
    case 'accept':
      return
    case 'state':
      w.u16(p.tick).bytes(p.stateHash)
      return
    case 'commit':
      w.u16(p.tick).bytes(p.commitment)
      return
    case 'seal':
    case 'close':
      w.u16(p.tick)
      return
    case 'reveal':
      w.u16(p.tick).bytes(p.salt).text16(p.orders)
      return
    case 'fork':
      w.u8(p.author).u16(p.seq).bytes(p.hashA).bytes(p.hashB)
      return
    case 'seed':
      w.bytes(p.seed)
      return
    case 'stop':
      w.u16(p.tick).u8(STOP_REASONS.indexOf(p.reason))
      return
  }
}

const RULE = '§4.2'

/** BD-3: the tick of `state`, `commit`, `seal`, `reveal` and `close` is 1..1,000, of `stop` 0..1,000. */
function tick(r: Reader, at: string, min: 0 | 1): number {
  return r.range(`${at}.tick`, RULE, r.u16(`${at}.tick`, RULE), min, MAX_TICKS)
}

/** Bytewise order of two byte strings of one length. */
export function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    const d = (a[i] ?? 0) - (b[i] ?? 0)
    if (d !== 0) return d
  }
  return a.length - b.length
}

/**
 * Reads one part at `at` for an envelope of `signer` in a game of `players` players (§4.2). The
 * order of parts is checked by `readParts`.
 */
export function readPart(r: Reader, at: string, signer: number, players: number): Part {
  const code = r.u8(`${at}.type`, RULE)
  const type = CODE_TYPES[code]
  switch (type) {
    case 'accept':
      return { type }
    case 'state':
      return { type, tick: tick(r, at, 1), stateHash: r.bytes(HASH_BYTES, `${at}.stateHash`, RULE) }
    case 'commit':
      return { type, tick: tick(r, at, 1), commitment: r.bytes(HASH_BYTES, `${at}.commitment`, RULE) }
    case 'seal':
    case 'close':
      return { type, tick: tick(r, at, 1) }
    case 'reveal':
      return {
        type,
        tick: tick(r, at, 1),
        salt: r.bytes(SALT_BYTES, `${at}.salt`, RULE),
        orders: r.text(2, MAX_ORDERS_BYTES, `${at}.orders`, RULE),
      }
    case 'fork': {
      const author = r.range(`${at}.author`, RULE, r.u8(`${at}.author`, RULE), 0, players - 1)
      if (author === signer)
        fail('field.range', `${at}.author`, RULE, 'a fork part names another author than its signer')
      const seq = r.u16(`${at}.seq`, RULE)
      const hashA = r.bytes(HASH_BYTES, `${at}.hashA`, RULE)
      const hashB = r.bytes(HASH_BYTES, `${at}.hashB`, RULE)
      if (compareBytes(hashA, hashB) >= 0) fail('field.order', `${at}.hashB`, RULE, 'hashA < hashB bytewise')
      return { type, author, seq, hashA, hashB }
    }
    case 'seed':
      return { type, seed: r.bytes(SEED_BYTES, `${at}.seed`, RULE) }
    case 'stop': {
      const t = tick(r, at, 0)
      const reason = r.range(`${at}.reason`, RULE, r.u8(`${at}.reason`, RULE), 0, STOP_REASONS.length - 1)
      return { type, tick: t, reason: STOP_REASONS[reason] ?? 'stalled' }
    }
    case undefined:
      return fail('field.range', `${at}.type`, RULE, `unknown part type ${code}`)
  }
}

/**
 * §4.2: `count` parts in ascending type order, each type at most once except `fork` (ascending by
 * the author it names, at most one per author); `accept` alone exactly at `seq = 0` (BD-5).
 */
export function readParts(r: Reader, count: number, signer: number, seq: number, players: number): Part[] {
  const parts: Part[] = []
  let last = 0
  let lastFork = -1
  for (let i = 0; i < count; i++) {
    const at = `parts[${i}]`
    const p = readPart(r, at, signer, players)
    const code = PART_CODES[p.type]
    if (code < last || (code === last && p.type !== 'fork'))
      fail('field.order', `${at}.type`, RULE, 'parts in ascending type order, each type at most once except fork')
    if (p.type === 'fork') {
      if (p.author <= lastFork)
        fail('field.order', `${at}.author`, RULE, 'fork parts in strictly ascending author order')
      lastFork = p.author
    }
    last = code
    parts.push(p)
  }
  const accepts = parts.length === 1 && parts[0]?.type === 'accept'
  if (seq === 0 && !accepts) fail('field.range', 'parts', RULE, 'the envelope at seq 0 holds the accept part alone')
  if (seq !== 0 && parts.some((p) => p.type === 'accept'))
    fail('field.range', 'parts', RULE, 'an accept part stands only at seq 0')
  return parts
}

// §4.3: salts and commitments.

/** SPEC §3.3 with a roster index: `block(T, G, p) = tag(T) ‖ G ‖ u8(p)`, zero-filled to 64 bytes. */
export function peerBlock(t: string, game: Uint8Array, player: number): Uint8Array {
  if (game.length !== HASH_BYTES) throw new Error('a game id is 32 bytes')
  const head = tag(t)
  const out = new Uint8Array(64)
  out.set(head, 0)
  out.set(game, head.length)
  out[head.length + HASH_BYTES] = player
  return out
}

/** §4.3: `salt(t)`, the first 16 bytes of `H(block("spaaace/1/salt", G, p) ‖ seed ‖ zero[32] ‖ u8(3) ‖ u16(t))`. */
export function saltOf(game: Uint8Array, player: number, seed: Uint8Array, t: number): Uint8Array {
  if (seed.length !== SEED_BYTES) throw new Error(`a seed is ${SEED_BYTES} bytes`)
  const rest = Uint8Array.of(3, (t >>> 8) & 0xff, t & 0xff)
  return sha256(peerBlock(PEERS_DOMAIN.salt, game, player), seed, new Uint8Array(32), rest).slice(0, SALT_BYTES)
}

/** §4.3: `commitment(t) = H(block("spaaace/1/orders", G, p) ‖ u16(t) ‖ salt(t) ‖ text16(orders))`. */
export function commitmentOf(
  game: Uint8Array,
  player: number,
  t: number,
  salt: Uint8Array,
  orders: string,
): Uint8Array {
  const text = new Uint8Array(2 + orders.length)
  text[0] = (orders.length >>> 8) & 0xff
  text[1] = orders.length & 0xff
  for (let i = 0; i < orders.length; i++) text[2 + i] = orders.charCodeAt(i) & 0xff
  return sha256(peerBlock(PEERS_DOMAIN.orders, game, player), Uint8Array.of((t >>> 8) & 0xff, t & 0xff), salt, text)
}

/** §4.3: whether `reveal`, signed by `player`, opens `commitment` (the formula gives it). */
export function opens(game: Uint8Array, player: number, reveal: RevealPart, commitment: Uint8Array): boolean {
  return compareBytes(commitmentOf(game, player, reveal.tick, reveal.salt, reveal.orders), commitment) === 0
}

/** §5.6: `stateHash = H(tag("spaaace/1/state") ‖ G ‖ stateBytes)`. */
export function stateHashOf(game: Uint8Array, stateBytes: Uint8Array): Uint8Array {
  return taggedHash(PEERS_DOMAIN.state, game, stateBytes)
}

/**
 * §4.3, S-37: what a revealed order text means for `self` in a game of `players` players: `-` is
 * the empty set, anything else the record's ORDERS syntax with labels `p1`..`pn`. Never a decoding
 * matter: any printable text may be committed, and a text that does not parse is a malformed set.
 */
export function ordersOf(text: string, players: number, self: number): ParsedOrders {
  if (text === '-') return { ok: true, orders: EMPTY_ORDERS }
  return parseOrderSet(text, peerLabels(players), self, sectorCount(players))
}
