/**
 * Spaceships' journal (SPEC §2.2): the core's secret draws, and the player's inputs: its setup,
 * each turn's record, a resignation. A restarted process is served them back, so it signs the
 * same envelopes again and never two different ones at one place.
 */
import {
  type EntryCheck,
  type Journal as CoreJournal,
  type SecretEntry,
  type SignedEntry,
  fileJournal as coreFileJournal,
  memoryJournal as coreMemoryJournal,
} from '../../../core/session/journal.js'
import { type Setup, formatSetup, parseSetup } from '../rules/setup.js'
import {
  ACCEPT_DRAW,
  type PlayerStrategy,
  RESIGN,
  isDrawAcceptance,
  isDrawOffer,
  isResignation,
  offerDraw,
} from './strategy.js'

export { journaledSecrets, journaledSigning } from '../../../core/session/journal.js'

export type JournalEntry =
  | SecretEntry
  | SignedEntry
  | { readonly k: 'setup'; readonly text: string }
  | { readonly k: 'record'; readonly turn: number; readonly text: string; readonly offerDraw?: true }
  | { readonly k: 'resign'; readonly turn: number }
  | { readonly k: 'accept-draw'; readonly turn: number }

export type Journal = CoreJournal<JournalEntry>

export function memoryJournal(): Journal {
  return coreMemoryJournal<JournalEntry>()
}

/** The journal at `path` (see the core's `fileJournal`); `name` prefixes its error messages. */
export function fileJournal(path: string, name?: string): Journal {
  return coreFileJournal<JournalEntry>(path, entryProblem, name)
}

/** What is wrong with a setup, record or resignation entry, or undefined when it is well formed. */
const entryProblem: EntryCheck = (kind, o) => {
  const turn = (): string | undefined =>
    Number.isSafeInteger(o['turn']) && (o['turn'] as number) >= 1 ? undefined : 'its turn is not a whole number from 1'
  switch (kind) {
    case 'setup':
      return typeof o['text'] === 'string' ? undefined : 'its setup is not text'
    case 'record':
      return (
        turn() ??
        (typeof o['text'] !== 'string'
          ? 'its record is not text'
          : o['offerDraw'] !== undefined && o['offerDraw'] !== true
            ? 'its offerDraw is not true'
            : undefined)
      )
    case 'resign':
    case 'accept-draw':
      return turn()
    default:
      return kind === undefined ? 'an entry of no kind' : `an entry of unknown kind ${JSON.stringify(kind)}`
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
      const old = journal
        .entries()
        .find((e) => (e.k === 'record' || e.k === 'resign' || e.k === 'accept-draw') && e.turn === ctx.turn)
      if (old?.k === 'record') return old.offerDraw === true ? offerDraw(old.text) : old.text
      if (old?.k === 'resign') return RESIGN
      if (old?.k === 'accept-draw') return ACCEPT_DRAW
      const choice = await inner.record(ctx)
      // A prompt withdrawn because the game stopped or ended gives no record to keep: journaled,
      // it would be replayed as this turn's choice by a resume.
      if (ctx.signal?.aborted === true) return choice
      journal.append(
        isResignation(choice)
          ? { k: 'resign', turn: ctx.turn }
          : isDrawAcceptance(choice)
            ? { k: 'accept-draw', turn: ctx.turn }
            : isDrawOffer(choice)
              ? { k: 'record', turn: ctx.turn, text: choice.record, offerDraw: true }
              : { k: 'record', turn: ctx.turn, text: choice },
      )
      return choice
    },
    finished: (ctx) => inner.finished?.(ctx),
  }
}
