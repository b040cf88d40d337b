/**
 * `spaceships resume`: the games this machine can carry on, listed; or one of them carried on as
 * the side it was, or its provisional result settled by meeting the other node again.
 */
import { parseInvite } from '../games/spaceships/net/invite.js'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type GameMeta, findGame, gameDir, resumableGames, roleText } from './games.js'
import { type CliIo, EXIT, UserError, commandName } from './io.js'
import { type GameFlags, SETTLE_SECONDS, withPlayer } from './flags.js'
import { runCheckIn, runHost, runJoin } from './net.js'
import { recoverIfLost } from './recover.js'
import { guarded } from './guarded.js'
import { ownNameFor, peerNamesFor } from './peer-names.js'

const env = (io: CliIo): NodeJS.ProcessEnv => io.env ?? process.env

/** Whether a game file holds anything beyond a header line (a transcript) or at all (a journal). */
function holds(path: string, header: boolean): boolean {
  try {
    const text = readFileSync(path, 'latin1')
    return header ? text.indexOf('\n') + 1 < text.length : text.length > 0
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return false
    throw e
  }
}

/**
 * SPEC §2.2: a begun game with neither its transcript nor its journal on this machine has nothing
 * to resume from: carrying on would sign again from the start, at places this node has signed.
 */
function refuseWithoutFiles(id: string, begun: boolean, e: NodeJS.ProcessEnv): void {
  const dir = gameDir(id, e)
  if (!begun || holds(join(dir, 'transcript'), true) || holds(join(dir, 'journal'), false)) return
  throw new UserError(
    `game ${id} has neither its transcript nor its journal in ${dir}: there is nothing to resume from, and carrying on would sign again places this node has signed; put them back, or let the file of the other player decide the game`,
    EXIT.ioError,
  )
}

export function resumeCommand(io: CliIo, id: string | undefined, f: GameFlags): Promise<number> {
  return guarded(io, 'resume', async () => {
    const cmd = commandName(env(io))
    if (id === undefined) {
      const open = resumableGames(env(io))
      const names = peerNamesFor(io)
      const labelOf = (m: GameMeta): string => names.label(m.opponent, m.opponentName) ?? ''
      io.stdout(
        open.length === 0
          ? `No game to resume (all games: ${cmd} games)\n`
          : `${open.map((m) => `${m.id.slice(0, 8)}  ${roleText(m)}  ${m.created?.slice(0, 16).replace('T', ' ') ?? ''}  opponent ${m.opponent === undefined ? '(not yet joined)' : labelOf(m)}${m.provisional === true ? '  (provisional result: resume settles it)' : ''}\n`).join('')}Resume one: ${cmd} resume ID\n`,
      )
      return EXIT.ok
    }
    ownNameFor(f, io)
    let meta = findGame(id, env(io))
    if (meta.provisional === true && f.json !== true) {
      const short = meta.id.slice(0, 8)
      io.stdout(
        `Game ${short} ended with a provisional result: ${meta.result ?? meta.finished ?? ''}\nSettling it: waiting up to ${f.settle ?? SETTLE_SECONDS} s for your opponent's node to meet this one (on their machine: ${cmd} resume ${short}).\n`,
      )
    } else if (meta.finished !== undefined)
      throw new UserError(
        `game ${meta.id} is already over: ${meta.result ?? meta.finished} (${
          // A record needs both reveals: a game that ended without them has none to export.
          meta.finished === 'complete' || meta.finished === 'resigned' || meta.finished === 'adjudicated'
            ? `its record: ${cmd} export ${meta.id.slice(0, 8)}`
            : `its verdict: ${cmd} verify ${meta.id.slice(0, 8)}`
        })`,
      )
    if (meta.against !== undefined)
      throw new UserError(
        `game ${meta.id} was against the ${meta.against} bot, whose side lived only in that process: it cannot be resumed; start a new one with ${cmd} play`,
      )
    const invite = parseInvite(meta.invite)
    if (!invite.ok)
      throw new UserError(
        meta.invite === '' && meta.role !== 'join'
          ? `game ${id} never got as far as an invite; host a new one`
          : `game ${meta.id} cannot be resumed: its ${invite.error.field}: ${invite.error.message}`,
      )
    refuseWithoutFiles(meta.id, meta.opponent !== undefined, env(io))
    meta = withPlayer(meta, f, io)
    // The rematches agreed to when the game began (SPEC §2.4), unless this resume says otherwise.
    if (f.rematch === undefined && meta.rematch !== undefined) f = { ...f, rematch: meta.rematch }
    // A witnessed game's lost envelopes come back from its notary first (PROTOCOL-4.md §6).
    await recoverIfLost(io, f, meta)
    if (f.checkIn === true) return runCheckIn(io, f, meta)
    if (meta.role === 'join') return runJoin(io, f, meta)
    return runHost(io, f, meta, invite.value.terms, 3_600_000, undefined, invite.value.notary)
  })
}
