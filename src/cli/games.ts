/**
 * Games in progress on this machine: one directory per game under the XDG state directory,
 * named by the invite id, holding the transcript, the private journal (0600; it holds the salt
 * seed until the reveal) and what a restart needs to reconnect.
 */
import { mkdirSync, readFileSync, readdirSync, renameSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { stateDir } from '../net/identity.js'
import { type Journal, fileJournal } from '../session/journal.js'
import { fileStore } from '../session/file-store.js'
import type { TranscriptStore } from '../transcript/file.js'

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
  readonly finished?: string
}

export interface GameFiles {
  readonly dir: string
  readonly store: TranscriptStore
  readonly journal: Journal
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

/** Written to a temporary file and renamed over the old one, so a crash never leaves half a file. */
export function writeMeta(meta: GameMeta, env: NodeJS.ProcessEnv = process.env): void {
  const dir = gameDir(meta.id, env)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  const tmp = join(dir, `meta.json.${process.pid}.tmp`)
  writeFileSync(tmp, JSON.stringify(meta, null, 2) + '\n', { mode: 0o600 })
  renameSync(tmp, join(dir, 'meta.json'))
}

export function openGameFiles(id: string, env: NodeJS.ProcessEnv = process.env): GameFiles {
  const dir = gameDir(id, env)
  mkdirSync(dir, { recursive: true, mode: 0o700 })
  return { dir, store: fileStore(join(dir, 'transcript')), journal: fileJournal(join(dir, 'journal')) }
}

/** Unfinished games, newest directory names unordered (ids are random). */
export function unfinishedGames(env: NodeJS.ProcessEnv = process.env): GameMeta[] {
  let names: string[]
  try {
    names = readdirSync(gamesDir(env))
  } catch {
    return []
  }
  return names.flatMap((n) => {
    const m = readMeta(n, env)
    return m !== undefined && m.finished === undefined ? [m] : []
  })
}
