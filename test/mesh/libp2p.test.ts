/**
 * The mesh over real libp2p nodes (TCP on 127.0.0.1, one process): three peers, one stream per
 * pair, every envelope reaching every node, a closed connection that the mesh survives, and peers
 * that knew only the first one's address finding each other by the signed records it passes on
 * (SPAAACE-PEERS.md §8 "Addresses").
 */
import type { Libp2p } from '@libp2p/interface'
import { PeerRecord, RecordEnvelope } from '@libp2p/peer-record'
import { lpStream } from '@libp2p/utils'
import { multiaddr } from '@multiformats/multiaddr'
import { afterEach, describe, expect, it } from 'vitest'
import { toHex, u8 } from '../../src/core/commit/bytes.js'
import { type MeshLibp2p, runMeshOverLibp2p } from '../../src/core/mesh/libp2p.js'
import { MeshNode } from '../../src/core/mesh/node.js'
import { peerRecordControl } from '../../src/core/mesh/peer-records.js'
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

/** N nodes on 127.0.0.1 with their meshes, not yet running over libp2p. */
async function startNodes(game: ToyGame): Promise<string[]> {
  const identities = await Promise.all(Array.from({ length: N }, () => ephemeralIdentity()))
  const roster = identities.map((id) => id.peerId.toString())
  for (let i = 0; i < N; i++) {
    const node = await createPeerNode({
      identity: identities[i]!,
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
  return roster
}

/** Runs every started node's mesh over libp2p, node `i` given `addresses(i)` to dial. */
async function runAll(
  roster: string[],
  addresses: (i: number) => (readonly string[] | undefined)[],
  shareAddresses: boolean,
): Promise<void> {
  for (const [i, p] of peers.entries())
    p.run = await runMeshOverLibp2p({
      node: p.node,
      protocol: PROTOCOL,
      self: i,
      roster,
      mesh: p.mesh,
      signal: life.signal,
      addresses: addresses(i),
      shareAddresses,
    })
}

describe('the mesh over libp2p', () => {
  it('three nodes exchange every envelope, and one survives a closed connection', async () => {
    const game = new ToyGame(N, 'libp2p')
    const roster = await startNodes(game)
    const addresses = peers.map((p) => p.node.getMultiaddrs().map(String))
    await runAll(roster, () => addresses, false)

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

  // SPAAACE-PEERS.md §8 "Addresses": the invite gives the joiners the host's address only.
  it("peers given only the first one's address reach each other directly, and keep playing when it goes", async () => {
    const game = new ToyGame(N, 'libp2p-records')
    const roster = await startNodes(game)
    const hostAddrs = peers[0]!.node.getMultiaddrs().map(String)
    await runAll(roster, (i) => (i === 0 ? [] : [hostAddrs]), true)
    const [host, one, two] = peers as [Peer, Peer, Peer]
    // 2 dials 1 at the address 1 signed, which only the host could pass on.
    await until(
      () => two.run!.channels.get(1)!.attached && one.run!.channels.get(2)!.attached,
      () => `a stream between 1 and 2; 2 learned ${JSON.stringify([...two.run!.records!.learned])}`,
    )
    expect(two.run!.records!.learned.get(1)).toBeGreaterThanOrEqual(1)
    expect(two.run!.records!.refused.size).toBe(0)

    // The host goes: what 1 publishes still reaches 2.
    await host.node.stop()
    const bytes = game.next(one.mesh.store, 1, u8(0))
    expect(one.mesh.publish(bytes)).toBeUndefined()
    const decoded = game.codec.decode(bytes)
    if (!decoded.ok) throw new Error(decoded.error.detail)
    const hash = toHex(decoded.value.hash)
    await until(
      () => two.held.has(hash),
      () => '2 to hold what 1 published after the host stopped',
    )
  }, 30_000)

  it('refuses a record its subject did not sign, and keeps the addresses it had', async () => {
    const game = new ToyGame(N, 'libp2p-records-forged')
    const roster = await startNodes(game)
    const addresses = peers.map((p) => p.node.getMultiaddrs().map(String))
    await runAll(roster, () => addresses, true)
    const [host, , two] = peers as [Peer, Peer, Peer]
    await until(
      () => peers.every((p) => [...p.run!.channels.values()].every((c) => c.attached)),
      () => 'every stream up',
    )
    // The host signs a record naming peer 1's PeerId with addresses of its choosing.
    const forged = await RecordEnvelope.seal(
      new PeerRecord({ peerId: peers[1]!.node.peerId, multiaddrs: [multiaddr('/ip4/192.0.2.1/tcp/9')] }),
      (await ephemeralIdentity()).privateKey,
    )
    host.mesh.sendControl(2, peerRecordControl(1, forged.marshal()))
    // The same with peer 1's key written in: refused by the signature, checked once.
    const publicKey = peers[1]!.node.peerId.publicKey
    if (publicKey === undefined) throw new Error('an Ed25519 PeerId carries its key')
    const claimed = new RecordEnvelope({
      publicKey,
      payloadType: forged.payloadType,
      payload: forged.payload,
      signature: forged.signature,
    })
    host.mesh.sendControl(2, peerRecordControl(1, claimed.marshal()))
    // And one about 2 itself, which 2 never takes from another.
    host.mesh.sendControl(2, peerRecordControl(2, forged.marshal()))
    await until(
      () => (two.run!.records!.refused.get('record.signature') ?? 0) >= 1,
      () => `2 to refuse the forged record; refused ${JSON.stringify([...two.run!.records!.refused])}`,
    )
    expect(two.run!.records!.refused.get('record.key')).toBe(1)
    expect(two.run!.records!.refused.get('record.subject')).toBe(1)
    expect(two.run!.records!.refused.get('record.signature')).toBe(1)
    const known = (await two.node.peerStore.get(peers[1]!.node.peerId)).addresses.map((a) => a.multiaddr.toString())
    expect(known).not.toContain('/ip4/192.0.2.1/tcp/9')
  }, 30_000)
})
