/**
 * Who plays a side: a person at the terminal or a built-in bot, with the wrappers that let a
 * watcher follow a bot's game and let the end of a game draw the final boards.
 */
import { seededRandom } from '../games/spaceships/rules/rng.js'
import type { PlayerStrategy, TurnContext, TurnSummary } from '../games/spaceships/session/strategy.js'
import { type ShipType, formatShipName } from '../games/spaceships/rules/ships.js'
import { opponentShipNames } from '../games/spaceships/ui/panel.js'
import { type BotName, makeBot } from '../games/spaceships/bot/levels.js'
import { Notices, type Screen, humanStrategy } from '../games/spaceships/ui/terminal.js'
import type { GameMeta } from './games.js'
import { type CliIo, UserError } from './io.js'
import { type GameFlags, NO_TERMINAL, botName, randomSeed, setupChoice } from './flags.js'
import { screenFor } from './screen.js'
import { peerNamesFor } from './peer-names.js'

/** A seed fixes the bot (tests, demos); without one it plays from the session's per-game secret (`makeBot`). */
export function botStrategy(name: BotName, seed?: string): PlayerStrategy {
  return makeBot(name, seed)
}

/** One line per turn for a bot-played side, so a watched game shows progress. */
function narrated(inner: PlayerStrategy, screen: Screen): PlayerStrategy {
  // Ships are named as the notation names them (C-05): the identity only when there are several.
  const line = (t: TurnSummary, ctx: TurnContext): string => {
    const mine = [...t.theirResults.beams.flat(), ...t.theirResults.strikes]
    const theirs = t.theirAspects.beams.flat().length + t.theirAspects.strikes.length
    const hits = mine.filter((a) => a.result === 'hit').length
    const own = (type: ShipType, id: number): string =>
      formatShipName(type, id, ctx.state.ships.filter((s) => s.type === type).length)
    const lost = t.myReports.map((r) => own(r.type, r.id))
    const theirName = opponentShipNames(ctx.ruleset, ctx.history)
    const sunk = t.theirResults.destroyed.map((r) => theirName(r.type, r.id))
    return `turn ${String(t.turn).padStart(3)}: ${plural(mine.length, 'strike')}, ${plural(hits, 'hit')}${sunk.length > 0 ? `, destroyed ${sunk.join(' ')}` : ''}; they struck ${theirs}${lost.length > 0 ? `, destroyed your ${lost.join(' ')}` : ''}`
  }
  // Each turn once, as soon as it is known: when the next record is asked for, or at the end.
  let said = 0
  const say = (ctx: TurnContext): void => {
    for (const t of ctx.history) if (t.turn > said) screen.print(line(t, ctx))
    said = Math.max(said, ctx.history.at(-1)?.turn ?? 0)
  }
  return {
    ...passBegin(inner),
    setup: (...a) => inner.setup(...a),
    record: (ctx) => {
      say(ctx)
      return inner.record(ctx)
    },
    finished: (ctx) => {
      say(ctx)
      return inner.finished?.(ctx)
    },
  }
}

/** A bot that waits `ms` before each move, so a watched game can be followed. */
function paced(inner: PlayerStrategy, ms: number): PlayerStrategy {
  if (!(ms > 0)) return inner
  return {
    ...passBegin(inner),
    setup: (...a) => inner.setup(...a),
    record: async (ctx) => (await new Promise((r) => setTimeout(r, ms)), inner.record(ctx)),
  }
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`

/** A wrapper keeps its player's per-game secret (PlayerStrategy.begin): a bot without a fixed seed plays from it. */
export function passBegin(inner: PlayerStrategy): Pick<PlayerStrategy, 'begin'> {
  return inner.begin === undefined
    ? {}
    : {
        begin: (secret) => {
          inner.begin?.(secret)
        },
      }
}

export function playerFor(
  f: GameFlags,
  io: CliIo,
  meta: GameMeta['player'],
  opponent: () => string | undefined,
  say?: () => ((text: string) => Promise<void>) | undefined,
  notices?: Notices,
  witnessed = false,
): PlayerStrategy {
  const screen = screenFor(io)
  if (meta.kind === 'bot') {
    const bot = paced(botStrategy(botName(meta.bot), meta.seed), f.pace ?? 0)
    // With --json, standard output holds the result's JSON alone.
    return f.json === true ? bot : narrated(bot, screen)
  }
  const prompter = io.prompter?.()
  if (prompter === undefined) throw new UserError(NO_TERMINAL)
  return humanStrategy({
    prompter,
    screen,
    setup: setupChoice(f),
    rng: seededRandom(f.seed ?? randomSeed()),
    // By the name pinned to its key, or the one it sent as its own claim (SPEC §2.4 kind 6).
    opponent: () => peerNamesFor(io).label(opponent()),
    ...(say === undefined ? {} : { say }),
    ...(notices === undefined ? {} : { notices }),
    ...(witnessed ? { witnessed } : {}),
  })
}

/** Wraps a strategy to remember the last view, so the end can draw the final boards. */
export function watched(
  inner: PlayerStrategy,
  seen: { ctx?: Parameters<PlayerStrategy['record']>[0] },
): PlayerStrategy {
  return {
    ...passBegin(inner),
    setup: (...a) => inner.setup(...a),
    record: (ctx) => ((seen.ctx = ctx), inner.record(ctx)),
    finished: (ctx) => {
      seen.ctx = ctx
      return inner.finished?.(ctx)
    },
  }
}
