/**
 * Invites (protocol/SPEC.md §2.3): one copy-pasteable string that tells the joiner whom to dial
 * (the host's PeerId and addresses, relayed ones included), what it will be asked to accept (the
 * terms the host's hello will carry), and the game's local name (so both sides keep it in a
 * directory of the same name and a restarted process finds it).
 *
 * `spaceshipsV.` + base64url(JSON), V the game's protocol version. The invite is not trusted: the PeerId is checked by
 * Noise on connection, the terms by the hellos (SPEC §6.1).
 */
import { peerIdFromString } from '@libp2p/peer-id'
import { multiaddr } from '@multiformats/multiaddr'
import { fromBase64url, toBase64url, utf8 } from '../../../core/commit/bytes.js'
import { formatRuleset, parseRuleset } from '../rules/ruleset.js'
import { type Decoder, decodeWith, failAt, integer, object, oneOf, text } from '../../../core/wire/decode.js'
import {
  LIMITS,
  PROTOCOL_VERSION,
  PROTOCOL_VERSIONS,
  type ProtocolVersion,
  SINGLE_GAME,
  type Terms,
  isProtocolVersion,
} from '../protocol/messages.js'

/** SPEC §2.3: the prefix of an invite to a game of `version`. */
export function invitePrefix(version: ProtocolVersion): string {
  return `spaceships${version}.`
}

/** The prefix of the invites this node writes for a new game. */
export const INVITE_PREFIX = invitePrefix(PROTOCOL_VERSION)

/** The terms as an invite carries them (SPEC §2.3): a single game's. */
interface InviteTerms {
  readonly ruleset: string
  readonly maxTurns: number
  readonly setupMs: number
  readonly turnMs: number
  readonly replyMs: number
  readonly sanction: 'forfeit'
}

const canonicalRuleset: Decoder<string> = (v, at) => {
  const t = text(LIMITS.rulesetBytes, '§2.3')(v, at)
  const r = parseRuleset(t)
  if (!r.ok) return failAt('field.format', at, '§2.3', r.error.message)
  if (formatRuleset(r.value) !== t)
    return failAt('field.format', at, '§2.3', `not canonical: write "${formatRuleset(r.value)}"`)
  return t
}
/** SPEC §2.3, §6.1: an invite's terms, with its version's deadline limits. */
function termsDecoder(version: ProtocolVersion): Decoder<InviteTerms> {
  const deadline = integer(LIMITS.minDeadlineMs, version === 3 ? LIMITS.maxDeadlineMs : LIMITS.maxDeadlineMsV4, '§6.1')
  return object<InviteTerms>(
    {
      ruleset: canonicalRuleset,
      maxTurns: integer(1, LIMITS.maxTurns, '§6.1'),
      setupMs: deadline,
      turnMs: deadline,
      replyMs: deadline,
      sanction: oneOf(['forfeit'], '§6.1'),
    },
    '§2.3',
  )
}
/** SPEC §2.3: invites are short enough to paste; more than this is refused unread. */
export const MAX_INVITE_CHARS = 4096
const MAX_INVITE_ADDRS = 16

export interface Invite {
  /** SPEC §2.3: the game's protocol version, which the prefix names (absent: `PROTOCOL_VERSION`). */
  readonly version?: ProtocolVersion
  /** 32 hex digits (128 random bits): names the game locally on both sides and is the bearer token a joiner presents (SPEC §2.3). */
  readonly id: string
  readonly peer: string
  readonly addrs: readonly string[]
  readonly terms: Terms
  /**
   * Version 4 (PROTOCOL-4.md §3): the addresses of the notary the terms name, 1 to 8, each ending
   * in /p2p/ and the notary's PeerId, whose key is `terms.notary`: hints outside the signed terms.
   */
  readonly notary?: readonly string[]
}

/** PROTOCOL-4.md §3: the most notary addresses an invite carries. */
const MAX_NOTARY_ADDRS = 8

/** The Ed25519 key of the PeerId a multiaddr ends with (`/p2p/ID`), or a reason it has none. */
export function notaryKeyOf(
  addr: string,
): { ok: true; key: Uint8Array; peer: string } | { ok: false; message: string } {
  const m = /\/p2p\/([^/]+)$/.exec(addr)
  if (m?.[1] === undefined) return { ok: false, message: "a notary address ends with /p2p/ and the notary's PeerId" }
  try {
    multiaddr(addr)
    const p = peerIdFromString(m[1])
    if (p.type !== 'Ed25519') return { ok: false, message: 'a notary is named by an Ed25519 PeerId' }
    return { ok: true, key: p.publicKey.raw, peer: m[1] }
  } catch {
    return { ok: false, message: 'not a multiaddr with a valid PeerId' }
  }
}

export type InviteResult = { ok: true; value: Invite } | { ok: false; error: { field: string; message: string } }

export function formatInvite(invite: Invite): string {
  const t = invite.terms
  const terms: InviteTerms = {
    ruleset: t.ruleset,
    maxTurns: t.maxTurns,
    setupMs: t.setupMs,
    turnMs: t.turnMs,
    replyMs: t.replyMs,
    sanction: t.sanction,
  }
  const witnessed =
    invite.notary === undefined ? {} : { notary: invite.notary, terms: { ...terms, reserveMs: t.reserveMs ?? 0 } }
  return (
    invitePrefix(invite.version ?? PROTOCOL_VERSION) +
    toBase64url(utf8(JSON.stringify({ id: invite.id, peer: invite.peer, addrs: invite.addrs, terms, ...witnessed })))
  )
}

