/** Shared helpers for the red-team tests: verdict summaries, file building, resumed games. */
import { generateKeyPair } from '../../src/core/commit/keys.js'
import { seededSecrets } from '../../src/core/commit/secrets.js'
import { memoryChannelPair } from '../../src/core/session/channel.js'
import { VirtualClock } from '../../src/core/session/clock.js'
import { formatTranscript, memoryStore } from '../../src/games/spaceships/protocol/file.js'
import type { Role, Terms } from '../../src/games/spaceships/protocol/messages.js'
import { seededRandom } from '../../src/games/spaceships/rules/rng.js'
import { type Journal, journaledSigning, journaledStrategy } from '../../src/games/spaceships/session/journal.js'
import { type SessionResult, runSession } from '../../src/games/spaceships/session/session.js'
import { type PlayerStrategy, randomStrategy } from '../../src/games/spaceships/session/strategy.js'
import { decodeEnvelope } from '../../src/games/spaceships/protocol/envelope.js'
import { type Verdict, verifyFiles } from '../../src/games/spaceships/verify/verify.js'

export function verdictOf(...transcripts: (readonly Uint8Array[])[]): Verdict {
  return verifyFiles(transcripts.map((t, i) => ({ name: `f${i}`, content: formatTranscript(t) })))
}

export function summary(v: Verdict): string {
  switch (v.status) {
    case 'offence':
      return `offence ${v.offence.offender} ${v.offence.class}`
    case 'abandoned':
      return `abandoned ${v.by} ${v.how} -> ${v.winner}`
    case 'resigned':
      return `resigned ${v.by} -> ${v.winner}`
    case 'adjudicated':
      return `adjudicated ${v.scores.join('-')} -> ${v.winner}`
    case 'complete':
      return `complete ${v.scores.join('-')} -> ${v.winner}`
    case 'incomplete':
      return `incomplete ${v.reason}: ${v.detail}`
    case 'unreadable':
      return `unreadable ${v.error.error.code}`
  }
}

export function winnerOf(v: Verdict): string | undefined {
  return 'winner' in v ? v.winner : undefined
}

export function partsOf(b: Uint8Array): string {
  const d = decodeEnvelope(b)
  return d.ok
    ? `${d.value.envelope.sender}${d.value.envelope.seq}:${d.value.envelope.parts.map((p) => p.t).join('+')}`
    : '?'
}

/**
 * Both sides of a game over one in-memory link on a virtual clock, each store starting with
 * `stored` and each side's inputs journaled in `journals` (SPEC §2.2): a process that died and
 * resumes. With `signing`, each journal also counts the envelopes sent (a node as the CLI runs it).
 */
export function resumedGame(
  seed: string,
  terms: Terms,
  stored: readonly [readonly Uint8Array[], readonly Uint8Array[]],
  journals: readonly [Journal, Journal],
  o: { inner?: (role: Role) => PlayerStrategy; signing?: boolean } = {},
): Promise<[SessionResult, SessionResult]> {
  const clock = new VirtualClock()
  const pair = memoryChannelPair(undefined, clock)
  const inner = o.inner ?? ((role: Role) => randomStrategy(seededRandom(`${seed}/${role}/bot`)))
  const side = (role: Role, k: 0 | 1): Promise<SessionResult> => {
    const secrets = seededSecrets(`${seed}/${role}`)
    return runSession({
      role,
      keys: generateKeyPair(secrets),
      terms,
      secrets,
      store: memoryStore(stored[k]),
      channel: pair.ends[k],
      clock,
      strategy: journaledStrategy(inner(role), journals[k]),
      ...(o.signing === true ? { signing: journaledSigning(journals[k]) } : {}),
    })
  }
  const run = clock.settle<[SessionResult, SessionResult]>([side('A', 0), side('B', 1)])
  // Both resumed processes meet on a new stream: resume frames, then each resends what the other lacks.
  if (stored[0].length > 0) pair.reconnect()
  return run
}
