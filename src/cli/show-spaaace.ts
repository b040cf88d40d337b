/**
 * `spaceships show` on Spaaace! transcripts: the game replayed tick by tick from one seat, in the
 * words the live screens used (`tellTick`, `standingsLines`), every tick as the verifier decides it
 * from all the files given (SPAAACE-PEERS §5, SPAAACE-WITNESSED §7), then the verifier's report.
 * Loaded by show.ts only when it is given a Spaaace! file.
 */
import { type SpaaaceFile, renderSpaaaceVerdict, verifySpaaace } from '../games/spaaace/verify/verify.js'
import { isWitnessedTranscript, renderWitnessedVerdict, verifyWitnessed } from '../games/spaaace/verify/witnessed.js'
import type { TickOutcome } from '../games/spaaace/rules/tick.js'
import { SCREEN_COLUMNS, type Seat, standingsLines, tellTick } from '../games/spaaace/ui/screen.js'
import { type CliIo, EXIT } from './io.js'
import { spaaaceExit } from './verify-spaaace.js'

/**
 * The seat shown: `--as pN`, else the seat whose file it is by its name (`pN.transcript`, as the
 * node writes it), else p1. Undefined with a reason if `--as` names no seat of the game.
 */
function viewerOf(as: string, files: readonly SpaaaceFile[], players: number): number | string {
  const asked = /^p(\d+)$/i.exec(as)
  if (asked !== null) {
    const i = Number(asked[1]) - 1
    return i >= 0 && i < players ? i : `--as ${as}: this game has seats p1 to p${players}`
  }
  if (as.toUpperCase() !== 'A') return `--as: a seat of this Spaaace! game, p1 to p${players}`
  const own = /(?:^|\/)p(\d+)\.transcript$/.exec(files[0]?.name ?? '')
  const i = own === null ? 0 : Number(own[1]) - 1
  return i >= 0 && i < players ? i : 0
}

export function showSpaaace(io: CliIo, files: readonly SpaaaceFile[], opts: { as: string; turn?: number }): number {
  const columns = Math.min(SCREEN_COLUMNS, io.columns ?? SCREEN_COLUMNS)
  const witnessed = files.some((f) => isWitnessedTranscript(f.text))
  const games = witnessed ? verifyWitnessed(files) : verifySpaaace(files)
  const report = (): string =>
    games.map((v) => ('witnessed' in v ? renderWitnessedVerdict(v) : renderSpaaaceVerdict(v))).join('\n')
  const exit = spaaaceExit(games)
  const game = games[0]
  if (games.length !== 1 || game === undefined || game.status === 'unreadable') {
    io.stdout(`${games.length > 1 ? 'show replays one game at a time; these files hold several. ' : ''}${report()}\n`)
    return games.length > 1 ? EXIT.usage : exit
  }
  const viewer = viewerOf(opts.as, files, game.players)
  if (typeof viewer === 'string') {
    io.stderr(`spaceships show: ${viewer}\n`)
    return EXIT.usage
  }
  const ticks: { t: number; outcome?: TickOutcome }[] =
    'witnessed' in game ? [...game.witnessed.decision.ticks] : [...game.decision.ticks]
  const played = ticks.filter((x): x is { t: number; outcome: TickOutcome } => x.outcome !== undefined)
  if (opts.turn !== undefined && !played.some((x) => x.t === opts.turn)) {
    io.stderr(
      `spaceships show: --turn: these files decide ${played.length === 0 ? 'no tick' : `ticks 1 to ${played.at(-1)?.t ?? 0}`}\n`,
    )
    return EXIT.usage
  }
  // As the live screens label seats: the viewer is "you", the others by their seat.
  const seats: Seat[] = Array.from({ length: game.players }, (_, i) => ({ label: i === viewer ? 'you' : `p${i + 1}` }))
  io.stdout(
    `Spaaace! game ${game.game.slice(0, 16)} seen by p${viewer + 1}, ${game.players} players, ${played.length} tick${played.length === 1 ? '' : 's'} decided${witnessed ? ' (witnessed: by the notary\u2019s receipts)' : ''}.\n`,
  )
  for (const x of played) {
    if (opts.turn !== undefined && x.t !== opts.turn) continue
    io.stdout('\n')
    for (const l of tellTick(x.outcome, seats, viewer, columns)) io.stdout(`${l}\n`)
    for (const l of standingsLines(x.outcome.state, seats, viewer, columns)) io.stdout(`${l}\n`)
  }
  io.stdout(`\n${report()}\n`)
  return exit
}
