/**
 * Adjudicates a game record: replays every game of it with the rules engine and reports, turn by
 * turn, what each player was entitled to, the visible aspects and results, destruction reports,
 * flashcube data and the end; or the first illegal setup or record, attributed to its player with
 * the rule and the turn (C-28). The output is plain JSON data (cells as names) so `--json` prints
 * it as is and the verifier can reuse it.
 */
import { formatCell } from '../rules/coords.js'
import type { RuleViolation } from '../rules/errors.js'
import {
  type GameEnd,
  type GameState,
  type MatchKind,
  PLAYER_NAMES,
  type TurnReport,
  matchScores,
  matchWinner,
  nextAdditional,
  playTurn,
  startGame,
} from '../rules/game.js'
import { formatRecord, parseRecord } from '../rules/record.js'
import type { Exchange, FlashcubeEntry } from '../rules/resolve.js'
import { formatRuleset } from '../rules/ruleset.js'
import { formatSetup, parseSetup } from '../rules/setup.js'
import { type EntitlementView, entitlementView } from '../rules/entitlement-view.js'
import type { GameRecordFile } from './file.js'

export type { EntitlementView }

export type PlayerName = (typeof PLAYER_NAMES)[number]

export type ExchangeView =
  | {
      readonly kind: 'beam-strike' | 'strike'
      readonly target: string
      readonly result: string
      readonly explosions: readonly string[]
    }
  | { readonly kind: 'scan'; readonly target: string; readonly result: string }
  | { readonly kind: 'kamikaze-death'; readonly cell: string }

export interface DestructionView {
  readonly ship: string
  readonly cells: readonly string[]
}

export type FlashcubeView =
  | { readonly cell: string; readonly empty: true }
  | { readonly cell: string; readonly empty: false; readonly destroyed: boolean; readonly ship: string }

export interface PlayerTurnView {
  readonly entitlements: EntitlementView
  /** Canonical record (C-06): full missile launch cells, beam tags exactly when required. */
  readonly record: string
  readonly exchanges: readonly ExchangeView[]
  readonly burnouts: readonly string[]
  readonly destroyed: readonly DestructionView[]
  /** This player's flashcube data answering each of the opponent's destruction reports. */
  readonly flashcube: readonly (readonly FlashcubeView[])[]
}

export interface TurnView {
  readonly turn: number
  readonly players: readonly [PlayerTurnView, PlayerTurnView]
}

export interface EndView {
  readonly turn: number
  readonly reason: GameEnd['reason']
  readonly rule: string
  readonly by: readonly PlayerName[]
  readonly scores: readonly [number, number]
  readonly winner: PlayerName | 'draw'
}

export interface OffenceView {
  readonly game: number
  readonly player: PlayerName
  /** 0 for the setup. */
  readonly turn: number
  readonly kind: 'illegal setup' | 'illegal record'
  /** Line of the offending setup or record in the file. */
  readonly line: number
  readonly violations: readonly RuleViolation[]
}

export interface GameView {
  readonly game: number
  /** Continued match allowance per player (§10.3, C-11). */
  readonly additional: readonly [number, number]
  readonly setups: readonly [string, string] | undefined
  readonly turns: readonly TurnView[]
  readonly end: EndView | undefined
}

export interface Adjudication {
  readonly ruleset: string
  readonly match: MatchKind
  readonly players: readonly [string, string]
  /**
   * complete: legal and finished; unfinished: legal so far; illegal: broken by a player;
   * malformed: the record contradicts itself (turns after a game's end, a game before the last ended).
   */
  readonly status: 'complete' | 'unfinished' | 'illegal' | 'malformed'
  readonly games: readonly GameView[]
  readonly offence: OffenceView | undefined
  /** Overall scores (§9.4) once every game has ended; for a single game, its scores. */
  readonly result: { readonly scores: readonly [number, number]; readonly winner: PlayerName | 'draw' } | undefined
  /** Why a record is malformed. */
  readonly malformed: string | undefined
}

export function exchangeView(e: Exchange): ExchangeView {
  switch (e.kind) {
    case 'beam-strike':
    case 'strike':
      return { kind: e.kind, target: formatCell(e.target), result: e.result, explosions: e.explosions.map(formatCell) }
    case 'scan':
      return { kind: 'scan', target: formatCell(e.target), result: e.result }
    case 'kamikaze-death':
      return { kind: 'kamikaze-death', cell: formatCell(e.cell) }
  }
}

export function flashcubeView(f: FlashcubeEntry): FlashcubeView {
  return f.kind === 'empty'
    ? { cell: formatCell(f.cell), empty: true }
    : { cell: formatCell(f.cell), empty: false, destroyed: f.destroyed, ship: f.name }
}

export function turnView(before: GameState, report: TurnReport): TurnView {
  const player = (k: 0 | 1): PlayerTurnView => {
    const p = report.players[k]
    const checked = report.records[k]
    return {
      entitlements: entitlementView(before.ruleset, before.players[k], checked.entitlements),
      record: formatRecord(checked.actions),
      exchanges: p.exchanges.map(exchangeView),
      burnouts: p.burnouts.map((s) => before.players[k].ships[s]?.name ?? '?'),
      destroyed: p.destructions.map((d) => ({ ship: d.name, cells: d.cells.map(formatCell) })),
      flashcube: p.flashcube.map((list) => list.map(flashcubeView)),
    }
  }
  return { turn: report.turn, players: [player(0), player(1)] }
}

