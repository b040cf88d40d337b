/**
 * SPAAACE-WITNESSED §2, §9.1: the Spaaace! notary over libp2p under `/spaaace-notary/1.0.0`, on a
 * node that serves Spaceships' notary as well (the protocol id selects the registrar): a 3-player
 * game registered, submitted, fetched, marked, complained of, relayed, and sealed.
 */
import type { Libp2p } from '@libp2p/interface'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { seededSecrets } from '../../../../src/core/commit/secrets.js'
import { identityFromSecret } from '../../../../src/core/net/identity.js'
import { createPeerNode } from '../../../../src/core/net/node.js'
import { decodeHeader } from '../../../../src/core/notary/header.js'
import { NOTARY_PROTOCOL_ID, type NotaryResponse } from '../../../../src/core/notary/messages.js'
import { decodeReceipt } from '../../../../src/core/notary/receipt.js'
import { NotaryClient, libp2pTransport } from '../../../../src/core/notary-net/client.js'
import { createNotaryNode, serveNotary } from '../../../../src/core/notary-net/service.js'
import { Notary } from '../../../../src/core/notary-service/notary.js'
import { NotaryStore } from '../../../../src/core/notary-service/store.js'
import { VirtualClock } from '../../../../src/core/session/clock.js'
import {
  SPAAACE_LAYOUT,
  SPAAACE_NOTARY_DOMAIN,
  SPAAACE_NOTARY_PROTOCOL,
  buildComplaint,
  buildRelay,
  cutTime,
  horizonOf,
  openRelayW,
  spaaaceRegistrar,
} from '../../../../src/games/spaaace/witness/index.js'
import { spaceshipsRegistrar } from '../../../../src/games/spaceships/witness/registrar.js'
import { NOTARY_W, encodeH, envelopeOf, headerFor, submissionOfW, witnessed } from './fixtures.js'

const w = witnessed(3, { maxTicks: 2 })
const timing = w.genesis.genesis.timing
const G = w.genesis.game
const clock = new VirtualClock(timing.start - 60_000)
const never = new AbortController().signal
let notaryNode: Libp2p
const nodes: Libp2p[] = []
const clients: NotaryClient[] = []

const kindOf = (a: NotaryResponse): string => {
  if (a.kind !== 'receipt') return a.kind === 'refused' ? `refused ${a.code}` : a.kind
  const d = decodeReceipt(a.receipt, SPAAACE_LAYOUT)
  return d.ok ? d.value.kind : 'undecodable'
}

beforeAll(async () => {
  notaryNode = await createNotaryNode({
    identity: await identityFromSecret(NOTARY_W.secretKey),
    listen: ['/ip4/127.0.0.1/tcp/0'],
  })
  const spaaace = new Notary({ keys: NOTARY_W, registrar: spaaaceRegistrar, clock, store: new NotaryStore(':memory:') })
  const spaceships = new Notary({
    keys: NOTARY_W,
    registrar: spaceshipsRegistrar,
    clock,
    store: new NotaryStore(':memory:'),
  })
  await serveNotary(notaryNode, spaaace, undefined, { protocol: SPAAACE_NOTARY_PROTOCOL })
  await serveNotary(notaryNode, spaceships)
  await notaryNode.start()
  for (const k of w.players) {
    const node = await createPeerNode({
      identity: await identityFromSecret(k.secretKey),
      listen: [],
      admission: () => new Set([notaryNode.peerId.toString()]),
    })
    await node.start()
    nodes.push(node)
    clients.push(
      new NotaryClient({
        transport: libp2pTransport(node, notaryNode.getMultiaddrs(), SPAAACE_NOTARY_PROTOCOL.id),
        clock,
        domain: SPAAACE_NOTARY_DOMAIN,
        notaryKey: NOTARY_W.publicKey,
        protocol: SPAAACE_NOTARY_PROTOCOL,
      }),
    )
  }
})

afterAll(async () => {
  for (const n of [...nodes, notaryNode]) await n.stop()
})

describe('SPAAACE-WITNESSED §9.1 over libp2p', () => {
  it('one node serves both protocol ids', () => {
    expect(notaryNode.getProtocols()).toEqual(expect.arrayContaining([SPAAACE_NOTARY_PROTOCOL.id, NOTARY_PROTOCOL_ID]))
  })

  it('register, submit, fetch, mark, complain, relay, relays, seal for 3 players', async () => {
    const [p0, p1, p2] = clients
    if (p0 === undefined || p1 === undefined || p2 === undefined) throw new Error('three clients')
    expect(kindOf(await p1.registerGenesis(w.body, never))).toBe('genesis-body')
    // p2's deposit with p1's wrap garbled: p1 complains (it holds), p0 relays the key to p1.
    const s = submissionOfW(w, 2, 1)
    const garbled = s.deposit.slice()
    garbled[80 + 40] = (garbled[80 + 40] ?? 0) ^ 1
    const header = headerFor(w, 2, envelopeOf(w, 2, 1), garbled)
    expect(kindOf(await p2.submit(encodeH(header), garbled, never))).toBe('envelope')
    const honest = submissionOfW(w, 0, 1)
    expect(kindOf(await p0.submit(honest.header, honest.deposit, never))).toBe('envelope')
    const log = await p1.fetch(G, 0, never)
    expect(Array.isArray(log) && log.map((i) => i.deposit.length)).toEqual([0, garbled.length, honest.deposit.length])
    expect(await p0.mark(G, 1, 0, never)).toEqual({ kind: 'not-before', time: cutTime(timing, 1, 0) + 1 })
    clock.advanceTo(cutTime(timing, 1, 0) + 1)
    expect(kindOf(await p0.mark(G, 1, 0, never))).toBe('mark')
    const c = buildComplaint(w.players[1] ?? (undefined as never), {
      game: G,
      complainant: 1,
      index: 1,
      deposit: garbled,
    })
    if (!c.ok) throw new Error(c.error.message)
    expect(kindOf(await p1.complain(c.value.bytes, never))).toBe('complaint')
    const h = decodeHeader(encodeH(header), SPAAACE_LAYOUT)
    if (!h.ok) throw new Error(h.error.message)
    const relay = buildRelay({
      index: 1,
      header: h.value,
      deposit: garbled,
      from: 0,
      seed: w.players[0]?.secretKey ?? new Uint8Array(),
      to: 1,
      roster: w.roster,
      ephemeral: seededSecrets('net relay').bytes(32),
    })
    if (!relay.ok) throw new Error(relay.error.message)
    expect(kindOf(await p0.relay(relay.value, never))).toBe('envelope')
    const held = await p1.relays(G, never)
    if (!Array.isArray(held)) throw new Error(JSON.stringify(held))
    const [first] = held as readonly { index: number; from: number; wrap: Uint8Array }[]
    if (first === undefined) throw new Error('no relay held')
    const opened = openRelayW({
      relay: first,
      header: h.value,
      deposit: garbled,
      me: 1,
      seed: w.players[1]?.secretKey ?? new Uint8Array(),
      n: 3,
    })
    expect(opened.ok).toBe(true)
    expect(await p2.relays(G, never)).toEqual([])
    expect((await p0.seal(G, never)).kind).toBe('not-before')
    clock.advanceTo(horizonOf(timing, 2))
    expect(kindOf(await p0.seal(G, never))).toBe('seal')
  })
})
