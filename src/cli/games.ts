/**
 * Games in progress on this machine: one directory per game under the XDG state directory,
 * named by the invite id, holding the transcript, the private journal (0600; it holds the salt
 * seed until the reveal) and what a restart needs to reconnect.
 */
import type { ProtocolVersion } from '../games/spaceships/protocol/messages.js'
import { mkdirSync, readFileSync, readdirSync, renameSync, rmSync, statSync, unlinkSync, writeFileSync } from 'node:fs'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { stateDir } from '../core/net/identity.js'
import { parseInvite } from '../games/spaceships/net/invite.js'
import { nameProblem } from '../games/spaceships/protocol/name.js'
import { type Journal, fileJournal } from '../games/spaceships/session/journal.js'
import { fileStore } from '../games/spaceships/session/store.js'
import type { TranscriptStore } from '../games/spaceships/protocol/file.js'
import type { Verdict } from '../games/spaceships/verify/verify.js'
import { EXIT, UserError, commandName } from './io.js'

export interface GameMeta {
  readonly v: 1
  readonly id: string
  readonly role: 'host' | 'join'
  /** The invite's text (a host's own, or the one a joiner was given). */
  readonly invite: string
  /** The opponent's PeerId once known. */
  readonly opponent?: string
  /**
   * The name the opponent last gave itself (SPEC §2.4 kind 6): its own claim, kept for the list of
   * games and for pinning; never in the transcript.
   */
  readonly opponentName?: string
  /**
   * The game id (base64url, SPEC §6.1) once both hellos are known: what a witnessed game's notary
   * files its log under, so a node that lost its transcript can fetch its envelopes back.
   */
  readonly game?: string
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
  /** `--rematch N` as the game was begun with: a resume offers or accepts as many (SPEC §2.4). */
  readonly rematch?: number
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
  return (
    (meta.finished === undefined || meta.provisional === true) &&
    meta.against === undefined &&
    meta.invite !== '' &&
    parseInvite(meta.invite).ok
  )
}

