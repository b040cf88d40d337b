/**
 * Red team: resuming a game of a continued match (SPEC §6.1 `additionalA`/`additionalB`, C-11).
 * The journal serves back the setup its player chose as written; judging it against a fleet with
 * no additional allowance would refuse a setup that uses the additional ships, and a player could
 * not resume after a crash: it would never reveal and lose ("did not reveal", SPEC §12.7 rule 7)
 * on a crash alone. The session checks the setup against the game's own terms.
 */
import { describe, expect, it } from 'vitest'
import { randomSetup } from '../../src/games/spaceships/rules/enumerate.js'
import { seededRandom } from '../../src/games/spaceships/rules/rng.js'
import { parseRuleset } from '../../src/games/spaceships/rules/ruleset.js'
import { formatSetup, readSetup } from '../../src/games/spaceships/rules/setup.js'
import { journaledStrategy, memoryJournal } from '../../src/games/spaceships/session/journal.js'
import { randomStrategy } from '../../src/games/spaceships/session/strategy.js'

describe('red team: the journal in a continued match (SPEC §2.2, §6.1)', () => {
  // The attack this guards against: the journaled setup is refused as "not legal" because it is checked without the
  // game's additional allowance.
  it('SPEC §2.2 §6.1: a journaled setup that uses the additional allowance is served back on resume', async () => {
    const r = parseRuleset('2.6.1 fleet=standard')
    if (!r.ok) throw new Error('ruleset')
    const ruleset = r.value
    const rng = seededRandom('redteam/journal-additional')
    let setup = randomSetup(ruleset, rng, 30)
    for (let i = 0; i < 200 && readSetup(formatSetup(setup), ruleset, 0, 'strict').ok; i++)
      setup = randomSetup(ruleset, rng, 30)
    expect(readSetup(formatSetup(setup), ruleset, 30, 'strict').ok).toBe(true)
    expect(readSetup(formatSetup(setup), ruleset, 0, 'strict').ok).toBe(false)
    const journal = memoryJournal()
    journal.append({ k: 'setup', text: formatSetup(setup) })
    const served = await journaledStrategy(randomStrategy(rng), journal).setup(ruleset)
    expect(formatSetup(served)).toBe(formatSetup(setup))
  })
})
