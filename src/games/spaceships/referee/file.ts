/**
 * The game record file (protocol/GAME-RECORD.md): a plain-text record of an open game or match,
 * both setups and every turn's two action records, for players who trust each other (§1.4.2) or
 * who played by mail and reveal everything afterwards. Parsing checks structure only; the rules
 * are checked by adjudication, so a rule broken is attributed to a player, not to the file.
 */
import type { MatchKind } from '../rules/game.js'
import { type Ruleset, parseRuleset } from '../rules/ruleset.js'

/** Named limits: a record is text a person could write; anything far larger is hostile. */
export const RECORD_LIMITS = {
  maxBytes: 4 * 1024 * 1024,
  maxLineLength: 4096,
  maxGames: 100,
  maxTurnsPerGame: 10_000,
} as const

export const RECORD_MAGIC = 'spaceships-record 1'

export const FILE_ERROR_CODES = [
  'file.too-large',
  'file.encoding',
  'file.magic',
  'file.line-too-long',
  'file.directive',
  'file.ruleset',
  'file.match',
  'file.order',
  'file.duplicate',
  'file.missing',
  'file.limit',
] as const
export type FileErrorCode = (typeof FILE_ERROR_CODES)[number]

export interface FileError {
  readonly code: FileErrorCode
  /** 1-based line number; 0 for the file as a whole. */
  readonly line: number
  readonly message: string
}

export interface RecordedTurn {
  readonly turn: number
  readonly line: number
  /** Record text as written (lenient notation); adjudication parses it. */
  readonly records: readonly [string, string]
  readonly recordLines: readonly [number, number]
}

export interface RecordedGame {
  readonly index: number
  readonly line: number
  /** Setup text per player as written: one ship per line. */
  readonly setups: readonly [string, string]
  readonly setupLines: readonly [number, number]
  readonly turns: readonly RecordedTurn[]
}

export interface GameRecordFile {
  readonly ruleset: Ruleset
  readonly rulesetText: string
  readonly match: MatchKind
  readonly players: readonly [string, string]
  readonly games: readonly RecordedGame[]
}

interface GameDraft {
  index: number
  line: number
  setups: [string[] | undefined, string[] | undefined]
  setupLines: [number, number]
  turns: {
    turn: number
    line: number
    records: [string | undefined, string | undefined]
    recordLines: [number, number]
  }[]
}

