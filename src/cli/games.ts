/**
 * Games in progress on this machine: one directory per game under the XDG state directory,
 * named by the invite id, holding the transcript, the private journal (0600; it holds the salt
 * seed until the reveal) and what a restart needs to reconnect.
 */
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, unlinkSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { stateDir } from '../net/identity.js'
import { parseInvite } from '../net/invite.js'
import { type Journal, fileJournal } from '../session/journal.js'
import { fileStore } from '../session/file-store.js'
import type { TranscriptStore } from '../transcript/file.js'
import type { Verdict } from '../verify/verify.js'
import { UserError, commandName } from './io.js'

export interface GameMeta {
  readonly v: 1
  readonly id: string
  readonly role: 'host' | 'join'
  /** The invite's text (a host's own, or the one a joiner was given). */
  readonly invite: string
  /** The opponent's PeerId once known. */
  readonly opponent?: string
  /** A host's listen addresses with the ports it actually got, so a restart is found again. */
  readonly listen: readonly string[]
  readonly relays: readonly string[]
  /** How this side's moves are made, so a restart asks the same player. */
  readonly player: { readonly kind: 'human' } | { readonly kind: 'bot'; readonly bot: string; readonly seed: string }
  /** The verdict's status once the game is over. */
  readonly finished?: string
  /** When the game was created (ISO 8601); set on the first write. */
  readonly created?: string
  /** `play`: the bot level played against. Its side lives only in that process: never resumable. */
  readonly against?: string
  /** The result in words for this player, once over. */
  readonly result?: string
  /**
   * The result rests on an envelope of the other side this machine does not hold (SPEC §12.7):
   * `resume` settles it by meeting the other node again.
   */
  readonly provisional?: boolean
  /** This side's role in the game when not the usual one (a rematch swaps them, SPEC §2.4). */
  readonly side?: 'A' | 'B'
}

/** This side's role in the game: A for the host and B for the joiner, unless a rematch swapped them. */
export function sideOf(meta: GameMeta): 'A' | 'B' {
  return meta.side ?? (meta.role === 'host' ? 'A' : 'B')
}

/** How a listing names this side's part: who hosts the connection, and the role played in this game (a rematch swaps it, SPEC §2.4). */
export function roleText(meta: GameMeta): string {
  const side = sideOf(meta)
  const usual = meta.role === 'host' ? 'A' : 'B'
  return `${meta.role === 'host' ? 'you host' : 'you joined'} (${side}${side === usual ? '' : ' in a rematch'})`
}

/**
 * Whether `resume` can carry the game on: unfinished, or finished with a provisional result it
 * can settle (SPEC §12.7), networked, with an invite out that this version reads (a game of
 * another protocol version cannot go on here).
 */
export function resumable(meta: GameMeta): boolean {
  return (meta.finished === undefined || meta.provisional === true) && meta.against === undefined && meta.invite !== '' && parseInvite(meta.invite).ok
}

/** What a game's meta keeps of its end: the status, the result in words for `side`, and whether it is provisional. */
export function endedMeta(meta: GameMeta, verdict: Verdict, result: string): GameMeta {
  return { ...meta, finished: verdict.status, result, provisional: verdict.status === 'abandoned' && verdict.provisional }
}

export interface GameFiles {
  readonly dir: string
  readonly store: TranscriptStore
  readonly journal: Journal
  /** Gives up the game directory's lock (also done when the process exits). */
  release(): void
}

export function gamesDir(env: NodeJS.ProcessEnv = process.env): string {
  return join(stateDir(env), 'games')
}

export function gameDir(id: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(gamesDir(env), id)
}

export function readMeta(id: string, env: NodeJS.ProcessEnv = process.env): GameMeta | undefined {
  try {
    return JSON.parse(readFileSync(join(gameDir(id, env), 'meta.json'), 'utf8')) as GameMeta
  } catch {
    return undefined
  }
}

