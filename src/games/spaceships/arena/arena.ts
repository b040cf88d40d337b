/**
 * The arena: many games between two bots, to measure them. Each game runs either with
 * the full protocol in memory (two sessions: commitments, signatures, checks, reveal, verdict) or,
 * with `fast`, with the rules engine alone, the bots seeing the same wire-form knowledge.
 */
import { SALT_BYTES } from '../protocol/commitments.js'
import { generateKeyPair } from '../../../core/commit/keys.js'
import { seededSecrets } from '../../../core/commit/secrets.js'
import { formatCell } from '../rules/coords.js'
import { type GameState, onlyScans, playTurn, scoresOf, startGame } from '../rules/game.js'
import type { CheckedRecord } from '../rules/legality.js'
import { readRecord } from '../rules/legality.js'
import type { PlayerTurn } from '../rules/resolve.js'
import { isResignation, recordText } from '../session/strategy.js'
import { type Ruleset, formatRuleset } from '../rules/ruleset.js'
import { formatSetup, parseSetup } from '../rules/setup.js'
import { memoryChannelPair } from '../../../core/session/channel.js'
import { runSession } from '../session/session.js'
import type { PlayerStrategy } from '../session/strategy.js'
import type { TurnSummary } from '../knowledge/summary.js'
import { memoryStore } from '../protocol/file.js'
import { type Aspects, type Results, SINGLE_GAME, type Terms } from '../protocol/messages.js'
import { type BotName, makeBot } from '../bot/levels.js'

/** The engine-only mode has no commitments: its answers carry no openings. */
const NO_SALT = new Uint8Array(SALT_BYTES)

/** Times every move of a strategy (think time per turn). */
export function timed(inner: PlayerStrategy, times: number[]): PlayerStrategy {
  return {
    setup: (...a) => inner.setup(...a),
    record: async (ctx) => {
      const t0 = performance.now()
      const text = await inner.record(ctx)
      times.push(performance.now() - t0)
      return text
    },
  }
}

export interface GameOutcome {
  readonly winner: 'A' | 'B' | 'draw'
  readonly scores: readonly [number, number]
  readonly turns: number
  readonly reason: string
}

export interface ArenaOptions {
  readonly a: BotName
  readonly b: BotName
  readonly games: number
  /**
   * The number of the first game (default 0): game g is seeded by `seed` and g, so a long run can
   * be played in slices (games 0-99, 100-199, ...) that together play the same games as one run.
   */
  readonly firstGame?: number
  readonly seed: string
  readonly ruleset: Ruleset
  readonly fast: boolean
  readonly maxTurns?: number
  /** The hard bot's work per decision (see `makeBot`). */
  readonly work?: number
  /** Wraps each bot before it plays (tests watch every move through it). */
  readonly observe?: (side: 'a' | 'b', bot: PlayerStrategy) => PlayerStrategy
  /** After each game (for a progress display). */
  readonly onGame?: (done: number, outcome: GameOutcome) => void
}

export interface ArenaReport {
  readonly a: BotName
  readonly b: BotName
  readonly games: number
  readonly mode: 'protocol' | 'engine'
  readonly wins: { readonly a: number; readonly b: number; readonly draws: number }
  /** Mean of (score of a - score of b). */
  readonly meanMargin: number
  readonly meanTurns: number
  readonly medianTurns: number
  /** Median think time per move, milliseconds, per bot. */
  readonly medianThinkMs: { readonly a: number; readonly b: number }
  readonly p95ThinkMs: { readonly a: number; readonly b: number }
  readonly failures: readonly string[]
}

const quantile = (xs: readonly number[], q: number): number => {
  if (xs.length === 0) return 0
  const s = [...xs].sort((x, y) => x - y)
  return s[Math.min(s.length - 1, Math.floor(q * s.length))] ?? 0
}

/**
 * Bots alternate sides: in odd games `a` plays B, so neither gains from moving as A. Outcomes are
 * reported from `a`'s point of view.
 */
