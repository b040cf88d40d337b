#!/usr/bin/env node
/** The `spaceships` command line. */
import { randomBytes } from 'node:crypto'
import { realpathSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { Command, CommanderError, Option } from 'commander'
import { type CliIo, EXIT, processIo } from './io.js'
import { refereeCommand } from './referee.js'
import { selfplayCommand, verifyCommand } from './verify.js'
import { recordRandomCommand, setupCheckCommand, setupRandomCommand } from './setup.js'

export const VERSION = '0.1.0'

/** Builds the program; each action stores its exit status in `status`. */
function program(io: CliIo, status: { code: number }): Command {
  const root = new Command('spaceships')
    .description('Spaceships (rules 2.6.1) between players who need no referee.')
    .version(VERSION)
    .showHelpAfterError()
    .exitOverride()
    .configureOutput({ writeOut: io.stdout, writeErr: io.stderr })

  root
    .command('referee')
    .description('Adjudicate an open game record: entitlements, visible aspects and results, destruction reports, flashcube data and the end, turn by turn; or the first illegal setup or record with the player, turn and rule.')
    .argument('<file>', 'game record (protocol/GAME-RECORD.md)')
    .option('--json', 'print the adjudication as JSON', false)
    .addHelpText('after', '\nExit status: 0 legal (finished or legal so far), 1 illegal, 2 unreadable or self-contradictory record.')
    .action(async (file: string, opts: { json: boolean }) => {
      status.code = await refereeCommand(file, opts, io)
    })

  root
    .command('verify')
    .description('Audit a game transcript with no trust in either player: every signature and chain link, every opening, and a replay of both revealed sides with the rules engine. Prints the verdict: complete and honest with the score; or the first offence with offender, class (C-28), rule, turn and envelope; or incomplete, with who stopped.')
    .argument('<file>', 'transcript (protocol/SPEC.md §10)')
    .option('--json', 'print the verdict as JSON', false)
    .addHelpText('after', '\nExit status: 0 complete and honest, 1 a proven offence, 2 unreadable file, 3 incomplete game.')
    .action(async (file: string, opts: { json: boolean }) => {
      status.code = await verifyCommand(file, opts, io)
    })

  root
    .command('selfplay')
    .description('Two random legal bots play a whole game in memory with the full referee-less protocol; writes the transcript and prints its verdict.')
    .option('--out <file>', 'where to write the transcript', 'selfplay.transcript')
    .option('--seed <text>', 'derive keys, salts and moves from this seed (reproducible; never for real play)')
    .option('--ruleset <ruleset>', 'ruleset (protocol/NOTATION.md)', '2.6.1 fleet=standard')
    .option('--json', 'print the verdict as JSON', false)
    .action(async (opts: { out: string; seed?: string; ruleset: string; json: boolean }) => {
      status.code = await selfplayCommand(opts, io)
    })

  const setup = root.command('setup').description('Make or check a setup in the notation: one line per ship, type and identity then cells.')
  const rulesetOption = (): Option => new Option('--ruleset <text>', 'ruleset, e.g. "2.6.1", "classic", "2.6.1 fleet=cost:24"').default('2.6.1')
  const additionalOption = (): Option => new Option('--additional <n>', 'continued match: cost (classic: cells) of additional ships').default('0')
  setup
    .command('random')
    .description('Print a random legal setup.')
    .addOption(rulesetOption())
    .addOption(additionalOption())
    .option('--seed <seed>', 'seed for a reproducible setup (default: random)')
    .action((opts: { ruleset: string; additional: string; seed?: string }) => {
      status.code = setupRandomCommand(opts, io, () => randomBytes(8).toString('hex'))
    })
  setup
    .command('check')
    .description('Check a setup file against the rules and print its canonical form.')
    .argument('<file>', 'setup file, one ship per line')
    .addOption(rulesetOption())
    .addOption(additionalOption())
    .addHelpText('after', '\nExit status: 0 legal, 1 illegal, 2 unreadable.')
    .action(async (file: string, opts: { ruleset: string; additional: string }) => {
      status.code = await setupCheckCommand(file, opts, io)
    })
  root
    .command('record')
    .description('Game records (protocol/GAME-RECORD.md).')
    .command('random')
    .description('Play two random legal players against each other and print the whole game as a record.')
    .addOption(rulesetOption())
    .option('--seed <seed>', 'seed for a reproducible game (default: random)')
    .action((opts: { ruleset: string; seed?: string }) => {
      status.code = recordRandomCommand(opts, io, () => randomBytes(8).toString('hex'))
    })
  return root
}

/** Runs the CLI on argv (without `node` and the script); returns the exit status. */
export async function run(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  const status = { code: EXIT.ok as number }
  try {
    await program(io, status).parseAsync([...argv], { from: 'user' })
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.ok : EXIT.usage
    throw e
  }
  return status.code
}

function invokedDirectly(): boolean {
  const script = process.argv[1]
  if (script === undefined) return false
  try {
    return realpathSync(script) === realpathSync(fileURLToPath(import.meta.url))
  } catch {
    return false
  }
}

if (invokedDirectly()) {
  process.exitCode = await run(process.argv.slice(2))
}