/** Parses a record file. Returns the first structural error with its line. */
export function parseGameRecord(
  input: string | Uint8Array,
): { ok: true; value: GameRecordFile } | { ok: false; error: FileError } {
  const err = (code: FileErrorCode, line: number, message: string) => ({
    ok: false as const,
    error: { code, line, message },
  })
  let text: string
  if (typeof input === 'string') text = input
  else {
    if (input.length > RECORD_LIMITS.maxBytes)
      return err('file.too-large', 0, `a record file is at most ${RECORD_LIMITS.maxBytes} bytes`)
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(input)
    } catch {
      return err('file.encoding', 0, 'a record file is UTF-8 text')
    }
  }
  if (text.length > RECORD_LIMITS.maxBytes)
    return err('file.too-large', 0, `a record file is at most ${RECORD_LIMITS.maxBytes} bytes`)
  const lines = text.split(/\r?\n/)
  let rulesetText: string | undefined
  let ruleset: Ruleset | undefined
  let match: MatchKind | undefined
  let players: [string, string] | undefined
  let sawMagic = false
  const games: GameDraft[] = []
  let section: { kind: 'setup'; player: 0 | 1 } | { kind: 'turn' } | { kind: 'none' } = { kind: 'none' }

  const currentGame = (lineNo: number, implicit: boolean): GameDraft | undefined => {
    const last = games.at(-1)
    if (last !== undefined) return last
    if (!implicit) return undefined
    const g: GameDraft = { index: 1, line: lineNo, setups: [undefined, undefined], setupLines: [0, 0], turns: [] }
    games.push(g)
    return g
  }

  for (let i = 0; i < lines.length; i++) {
    const lineNo = i + 1
    const raw = lines[i] ?? ''
    if (raw.length > RECORD_LIMITS.maxLineLength)
      return err('file.line-too-long', lineNo, `lines are at most ${RECORD_LIMITS.maxLineLength} characters`)
    const line = (raw.includes('#') ? raw.slice(0, raw.indexOf('#')) : raw).trim()
    if (line === '') continue
    if (!sawMagic) {
      if (line !== RECORD_MAGIC)
        return err('file.magic', lineNo, `a record file starts with the line "${RECORD_MAGIC}"`)
      sawMagic = true
      continue
    }
    const [word = '', ...rest] = line.split(/\s+/)
    const args = rest.join(' ')
    const inHeader = games.length === 0
    if (word === 'ruleset' || word === 'match' || word === 'players') {
      if (!inHeader) return err('file.order', lineNo, `${word} belongs in the header, before the first game or setup`)
      if (word === 'ruleset') {
        if (rulesetText !== undefined) return err('file.duplicate', lineNo, 'ruleset given twice')
        const r = parseRuleset(args)
        if (!r.ok) return err('file.ruleset', lineNo, `${r.error.subject}: ${r.error.message}`)
        rulesetText = args
        ruleset = r.value
      } else if (word === 'match') {
        if (match !== undefined) return err('file.duplicate', lineNo, 'match given twice')
        if (args !== 'single' && args !== 'scored' && args !== 'continued')
          return err('file.match', lineNo, 'match is single, scored or continued')
        match = args
      } else {
        if (players !== undefined) return err('file.duplicate', lineNo, 'players given twice')
        if (rest.length !== 2)
          return err('file.directive', lineNo, 'players takes two names without spaces: players Alice Bob')
        players = [rest[0] ?? 'A', rest[1] ?? 'B']
      }
      continue
    }
    if (word === 'game') {
      const n = Number(args)
      const expected = games.length + 1
      if (!/^\d+$/.test(args) || n !== expected)
        return err('file.order', lineNo, `games are numbered in order: expected game ${expected}`)
      if (n > RECORD_LIMITS.maxGames) return err('file.limit', lineNo, `at most ${RECORD_LIMITS.maxGames} games`)
      games.push({ index: n, line: lineNo, setups: [undefined, undefined], setupLines: [0, 0], turns: [] })
      section = { kind: 'none' }
      continue
    }
    if (word === 'setup') {
      if (args !== 'A' && args !== 'B') return err('file.directive', lineNo, 'setup A or setup B')
      const g = currentGame(lineNo, true)
      if (g === undefined) return err('file.order', lineNo, 'setup outside a game')
      const k = args === 'A' ? 0 : 1
      if (g.turns.length > 0) return err('file.order', lineNo, 'setups come before the first turn')
      if (g.setups[k] !== undefined)
        return err('file.duplicate', lineNo, `setup ${args} given twice in game ${g.index}`)
      g.setups[k] = []
      g.setupLines[k] = lineNo
      section = { kind: 'setup', player: k }
      continue
    }
    if (word === 'turn') {
      const g = currentGame(lineNo, false)
      if (g === undefined) return err('file.order', lineNo, 'turn before any setup')
      const expected = g.turns.length + 1
      if (!/^\d+$/.test(args) || Number(args) !== expected)
        return err('file.order', lineNo, `turns are numbered in order: expected turn ${expected}`)
      if (expected > RECORD_LIMITS.maxTurnsPerGame)
        return err('file.limit', lineNo, `at most ${RECORD_LIMITS.maxTurnsPerGame} turns a game`)
      const previous = g.turns.at(-1)
      if (previous !== undefined && (previous.records[0] === undefined || previous.records[1] === undefined)) {
        return err('file.missing', previous.line, `turn ${previous.turn} needs both A: and B: records`)
      }
      g.turns.push({ turn: expected, line: lineNo, records: [undefined, undefined], recordLines: [0, 0] })
      section = { kind: 'turn' }
      continue
    }
    const who = /^([AB]):(.*)$/.exec(line)
    if (who !== null) {
      const t = games.at(-1)?.turns.at(-1)
      if (section.kind !== 'turn' || t === undefined)
        return err('file.order', lineNo, 'A: and B: records belong under a turn line')
      const k = who[1] === 'A' ? 0 : 1
      if (t.records[k] !== undefined)
        return err('file.duplicate', lineNo, `turn ${t.turn} has two ${who[1] ?? ''}: records`)
      t.records[k] = (who[2] ?? '').trim()
      t.recordLines[k] = lineNo
      continue
    }
    if (section.kind === 'setup') {
      const g = games.at(-1)
      g?.setups[section.player]?.push(line)
      continue
    }
    return err(
      'file.directive',
      lineNo,
      `not understood: "${line.slice(0, 40)}" (expected ruleset, match, players, game, setup, turn, A: or B:)`,
    )
  }
  if (!sawMagic) return err('file.magic', 0, `a record file starts with the line "${RECORD_MAGIC}"`)
  if (games.length === 0) return err('file.missing', 0, 'the record holds no game')
  for (const g of games) {
    for (const k of [0, 1] as const)
      if (g.setups[k] === undefined)
        return err('file.missing', g.line, `game ${g.index} has no setup ${k === 0 ? 'A' : 'B'}`)
    const last = g.turns.at(-1)
    if (last !== undefined && (last.records[0] === undefined || last.records[1] === undefined)) {
      return err('file.missing', last.line, `turn ${last.turn} needs both A: and B: records`)
    }
  }
  const matchKind = match ?? 'single'
  if (matchKind === 'single' && games.length > 1)
    return err('file.match', games[1]?.line ?? 0, 'several games need "match scored" or "match continued"')
  return {
    ok: true,
    value: {
      ruleset: ruleset ?? parseRulesetOrThrow('2.6.1'),
      rulesetText: rulesetText ?? '2.6.1',
      match: matchKind,
      players: players ?? ['A', 'B'],
      games: games.map((g) => ({
        index: g.index,
        line: g.line,
        setups: [(g.setups[0] ?? []).join('\n'), (g.setups[1] ?? []).join('\n')],
        setupLines: g.setupLines,
        turns: g.turns.map((t) => ({
          turn: t.turn,
          line: t.line,
          records: [t.records[0] ?? '', t.records[1] ?? ''],
          recordLines: t.recordLines,
        })),
      })),
    },
  }
}

