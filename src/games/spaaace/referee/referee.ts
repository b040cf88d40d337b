/**
 * The Spaaace! referee (rules/spaaace.md appendix): reads an open game record and gives, tick by
 * tick, the closing state as the appendix's JSON and in words; a record error stops it at its
 * line, after the ticks whose blocks closed before that line. Pure: text in, results out.
 */
import { genesis } from '../rules/state.js'
import { playTick, type TickOutcome } from '../rules/tick.js'
import { DEFAULT_TERMS, LIMITS, type GameState, type Submission, type Terms } from '../rules/types.js'
import { classify, parseTerms, RECORD_RULE, RecordError, submissionOf } from './record.js'
import { closingStateJson } from './json.js'
import { describeTick } from './words.js'

export interface RefereeTick {
  readonly tick: number
  readonly outcome: TickOutcome
  /** The appendix's compact JSON line (without its newline). */
  readonly json: string
  readonly words: string
}

export interface RefereeResult {
  readonly roster: readonly string[]
  readonly ticks: readonly RefereeTick[]
  /** The first record error, or null for a valid record (finished or not). */
  readonly error: { readonly line: number; readonly message: string } | null
}

/** Referees a whole record; `onTick` sees each tick as soon as it closes. */
export function referee(text: string, onTick: (t: RefereeTick) => void = () => undefined): RefereeResult {
  const roster: string[] = []
  const ticks: RefereeTick[] = []
  let terms: Terms = DEFAULT_TERMS
  let termsLine = 0
  let phase: 'start' | 'header' | 'ticks' = 'start'
  let state: GameState | null = null
  // The open tick block: one line per player at most.
  let block: Map<number, Submission> = new Map()
  const close = (): void => {
    if (state === null) return
    const s = state
    const outcome = playTick(
      s,
      roster.map((_, i) => block.get(i) ?? { kind: 'missing' }),
    )
    const t: RefereeTick = {
      tick: outcome.state.tick,
      outcome,
      json: closingStateJson(outcome, roster),
      words: describeTick(outcome, roster),
    }
    ticks.push(t)
    onTick(t)
    state = outcome.state
    block = new Map()
  }
  const checkRoster = (line: number): void => {
    if (roster.length < LIMITS.minPlayers || roster.length > LIMITS.maxPlayers) {
      throw new RecordError(
        line,
        `${roster.length} players: a game has ${LIMITS.minPlayers} to ${LIMITS.maxPlayers} (S-01)`,
      )
    }
  }
  const lines = text.split('\n')
  let lineNo = 0
  try {
    for (const raw of lines) {
      lineNo++
      const line = classify(raw.endsWith('\r') ? raw.slice(0, -1) : raw)
      if (line.kind === 'blank') continue
      if (phase === 'start') {
        if (line.kind !== 'format') throw new RecordError(lineNo, `the first line must be "spaaace 1" (${RECORD_RULE})`)
        phase = 'header'
        continue
      }
      switch (line.kind) {
        case 'terms':
          if (phase !== 'header') throw new RecordError(lineNo, `a terms line after the first tick (${RECORD_RULE})`)
          if (termsLine > 0)
            throw new RecordError(lineNo, `a second terms line (the first is line ${termsLine}) (${RECORD_RULE}, S-90)`)
          termsLine = lineNo
          terms = parseTerms(line.items, lineNo)
          break
        case 'player':
          if (phase !== 'header')
            throw new RecordError(lineNo, `a player line after the first tick: nobody joins later (S-01)`)
          if (roster.includes(line.label)) throw new RecordError(lineNo, `player ${line.label} named twice (S-01)`)
          roster.push(line.label)
          break
        case 'tick': {
          if (phase === 'header') {
            checkRoster(lineNo)
            state = genesis(roster.length, terms)
            phase = 'ticks'
          } else {
            close()
          }
          const current: GameState | null = state
          if (current?.ended === true)
            throw new RecordError(
              lineNo,
              `tick ${line.tick} after the game ended in tick ${current.tick} (S-50, S-51, S-82)`,
            )
          const expected = (current?.tick ?? 0) + 1
          if (line.tick !== expected)
            throw new RecordError(
              lineNo,
              `tick ${line.tick} where tick ${expected} comes next: ticks are numbered 1, 2, ... in order (${RECORD_RULE})`,
            )
          break
        }
        case 'orders': {
          if (phase !== 'ticks' || state === null)
            throw new RecordError(lineNo, `orders before the first tick line (${RECORD_RULE})`)
          const self = roster.indexOf(line.label)
          if (self < 0) throw new RecordError(lineNo, `unknown player "${line.label}" (${RECORD_RULE})`)
          const tick = state.tick + 1
          if (block.has(self))
            throw new RecordError(lineNo, `a second line for ${line.label} in tick ${tick} (${RECORD_RULE})`)
          // A line for a removed player is ignored (appendix); it still takes the player's one line.
          const removed = state.players[self]?.status === 'removed'
          block.set(self, removed ? { kind: 'missing' } : submissionOf(line.text, roster, self))
          break
        }
        case 'format':
        case 'other':
          throw new RecordError(lineNo, `not a line of the record here (${RECORD_RULE})`)
      }
    }
    // The line after the last: a final newline already ends the last line.
    const end = text.endsWith('\n') || text === '' ? lineNo : lineNo + 1
    if (phase === 'start') throw new RecordError(end, `no "spaaace 1" line (${RECORD_RULE})`)
    if (phase === 'header') checkRoster(end)
    close()
  } catch (e) {
    if (!(e instanceof RecordError)) throw e
    return { roster, ticks, error: { line: e.line, message: e.message } }
  }
  return { roster, ticks, error: null }
}
