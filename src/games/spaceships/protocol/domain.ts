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
