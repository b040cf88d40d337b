/**
 * NOTARY.md §7.1: the notary over libp2p (two and three real nodes in one process, TCP on
 * loopback, as test/net does). The requester is the connection's PeerId: A registers, a player
 * fetches deposits, a stranger only receipts; a claim request (6) is served; a request that does
 * not decode is refused by code;
 * a length prefix above MAX_MESSAGE_BYTES is refused unread.
 */
import type { Libp2p } from '@libp2p/interface'
import { lpStream } from '@libp2p/utils'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { toHex } from '../../../src/core/commit/bytes.js'
import { seededSecrets } from '../../../src/core/commit/secrets.js'
import { identityFromSecret } from '../../../src/core/net/identity.js'
import { createPeerNode } from '../../../src/core/net/node.js'
import { encodeHeader } from '../../../src/core/notary/header.js'
import {
  MAX_MESSAGE_BYTES,
  NOTARY_PROTOCOL_ID,
  decodeResponse,
  encodeRequest,
} from '../../../src/core/notary/messages.js'
import { NotaryClient, libp2pTransport } from '../../../src/core/notary-net/client.js'
import { type NotaryServiceEvent, createNotaryNode, serveNotary } from '../../../src/core/notary-net/service.js'
import { A, B, DOMAIN, NOTARY, claimRequest, submission } from './helpers.js'
import { T0, WITNESSED, type Fixture, fixture, receiptOf } from './service-helpers.js'

const G = WITNESSED.game
let f: Fixture
let notaryNode: Libp2p
const players: Libp2p[] = []
const never = new AbortController().signal
const events: NotaryServiceEvent[] = []

const bySecret = new Map<string, { node: Libp2p; client: NotaryClient }>()

/**
 * The node of the player with `secret`, made once: the notary node lets a host open only a few
 * connections a second (libp2p's default), so the tests share their players' nodes.
 */
async function player(secret: Uint8Array): Promise<{ node: Libp2p; client: NotaryClient }> {
  const known = bySecret.get(toHex(secret))
  if (known !== undefined) return known
  const identity = await identityFromSecret(secret)
  const node = await createPeerNode({ identity, listen: [], admission: () => new Set([notaryNode.peerId.toString()]) })
  await node.start()
  players.push(node)
  const client = new NotaryClient({
    transport: libp2pTransport(node, notaryNode.getMultiaddrs()),
    clock: f.clock,
    domain: DOMAIN,
    notaryKey: NOTARY.publicKey,
  })
  bySecret.set(toHex(secret), { node, client })
  return { node, client }
}

beforeAll(async () => {
  f = fixture()
  notaryNode = await createNotaryNode({
    identity: await identityFromSecret(NOTARY.secretKey),
    listen: ['/ip4/127.0.0.1/tcp/0'],
  })
  await serveNotary(notaryNode, f.notary, (e) => events.push(e))
  await notaryNode.start()
})

afterAll(async () => {
  for (const n of [...players, notaryNode]) await n.stop()
  f.close()
})

describe('the notary over libp2p (NOTARY.md §7.1)', () => {
  it('A registers and submits; B fetches the log with deposits; a stranger gets receipts only', async () => {
    const a = await player(A.secretKey)
    expect(receiptOf(await a.client.register(WITNESSED.helloA, WITNESSED.helloB, never))).toMatchObject({
      kind: 'genesis',
    })
    const s = submission(0, 1, { game: G })
    expect(receiptOf(await a.client.submit(encodeHeader(s.header), s.deposit, never))).toMatchObject({
      kind: 'envelope',
      index: 1,
    })
    const b = await player(B.secretKey)
    expect(await b.client.register(WITNESSED.helloA, WITNESSED.helloB, never)).toMatchObject({
      kind: 'refused',
      code: 'not-a',
    })
    const forB = await b.client.fetch(G, 0, never)
    expect(Array.isArray(forB) && forB.map((i) => i.deposit.length)).toEqual([0, s.deposit.length])
    const x = await player(seededSecrets('stranger').bytes(32))
    const forX = await x.client.fetch(G, 0, never)
    expect(Array.isArray(forX) && forX.map((i) => i.deposit.length)).toEqual([0, 0])
  })

  it('a claim request (PROTOCOL-4.md §4.4, NOTARY.md §7.2): "not before" its deadline, then its claim receipt', async () => {
    const a = await player(A.secretKey)
    receiptOf(await a.client.register(WITNESSED.helloA, WITNESSED.helloB, never))
    const s = submission(0, 1, { game: G })
    receiptOf(await a.client.submit(encodeHeader(s.header), s.deposit, never))
    const b = await player(B.secretKey)
    const D = T0 + 60_000
    const request = claimRequest(1, 1, { game: G, deadline: D, seen: 1 }).bytes
    expect(await b.client.claim(request, never)).toEqual({ kind: 'not-before', time: D + 1 })
    f.clock.advanceTo(D + 1)
    expect(receiptOf(await b.client.claim(request, never))).toMatchObject({ kind: 'claim', index: 2, time: D + 1 })
    expect(
      events
        .filter((e) => e.kind === 'answered' && e.request === 'claim')
        .map((e) => e.kind === 'answered' && e.answer),
    ).toEqual(['not-before', 'receipt'])
  })

  it('a request that does not decode: refused "malformed"; a length prefix above the limit: the stream is dropped unread', async () => {
    const x = await player(seededSecrets('stranger 2').bytes(32))
    const stream = await x.node.dialProtocol(notaryNode.getMultiaddrs(), NOTARY_PROTOCOL_ID)
    const lp = lpStream(stream, { maxDataLength: MAX_MESSAGE_BYTES })
    await lp.write(Uint8Array.of(7, 1, 2))
    expect(decodeResponse((await lp.read()).subarray())).toMatchObject({
      ok: true,
      value: { kind: 'refused', code: 'malformed' },
    })
    const big = await x.node.dialProtocol(notaryNode.getMultiaddrs(), NOTARY_PROTOCOL_ID)
    const raw = lpStream(big, { maxDataLength: 2 * MAX_MESSAGE_BYTES })
    const request = encodeRequest({
      kind: 'register',
      helloA: new Uint8Array(MAX_MESSAGE_BYTES),
      helloB: Uint8Array.of(1),
    })
    await expect(raw.write(request).then(() => raw.read({ signal: AbortSignal.timeout(10_000) }))).rejects.toThrow()
    expect(events.filter((e) => e.kind === 'dropped').map((e) => e.peer)).toEqual([x.node.peerId.toString()])
    expect(events.find((e) => e.kind === 'dropped')).toMatchObject({
      why: expect.stringMatching(/^no request read: .*(length|too long)/i) as unknown,
    })
  })
})
