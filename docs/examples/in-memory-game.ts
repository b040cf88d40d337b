/**
 * An in-memory game: two players run the whole protocol (commitments, signatures, checks on
 * receipt, the reveal, the verdict) over a channel pair in this process.
 *
 *   node docs/examples/in-memory-game.ts [seed]
 */
import { argv } from 'node:process'
import { fileURLToPath } from 'node:url'
import { seededRandom } from 'spaceships/rules'
import {
  DEFAULT_TERMS,
  type PlayerStrategy,
  type SessionResult,
  generateKeyPair,
  memoryChannelPair,
  memoryStore,
  randomStrategy,
  runSession,
  seededSecrets,
} from 'spaceships/session'

/**
 * Plays one game between two strategies (random legal players unless given) and returns both
 * sides' results: each side's own verdict and its transcript (every envelope it persisted).
 * Secrets are seeded so the game can be replayed exactly; a real game uses `systemSecrets`.
 */
export async function playInMemory(
  seed: string,
  strategies?: readonly [PlayerStrategy, PlayerStrategy],
): Promise<readonly [SessionResult, SessionResult]> {
  const { ends } = memoryChannelPair()
  const side = (role: 'A' | 'B', k: 0 | 1): Promise<SessionResult> => {
    const secrets = seededSecrets(`${seed}/${role}`)
    return runSession({
      role,
      keys: generateKeyPair(secrets),
      terms: DEFAULT_TERMS,
      secrets,
      store: memoryStore(),
      channel: ends[k],
      strategy: strategies?.[k] ?? randomStrategy(seededRandom(`${seed}/${role}/moves`)),
    })
  }
  const [a, b] = await Promise.all([side('A', 0), side('B', 1)])
  return [a, b]
}

if (argv[1] === fileURLToPath(import.meta.url)) {
  const [a, b] = await playInMemory(argv[2] ?? 'example')
  console.log(
    `A: ${a.verdict.status}, ${a.transcript.length} envelopes; B: ${b.verdict.status}, ${b.transcript.length} envelopes`,
  )
  if (a.verdict.status === 'complete')
    console.log(`winner ${a.verdict.winner}, scores ${a.verdict.scores.join(':')} after turn ${a.verdict.turn}`)
}
