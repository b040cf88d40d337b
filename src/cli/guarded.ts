/**
 * How a networked command's failure reaches the player: one line saying what happened and what to
 * do next, and its exit status (README, "Exit statuses"). Anything unforeseen is thrown on: a bug.
 */
import { NobodyJoinedError, NotServedError, RelayError } from '../games/spaceships/net/options.js'
import { IdentityFileError } from '../core/net/identity-error.js'
import { StorageError } from '../games/spaceships/session/store.js'
import { type CliIo, EXIT, UserError, commandName } from './io.js'

const env = (io: CliIo): NodeJS.ProcessEnv => io.env ?? process.env

/**
 * The player left a game at a prompt (Ctrl-C): nothing was signed, and the game is paused. It
 * names the game, so that the advice is the command that carries that game on: in a witnessed
 * game also the check-in, since the deadline runs on (README, "Witnessed games").
 */
export class GameLeftError extends Error {
  constructor(
    readonly game: string,
    readonly witnessed: boolean,
    /** Where the player pressed Ctrl-C: at a prompt, or while the game waited (`interruptible`). */
    readonly where: 'at the prompt' | 'while waiting' = 'at the prompt',
    /** Whether an opponent had joined: before that no game began, no clock runs, nothing is checked in. */
    readonly joined = true,
    /** Whether this side had signed its stop already: the game is ending, and a resume finishes it. */
    readonly stopSigned = false,
  ) {
    super(`left ${where}`)
    this.name = 'GameLeftError'
  }
}

/** What `interruptible` rejects with: Ctrl-C while no prompt held the terminal. */
export function interruptedWhileWaiting(e: unknown): boolean {
  return leftAtPrompt(e) && (e as { whileWaiting?: boolean }).whileWaiting === true
}

/**
 * Runs `body`, whose Ctrl-C while no prompt holds the terminal (the terminal is not raw then, so
 * it is a SIGINT, which had killed the process with no word of the game) rejects as Ctrl-C at a
 * prompt does, so the same line is said: nothing was signed for it, and every file is as a kill
 * leaves it, which a game survives. A second Ctrl-C kills at once, as usual.
 */
export async function interruptible<T>(body: () => Promise<T>): Promise<T> {
  let onSigint = (): void => undefined
  const interrupted = new Promise<never>((_, reject) => {
    onSigint = () => {
      reject(
        Object.assign(new Error('stopped while waiting (Ctrl-C)'), { name: 'ExitPromptError', whileWaiting: true }),
      )
    }
  })
  process.once('SIGINT', onSigint)
  try {
    return await Promise.race([body(), interrupted])
  } finally {
    process.removeListener('SIGINT', onSigint)
  }
}

/** Whether `e` is the prompt's own report of Ctrl-C (inquirer's ExitPromptError). */
export function leftAtPrompt(e: unknown): boolean {
  return e instanceof Error && e.name === 'ExitPromptError'
}

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
    if (e instanceof GameLeftError) {
      const cmd = commandName(env(io))
      const short = e.game.slice(0, 8)
      io.stderr(
        !e.joined
          ? `spaceships ${name}: stopped while waiting for your opponent to join; no game began, and the invite stays valid: wait again with ${cmd} resume ${short}\n`
          : e.stopSigned
            ? `spaceships ${name}: stopped ${e.where}; your node's stop is signed already, so game ${short} is ending: it waits for your opponent's node to answer. Finish it with ${cmd} resume ${short}\n`
            : e.witnessed
              ? `spaceships ${name}: stopped ${e.where}; no stop was signed, and game ${short} is paused, but the clock runs on: once your move is past its deadline, your opponent may claim the win on time through the notary. Carry it on with ${cmd} resume ${short}, or play what is due through the notary and exit with ${cmd} resume ${short} --check-in\n`
              : `spaceships ${name}: stopped ${e.where}; no stop was signed, and game ${short} is paused. Carry it on with ${cmd} resume ${short}\n`,
      )
      return EXIT.incomplete
    }
    if (leftAtPrompt(e)) {
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
