/**
 * The node's journal of its last fetches of the log (protocol/SPAAACE-WITNESSED.md §8.2): the
 * outage vote is due only once its last `OUTAGE_FETCHES` fetches failed or brought nothing past
 * `R_s`, and a node that checks in by hand is a new process each time, so the journal is a file.
 * No evidence: only what the node itself needs to decide whether to vote.
 */
import { existsSync, readFileSync } from 'node:fs'
import { type FetchOutcome, OUTAGE_FETCHES } from '../witness/checkin.js'
import { writeJsonAtomically } from './secrets.js'

export interface FetchJournal {
  /** The last fetches, oldest first (at most `OUTAGE_FETCHES`). */
  read(): readonly FetchOutcome[]
  add(o: FetchOutcome): void
}

export function memoryFetchJournal(): FetchJournal {
  let kept: FetchOutcome[] = []
  return { read: () => kept, add: (o) => void (kept = [...kept, o].slice(-OUTAGE_FETCHES)) }
}

function isOutcome(x: unknown): x is FetchOutcome {
  if (typeof x !== 'object' || x === null) return false
  const o = x as { readonly at?: unknown; readonly past?: unknown }
  // Times as the node's clock gives them (the system clock's are fractional milliseconds).
  return Number.isFinite(o.at) && (o.past === null || Number.isFinite(o.past))
}

/**
 * A journal in a file, rewritten atomically (a temporary file renamed over it). A file that does
 * not read as one is taken as empty, and one that cannot be written is kept in memory: forgetting
 * fetches only delays a vote, never makes one.
 */
export function fileFetchJournal(path: string): FetchJournal {
  let kept: FetchOutcome[] = []
  if (existsSync(path)) {
    try {
      const parsed = JSON.parse(readFileSync(path, 'utf8')) as unknown
      if (Array.isArray(parsed) && parsed.every(isOutcome)) kept = parsed.slice(-OUTAGE_FETCHES)
    } catch {
      kept = []
    }
  }
  return {
    read: () => kept,
    add(o) {
      kept = [...kept, o].slice(-OUTAGE_FETCHES)
      // No evidence: a journal that cannot be written (a full disk) is kept in memory for this
      // process, and a check-in goes on without it.
      try {
        writeJsonAtomically(path, kept)
      } catch {
        // kept in memory
      }
    },
  }
}
