/**
 * `spaceships learn` (the terminal game's tutorial): the notation taught on a real board, each
 * exercise checked as typed by the rules engine (2.6.1 §11, NOTATION.md), a wrong answer told what
 * is wrong and asked again; without a terminal the lessons print with their answers.
 */
import { describe, expect, it } from 'vitest'
import type { Prompter } from '../src/games/spaceships/ui/prompter.js'
import { cli } from './cli.js'

/** Answers each prompt with the first of its scripted answers the prompt's check accepts, keeping what it said of the others. */
function scripted(answers: string[][]): { prompter: Prompter; told: string[]; asked: string[] } {
  const told: string[] = []
  const asked: string[] = []
  const prompter: Prompter = {
    input: (o) => {
      asked.push(o.message)
      for (const a of answers.shift() ?? []) {
        const verdict = o.validate?.(a) ?? true
        if (verdict === true) return Promise.resolve(a)
        told.push(`${a} -> ${verdict}`)
      }
      return Promise.reject(new Error(`no accepted answer for ${o.message}`))
    },
    select: () => Promise.reject(new Error('no select in learn')),
    confirm: () => Promise.resolve(true),
  }
  return { prompter, told, asked }
}

describe('spaceships learn (2.6.1 §11, NOTATION.md)', () => {
  it('five lessons, four exercises checked as typed: wrong answers are told why and asked again', async () => {
    const s = scripted([
      ['yx3', 'Xy3', 'Yx3'],
      ['Rv1', 'Ry2'],
      ['Gy2', 'sBx3 Gy2 Gy3', 'Gy2 sBx3'],
      ['bRv1Rv4', 'bRv1Rv3'],
    ])
    const r = await cli(['learn'], {}, { prompter: () => s.prompter })
    expect(r.code, r.err).toBe(0)
    expect(s.asked).toEqual([
      'Which cell is marked ?? (type it, as in Rv1):',
      'Name one cell of the death star (DS):',
      'Record a strike on Gy2 and a scan of Bx3:',
      'Fire a beam (bCELLCELL, the two end cells of three cells in a line):',
    ])
    // Each wrong answer was told what is wrong, in words.
    expect(s.told[0]).toMatch(/^yx3 -> a cell is a colour \(R O Y G B\), a letter/)
    expect(s.told[1]).toMatch(/^Xy3 -> a cell is a colour/)
    expect(s.told[2]).toBe('Rv1 -> Rv1 is not a DS cell: look for DS on the board, or read the DS line above')
    expect(s.told[3]).toBe('Gy2 -> that scans nothing: one scan, of Bx3 (sBx3)')
    expect(s.told[4]).toBe('sBx3 Gy2 Gy3 -> that strikes Gy2 Gy3: one strike, on Gy2')
    // The engine's own words for an illegal beam (not three cells in a line).
    expect(s.told[5]).toMatch(/^bRv1Rv4 -> /)
    expect(s.told).toHaveLength(6)
    expect(r.out).toContain('Right: colour, letter, number.')
    expect(r.out).toMatch(/Play one against the bot: (npx )?spaceships play/)
    for (const line of r.out.split('\n')) expect(Array.from(line).length).toBeLessThanOrEqual(100)
  })

  it('without a terminal: every lesson with its answer, each answer one the exercise accepts', async () => {
    const r = await cli(['learn'], {})
    expect(r.code).toBe(0)
    expect(r.out).toContain('(no terminal to ask on: the answers are shown)')
    const questions = [
      'Which cell is marked ?? (type it, as in Rv1)',
      'Name one cell of the death star (DS)',
      'Record a strike on Gy2 and a scan of Bx3',
      'Fire a beam (bCELLCELL, the two end cells of three cells in a line)',
    ]
    const lines = r.out.split('\n')
    const answers = questions.map((q) => lines.find((l) => l.startsWith(`${q}: `))?.slice(q.length + 2) ?? '')
    expect(answers).toHaveLength(4)
    const s = scripted(answers.map((a) => [a]))
    const again = await cli(['learn'], {}, { prompter: () => s.prompter })
    expect(again.code).toBe(0)
    expect(s.told).toEqual([])
  })
})
