/** Shared by the Spaaace! tests: a record refereed, its closing states parsed. */
import { expect } from 'vitest'
import type { Prompter } from '../../../src/games/spaceships/ui/prompter.js'
import { referee, type RefereeResult } from '../../../src/games/spaaace/referee/referee.js'

export interface ShipJson {
  sector: number
  armour: number
  energy: number
  engaging: boolean
}
export interface PlayerJson {
  coins: number
  fame: number
  status: 'active' | 'removed'
  absent: number
}
export interface BattleJson {
  a: string
  b: string
  initiated: number
  bids: [number, number] | null
  spent: [number, number] | null
  winner: string | null
}
export interface ClosingJson {
  tick: number
  ships: Record<string, ShipJson>
  players: Record<string, PlayerJson>
  declarations: [string, string][]
  alliances: [string, string][]
  battles: BattleJson[]
  claims: { player: string; tick: number }[]
  offences: { player: string; rule: string }[]
  winners: string[]
  ended: boolean
}

export const HEADER3 = 'spaaace 1\nplayer a\nplayer b\nplayer c\n'

/** Referees `text`, expecting no record error, and returns the closing states. */
export function states(text: string): ClosingJson[] {
  const r = referee(text)
  expect(r.error).toBeNull()
  return r.ticks.map((t) => JSON.parse(t.json) as ClosingJson)
}

/** The closing state of the last tick of `text`. */
export function last(text: string): ClosingJson {
  const all = states(text)
  const s = all[all.length - 1]
  if (s === undefined) throw new Error('no tick')
  return s
}

/** `tick 1` ... blocks from lists of lines. */
export function ticks(...blocks: string[][]): string {
  return blocks.map((lines, i) => `tick ${i + 1}\n${lines.map((l) => `${l}\n`).join('')}`).join('')
}

export function refereeOf(text: string): RefereeResult {
  return referee(text)
}

export function ship(s: ClosingJson, label: string): ShipJson {
  const x = s.ships[label]
  if (x === undefined) throw new Error(`no ship ${label}`)
  return x
}

export function player(s: ClosingJson, label: string): PlayerJson {
  const x = s.players[label]
  if (x === undefined) throw new Error(`no player ${label}`)
  return x
}

/** Answers each prompt with the first of its scripted answers the prompt's check accepts, keeping what it said of the others. */
export function scripted(
  answers: string[][],
  fallback: readonly string[] = [''],
): { prompter: Prompter; told: string[]; asked: string[] } {
  const told: string[] = []
  const asked: string[] = []
  const prompter: Prompter = {
    input: (o) => {
      asked.push(o.message)
      for (const typed of answers.shift() ?? fallback) {
        // As inquirer does: an empty answer stands for the prompt's default, when it has one.
        const a = typed === '' && o.default !== undefined ? o.default : typed
        const verdict = o.validate?.(a) ?? true
        if (verdict === true) return Promise.resolve(a)
        told.push(`${a} -> ${verdict}`)
      }
      return Promise.reject(new Error(`no accepted answer for ${o.message}`))
    },
    select: () => Promise.reject(new Error('no menu in spaaace play')),
    confirm: () => Promise.resolve(true),
  }
  return { prompter, told, asked }
}
