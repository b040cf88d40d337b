/** `spaceships verify FILE...` and `spaceships selfplay`: audit transcripts; make one from a bot game. */
import { type Ruleset, formatRuleset, parseRuleset } from '../games/spaceships/rules/ruleset.js'
import { describeProtocolError } from '../core/wire/errors.js'
import { DEFAULT_TERMS, type Terms } from '../games/spaceships/protocol/messages.js'
import type { Verdict } from '../games/spaceships/verify/verify.js'
import { isSpaaaceTranscript } from '../games/spaaace/peers/domain.js'
import { type CliIo, EXIT, UserError, cannotWrite, fileReason } from './io.js'

/** SPEC §12.8: the exit status of a verdict. */
export function exitFor(v: Verdict): number {
  switch (v.status) {
    case 'complete':
    case 'resigned':
      return EXIT.ok
    case 'offence':
      return EXIT.illegal
    case 'unreadable':
      return EXIT.unreadable
    case 'incomplete':
      return EXIT.incomplete
    case 'abandoned':
      return EXIT.abandoned
    case 'adjudicated':
      return EXIT.adjudicated
  }
}

const winnerText = (w: string): string => (w === 'draw' ? 'a draw' : `${w} wins`)

/**
 * SPEC §12.7, last paragraph: what a provisional result may still become. Someone editing a file
 * without a key can only remove evidence, so this is also all that such an edit can have done.
 */
export function provisionalNote(v: Verdict & { status: 'abandoned' | 'resigned' }): string {
  // Rule 7 rests on the loser's reveal being absent, rules 5 and 6 on the winner's stop (SPEC §12.7).
  if (v.status === 'resigned')
    return `provisional: it rests on ${v.winner}'s stop being absent from these files; ${v.winner}'s own file, or its node met again, can show a resignation that crossed this one, which makes it an adjudication, never an offence`
  const holder = v.how === 'no-reveal' ? v.by : v.winner
  const could = v.how === 'no-reveal' ? 'an adjudication' : `${v.winner}'s resignation`
  return `provisional: it rests on ${holder}'s ${v.how === 'no-reveal' ? 'reveal' : 'stop'} being absent from these files; ${holder}'s own file, or its node met again, can turn it into ${could}, never into an offence`
}

/** How a side abandoned (SPEC §12.7 rules 6 and 7; PROTOCOL-4.md §4.4 rules 5 and 8). */
function abandonedHow(v: Verdict & { status: 'abandoned' }): string {
  switch (v.how) {
    case 'time':
      return `${v.by} lost on time`
    case 'no-reveal':
      return 'its reveal is not in these files'
    case 'stopped':
      return v.witnessed === undefined ? 'stopped while owing its envelope' : 'stopped of its own accord'
  }
}

/**
 * PROTOCOL-4.md §4.1, §4.4: what a witnessed game's verdict rests on, in one line: results 5, 6
 * and 8 on the notary's receipts, final unless it signs a conflicting one; an outage or a notary
 * fault decides it as unwitnessed; result 9 waits for the seal.
 */
export function witnessedLine(v: Verdict): string | undefined {
  if (v.status === 'unreadable' || v.witnessed === undefined) return undefined
  const w = v.witnessed
  if (w.unwitnessed !== undefined) return `witnessed, decided as unwitnessed: ${w.unwitnessed}`
  if (w.final) return `witnessed: decided by the notary's receipts, final unless the notary signs a conflicting receipt`
  if (w.result === 9 && !w.sealed) return 'witnessed: provisional until the notary seals its log'
  return undefined
}