const fail = (field: string, message: string): InviteResult => ({ ok: false, error: { field, message } })

export function parseInvite(text: string): InviteResult {
  const s = text.trim()
  if (s.length > MAX_INVITE_CHARS) return fail('invite', `longer than ${MAX_INVITE_CHARS} characters`)
  const named = /^spaceships(\d+)\./.exec(s)
  const v = Number(named?.[1] ?? NaN)
  if (named !== null && !isProtocolVersion(v))
    return fail(
      'invite',
      `an invite of protocol version ${named[1] ?? '?'}; this node speaks versions ${PROTOCOL_VERSIONS.join(' and ')} (SPEC §1): both players need the same version`,
    )
  if (named === null || !isProtocolVersion(v))
    return fail('invite', `an invite starts with "${INVITE_PREFIX}" (copy the whole line the host printed)`)
  const version: ProtocolVersion = v
  const bytes = fromBase64url(s.slice(named[0].length))
  if (bytes === undefined) return fail('invite', 'the text after the prefix is not base64url (was it cut or wrapped?)')
  let json: unknown
  try {
    json = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes))
  } catch {
    return fail('invite', 'not JSON inside')
  }
  if (typeof json !== 'object' || json === null || Array.isArray(json)) return fail('invite', 'not an object inside')
  const o = json as Record<string, unknown>
  if (typeof o['id'] !== 'string' || !/^[0-9a-f]{32}$/.test(o['id']))
    return fail('id', 'must be 32 lowercase hex digits')
  if (typeof o['peer'] !== 'string') return fail('peer', 'must be a PeerId')
  try {
    const p = peerIdFromString(o['peer'])
    if (p.type !== 'Ed25519') return fail('peer', 'must be an Ed25519 PeerId (SPEC §5)')
  } catch {
    return fail('peer', 'not a valid PeerId')
  }
  const addrs = o['addrs']
  if (!Array.isArray(addrs) || addrs.length > MAX_INVITE_ADDRS || !addrs.every((a) => typeof a === 'string'))
    return fail('addrs', `must be a list of at most ${MAX_INVITE_ADDRS} multiaddrs`)
  for (const [i, a] of addrs.entries()) {
    try {
      multiaddr(a)
    } catch {
      return fail(`addrs[${i}]`, 'not a multiaddr')
    }
  }
  // Version 4 (PROTOCOL-4.md §3): a witnessed game's notary addresses and the reserve in its terms.
  const raw = o['terms']
  const { reserveMs: rawReserve, ...rest } =
    typeof raw === 'object' && raw !== null && !Array.isArray(raw)
      ? (raw as Record<string, unknown>)
      : { reserveMs: undefined }
  const terms = decodeWith(termsDecoder(version), typeof raw === 'object' && raw !== null ? rest : raw, 'terms')
  if (!terms.ok) return fail(terms.error.field, terms.error.message)
  const notary = o['notary']
  if (notary === undefined) {
    if (rawReserve !== undefined)
      return fail('terms.reserveMs', 'a time reserve belongs to a witnessed game (a notary)')
    return {
      ok: true,
      value: { version, id: o['id'], peer: o['peer'], addrs: addrs, terms: { ...terms.value, match: SINGLE_GAME } },
    }
  }
  if (version === 3) return fail('notary', 'a witnessed game is of protocol version 4')
  if (
    !Array.isArray(notary) ||
    notary.length < 1 ||
    notary.length > MAX_NOTARY_ADDRS ||
    !notary.every((a) => typeof a === 'string')
  )
    return fail('notary', `must be a list of 1 to ${MAX_NOTARY_ADDRS} multiaddrs`)
  const reserve = decodeWith(integer(0, LIMITS.maxReserveMs, 'PROTOCOL-4.md §3'), rawReserve ?? 0, 'terms.reserveMs')
  if (!reserve.ok) return fail(reserve.error.field, reserve.error.message)
  let key: Uint8Array | undefined
  let notaryPeer: string | undefined
  for (const [i, a] of notary.entries()) {
    const k = notaryKeyOf(a)
    if (!k.ok) return fail(`notary[${i}]`, k.message)
    if (notaryPeer !== undefined && notaryPeer !== k.peer)
      return fail(`notary[${i}]`, 'every notary address names the same notary')
    notaryPeer = k.peer
    key = k.key
  }
  if (key === undefined) return fail('notary', 'no notary key')
  return {
    ok: true,
    value: {
      version,
      id: o['id'],
      peer: o['peer'],
      addrs: addrs,
      terms: { ...terms.value, match: SINGLE_GAME, reserveMs: reserve.value, notary: key },
      notary: notary,
    },
  }
}

/** The relays an invite's circuit addresses go through (the joiner must admit them). */
export function relaysOf(addrs: readonly string[]): string[] {
  const out = new Set<string>()
  for (const a of addrs) {
    const m = /\/p2p\/([^/]+)\/p2p-circuit/.exec(a)
    if (m?.[1] !== undefined) out.add(m[1])
  }
  return [...out]
}
