import type { Libp2p } from '@libp2p/interface'
import { seededSecrets } from '../../src/core/commit/secrets.js'
import {
  type HostOptions,
  type JoinOptions,
  type NetEvent,
  hostGame,
  joinGame,
} from '../../src/games/spaceships/net/game.js'
import { type Identity, identityFromSecret } from '../../src/core/net/identity.js'
import { type Invite, formatInvite, parseInvite } from '../../src/games/spaceships/net/invite.js'
import { seededRandom } from '../../src/games/spaceships/rules/rng.js'
import type { SessionResult } from '../../src/games/spaceships/session/session.js'
import { type PlayerStrategy, randomStrategy } from '../../src/games/spaceships/session/strategy.js'
import { type TranscriptStore, memoryStore } from '../../src/games/spaceships/protocol/file.js'
import { type ProtocolVersion, SINGLE_GAME, type Terms } from '../../src/games/spaceships/protocol/messages.js'

export const NET_TERMS: Terms = {
  ruleset: '2.6.1 fleet=standard',
  maxTurns: 1000,
  setupMs: 10_000,
  turnMs: 10_000,
  replyMs: 10_000,
  sanction: 'forfeit',
  match: SINGLE_GAME,
}
export const LOOPBACK = ['/ip4/127.0.0.1/tcp/0']

export function testIdentity(name: string): Promise<Identity> {
  return identityFromSecret(seededSecrets(`identity/${name}`).bytes(32))
}

export function bot(seed: string): PlayerStrategy {
  return randomStrategy(seededRandom(seed))
}

export interface NetGame {
  readonly host: SessionResult
  readonly join: SessionResult
  readonly events: { host: NetEvent[]; join: NetEvent[] }
}

/** A host and a joiner over real libp2p nodes; the invite passes through its text form. */
export async function playOverNet(
  seed: string,
  o: {
    terms?: Terms
    hostListen?: readonly string[]
    joinListen?: readonly string[]
    relays?: readonly string[]
    hostStore?: TranscriptStore
    joinStore?: TranscriptStore
    hostExtra?: Partial<HostOptions>
    joinExtra?: Partial<JoinOptions>
    /** The game's protocol version (SPEC §1.1): the host's, and its invite's. */
    version?: ProtocolVersion
    onHostNode?: (node: Libp2p) => void
  } = {},
): Promise<NetGame> {
  const [hostId, joinId] = await Promise.all([testIdentity(`${seed}/host`), testIdentity(`${seed}/join`)])
  const events = { host: [] as NetEvent[], join: [] as NetEvent[] }
  const terms = o.terms ?? NET_TERMS
  let sendInvite: (i: Invite) => void = () => undefined
  const invited = new Promise<Invite>((r) => (sendInvite = r))
  const host = hostGame({
    identity: hostId,
    secrets: seededSecrets(`${seed}/A`),
    store: o.hostStore ?? memoryStore(),
    strategy: bot(`${seed}/A/bot`),
    listen: o.hostListen ?? LOOPBACK,
    ...(o.relays === undefined ? {} : { relays: o.relays }),
    inviteId: '0123456789abcdef0123456789abcdef',
    terms,
    waitMs: 20_000,
    onEvent: (e) => events.host.push(e),
    ...(o.version === undefined ? {} : { version: o.version }),
    onReady: async (node) => {
      o.onHostNode?.(node)
      await waitFor(
        () => o.relays === undefined || node.getMultiaddrs().some((a) => a.toString().includes('/p2p-circuit')),
      )
      const addrs = node
        .getMultiaddrs()
        .map(String)
        .filter((a) => (o.relays === undefined ? true : a.includes('/p2p-circuit')))
      const parsed = parseInvite(
        formatInvite({
          id: '0123456789abcdef0123456789abcdef',
          peer: hostId.peerId.toString(),
          addrs,
          terms,
          ...(o.version === undefined ? {} : { version: o.version }),
        }),
      )
      if (!parsed.ok) throw new Error(parsed.error.message)
      sendInvite(parsed.value)
    },
    ...o.hostExtra,
  })
  const invite = await invited
  const join = joinGame({
    identity: joinId,
    secrets: seededSecrets(`${seed}/B`),
    store: o.joinStore ?? memoryStore(),
    strategy: bot(`${seed}/B/bot`),
    listen: o.joinListen ?? LOOPBACK,
    ...(o.relays === undefined ? {} : { relays: o.relays }),
    invite,
    onEvent: (e) => events.join.push(e),
    ...o.joinExtra,
  })
  const [h, j] = await Promise.all([host, join])
  return { host: h, join: j, events }
}

export async function waitFor(cond: () => boolean, timeoutMs = 10_000): Promise<void> {
  const until = Date.now() + timeoutMs
  while (!cond()) {
    if (Date.now() > until) throw new Error('timed out waiting')
    await new Promise((r) => setTimeout(r, 50))
  }
}
