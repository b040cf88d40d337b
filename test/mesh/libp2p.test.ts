/**
 * The mesh over real libp2p nodes (TCP on 127.0.0.1, one process): three peers, one stream per
 * pair, every envelope reaching every node, and a closed connection that the mesh survives.
 */
import type { Libp2p } from '@libp2p/interface'
import { lpStream } from '@libp2p/utils'
import { afterEach, describe, expect, it } from 'vitest'
import { toHex, u8 } from '../../src/core/commit/bytes.js'
import { type MeshLibp2p, runMeshOverLibp2p } from '../../src/core/mesh/libp2p.js'
import { MeshNode } from '../../src/core/mesh/node.js'
import { ephemeralIdentity } from '../../src/core/net/identity.js'
import { createPeerNode } from '../../src/core/net/node.js'
import { systemClock } from '../../src/core/session/clock.js'
import { ToyGame } from './toy.js'

const PROTOCOL = '/spaceships/mesh-test/1'
const N = 3
/** Generous on a busy machine; the happy path takes well under a second. */
const WAIT_MS = 15_000

interface Peer {
  readonly node: Libp2p
  readonly mesh: MeshNode
  readonly held: Set<string>
  run?: MeshLibp2p
}

let life = new AbortController()
let peers: Peer[] = []
let others: Libp2p[] = []
/** Conditions waited on, checked whenever an envelope is delivered anywhere. */
const waiters = new Set<() => void>()

afterEach(async () => {
  life.abort()
  await Promise.all(peers.flatMap((p) => (p.run === undefined ? [] : [p.run.done])))
  for (const n of [...peers.map((p) => p.node), ...others]) await n.stop()
  life = new AbortController()
  peers = []
  others = []
})

/**
 * Resolves once `cond` holds, checked on every delivery and every few milliseconds (a stream's
 * attachment delivers nothing); fails after WAIT_MS saying `what`.
 */
function until(cond: () => boolean, what: () => string): Promise<void> {
  return new Promise((resolve, reject) => {
    const check = (): void => {
      if (!cond()) return
      waiters.delete(check)
      clearTimeout(timer)
      clearInterval(poll)
      resolve()
    }
    const poll = setInterval(check, 20)
    const timer = setTimeout(() => {
      waiters.delete(check)
      clearInterval(poll)
      reject(new Error(`timed out waiting for ${what()}`))
    }, WAIT_MS)
    waiters.add(check)
    check()
  })
}

const holdAll = (hashes: readonly string[]): Promise<void> =>
  until(
    () => peers.every((p) => hashes.every((h) => p.held.has(h))),
    () => `every node to hold ${hashes.length} envelopes; held: ${peers.map((p) => p.held.size).join(', ')}`,
  )

describe('the mesh over libp2p', () => {
  it('three nodes exchange every envelope, and one survives a closed connection', async () => {
    const game = new ToyGame(N, 'libp2p')
    const identities = await Promise.all(Array.from({ length: N }, () => ephemeralIdentity()))
    const roster = identities.map((id) => id.peerId.toString())
    for (let i = 0; i < N; i++) {
      const identity = identities[i]!
      const node = await createPeerNode({
        identity,
        listen: ['/ip4/127.0.0.1/tcp/0'],
        admission: () => new Set(roster),
      })
      await node.start()
      const held = new Set<string>()
      const mesh = new MeshNode({
        codec: game.codec,
        self: i,
        clock: systemClock,
        onEnvelope: (e) => {
          held.add(toHex(e.hash))
          for (const w of [...waiters]) w()
        },
      })
      peers.push({ node, mesh, held })
    }
    const addresses = peers.map((p) => p.node.getMultiaddrs().map(String))
    for (const [i, p] of peers.entries())
      p.run = await runMeshOverLibp2p({
        node: p.node,
        protocol: PROTOCOL,
        self: i,
        roster,
        mesh: p.mesh,
        signal: life.signal,
        addresses,
      })

    const hashes: string[] = []
    const publish = (i: number, tick: number): void => {
      const mesh = peers[i]!.mesh
      const bytes = game.next(mesh.store, i, u8(tick))
      expect(mesh.publish(bytes)).toBeUndefined()
      const decoded = game.codec.decode(bytes)
      if (!decoded.ok) throw new Error(decoded.error.detail)
      hashes.push(toHex(decoded.value.hash))
    }
    for (let i = 0; i < N; i++) publish(i, 0)
    await holdAll(hashes)
    // One stream per pair: each node's channel towards each other node is up.
    for (const p of peers) expect([...p.run!.channels.values()].map((c) => c.attached)).toEqual([true, true])

    // Close the connection between 1 and 2 (2 dials 1): what 1 publishes next still reaches both.
    const [, one, two] = peers as [Peer, Peer, Peer]
    const towardsOne = two.run!.channels.get(1)!
    const reattached = new Promise<void>((resolve) => {
      two.node.addEventListener('peer:connect', (evt) => {
        if (evt.detail.equals(one.node.peerId)) resolve()
      })
    })
    await Promise.all(two.node.getConnections(one.node.peerId).map((c) => c.close()))
    expect(two.node.getConnections(one.node.peerId)).toEqual([])
    publish(1, 1)
    await holdAll(hashes)

    // 2 redials 1 (with backoff) and the pair's stream comes back: an envelope of 2 reaches 1 over it too.
    await reattached
    await until(
      () => towardsOne.attached && one.run!.channels.get(2)!.attached,
      () => 'the stream between 1 and 2 to come back',
    )
    publish(2, 1)
    await holdAll(hashes)
    expect(peers.map((p) => p.held.size)).toEqual([5, 5, 5])
  }, 30_000)

  it('refuses a stream from a peer off the roster, and one from a peer this node dials', async () => {
    const game = new ToyGame(2, 'libp2p-refuse')
    const [a, b, stranger] = await Promise.all([ephemeralIdentity(), ephemeralIdentity(), ephemeralIdentity()])
    const roster = [a.peerId.toString(), b.peerId.toString()]
    // The gate lets the stranger in (as a relay would be): the mesh itself must refuse its stream.
    const admitted = new Set([...roster, stranger.peerId.toString()])
    const nodeB = await createPeerNode({ identity: b, listen: ['/ip4/127.0.0.1/tcp/0'], admission: () => admitted })
    await nodeB.start()
    const mesh = new MeshNode({ codec: game.codec, self: 1, clock: systemClock })
    peers.push({ node: nodeB, mesh, held: new Set() })
    // B dials A (index 0), which is not listening: B keeps redialling, and waits for no one.
    peers[0]!.run = await runMeshOverLibp2p({
      node: nodeB,
      protocol: PROTOCOL,
      self: 1,
      roster,
      mesh,
      signal: life.signal,
      addresses: [['/ip4/127.0.0.1/tcp/1']],
    })
    for (const identity of [stranger, a]) {
      const node = await createPeerNode({ identity, listen: [], admission: () => admitted })
      await node.start()
      others.push(node)
      const stream = await node.dialProtocol(nodeB.getMultiaddrs(), PROTOCOL)
      const lp = lpStream(stream, { maxDataLength: 64 })
      await expect(lp.read({ signal: AbortSignal.timeout(WAIT_MS) })).rejects.toThrow()
    }
    expect(peers[0]!.run.channels.get(0)!.attached).toBe(false)
  }, 30_000)
})
