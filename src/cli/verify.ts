/** `spaceships verify FILE` and `spaceships selfplay`: audit a transcript; make one from a bot game. */
import { type Ruleset, formatRuleset, parseRuleset } from '../rules/ruleset.js'
import { describeProtocolError } from '../transcript/errors.js'
import type { Terms } from '../transcript/messages.js'
import { type TranscriptVerdict, verifyTranscript } from '../verify/index.js'
import { type CliIo, EXIT } from './io.js'

export function exitFor(v: TranscriptVerdict): number {
  switch (v.status) {
    case 'complete':
      return EXIT.ok
    case 'offence':
      return EXIT.illegal
    case 'incomplete':
      return EXIT.incomplete
    case 'unreadable':
      return EXIT.unreadable
  }
}

export function renderVerdict(v: TranscriptVerdict): string {
  switch (v.status) {
    case 'complete': {
      const winner = v.winner === 'draw' ? 'a draw' : `${v.winner} wins`
      return `complete and honest: game ${v.gameId}\nended in turn ${v.turn} (${v.reason}); score A ${v.scores[0]}, B ${v.scores[1]}: ${winner}\n`
    }
    case 'offence': {
      const o = v.offence
      return `offence by ${o.offender}: ${o.class} in turn ${o.turn} (rule ${o.rule})${o.seq === undefined ? '' : `, envelope ${o.offender}#${o.seq}`}\n  ${o.detail}\nsanction: ${o.offender} forfeits\n`
    }
    case 'incomplete':
      return `incomplete: ${v.detail}\nlast messages: A ${v.last.A}; B ${v.last.B}\n${v.honest.length > 0 ? `honest as far as its own reveal shows: ${v.honest.join(', ')}\n` : 'no side revealed\n'}`
    case 'unreadable':
      return `unreadable transcript: line ${v.error.line}: ${describeProtocolError(v.error.error)}\n`
  }
}

export async function verifyCommand(path: string, options: { json: boolean }, io: CliIo): Promise<number> {
  let bytes: Uint8Array
  try {
    bytes = await io.readFile(path)
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e)
    if (options.json) io.stdout(`${JSON.stringify({ status: 'unreadable', error: { line: 0, error: { code: 'file.io', field: '', rule: '§10', message } } }, null, 2)}\n`)
    else io.stderr(`spaceships verify: cannot read ${path}: ${message}\n`)
    return EXIT.unreadable
  }
  const verdict = verifyTranscript(bytes)
  io.stdout(options.json ? `${JSON.stringify(verdict, null, 2)}\n` : renderVerdict(verdict))
  return exitFor(verdict)
}

export const DEFAULT_TERMS: Terms = { ruleset: '2.6.1 fleet=standard', maxTurns: 1000, setupMs: 600_000, turnMs: 600_000, replyMs: 60_000, sanction: 'forfeit' }

/**
 * Two random legal bots play a whole game in memory with the full protocol; the transcript is
 * written to `out`. With a seed, keys, salts and moves are all derived from it (a reproducible
 * demo, never for real play); without, they come from the system's CSPRNG.
 */
export async function selfplayCommand(options: { seed?: string; out: string; ruleset: string; json: boolean }, io: CliIo): Promise<number> {
  const parsed = parseRuleset(options.ruleset)
  if (!parsed.ok) {
    io.stderr(`spaceships selfplay: --ruleset: ${parsed.error.message}\n`)
    return EXIT.usage
  }
  const ruleset: Ruleset = parsed.value
  const terms: Terms = { ...DEFAULT_TERMS, ruleset: formatRuleset(ruleset) }
  // The session and the bots load here, not with `verify` (issue 6: the verifier's cold start).
  const [{ generateKeyPair, seededSecrets, systemSecrets }, { seededRandom }, { memoryChannelPair, randomStrategy, runSession }, { formatTranscript, memoryStore }] = await Promise.all([
    import('../commit/index.js'),
    import('../rules/rng.js'),
    import('../session/index.js'),
    import('../transcript/file.js'),
  ])
  const [ca, cb] = memoryChannelPair()
  const side = (role: 'A' | 'B', channel: typeof ca) => {
    const secrets = options.seed === undefined ? systemSecrets : seededSecrets(`${options.seed}/${role}`)
    const botSeed = options.seed === undefined ? Array.from(systemSecrets.bytes(8)).join('.') : `${options.seed}/${role}/bot`
    return runSession({ role, keys: generateKeyPair(secrets), terms, secrets, store: memoryStore(), channel, strategy: randomStrategy(seededRandom(botSeed)) })
  }
  const [a] = await Promise.all([side('A', ca), side('B', cb)])
  await io.writeFile(options.out, formatTranscript(a.transcript))
  io.stdout(options.json ? `${JSON.stringify({ transcript: options.out, verdict: a.verdict }, null, 2)}\n` : `transcript (A's copy): ${options.out}\n${renderVerdict(a.verdict)}`)
  return exitFor(a.verdict)
}
