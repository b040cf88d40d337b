/** SPEC §3.3: Spaceships' domain-separation tags, one set per protocol version. */
import type { ProtocolVersion } from './messages.js'

function tags<const V extends number>(v: V) {
  return {
    gameId: `spaceships/${v}/game-id`,
    salt: `spaceships/${v}/salt`,
    occupancy: `spaceships/${v}/occupancy`,
    detail: `spaceships/${v}/detail`,
    record: `spaceships/${v}/record`,
    envelope: `spaceships/${v}/envelope`,
    envelopeHash: `spaceships/${v}/envelope-hash`,
  } as const
}

export type DomainTags = ReturnType<typeof tags>

export const DOMAINS: Readonly<Record<ProtocolVersion, DomainTags>> = { 3: tags(3), 4: tags(4) }

/** Version 3's tags. */
export const DOMAIN = DOMAINS[3]

/**
 * protocol/NOTARY.md §2: the tags a witnessed Spaceships game's notary and players use (version 4),
 * passed to the core's notary, which knows no game.
 */
export const NOTARY_DOMAIN = {
  submission: 'spaceships/4/submission',
  receipt: 'spaceships/4/receipt',
  receiptHash: 'spaceships/4/receipt-hash',
  deposit: 'spaceships/4/deposit',
  depositHash: 'spaceships/4/deposit-hash',
  complaint: 'spaceships/4/complaint',
  complaintProof: 'spaceships/4/complaint-proof',
  claim: 'spaceships/4/claim',
} as const
