/**
 * `spaceships spaaace play`: one person against 2 to 15 bots, offline, in memory
 * (rules/spaaace.md). Each tick shows the screen, asks for the person's orders in the record's
 * syntax (checked as typed, S-37), lets the bots decide from their seeded sources, plays the tick
 * and tells it; at the end the standings and the winners (S-50, S-51, S-82), and the game's open
 * record, which `spaceships spaaace referee` plays to the same closing states.
 *
 * Seeds: the bot at roster place i (0-based; the person is place 0) draws from
 * `seededRng(`${seed}/${i}`)`, and under --autoplay the person's seat too, so a seed and the
 * person's orders replay a game exactly.
 */
import type { SpaaaceBot } from '../games/spaaace/bot/bot.js'
import { randomBot } from '../games/spaaace/bot/random.js'
import { sensibleBot } from '../games/spaaace/bot/sensible.js'
import { closingStateJson } from '../games/spaaace/referee/json.js'
import { seededRng } from '../games/spaaace/referee/random.js'
import { DEFAULT_TERMS, type Terms } from '../games/spaaace/rules/types.js'
import { playLocalGame, type SeatPlayer } from '../games/spaaace/ui/game.js'
import { SCREEN_COLUMNS, type Seat, standings, standingsLines, wrapLine } from '../games/spaaace/ui/screen.js'
import { type CliIo, EXIT, UserError, cannotWrite, commandName, unusedName } from './io.js'

import { BOT_KINDS, type BotKind } from './spaaace-options.js'

export { BOT_KINDS, BOTS_RANGE, type BotKind } from './spaaace-options.js'

export interface PlayOptions {
  readonly bots: number
  readonly bot: string
  readonly seed?: string
  readonly ticks: number
  readonly autoplay: boolean
  readonly json: boolean
  readonly offline: boolean
  readonly out?: string
}

/** The bot of bot seat k (0-based): all of one kind, or under mix sensible and random in turn. */
export function botFor(kind: BotKind, k: number): SpaaaceBot {
  if (kind === 'random' || (kind === 'mix' && k % 2 === 1)) return randomBot
  return sensibleBot()
}

/** A seed as a file name's part: itself when it is plain, else a digest of it. */
export function fileSafe(seed: string): string {
  if (/^[A-Za-z0-9_.-]{1,40}$/.test(seed)) return seed
  let h = 0
  for (const c of seed) h = (Math.imul(h, 31) + (c.codePointAt(0) ?? 0)) >>> 0
  return h.toString(16).padStart(8, '0')
}

/** The seats of a game: "you" at place 0, then bot2, bot3, ... */
export function playSeats(bots: number, kind: BotKind): { seats: Seat[]; kinds: SpaaaceBot[] } {
  const kinds = Array.from({ length: bots }, (_, k) => botFor(kind, k))
  return {
    seats: [{ label: 'you' }, ...kinds.map((b, k) => ({ label: `bot${k + 2}`, bot: b.name }))],
    kinds,
  }
}

export async function spaaacePlayCommand(options: PlayOptions, io: CliIo, freshSeed: () => string): Promise<number> {
  if (!(BOT_KINDS as readonly string[]).includes(options.bot))
    throw new UserError(`--bot: expected one of ${BOT_KINDS.join(', ')}, got "${options.bot}"`)
  const kind = options.bot as BotKind
  const seed = options.seed ?? freshSeed()
  const prompter = options.autoplay ? undefined : io.prompter?.()
  if (!options.autoplay && prompter === undefined)
    throw new UserError(
      'spaaace play asks for your orders on a terminal, and standard input is not one; --autoplay lets a sensible bot play your seat',
    )
  const terms: Terms = { ...DEFAULT_TERMS, maxTicks: options.ticks }
  const { seats, kinds } = playSeats(options.bots, kind)
  const labels = seats.map((s) => s.label)
  const players: SeatPlayer[] = [
    options.autoplay
      ? { kind: 'bot', bot: sensibleBot(), rng: seededRng(`${seed}/0`), shown: !options.json }
      : { kind: 'person' },
    ...kinds.map((bot, k): SeatPlayer => ({ kind: 'bot', bot, rng: seededRng(`${seed}/${k + 1}`) })),
  ]
  const out = options.out ?? (await unusedName(io, `spaaace-${fileSafe(seed)}.rec`))
  const cmd = commandName(io.env ?? process.env)
  const say = (line: string): void => {
    io.stdout(`${line}\n`)
  }
  // Lines of words fit the screen (a JSON line is one line, whatever its length).
  const tell = (line: string): void => {
    for (const l of wrapLine(line, Math.min(SCREEN_COLUMNS, io.columns ?? SCREEN_COLUMNS))) say(l)
  }
  if (!options.json)
    tell(
      `Spaaace! you against ${options.bots} bots (${kind}), ${options.ticks} ticks at most, seed ${seed}${options.autoplay ? '; a sensible bot plays your seat (--autoplay)' : ''}. Offline, in memory: the engine alone, without the peer protocol.`,
    )
  const result = await playLocalGame({
    seats,
    players,
    viewer: 0,
    terms,
    ...(prompter === undefined ? {} : { prompter }),
    ...(options.json ? {} : { print: say }),
    ...(options.json
      ? {
          onTick: (outcome) => {
            say(closingStateJson(outcome, labels))
          },
        }
      : {}),
    ...(io.columns === undefined ? {} : { columns: io.columns }),
    comment: `spaceships spaaace play --bots ${options.bots} --bot ${kind} --ticks ${options.ticks} --seed ${seed}${options.autoplay ? ' --autoplay' : ''}`,
  })
  let written = true
  try {
    await io.writeFile(out, result.record)
  } catch (e) {
    written = false
    io.stderr(`${cannotWrite('--out', out, e).message}\n`)
  }
  const code = !written ? EXIT.cannotCreate : result.abandoned ? EXIT.abandoned : EXIT.ok
  if (options.json) {
    say(
      JSON.stringify({
        seed,
        abandoned: result.abandoned,
        tick: result.state.tick,
        winners: result.state.winners.map((w) => labels[w]),
        standings: standings(result.state, seats, 0).map((r) => ({
          label: labels[r.player],
          fame: r.fame,
          coins: r.coins,
          status: r.status,
          winner: r.winner,
        })),
        record: written ? out : null,
      }),
    )
    return code
  }
  say('')
  for (const l of standingsLines(result.state, seats, 0, io.columns)) say(l)
  if (written)
    tell(
      `The game's record: ${out} (${result.abandoned ? 'abandoned; ' : ''}check it: ${cmd} spaaace referee ${/^[\w./:@+-]+$/.test(out) ? out : JSON.stringify(out)})`,
    )
  return code
}
