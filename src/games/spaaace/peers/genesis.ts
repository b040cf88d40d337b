/**
 * protocol/SPAAACE-PEERS.md §3: the genesis, the game id, and the acceptances that make a game.
 *
 * ```
 * genesis = u8 0x47 ‖ u8 protocol (1) ‖ terms ‖ timing ‖ u8 witness ‖ notaryKey[32] if witness = 1
 *         ‖ u8 n ‖ key[32] × n ‖ nonce[32]
 * terms   = u16 coins ‖ u8 income ‖ u8 battleCooldown ‖ u8 rematchTicks ‖ u16 withholdFine
 *         ‖ u16 maxTicks ‖ u8 absentTicks ‖ u8 options            (bit 0 wormhole, bit 1 infamyWins)
 * timing  = u64 start ‖ u32 commitMs ‖ u32 revealMs ‖ u32 marginMs
 * ```
 *
 * The genesis is not signed: every player signs it by its envelope at `seq = 0` (§3.2), whose
 * `prev` is `G` and whose only part is `accept`. The decoder refuses every range and order rule
 * of §3.1 with a coded error naming the field, and never throws on hostile bytes.
 */
import { toBase64url } from '../../../core/commit/bytes.js'
import { HASH_BYTES, taggedHash } from '../../../core/commit/hash.js'
import { type KeyPair, PUBLIC_KEY_BYTES, publicKeyProblem } from '../../../core/commit/keys.js'
import { Reader, Writer, decoded, fail } from '../../../core/wire/binary.js'
import type { Decoded } from '../../../core/wire/errors.js'
import { NUMERIC_TERMS, type Terms } from '../rules/types.js'
import {
  LINE_KIND,
  MAX_MARGIN_MS,
  MAX_PHASE_MS,
  MAX_PLAYERS,
  MAX_START_MS,
  MIN_MARGIN_MS,
  MIN_PLAYERS,
  PEERS_DOMAIN,
  PEERS_VERSION,
  SKEW_MS,
  commitMsFloor,
  revealMsFloor,
  tickLength,
} from './domain.js'
import { type SealedEnvelope, sealEnvelope, signatureValid } from './envelope.js'
import { compareBytes } from './parts.js'

/** §3.1: the rules' terms a genesis fixes (S-90); `start` and `tickMs` come from the timing. */
export type PeersTerms = Omit<Terms, 'start' | 'tickMs'>

/** §3.1: the protocol's clock. */
export interface Timing {
  /** `T_1`, ms since 1970 (UTC), at most 2^53 − 1. */
  readonly start: number
  readonly commitMs: number
  readonly revealMs: number
  /** Δ. */
  readonly marginMs: number
}

export interface Genesis {
  readonly terms: PeersTerms
  readonly timing: Timing
  /** Present iff the game is witnessed (§11). */
  readonly notaryKey: Uint8Array | null
  /** The roster: usable Ed25519 keys in strictly ascending bytewise order (roster order is key order). */
  readonly keys: readonly Uint8Array[]
  /** 32 random bytes of the proposer. */
  readonly nonce: Uint8Array
}

/** A genesis with its exact bytes and its game id. */
export interface SealedGenesis {
  readonly genesis: Genesis
  readonly bytes: Uint8Array
  /** §3.1: `G = H(tag("spaaace/1/game-id") ‖ genesis)`. */
  readonly game: Uint8Array
  /** `game` in base64url. */
  readonly id: string
}

const RULE = '§3.1'
const NONCE_BYTES = 32
/** The u8/u16 width and the bounds of each numeric term, in layout order (§3.1). */
const TERM_FIELDS = [
  ['coins', 2],
  ['income', 1],
  ['battleCooldown', 1],
  ['rematchTicks', 1],
  ['withholdFine', 2],
  ['maxTicks', 2],
  ['absentTicks', 1],
] as const

/** §3.1: the genesis's bytes (the caller gives a valid genesis: `decodeGenesis` of the result succeeds). */
export function encodeGenesis(g: Genesis): Uint8Array {
  const w = new Writer()
  w.u8(LINE_KIND.genesis).u8(PEERS_VERSION)
  for (const [name, width] of TERM_FIELDS) {
    if (width === 1) w.u8(g.terms[name])
    else w.u16(g.terms[name])
  }
  w.u8((g.terms.wormhole ? 1 : 0) | (g.terms.infamyWins ? 2 : 0))
  w.u32(Math.floor(g.timing.start / 0x1_0000_0000)).u32(g.timing.start % 0x1_0000_0000)
  w.u32(g.timing.commitMs).u32(g.timing.revealMs).u32(g.timing.marginMs)
  if (g.notaryKey === null) w.u8(0)
  else w.u8(1).bytes(g.notaryKey)
  w.u8(g.keys.length)
  for (const k of g.keys) w.bytes(k)
  w.bytes(g.nonce)
  return w.finish()
}

