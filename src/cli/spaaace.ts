/**
 * `spaceships spaaace ...`: the Spaaace! referee of an open game record (rules/spaaace.md appendix),
 * random records for testing other referees, and a game against bots at the terminal (spaaace-play.ts). Registered on the program by main.ts.
 */
import { randomBytes } from 'node:crypto'
import type { Command } from 'commander'
import { LIMITS, NUMERIC_TERMS } from '../games/spaaace/rules/types.js'
import { type CliIo, EXIT, wholeNumber } from './io.js'
import { MAX_MARGIN_MS, MIN_MARGIN_MS } from '../games/spaaace/peers/domain.js'
import { guarded } from './guarded.js'
import type { SpaaaceHostFlags, SpaaaceJoinFlags } from './spaaace-net.js'
import type { PlayOptions } from './spaaace-play.js'
import { BOTS_RANGE, BOT_KINDS } from './spaaace-options.js'

/** `spaaace referee FILE [--json]`: 0 for a valid record (finished or not), 2 for a record error. */
export async function spaaaceRefereeCommand(path: string, options: { json: boolean }, io: CliIo): Promise<number> {
  let bytes: Uint8Array
  try {
    bytes = await io.readFile(path)
  } catch (e) {
    io.stderr(`spaceships spaaace referee: cannot read ${path}: ${e instanceof Error ? e.message : String(e)}\n`)
    return EXIT.unreadable
  }
  // Bytes that are not UTF-8 become U+FFFD, which no record line accepts outside a comment.
  const text = new TextDecoder('utf-8', { fatal: false, ignoreBOM: false }).decode(bytes)
  const { referee } = await import('../games/spaaace/referee/referee.js')
  const result = referee(text, (t) => {
    io.stdout(options.json ? `${t.json}\n` : t.words)
  })
  if (result.error !== null) {
    io.stderr(`error ${result.error.line}: ${result.error.message}\n`)
    return EXIT.unreadable
  }
  return EXIT.ok
}

/** `spaaace record random`: a record written from the seed alone. */
export async function spaaaceRecordRandomCommand(
  options: { seed?: string; players: number; out?: string },
  io: CliIo,
  freshSeed: () => string,
): Promise<number> {
  const { randomRecord, seededRng } = await import('../games/spaaace/referee/random.js')
  const record = randomRecord(seededRng(options.seed ?? freshSeed()), options.players)
  if (options.out === undefined) io.stdout(record)
  else await io.writeFile(options.out, record)
  return EXIT.ok
}

