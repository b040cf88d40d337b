/** Terms as a hello carries them (SPEC §6.1), and a verdict as a verdict part states it (SPEC §7.10). */
import { toBase64url } from '../../../core/commit/bytes.js'
import { decodeFramed, encodeUnsigned } from '../protocol/codec.js'
import { describeProtocolError } from '../../../core/wire/errors.js'
import { LIMITS, type ProtocolVersion, type Terms, type VerdictPart } from '../protocol/messages.js'
import type { ProtocolOffence } from '../verify/offence.js'
import type { Verdict } from '../verify/verify.js'

/** A's hello with `terms` and zero key and nonce, unsigned: the terms' canonical bytes in place. */
function helloWith(terms: Terms, version: ProtocolVersion): Uint8Array {
  return encodeUnsigned({
    version,
    sender: 'A',
    seq: 0,
    game: undefined,
    prev: undefined,
    ack: undefined,
    parts: [{ t: 'hello', key: new Uint8Array(32), nonce: new Uint8Array(32), terms }],
  })
}

/** Why terms cannot go into a hello (SPEC §6.1), or undefined: they are encoded and decoded strictly. */
export function termsProblem(terms: Terms, version: ProtocolVersion = 3): string | undefined {
  let bytes: Uint8Array
  try {
    bytes = helloWith(terms, version)
  } catch (e) {
    return (e as Error).message
  }
  const d = decodeFramed({ version, sender: 'A', seq: 0, unsigned: bytes, sig: new Uint8Array(64) })
  return d.ok ? undefined : describeProtocolError(d.error)
}

/** Whether two terms are the same: one encoding per value (SPEC §3.1), so the same bytes. */
export function sameTerms(a: Terms, b: Terms, version: ProtocolVersion = 3): boolean {
  return toBase64url(helloWith(a, version)) === toBase64url(helloWith(b, version))
}

/** Whether an envelope's unsigned bytes name `game` (SPEC §5.1: the game id follows the 4-byte head). */
export function sameGame(unsigned: Uint8Array, game: Uint8Array): boolean {
  for (let i = 0; i < 32; i++) if (unsigned[4 + i] !== game[i]) return false
  return unsigned.length >= 36
}

/** A detail text as the wire takes it (SPEC §3.1): printable ASCII, at most 200 bytes. */
export function asciiDetail(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, '?').slice(0, LIMITS.detailBytes)
}

export function describeOffence(o: ProtocolOffence): string {
  return `${o.class} by ${o.offender} in turn ${o.turn} (${o.rule}): ${o.detail}`
}

/** SPEC §7.10: a verdict as a verdict part states it. */
export function verdictPartOf(v: Verdict): VerdictPart {
  const detail = (text: string): string => asciiDetail(text)
  switch (v.status) {
    case 'complete':
      return {
        t: 'verdict',
        outcome: 'complete',
        winner: v.winner,
        scores: v.scores,
        detail: detail(`${v.reason} after turn ${v.turn}`),
      }
    case 'resigned':
      return { t: 'verdict', outcome: 'resigned', winner: v.winner, scores: [0, 0], detail: detail(`${v.by} resigned`) }
    case 'offence':
      return {
        t: 'verdict',
        outcome: 'offence',
        winner: v.winner,
        scores: [0, 0],
        detail: detail(describeOffence(v.offence)),
      }
    case 'abandoned':
      return {
        t: 'verdict',
        outcome: v.how === 'stopped' ? 'abandoned' : 'no-reveal',
        winner: v.winner,
        scores: [0, 0],
        detail: detail(v.detail),
      }
    case 'adjudicated':
      return { t: 'verdict', outcome: 'adjudicated', winner: v.winner, scores: v.scores, detail: detail(v.detail) }
    case 'incomplete':
      return { t: 'verdict', outcome: 'incomplete', winner: 'none', scores: [0, 0], detail: detail(v.detail) }
    case 'unreadable':
      return { t: 'verdict', outcome: 'incomplete', winner: 'none', scores: [0, 0], detail: 'unreadable' }
  }
}
