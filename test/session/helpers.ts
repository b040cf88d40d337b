import { generateKeyPair } from '../../src/core/commit/keys.js'
import { seededSecrets } from '../../src/core/commit/secrets.js'
import { seededRandom } from '../../src/games/spaceships/rules/rng.js'
import { type Fault, type MemoryPair, memoryChannelPair } from '../../src/core/session/channel.js'
import { VirtualClock } from '../../src/core/session/clock.js'
import {
  type Deviation,
  type SessionEvent,
  type SessionResult,
  runSession,
} from '../../src/games/spaceships/session/session.js'
import { type PlayerStrategy, randomStrategy } from '../../src/games/spaceships/session/strategy.js'
import { type TranscriptStore, memoryStore } from '../../src/games/spaceships/protocol/file.js'
import { type ProtocolVersion, SINGLE_GAME, type Terms } from '../../src/games/spaceships/protocol/messages.js'

export const TERMS: Terms = {
  ruleset: '2.6.1 fleet=standard',
  maxTurns: 1000,
  setupMs: 60_000,
  turnMs: 60_000,
  replyMs: 10_000,
  sanction: 'forfeit',
  match: SINGLE_GAME,
}

export interface PlayedGame {
  readonly a: SessionResult
  readonly b: SessionResult
  readonly clock: VirtualClock
  readonly events: readonly [SessionEvent[], SessionEvent[]]
  /** When each side sent its own stop, on the virtual clock. */
  readonly claimTimes: { A?: number; B?: number }
}

export interface PlayOptions {
  /** The protocol version both sides play (SPEC §1); the sessions' default otherwise. */
  readonly version?: ProtocolVersion
  readonly terms?: Terms
  /** B's terms when they differ from A's (B refuses a hello with other terms than its invite's, SPEC §6.2). */
  readonly termsB?: Terms
  readonly strategies?: readonly [PlayerStrategy | undefined, PlayerStrategy | undefined]
  readonly deviations?: readonly [Deviation | undefined, Deviation | undefined]
  readonly fault?: Fault
  readonly stores?: readonly [TranscriptStore, TranscriptStore]
  /** Called with the link and the clock before play starts (tests that cut and restore the link). */
  readonly onLink?: (pair: MemoryPair, clock: VirtualClock) => void
  /** Every virtual second, a frame to deliver to A as if B sent it again (a peer repeating itself). */
  readonly duplicates?: () => Uint8Array | undefined
  /** Each side's chosen name (SPEC §2.4 kind 6), sent on each stream of a version 4 game. */
  readonly names?: readonly [string | undefined, string | undefined]
}

/** Plays one whole game in memory between two sessions on a virtual clock, seeded for exact replay. */
export async function playInMemory(seed: string, options: PlayOptions = {}): Promise<PlayedGame> {
  const clock = new VirtualClock()
  const pair = memoryChannelPair(options.fault, clock)
  options.onLink?.(pair, clock)
  const terms = options.terms ?? TERMS
  const events: [SessionEvent[], SessionEvent[]] = [[], []]
  const claimTimes: { A?: number; B?: number } = {}
  const stop = new AbortController()
  if (options.duplicates !== undefined) {
    const again = options.duplicates
    void (async () => {
      while (!stop.signal.aborted) {
        await clock.sleep(1000, stop.signal)
        const frame = again()
        // The game may have ended while this loop slept.
        if (frame !== undefined && !(stop.signal.aborted as boolean)) pair.inject(0, frame)
      }
    })()
  }
  const side = (role: 'A' | 'B', k: 0 | 1): Promise<SessionResult> => {
    const secrets = seededSecrets(`${seed}/${role}`)
    return runSession({
      role,
      keys: generateKeyPair(secrets),
      terms: role === 'B' ? (options.termsB ?? terms) : terms,
      ...(options.version === undefined ? {} : { version: options.version }),
      secrets,
      store: options.stores?.[k] ?? memoryStore(),
      channel: pair.ends[k],
      clock,
      strategy: options.strategies?.[k] ?? randomStrategy(seededRandom(`${seed}/${role}/bot`)),
      onEvent: (e) => {
        events[k].push(e)
        if (e.kind === 'stopped' && e.by === role) claimTimes[role] ??= clock.now()
      },
      ...(options.deviations?.[k] === undefined ? {} : { deviation: options.deviations[k] }),
      ...(options.names?.[k] === undefined ? {} : { name: options.names[k] }),
    })
  }
  try {
    const [a, b] = await clock.settle<[SessionResult, SessionResult]>([side('A', 0), side('B', 1)])
    return { a, b, clock, events, claimTimes }
  } finally {
    stop.abort()
  }
}
