/**
 * `spaceships/net`: the game over libp2p. A host prints an invite and waits; a joiner dials it;
 * both run the session over a stream that survives reconnection (protocol/SPEC.md §2).
 */
export {
  type HostOptions,
  type JoinOptions,
  type NetEvent,
  NobodyJoinedError,
  RelayError,
  hostGame,
  joinGame,
} from './game.js'
export {
  type Admission,
  type PeerNodeOptions,
  createPeerNode,
  createRelayNode,
  dialRelays,
} from '../../../core/net/node.js'
export {
  type Identity,
  IdentityFileError,
  defaultIdentityPath,
  ephemeralIdentity,
  identityFromSecret,
  loadOrCreateIdentity,
} from '../../../core/net/identity.js'
export { type Invite, type InviteResult, formatInvite, parseInvite } from './invite.js'
export { type StreamChannel, type StreamChannelOptions, streamChannel } from '../../../core/net/stream-channel.js'
