/**
 * The libp2p node a player (or a relay) runs: TCP and WebSockets, Noise, yamux, identify and ping,
 * the circuit-relay-v2 transport for players behind NAT, and DCUtR to upgrade a relayed connection
 * to a direct one when one side is reachable. The connection gater admits only the peers named in
 * `allow` (the invited opponent and the relay): a stranger's connection is closed right after the
 * Noise handshake proves who it is.
 */
import { noise } from '@libp2p/noise'
import { yamux } from '@libp2p/yamux'
import { circuitRelayServer, circuitRelayTransport } from '@libp2p/circuit-relay-v2'
import { dcutr } from '@libp2p/dcutr'
import { identify } from '@libp2p/identify'
import type { ConnectionGater, Libp2p, PeerId } from '@libp2p/interface'
import { ping } from '@libp2p/ping'
import { tcp } from '@libp2p/tcp'
import { webSockets } from '@libp2p/websockets'
import { multiaddr } from '@multiformats/multiaddr'
import { createLibp2p } from 'libp2p'
import type { Identity } from './identity.js'

/** Who may connect: a fixed set of PeerIds (as strings), or anyone (an open relay). */
export type Admission = ReadonlySet<string> | 'anyone'

export function admits(admission: Admission, peer: PeerId): boolean {
  return admission === 'anyone' || admission.has(peer.toString())
}

/** What a relay reports, one event per reservation or circuit asked of it (the relay's log). */
export type RelayEvent =
  | { readonly kind: 'reservation'; readonly peer: string; readonly granted: boolean }
  | { readonly kind: 'circuit'; readonly from: string; readonly to: string; readonly granted: boolean }

/** Denies every connection, dial and relayed circuit that involves a peer not admitted. */
export function gaterFor(
  admission: () => Admission,
  onRefused?: (peer: string) => void,
  onRelay?: (e: RelayEvent) => void,
): ConnectionGater {
  const deny = (peer: PeerId): boolean => {
    const refused = !admits(admission(), peer)
    if (refused) onRefused?.(peer.toString())
    return refused
  }
  return {
    denyDialPeer: deny,
    denyInboundEncryptedConnection: deny,
    denyOutboundEncryptedConnection: deny,
    denyInboundRelayReservation: (peer) => {
      const refused = deny(peer)
      onRelay?.({ kind: 'reservation', peer: peer.toString(), granted: !refused })
      return refused
    },
    denyOutboundRelayedConnection: (source, destination) => {
      const refused = deny(source) || deny(destination)
      onRelay?.({ kind: 'circuit', from: source.toString(), to: destination.toString(), granted: !refused })
      return refused
    },
    denyInboundRelayedConnection: (relay, remote) => deny(relay) || deny(remote),
    // Loopback and private addresses are how two players on one LAN (and the tests) connect.
    denyDialMultiaddr: () => false,
  }
}

export interface PeerNodeOptions {
  readonly identity: Identity
  /** Multiaddrs to listen on, e.g. `/ip4/0.0.0.0/tcp/0`, `/ip4/0.0.0.0/tcp/0/ws`, `/p2p-circuit`. */
  readonly listen: readonly string[]
  /** Peers admitted; a function so a host can admit its opponent once it is known. */
  readonly admission: () => Admission
  readonly onRefused?: (peer: string) => void
}

/** A player's node. Start it, then `handle` the game protocol or `dialProtocol` the opponent. */
export async function createPeerNode(o: PeerNodeOptions): Promise<Libp2p> {
  return createLibp2p({
    privateKey: o.identity.privateKey,
    addresses: { listen: [...o.listen] },
    transports: [tcp(), webSockets(), circuitRelayTransport({ reservationCompletionTimeout: 10_000 })],
    connectionEncrypters: [noise()],
    streamMuxers: [yamux()],
    connectionGater: gaterFor(o.admission, o.onRefused),
    services: { identify: identify(), ping: ping(), dcutr: dcutr() },
    // No discovery and no DHT: a game node only ever talks to its opponent and its relay.
    connectionManager: { maxConnections: 16 },
  })
}

/** A relayed game's limits on an open relay: a long game's bytes and a day, per circuit. */
export const OPEN_RELAY_LIMIT = { durationMs: 24 * 3_600_000, dataBytes: 64 * 1_048_576 } as const
/** Reservations a relay holds at once: two per game, so 128 games. */
export const RELAY_MAX_RESERVATIONS = 256

/**
 * A relay for players behind NAT (circuit relay v2). libp2p's default limits (2 minutes, 128 KiB
 * per relayed connection) would cut a game short. For an allow-list of players a reservation
 * carries no limit at all (the list keeps strangers out); an open relay gives each circuit
 * OPEN_RELAY_LIMIT, enough for the longest game the terms allow. Many players may dial at once
 * (a tournament): the per-address rate limit on new connections is raised accordingly.
 */
export async function createRelayNode(o: {
  identity: Identity
  listen: readonly string[]
  admission: () => Admission
  onRefused?: (peer: string) => void
  onRelay?: (e: RelayEvent) => void
}): Promise<Libp2p> {
  const open = o.admission() === 'anyone'
  return createLibp2p({
    privateKey: o.identity.privateKey,
    addresses: { listen: [...o.listen] },
    transports: [tcp(), webSockets()],
    connectionEncrypters: [noise()],
    streamMuxers: [yamux()],
    connectionGater: gaterFor(o.admission, o.onRefused, o.onRelay),
    connectionManager: {
      maxConnections: 2 * RELAY_MAX_RESERVATIONS + 64,
      inboundConnectionThreshold: 1000,
      maxIncomingPendingConnections: 256,
    },
    services: {
      identify: identify(),
      ping: ping(),
      relay: circuitRelayServer({
        reservations: open
          ? {
              maxReservations: RELAY_MAX_RESERVATIONS,
              applyDefaultLimit: true,
              defaultDurationLimit: OPEN_RELAY_LIMIT.durationMs,
              defaultDataLimit: BigInt(OPEN_RELAY_LIMIT.dataBytes),
              reservationTtl: 24 * 3_600_000,
            }
          : { maxReservations: RELAY_MAX_RESERVATIONS, applyDefaultLimit: false, reservationTtl: 24 * 3_600_000 },
      }),
    },
  })
}

/** Dials each relay so the circuit transport can reserve a slot on it (SPEC §2; DEVELOPERS.md). */
export async function dialRelays(node: Libp2p, relays: readonly string[]): Promise<void> {
  for (const r of relays) await node.dial(multiaddr(r))
}
