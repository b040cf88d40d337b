/** The words of the terminal game: wrapping, clocks, what a record does, the result from each side. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseRecord } from '../../src/games/spaceships/rules/record.js'
import {
  PROVISIONAL_NOTE,
  beamWords,
  chatLine,
  clockText,
  describeRecord,
  helpText,
  outcomeLine,
  shortId,
  wrap,
} from '../../src/games/spaceships/ui/panel.js'
import { DEFAULT_RULESET } from '../../src/games/spaceships/rules/ruleset.js'
import type { Verdict } from '../../src/games/spaceships/verify/verify.js'

describe('the terminal game in words', () => {
  it('wrap keeps every word, in order, and no line longer than the width unless one word is', () => {
    fc.assert(
      fc.property(
        fc.array(fc.stringMatching(/^[a-zA-Z0-9,.;:()-]{1,30}$/), { maxLength: 60 }),
        fc.integer({ min: 20, max: 120 }),
        (words, width) => {
          const text = words.join(' ')
          const out = wrap(text, width, '  ')
          expect(out.split(/\s+/).filter(Boolean)).toEqual(words)
          for (const line of out.split('\n'))
            if (line.trim().includes(' ')) expect(Array.from(line).length).toBeLessThanOrEqual(width)
        },
      ),
    )
  })

  it('clocks read as m:ss (h:mm:ss past an hour), never negative', () => {
    expect(clockText(581_000)).toBe('9:41')
    expect(clockText(600_000)).toBe('10:00')
    expect(clockText(3_600_000 + 61_000)).toBe('1:01:01')
    expect(clockText(-5)).toBe('0:00')
    expect(clockText(1)).toBe('0:01')
  })

  it('a record is described action by action before it is signed', () => {
    const r = parseRecord('Rv1 bRv1Rv3 mRv2 Ox3 kGz5 Bx1 sYw4', { variant: '2.6.1', mode: 'lenient' })
    if (!r.ok) throw new Error('bad record')
    // 2.6.1 §4.5.3: a kamikaze strike destroys its launch cell, not the whole ship.
    expect(describeRecord(r.value)).toBe(
      'strike Rv1; beam from Rv1 to Rv3; missile launched from Rv2 at Ox3; kamikaze strike by the ship at Gz5 on Bx1 (only its cell Gz5 is destroyed); scan Yw4',
    )
    expect(describeRecord([])).toBe('nothing this turn')
  })

  it('the help says what a kamikaze strike destroys (2.6.1 §4.5.3) and what a patrol cruiser may look like (C-09)', () => {
    const help = helpText(DEFAULT_RULESET)
    expect(help).toContain('kGz5 Bx1       a kamikaze strike on Bx1 launched from Gz5: only your cell Gz5 is destroyed')
    expect(help).not.toContain('is lost')
    // C-09: without strictPatrolCruiser the gapped bar (cells 1, 2, 4, 5 of a line) is legal too.
    expect(help).toContain(
      'PC patrol cruiser: 4 cells along one line of the space: in a row, or cells 1, 2, 4 and 5 of a full line (a gap in the middle)',
    )
    expect(helpText({ ...DEFAULT_RULESET, strictPatrolCruiser: true })).toContain(
      'PC patrol cruiser: 4 cells in a row along one line of the space',
    )
  })

  it('the result is said from the side of the player who reads it', () => {
    const base = { game: 'g', notes: [] }
    const complete: Verdict = {
      ...base,
      status: 'complete',
      reason: 'fleet-destroyed',
      turn: 9,
      scores: [6, 0],
      winner: 'A',
    }
    expect(outcomeLine(complete, 'A')).toBe('You win 6-0.')
    expect(outcomeLine(complete, 'B')).toBe('You lose 0-6.')
    const abandoned: Verdict = {
      ...base,
      status: 'abandoned',
      by: 'B',
      how: 'stopped',
      turn: 3,
      winner: 'A',
      claimedBy: 'A',
      provisional: false,
      detail: '',
    }
    expect(outcomeLine(abandoned, 'A')).toBe('Your opponent (B) stopped in turn 3 while its move was due: you win.')
    expect(outcomeLine(abandoned, 'B')).toBe('You stopped in turn 3 while your move was due: your opponent wins.')
    // SPEC §12.7 rule 7: resting on the absence of the other's reveal, said to be provisional.
    const unrevealed: Verdict = {
      ...base,
      status: 'abandoned',
      by: 'B',
      how: 'no-reveal',
      turn: 3,
      winner: 'A',
      claimedBy: 'A',
      provisional: true,
      detail: '',
    }
    expect(outcomeLine(unrevealed, 'A')).toBe(
      `You claim the win: your opponent stopped answering and has not revealed. It stands unless their transcript shows they answered in time. ${PROVISIONAL_NOTE}`,
    )
    // Rule 8: a stall at a deadline is adjudicated, never a forfeit, and names who stopped.
    const stall: Verdict = {
      ...base,
      status: 'adjudicated',
      turn: 1,
      scores: [23, 20],
      winner: 'A',
      stopTurn: 2,
      stoppedBy: ['B'],
      due: 'A',
      detail: '',
    }
    expect(outcomeLine(stall, 'A')).toBe(
      'Adjudicated: your opponent (B) stopped in turn 2 while your move was due, so the game is scored on the 1 turn both committed. You win 23-20.',
    )
    expect(outcomeLine(stall, 'B')).toBe(
      'Adjudicated: you stopped in turn 2 while your opponent’s move was due, so the game is scored on the 1 turn both committed. You lose 20-23.',
    )
    for (const v of [abandoned, unrevealed, stall])
      for (const r of ['A', 'B'] as const) expect(outcomeLine(v, r)).not.toMatch(/forfeit/)
    const resigned: Verdict = { ...base, status: 'resigned', by: 'A', turn: 2, winner: 'B', provisional: false }
    expect(outcomeLine(resigned, 'A')).toBe('You resigned: your opponent wins.')
    expect(outcomeLine(resigned, 'B')).toBe('Your opponent resigned: you win.')
  })

  it('PeerIds are shortened, other names kept', () => {
    expect(shortId('12D3KooWJdUcJdPwryb8qs3uBvXBkasD8oRVgqpNwK36kSzYFiDD')).toBe('…kSzYFiDD')
    expect(shortId('the hard bot')).toBe('the hard bot')
  })

  it('beam directions in words: straight ones by their axis, diagonals counted (2.6.1 §8.2, C-15); classic words kept', () => {
    expect(beamWords(['+number', '+letter', '+colour-letter', '+colour+letter-number'])).toBe(
      'along the numbers or letters, or 2 diagonals',
    )
    expect(beamWords(['+colour'])).toBe('along the colours')
    expect(beamWords(['+letter-number'])).toBe('1 diagonal')
    expect(beamWords(Array.from({ length: 13 }, () => '+number'))).toBe(
      'any direction: along the colours, letters or numbers, or 10 diagonals',
    )
    expect(beamWords(['rows through it'])).toBe('rows through it')
  })

  it('chat lines show format characters as code points, so a line cannot disguise itself (SPEC §2.4)', () => {
    expect(chatLine('…abc says:', 'hi \u202egnp.exe')).toBe('…abc says: hi <U+202E>gnp.exe')
    expect(chatLine('You said:', 'plain')).toBe('You said: plain')
  })
})