/** What a game's meta keeps of its end: the status, the result in words for `side`, and whether it is provisional. */
export function endedMeta(meta: GameMeta, verdict: Verdict, result: string): GameMeta {
  return {
    ...meta,
    finished: verdict.status,
    result,
    provisional: (verdict.status === 'abandoned' || verdict.status === 'resigned') && verdict.provisional,
  }
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

/** `$XDG_STATE_HOME/spaceships/spaaace`: one directory per Spaaace! game (`spaaace games` lists them). */
export function spaaaceRoot(env: NodeJS.ProcessEnv = process.env): string {
  return join(stateDir(env), 'spaaace')
}

export function gameDir(id: string, env: NodeJS.ProcessEnv = process.env): string {
  return join(gamesDir(env), id)
}

export function readMeta(id: string, env: NodeJS.ProcessEnv = process.env): GameMeta | undefined {
  const r = inspectGame(id, env)
  return r !== undefined && 'meta' in r ? r.meta : undefined
}

/** A game directory whose meta.json cannot be read or makes no sense: listed, never hidden. */
export interface DamagedGame {
  readonly id: string
  readonly dir: string
  /** What is wrong, in words. */
  readonly problem: string
}

/** What a stored meta.json must hold for the commands that read it, or what is wrong with it. */
function metaProblem(m: unknown, id: string): string | undefined {
  if (typeof m !== 'object' || m === null || Array.isArray(m)) return 'meta.json is not a JSON object'
  const o = m as Record<string, unknown>
  const strings = (v: unknown): boolean => Array.isArray(v) && v.every((x) => typeof x === 'string')
  const player = o['player'] as Record<string, unknown> | null | undefined
  if (o['id'] !== id) return `meta.json names the game ${JSON.stringify(o['id'])}, not ${id}`
  if (o['role'] !== 'host' && o['role'] !== 'join') return 'meta.json has no role (host or join)'
  if (typeof o['invite'] !== 'string') return 'meta.json has no invite text'
  if (!strings(o['listen']) || !strings(o['relays'])) return 'meta.json has no list of addresses'
  if (
    typeof player !== 'object' ||
    player === null ||
    (player['kind'] !== 'human' &&
      !(player['kind'] === 'bot' && typeof player['bot'] === 'string' && typeof player['seed'] === 'string'))
  )
    return 'meta.json does not say who plays this side'
  for (const k of ['opponent', 'opponentName', 'game', 'finished', 'created', 'against', 'result'] as const)
    if (o[k] !== undefined && typeof o[k] !== 'string') return `meta.json's ${k} is not text`
  // Shown on the screen: a name that breaks SPEC §2.4's rule could carry terminal escapes.
  if (typeof o['opponentName'] === 'string' && nameProblem(o['opponentName']) !== undefined)
    return "meta.json's opponentName is not a name (printable ASCII, 1 to 32 bytes)"
  if (o['provisional'] !== undefined && typeof o['provisional'] !== 'boolean')
    return "meta.json's provisional is not true or false"
  if (o['side'] !== undefined && o['side'] !== 'A' && o['side'] !== 'B') return "meta.json's side is not A or B"
  if (o['rematch'] !== undefined && !(Number.isInteger(o['rematch']) && (o['rematch'] as number) >= 0))
    return "meta.json's rematch is not a whole number"
  return undefined
}

/**
 * A game's meta, or what is wrong with its directory (unreadable, meta.json missing or damaged);
 * undefined when there is no such game directory at all.
 */
export function inspectGame(
  id: string,
  env: NodeJS.ProcessEnv = process.env,
): { readonly meta: GameMeta } | DamagedGame | undefined {
  const dir = gameDir(id, env)
  let text: string
  try {
    text = readFileSync(join(dir, 'meta.json'), 'utf8')
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    if (code === 'ENOENT') {
      try {
        if (!statSync(dir).isDirectory()) return { id, dir, problem: 'a file, not a game directory' }
      } catch {
        return undefined
      }
      return { id, dir, problem: 'no meta.json (a game whose start was cut short, or a stray directory)' }
    }
    if (code === 'ENOTDIR') return { id, dir, problem: 'a file, not a game directory' }
    return {
      id,
      dir,
      problem: `meta.json cannot be read: ${code === 'EACCES' || code === 'EPERM' ? 'permission denied' : code === 'EISDIR' ? 'a directory stands in its place' : (code ?? (e as Error).message)}`,
    }
  }
  let parsed: unknown
  try {
    parsed = JSON.parse(text)
  } catch {
    return { id, dir, problem: 'meta.json is damaged (not JSON)' }
  }
  const problem = metaProblem(parsed, id)
  return problem === undefined ? { meta: parsed as GameMeta } : { id, dir, problem }
}

/** A damaged game's one line: its id, what is wrong, and what to do. */
export function damagedLine(d: DamagedGame): string {
  return `game ${d.id} is damaged: ${d.problem}. Restore ${join(d.dir, 'meta.json')} from a backup, or move ${d.dir} away`
}

/** Removes a game that never began (no invite went out), so it is not offered for resuming. */
export function forgetGame(id: string, env: NodeJS.ProcessEnv = process.env): void {
  rmSync(gameDir(id, env), { recursive: true, force: true })
}

/** Written to a temporary file and renamed over the old one, so a crash never leaves half a file. */
export function writeMeta(meta: GameMeta, env: NodeJS.ProcessEnv = process.env): void {
  if (meta.created === undefined)
    meta = { ...meta, created: readMeta(meta.id, env)?.created ?? new Date().toISOString() }
  const dir = gameDir(meta.id, env)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const tmp = join(dir, `meta.json.${process.pid}.tmp`)
  writeFileSync(tmp, JSON.stringify(meta, null, 2) + '\n', { mode: 0o600 })
  renameSync(tmp, join(dir, 'meta.json'))
}

/**
 * Keeps the name the opponent sent with its game (SPEC §2.4 kind 6), read from and written over
 * the stored record, so nothing else written meanwhile (its end, a rematch's) is lost.
 */
export function keepOpponentName(id: string, name: string, env: NodeJS.ProcessEnv = process.env): void {
  const m = readMeta(id, env)
  if (m !== undefined && m.opponentName !== name) writeMeta({ ...m, opponentName: name }, env)
}

/** Keeps the game id in the game's meta.json once known (read-modify-write: nothing else is lost). */
export function keepGameId(id: string, game: string, env: NodeJS.ProcessEnv = process.env): void {
  const m = readMeta(id, env)
  if (m !== undefined && m.game !== game) writeMeta({ ...m, game }, env)
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

/** The process of this machine that holds `dir`'s lock (`lockGame`), if one does and still runs. */
export function lockHolder(dir: string): number | undefined {
  let holder: string
  try {
    holder = readFileSync(join(dir, 'lock'), 'utf8')
  } catch {
    return undefined
  }
  const [pidText, host] = holder.trim().split(' ')
  const pid = Number(pidText)
  return host === hostname() && Number.isInteger(pid) && pid > 0 && alive(pid) ? pid : undefined
}

/**
 * An exclusive lock on a game directory: two processes resuming one game could each sign an
 * envelope at the same place (equivocation, SPEC §5.3). The lock file names its holder; a lock
 * whose process is gone (a crash, SIGKILL) is taken over.
 */
export function lockGame(dir: string, id: string): () => void {
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
      try {
        unlinkSync(path)
      } catch (e) {
        const code = (e as NodeJS.ErrnoException).code
        const why =
          code === 'EACCES' || code === 'EPERM'
            ? 'permission denied'
            : code === 'EROFS'
              ? 'a read-only file system'
              : (code ?? (e as Error).message)
        throw new UserError(
          `game ${id}: the lock ${path} is left from process ${pid}, which is gone, but cannot be removed (${why}); make ${dir} writable, then run again`,
          EXIT.cannotCreate,
        )
      }
      continue
    }
    throw new UserError(
      `game ${id} is open in another process (pid ${pidText ?? '?'} on ${host ?? '?'}); finish or stop that one first (a stale lock: remove ${path})`,
    )
  }
  throw new UserError(`game ${id}: cannot take the lock ${path}`)
}