export async function runArena(o: ArenaOptions): Promise<ArenaReport> {
  const think = { a: [] as number[], b: [] as number[] }
  let winsA = 0
  let winsB = 0
  let draws = 0
  let margin = 0
  const turns: number[] = []
  const failures: string[] = []
  const from = o.firstGame ?? 0
  for (let g = from; g < from + o.games; g++) {
    const swap = g % 2 === 1
    const seed = `${o.seed}/${g}`
    const watch = o.observe ?? ((_side, bot) => bot)
    const botA = timed(watch('a', makeBot(o.a, `${seed}/a`, o.work)), think.a)
    const botB = timed(watch('b', makeBot(o.b, `${seed}/b`, o.work)), think.b)
    const [first, second] = swap ? [botB, botA] : [botA, botB]
    const result = o.fast
      ? await engineGame(o.ruleset, first, second, o.maxTurns ?? 1000)
      : await protocolGame(o.ruleset, first, second, seed, o.maxTurns ?? 1000)
    if (typeof result === 'string') {
      failures.push(`game ${g}: ${result}`)
      continue
    }
    const [sa, sb] = swap ? [result.scores[1], result.scores[0]] : result.scores
    const winner = result.winner === 'draw' ? 'draw' : (result.winner === 'A') !== swap ? 'a' : 'b'
    if (winner === 'a') winsA++
    else if (winner === 'b') winsB++
    else draws++
    margin += sa - sb
    turns.push(result.turns)
    o.onGame?.(g - from + 1, result)
  }
  const played = turns.length
  return {
    a: o.a,
    b: o.b,
    games: o.games,
    mode: o.fast ? 'engine' : 'protocol',
    wins: { a: winsA, b: winsB, draws },
    meanMargin: played === 0 ? 0 : margin / played,
    meanTurns: played === 0 ? 0 : turns.reduce((x, y) => x + y, 0) / played,
    medianTurns: quantile(turns, 0.5),
    medianThinkMs: { a: quantile(think.a, 0.5), b: quantile(think.b, 0.5) },
    p95ThinkMs: { a: quantile(think.a, 0.95), b: quantile(think.b, 0.95) },
    failures,
  }
}

const TERMS: Omit<Terms, 'ruleset' | 'maxTurns'> = {
  setupMs: 60_000,
  turnMs: 60_000,
  replyMs: 60_000,
  sanction: 'forfeit',
  match: SINGLE_GAME,
}

async function protocolGame(
  ruleset: Ruleset,
  a: PlayerStrategy,
  b: PlayerStrategy,
  seed: string,
  maxTurns: number,
): Promise<GameOutcome | string> {
  const terms: Terms = { ...TERMS, ruleset: formatRuleset(ruleset), maxTurns }
  const pair = memoryChannelPair()
  const side = (role: 'A' | 'B', k: 0 | 1, strategy: PlayerStrategy) => {
    const secrets = seededSecrets(`${seed}/${role}`)
    return runSession({
      role,
      keys: generateKeyPair(secrets),
      terms,
      secrets,
      store: memoryStore(),
      channel: pair.ends[k],
      strategy,
    })
  }
  const [ra] = await Promise.all([side('A', 0, a), side('B', 1, b)])
  const v = ra.verdict
  if (v.status !== 'complete') return `${v.status}: ${JSON.stringify(v).slice(0, 300)}`
  return { winner: v.winner, scores: v.scores, turns: v.turn, reason: v.reason }
}

