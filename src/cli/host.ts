/**
 * `spaceships host`: a new game on this machine, recorded before anything is sent so that it can
 * be resumed, whose invite is printed for the opponent; net.ts runs it.
 */
import { randomBytes } from 'node:crypto'
import { RelayError } from '../games/spaceships/net/game.js'
import { type GameMeta, forgetGame, writeMeta } from './games.js'
import { type CliIo, UserError, commandName, isListenError } from './io.js'
import { SCREEN_COLUMNS, deadlineText, wrap } from '../games/spaceships/ui/panel.js'
import { notaryKeyOf } from '../games/spaceships/net/invite.js'
import { type GameFlags, type TermsFlags, checkSetupFile, checkSide, playerMeta, termsFrom } from './flags.js'
import { DEFAULT_LISTEN, runHost } from './net.js'
import { guarded } from './guarded.js'
import { ownNameFor } from './peer-names.js'

const env = (io: CliIo): NodeJS.ProcessEnv => io.env ?? process.env

/** Moves this long or longer make a game played by check-ins (README: a move a day). */
const CHECK_IN_MOVE_MS = 3_600_000

export function hostCommand(
  io: CliIo,
  f: GameFlags & TermsFlags & { wait: number; inviteFile?: string; notary?: string },
): Promise<number> {
  return guarded(io, 'host', async () => {
    // PROTOCOL-4.md §3: the notary is named by its key (in the terms), reached at its address.
    const notary = f.notary === undefined ? undefined : notaryKeyOf(f.notary)
    if (notary !== undefined && !notary.ok) throw new UserError(`--notary: ${notary.message}`)
    // A witnessed game's automatic replies get the move's deadline unless told: a player who only
    // checks in (a move a day) answers when it checks in, and time is evidence there (PROTOCOL-4.md §4.2).
    const terms =
      notary === undefined
        ? termsFrom(f)
        : {
            ...termsFrom({ ...f, replySeconds: f.replySeconds ?? f.turnSeconds }),
            notary: notary.key,
            reserveMs: 0,
          }
    if (notary !== undefined && terms.replyMs < terms.turnMs && terms.turnMs >= CHECK_IN_MOVE_MS)
      io.stderr(
        `${wrap(
          `warning: --reply-seconds ${terms.replyMs / 1000} in a game of ${deadlineText(terms.turnMs)} per move: each automatic step (results, openings, flashcube data) is due within ${deadlineText(terms.replyMs)} of the move it answers, so a player who only checks in loses on time unless \`${commandName(env(io))} watch\` runs on its machine.`,
          SCREEN_COLUMNS,
          '  ',
        )}\n`,
      )
    checkSetupFile(f, terms)
    checkSide(io, f)
    ownNameFor(f, io)
    const id = randomBytes(16).toString('hex')
    const meta: GameMeta = {
      v: 1,
      id,
      role: 'host',
      invite: '',
      listen: f.listen ?? DEFAULT_LISTEN,
      relays: f.relay ?? [],
      player: playerMeta(f),
      ...(f.rematch === undefined || f.rematch <= 0 ? {} : { rematch: f.rematch }),
    }
    writeMeta(meta, env(io))
    try {
      return await runHost(
        io,
        f,
        meta,
        terms,
        f.wait * 1000,
        f.inviteFile,
        f.notary === undefined ? undefined : [f.notary],
      )
    } catch (e) {
      // No invite went out: nothing to resume.
      if (e instanceof RelayError || isListenError(e)) forgetGame(meta.id, env(io))
      throw e
    }
  })
}
