/**
 * Complaints in witnessed Spaaace! (SPAAACE-WITNESSED §5.3): the complainant proves the
 * Diffie-Hellman value of its own wrap (`for` = its roster index), so anyone can see the deposit
 * does not open for it. A complaint **holds** iff it names an envelope receipt of another author,
 * the deposit is that header's, the proof verifies, and opening the complainant's wrap fails at
 * one of §5.2's steps 1-5 (`complaint.opens` otherwise). The signature is checked apart.
 */
import type { KeyPair } from '../../../core/commit/keys.js'
import {
  type Complaint,
  complaintSignatureValid,
  encodeComplaint,
  judgeComplaint,
  makeComplaint,
} from '../../../core/notary/complaint.js'
import { type NotaryResult, refused } from '../../../core/notary/domain.js'
import type { SubmissionHeader } from '../../../core/notary/header.js'
import { SPAAACE_LAYOUT, SPAAACE_NOTARY_DOMAIN } from './domain.js'
import { paddingFloorW } from './registrar.js'
import { envelopeMatchesHeader } from './submission.js'

const RULE = 'SPAAACE-WITNESSED §5.3'

/** §5.3: a signed complaint of `complainant` about the deposit of envelope receipt `index`; its 230 bytes. */
export function buildComplaint(
  keys: KeyPair,
  o: { readonly game: Uint8Array; readonly complainant: number; readonly index: number; readonly deposit: Uint8Array },
): NotaryResult<{ readonly complaint: Complaint<number>; readonly bytes: Uint8Array }> {
  const c = makeComplaint<number>(SPAAACE_NOTARY_DOMAIN, keys, {
    game: o.game,
    sender: o.complainant,
    index: o.index,
    deposit: o.deposit,
  })
  if (!c.ok) return c
  return { ok: true, value: { complaint: c.value, bytes: encodeComplaint(c.value, SPAAACE_LAYOUT) } }
}

/**
 * §5.3: judges a complaint against the header of the receipt it names and the deposit: why the
 * deposit does not open (it holds: false-deposit), or why the complaint fails (`complaint.place`,
 * `complaint.deposit`, `proof.*`, `complaint.opens`). `roster` gives `n` and the complainant's key.
 */
export function judgeComplaintW(o: {
  readonly complaint: Complaint<number>
  readonly header: SubmissionHeader<number>
  readonly deposit: Uint8Array
  readonly roster: readonly Uint8Array[]
}): NotaryResult<string> {
  const key = o.roster[o.complaint.sender]
  if (key === undefined)
    return refused('complaint.place', 'complaint.sender', RULE, 'the complainant is not on the roster')
  const n = o.roster.length
  return judgeComplaint({
    domain: SPAAACE_NOTARY_DOMAIN,
    complaint: o.complaint,
    header: o.header,
    deposit: o.deposit,
    complainantKey: key,
    floor: paddingFloorW,
    envelopeMatches: (e, h) => envelopeMatchesHeader(e, h, n),
    wraps: n,
  })
}

/** §5.3: the complaint's signature under the complainant's roster key. */
export function complaintSignedW(c: Complaint<number>, roster: readonly Uint8Array[]): boolean {
  const key = roster[c.sender]
  return key !== undefined && complaintSignatureValid(SPAAACE_NOTARY_DOMAIN, c, key)
}

/** The game's complaint judging for the core's log reader (§6.3 `complaint-invalid`). */
export function complaintJudgingW(n: number): {
  readonly floor: typeof paddingFloorW
  envelopeMatches(e: Uint8Array, h: SubmissionHeader<number>): boolean
} {
  return { floor: paddingFloorW, envelopeMatches: (e, h) => envelopeMatchesHeader(e, h, n) }
}
