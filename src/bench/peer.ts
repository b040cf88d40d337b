/**
 * One player of a benchmark game, in its own process: the deployment is two players on
 * two machines, so each side's CPU work overlaps the other's and a turn costs the critical path,
 * not the sum of both sides' work. On this 2-core machine each process gets a core, which is the
 * nearest a single machine comes to that.
 *
 *   node dist/bench/peer.js listen|dial MODE SEED MAX_TURNS GAMES BOT [ADDR]
 *
 * MODE is `full` (the referee-less protocol), `trusting` (the baseline: SPEC §6.3's schedule minus
 * the crypto) or `pipelined` (trusting play on the schedule only trust allows, trusting.ts); BOT is `random` (long
 * games: turns dominate) or `medium` (games as people play them, about nine turns). The listener
 * prints `{"addr": ...}` once it listens; then GAMES games are played, one stream each, and both
 * sides print one JSON line per game: turns, the wall time and CPU time of the game (from the
 * stream's opening to the end), and the game's bytes. The dialer starts each game when a line
 * arrives on its standard input, so the parent can alternate full and trusting games.
 */
import { realpathSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import type { Libp2p } from '@libp2p/interface'
import { multiaddr } from '@multiformats/multiaddr'
import { makeBot } from '../games/spaceships/bot/levels.js'
import { generateKeyPair } from '../core/commit/keys.js'
import { seededSecrets } from '../core/commit/secrets.js'
import { identityFromSecret } from '../core/net/identity.js'
import { createPeerNode } from '../core/net/node.js'
import { type StreamChannel, streamChannel } from '../core/net/stream-channel.js'
import { DEFAULT_RULESET, formatRuleset } from '../games/spaceships/rules/ruleset.js'
import type { Channel } from '../core/session/channel.js'
import { runSession } from '../games/spaceships/session/session.js'
import { memoryStore } from '../games/spaceships/protocol/file.js'
import { LIMITS, PROTOCOL_ID, type Role, SINGLE_GAME, type Terms } from '../games/spaceships/protocol/messages.js'
import { runTrusting } from './trusting.js'

export type BenchMode = 'full' | 'trusting' | 'pipelined'

export interface PeerResult {
  readonly turns: number
  readonly wallMs: number
  readonly cpuMs: number
  readonly bytesSent: number
}

export const benchTerms = (maxTurns: number): Terms => ({
  ruleset: formatRuleset(DEFAULT_RULESET),
  maxTurns,
  setupMs: 60_000,
  turnMs: 60_000,
  replyMs: 60_000,
  sanction: 'forfeit',
  match: SINGLE_GAME,
})

/** A libp2p node (TCP, Noise, yamux) for one side of a benchmark link. */
export async function benchNode(seed: string, role: Role, listen: boolean): Promise<Libp2p> {
  const identity = await identityFromSecret(seededSecrets(`${seed}/${role}/identity`).bytes(32))
  const node = await createPeerNode({
    identity,
    listen: listen ? ['/ip4/127.0.0.1/tcp/0'] : [],
    admission: () => 'anyone',
  })
  await node.start()
  return node
}

/** The listening side's channel, attached when the other side opens the game stream. */
export async function acceptChannel(node: Libp2p): Promise<{ channel: StreamChannel; opened: Promise<void> }> {
  const channel = streamChannel({ maxFrameBytes: LIMITS.frameBytes })
  let opened: () => void = () => undefined
  const ready = new Promise<void>((r) => (opened = r))
  await node.handle(PROTOCOL_ID, (stream) => {
    channel.attach(stream)
    opened()
  })
  return { channel, opened: ready }
}

export async function dialChannel(node: Libp2p, addrs: readonly string[]): Promise<StreamChannel> {
  const channel = streamChannel({ maxFrameBytes: LIMITS.frameBytes })
  channel.attach(
    await node.dialProtocol(
      addrs.map((a) => multiaddr(a)),
      PROTOCOL_ID,
    ),
  )
  return channel
}

/** Counts the bytes a channel sends (frames, without the length prefix). */
export function counting(c: Channel, total: { bytes: number }): Channel {
  return {
    send: (m) => {
      total.bytes += m.length
      return c.send(m)
    },
    receive: (t) => c.receive(t),
    close: () => {
      c.close()
    },
  }
}

export type BenchBot = 'random' | 'medium'

/** Plays one side of a bot game and returns its turn count. */
export async function playSide(
  mode: BenchMode,
  role: Role,
  seed: string,
  channel: Channel,
  maxTurns: number,
  bot: BenchBot = 'random',
): Promise<number> {
  if (mode !== 'full')
    return (
      await runTrusting(
        role,
        DEFAULT_RULESET,
        channel,
        makeBot(bot, `${seed}/${role}/bot`),
        maxTurns,
        mode === 'trusting' ? 'protocol' : 'pipelined',
      )
    ).turns
  const secrets = seededSecrets(`${seed}/${role}`)
  const r = await runSession({
    role,
    keys: generateKeyPair(secrets),
    terms: benchTerms(maxTurns),
    secrets,
    store: memoryStore(),
    channel,
    strategy: makeBot(bot, `${seed}/${role}/bot`),
  })
  if (r.verdict.status !== 'complete') throw new Error(`bench game ${seed}: ${r.verdict.status}`)
  return r.verdict.turn
}

async function main(argv: readonly string[]): Promise<void> {
  const [how, modeArg, seed = 'bench', maxTurnsArg = '100', gamesArg = '1', botArg = 'random', addr] = argv
  const mode: BenchMode = modeArg === 'trusting' || modeArg === 'pipelined' ? modeArg : 'full'
  const bot: BenchBot = botArg === 'medium' ? 'medium' : 'random'
  const starts = how === 'listen' ? undefined : createInterface({ input: process.stdin })[Symbol.asyncIterator]()
  const maxTurns = Number(maxTurnsArg)
  const games = Number(gamesArg)
  const role: Role = how === 'listen' ? 'A' : 'B'
  const node = await benchNode(seed, role, how === 'listen')
  // One stream per game on one connection; the listener takes them in order.
  const streams: StreamChannel[] = []
  const waiting: ((c: StreamChannel) => void)[] = []
  if (how === 'listen') {
    await node.handle(PROTOCOL_ID, (stream) => {
      const channel = streamChannel({ maxFrameBytes: LIMITS.frameBytes })
      channel.attach(stream)
      const w = waiting.shift()
      if (w === undefined) streams.push(channel)
      else w(channel)
    })
    process.stdout.write(`${JSON.stringify({ addr: node.getMultiaddrs().map(String) })}\n`)
  }
  const nextChannel = async (): Promise<StreamChannel> => {
    if (how !== 'listen') return dialChannel(node, (addr ?? '').split(','))
    return streams.shift() ?? new Promise<StreamChannel>((r) => waiting.push(r))
  }
  // The first games warm the JIT up, as they would in a long-running peer; the parent drops them.
  for (let g = 0; g < games; g++) {
    if (starts !== undefined && (await starts.next()).done === true) break
    const channel = await nextChannel()
    const bytes = { bytes: 0 }
    const cpu0 = process.cpuUsage()
    const t0 = performance.now()
    const turns = await playSide(mode, role, `${seed}/${g}`, counting(channel, bytes), maxTurns, bot)
    const wallMs = performance.now() - t0
    const cpu = process.cpuUsage(cpu0)
    const result: PeerResult = { turns, wallMs, cpuMs: (cpu.user + cpu.system) / 1000, bytesSent: bytes.bytes }
    process.stdout.write(`${JSON.stringify(result)}\n`)
    channel.close()
    await Promise.race([channel.flushed(), new Promise((r) => setTimeout(r, 1000))])
  }
  await Promise.race([node.stop(), new Promise((r) => setTimeout(r, 1000))])
}

const invoked = process.argv[1]
if (invoked !== undefined && realpathSync(invoked) === fileURLToPath(import.meta.url)) {
  await main(process.argv.slice(2))
  process.exit(0)
}
