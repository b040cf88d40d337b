/**
 * `spaceships spaaace play` among peers: one person and 2 to 15 bots, each seat a node of the
 * many-player protocol (protocol/SPAAACE-PEERS.md) with its own key, in this process, linked in
 * memory on one virtual clock (`node/local.ts`). Every order set is committed, sealed, revealed and
 * closed in signed envelopes, each node decides every tick alone (§5), and the person's transcript
 * is written and decided as `spaceships verify` decides it. The clock stands still while the
 * person chooses, and runs ahead while only the bots are deciding.
 *
 * Seeds: keys, seeds of salts and the bots' sources all come from `--seed`, so a seed and the
 * person's orders replay a game to the same transcript.
 */
import { seededSecrets } from '../core/commit/secrets.js'
import { VirtualClock } from '../core/session/clock.js'
import { sensibleBot } from '../games/spaaace/bot/sensible.js'
import type { SpaaaceBot } from '../games/spaaace/bot/bot.js'
import { type Decision, decide } from '../games/spaaace/peers/decide.js'
import { readPeersTranscript } from '../games/spaaace/peers/transcript.js'
import { closingStateJson } from '../games/spaaace/referee/json.js'
import { seededRng } from '../games/spaaace/referee/random.js'
import { botChooser, personChooser } from '../games/spaaace/node/choosers.js'
import {
  defaultPeersTerms,
  fastestTiming,
  localRoster,
  runLocalGame,
  type LocalSeat,
} from '../games/spaaace/node/local.js'
import type { Chooser, PeerEvents } from '../games/spaaace/node/peer.js'
import { peerLabels } from '../games/spaaace/peers/domain.js'
import { formatOrderSet, parseOrderSet } from '../games/spaaace/rules/orders.js'
import { sectorCount } from '../games/spaaace/rules/state.js'
import { decisionLines } from '../games/spaaace/verify/report.js'
import {
  SCREEN_COLUMNS,
  type Seat,
  orderGuide,
  renderScreen,
  standingsLines,
  tellTick,
  wrapLine,
} from '../games/spaaace/ui/screen.js'
import { type CliIo, EXIT, UserError, cannotWrite, commandName, unusedName } from './io.js'
import { BOT_KINDS, type BotKind, type PlayOptions, botFor, fileSafe } from './spaaace-play.js'