/** What player k learnt in a turn, in the wire form the session gives strategies. */
export function summaryOf(
  report: {
    turn: number
    records: readonly [CheckedRecord, CheckedRecord]
    players: readonly [PlayerTurn, PlayerTurn]
  },
  k: 0 | 1,
  idle: readonly [boolean, boolean],
): TurnSummary {
  const other = k === 0 ? 1 : 0
  const aspects = (r: CheckedRecord, isIdle: boolean): Aspects => ({
    t: 'aspects',
    turn: report.turn,
    beams: r.beams.map((b) => b.targets.map(formatCell)),
    strikes: r.strikes.map(formatCell),
    scans: r.scans.map(formatCell),
    kamikaze: r.kamikazeLaunches.map(formatCell),
    idle: isIdle,
  })
  const mine = report.players[k]
  const theirs = report.players[other]
  const strikeAnswer = (e: { result: 'miss' | 'hit' | 'duplicate-hit'; explosions: readonly number[] }) => ({
    result: e.result,
    salt: NO_SALT,
    explosions: e.explosions.map(formatCell),
  })
  const myRecord = report.records[k]
  const theirResults: Results = {
    t: 'results',
    turn: report.turn,
    beams: myRecord.beams.map((_, i) =>
      mine.exchanges.flatMap((e) => (e.kind === 'beam-strike' && e.beam === i ? [strikeAnswer(e)] : [])),
    ),
    strikes: mine.exchanges.flatMap((e) => (e.kind === 'strike' ? [strikeAnswer(e)] : [])),
    scans: mine.exchanges.flatMap((e) => (e.kind === 'scan' ? [{ result: e.result, salt: NO_SALT }] : [])),
    destroyed: theirs.destructions.map((d) => ({
      type: d.type,
      id: d.id ?? 1,
      cells: d.cells.map((c) => ({ cell: formatCell(c), salt: NO_SALT })),
    })),
    fleetDestroyed: false,
  }
  return {
    turn: report.turn,
    myAspects: aspects(myRecord, idle[k]),
    theirAspects: aspects(report.records[other], idle[other]),
    theirResults,
    myReports: mine.destructions.map((d) => ({
      type: d.type,
      id: d.id ?? 1,
      cells: d.cells.map((c) => ({ cell: formatCell(c), salt: NO_SALT })),
    })),
    theirFlashcube: {
      t: 'flashcube',
      turn: report.turn,
      reports: theirs.flashcube.map((list) =>
        list.map((f) =>
          f.kind === 'empty'
            ? { cell: formatCell(f.cell), kind: 'empty' as const, salt: NO_SALT }
            : {
                cell: formatCell(f.cell),
                kind: 'ship' as const,
                type: f.type,
                id: f.id ?? 1,
                destroyed: f.destroyed,
                salt: NO_SALT,
              },
        ),
      ),
    },
  }
}

async function engineGame(
  ruleset: Ruleset,
  a: PlayerStrategy,
  b: PlayerStrategy,
  maxTurns: number,
): Promise<GameOutcome | string> {
  const written = [
    parseSetup(formatSetup(await a.setup(ruleset)), 'strict'),
    parseSetup(formatSetup(await b.setup(ruleset)), 'strict'),
  ] as const
  if (!written[0].ok || !written[1].ok) return 'unwritable setup'
  const started = startGame(ruleset, [written[0].value, written[1].value])
  if (!started.ok) return `illegal setup: ${JSON.stringify(started.error).slice(0, 200)}`
  let game: GameState = started.value
  const history: [TurnSummary[], TurnSummary[]] = [[], []]
  for (let turn = 1; turn <= maxTurns; turn++) {
    const choices = [
      await a.record({ role: 'A', ruleset, turn, state: game.players[0], history: history[0] }),
      await b.record({ role: 'B', ruleset, turn, state: game.players[1], history: history[1] }),
    ]
    if (choices.some(isResignation)) return `a bot resigned in turn ${turn}`
    const texts = choices.map((c) => recordText(c) ?? '')
    const checked = ([0, 1] as const).map((k) => readRecord(ruleset, game.players[k], turn, texts[k] ?? '', 'lenient'))
    const [ra, rb] = checked
    if (ra === undefined || rb === undefined || !ra.ok || !rb.ok)
      return `illegal record in turn ${turn}: ${JSON.stringify(checked.map((c) => (c.ok ? 'ok' : c.error))).slice(0, 300)}`
    const next = playTurn(game, [ra.value.actions, rb.value.actions])
    if (!next.ok) return `turn ${turn} rejected`
    const idle = [ra.value, rb.value].map((r) => r.entitlements.onlyKamikazeAndScans && onlyScans(ruleset, r)) as [
      boolean,
      boolean,
    ]
    for (const k of [0, 1] as const) history[k].push(summaryOf(next.value.report, k, idle))
    game = next.value.game
    const end = next.value.report.end
    if (end !== undefined)
      return {
        winner: end.winner === 'draw' ? 'draw' : end.winner === 0 ? 'A' : 'B',
        scores: end.scores,
        turns: turn,
        reason: end.reason,
      }
  }
  const scores = scoresOf(game.players)
  return {
    winner: scores[0] > scores[1] ? 'A' : scores[1] > scores[0] ? 'B' : 'draw',
    scores,
    turns: maxTurns,
    reason: 'turn-limit',
  }
}

/** A one-line progress report. */
export function progressLine(done: number, total: number, r: { a: number; b: number; draws: number }): string {
  return `${done}/${total} games: ${r.a} won, ${r.b} lost, ${r.draws} drawn`
}
