/**
 * The command tree of `spaceships`: every command with its arguments, options, help texts and exit
 * statuses, and which module runs it. main.ts runs the tree and turns a failure into an exit status.
 */
import { randomBytes } from 'node:crypto'
import { Command, InvalidArgumentError, Option } from 'commander'
import { VERSION } from '../core/version.js'
import { type CliIo, wholeNumber } from './io.js'
import { registerSpaaace } from './spaaace.js'
import { registerNames } from './names-commands.js'
// The networked, interactive and arena commands load libp2p, inquirer and the bots: they are
// imported when used, so `spaceships verify` starts fast: a cold start is a cost every audit pays.
import type { GameFlags, TermsFlags } from './flags.js'
import type { ArenaFlags } from './arena.js'

function positiveInt(value: string, flag: string): number {
  const n = Number(value)
  if (!Number.isInteger(n) || n < 1 || n > 256) throw new InvalidArgumentError(`${flag}: a whole number from 1 to 256`)
  return n
}

/** The exit statuses of the commands that play a game (README, "Exit statuses"). */
const GAME_EXIT_STATUS =
  '\nExit status: as verify says of the finished game, 0 complete (or a resignation), 1 an offence, 3 incomplete, 4 abandoned, 5 adjudicated; ' +
  '64 a usage error or an unusable identity file; 69 a relay unavailable or a --listen address that cannot be bound; ' +
  '73 a file or directory that cannot be created (the state or config directory, --out); 74 one that cannot be read, or a damaged game; ' +
  '75 storage failed (the game resumes once fixed); 70 an internal error (a bug); 78 a Node older than 22.13.'