/** The verdict in one line (several transcripts at once) or a few (one game). */
export function verdictLine(v: Verdict): string {
  switch (v.status) {
    case 'complete':
      return `complete: the game ended after turn ${v.turn} (${v.reason.replace('-', ' ')}); A ${v.scores[0]}, B ${v.scores[1]}: ${winnerText(v.winner)}`
    case 'resigned':
      return `resigned: ${v.by} resigned in turn ${v.turn}: ${v.winner} wins${v.provisional ? ', provisionally' : ''}`
    case 'offence':
      return `offence by ${v.offence.offender}: ${v.offence.class} in turn ${v.offence.turn} (${v.offence.rule}): ${v.offence.offender} forfeits, ${v.winner} wins`
    case 'abandoned':
      return `abandoned by ${v.by} in turn ${v.turn} (${abandonedHow(v)}): ${v.winner} wins${v.provisional ? ', provisionally' : ''}`
    case 'adjudicated': {
      const who = v.stoppedBy.length === 0 ? 'both revealed' : `stopped by ${v.stoppedBy.join(' and ')}`
      const due = v.due === undefined ? '' : ` while ${v.due} owed its next envelope`
      return `adjudicated (${who} in turn ${v.stopTurn}${due}; scored on the ${v.turn} turn${v.turn === 1 ? '' : 's'} both committed): A ${v.scores[0]}, B ${v.scores[1]}: ${winnerText(v.winner)}`
    }
    case 'incomplete':
      return `incomplete: ${v.detail}`
    case 'unreadable':
      return v.error.error.code === 'file.io'
        ? `unreadable: cannot read ${v.file}: ${v.error.error.message}`
        : `unreadable: ${v.file === '' ? '' : `${v.file}: `}line ${v.error.line}: ${describeProtocolError(v.error.error)}${
            // The file is of neither kind: the other kind's first line too (the verifier knows only its own).
            v.error.error.code === 'file.header' ? ' (a Spaaace! transcript starts with "spaaace-transcript 1")' : ''
          }`
  }
}

