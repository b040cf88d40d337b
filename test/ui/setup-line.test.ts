/**
 * A typed setup is checked line by line (setup-prompt.ts `shipLineProblem`): shape, size and
 * overlaps (2.6.1 §3.2, §3.4, §3.5) are refused as each line is typed, whatever the identities
 * typed so far, which are judged only on the whole setup (C-05).
 */
import { describe, expect, it } from 'vitest'
import { DEFAULT_RULESET } from '../../src/games/spaceships/rules/ruleset.js'
import { shipLineProblem } from '../../src/games/spaceships/ui/setup-prompt.js'

describe('shipLineProblem', () => {
  const first = ['FS Rv1 Rv2 Rw1 Rw2']

  it('a lone ship line is checked for its shape (2.6.1 §3.5)', () => {
    expect(shipLineProblem([], 'FS Rv1 Rv2 Rw1', DEFAULT_RULESET)).toMatch(/4 cells, not 3/)
  })

  it('a second ship of a type, neither numbered yet, is still checked for its size and its overlaps (§3.4, §3.5)', () => {
    expect(shipLineProblem(first, 'FS Ov1 Ov2 Ow1', DEFAULT_RULESET)).toMatch(/4 cells, not 3/)
    expect(shipLineProblem(first, 'FS Rv1 Rv2 Rw1 Rw2', DEFAULT_RULESET)).toMatch(/also in FS/)
    expect(shipLineProblem([...first, 'FS Ov1 Ov2 Ow1 Ow2'], 'LS Rv1', DEFAULT_RULESET)).toMatch(/also in FS/)
  })

  it('identities and the fleet wait for the whole setup: an unnumbered second ship of a type is accepted as typed', () => {
    expect(shipLineProblem(first, 'FS Ov1 Ov2 Ow1 Ow2', DEFAULT_RULESET)).toBeUndefined()
    expect(shipLineProblem(first, 'undo', DEFAULT_RULESET)).toBeUndefined()
  })
})
