/**
 * A Spaaace! invite (protocol/SPAAACE-PEERS.md §3.2): the genesis, which every player signs by its
 * accept, and the addresses where roster peers may be dialled, which are hints and never signed.
 *
 *   spaaace1.<genesis, base64url>.<addresses, base64url of a JSON array by roster index>
 *
 * A witnessed game's genesis names its notary by key (SPAAACE-WITNESSED §3); its invite's array has
 * one more list, last: where the notary is reached (each address ending with the notary's PeerId).
 *
 * Each address list is at most 8 multiaddrs of at most 256 characters: an invite is pasted by
 * people, and a hostile one must not cost more than its reading.
 */
import { fromBase64url, toBase64url } from '../../../core/commit/bytes.js'
import { describeProtocolError } from '../../../core/wire/errors.js'
import { type SealedGenesis, decodeGenesis } from '../peers/genesis.js'

export const INVITE_PREFIX = 'spaaace1'
export const MAX_INVITE_ADDRS = 8
export const MAX_ADDR_CHARS = 256
/** A 16-player genesis is under 700 bytes; the addresses' JSON at most 16 × 8 × 260 characters. */
export const MAX_INVITE_CHARS = 48_000

export interface SpaaaceInvite {
  readonly genesis: SealedGenesis
  /** By roster index: where that peer listens (hints). */
  readonly addresses: readonly (readonly string[])[]
  /** A witnessed game: where its notary is reached. */
  readonly notary?: readonly string[]
}

export function formatSpaaaceInvite(
  genesis: SealedGenesis,
  addresses: readonly (readonly string[])[],
  notary?: readonly string[],
): string {
  const addrs = [...addresses, ...(notary === undefined ? [] : [notary])].map((a) => a.slice(0, MAX_INVITE_ADDRS))
  return `${INVITE_PREFIX}.${toBase64url(genesis.bytes)}.${toBase64url(new TextEncoder().encode(JSON.stringify(addrs)))}`
}

export type InviteResult = { ok: true; invite: SpaaaceInvite } | { ok: false; reason: string }

/** Reads an invite; each refusal says what is wrong in one line. */
export function parseSpaaaceInvite(text: string): InviteResult {
  const t = text.trim()
  if (t.length > MAX_INVITE_CHARS) return { ok: false, reason: `longer than ${MAX_INVITE_CHARS} characters` }
  const [prefix, g, a, ...rest] = t.split('.')
  if (prefix !== INVITE_PREFIX || g === undefined || a === undefined || rest.length > 0)
    return { ok: false, reason: `not a Spaaace! invite (it starts "${INVITE_PREFIX}." and has three parts)` }
  const bytes = fromBase64url(g)
  if (bytes === undefined) return { ok: false, reason: 'the genesis is not base64url' }
  const decoded = decodeGenesis(bytes)
  if (!decoded.ok) return { ok: false, reason: `the genesis: ${describeProtocolError(decoded.error)}` }
  const n = decoded.value.genesis.keys.length
  const raw = fromBase64url(a)
  if (raw === undefined) return { ok: false, reason: 'the addresses are not base64url' }
  let list: unknown
  try {
    list = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(raw))
  } catch {
    // The addresses come last: an invite cut short in copying ends in the middle of them.
    return {
      ok: false,
      reason: 'the addresses are not JSON: the invite looks cut off or altered; copy it whole, or join with @FILE',
    }
  }
  const witnessed = decoded.value.genesis.notaryKey !== null
  const lists = witnessed ? n + 1 : n
  if (!Array.isArray(list) || list.length !== lists)
    return {
      ok: false,
      reason: `the addresses are not a list of ${lists} lists, one per player${witnessed ? " and the notary's" : ''}`,
    }
  const addresses: string[][] = []
  for (const [i, entry] of list.entries()) {
    if (
      !Array.isArray(entry) ||
      entry.length > MAX_INVITE_ADDRS ||
      !entry.every((x): x is string => typeof x === 'string' && x.length <= MAX_ADDR_CHARS && x.startsWith('/'))
    )
      return {
        ok: false,
        reason: `the addresses of player ${i + 1} are not a list of at most ${MAX_INVITE_ADDRS} multiaddrs`,
      }
    addresses.push(entry)
  }
  if (!witnessed) return { ok: true, invite: { genesis: decoded.value, addresses } }
  const notary = addresses.pop() ?? []
  if (notary.length === 0) return { ok: false, reason: "the notary's addresses are missing" }
  return { ok: true, invite: { genesis: decoded.value, addresses, notary } }
}
