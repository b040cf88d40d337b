#!/usr/bin/env node
/**
 * The `spaceships` command line: runs the command tree (program.ts) on the arguments and turns
 * whatever it throws into one line and an exit status, never a stack trace.
 */
import { realpathSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { type Command, CommanderError } from 'commander'
import { componentLogger } from '../core/log.js'
import { type CliIo, EXIT, UserError, commandName, fileProblem, listenProblem, processIo } from './io.js'
import { program } from './program.js'

/**
 * A command name that names no command, when help is asked for: commander would print the help
 * of the command above it and exit 0, as if the misspelt command existed.
 */
function unknownCommand(root: Command, argv: readonly string[]): string | undefined {
  if (!argv.some((a) => a === '--help' || a === '-h' || a === 'help')) return undefined
  let at = root
  for (const a of argv) {
    if (a.startsWith('-') || at.commands.length === 0) return undefined
    if (a === 'help') continue
    const sub = at.commands.find((c) => c.name() === a || c.aliases().includes(a))
    if (sub === undefined) return a
    at = sub
  }
  return undefined
}

/** A file error with the places this program keeps its files, loaded only when one happens. */
async function environmentFileProblem(e: unknown, env: NodeJS.ProcessEnv): Promise<UserError | undefined> {
  if (!(e instanceof Error) || (e as NodeJS.ErrnoException).syscall === undefined) return undefined
  const { stateDir, configDir } = await import('../core/net/identity.js')
  return fileProblem(e, { state: stateDir(env), config: configDir(env) }, env)
}

/** Runs the CLI on argv (without `node` and the script); returns the exit status. */
export async function run(argv: readonly string[], io: CliIo = processIo): Promise<number> {
  const status = { code: EXIT.ok as number }
  try {
    const root = program(io, status)
    const unknown = unknownCommand(root, argv)
    if (unknown !== undefined) {
      io.stderr(`error: unknown command '${unknown}' (the commands: ${commandName(io.env ?? process.env)} --help)\n`)
      return EXIT.usage
    }
    await root.parseAsync([...argv], { from: 'user' })
  } catch (e) {
    if (e instanceof CommanderError) return e.exitCode === 0 ? EXIT.ok : EXIT.usage
    // A refusal of the system (a directory that cannot be written, a port in use) is the
    // environment's, never a bug of this program: one line saying what to do, not exit 70.
    const problem =
      e instanceof UserError ? e : (listenProblem(e) ?? (await environmentFileProblem(e, io.env ?? process.env)))
    if (problem !== undefined) {
      io.stderr(`spaceships: ${problem.message}\n`)
      return problem.exitCode
    }
    // Anything else is a bug of this program, never a judgement on a game: exit 70, one line
    // (the stack goes to DEBUG=spaceships:cli).
    componentLogger('cli').error('internal error: %O', e)
    const message = e instanceof Error ? e.message : String(e)
    io.stderr(
      `spaceships: internal error: ${message.split('\n')[0] ?? ''} (a bug: run again with DEBUG=spaceships:* for details, and please report it)\n`,
    )
    return EXIT.internal
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
  const code = await run(process.argv.slice(2))
  process.exitCode = code
  // A finished command exits even if a library left a handle open (a socket mid-close).
  setTimeout(() => process.exit(code), 1000).unref()
}
