/**
 * How a networked command's failure reaches the player: one line saying what happened and what to
 * do next, and its exit status (README, "Exit statuses"). Anything unforeseen is thrown on: a bug.
 */
import { NobodyJoinedError, NotServedError, RelayError } from '../games/spaceships/net/options.js'
import { IdentityFileError } from '../core/net/identity-error.js'
import { StorageError } from '../games/spaceships/session/store.js'
import { type CliIo, EXIT, UserError, commandName } from './io.js'

const env = (io: CliIo): NodeJS.ProcessEnv => io.env ?? process.env

export async function guarded(io: CliIo, name: string, body: () => Promise<number>): Promise<number> {
  try {
    return await body()
  } catch (e) {
    if (e instanceof UserError) {
      io.stderr(`spaceships ${name}: ${e.message}\n`)
      return e.exitCode
    }
    if (e instanceof StorageError) {
      io.stderr(
        `spaceships ${name}: ${e.message}. The game stopped before signing or sending anything more; fix that, then run ${commandName(env(io))} resume (it lists the game)\n`,
      )
      return EXIT.storage
    }
    if (e instanceof RelayError) {
      io.stderr(`spaceships ${name}: ${e.message}\n`)
      return EXIT.unavailable
    }
    if (e instanceof NotServedError) {
      // One line, then stop (SPEC §2.3): dialling on would only be refused again.
      const cmd = commandName(env(io))
      io.stderr(
        `spaceships ${name}: ${e.message.charAt(0).toUpperCase()}${e.message.slice(1)}: stopping. No stop was signed: game ${e.game.slice(0, 8)} stays unfinished; should its host serve it again, carry on with ${cmd} resume ${e.game.slice(0, 8)}\n`,
      )
      return EXIT.unavailable
    }
    if (e instanceof NobodyJoinedError) {
      io.stderr(
        `spaceships ${name}: ${e.message}; no game began. The invite stays valid: wait again with ${commandName(env(io))} resume (it lists the game)\n`,
      )
      return EXIT.incomplete
    }
    if (e instanceof IdentityFileError) {
      io.stderr(
        `spaceships ${name}: your identity file is unusable: ${e.message} (restore it from a backup, or move it away to create a new identity)\n`,
      )
      return EXIT.usage
    }
    if (e instanceof Error && e.name === 'ExitPromptError') {
      io.stderr(
        name === 'play'
          ? `spaceships play: stopped. A game against the bot cannot be resumed; start a new one with ${commandName(env(io))} play\n`
          : `spaceships ${name}: stopped. Resume with: ${commandName(env(io))} resume\n`,
      )
      return EXIT.incomplete
    }
    throw e
  }
}
