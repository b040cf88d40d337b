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
 *
 * The core journals secret draws; a game adds the kinds of its player's inputs (Spaceships: the
 * setup, each record, a resignation) and says how to check them as read.
 */
import { readFileSync, truncateSync } from 'node:fs'
import { fromBase64url, toBase64url } from '../commit/bytes.js'
import type { SecretSource } from '../commit/secrets.js'
import { StorageError, appendLineDurably, ioMessage } from './file-store.js'

/** A secret draw: the one kind of entry the core itself writes. */
export interface SecretEntry {
  readonly k: 'secret'
  readonly bytes: string
}

/**
 * How many of its own envelopes this side has persisted: journaled after each is persisted and
 * before it is sent, so that a transcript lost or replaced by an older copy is noticed before this
 * side signs again at a place it has signed (SPEC §2.2).
 */
export interface SignedEntry {
  readonly k: 'signed'
  readonly seq: number
}

/** An entry of some kind `k`, as a game defines it; JSON on disk. */
export interface Entry {
  readonly k: string
}

export interface Journal<E extends Entry = Entry> {
  entries(): readonly E[]
  append(entry: E): void
}

/**
 * What is wrong with an entry of a game's kind (other than `secret`), or undefined when it is
 * well formed; `kind` is the entry's `k`.
 */
export type EntryCheck = (kind: unknown, o: Readonly<Record<string, unknown>>) => string | undefined

export function memoryJournal<E extends Entry>(): Journal<E> {
  const entries: E[] = []
  return { entries: () => entries, append: (e) => void entries.push(e) }
}

/**
 * A journal on disk, one JSON entry per line, each flushed to stable storage before it is used.
 * A last line without its newline was being written when the process died: that input was never
 * used (nothing is used before its line is flushed), so it is cut off before anything is appended.
 * Every line is checked as read (`check` for the game's kinds): a field of the wrong type would
 * otherwise surface far from here, mid-game, as a failure of this program instead of a damaged file.
 */
export function fileJournal<E extends Entry>(path: string, check: EntryCheck, name?: string): Journal<E> {
  const entries: E[] = []
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
      const problem = entry === undefined ? 'not JSON' : entryProblem(entry, check)
      if (problem !== undefined)
        throw new StorageError(
          `${name === undefined ? '' : `${name}: `}${path} line ${i + 1} is damaged (${problem}); the game cannot resume from it`,
        )
      entries.push(entry as E)
    })
  return {
    entries: () => entries,
    append(entry) {
      appendLineDurably(path, JSON.stringify(entry), 'journal')
      entries.push(entry)
    },
  }
}

function isSecret(e: Entry): e is SecretEntry {
  return e.k === 'secret'
}

function entryProblem(e: unknown, check: EntryCheck): string | undefined {
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return 'not an entry'
  const o = e as Record<string, unknown>
  if (o['k'] === 'secret')
    return typeof o['bytes'] === 'string' && fromBase64url(o['bytes']) !== undefined
      ? undefined
      : 'its secret is not base64url text'
  if (o['k'] === 'signed')
    return Number.isSafeInteger(o['seq']) && (o['seq'] as number) >= 0 && (o['seq'] as number) <= 0xffff
      ? undefined
      : 'its seq is not a whole number 0..65535'
  return check(o['k'], o)
}

/** Serves the journaled secret draws in order, then draws (and journals) new ones. */
export function journaledSecrets<E extends Entry>(
  inner: SecretSource,
  journal: Journal<E | SecretEntry>,
): SecretSource {
  const replay = journal.entries().flatMap((e) => (isSecret(e) ? [e.bytes] : []))
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

/** What this side has signed and sent, known apart from its transcript (SPEC §2.2). */
export interface SigningLog {
  /**
   * How many of its own envelopes this side persisted and may have sent (the highest journaled
   * `seq` + 1), or undefined when none is journaled (a game begun before this was journaled).
   */
  count(): number | undefined
  /** Envelope `seq` of this side is persisted and about to be sent. */
  persisted(seq: number): void
}

/** The signing log of a journal: one `signed` entry per own envelope, flushed before it is sent. */
export function journaledSigning<E extends Entry>(journal: Journal<E | SignedEntry>): SigningLog {
  let count: number | undefined
  for (const e of journal.entries()) if (isSigned(e)) count = Math.max(count ?? 0, e.seq + 1)
  return {
    count: () => count,
    persisted(seq) {
      if (count !== undefined && seq < count) return
      journal.append({ k: 'signed', seq })
      count = seq + 1
    },
  }
}

function isSigned(e: Entry): e is SignedEntry {
  return e.k === 'signed'
}