/** §3.1: `G = H(tag("spaaace/1/game-id") ‖ genesis)`. */
export function gameIdOf(genesisBytes: Uint8Array): Uint8Array {
  return taggedHash(PEERS_DOMAIN.gameId, genesisBytes)
}

function readTerms(r: Reader): PeersTerms {
  const v: Partial<Record<(typeof TERM_FIELDS)[number][0], number>> = {}
  for (const [name, width] of TERM_FIELDS) {
    const field = `terms.${name}`
    const b = NUMERIC_TERMS[name]
    v[name] = r.range(field, RULE, width === 1 ? r.u8(field, RULE) : r.u16(field, RULE), b.min, b.max)
  }
  const options = r.u8('terms.options', RULE)
  if ((options & 0xfc) !== 0) r.range('terms.options', RULE, options, 0, 3)
  return {
    coins: v.coins ?? 0,
    income: v.income ?? 0,
    battleCooldown: v.battleCooldown ?? 0,
    rematchTicks: v.rematchTicks ?? 0,
    withholdFine: v.withholdFine ?? 0,
    maxTicks: v.maxTicks ?? 0,
    absentTicks: v.absentTicks ?? 0,
    wormhole: (options & 1) !== 0,
    infamyWins: (options & 2) !== 0,
  }
}

function readTiming(r: Reader): Timing {
  const high = r.u32('timing.start', RULE)
  const low = r.u32('timing.start', RULE)
  if (high > 0x1f_ffff) fail('field.range', 'timing.start', RULE, `at most 2^53 - 1 (${MAX_START_MS})`)
  const start = high * 0x1_0000_0000 + low
  const commitMs = r.u32('timing.commitMs', RULE)
  const revealMs = r.u32('timing.revealMs', RULE)
  const marginMs = r.range('timing.marginMs', RULE, r.u32('timing.marginMs', RULE), MIN_MARGIN_MS, MAX_MARGIN_MS)
  r.range('timing.commitMs', RULE, commitMs, commitMsFloor(marginMs), MAX_PHASE_MS)
  r.range('timing.revealMs', RULE, revealMs, revealMsFloor(marginMs), MAX_PHASE_MS)
  const timing = { start, commitMs, revealMs, marginMs }
  const L = tickLength(timing)
  if (L > MAX_PHASE_MS)
    fail(
      'field.range',
      'timing',
      RULE,
      `the tick length commitMs + revealMs + 2·Δ + 2·SKEW_MS is ${L}, above ${MAX_PHASE_MS}`,
    )
  return timing
}

function key(r: Reader, field: string): Uint8Array {
  const k = r.bytes(PUBLIC_KEY_BYTES, field, RULE)
  const problem = publicKeyProblem(k)
  if (problem !== undefined) fail('field.range', field, RULE, `the key is not usable (SPEC §5.2: ${problem})`)
  return k
}

function readGenesis(r: Reader): Genesis {
  const kind = r.u8('kind', '§2')
  if (kind !== LINE_KIND.genesis) fail('wire.frame', 'kind', '§2', `a genesis starts with 0x47, got ${kind}`)
  const protocol = r.u8('protocol', RULE)
  if (protocol !== PEERS_VERSION) fail('wire.version', 'protocol', RULE, `protocol ${PEERS_VERSION}, got ${protocol}`)
  const terms = readTerms(r)
  const timing = readTiming(r)
  const witness = r.bool('witness', RULE)
  const notaryKey = witness ? key(r, 'notaryKey') : null
  const n = r.count('n', RULE, MIN_PLAYERS, MAX_PLAYERS)
  const keys: Uint8Array[] = []
  for (let i = 0; i < n; i++) {
    const k = key(r, `keys[${i}]`)
    const before = keys[i - 1]
    if (before !== undefined && compareBytes(before, k) >= 0)
      fail(
        'field.order',
        `keys[${i}]`,
        RULE,
        'keys pairwise distinct, in ascending bytewise order (roster order is key order)',
      )
    keys.push(k)
  }
  const nonce = r.bytes(NONCE_BYTES, 'nonce', RULE)
  r.end('nonce', RULE)
  // §3.1: every time up to T_{maxTicks+3}, past a witnessed game's horizon C_{maxTicks+1} + L, an
  // exact integer in doubles (SPAAACE-WITNESSED Q-W9).
  const last = timing.start + (terms.maxTicks + 2) * tickLength(timing)
  if (last > MAX_START_MS)
    fail('field.range', 'timing.start', RULE, `T_{maxTicks+3} = ${last} is above 2^53 - 1 (${MAX_START_MS})`)
  return { terms, timing, notaryKey, keys, nonce }
}

