/** Shared test helpers: build games from notation and play turns from record text. */
import { formatCell, parseCell } from '../src/games/spaceships/rules/coords.js'
import { type GameState, type TurnReport, playTurn, startGame } from '../src/games/spaceships/rules/game.js'
import { parseRecord } from '../src/games/spaceships/rules/record.js'
import { type Ruleset, DEFAULT_RULESET, parseRuleset } from '../src/games/spaceships/rules/ruleset.js'
import { parseSetup } from '../src/games/spaceships/rules/setup.js'
import { parseTranscript } from '../src/games/spaceships/protocol/file.js'
import { type SealedEnvelope, decodeEnvelope } from '../src/games/spaceships/protocol/envelope.js'
import type { Part, Role } from '../src/games/spaceships/protocol/messages.js'

export function cell(name: string): number {
  const c = parseCell(name)
  if (!c.ok) throw new Error(`bad cell in test: ${name}`)
  return c.value
}

export function cells(names: string): number[] {
  return names.split(/\s+/).filter(Boolean).map(cell)
}

export function names(list: readonly number[]): string {
  return list.map(formatCell).join(' ')
}

/** A standard 2.6.1 fleet used throughout: cube DS, KC, FS, MD and LS in one corner region. */
export const SETUP_A = `
DS Rv1 Rv2 Rw1 Rw2 Ov1 Ov2 Ow1 Ow2
KC Rv4 Rv5 Rw4 Rw5 Rx4 Rx5
FS Bv1 Bv2 Bw1 Bw2
MD Bz1 Bz2 Bz3
LS Yy3
`
export const SETUP_B = `
DS Gv1 Gv2 Gw1 Gw2 Bv1 Bv2 Bw1 Bw2
KC Yz1 Yz2 Yz3 Gz1 Gz2 Gz3
PC Rz2 Rz3 Rz4 Rz5
MD Ox5 Oy5 Oz5
HS Yx1 Yx2
`

export function game(
  a: string,
  b: string,
  ruleset: Ruleset = DEFAULT_RULESET,
  additional: [number, number] = [0, 0],
): GameState {
  const pa = parseSetup(a)
  const pb = parseSetup(b)
  if (!pa.ok || !pb.ok) throw new Error(`bad setup notation in test: ${JSON.stringify([pa, pb])}`)
  const g = startGame(ruleset, [pa.value, pb.value], additional)
  if (!g.ok) throw new Error(`illegal setup in test: ${JSON.stringify(g.error)}`)
  return g.value
}

export function turnResult(g: GameState, a: string, b: string): ReturnType<typeof playTurn> {
  const syntax = { variant: g.ruleset.variant, mode: 'lenient' as const }
  const ra = parseRecord(a, syntax)
  const rb = parseRecord(b, syntax)
  if (!ra.ok || !rb.ok) throw new Error(`bad record notation in test: ${JSON.stringify([ra, rb])}`)
  return playTurn(g, [ra.value, rb.value])
}

export function turn(g: GameState, a: string, b: string): { game: GameState; report: TurnReport } {
  const r = turnResult(g, a, b)
  if (!r.ok) throw new Error(`illegal turn in test: ${JSON.stringify(r.error)}`)
  return r.value
}

/** Test-only: a copy of the game with some of a player's cells already destroyed. */
export function damaged(g: GameState, player: 0 | 1, list: string): GameState {
  const p = g.players[player]
  const destroyed = p.destroyed.slice()
  for (const c of cells(list)) destroyed[c] = 1
  const players = [...g.players] as [typeof p, typeof p]
  players[player] = { ...p, destroyed }
  return { ...g, players }
}

export function ruleset(text: string): Ruleset {
  const r = parseRuleset(text)
  if (!r.ok) throw new Error(`bad ruleset in test: ${text}`)
  return r.value
}

/** The envelopes of a transcript file, decoded (tests read what a peer signed). */
export function envelopesOf(text: string | Uint8Array): SealedEnvelope[] {
  const parsed = parseTranscript(text)
  if (!parsed.ok) throw new Error(`unreadable transcript in test: ${parsed.error.error.message}`)
  return parsed.value.lines.map((l) => {
    if (l.bytes === undefined) throw new Error(`unreadable line ${l.line} in test`)
    const d = decodeEnvelope(l.bytes)
    if (!d.ok) throw new Error(`undecodable line ${l.line} in test: ${d.error.message}`)
    return d.value
  })
}

/** The parts of type `t` that `sender` signed in a transcript file, in order. */
export function partsOf<T extends Part['t']>(text: string | Uint8Array, sender: Role, t: T): Extract<Part, { t: T }>[] {
  return envelopesOf(text)
    .filter((s) => s.envelope.sender === sender)
    .flatMap((s) => s.envelope.parts.filter((p): p is Extract<Part, { t: T }> => p.t === t))
}
