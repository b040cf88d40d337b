/**
 * `spaceships show FILE`: a finished game replayed turn by turn from one side, drawn exactly as
 * the live game drew it (own space from the revealed setup and records, the opponent's space from
 * what the wire told this side).
 */
import { readRecord } from '../rules/legality.js'
import { type GameState, playTurn, startGame } from '../rules/game.js'
import { parseRuleset } from '../rules/ruleset.js'
import { parseSetup } from '../rules/setup.js'
import type { TurnSummary } from '../session/strategy.js'
import { parseTranscript } from '../transcript/file.js'
import type { Aspects, Body, Flashcube, Results, Reveal, Role } from '../transcript/messages.js'
import { verifyTranscript } from '../verify/verify.js'
import { colourEnabled, painter, renderBoards, turnReport } from '../ui/terminal.js'
import { type CliIo, EXIT } from './io.js'
import { renderVerdict } from './verify.js'

type ByTurn<T> = Map<number, T>

export async function showCommand(io: CliIo, path: string, opts: { as: string; turn?: string }): Promise<number> {
  if (opts.as !== 'A' && opts.as !== 'B') {
    io.stderr('spaceships show: --as must be A or B\n')
    return EXIT.usage
  }
  const me: Role = opts.as
  const them: Role = me === 'A' ? 'B' : 'A'
  let bytes: Uint8Array
  try {
    bytes = await io.readFile(path)
  } catch (e) {
    io.stderr(`spaceships show: cannot read ${path}: ${(e as Error).message}\n`)
    return EXIT.unreadable
  }
  const parsed = parseTranscript(bytes)
  const verdict = verifyTranscript(bytes)
  if (!parsed.ok) {
    io.stdout(renderVerdict(verdict))
    return EXIT.unreadable
  }
  const bodies: Record<Role, Body[]> = { A: [], B: [] }
  for (const s of parsed.value) bodies[s.envelope.from].push(s.envelope.body)
  const reveal = (r: Role): Reveal | undefined => bodies[r].find((b): b is Reveal => b.t === 'reveal')
  const hello = bodies.A.find((b) => b.t === 'hello')
  const reveals = [reveal('A'), reveal('B')] as const
  if (hello === undefined || reveals[0] === undefined || reveals[1] === undefined) {
    io.stdout(`show needs both players' reveals, and this game has ${reveals.filter((r) => r !== undefined).length}. The verifier says:\n${renderVerdict(verdict)}`)
    return EXIT.incomplete
  }
  const ruleset = parseRuleset(hello.terms.ruleset)
  const setups = [parseSetup(reveals[0].setup, 'strict'), parseSetup(reveals[1].setup, 'strict')] as const
  if (!ruleset.ok || !setups[0].ok || !setups[1].ok) {
    io.stdout(renderVerdict(verdict))
    return EXIT.illegal
  }
  const started = startGame(ruleset.value, [setups[0].value, setups[1].value])
  if (!started.ok) {
    io.stdout(renderVerdict(verdict))
    return EXIT.illegal
  }
  const index = <T extends Body>(r: Role, t: T['t']): ByTurn<T> => new Map(bodies[r].filter((b): b is T => b.t === t).map((b) => [(b as unknown as { turn: number }).turn, b]))
  const aspects = { A: index<Aspects>('A', 'aspects'), B: index<Aspects>('B', 'aspects') }
  const results = { A: index<Results>('A', 'results'), B: index<Results>('B', 'results') }
  const flash = { A: index<Flashcube>('A', 'flashcube'), B: index<Flashcube>('B', 'flashcube') }
  const only = opts.turn === undefined ? undefined : Number(opts.turn)
  const k = me === 'A' ? 0 : 1
  const paint = painter(colourEnabled(io.env ?? process.env, io.isTty ?? false))
  const history: TurnSummary[] = []
  let game: GameState = started.value
  const turns = Math.min(reveals[0].records.length, reveals[1].records.length)
  io.stdout(`Game seen by ${me} (${me === 'A' ? 'the host' : 'the joiner'}), ${ruleset.value.variant} rules, ${turns} turns.\n`)
  for (let turn = 1; turn <= turns; turn++) {
    const ra = readRecord(ruleset.value, game.players[0], turn, reveals[0].records[turn - 1] ?? '', 'strict')
    const rb = readRecord(ruleset.value, game.players[1], turn, reveals[1].records[turn - 1] ?? '', 'strict')
    const mine = aspects[me].get(turn)
    const theirs = aspects[them].get(turn)
    const theirResults = results[them].get(turn)
    const myResults = results[me].get(turn)
    const theirFlash = flash[them].get(turn)
    if (!ra.ok || !rb.ok || mine === undefined || theirs === undefined || theirResults === undefined || myResults === undefined || theirFlash === undefined) break
    const next = playTurn(game, [ra.value.actions, rb.value.actions])
    if (!next.ok) break
    history.push({ turn, myAspects: mine, theirAspects: theirs, theirResults, myReports: myResults.destroyed, theirFlashcube: theirFlash })
    game = next.value.game
    if (only !== undefined && turn !== only) continue
    io.stdout(`\n${turnReport(history[history.length - 1] as TurnSummary).join('\n')}\n${renderBoards({ state: game.players[k], history }, paint)}\n`)
  }
  io.stdout(`\n${renderVerdict(verdict)}`)
  return verdict.status === 'complete' ? EXIT.ok : verdict.status === 'offence' ? EXIT.illegal : EXIT.incomplete
}
