/** `spaceships verify FILE` and `spaceships selfplay`: audit a transcript; make one from a bot game. */
import { type Ruleset, formatRuleset, parseRuleset } from '../rules/ruleset.js'
import { describeProtocolError } from '../transcript/errors.js'
import type { Terms } from '../transcript/messages.js'
import type { TranscriptVerdict } from '../verify/index.js'
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

/** One line per transcript when several are verified at once. */
function verdictLine(v: TranscriptVerdict): string {
  switch (v.status) {
    case 'complete':
      return `complete and honest, turn ${v.turn}, A ${v.scores[0]} B ${v.scores[1]}: ${v.winner === 'draw' ? 'a draw' : `${v.winner} wins`}`
    case 'offence':
      return `offence by ${v.offence.offender}: ${v.offence.class} in turn ${v.offence.turn} (rule ${v.offence.rule})`
    case 'incomplete':
      return `incomplete: ${v.detail}`
    case 'unreadable':
      return v.error.error.code === 'file.io' ? `unreadable: cannot read the file: ${v.error.error.message}` : `unreadable: line ${v.error.line}: ${describeProtocolError(v.error.error)}`
  }
}

/** Several transcripts' exit status: the first of unreadable, offence, incomplete that occurs, else ok. */
function worstExit(codes: readonly number[]): number {
  for (const c of [EXIT.unreadable, EXIT.illegal, EXIT.incomplete]) if (codes.includes(c)) return c
  return EXIT.ok
}

export async function verifyCommand(paths: readonly string[], options: { json: boolean; jobs?: number }, io: CliIo): Promise<number> {
  const read: (Uint8Array | string)[] = []
  for (const path of paths) {
    try {
      read.push(await io.readFile(path))
    } catch (e) {
      read.push(e instanceof Error ? e.message : String(e))
    }
  }
  const readable = read.filter((r): r is Uint8Array => typeof r !== 'string')
  const { verifyAll, defaultJobs } = await import('./verify-pool.js')
  const verified = await verifyAll(readable, options.jobs ?? defaultJobs())
  let at = 0
  const verdicts: TranscriptVerdict[] = read.map((r) =>
    typeof r === 'string' ? { status: 'unreadable', error: { line: 0, error: { code: 'file.io', field: '', rule: '§10', message: r } } } : (verified[at++] as TranscriptVerdict),
  )
  if (paths.length === 1) {
    const [path = '', verdict] = [paths[0], verdicts[0]]
    if (verdict === undefined) return EXIT.unreadable
    const ioError = typeof read[0] === 'string'
    if (options.json) io.stdout(`${JSON.stringify(verdict, null, 2)}\n`)
    else if (ioError) io.stderr(`spaceships verify: cannot read ${path}: ${String(read[0])}\n`)
    else io.stdout(renderVerdict(verdict))
    return exitFor(verdict)
  }
  const codes = verdicts.map(exitFor)
  const count = (status: TranscriptVerdict['status']): number => verdicts.filter((v) => v.status === status).length
  const summary = { transcripts: paths.length, complete: count('complete'), offence: count('offence'), incomplete: count('incomplete'), unreadable: count('unreadable') }
  if (options.json) io.stdout(`${JSON.stringify({ summary, transcripts: paths.map((file, i) => ({ file, verdict: verdicts[i] })) }, null, 2)}\n`)
  else {
    io.stdout(paths.map((file, i) => `${file}: ${verdicts[i] === undefined ? '' : verdictLine(verdicts[i])}\n`).join(''))
    io.stdout(`${summary.transcripts} transcripts: ${summary.complete} complete and honest, ${summary.offence} with an offence, ${summary.incomplete} incomplete, ${summary.unreadable} unreadable\n`)
  }
  return worstExit(codes)
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
