/**
 * Red team: a transcript file's header names its version (SPEC §11), and "a line whose bytes' first
 * byte is not the file's version (an envelope of the other version, a receipt in a version 3 file,
 * anything else) is not an envelope of the file's game: it is noted and set aside" (SPEC §11,
 * PROTOCOL-4.md §1: `spaceships verify` decides each file by its own version). A second team
 * implementing §11 as written sets such lines aside; a verifier that ignores the header decides a
 * game the file, by the spec, does not hold.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { verifyFiles } from '../../src/games/spaceships/verify/verify.js'
import { summary } from './helpers.js'

const vector = (name: string): string =>
  readFileSync(new URL(`../../protocol/vectors/${name}`, import.meta.url), 'utf8')
const v3 = vector('honest-a.transcript')
const v4 = vector('v4-honest-a.transcript')

describe('red team: the file header decides which lines are envelopes (SPEC §11)', () => {
  it('SPEC §11: a version 3 game under a version 4 header is set aside line by line: no game', () => {
    const edited = v3.replace('spaceships-transcript 3\n', 'spaceships-transcript 4\n')
    const v = verifyFiles([{ name: 'f', content: edited }])
    expect(summary(v)).toBe('incomplete no-game: no game: the hellos are missing')
  })

  it('SPEC §11: a version 4 game under a version 3 header is set aside line by line: no game', () => {
    const edited = v4.replace('spaceships-transcript 4\n', 'spaceships-transcript 3\n')
    const v = verifyFiles([{ name: 'f', content: edited }])
    expect(summary(v)).toBe('incomplete no-game: no game: the hellos are missing')
  })

  it('SPEC §11: a receipt line (first byte 0x84) in a version 3 file is noted and set aside', () => {
    const v = verifyFiles([{ name: 'f', content: `${v3}hAAAAA\n` }])
    expect(v.status).toBe('complete')
    expect('notes' in v ? v.notes.join('\n') : '').toMatch(/f:\d+: /)
  })
})
