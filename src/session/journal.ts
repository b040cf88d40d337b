/**
 * The private journal that makes a session resumable after its process dies (SPEC §2.2).
 *
 * A session is deterministic given its secrets and its player's inputs, so a restarted process
 * that draws the same secrets and gets the same setup and records replays its stored transcript
 * exactly and carries on. The journal records each secret draw and each input before the session
 * uses it (and so before anything derived from it is signed or sent); on restart the journaled
 * values are served first and the player is asked only for what it never gave. Without it a
 * human asked again might answer differently, and a peer that signed two different records for
 * one turn would be guilty of equivocation.
 *
 * The journal holds the salt seed: it is as secret as the identity key (file mode 0600) until the
 * reveal, and must never be sent.
 */
import { readFileSync, truncateSync } from 'node:fs'
import { fromBase64url, toBase64url } from '../commit/bytes.js'
import type { SecretSource } from '../commit/secrets.js'
import { type Setup, formatSetup, parseSetup } from '../rules/setup.js'
import { StorageError, appendLineDurably, ioMessage } from './file-store.js'
import { type PlayerStrategy, RESIGN, isResignation } from './strategy.js'

export type JournalEntry =
  | { readonly k: 'secret'; readonly bytes: string }
  | { readonly k: 'setup'; readonly text: string }
  | { readonly k: 'record'; readonly turn: number; readonly text: string }
  | { readonly k: 'resign'; readonly turn: number }

export interface Journal {
  entries(): readonly JournalEntry[]
  append(entry: JournalEntry): void
}

export function memoryJournal(): Journal {
  const entries: JournalEntry[] = []
  return { entries: () => entries, append: (e) => void entries.push(e) }
}

/**
 * A journal on disk, one JSON entry per line, each flushed to stable storage before it is used.
 * A last line without its newline was being written when the process died: that input was never
 * used (nothing is used before its line is flushed), so it is cut off before anything is appended.
 */
export function fileJournal(path: string, name?: string): Journal {
  const entries: JournalEntry[] = []
  let text = ''
  try {
    text = readFileSync(path, 'utf8')
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new StorageError(`cannot read the journal ${path}: ${ioMessage(e)}`)
  }
  const whole = text.lastIndexOf('\n') + 1
  if (whole < text.length) {
    try {
      truncateSync(path, Buffer.byteLength(text.slice(0, whole), 'utf8'))
    } catch (e) {
      throw new StorageError(`cannot repair the torn last line of ${path}: ${ioMessage(e)}`)
    }
  }
  text
    .slice(0, whole)
    .split('\n')
    .forEach((line, i) => {
      if (line === '') return
      let entry: unknown
      try {
        entry = JSON.parse(line)
      } catch {
        entry = undefined
      }
      // Checked as read: a field of the wrong type would otherwise surface far from here, mid-game,
      // as a failure of this program instead of a damaged file.
      const problem = entry === undefined ? 'not JSON' : entryProblem(entry)
      if (problem !== undefined)
        throw new StorageError(
          `${name === undefined ? '' : `${name}: `}${path} line ${i + 1} is damaged (${problem}); the game cannot resume from it`,
        )
      entries.push(entry as JournalEntry)
    })
  return {
    entries: () => entries,
    append(entry) {
      appendLineDurably(path, JSON.stringify(entry), 'journal')
      entries.push(entry)
    },
  }
}

/** What is wrong with a journal line's entry, or undefined when it is one of the four kinds, well formed. */
function entryProblem(e: unknown): string | undefined {
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return 'not an entry'
  const o = e as Record<string, unknown>
  const turn = (): string | undefined =>
    Number.isSafeInteger(o['turn']) && (o['turn'] as number) >= 1 ? undefined : 'its turn is not a whole number from 1'
  switch (o['k']) {
    case 'secret':
      return typeof o['bytes'] === 'string' && fromBase64url(o['bytes']) !== undefined
        ? undefined
        : 'its secret is not base64url text'
    case 'setup':
      return typeof o['text'] === 'string' ? undefined : 'its setup is not text'
    case 'record':
      return turn() ?? (typeof o['text'] === 'string' ? undefined : 'its record is not text')
    case 'resign':
      return turn()
    default:
      return o['k'] === undefined ? 'an entry of no kind' : `an entry of unknown kind ${JSON.stringify(o['k'])}`
  }
}

/** Serves the journaled secret draws in order, then draws (and journals) new ones. */
export function journaledSecrets(inner: SecretSource, journal: Journal): SecretSource {
  const replay = journal.entries().flatMap((e) => (e.k === 'secret' ? [e.bytes] : []))
  return {
    bytes(length) {
      const old = replay.shift()
      if (old !== undefined) {
        const b = fromBase64url(old)
        if (b?.length !== length)
          throw new Error(`the journal's secret draw has ${b?.length ?? 'no'} bytes where ${length} are needed`)
        return b
      }
      const fresh = inner.bytes(length)
      journal.append({ k: 'secret', bytes: toBase64url(fresh) })
      return fresh
    },
  }
}

/** Serves the journaled setup and records; asks `inner` only for what it never answered. */
export function journaledStrategy(inner: PlayerStrategy, journal: Journal): PlayerStrategy {
  return {
    // The per-game secret is derived from the journaled seed again, so a resumed bot plays on as it began.
    ...(inner.begin === undefined
      ? {}
      : {
          begin: (secret: Uint8Array) => {
            inner.begin?.(secret)
          },
        }),
    async setup(ruleset, signal, deadline): Promise<Setup> {
      const old = journal.entries().find((e) => e.k === 'setup')
      if (old !== undefined) {
        // Served back as it was written; the session checks it against the game's terms, whose
        // additional allowance (SPEC §6.1) this layer does not know.
        const r = parseSetup(old.text, 'strict')
        if (!r.ok) throw new Error(`the journaled setup is unreadable: ${r.error.map((v) => v.message).join('; ')}`)
        return r.value.map((w) => ({ type: w.type, id: w.id ?? 1, cells: w.cells }))
      }
      const setup = await inner.setup(ruleset, signal, deadline)
      journal.append({ k: 'setup', text: formatSetup(setup) })
      return setup
    },
    async record(ctx) {
      const old = journal.entries().find((e) => (e.k === 'record' || e.k === 'resign') && e.turn === ctx.turn)
      if (old?.k === 'record') return old.text
      if (old?.k === 'resign') return RESIGN
      const choice = await inner.record(ctx)
      journal.append(
        isResignation(choice) ? { k: 'resign', turn: ctx.turn } : { k: 'record', turn: ctx.turn, text: choice },
      )
      return choice
    },
    finished: (ctx) => inner.finished?.(ctx),
  }
}