export async function spaaacePeersPlayCommand(
  options: PlayOptions,
  io: CliIo,
  freshSeed: () => string,
): Promise<number> {
  if (!(BOT_KINDS as readonly string[]).includes(options.bot))
    throw new UserError(`--bot: expected one of ${BOT_KINDS.join(', ')}, got "${options.bot}"`)
  const kind = options.bot as BotKind
  const seed = options.seed ?? freshSeed()
  const prompter = options.autoplay ? undefined : io.prompter?.()
  if (!options.autoplay && prompter === undefined)
    throw new UserError(
      'spaaace play asks for your orders on a terminal, and standard input is not one; --autoplay lets a sensible bot play your seat',
    )
  const n = options.bots + 1
  const columns = Math.min(SCREEN_COLUMNS, io.columns ?? SCREEN_COLUMNS)
  const say = (line: string): void => {
    io.stdout(`${line}\n`)
  }
  const tell = (line: string): void => {
    for (const l of wrapLine(line, columns)) say(l)
  }
  // The protocol's time line starts at a fixed instant: the game replays from its seed alone.
  const start = 1_800_000_000_000
  const timing = fastestTiming(start)
  const { keys, genesis, rosterIndex } = localRoster(n, seed, defaultPeersTerms(options.ticks), timing)
  const viewer = rosterIndex[0] ?? 0
  const botOf = new Map<number, SpaaaceBot>()
  for (let k = 1; k < n; k++) botOf.set(rosterIndex[k] ?? k, botFor(kind, k - 1))
  const seats: Seat[] = Array.from({ length: n }, (_, i) => {
    const bot = botOf.get(i)
    return i === viewer ? { label: 'you' } : { label: `bot${i + 1}`, ...(bot === undefined ? {} : { bot: bot.name }) }
  })
  const labels = seats.map((s) => s.label)
  const quit = new AbortController()
  let quitTick = 0
  let lastState: Decision | undefined
  const events: PeerEvents = {
    onReady(t, state, plays) {
      quitTick = t
      if (options.json) return
      say('')
      for (const l of renderScreen({ state, seats, viewer, columns })) say(l)
      // A removed player orders nothing more (S-03), which its screen says; §6.0 is for one still playing.
      if (!plays && state.players[viewer]?.status === 'active')
        tell(`Tick ${t} came too late to choose (§6.0): your node skips it and commits nothing.`)
    },
    onSettled(view) {
      if (view.outcome === undefined) return
      if (options.json) say(closingStateJson(view.outcome, labels))
      else {
        say('')
        for (const l of tellTick(view.outcome, seats, viewer, columns)) say(l)
      }
    },
    onEnd(_end, d) {
      lastState = d
    },
  }
  // Under --autoplay, the bot's orders for your seat as you would have typed them.
  const shown = (bot: Chooser): Chooser => ({
    choose(view, signal) {
      const text = bot.choose(view, signal)
      if (typeof text === 'string' && !options.json) {
        const parsed = text === '-' ? undefined : parseOrderSet(text, peerLabels(n), view.self, sectorCount(n))
        const words = parsed === undefined ? '-' : parsed.ok ? formatOrderSet(parsed.orders, labels) : text
        for (const l of wrapLine(`you (sensible): ${words}`, columns)) say(l)
      }
      return text
    },
  })
  const person =
    prompter === undefined
      ? undefined
      : personChooser({
          prompter,
          labels,
          guide: () => orderGuide(columns),
          print: say,
          onQuit: () => {
            quit.abort()
          },
        })
  const seatsRun: LocalSeat[] = Array.from({ length: n }, (_, i) => {
    if (i === viewer)
      return person === undefined
        ? { chooser: shown(botChooser(sensibleBot(), seededRng(`${seed}/0`))), events }
        : { chooser: person, events, busy: () => person.busy() }
    const bot = botOf.get(i) ?? sensibleBot()
    return { chooser: botChooser(bot, seededRng(`${seed}/${i}`)) }
  })
  if (!options.json)
    tell(
      `Spaaace! you (p${viewer + 1}) against ${options.bots} bots (${kind}), ${options.ticks} ticks at most, seed ${seed}${options.autoplay ? '; a sensible bot plays your seat (--autoplay)' : ''}. Every seat is a peer node of the many-player protocol in this process: orders are committed, revealed and signed, and each node decides every tick alone. Protocol time stands still while you choose.`,
    )
  const result = await runLocalGame({
    seats: seatsRun,
    genesis,
    keys,
    secrets: (i) => seededSecrets(`${seed}/seed/${i}`),
    clock: new VirtualClock(start - 1000),
    signal: quit.signal,
  })
  const text = result.transcripts[viewer] ?? ''
  const out = options.out ?? (await unusedName(io, `spaaace-${fileSafe(seed)}.transcript`))
  let written = true
  try {
    await io.writeFile(out, text)
  } catch (e) {
    written = false
    io.stderr(`${cannotWrite('--out', out, e).message}\n`)
  }
  const read = readPeersTranscript(text)
  const decision = read.ok ? decide(read.value.genesis, read.value.envelopes) : undefined
  const abandoned = result.aborted
  const final = decision ?? lastState
  const lastTick = final?.ticks.filter((v) => v.outcome !== undefined).at(-1)?.outcome?.state
  if (options.json) {
    say(
      JSON.stringify({
        seed,
        abandoned,
        end: final?.end ?? null,
        tick: lastTick?.tick ?? 0,
        winners: lastTick?.winners.map((w) => labels[w]) ?? [],
        transcript: written ? out : null,
      }),
    )
  } else {
    if (abandoned) say(`You quit in tick ${quitTick}: the game is abandoned (your node signed nothing more).`)
    say('')
    if (lastTick !== undefined) for (const l of standingsLines(lastTick, seats, viewer, columns)) say(l)
    if (decision !== undefined) for (const l of decisionLines(decision, labels)) tell(l)
    if (written) {
      const cmd = commandName(io.env ?? process.env)
      tell(`Your transcript: ${out} (check it: ${cmd} verify ${/^[\w./:@+-]+$/.test(out) ? out : JSON.stringify(out)})`)
    }
  }
  if (!written) return EXIT.cannotCreate
  return abandoned ? EXIT.abandoned : EXIT.ok
}