/** §3.1: strictly decodes a genesis; with no error there is a game id, else there is no game. */
export function decodeGenesis(bytes: Uint8Array): Decoded<SealedGenesis> {
  const g = decoded(() => readGenesis(new Reader(bytes)))
  if (!g.ok) return g
  const game = gameIdOf(bytes)
  return { ok: true, value: { genesis: g.value, bytes: bytes.slice(), game, id: toBase64url(game) } }
}

/** §3.1: the rules' terms (S-90); with the wormhole on, the rules' `start` and `tickMs` are `T_1` and `L` (S-11). */
export function rulesTerms(g: Genesis): Terms {
  return g.terms.wormhole
    ? { ...g.terms, start: g.timing.start, tickMs: tickLength(g.timing) }
    : { ...g.terms, start: null, tickMs: null }
}

/** §3.1: the protocol times of tick `t ≥ 1` (they decide only what an honest node does, §6). */
export interface TickTimes {
  /** `T_t`, the tick's start. */
  readonly start: number
  /** `G_t = C_t − Δ − 2·SKEW_MS`, the commit guard. */
  readonly guard: number
  /** `C_t = T_t + commitMs`, the commitment cut. */
  readonly commitCut: number
  /** `R_t = C_t + revealMs`, the reveal cut. */
  readonly revealCut: number
  /** `T_{t+1} = R_t + 2·Δ + 2·SKEW_MS`. */
  readonly next: number
}

export function tickTimes(timing: Timing, t: number): TickTimes {
  const start = timing.start + (t - 1) * tickLength(timing)
  const commitCut = start + timing.commitMs
  const revealCut = commitCut + timing.revealMs
  return {
    start,
    guard: commitCut - timing.marginMs - 2 * SKEW_MS,
    commitCut,
    revealCut,
    next: revealCut + 2 * timing.marginMs + 2 * SKEW_MS,
  }
}

/** §3.2: player `index`'s acceptance: its envelope at `seq = 0`, `prev = G`, the `accept` part alone (no heads, BD-7). */
export function signAccept(keys: KeyPair, game: Uint8Array, index: number): SealedEnvelope {
  if (game.length !== HASH_BYTES) throw new Error('a game id is 32 bytes')
  return sealEnvelope(keys, { author: index, seq: 0, game, prev: game, heads: [], parts: [{ type: 'accept' }] })
}

/**
 * §3.2: whether `e` is an authenticated acceptance of the genesis: an envelope of this game at
 * `seq = 0` (whose decoding already fixed `prev = G` and the `accept` part alone), signed by the
 * roster key of its author.
 */
export function isAccept(g: SealedGenesis, e: SealedEnvelope): boolean {
  const env = e.envelope
  if (env.seq !== 0 || compareBytes(env.game, g.game) !== 0) return false
  if (env.parts.length !== 1 || env.parts[0]?.type !== 'accept') return false
  const k = g.genesis.keys[env.author]
  return k !== undefined && signatureValid(e, k)
}

/** §3.2: the roster indices whose authenticated accept is among `envelopes`, ascending. */
export function acceptedBy(g: SealedGenesis, envelopes: readonly SealedEnvelope[]): number[] {
  const seen = new Set<number>()
  for (const e of envelopes) if (isAccept(g, e)) seen.add(e.envelope.author)
  return [...seen].sort((a, b) => a - b)
}

/** §3.2: the game exists iff all `n` accepts are authenticated (every player signs the genesis, S-01). */
export function gameExists(g: SealedGenesis, envelopes: readonly SealedEnvelope[]): boolean {
  return acceptedBy(g, envelopes).length === g.genesis.keys.length
}
