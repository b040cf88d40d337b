import { generateKeyPair, seededSecrets } from '../../src/commit/index.js'
import { seededRandom } from '../../src/rules/rng.js'
import { memoryChannelPair, randomStrategy, runSession, type Deviation, type PlayerStrategy, type SessionResult } from '../../src/session/index.js'
import { memoryStore } from '../../src/transcript/file.js'
import type { Terms } from '../../src/transcript/messages.js'

export const TERMS: Terms = { ruleset: '2.6.1 fleet=standard', maxTurns: 1000, setupMs: 5000, turnMs: 5000, replyMs: 5000, sanction: 'forfeit' }

export interface PlayedGame {
  readonly a: SessionResult
  readonly b: SessionResult
}

/** Plays one whole game in memory between two sessions, seeded for exact replay. */
export async function playInMemory(seed: string, options: { terms?: Terms; strategies?: [PlayerStrategy, PlayerStrategy]; deviations?: [Deviation | undefined, Deviation | undefined] } = {}): Promise<PlayedGame> {
  const [ca, cb] = memoryChannelPair()
  const terms = options.terms ?? TERMS
  const side = (role: 'A' | 'B', channel: typeof ca, k: 0 | 1) => {
    const secrets = seededSecrets(`${seed}/${role}`)
    return runSession({
      role,
      keys: generateKeyPair(secrets),
      terms,
      secrets,
      store: memoryStore(),
      channel,
      strategy: options.strategies?.[k] ?? randomStrategy(seededRandom(`${seed}/${role}/bot`)),
      ...(options.deviations?.[k] === undefined ? {} : { deviation: options.deviations[k] }),
    })
  }
  const [a, b] = await Promise.all([side('A', ca, 0), side('B', cb, 1)])
  return { a, b }
}

/**
 * One batch of the 1,000 honest games (DESIGN.md goal 1 the other way round): random legal players
 * capped at 40 turns (an agreed `maxTurns`, SPEC §6.4); every game must end complete and identical
 * on both sides, and every 50th transcript is re-verified by a third party.
 */
export async function honestBatch(label: string, games: number, verify: (transcript: readonly string[]) => unknown): Promise<{ complete: number; mismatches: string[] }> {
  const terms = { ...TERMS, maxTurns: 40 }
  const mismatches: string[] = []
  let complete = 0
  for (let i = 0; i < games; i++) {
    const g = await playInMemory(`honest/${label}/${i}`, { terms })
    const same = JSON.stringify(g.a.verdict) === JSON.stringify(g.b.verdict)
    const audited = i % 50 !== 0 || JSON.stringify(verify(g.b.transcript)) === JSON.stringify(g.a.verdict)
    if (g.a.verdict.status === 'complete' && same && audited) complete++
    else mismatches.push(`game ${i}: ${JSON.stringify(g.a.verdict)} / ${JSON.stringify(g.b.verdict)}`)
  }
  return { complete, mismatches }
}
