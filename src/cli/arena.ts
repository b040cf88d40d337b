/** `spaceships arena`: many games between two bots, with a progress display. */
import { type ArenaReport, runArena } from '../games/spaceships/arena/arena.js'
import { BOT_NAMES, isBotName } from '../games/spaceships/bot/levels.js'
import { parseRuleset } from '../games/spaceships/rules/ruleset.js'
import { type CliIo, EXIT } from './io.js'

export interface ArenaFlags {
  readonly a: string
  readonly b: string
  readonly games: string
  readonly seed: string
  readonly ruleset: string
  readonly fast?: boolean
  readonly maxTurns: string
  readonly work?: string
  readonly json?: boolean
}

const pct = (n: number, of: number): string => `${of === 0 ? 0 : Math.round((1000 * n) / of) / 10}%`
const ms = (x: number): string => `${x.toFixed(2)} ms`

export function renderArena(r: ArenaReport): string {
  const played = r.wins.a + r.wins.b + r.wins.draws
  return [
    `${r.a} (a) against ${r.b} (b): ${played} games, ${r.mode === 'engine' ? 'rules engine only' : 'full protocol in memory'}`,
    `  a won ${r.wins.a} (${pct(r.wins.a, played)}), b won ${r.wins.b} (${pct(r.wins.b, played)}), drawn ${r.wins.draws}`,
    `  mean score margin (a - b): ${r.meanMargin.toFixed(2)}`,
    `  game length: mean ${r.meanTurns.toFixed(1)} turns, median ${r.medianTurns}`,
    `  think time per move: a median ${ms(r.medianThinkMs.a)} (p95 ${ms(r.p95ThinkMs.a)}), b median ${ms(r.medianThinkMs.b)} (p95 ${ms(r.p95ThinkMs.b)})`,
    ...r.failures.map((f) => `  FAILED ${f}`),
    '',
  ].join('\n')
}

export async function arenaCommand(io: CliIo, f: ArenaFlags): Promise<number> {
  const usage = (m: string): number => {
    io.stderr(`spaceships arena: ${m}\n`)
    return EXIT.usage
  }
  if (!isBotName(f.a) || !isBotName(f.b)) return usage(`--a and --b: one of ${BOT_NAMES.join(', ')}`)
  const games = Number(f.games)
  const maxTurns = Number(f.maxTurns)
  if (!Number.isInteger(games) || games < 1 || games > 1_000_000) return usage('--games: a whole number from 1')
  if (!Number.isInteger(maxTurns) || maxTurns < 1 || maxTurns > 1000) return usage('--max-turns: 1 to 1000')
  const work = f.work === undefined ? undefined : Number(f.work)
  if (work !== undefined && !(Number.isInteger(work) && work >= 1 && work <= 10_000))
    return usage('--work: a whole number from 1 to 10000')
  const ruleset = parseRuleset(f.ruleset)
  if (!ruleset.ok) return usage(`--ruleset: ${ruleset.error.message}`)
  const tally = { a: 0, b: 0, draws: 0 }
  const live = io.isTty === true && f.json !== true
  const step = Math.max(1, Math.floor(games / 10))
  const report = await runArena({
    a: f.a,
    b: f.b,
    games,
    seed: f.seed,
    ruleset: ruleset.value,
    fast: f.fast === true,
    maxTurns,
    ...(work === undefined ? {} : { work }),
    onGame: (done, o) => {
      const aWon = o.winner !== 'draw' && (o.winner === 'A') === (done % 2 === 1)
      if (o.winner === 'draw') tally.draws++
      else if (aWon) tally.a++
      else tally.b++
      const line = `${done}/${games} games: a ${tally.a}, b ${tally.b}, drawn ${tally.draws}`
      if (live) io.stderr(`\r${line}${done === games ? '\n' : ''}`)
      else if (f.json !== true && (done % step === 0 || done === games)) io.stderr(`${line}\n`)
    },
  })
  io.stdout(f.json === true ? `${JSON.stringify(report, null, 2)}\n` : renderArena(report))
  return report.failures.length === 0 ? EXIT.ok : EXIT.illegal
}
