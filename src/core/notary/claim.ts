/**
 * Claim requests (PROTOCOL-4.md §4.4, NOTARY.md §3.3): the first of a claim's two steps. A player
 * asks the notary to witness that its time has passed the deadline `D` of the step the other side
 * owes, before it signs any stop, so that a refused request leaves it having signed nothing:
 *
 *   claim = u8 kind (4) ‖ game[32] ‖ u8 sender ‖ u16 seq ‖ u64 deadline ‖ u32 seen ‖ sig[64]
 *
 * `seq` is the place the claimant's stop will take, `deadline` the `D` it computed, `seen` the last
 * receipt index it holds; signed over `tag(claim) ‖ claim without sig`.
 */
import { concatBytes } from '../commit/bytes.js'
import { HASH_BYTES, tag } from '../commit/hash.js'
import { type KeyPair, SIGNATURE_BYTES, publicKeyProblem, sign, verifySignature } from '../commit/keys.js'
import { Reader, Writer, decoded, fail } from '../wire/binary.js'
import type { Decoded } from '../wire/errors.js'
import type { NotaryDomain } from './domain.js'
import { MAX_TIME, readSide, readU64, writeU64 } from './fields.js'
import { MAX_SEQ } from './header.js'

export const CLAIM_KIND = 4
export const UNSIGNED_CLAIM_BYTES = 1 + 32 + 1 + 2 + 8 + 4
export const CLAIM_BYTES = UNSIGNED_CLAIM_BYTES + SIGNATURE_BYTES
const RULE = 'NOTARY.md §3.3'

export interface UnsignedClaim {
  readonly game: Uint8Array
  readonly sender: 0 | 1
  /** The place the claimant's stop will take. */
  readonly seq: number
  /** The deadline `D` claimed (PROTOCOL-4.md §4.2), notary time in ms. */
  readonly deadline: number
  /** The last receipt index the claimant holds. */
  readonly seen: number
}

export interface Claim extends UnsignedClaim {
  readonly sig: Uint8Array
}

function problem(c: UnsignedClaim): { field: string; message: string } | undefined {
  if (c.game.length !== HASH_BYTES) return { field: 'game', message: 'a game id is 32 bytes' }
  if (!Number.isInteger(c.seq) || c.seq < 1 || c.seq > MAX_SEQ) return { field: 'seq', message: `1..${MAX_SEQ}` }
  if (!Number.isInteger(c.deadline) || c.deadline < 0 || c.deadline > MAX_TIME)
    return { field: 'deadline', message: `0..${MAX_TIME}` }
  if (!Number.isInteger(c.seen) || c.seen < 0 || c.seen > 0xffffffff) return { field: 'seen', message: 'a u32' }
  return undefined
}

export function encodeUnsignedClaim(c: UnsignedClaim): Uint8Array {
  const p = problem(c)
  if (p !== undefined) throw new RangeError(`claim.${p.field}: ${p.message} (${RULE})`)
  const w = new Writer().u8(CLAIM_KIND).bytes(c.game).u8(c.sender).u16(c.seq)
  return writeU64(w, c.deadline).u32(c.seen).finish()
}

export function encodeClaim(c: Claim): Uint8Array {
  if (c.sig.length !== SIGNATURE_BYTES) throw new RangeError(`claim.sig: 64 bytes (${RULE})`)
  return concatBytes(encodeUnsignedClaim(c), c.sig)
}

/** Reads one claim request from `r` (inside a receipt or a request); a decode failure names `at`. */
export function readClaim(r: Reader, at = 'claim'): Claim {
  r.range(`${at}.kind`, RULE, r.u8(`${at}.kind`, RULE), CLAIM_KIND, CLAIM_KIND)
  const game = r.bytes(HASH_BYTES, `${at}.game`, RULE)
  const sender = readSide(r, `${at}.sender`, RULE)
  const seq = r.u16(`${at}.seq`, RULE)
  const deadline = readU64(r, `${at}.deadline`, RULE)
  const seen = r.u32(`${at}.seen`, RULE)
  const sig = r.bytes(SIGNATURE_BYTES, `${at}.sig`, RULE)
  const c = { game, sender, seq, deadline, seen, sig }
  const p = problem(c)
  if (p !== undefined) fail('field.range', `${at}.${p.field}`, RULE, p.message)
  return c
}

export function decodeClaim(bytes: Uint8Array): Decoded<Claim> {
  return decoded(() => {
    const r = new Reader(bytes)
    const c = readClaim(r)
    r.end('claim', RULE)
    return c
  })
}

function signedBytes(domain: NotaryDomain, c: UnsignedClaim): Uint8Array {
  return concatBytes(tag(domain.claim), encodeUnsignedClaim(c))
}

export function signClaim(domain: NotaryDomain, keys: KeyPair, c: UnsignedClaim): Claim {
  return { ...c, sig: sign(keys, signedBytes(domain, c)) }
}

/** The claim's signature under the sender's hello key (usable, or false), SPEC §5.2. */
export function claimSignatureValid(domain: NotaryDomain, c: Claim, senderKey: Uint8Array): boolean {
  if (publicKeyProblem(senderKey) !== undefined) return false
  return verifySignature(senderKey, signedBytes(domain, c), c.sig)
}