export function endView(end: GameEnd): EndView {
  return {
    turn: end.turn,
    reason: end.reason,
    rule: end.reason === 'fleet-destroyed' ? '§2.3.1 C-25' : '§2.3.2 C-26',
    by: end.by.map((k) => PLAYER_NAMES[k]),
    scores: end.scores,
    winner: end.winner === 'draw' ? 'draw' : PLAYER_NAMES[end.winner],
  }
}

/** Replays every game of the record; stops at the first offence. */
export function adjudicate(file: GameRecordFile): Adjudication {
  const games: GameView[] = []
  const ends: GameEnd[] = []
  const syntax = { variant: file.ruleset.variant, mode: 'lenient' as const }
  let previous: GameEnd | undefined
  const base = { ruleset: formatRuleset(file.ruleset), match: file.match, players: file.players }
  const stop = (offence: OffenceView, partial: GameView): Adjudication => ({
    ...base,
    status: 'illegal',
    games: [...games, partial],
    offence,
    result: undefined,
    malformed: undefined,
  })

  for (const recorded of file.games) {
    const additional = nextAdditional(file.match, previous)
    const written = ([0, 1] as const).map((k) => parseSetup(recorded.setups[k]))
    for (const k of [0, 1] as const) {
      const w = written[k]
      if (w !== undefined && !w.ok) {
        return stop(
          {
            game: recorded.index,
            player: PLAYER_NAMES[k],
            turn: 0,
            kind: 'illegal setup',
            line: recorded.setupLines[k],
            violations: w.error,
          },
          { game: recorded.index, additional, setups: undefined, turns: [], end: undefined },
        )
      }
    }
    const [wa, wb] = written
    if (wa === undefined || wb === undefined || !wa.ok || !wb.ok) throw new Error('unreachable: setups checked above')
    const started = startGame(file.ruleset, [wa.value, wb.value], additional)
    if (!started.ok) {
      const o = started.error[0]
      if (o === undefined) throw new Error('startGame failed without an offence')
      const k = o.player
      return stop(
        {
          game: recorded.index,
          player: PLAYER_NAMES[k],
          turn: 0,
          kind: 'illegal setup',
          line: recorded.setupLines[k],
          violations: o.violations,
        },
        { game: recorded.index, additional, setups: undefined, turns: [], end: undefined },
      )
    }
    let game = started.value
    const setups: [string, string] = [formatSetup(game.players[0].ships), formatSetup(game.players[1].ships)]
    const turns: TurnView[] = []
    let trailing: string | undefined
    for (const t of recorded.turns) {
      if (game.end !== undefined) {
        trailing = `game ${recorded.index} ended after turn ${game.end.turn}, but the record goes on to turn ${t.turn} (line ${t.line})`
        break
      }
      const parsed = ([0, 1] as const).map((k) => parseRecord(t.records[k], syntax))
      let offence: OffenceView | undefined
      for (const k of [0, 1] as const) {
        const r = parsed[k]
        if (offence === undefined && r !== undefined && !r.ok)
          offence = {
            game: recorded.index,
            player: PLAYER_NAMES[k],
            turn: t.turn,
            kind: 'illegal record',
            line: t.recordLines[k],
            violations: r.error,
          }
      }
      const [ra, rb] = parsed
      if (offence === undefined && ra?.ok === true && rb?.ok === true) {
        const played = playTurn(game, [ra.value, rb.value])
        if (played.ok) {
          turns.push(turnView(game, played.value.report))
          game = played.value.game
          continue
        }
        const o = played.error.reason === 'illegal' ? played.error.offences[0] : undefined
        if (o !== undefined)
          offence = {
            game: recorded.index,
            player: PLAYER_NAMES[o.player],
            turn: t.turn,
            kind: 'illegal record',
            line: t.recordLines[o.player],
            violations: o.violations,
          }
      }
      if (offence !== undefined)
        return stop(offence, { game: recorded.index, additional, setups, turns, end: undefined })
    }
    const end = game.end === undefined ? undefined : endView(game.end)
    games.push({ game: recorded.index, additional, setups, turns, end })
    if (trailing !== undefined)
      return { ...base, status: 'malformed', games, offence: undefined, result: undefined, malformed: trailing }
    if (game.end === undefined) {
      const next = file.games[recorded.index]
      if (next !== undefined)
        return {
          ...base,
          status: 'malformed',
          games,
          offence: undefined,
          result: undefined,
          malformed: `game ${next.index} (line ${next.line}) begins before game ${recorded.index} ended`,
        }
      return { ...base, status: 'unfinished', games, offence: undefined, result: undefined, malformed: undefined }
    }
    ends.push(game.end)
    previous = game.end
  }
  const winner = matchWinner(ends)
  return {
    ...base,
    status: 'complete',
    games,
    offence: undefined,
    result: { scores: matchScores(ends), winner: winner === 'draw' ? 'draw' : PLAYER_NAMES[winner] },
    malformed: undefined,
  }
}