/** What a person reads: the verdict, the evidence it rests on, and what was set aside. */
export function renderVerdict(v: Verdict): string {
  const lines = [verdictLine(v)]
  if (v.status === 'offence') {
    const o = v.offence
    lines.push(`  ${o.detail}${o.seq === undefined ? '' : ` (${o.offender}'s envelope ${o.seq})`}`)
  }
  if (v.status === 'abandoned' || v.status === 'adjudicated') lines.push(`  ${v.detail}`)
  if ((v.status === 'abandoned' || v.status === 'resigned') && v.provisional) lines.push(`  ${provisionalNote(v)}`)
  const witnessed = witnessedLine(v)
  if (witnessed !== undefined) lines.push(`  ${witnessed}`)
  if (v.status !== 'unreadable') {
    if (v.game !== undefined) lines.push(`  game ${v.game}`)
    const shown = v.notes.slice(0, 8)
    for (const n of shown) lines.push(`  note: ${n}`)
    if (v.notes.length > shown.length) lines.push(`  note: ${v.notes.length - shown.length} more lines set aside`)
  }
  return lines.join('\n') + '\n'
}

/** Several games' exit status: the first of unreadable, offence, incomplete, abandoned, adjudicated that occurs, else ok. */
export function worstExit(codes: readonly number[]): number {
  for (const c of [EXIT.unreadable, EXIT.illegal, EXIT.incomplete, EXIT.abandoned, EXIT.adjudicated])
    if (codes.includes(c)) return c
  return EXIT.ok
}

export async function verifyCommand(
  paths: readonly string[],
  options: { json: boolean; jobs?: number; separate?: boolean },
  io: CliIo,
): Promise<number> {
  const files: { name: string; content: Uint8Array | undefined; error: string | undefined }[] = []
  for (const path of paths) {
    try {
      files.push({ name: path, content: await io.readFile(path), error: undefined })
    } catch (e) {
      // No such file, but a game of this machine by that id (as games prints it): its transcript,
      // as show and export take it.
      const mine = (e as NodeJS.ErrnoException).code === 'ENOENT' ? await gameTranscripts(io, path) : []
      if (mine.length > 0) {
        for (const m of mine) files.push({ ...m, error: undefined })
        continue
      }
      files.push({
        name: path,
        content: undefined,
        error:
          (e as NodeJS.ErrnoException).code !== undefined
            ? fileReason((e as NodeJS.ErrnoException).code ?? '')
            : e instanceof Error
              ? e.message
              : String(e),
      })
    }
  }
  // Spaaace! transcripts (protocol/SPAAACE-PEERS.md §13) are decided by their own verifier.
  const head = (f: (typeof files)[number]): string => (f.content === undefined ? '' : latin1(f.content.subarray(0, 32)))
  const spaaace = files.filter((f) => isSpaaaceTranscript(head(f)))
  if (spaaace.length > 0) {
    if (files.some((f) => head(f).startsWith(SPACESHIPS_PREFIX)))
      throw new UserError('verify Spaaace! transcripts and Spaceships transcripts in separate runs')
    // A file that is neither (unreadable, empty, not a transcript) is unreadable beside them, not a
    // reason to decide nothing (it had refused the whole run with a usage error).
    const unreadable = files
      .filter((f) => !spaaace.includes(f))
      .map((f) => ({ name: f.name, reason: f.error ?? notATranscript(f.content ?? new Uint8Array()) }))
    // Loaded only for Spaaace! files: a Spaceships verification starts without them.
    const { spaaaceVerify } = await import('./verify-spaaace.js')
    return spaaaceVerify(
      spaaace.map((f) => ({ name: f.name, text: latin1(f.content ?? new Uint8Array()) })),
      options,
      io,
      unreadable,
    )
  }
  const { groupByGame, verifyGroups, defaultJobs } = await import('../games/spaceships/pool/verify-pool.js')
  const readable = files.flatMap((f) => (f.content === undefined ? [] : [{ name: f.name, content: f.content }]))
  // One file is one game: nothing to group, and it is read once.
  const groups = options.separate === true || readable.length <= 1 ? readable.map((f) => [f]) : groupByGame(readable)
  const verdicts = await verifyGroups(groups, options.jobs ?? defaultJobs())
  const results: { files: string[]; verdict: Verdict }[] = [
    ...files.flatMap((f) =>
      f.error === undefined
        ? []
        : [
            {
              files: [f.name],
              verdict: {
                status: 'unreadable' as const,
                file: f.name,
                error: { line: 0, error: { code: 'file.io' as const, field: '', rule: '§11', message: f.error } },
              },
            },
          ],
    ),
    ...groups.map((g, i) => ({ files: g.map((f) => f.name), verdict: verdicts[i] as Verdict })),
  ]
  const codes = results.map((r) => exitFor(r.verdict))
  if (results.length === 1) {
    const r = results[0]
    if (r === undefined) return EXIT.unreadable
    if (options.json) io.stdout(`${JSON.stringify({ files: r.files, verdict: r.verdict }, null, 2)}\n`)
    else if (r.verdict.status === 'unreadable' && r.verdict.error.error.code === 'file.io')
      io.stderr(`spaceships verify: cannot read ${r.verdict.file}: ${r.verdict.error.error.message}\n`)
    else io.stdout((r.files.length > 1 ? `${r.files.join(' + ')}: one game\n` : '') + renderVerdict(r.verdict))
    return exitFor(r.verdict)
  }
  const count = (s: Verdict['status']): number => results.filter((r) => r.verdict.status === s).length
  // With --separate one game's two files are two decisions of one game: games counts games. A file
  // that cannot be read, or does not frame, is of no game we know: it is counted as unreadable, not as a game.
  const games = new Set(
    results.flatMap((r) =>
      r.verdict.status === 'unreadable'
        ? []
        : [r.verdict.game !== undefined ? r.verdict.game : `file:${r.files.join('+')}`],
    ),
  ).size
  const summary = {
    games,
    decisions: results.length,
    files: paths.length,
    complete: count('complete'),
    resigned: count('resigned'),
    offence: count('offence'),
    abandoned: count('abandoned'),
    adjudicated: count('adjudicated'),
    incomplete: count('incomplete'),
    unreadable: count('unreadable'),
  }
  if (options.json) io.stdout(`${JSON.stringify({ summary, games: results }, null, 2)}\n`)
  else {
    io.stdout(results.map((r) => `${r.files.join(' + ')}: ${verdictLine(r.verdict)}\n`).join(''))
    const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`
    const what =
      options.separate === true
        ? `${summary.files} files decided one by one (${plural(summary.games, 'game')})`
        : `${plural(summary.games, 'game')} in ${summary.files} files`
    io.stdout(
      `${what}: ${summary.complete} complete, ${summary.resigned} resigned, ${summary.offence} with an offence, ${summary.abandoned} abandoned, ${summary.adjudicated} adjudicated, ${summary.incomplete} incomplete, ${summary.unreadable} unreadable\n`,
    )
  }
  return worstExit(codes)
}

export { DEFAULT_TERMS }

/**
 * Two random legal bots play a whole game in memory with the full protocol; the transcript is
 * written to `out`. With a seed, keys, salts and moves are all derived from it (a reproducible
 * demo, never for real play); without, they come from the system's CSPRNG.
 */
export async function selfplayCommand(
  options: { seed?: string; out: string; ruleset: string; json: boolean },
  io: CliIo,
): Promise<number> {
  const parsed = parseRuleset(options.ruleset)
  if (!parsed.ok) {
    io.stderr(`spaceships selfplay: --ruleset: ${parsed.error.message}\n`)
    return EXIT.usage
  }
  const ruleset: Ruleset = parsed.value
  const terms: Terms = { ...DEFAULT_TERMS, ruleset: formatRuleset(ruleset) }
  // The session and the bots load here, not with `verify` (its cold start).
  const [
    { generateKeyPair },
    { seededSecrets, systemSecrets },
    { seededRandom },
    { memoryChannelPair },
    { runSession },
    { randomStrategy },
    { formatTranscript, memoryStore },
  ] = await Promise.all([
    import('../core/commit/keys.js'),
    import('../core/commit/secrets.js'),
    import('../games/spaceships/rules/rng.js'),
    import('../core/session/channel.js'),
    import('../games/spaceships/session/session.js'),
    import('../games/spaceships/session/strategy.js'),
    import('../games/spaceships/protocol/file.js'),
  ])
  const pair = memoryChannelPair()
  const side = (role: 'A' | 'B', k: 0 | 1) => {
    const secrets = options.seed === undefined ? systemSecrets : seededSecrets(`${options.seed}/${role}`)
    const botSeed =
      options.seed === undefined ? Array.from(systemSecrets.bytes(8)).join('.') : `${options.seed}/${role}/bot`
    return runSession({
      role,
      keys: generateKeyPair(secrets),
      terms,
      secrets,
      store: memoryStore(),
      channel: pair.ends[k],
      strategy: randomStrategy(seededRandom(botSeed)),
    })
  }
  const [a] = await Promise.all([side('A', 0), side('B', 1)])
  try {
    await io.writeFile(options.out, formatTranscript(a.transcript))
  } catch (e) {
    throw cannotWrite('--out', options.out, e)
  }
  io.stdout(
    options.json
      ? `${JSON.stringify({ transcript: options.out, verdict: a.verdict }, null, 2)}\n`
      : `transcript (A's copy): ${options.out}\n${renderVerdict(a.verdict)}`,
  )
  return exitFor(a.verdict)
}

/** The first line's word of every Spaceships transcript (SPEC §11). */
const SPACESHIPS_PREFIX = 'spaceships-transcript '

/** Why a file that is neither kind of transcript is none, naming both first lines. */
function notATranscript(content: Uint8Array): string {
  const both = `"${SPACESHIPS_PREFIX}4" (Spaceships) or "spaaace-transcript 1" (Spaaace!)`
  if (content.length === 0) return `an empty file; a transcript starts with ${both}`
  if (!content.includes(0x0a))
    return `no whole line (no line feed in ${content.length} bytes); a transcript starts with ${both} and a line feed`
  return `not a transcript: the first line must be ${both}`
}

const latin1 = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1')

/** The transcript of this machine's game `ref` (its id or a prefix), when there is exactly one. */
export async function gameTranscripts(io: CliIo, ref: string): Promise<{ name: string; content: Uint8Array }[]> {
  const env = io.env ?? process.env
  const path = await import('node:path')
  if (/^[0-9a-f]{4,32}$/.test(ref)) {
    const { findGame, gameDir } = await import('./games.js')
    try {
      const meta = findGame(ref, env)
      const name = path.join(gameDir(meta.id, env), 'transcript')
      return [{ name, content: await io.readFile(name) }]
    } catch {
      // not a Spaceships game of this machine: perhaps a Spaaace! one
    }
  }
  // A Spaaace! game as `spaaace games` prints its id (or the id's start): every transcript of its
  // directory, the player's and its bots', one game (SPAAACE-PEERS §13).
  if (!/^[A-Za-z0-9_-]{4,43}$/.test(ref)) return []
  const { readdirSync } = await import('node:fs')
  const { spaaaceRoot } = await import('./games.js')
  const root = spaaaceRoot(env)
  let dirs: string[]
  try {
    dirs = readdirSync(root).filter((d) => d.startsWith(ref))
  } catch {
    return []
  }
  const dir = dirs.length === 1 ? path.join(root, dirs[0] ?? '') : undefined
  if (dir === undefined) return []
  const out: { name: string; content: Uint8Array }[] = []
  for (const f of readdirSync(dir)
    .filter((x) => /^p\d+\.transcript$/.test(x))
    .sort()) {
    const name = path.join(dir, f)
    out.push({ name, content: await io.readFile(name) })
  }
  return out
}
