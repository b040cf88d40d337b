/**
 * `spaceships show FILE|ID...`: a finished game replayed turn by turn from one side, drawn exactly as
 * the live game drew it (own space from the revealed setup and records, the opponent's space from
 * what the wire told this side). Several files of one game are read together.
 */
import { playTurn, startGame, type GameState } from '../games/spaceships/rules/game.js'
import { readRecord } from '../games/spaceships/rules/legality.js'
import type { TurnSummary } from '../games/spaceships/session/strategy.js'
import { noFlashcube } from '../games/spaceships/session/wire.js'
import type { Role } from '../games/spaceships/protocol/messages.js'
import { examine, readEvidence } from '../games/spaceships/verify/verify.js'
import { colourEnabled, painter, renderBoards, turnReport } from '../games/spaceships/ui/terminal.js'
import { ownMarks, renderSpace } from '../games/spaceships/ui/board.js'
import { SCREEN_COLUMNS, fleetShipNames, wrap } from '../games/spaceships/ui/panel.js'
import { join } from 'node:path'
import { findGame, gameDir } from './games.js'
import { type CliIo, EXIT, UserError } from './io.js'
import { exitFor, gameTranscripts, renderVerdict } from './verify.js'
import { isSpaaaceTranscript } from '../games/spaaace/verify/verify.js'

/**
 * A transcript file, or, when no file has that name, the transcript of the game on this machine
 * that the name identifies (its id or a prefix, as `games` prints it); or why neither, in words.
 */
async function readTranscript(io: CliIo, path: string): Promise<{ name: string; content: Uint8Array } | string> {
  try {
    return { name: path, content: await io.readFile(path) }
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code !== 'ENOENT') return `cannot read ${path}: ${code ?? (e as Error).message}`
  }
  try {
    const meta = findGame(path, io.env ?? process.env)
    const file = join(gameDir(meta.id, io.env ?? process.env), 'transcript')
    return { name: file, content: await io.readFile(file) }
  } catch (e) {
    if (e instanceof UserError) return e.message
    const code = (e as NodeJS.ErrnoException).code
    return code === 'ENOENT'
      ? `game ${path} has no transcript yet: it never began`
      : `cannot read ${path}: ${code ?? (e as Error).message}`
  }
}

export async function showCommand(
  io: CliIo,
  paths: readonly string[],
  opts: { as: string; turn?: number },
): Promise<number> {
  const files: { name: string; content: Uint8Array }[] = []
  for (const path of paths) {
    const read = await readTranscript(io, path)
    if (typeof read === 'string') {
      // A Spaaace! game as `spaaace games` prints its id: the transcripts of its directory.
      const mine = await gameTranscripts(io, path)
      if (mine.length === 0) {
        io.stderr(`spaceships show: ${read}\n`)
        return EXIT.unreadable
      }
      files.push(...mine)
      continue
    }
    files.push(read)
  }
  // Spaaace! files: replayed tick by tick from a seat (show-spaaace.ts).
  const texts = files.map((f) => ({ name: f.name, text: Buffer.from(f.content).toString('latin1') }))
  if (texts.some((f) => isSpaaaceTranscript(f.text))) {
    if (!texts.every((f) => isSpaaaceTranscript(f.text))) {
      io.stderr('spaceships show: Spaaace! and Spaceships transcripts are shown one game at a time\n')
      return EXIT.usage
    }
    return (await import('./show-spaaace.js')).showSpaaace(io, texts, opts)
  }
  const as = opts.as.toUpperCase()
  if (as !== 'A' && as !== 'B') {
    io.stderr('spaceships show: --as must be A or B (for a Spaaace! game, a seat: p1, p2, ...)\n')
    return EXIT.usage
  }
  const me: Role = as
  const them: Role = me === 'A' ? 'B' : 'A'
  const ev = readEvidence(files)
  if (!ev.ok) {
    io.stdout(renderVerdict(ev.verdict))
    return EXIT.unreadable
  }
  const { verdict, logs, ruleset } = examine(ev.value)
  const reveals = [logs?.A.reveal, logs?.B.reveal] as const
  if (logs === undefined || ruleset === undefined || reveals[0] === undefined || reveals[1] === undefined) {
    io.stdout(
      `show needs both players' reveals, and these files hold ${reveals.filter((r) => r !== undefined).length}. The verifier says:\n${renderVerdict(verdict)}`,
    )
    return exitFor(verdict)
  }
  const written = (r: NonNullable<(typeof reveals)[number]>) =>
    r.setup.map((s) => ({ type: s.type, id: s.id, cells: s.cells, text: `${s.type}${s.id}` }))
  const started = startGame(ruleset, [written(reveals[0]), written(reveals[1])])
  if (!started.ok) {
    io.stdout(renderVerdict(verdict))
    return exitFor(verdict)
  }
  const only = opts.turn
  const k = me === 'A' ? 0 : 1
  // The opponent's ships named as their revealed setup names them (C-05), not as the wire carries them.
  const theirName = fleetShipNames((me === 'A' ? reveals[1] : reveals[0]).setup)
  const paint = painter(colourEnabled(io.env ?? process.env, io.isTty ?? false))
  const history: TurnSummary[] = []
  let game: GameState = started.value
  const turns = Math.min(reveals[0].records.length, reveals[1].records.length)
  if (opts.turn !== undefined && opts.turn > turns) {
    io.stderr(`spaceships show: --turn: this game has ${turns} turn${turns === 1 ? '' : 's'}\n`)
    return EXIT.usage
  }
  io.stdout(
    `Game seen by ${me} (${me === 'A' ? 'the host' : 'the joiner'}), ${ruleset.variant} rules, ${turns} turn${turns === 1 ? '' : 's'}.\n`,
  )
  for (let turn = 1; turn <= turns; turn++) {
    const ra = readRecord(ruleset, game.players[0], turn, reveals[0].records[turn - 1] ?? '', 'strict')
    const rb = readRecord(ruleset, game.players[1], turn, reveals[1].records[turn - 1] ?? '', 'strict')
    const mine = logs[me].aspects[turn - 1]
    const theirs = logs[them].aspects[turn - 1]
    const theirResults = logs[them].results[turn - 1]
    const myResults = logs[me].results[turn - 1]
    if (
      !ra.ok ||
      !rb.ok ||
      mine === undefined ||
      theirs === undefined ||
      theirResults === undefined ||
      myResults === undefined
    )
      break
    const next = playTurn(game, [ra.value.actions, rb.value.actions])
    if (!next.ok) break
    history.push({
      turn,
      myAspects: mine,
      theirAspects: theirs,
      theirResults,
      myReports: myResults.destroyed,
      myResults,
      theirFlashcube: logs[them].flashcubes.get(turn) ?? noFlashcube(turn),
    })
    game = next.value.game
    if (only !== undefined && turn !== only) continue
    io.stdout(
      `\n${turnReport(history[history.length - 1] as TurnSummary, game.players[k], theirName)
        .map((l) => wrap(l, Math.min(SCREEN_COLUMNS, io.columns ?? SCREEN_COLUMNS)))
        .join('\n')}\n${renderBoards({ state: game.players[k], history }, paint, io.columns)}\n`,
    )
  }
  io.stdout(
    `\n${renderSpace('Their fleet, as they revealed it (where each ship was placed)', ownMarks(started.value.players[k === 0 ? 1 : 0]), paint, io.columns).join('\n')}\n`,
  )
  io.stdout(`\n${renderVerdict(verdict)}`)
  return exitFor(verdict)
}