function parseRulesetOrThrow(text: string): Ruleset {
  const r = parseRuleset(text)
  if (!r.ok) throw new Error(`built-in ruleset text is invalid: ${text}`)
  return r.value
}

/** Writes a record file from its parts (the inverse of parseGameRecord, canonical layout). */
export function formatGameRecord(file: Omit<GameRecordFile, 'ruleset'>): string {
  const out: string[] = [RECORD_MAGIC, `ruleset ${file.rulesetText}`]
  if (file.match !== 'single') out.push(`match ${file.match}`)
  if (file.players[0] !== 'A' || file.players[1] !== 'B') out.push(`players ${file.players[0]} ${file.players[1]}`)
  for (const g of file.games) {
    out.push('')
    if (file.games.length > 1 || file.match !== 'single') out.push(`game ${g.index}`)
    for (const k of [0, 1] as const) {
      out.push(`setup ${k === 0 ? 'A' : 'B'}`)
      out.push(...g.setups[k].split('\n').filter((l) => l.trim() !== ''))
    }
    for (const t of g.turns) {
      out.push(`turn ${t.turn}`)
      out.push(`A: ${t.records[0]}`.trimEnd(), `B: ${t.records[1]}`.trimEnd())
    }
  }
  return `${out.join('\n')}\n`
}