/**
 * SPEC §1.1, §11: the protocol version of a game, as its invite names it (`spaceshipsV.`), or
 * undefined before the game has an invite (a new host's: the version it offers).
 */
export function versionOfMeta(meta: { readonly invite: string }): ProtocolVersion | undefined {
  const v = /^spaceships(\d+)\./.exec(meta.invite)?.[1]
  return v === '3' ? 3 : v === '4' ? 4 : undefined
}

/**
 * The game's directory, transcript and journal, locked for this process. A new transcript gets the
 * header of `version` (SPEC §11: a version 3 game is written as a version 3 file); an existing one
 * keeps its own.
 */
export function openGameFiles(id: string, env: NodeJS.ProcessEnv = process.env, version?: ProtocolVersion): GameFiles {
  const dir = gameDir(id, env)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const release = lockGame(dir, id)
  // A transcript or journal that cannot be read gives the lock back: the game is not open.
  try {
    return {
      dir,
      store: fileStore(join(dir, 'transcript'), version),
      journal: fileJournal(join(dir, 'journal'), `game ${id}`),
      release,
    }
  } catch (e) {
    release()
    throw e
  }
}

/**
 * Every game on this machine, oldest first (games without a date first, by id), and the game
 * directories that cannot be read or whose meta.json is damaged. Only a games directory that does
 * not exist means no games: one that cannot be listed is an error (exit 74), never "no games".
 */
export function listGames(env: NodeJS.ProcessEnv = process.env): {
  readonly games: GameMeta[]
  readonly damaged: DamagedGame[]
} {
  let names: string[]
  try {
    names = readdirSync(gamesDir(env))
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return { games: [], damaged: [] }
    throw e
  }
  const games: GameMeta[] = []
  const damaged: DamagedGame[] = []
  for (const n of names.sort()) {
    const r = inspectGame(n, env)
    if (r === undefined) continue
    if ('meta' in r) games.push(r.meta)
    else damaged.push(r)
  }
  return {
    games: games.sort((a, b) => (a.created ?? '').localeCompare(b.created ?? '') || a.id.localeCompare(b.id)),
    damaged,
  }
}

/** Every readable game on this machine, oldest first (see listGames for the damaged ones). */
export function allGames(env: NodeJS.ProcessEnv = process.env): GameMeta[] {
  return listGames(env).games
}

/** The games `resume` can carry on. */
export function resumableGames(env: NodeJS.ProcessEnv = process.env): GameMeta[] {
  return allGames(env).filter(resumable)
}

/** A game named by its id or an unambiguous prefix of it (as `games` prints it). */
export function findGame(ref: string, env: NodeJS.ProcessEnv = process.env): GameMeta {
  const exact = /^[\w.-]+$/.test(ref) ? inspectGame(ref, env) : undefined
  if (exact !== undefined && 'meta' in exact) return exact.meta
  if (exact !== undefined) throw new UserError(damagedLine(exact), EXIT.ioError)
  const { games, damaged } = ref.length >= 4 ? listGames(env) : { games: [], damaged: [] }
  const matches = games.filter((m) => m.id.startsWith(ref))
  const broken = damaged.filter((d) => d.id.startsWith(ref))
  if (matches.length === 1 && matches[0] !== undefined && broken.length === 0) return matches[0]
  if (matches.length === 0 && broken.length === 1 && broken[0] !== undefined)
    throw new UserError(damagedLine(broken[0]), EXIT.ioError)
  const named = matches.length + broken.length
  if (named > 1)
    throw new UserError(`${ref} names ${named} games; give more of the id (see: ${commandName(env)} games)`)
  throw new UserError(`no game or transcript file named ${ref} (see: ${commandName(env)} games)`)
}
