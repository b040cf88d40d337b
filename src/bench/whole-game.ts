/**
 * A whole game over libp2p, timed from the nodes' start to both verifications: connection, invite
 * preamble, hello, play and reveal.
 */
import { performance } from 'node:perf_hooks'
import type { Libp2p } from '@libp2p/interface'
import { makeBot } from '../games/spaceships/bot/levels.js'
import { seededSecrets } from '../core/commit/secrets.js'
import { hostGame, joinGame } from '../games/spaceships/net/game.js'
import { identityFromSecret } from '../core/net/identity.js'
import { memoryStore } from '../games/spaceships/protocol/file.js'
import { benchTerms as terms } from './peer.js'

/** A whole game over libp2p: nodes, connection, invite preamble, hello, play, reveal, both verifications. */
export async function wholeGame(bot: 'medium' | 'random', seed: string): Promise<{ ms: number; turns: number }> {
  const t0 = performance.now()
  const [ia, ib] = await Promise.all([
    identityFromSecret(seededSecrets(`${seed}/ia`).bytes(32)),
    identityFromSecret(seededSecrets(`${seed}/ib`).bytes(32)),
  ])
  const id = '0123456789abcdef0123456789abcdef'
  let invited: (addrs: string[]) => void = () => undefined
  const addrs = new Promise<string[]>((r) => (invited = r))
  const t = terms(1000)
  const host = hostGame({
    identity: ia,
    secrets: seededSecrets(`${seed}/A`),
    store: memoryStore(),
    strategy: makeBot(bot, `${seed}/A`),
    listen: ['/ip4/127.0.0.1/tcp/0'],
    inviteId: id,
    terms: t,
    waitMs: 10_000,
    onReady: (n: Libp2p) => {
      invited(n.getMultiaddrs().map(String))
    },
  })
  const join = joinGame({
    identity: ib,
    secrets: seededSecrets(`${seed}/B`),
    store: memoryStore(),
    strategy: makeBot(bot, `${seed}/B`),
    listen: [],
    invite: { id, peer: ia.peerId.toString(), addrs: await addrs, terms: t },
  })
  const [h] = await Promise.all([host, join])
  const ms = performance.now() - t0
  if (h.verdict.status !== 'complete') throw new Error(`whole game ${seed}: ${h.verdict.status}`)
  return { ms, turns: h.verdict.turn }
}