/** Removes a game that never began (no invite went out), so it is not offered for resuming. */
export function forgetGame(id: string, env: NodeJS.ProcessEnv = process.env): void {
  rmSync(gameDir(id, env), { recursive: true, force: true })
}

/** Written to a temporary file and renamed over the old one, so a crash never leaves half a file. */
export function writeMeta(meta: GameMeta, env: NodeJS.ProcessEnv = process.env): void {
  if (meta.created === undefined) meta = { ...meta, created: readMeta(meta.id, env)?.created ?? new Date().toISOString() }
  const dir = gameDir(meta.id, env)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const tmp = join(dir, `meta.json.${process.pid}.tmp`)
  writeFileSync(tmp, JSON.stringify(meta, null, 2) + '\n', { mode: 0o600 })
  renameSync(tmp, join(dir, 'meta.json'))
}

/** Whether a process with this id runs on this machine (signal 0 checks without signalling). */
function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM'
  }
}

/**
 * An exclusive lock on a game directory: two processes resuming one game could each sign an
 * envelope at the same place (equivocation, SPEC §5.3). The lock file names its holder; a lock
 * whose process is gone (a crash, SIGKILL) is taken over.
 */
function lockGame(dir: string, id: string): () => void {
  const path = join(dir, 'lock')
  const mine = `${process.pid} ${hostname()}\n`
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      writeFileSync(path, mine, { flag: 'wx', mode: 0o600 })
      let held = true
      const release = (): void => {
        if (!held) return
        held = false
        process.off('exit', release)
        try {
          unlinkSync(path)
        } catch {
          // already gone
        }
      }
      process.on('exit', release)
      return release
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e
    }
    let holder: string
    try {
      holder = readFileSync(path, 'utf8')
    } catch {
      continue
    }
    const [pidText, host] = holder.trim().split(' ')
    const pid = Number(pidText)
    if (host === hostname() && Number.isInteger(pid) && pid > 0 && pid !== process.pid && !alive(pid)) {
      unlinkSync(path)
      continue
    }
    throw new UserError(`game ${id} is open in another process (pid ${pidText ?? '?'} on ${host ?? '?'}); finish or stop that one first (a stale lock: remove ${path})`)
  }
  throw new UserError(`game ${id}: cannot take the lock ${path}`)
}

/** The game's directory, transcript and journal, locked for this process. */
export function openGameFiles(id: string, env: NodeJS.ProcessEnv = process.env): GameFiles {
  const dir = gameDir(id, env)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const release = lockGame(dir, id)
  return { dir, store: fileStore(join(dir, 'transcript')), journal: fileJournal(join(dir, 'journal')), release }
}

/** Every game on this machine, oldest first (games without a date first, by id). */
export function allGames(env: NodeJS.ProcessEnv = process.env): GameMeta[] {
  let names: string[]
  try {
    names = readdirSync(gamesDir(env))
  } catch {
    return []
  }
  const games = names.flatMap((n) => {
    const m = readMeta(n, env)
    return m === undefined ? [] : [m]
  })
  return games.sort((a, b) => (a.created ?? '').localeCompare(b.created ?? '') || a.id.localeCompare(b.id))
}

/** The games `resume` can carry on. */
export function resumableGames(env: NodeJS.ProcessEnv = process.env): GameMeta[] {
  return allGames(env).filter(resumable)
}

/** A game named by its id or an unambiguous prefix of it (as `games` prints it). */
export function findGame(ref: string, env: NodeJS.ProcessEnv = process.env): GameMeta {
  const exact = readMeta(ref, env)
  if (exact !== undefined) return exact
  const matches = ref.length >= 4 ? allGames(env).filter((m) => m.id.startsWith(ref)) : []
  if (matches.length === 1 && matches[0] !== undefined) return matches[0]
  if (matches.length > 1) throw new UserError(`${ref} names ${matches.length} games; give more of the id (see: ${commandName(env)} games)`)
  throw new UserError(`no game or transcript file named ${ref} (see: ${commandName(env)} games)`)
}
