/**
 * One player of the witnessed-turn measure (witnessed.ts), in its own process as on its own
 * machine: each game is a whole `hostGame` or `joinGame` (src/games/spaceships/net), a fresh
 * libp2p node (TCP, Noise, yamux) and, in a witnessed game, its link to the notary that submits
 * every envelope this side signs and fetches the log in the background (net/witness.ts).
 *
 *   node dist/bench/witnessed-peer.js host|join BOT MAX_TURNS
 *
 * Each line on its standard input is a game: `{"seed", "id", "notary"?}` for the host (`notary`:
 * the notary's addresses, as the players reach it; absent, an unwitnessed game on the same
 * terms), and the same with `"peer"` and `"addrs"` (the host's, as the joiner reaches it) for the
 * joiner. The host prints `{"listening": [...], "peer"}` once its node listens, and each side
 * prints a `GameTimes` line once its game is over (every time in ms from the call).
 */
import { createHash } from 'node:crypto'
import { realpathSync } from 'node:fs'
import { createInterface } from 'node:readline'
import { performance } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { seededSecrets } from '../core/commit/secrets.js'
import { identityFromSecret } from '../core/net/identity.js'
import { makeBot } from '../games/spaceships/bot/levels.js'
import { hostGame, joinGame } from '../games/spaceships/net/game.js'
import { notaryKeyOf } from '../games/spaceships/net/invite.js'
import type { WitnessEvent } from '../games/spaceships/net/witness.js'
import type { SealedEnvelope } from '../games/spaceships/protocol/envelope.js'
import { memoryStore } from '../games/spaceships/protocol/file.js'
import type { Terms } from '../games/spaceships/protocol/messages.js'
import type { SessionResult } from '../games/spaceships/session/session.js'
import { type BenchBot, benchTerms } from './peer.js'

/** One game as one side saw it. */
export interface GameTimes {
  readonly status: string
  readonly turns: number
  /** When this side first held an envelope with aspects of turn k (index k - 1): a turn's start. */
  readonly turnStarts: readonly number[]
  /** This side's first envelope (A's hello sent, B's received) and its last one persisted. */
  readonly firstEnvelope: number
  readonly lastEnvelope: number
  /** When `hostGame` or `joinGame` returned: after the reveal, both verifications, the notary link's settling and the node's stop. */
  readonly end: number
  readonly cpuMs: number
  /** Envelopes this side signed (seq >= 1, the ones a witnessed node submits) and receipts its link kept. */
  readonly sent: number
  readonly receipts: number
  /** When the last receipt was kept. */
  readonly lastReceipt: number | undefined
  /** What the link to the notary said other than receipts (refusals, outages), in order. */
  readonly witness: readonly string[]
}

export interface GameOrder {
  readonly seed: string
  readonly id: string
  readonly notary?: readonly string[]
  /** The joiner's: the host's PeerId and addresses. */
  readonly peer?: string
  readonly addrs?: readonly string[]
}

/** A game's invite id, from its seed: 32 hex digits, as the CLI's. */
export const inviteIdOf = (seed: string): string => createHash('sha256').update(seed).digest('hex').slice(0, 32)

/** The bench's terms, naming the notary when there is one (as `spaceships host --notary` does). */
export function witnessedTerms(maxTurns: number, notary: readonly string[] | undefined): Terms {
  const terms = benchTerms(maxTurns)
  const first = notary?.[0]
  if (first === undefined) return terms
  const key = notaryKeyOf(first)
  if (!key.ok) throw new Error(`the notary's address ${first}: ${key.message}`)
  return { ...terms, notary: key.key, reserveMs: 0 }
}

/** Plays one game as `side` and times it. */
export async function playGame(
  side: 'host' | 'join',
  bot: BenchBot,
  maxTurns: number,
  order: GameOrder,
  onListening: (addrs: string[], peer: string) => void = () => undefined,
): Promise<GameTimes> {
  const role = side === 'host' ? 'A' : 'B'
  const { seed } = order
  const identity = await identityFromSecret(seededSecrets(`${seed}/${role}/identity`).bytes(32))
  const terms = witnessedTerms(maxTurns, order.notary)
  const turnStarts: number[] = []
  let firstEnvelope: number | undefined
  let lastEnvelope = 0
  let sent = 0
  let receipts = 0
  let lastReceipt: number | undefined
  const witness: string[] = []
  const t0 = performance.now()
  const cpu0 = process.cpuUsage()
  const onEnvelope = (s: SealedEnvelope, direction: 'sent' | 'received'): void => {
    const now = performance.now() - t0
    firstEnvelope ??= now
    lastEnvelope = now
    if (direction === 'sent' && s.envelope.seq >= 1) sent++
    for (const p of s.envelope.parts)
      if (p.t === 'aspects' && turnStarts[p.turn - 1] === undefined) turnStarts[p.turn - 1] = now
  }
  const onWitness = (e: WitnessEvent): void => {
    if (e.kind === 'receipt') {
      receipts++
      lastReceipt = performance.now() - t0
    } else witness.push(`${Math.round(performance.now() - t0)} ms: ${e.kind}${'detail' in e ? ` ${e.detail}` : ''}`)
  }
  const common = {
    identity,
    secrets: seededSecrets(`${seed}/${role}`),
    store: memoryStore(),
    strategy: makeBot(bot, `${seed}/${role}/bot`),
    onEnvelope,
    onWitness,
    ...(order.notary === undefined ? {} : { notary: { addrs: order.notary } }),
  }
  let result: SessionResult
  if (side === 'host')
    result = await hostGame({
      ...common,
      listen: ['/ip4/127.0.0.1/tcp/0'],
      inviteId: order.id,
      terms,
      waitMs: 30_000,
      onReady: (node) => {
        onListening(node.getMultiaddrs().map(String), identity.peerId.toString())
      },
    })
  else {
    if (order.peer === undefined || order.addrs === undefined) throw new Error('a joiner needs the host')
    result = await joinGame({
      ...common,
      listen: [],
      invite: {
        id: order.id,
        peer: order.peer,
        addrs: order.addrs,
        terms,
        ...(order.notary === undefined ? {} : { notary: order.notary }),
      },
    })
  }
  const end = performance.now() - t0
  const cpu = process.cpuUsage(cpu0)
  return {
    status: result.verdict.status,
    turns: 'turn' in result.verdict ? result.verdict.turn : 0,
    turnStarts,
    firstEnvelope: firstEnvelope ?? end,
    lastEnvelope,
    end,
    cpuMs: (cpu.user + cpu.system) / 1000,
    sent,
    receipts,
    lastReceipt,
    witness,
  }
}

async function main(argv: readonly string[]): Promise<void> {
  const [side, botArg, maxTurnsArg] = argv
  if (side !== 'host' && side !== 'join') throw new Error('host or join')
  const bot: BenchBot = botArg === 'medium' ? 'medium' : 'random'
  const say = (x: unknown): void => void process.stdout.write(`${JSON.stringify(x)}\n`)
  for await (const line of createInterface({ input: process.stdin })) {
    const order = JSON.parse(line) as GameOrder
    say(
      await playGame(side, bot, Number(maxTurnsArg), order, (listening, peer) => {
        say({ listening, peer })
      }),
    )
  }
}

const invoked = process.argv[1]
if (invoked !== undefined && realpathSync(invoked) === fileURLToPath(import.meta.url)) {
  await main(process.argv.slice(2))
  process.exit(0)
}