/** Adds the `spaaace` command group to the program. */
export function registerSpaaace(root: Command, io: CliIo, status: { code: number }): void {
  const group = root
    .command('spaaace')
    .description(
      'Spaaace! (rules/spaaace.md): sealed-bid space battles among 3 to 16 players, each a peer node that signs what it commits and reveals (protocol/SPAAACE-PEERS.md), or, witnessed, through a notary (protocol/SPAAACE-WITNESSED.md); referee checks an open game record.',
    )
  group
    .command('referee')
    .description(
      'Adjudicate an open Spaaace! game record tick by tick: what each step did, in words, or each closing state as one JSON line.',
    )
    .argument('<file>', 'open game record (rules/spaaace.md appendix)')
    .option('--json', 'one compact JSON closing state per tick, as the appendix defines it', false)
    .addHelpText(
      'after',
      '\nExit status: 0 a valid record (finished or not), 2 a record error (the ticks before it are printed, then "error LINE: MESSAGE" on standard error).',
    )
    .action(async (file: string, opts: { json: boolean }) => {
      status.code = await spaaaceRefereeCommand(file, opts, io)
    })
  group
    .command('play')
    .description(
      'Play Spaaace! at this terminal against bots, on this machine (every seat a peer node of the full protocol, no network): the galaxy each tick, your orders checked as you type, what happened in words, the standings at the end, and your signed transcript (with --offline, the game written as an open record).',
    )
    .option(
      '--bots <n>',
      `bots, ${BOTS_RANGE.min} to ${BOTS_RANGE.max}`,
      wholeNumber('--bots', BOTS_RANGE.min, BOTS_RANGE.max),
      3,
    )
    .option('--bot <kind>', `the bots: ${BOT_KINDS.join(', ')} (mix: sensible and random in turn)`, 'sensible')
    .option('--seed <seed>', "the bots' seed: the same seed and orders replay the same game (default: random)")
    .option(
      '--ticks <n>',
      'the last tick (S-51, maxTicks)',
      wholeNumber('--ticks', NUMERIC_TERMS.maxTicks.min, NUMERIC_TERMS.maxTicks.max),
      NUMERIC_TERMS.maxTicks.default,
    )
    .option('--autoplay', 'a sensible bot plays your seat (demos, tests)', false)
    .option('--json', "each tick's closing state as one JSON line (as referee --json), then the result", false)
    .option(
      '--offline',
      'the engine alone, without the peer protocol: no signatures, and the game written as an open record for spaaace referee',
      false,
    )
    .option(
      '--out <file>',
      "write your transcript here (default: spaaace-SEED.transcript), or with --offline the game's record (spaaace-SEED.rec)",
    )
    .addHelpText(
      'after',
      '\nAt the prompt: orders as the record writes them ("buy 2; move 3; attack bot3"), an empty line for none, help for the guide, quit to abandon the game.\nEvery seat is a peer node of the many-player protocol (protocol/SPAAACE-PEERS.md) in this process: your transcript is decided at the end as spaceships verify decides it.\nExit status: 0 the game ended; 4 you quit (abandoned); 64 a bad flag, or no terminal without --autoplay.',
    )
    .action(async (opts: PlayOptions) => {
      const fresh = (): string => randomBytes(8).toString('hex')
      status.code = opts.offline
        ? await (await import('./spaaace-play.js')).spaaacePlayCommand(opts, io, fresh)
        : await (await import('./spaaace-peers-play.js')).spaaacePeersPlayCommand(opts, io, fresh)
    })
  const collect = (v: string, prev: string[] = []): string[] => [...prev, v]
  group
    .command('host')
    .description(
      'Host a Spaaace! game among people on different machines: name each player by the PeerId they print with `spaceships id`, fill seats with bots that run here, and send everyone the invite.',
    )
    .option('--player <peerid>', 'a player of the game (repeatable)', collect)
    .option(
      '--bots <n>',
      'bots run by this process, each a peer with its own key',
      wholeNumber('--bots', 0, BOTS_RANGE.max),
      0,
    )
    .option('--bot <kind>', `the bots: ${BOT_KINDS.join(', ')}`, 'sensible')
    .option(
      '--ticks <n>',
      'the last tick (S-51, maxTicks)',
      wholeNumber('--ticks', NUMERIC_TERMS.maxTicks.min, NUMERIC_TERMS.maxTicks.max),
      NUMERIC_TERMS.maxTicks.default,
    )
    .option(
      '--margin-ms <ms>',
      'Δ, the delivery bound every node assumes (protocol §10); a tick lasts 9·Δ + 17 s',
      wholeNumber('--margin-ms', MIN_MARGIN_MS, MAX_MARGIN_MS),
      2000,
    )
    .option(
      '--start-in <s>',
      'seconds until tick 1 starts: time for everyone to join',
      wholeNumber('--start-in', 5, 86_400),
      60,
    )
    .option('--identity <file>', 'your identity key (default: the one `spaceships id` shows)')
    .option('--listen <multiaddr>', 'listen address (repeatable)', collect)
    .option(
      '--relay <multiaddr>',
      'a relay every node reserves a slot on, so players reach each other directly (repeatable)',
      collect,
    )
    .option('--autoplay', 'a sensible bot plays your seat', false)
    .option('--invite-file <file>', 'also write the invite here')
    .option(
      '--notary <multiaddr>',
      "a witnessed game: the notary's address, ending with its PeerId; its receipts decide every tick, so nobody need stay online",
    )
    .option(
      '--commit-s <s>',
      'witnessed games: the commit window in seconds (a move a day: 86400; default: the unwitnessed window, 13 s at --margin-ms 500)',
      wholeNumber('--commit-s', 1, 2_592_000),
    )
    .option(
      '--reveal-s <s>',
      'witnessed games: the reveal window in seconds (default: the unwitnessed window, 5.5 s at --margin-ms 500)',
      wholeNumber('--reveal-s', 1, 2_592_000),
    )
    .addHelpText(
      'after',
      '\nThe game is kept under $XDG_STATE_HOME/spaceships/spaaace/; run `spaaace join @<dir>/invite` to resume it after a crash.\nExit status: 0 the game ended complete; 1 an offence was proven; 3 it stalled or did not start; 4 you left; 64 a bad flag.',
    )
    .action(async (opts: SpaaaceHostFlags) => {
      status.code = await guarded(io, 'spaaace host', async () =>
        (await import('./spaaace-net.js')).spaaaceHostCommand(io, opts),
      )
    })
  group
    .command('join')
    .description(
      'Join (or resume) a Spaaace! game from its invite: your node accepts the genesis, links to the other players and plays each tick; a bot can play your seat.',
    )
    .argument('<invite>', 'the invite, or @FILE to read it from a file')
    .option('--identity <file>', 'your identity key (default: the one `spaceships id` shows)')
    .option('--listen <multiaddr>', 'listen address (repeatable)', collect)
    .option('--relay <multiaddr>', 'a relay to reserve a slot on (repeatable)', collect)
    .option('--autoplay', 'a sensible bot plays your seat', false)
    .option(
      '--check-in',
      'a witnessed game: check in with the notary once, play what is due, say when to come back, and exit',
      false,
    )
    .addHelpText(
      'after',
      '\nExit status: 0 the game ended complete; 1 an offence was proven; 3 it stalled or did not start, or (with --check-in) it goes on; 4 you left; 64 a bad flag.',
    )
    .action(async (invite: string, opts: SpaaaceJoinFlags) => {
      status.code = await guarded(io, 'spaaace join', async () =>
        (await import('./spaaace-net.js')).spaaaceJoinCommand(io, invite, opts),
      )
    })
  group
    .command('games')
    .description(
      'The Spaaace! games on this machine: players, your seat, how far each is decided from your transcript, and the command that resumes it.',
    )
    .option('--identity <file>', 'your identity key (default: the one `spaceships id` shows)')
    .option('--json', 'one JSON array', false)
    .action(async (opts: { identity?: string; json: boolean }) => {
      status.code = await guarded(io, 'spaaace games', async () =>
        (await import('./spaaace-games.js')).spaaaceGamesCommand(io, opts),
      )
    })
  group
    .command('record')
    .description('Spaaace! open game records.')
    .command('random')
    .description(
      'Write a random record: legal and malformed order sets, withheld, mismatched and missing orders, to the end of its game.',
    )
    .option('--seed <seed>', 'seed: the same seed writes the same record (default: random)')
    .option(
      '--players <n>',
      `players, ${LIMITS.minPlayers} to ${LIMITS.maxPlayers}`,
      wholeNumber('--players', LIMITS.minPlayers, LIMITS.maxPlayers),
      4,
    )
    .option('--out <file>', 'write the record here (default: standard output)')
    .action(async (opts: { seed?: string; players: number; out?: string }) => {
      status.code = await spaaaceRecordRandomCommand(opts, io, () => randomBytes(8).toString('hex'))
    })
}