/** Builds the program; each action stores its exit status in `status`. */
export function program(io: CliIo, status: { code: number }): Command {
  const root = new Command('spaceships')
    .description('Spaceships (rules 2.6.1) between players who need no referee.')
    .version(VERSION)
    .showHelpAfterError(false)
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })

  root
    .command('referee')
    .description(
      'Adjudicate an open game record: entitlements, visible aspects and results, destruction reports, flashcube data and the end, turn by turn; or the first illegal setup or record with the player, turn and rule.',
    )
    .argument('<file>', 'game record (protocol/GAME-RECORD.md)')
    .option('--json', 'print the adjudication as JSON', false)
    .addHelpText(
      'after',
      '\nExit status: 0 legal (finished or legal so far), 1 illegal, 2 unreadable or self-contradictory record.',
    )
    .action(async (file: string, opts: { json: boolean }) => {
      status.code = await (await import('./referee.js')).refereeCommand(file, opts, io)
    })

  root
    .command('verify')
    .description(
      "Audit game transcripts with no trust in either player: every signature and chain link, every opening, and a replay of both revealed sides with the rules engine. Files of the same game (both players' transcripts) are decided together. Prints the result: complete, with the score; a proven offence (offender, class C-28, rule, turn, envelope); a resignation; an abandonment; an adjudication; or why these files decide nothing.",
    )
    .argument(
      '<files...>',
      'transcripts (protocol/SPEC.md §11; Spaaace! transcripts too, protocol/SPAAACE-PEERS.md §13, decided tick by tick), or the id of a game of this machine as games (or spaaace games) prints it; files of one game are merged, games are verified in parallel, one line each',
    )
    .option('--json', 'print the verdicts as JSON', false)
    .option(
      '--jobs <n>',
      'threads for several games (default: one fewer than the CPU cores, at least one)',
      (v: string) => positiveInt(v, '--jobs'),
    )
    .option('--separate', 'decide each file alone, even when several are of one game', false)
    .addHelpText(
      'after',
      '\nExit status (SPEC §12.8): 0 complete (or a resignation), 1 a proven offence, 2 unreadable file, 3 incomplete (these files decide nothing), 4 abandoned (a side stopped or did not reveal, and loses), 5 adjudicated (stopped early, scored on the committed turns). Spaaace! games (SPAAACE-PEERS.md §13): 0 complete, 1 a proven offence, 2 unreadable file, 3 not complete (stalled, ongoing or not started: the report says which). For several games: the first of 2, 1, 3, 4, 5 that occurs, else 0.',
    )
    .action(async (files: string[], opts: { json: boolean; jobs?: number; separate: boolean }) => {
      status.code = await (await import('./verify.js')).verifyCommand(files, opts, io)
    })

  root
    .command('selfplay')
    .description(
      'Two random legal bots play a whole game in memory with the full referee-less protocol; writes the transcript and prints its verdict.',
    )
    .option('--out <file>', 'where to write the transcript', 'selfplay.transcript')
    .option('--seed <text>', 'derive keys, salts and moves from this seed (reproducible; never for real play)')
    .option('--ruleset <ruleset>', 'ruleset (protocol/NOTATION.md)', '2.6.1 fleet=standard')
    .option('--json', 'print the verdict as JSON', false)
    .addHelpText(
      'after',
      '\nExit status: that of verify for the game played (0 complete); 64 a usage error; 73 --out cannot be written (a missing or unwritable directory).',
    )
    .action(async (opts: { out: string; seed?: string; ruleset: string; json: boolean }) => {
      status.code = await (await import('./verify.js')).selfplayCommand(opts, io)
    })

  const setup = root
    .command('setup')
    .description('Make or check a setup in the notation: one line per ship, type and identity then cells.')
  const rulesetOption = (): Option =>
    new Option('--ruleset <text>', 'ruleset, e.g. "2.6.1", "classic", "2.6.1 fleet=cost:24"').default('2.6.1')
  const additionalOption = (): Option =>
    new Option('--additional <n>', 'continued match: cost (classic: cells) of additional ships').default('0')
  setup
    .command('random')
    .description('Print a random legal setup.')
    .addOption(rulesetOption())
    .addOption(additionalOption())
    .option('--seed <seed>', 'seed for a reproducible setup (default: random)')
    .action(async (opts: { ruleset: string; additional: string; seed?: string }) => {
      status.code = (await import('./setup.js')).setupRandomCommand(opts, io, () => randomBytes(8).toString('hex'))
    })
  setup
    .command('check')
    .description('Check a setup file against the rules and print its canonical form.')
    .argument('<file>', 'setup file, one ship per line')
    .addOption(rulesetOption())
    .addOption(additionalOption())
    .addHelpText('after', '\nExit status: 0 legal, 1 illegal, 2 unreadable.')
    .action(async (file: string, opts: { ruleset: string; additional: string }) => {
      status.code = await (await import('./setup.js')).setupCheckCommand(file, opts, io)
    })
  root
    .command('record')
    .description('Game records (protocol/GAME-RECORD.md).')
    .command('random')
    .description('Play two random legal players against each other and print the whole game as a record.')
    .addOption(rulesetOption())
    .option('--seed <seed>', 'seed for a reproducible game (default: random)')
    .action(async (opts: { ruleset: string; seed?: string }) => {
      status.code = (await import('./setup.js')).recordRandomCommand(opts, io, () => randomBytes(8).toString('hex'))
    })
  const collect = (v: string, prev: string[] = []): string[] => [...prev, v]
  // Each command says what an option does there: only `play` has a bot for an opponent, and a
  // resumed game takes a setup only if it never chose one.
  const gameOptions = (c: Command, where: 'play' | 'host' | 'join' | 'resume' = 'host'): Command =>
    c
      .option(
        '--setup <file>',
        where === 'resume'
          ? 'if the game has no setup yet: yours from a file in the notation (default: choose interactively)'
          : 'your setup from a file in the notation (default: choose interactively)',
      )
      .option(
        '--random',
        where === 'resume' ? 'if the game has no setup yet: a random legal one' : 'a random legal setup',
      )
      .option(
        '--autoplay',
        where === 'resume' ? 'a bot plays your side from now on' : 'a bot plays your side too (a non-interactive demo)',
      )
      .option(
        '--bot <name>',
        where === 'play'
          ? 'the built-in bot: hard, medium (its old name: strong), easy or random; your opponent, and with --autoplay your side too'
          : 'with --autoplay: the built-in bot that plays your side: hard, medium (its old name: strong), easy or random',
        'hard',
      )
      .option('--seed <text>', "seed for the bots' choices (reproducible moves; salts stay secret)")
      .option(
        '--pace <ms>',
        "with --autoplay: wait this long before each of your bot's moves",
        wholeNumber('--pace', 0, 60_000),
      )
      .option('--identity <file>', 'your identity key file (default: $XDG_CONFIG_HOME/spaceships/identity)')
      .option(
        '--name <name>',
        'the name the other player sees beside your PeerId in this game (version 4 games; default: the one set with the name command)',
      )
      .option('--out <file>', 'also write the transcript here when the game ends')
      .option(
        '--notify <command>',
        'run this program with the game id and "your-move" or "ended" as its arguments when that happens (never through a shell)',
      )
      .option('--json', 'print the result as JSON', false)
  const termsOptions = (c: Command): Command =>
    c
      .option('--ruleset <text>', 'ruleset (protocol/NOTATION.md)', '2.6.1 fleet=standard')
      .option('--max-turns <n>', 'agreed turn limit (SPEC §6.4)', '1000')
      .option('--turn-seconds <n>', 'deadline for each setup and move', '600')
      .option(
        '--reply-seconds <n>',
        'deadline for each automatic reply (default 60; with --notary, the --turn-seconds: a player who only checks in answers when it checks in)',
      )
  const netOptions = (c: Command): Command =>
    c
      .option('--listen <multiaddr>', 'listen address (repeatable)', collect)
      .option('--relay <multiaddr>', 'relay to reserve a slot on, for players behind NAT (repeatable)', collect)
      .option(
        '--rematch <n>',
        'after the game, offer or accept up to N more on the same connection, the sides swapped each time (you are asked; a bot accepts)',
        wholeNumber('--rematch', 0, 100),
      )

  termsOptions(
    gameOptions(
      root
        .command('play')
        .description(
          'Play the built-in bot on this machine, over a real libp2p connection on loopback with the full protocol; the transcript is written and verified at the end.',
        ),
      'play',
    ),
  )
    .addHelpText('after', GAME_EXIT_STATUS)
    .action(async (opts: GameFlags & TermsFlags) => {
      status.code = await (await import('./play.js')).playCommand(io, opts)
    })
  netOptions(
    termsOptions(
      gameOptions(root.command('host').description('Host a game: print an invite and wait for the opponent to join.')),
    ),
  )
    .addHelpText('after', GAME_EXIT_STATUS)
    .option(
      '--notary <multiaddr>',
      'a notary to witness the game (its address ending in /p2p/ and its PeerId, as spaceships notary prints): every envelope is receipted with its time and both transcripts keep the log (PROTOCOL-4.md §4.1); its clock decides: a side that does not move by the deadline loses on time once the other claims (§4.4)',
    )
    .option(
      '--wait <seconds>',
      'how long to wait for the opponent to join',
      wholeNumber('--wait', 1, 30 * 86_400),
      3600,
    )
    .option('--invite-file <file>', 'also write the invite to this file')
    .action(async (opts: GameFlags & TermsFlags & { wait: number; inviteFile?: string }) => {
      status.code = await (await import('./host.js')).hostCommand(io, opts)
    })
  netOptions(
    gameOptions(
      root
        .command('join')
        .description("Join a game from the host's invite (or @FILE holding it); a game already begun here resumes."),
      'join',
    ),
  )
    .addHelpText('after', GAME_EXIT_STATUS)
    .argument('<invite>', 'the invite the host printed, or @file')
    .option('--yes', 'accept the terms without asking')
    .action(async (invite: string, opts: GameFlags) => {
      status.code = await (await import('./join.js')).joinCommand(io, invite, opts)
    })
  gameOptions(
    root
      .command('resume')
      .description(
        'Resume an unfinished game after a crash or restart, or settle a provisional result by meeting the other node again (no id: list them).',
      ),
    'resume',
  )
    .addHelpText('after', GAME_EXIT_STATUS)
    .argument('[id]', 'the game id')
    .option(
      '--settle <seconds>',
      'for a game with a provisional result: how long to wait for the other node (default 120)',
      wholeNumber('--settle', 1, 86_400),
    )
    .option(
      '--outage',
      'for a witnessed game whose notary cannot be reached: once the other player is past its deadline by the outage period (10 minutes, or the reply deadline if longer), end the game as unwitnessed by an outage stop (PROTOCOL-4.md §4.5); it loses if the notary receipted anything after that deadline',
    )
    .option(
      '--rematch <n>',
      'after the game, offer or accept up to N more (default: as many as the game was begun with)',
      wholeNumber('--rematch', 0, 100),
    )
    .option(
      '--check-in',
      'for a witnessed game: fetch from the notary what the other player sent, answer it, play your move, submit, and exit once the next step is theirs (neither node need run in between)',
    )
    .action(async (id: string | undefined, opts: GameFlags) => {
      status.code = await (await import('./resume.js')).resumeCommand(io, id, opts)
    })
  root
    .command('games')
    .description(
      'List the games on this machine: date, opponent, turn reached, result; which ones resume can carry on.',
    )
    .option('--json', 'print them as JSON', false)
    .addHelpText(
      'after',
      '\nA game whose directory cannot be read or whose meta.json is damaged is listed as damaged, with its id and what is wrong.\nExit status: 0 listed; 74 the games directory cannot be read.',
    )
    .action(async (opts: { json: boolean }) => {
      status.code = await (await import('./library.js')).gamesSettling(io, opts)
    })
  root
    .command('export')
    .description(
      'Write a finished game as a game record (protocol/GAME-RECORD.md), the format the referee reads, from the setups and records both players revealed.',
    )
    .argument('<game>', 'a game id (or its first characters, as games prints it) or a transcript file')
    .option('--out <file>', 'write the record here (default: standard output)')
    .addHelpText(
      'after',
      '\nExit status: 0 written; 64 no such game, or one that cannot be exported; 73 --out cannot be written; 74 the game is damaged.',
    )
    .action(async (game: string, opts: { out?: string }) => {
      status.code = await (await import('./library.js')).exportCommand(io, game, opts)
    })
  root
    .command('relay')
    .description(
      'Run a circuit-relay-v2 server so players behind NAT can reach each other (no limits for allowed players).',
    )
    .option('--listen <multiaddr>', 'listen address (repeatable; default tcp 4001 and ws 4002)', collect)
    .option('--allow <peerid>', 'a player allowed to use the relay, with no limits (repeatable)', collect)
    .option('--open', 'let anyone use the relay, each circuit limited to a day and 64 MiB')
    .option('--identity <file>', "the relay's key file (default: $XDG_CONFIG_HOME/spaceships/relay-identity)")
    .option(
      '--for <seconds>',
      'stop after this long (default: until interrupted)',
      wholeNumber('--for', 1, 365 * 86_400),
    )
    .option('--json', 'print the addresses as JSON', false)
    .addHelpText(
      'after',
      '\nExit status: 0 stopped; 64 a usage error (an --allow that is not a PeerId) or an unusable key file; 69 a --listen address that cannot be bound; 73 the key cannot be created.',
    )
    .action(
      async (opts: {
        listen?: string[]
        allow?: string[]
        open?: boolean
        identity?: string
        for?: number
        json: boolean
      }) => {
        status.code = await (await import('./relay.js')).relayCommand(io, opts)
      },
    )
  root
    .command('watch')
    .description(
      'Check in on every witnessed game on this machine unattended: answer what the other side sent (results, openings; a bot plays its moves), say when a move is yours (PROTOCOL-4.md §4).',
    )
    .option('--every <seconds>', 'how often (default 60)', wholeNumber('--every', 5, 86_400))
    .option('--once', 'one pass over the games, then exit')
    .option(
      '--notify <command>',
      'run this program with the game id and "your-move" or "ended" as its arguments when that happens (never through a shell)',
    )
    .option('--identity <file>', 'your identity key file (default: $XDG_CONFIG_HOME/spaceships/identity)')
    .addHelpText('after', '\nExit status: 0 stopped; 64 an unusable key file; 74 a damaged game directory.')
    .action(async (opts: { every?: number; once?: boolean; notify?: string; identity?: string }) => {
      status.code = await (await import('./watch.js')).watchCommand(io, opts as never)
    })
  root
    .command('notary')
    .description(
      'Run a notary for witnessed games of Spaceships and of Spaaace!: it receipts each envelope with its time, so a clock decides, and holds them encrypted for the players (PROTOCOL-4.md §4, NOTARY.md, SPAAACE-WITNESSED.md).',
    )
    .option('--listen <multiaddr>', 'listen address (repeatable; default tcp 4011 and ws 4012)', collect)
    .option('--identity <file>', "the notary's key file (default: $XDG_CONFIG_HOME/spaceships/notary-identity)")
    .option('--db <file>', "the notary's database (default: $XDG_STATE_HOME/spaceships/notary.sqlite)")
    .option('--spaaace-db <file>', 'the database of its Spaaace! games (default: spaaace-notary.sqlite beside --db)')
    .option(
      '--for <seconds>',
      'stop after this long (default: until interrupted)',
      wholeNumber('--for', 1, 365 * 86_400),
    )
    .option('--json', 'print the addresses as JSON', false)
    .addHelpText(
      'after',
      '\nOne notary serves both games: /spaceships-notary/1.0.0 and /spaaace-notary/1.0.0 (witnessed Spaaace!, 3-16 players), each game in its own database.\nExit status: 0 stopped; 64 an unusable key file; 69 a --listen address that cannot be bound; 73 the key cannot be created; 75 the database cannot be opened.',
    )
    .action(
      async (opts: {
        listen?: string[]
        identity?: string
        db?: string
        spaaaceDb?: string
        for?: number
        json: boolean
      }) => {
        status.code = await (await import('./notary.js')).notaryCommand(io, opts)
      },
    )
  root
    .command('arena')
    .description('Play many games between two bots and report wins, draws, score margin, game length and think time.')
    .option('--a <bot>', 'first bot: hard, medium (or strong), easy or random', 'hard')
    .option('--b <bot>', 'second bot: hard, medium (or strong), easy or random', 'random')
    .option('--games <n>', 'number of games (the bots alternate sides)', '100')
    .option('--seed <text>', 'seed: the same seed plays the same games', 'arena')
    .option('--ruleset <text>', 'ruleset (protocol/NOTATION.md)', '2.6.1 fleet=standard')
    .option('--max-turns <n>', 'turn limit per game', '1000')
    .option(
      '--work <n>',
      "the hard bot's inference work per move, in sampler sweeps per chain (default 6); counted, never timed, so a seed replays exactly",
    )
    .option('--fast', 'the rules engine alone, without the protocol (same games, faster)')
    .option('--json', 'print the report as JSON', false)
    .addHelpText('after', '\nExit status: 0 all games played, 1 a game failed (an illegal move or a protocol failure).')
    .action(async (opts: ArenaFlags) => {
      status.code = await (await import('./arena.js')).arenaCommand(io, opts)
    })
  root
    .command('show')
    .description(
      'Replay a finished game turn by turn (a Spaaace! game tick by tick), as in the live game, from one side.',
    )
    .argument(
      '<files...>',
      'transcripts of one game (one is enough when it holds both reveals), or the id of a game on this machine (as games prints it)',
    )
    .option(
      '--as <role>',
      'whose side to show, A (host) or B (joiner); in a Spaaace! game a seat, p1 to p16 (default: the seat whose file it is)',
      'A',
    )
    .option('--turn <n>', 'show only this turn (a Spaaace! tick)', wholeNumber('--turn', 1, 1000))
    .action(async (files: string[], opts: { as: string; turn?: number }) => {
      status.code = await (await import('./show.js')).showCommand(io, files, opts)
    })
  root
    .command('id')
    .description('Show your identity (PeerId), creating it on first use.')
    .option('--identity <file>', 'identity key file (default: $XDG_CONFIG_HOME/spaceships/identity)')
    .option('--json', 'print as JSON', false)
    .addHelpText(
      'after',
      '\nExit status: 0 shown; 64 an unusable identity file (damaged, a link to nowhere, or writable by others); 73 it cannot be created (an unwritable config directory or HOME).',
    )
    .action(async (opts: { identity?: string; json: boolean }) => {
      status.code = await (await import('./identity.js')).idCommand(io, opts)
    })
  registerNames(root, io, status)
  root
    .command('learn')
    .description(
      'A short tutorial for a first game: the notation on a real board in five lessons, four exercises checked as you type.',
    )
    .action(async () => {
      status.code = await (await import('./learn.js')).learnCommand(io)
    })
  registerSpaaace(root, io, status)
  return root
}
