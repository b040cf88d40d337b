/**
 * `spaceships watch`: every witnessed game on this machine checked in on unattended (PROTOCOL-4.md
 * §4, games across days): what the other side sent is fetched from the notary and every automatic
 * step answered (results, openings, flashcube data; a bot's moves too); a person's own move is left
 * for `resume ID --check-in`, and said ("YOUR MOVE", the bell, `--notify`). Again every `--every`
 * seconds until interrupted, or once.
 */
import { parseInvite } from '../games/spaceships/net/invite.js'
import { listGames, resumable } from './games.js'
import type { GameFlags } from './flags.js'
import { guarded } from './guarded.js'
import { type CliIo, EXIT } from './io.js'
import { runCheckIn } from './net.js'
import { recoverIfLost } from './recover.js'

const env = (io: CliIo): NodeJS.ProcessEnv => io.env ?? process.env

export interface WatchFlags extends GameFlags {
  readonly every?: number
  readonly once?: boolean
}

export function watchCommand(
  io: CliIo,
  f: WatchFlags,
  stop: Promise<void> = new Promise(() => undefined),
): Promise<number> {
  return guarded(io, 'watch', async () => {
    const state = { stopped: false }
    void stop.then(() => (state.stopped = true))
    for (;;) {
      const games = listGames(env(io)).games.filter((m) => {
        const invite = parseInvite(m.invite)
        return resumable(m) && m.provisional !== true && invite.ok && invite.value.notary !== undefined
      })
      if (games.length === 0 && f.once === true) io.stdout('No witnessed game to watch.\n')
      for (const meta of games) {
        // Nobody joined yet: nothing to check in on (the host waits with `resume`).
        if (meta.opponent === undefined && meta.role === 'host') {
          if (f.once === true) io.stdout(`game ${meta.id.slice(0, 8)}: nobody has joined yet\n`)
          continue
        }
        try {
          await recoverIfLost(io, f, meta)
          await runCheckIn(io, f, meta, true)
        } catch (e) {
          // One game that cannot be checked in on (its lock held by a running resume, a damaged file)
          // is said in one line; the others are still watched.
          if (!(e instanceof Error)) throw e
          io.stderr(`game ${meta.id.slice(0, 8)}: ${e.message}\n`)
        }
      }
      if (f.once === true || state.stopped) return EXIT.ok
      // Until the next pass, or until stopped (whichever comes first).
      const next = await Promise.race([
        stop.then(() => 'stop' as const),
        new Promise<'again'>((r) => {
          setTimeout(
            () => {
              r('again')
            },
            (f.every ?? 60) * 1000,
          )
        }),
      ])
      if (next === 'stop') return EXIT.ok
    }
  })
}
