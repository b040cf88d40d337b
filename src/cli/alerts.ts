/**
 * Telling a player it is its move when it is not looking (the open issue on games across days):
 * the terminal bell, and `--notify CMD`, a program run with the game id and the event as its two
 * arguments. Never through a shell: the arguments are data, whatever the game id or the command.
 */
import { spawn } from 'node:child_process'
import type { Role } from '../games/spaceships/protocol/messages.js'
import type { SessionEvent } from '../games/spaceships/session/session.js'
import type { CliIo } from './io.js'

/** The events `--notify` hears: the player's move is due, or the game ended. */
export type AlertEvent = 'your-move' | 'ended'

/** Runs `cmd game event` detached, its output ignored; a command that cannot start is said once. */
export function notifier(io: CliIo, cmd: string | undefined, game: string): (event: AlertEvent) => void {
  let said = false
  return (event) => {
    if (cmd === undefined) return
    try {
      const child = spawn(cmd, [game, event], { stdio: 'ignore', detached: true, shell: false })
      child.on('error', (e) => {
        if (said) return
        said = true
        io.stderr(`--notify: cannot run ${cmd}: ${e.message}\n`)
      })
      child.unref()
    } catch (e) {
      if (!said) io.stderr(`--notify: cannot run ${cmd}: ${(e as Error).message}\n`)
      said = true
    }
  }
}

/**
 * The session's events as alerts: once each time this side's move becomes due (its commitment, or
 * its setup), the bell (when `bell`) and `your-move`; nothing while the move stays due.
 */
export function moveAlerts(
  me: Role,
  o: { readonly bell: boolean; readonly io: CliIo; readonly notify: (e: AlertEvent) => void },
): (e: SessionEvent) => void {
  let due = false
  return (e) => {
    if (e.kind !== 'waiting') return
    const mine = e.side === me && (e.what.includes('commit') || e.what.includes('setup'))
    if (mine && !due) {
      if (o.bell) o.io.stdout('\x07')
      o.notify('your-move')
    }
    due = mine
  }
}
