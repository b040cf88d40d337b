/**
 * The games on this machine: `spaceships games` lists them with date, opponent, turn and result;
 * `spaceships export GAME` writes a game as a game record (protocol/GAME-RECORD.md), the format
 * the referee reads, from the setups and records both players revealed at the end (SPEC §7.8).
 */
import { parseInvite } from '../games/spaceships/net/invite.js'
import { readFileSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { formatGameRecord } from '../games/spaceships/referee/file.js'
import { unreceiptedSeqs } from '../games/spaceships/witness/unreceipted.js'
import { formatRuleset } from '../games/spaceships/rules/ruleset.js'
import { formatSetup } from '../games/spaceships/rules/setup.js'
import type { Role } from '../games/spaceships/protocol/messages.js'
import type { SideLog } from '../games/spaceships/verify/log.js'
import { type Verdict, examine, readEvidence } from '../games/spaceships/verify/verify.js'
import { SCREEN_COLUMNS, endedInTurn, outcomeLine, spanText, wrap } from '../games/spaceships/ui/panel.js'
import { parseTranscript } from '../games/spaceships/protocol/file.js'
import { witnessedDue } from '../games/spaceships/verify/witnessed.js'
import { systemClock } from '../core/session/clock.js'
import {
  type GameMeta,
  damagedLine,
  findGame,
  gameDir,
  listGames,
  lockHolder,
  resumable,
  sideOf,
  spaaaceRoot,
} from './games.js'
import { type CliIo, EXIT, UserError, commandName } from './io.js'
import { verdictLine } from './verify.js'
import { type PeerNames, peerNamesFor } from './peer-names.js'

function env(io: CliIo): NodeJS.ProcessEnv {
  return io.env ?? process.env
}

/** Whether a game's invite names a notary (PROTOCOL-4.md §3): a witnessed game, played by check-ins. */
function witnessed(meta: GameMeta): boolean {
  const invite = parseInvite(meta.invite)
  return invite.ok && invite.value.notary !== undefined
}

export function roleOf(meta: GameMeta): Role {
  return sideOf(meta)
}

/** What a game's stored transcript shows: the verdict so far, both sides' parts, the turn reached. */
export interface Progress {
  readonly verdict: Verdict
  readonly logs: Record<Role, SideLog> | undefined
  readonly rulesetText: string | undefined
  /** The last turn both players committed (0 before the first). */
  readonly turn: number
  /** Whose step is next while the game goes on (SPEC §6.3). */
  readonly due?: Role
  /** The turn of the due step, as this file has it (0 while the setups are due). */
  readonly dueTurn?: number
  /** A witnessed game's deadline for that step, in notary time (PROTOCOL-4.md §4.2), once its start is receipted. */
  readonly deadline?: number
  /**
   * A witnessed game's due step as the receipts alone show it (what the notary and the opponent
   * see): its side and deadline. It differs from `due` when envelopes of this file are not receipted.
   */
  readonly receiptedDue?: { readonly side: Role; readonly deadline: number }
  /** Per side, its envelopes this file holds that no receipt names (PROTOCOL-4.md §4.1: they count for nothing yet). */
  readonly unreceipted?: Readonly<Record<Role, number>>
}

export function progressOf(content: string | Uint8Array, name: string): Progress {
  const ev = readEvidence([{ name, content }])
  if (!ev.ok) return { verdict: ev.verdict, logs: undefined, rulesetText: undefined, turn: 0 }
  const { verdict, logs, ruleset, due, dueTurn } = examine(ev.value)
  const turn = logs === undefined ? 0 : Math.min(logs.A.commits.length, logs.B.commits.length)
  const parsed = parseTranscript(content)
  const lines = parsed.ok ? parsed.value.lines.flatMap((l) => (l.bytes === undefined ? [] : [l.bytes])) : []
  const w = parsed.ok ? witnessedDue(lines) : undefined
  const store = { envelopes: () => lines }
  return {
    verdict,
    logs,
    rulesetText: ruleset === undefined ? undefined : formatRuleset(ruleset),
    turn,
    ...(due === undefined ? {} : { due }),
    ...(dueTurn === undefined ? {} : { dueTurn }),
    ...(w?.deadline === undefined || w.side !== due ? {} : { deadline: w.deadline }),
    ...(w?.deadline === undefined ? {} : { receiptedDue: { side: w.side, deadline: w.deadline } }),
    ...(w === undefined
      ? {}
      : { unreceipted: { A: unreceiptedSeqs(store, 'A').length, B: unreceiptedSeqs(store, 'B').length } }),
  }
}

function storedProgress(meta: GameMeta, io: CliIo): Progress | undefined {
  try {
    return progressOf(readFileSync(join(gameDir(meta.id, env(io)), 'transcript')), meta.id)
  } catch {
    return undefined
  }
}

interface GameRow {
  readonly id: string
  readonly created: string | undefined
  readonly kind: 'play' | 'host' | 'join'
  readonly you: Role
  readonly opponent: string | undefined
  /** The name the opponent sent (SPEC §2.4 kind 6): its own claim. */
  readonly opponentName: string | undefined
  /** The name this player pinned to the opponent's key, which wins over the one it sent. */
  readonly pinnedName: string | undefined
  /** The last turn both players committed (0 before the first). */
  readonly turn: number
  /**
   * A game going on: the step due next as this file has it (the text's "in turn 2, your step"):
   * its turn (0 while the setups are due) and whose it is; a witnessed game's deadline for it in
   * notary time, once its start is receipted (PROTOCOL-4.md §4.2).
   */
  readonly step?: { readonly turn: number; readonly yours: boolean; readonly deadline?: string }
  /** `provisional`: finished on this machine with a result `resume` can still settle (SPEC §12.7). */
  readonly state: 'finished' | 'provisional' | 'resumable' | 'interrupted' | 'waiting'
  readonly result: string
  /** The verdict's status (SPEC §12.8), as `spaceships verify` reports it. */
  readonly status: string
  /** This machine's copy of the game's transcript. */
  readonly transcript: string
}

/**
 * A witnessed game going on (PROTOCOL-4.md §4): whose step is next, with the time left before its
 * deadline in notary time, and what a check-in does: play one's move, or claim the win on time.
 */
function witnessedRow(p: Progress | undefined, you: Role, checkIn: string): string {
  // PROTOCOL-4.md §4.1: what the notary has not receipted counts for nothing. A move signed here
  // and never deposited (a check-in that could not reach the notary) leaves this side due for the
  // notary and the opponent, whatever this file's own envelopes say.
  const mine = p?.unreceipted?.[you] ?? 0
  if (mine > 0)
    return `YOUR MOVE IS NOT DEPOSITED (${mine === 1 ? 'an envelope' : `${mine} envelopes`} of yours the notary has not receipted, which your opponent cannot see): check in to deposit ${mine === 1 ? 'it' : 'them'}: ${checkIn}`
  const left = p?.deadline === undefined ? undefined : p.deadline - systemClock.now()
  if (p?.due === you)
    return left === undefined
      ? `YOUR MOVE: ${checkIn}`
      : left > 0
        ? `YOUR MOVE, ${spanText(left)} left: ${checkIn}`
        : `YOUR MOVE, past its deadline (your opponent may claim the win on time): ${checkIn}`
  if (left !== undefined && left <= 0)
    return `their move, past its deadline: check in to claim the win on time: ${checkIn}`
  // What this machine last fetched: the other side may have moved since, which only a check-in sees.
  return `their move as of your last check-in${left === undefined ? '' : `, ${spanText(left)} left`} (witnessed; check in: ${checkIn})`
}

/**
 * A game's row, and when it is at or ended for the list: "turn 4", or for a game that stopped
 * before its end the words of its result ("stopped in turn 3", as its end screen says).
 */
function rowOf(meta: GameMeta, io: CliIo, names: PeerNames): { readonly row: GameRow; readonly when: string } {
  const you = roleOf(meta)
  const p = storedProgress(meta, io)
  const kind = meta.against !== undefined ? 'play' : meta.role
  const opponent = meta.against !== undefined ? `the ${meta.against} bot` : meta.opponent
  const state =
    meta.finished !== undefined
      ? meta.provisional === true
        ? 'provisional'
        : 'finished'
      : resumable(meta)
        ? meta.opponent === undefined
          ? 'waiting'
          : 'resumable'
        : 'interrupted'
  const settle = state === 'provisional' ? ` Settle it: ${commandName(env(io))} resume ${meta.id.slice(0, 8)}` : ''
  const result =
    (meta.result === undefined ? undefined : meta.result + settle) ??
    (meta.finished !== undefined && p !== undefined
      ? outcomeLine(p.verdict, you)
      : state === 'waiting'
        ? 'waiting for the opponent to join'
        : state === 'resumable' && witnessed(meta)
          ? // A game across days (PROTOCOL-4.md §4): whose step is next, and how to take one's own.
            witnessedRow(p, you, `${commandName(env(io))} resume ${meta.id.slice(0, 8)} --check-in`)
          : state === 'resumable' && lockHolder(gameDir(meta.id, env(io))) !== undefined
            ? // Its own process holds it now (games.ts lockGame): resuming it here would be refused.
              `being played now, by process ${lockHolder(gameDir(meta.id, env(io))) ?? ''} on this machine`
            : state === 'resumable'
              ? `unfinished: ${commandName(env(io))} resume ${meta.id.slice(0, 8)}`
              : kind === 'play'
                ? 'interrupted; a game against the bot cannot be resumed'
                : meta.finished === undefined && meta.invite !== ''
                  ? `cannot go on here (another protocol version?): ${commandName(env(io))} resume ${meta.id.slice(0, 8)} says why`
                  : 'interrupted before it began')
  const turn = p?.turn ?? 0
  const row: GameRow = {
    id: meta.id,
    created: meta.created,
    kind,
    you,
    opponent,
    opponentName: meta.against === undefined ? meta.opponentName : undefined,
    pinnedName: meta.against !== undefined || meta.opponent === undefined ? undefined : names.pinnedAs(meta.opponent),
    turn,
    ...(meta.finished !== undefined || p?.due === undefined || p.dueTurn === undefined
      ? {}
      : {
          step: {
            turn: p.dueTurn,
            yours: p.due === you,
            ...(p.deadline === undefined ? {} : { deadline: new Date(p.deadline).toISOString() }),
          },
        }),
    state,
    result,
    status: p?.verdict.status ?? 'incomplete',
    transcript: join(gameDir(meta.id, env(io)), 'transcript'),
  }
  // A game going on is at the turn its due step is in, with whose step that is (as this file has it:
  // the other side's file can be a step ahead or behind while an envelope is on its way).
  const going =
    p?.due === undefined || p.dueTurn === undefined
      ? `turn ${turn}`
      : `${p.dueTurn === 0 ? 'setting up' : `in turn ${p.dueTurn}`}, ${p.due === you ? 'your step' : 'their step'}`
  return { row, when: (meta.finished === undefined ? undefined : p && endedInTurn(p.verdict)) ?? going }
}

/** Where `games` writes a game's result, under its id. */
const RESULT_INDENT = ' '.repeat(10)

/** How long `games` gives the other side of each provisional game to be met (SPEC §12.7). */
export const GAMES_SETTLE_MS = 3_000

/**
 * `spaceships games`: first meets, for a few seconds, the other side of each game whose result
 * here is provisional (settle.ts), then lists every game.
 */
export async function gamesSettling(io: CliIo, opts: { json?: boolean; all?: boolean }): Promise<number> {
  const provisional = listGames(env(io)).games.filter((m) => m.provisional === true).length
  if (provisional > 0) {
    const [{ settleProvisional }, { loadOrCreateIdentity, defaultIdentityPath }] = await Promise.all([
      import('./settle.js'),
      import('../core/net/identity.js'),
    ])
    if (opts.json !== true)
      io.stderr(
        `meeting the other side of ${provisional} provisional game${provisional === 1 ? '' : 's'} (up to ${GAMES_SETTLE_MS / 1000} s)...\n`,
      )
    const { identity } = await loadOrCreateIdentity(defaultIdentityPath(env(io)))
    await settleProvisional(io, identity, GAMES_SETTLE_MS)
  }
  return gamesCommand(io, opts)
}

export function gamesCommand(io: CliIo, opts: { json?: boolean; all?: boolean }): number {
  const { games, damaged } = listGames(env(io))
  const names = peerNamesFor(io)
  const listed = games.map((m) => rowOf(m, io, names))
  const rows = listed.map((l) => l.row)
  if (opts.json === true) {
    // A damaged game is a row of its own kind: its id, where it is and what is wrong.
    const broken = damaged.map((d) => ({ id: d.id, state: 'damaged' as const, problem: d.problem, dir: d.dir }))
    io.stdout(`${JSON.stringify([...rows, ...broken], null, 2)}\n`)
    return EXIT.ok
  }
  // Spaaace! games have a list of their own: named here, so that "no games" is never said of a
  // machine that holds some.
  const spaaace = spaaaceGameCount(env(io))
  const others =
    spaaace === 0
      ? ''
      : `${spaaace} Spaaace! game${spaaace === 1 ? ' is' : 's are'} listed by: ${commandName(env(io))} spaaace games\n`
  if (rows.length === 0 && damaged.length === 0) {
    io.stdout(`No games on this machine yet. Play one: ${commandName(env(io))} play\n${others}`)
    return EXIT.ok
  }
  for (const d of damaged) io.stdout(`${d.id.slice(0, 8)}  damaged\n          ${damagedLine(d)}\n`)
  for (const { row: r, when } of listed) {
    const date = r.created === undefined ? '(no date)       ' : r.created.slice(0, 16).replace('T', ' ')
    // By the name pinned to its key, or its own claim, beside its PeerId's tail (SPEC §2.4 kind 6).
    const against = r.opponent === undefined ? 'nobody yet' : (names.label(r.opponent, r.opponentName) ?? r.opponent)
    // The result fits the screen's width; the command that settles a provisional one on a line of its own.
    const [said = '', settle] = r.result.split(/ (?=Settle it: )/)
    const result = wrap(`${RESULT_INDENT}${said}`, SCREEN_COLUMNS, RESULT_INDENT)
    io.stdout(
      `${r.id.slice(0, 8)}  ${date}  ${r.kind.padEnd(4)} you ${r.you} vs ${against}, ${when}\n${result}\n${settle === undefined ? '' : `${RESULT_INDENT}${settle}\n`}`,
    )
  }
  io.stdout(`\nA game's record for the referee: ${commandName(env(io))} export ID\n${others}`)
  return EXIT.ok
}

/** How many Spaaace! game directories this machine holds (`spaaace games` reads them). */
function spaaaceGameCount(e: NodeJS.ProcessEnv): number {
  try {
    return readdirSync(spaaaceRoot(e), { withFileTypes: true }).filter((d) => d.isDirectory()).length
  } catch {
    return 0
  }
}

/** The game record of a game both players revealed: ruleset, setups and every turn's records. */
export function gameRecordOf(p: Progress, comment: readonly string[]): string {
  const reveals = [p.logs?.A.reveal, p.logs?.B.reveal] as const
  const [a, b] = reveals
  if (a === undefined || b === undefined || p.rulesetText === undefined) {
    const n = reveals.filter((r) => r !== undefined).length
    const missing = (['A', 'B'] as const).filter((_, i) => reveals[i] === undefined).join(' and ')
    throw new UserError(
      `this game ended ${verdictLine(p.verdict)}; a game record needs both players' setups and records, which they reveal, and ${missing} never revealed here (${n} of the 2 reveals)`,
    )
  }
  const turns = Math.min(a.records.length, b.records.length)
  const text = formatGameRecord({
    rulesetText: p.rulesetText,
    match: 'single',
    players: ['A', 'B'],
    games: [
      {
        index: 1,
        line: 0,
        setups: [formatSetup(a.setup), formatSetup(b.setup)],
        setupLines: [0, 0],
        turns: Array.from({ length: turns }, (_, i) => ({
          turn: i + 1,
          line: 0,
          records: [a.records[i] ?? '', b.records[i] ?? ''] as const,
          recordLines: [0, 0] as const,
        })),
      },
    ],
  })
  const [magic, ...rest] = text.split('\n')
  return [magic, ...comment.map((c) => `# ${c}`), ...rest].join('\n')
}

/** `spaceships export GAME|FILE [--out F]`: the game record of a game on this machine or of a transcript. */
export async function exportCommand(io: CliIo, ref: string, opts: { out?: string }): Promise<number> {
  let content: Uint8Array | undefined
  let source = ref
  try {
    content = await io.readFile(ref)
  } catch {
    const meta = findGame(ref, env(io))
    source = `game ${meta.id}`
    if (meta.finished === undefined && resumable(meta))
      throw new UserError(
        `game ${meta.id.slice(0, 8)} is not finished; carry it on with ${commandName(env(io))} resume ${meta.id.slice(0, 8)}`,
      )
    try {
      content = readFileSync(join(gameDir(meta.id, env(io)), 'transcript'))
    } catch {
      throw new UserError(`game ${meta.id} has no transcript yet: it never began`)
    }
  }
  const p = progressOf(content, source)
  // The record format has no turn limit: a game ended by the agreed limit reads to the referee as
  // one that stops before its end (GAME-RECORD.md), so the record says so where a reader sees it.
  const limit =
    p.verdict.status === 'complete' && p.verdict.reason === 'turn-limit'
      ? [
          `the game ended at the agreed limit of ${p.verdict.turn} turns: ${p.verdict.scores[0]}-${p.verdict.scores[1]}; the referee, knowing no limit, reads it as stopped before its end`,
        ]
      : []
  // A game that did not reach its end (resigned, adjudicated) reads to the referee as legal so
  // far: the record says how it ended, from the verifier, where a reader sees it.
  const ended =
    p.verdict.status === 'complete'
      ? []
      : [
          `how it ended: ${verdictLine(p.verdict)}; the referee, which reads only moves, sees a game that stops before its end`,
        ]
  const record = gameRecordOf(p, [
    `exported from ${source}; the verifier's verdict: ${p.verdict.status}`,
    ...limit,
    ...ended,
  ])
  if (opts.out === undefined) io.stdout(record)
  else {
    // Never replaces another file (as play --out): the same record again is left as it is.
    const existing = await io.readFile(opts.out).then(
      (b) => new TextDecoder().decode(b),
      () => undefined,
    )
    if (existing !== undefined && existing !== record)
      throw new UserError(
        `--out: ${opts.out} already exists and holds something else (another game's record?); choose another file or move that one away`,
        EXIT.cannotCreate,
      )
    if (existing === undefined) await io.writeFile(opts.out, record)
    io.stdout(
      `Wrote ${opts.out} (${p.turn} turn${p.turn === 1 ? '' : 's'}). Adjudicate it: ${commandName(env(io))} referee ${opts.out}\n`,
    )
    for (const note of [...limit, ...ended]) io.stdout(`Note: ${note}.\n`)
  }
  return EXIT.ok
}
