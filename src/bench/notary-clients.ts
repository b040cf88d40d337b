/**
 * The clients of the receipt-rate measure (notary-rate.ts), all in one process: CLIENTS players,
 * each its own libp2p node (TCP, Noise, yamux) whose key is its game's A hello key. One node per
 * client, not one node with many streams, because the notary knows a requester by its
 * connection's PeerId (NOTARY.md §7.1): only A's key may register (§7.5), the rate limit counts
 * per peer (240 a minute, §8) and a connection carries at most 16 notary streams at once (§8), so
 * one node for all would be refused, not measured.
 *
 *   node dist/bench/notary-clients.js CLIENTS SUBMISSIONS
 *
 * Before anything is timed it builds each client's game: real Spaceships version 4 hellos whose
 * terms name the notary, and SUBMISSIONS envelopes (A's and B's turns in alternation, each a turn
 * envelope, so its deposit pads to 4 KiB as most of a game's do, PROTOCOL-4.md §5.2) sealed as
 * submissions with real deposits (`submissionOf`). It prints `{"ready": ...}`. Then each line
 * `{"addrs": [...]}` on its standard input is a round against a fresh notary at those addresses:
 * every client connects (not timed: a player keeps its connection), then all at once each
 * registers its game and submits its envelopes one after the other, each sent when the previous
 * receipt is verified (NOTARY.md §7.6: it decodes, is signed by the terms' notary key, and is the
 * receipt of what was asked). It prints `{"receipts", "ms", "cpuMs", "latencyMs"}`: the
 * receipts, the wall time from the first request sent to the last receipt verified, this
 * process's CPU time over it, and the median and 99th percentile of one request's round trip.
 */
import { realpathSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { identify } from '@libp2p/identify'
import type { Libp2p } from '@libp2p/interface'
import { noise } from '@libp2p/noise'
import { tcp } from '@libp2p/tcp'
import { yamux } from '@libp2p/yamux'
import { multiaddr } from '@multiformats/multiaddr'
import { createLibp2p } from 'libp2p'
import { type KeyPair, generateKeyPair } from '../core/commit/keys.js'
import { seededSecrets } from '../core/commit/secrets.js'
import { type Identity, identityFromSecret } from '../core/net/identity.js'
import { freshDepositRandomness } from '../core/notary/deposit.js'
import type { NotaryRequest } from '../core/notary/messages.js'
import { NotaryClient, libp2pTransport } from '../core/notary-net/client.js'
import { systemClock } from '../core/session/clock.js'
import { NOTARY_DOMAIN } from '../games/spaceships/protocol/domain.js'
import { type SealedEnvelope, gameIdOf, seal } from '../games/spaceships/protocol/envelope.js'
import { submissionOf } from '../games/spaceships/witness/submission.js'
import { benchTerms } from './peer.js'

const SEED = 'bench/notary'

/** The notary's identity: its libp2p key is the key the clients' terms name (NOTARY.md §7.1). */
export function benchNotaryIdentity(): Promise<Identity> {
  return identityFromSecret(seededSecrets(`${SEED}/identity`).bytes(32))
}

/** One client's work: its game's hellos, then its submissions in order. */
export interface ClientWork {
  readonly keys: KeyPair
  readonly requests: readonly NotaryRequest[]
}

/** A witnessed version 4 game between two seeded keys, and `count` submissions of its envelopes. */
export function clientWork(i: number, count: number, notaryKey: Uint8Array): ClientWork {
  const keys = {
    A: generateKeyPair(seededSecrets(`${SEED}/${i}/A`)),
    B: generateKeyPair(seededSecrets(`${SEED}/${i}/B`)),
  }
  const nonce = (role: string): Uint8Array => seededSecrets(`${SEED}/${i}/${role}/nonce`).bytes(32)
  const helloA = seal(keys.A, {
    version: 4,
    sender: 'A',
    seq: 0,
    game: undefined,
    prev: undefined,
    ack: undefined,
    parts: [
      { t: 'hello', key: keys.A.publicKey, nonce: nonce('A'), terms: { ...benchTerms(1000), notary: notaryKey } },
    ],
  })
  const helloB = seal(keys.B, {
    version: 4,
    sender: 'B',
    seq: 0,
    game: undefined,
    prev: undefined,
    ack: helloA.hash,
    parts: [{ t: 'hello', key: keys.B.publicKey, nonce: nonce('B'), terms: undefined }],
  })
  const game = gameIdOf(helloA.hash, helloB.hash, 4)
  const randomness = seededSecrets(`${SEED}/${i}/deposits`)
  const records = seededSecrets(`${SEED}/${i}/records`)
  const last: Record<'A' | 'B', SealedEnvelope> = { A: helloA, B: helloB }
  const requests: NotaryRequest[] = [{ kind: 'register', helloA: helloA.bytes, helloB: helloB.bytes }]
  for (let k = 0; k < count; k++) {
    const sender = k % 2 === 0 ? 'A' : 'B'
    const other = sender === 'A' ? 'B' : 'A'
    const seq = (k >> 1) + 1
    const sealed = seal(keys[sender], {
      version: 4,
      sender,
      seq,
      game,
      prev: last[sender].hash,
      ack: last[other].hash,
      parts: [{ t: 'commit', turn: seq, record: records.bytes(32) }],
    })
    last[sender] = sealed
    const sub = submissionOf({
      keys: keys[sender],
      sealed,
      recipientKey: keys[other].publicKey,
      randomness: freshDepositRandomness(randomness),
    })
    if (!sub.ok) throw new Error(sub.error.message)
    requests.push({ kind: 'submit', header: sub.value.header, deposit: sub.value.deposit })
  }
  return { keys: keys.A, requests }
}

async function clientNode(keys: KeyPair): Promise<Libp2p> {
  const identity = await identityFromSecret(keys.secretKey)
  return createLibp2p({
    privateKey: identity.privateKey,
    addresses: { listen: [] },
    transports: [tcp()],
    connectionEncrypters: [noise()],
    streamMuxers: [yamux()],
    services: { identify: identify() },
  })
}

const quantile = (xs: number[], q: number): number => {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0
}

async function round(work: readonly ClientWork[], addrs: readonly string[], notaryKey: Uint8Array): Promise<string> {
  const target = addrs.map((a) => multiaddr(a))
  const nodes = await Promise.all(work.map((w) => clientNode(w.keys)))
  // createLibp2p has started each node.
  await Promise.all(nodes.map((n) => n.dial(target)))
  const never = new AbortController().signal
  const latencies: number[] = []
  const cpu0 = process.cpuUsage()
  const t0 = performance.now()
  await Promise.all(
    work.map(async (w, i) => {
      const node = nodes[i]
      if (node === undefined) throw new Error('no node')
      const client = new NotaryClient({
        transport: libp2pTransport(node, target),
        clock: systemClock,
        domain: NOTARY_DOMAIN,
        notaryKey,
      })
      for (const q of w.requests) {
        const s = performance.now()
        // One try each: any answer but a verified receipt fails the measure (client.ts checks it).
        const a = await client.ask(q, never)
        if (a.kind !== 'receipt') throw new Error(`client ${i}: ${q.kind} answered ${JSON.stringify(a)}`)
        latencies.push(performance.now() - s)
      }
    }),
  )
  const ms = performance.now() - t0
  const cpu = process.cpuUsage(cpu0)
  for (const n of nodes) await Promise.resolve(n.stop())
  return JSON.stringify({
    receipts: latencies.length,
    ms,
    cpuMs: (cpu.user + cpu.system) / 1000,
    latencyMs: { p50: quantile(latencies, 0.5), p99: quantile(latencies, 0.99) },
  })
}

async function main(clients: number, submissions: number): Promise<void> {
  const notaryKey = (await benchNotaryIdentity()).keys.publicKey
  const work = Array.from({ length: clients }, (_, i) => clientWork(i, submissions, notaryKey))
  process.stdout.write(JSON.stringify({ ready: work.length }) + '\n')
  for await (const line of createInterface({ input: process.stdin })) {
    const { addrs } = JSON.parse(line) as { addrs: string[] }
    process.stdout.write((await round(work, addrs, notaryKey)) + '\n')
  }
}

if (process.argv[1] !== undefined && realpathSync(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [clients, submissions] = process.argv.slice(2).map(Number)
  await main(clients ?? 64, submissions ?? 200)
}
