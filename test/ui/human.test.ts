/** The human strategy with a scripted prompter: what it says between the prompts. */
import { describe, expect, it } from 'vitest'
import { randomSetup } from '../../src/rules/enumerate.js'
import { seededRandom } from '../../src/rules/rng.js'
import { DEFAULT_RULESET } from '../../src/rules/ruleset.js'
import { initialPlayerState } from '../../src/rules/state.js'
import { NO_PAINT } from '../../src/ui/board.js'
import { type Prompter, humanStrategy } from '../../src/ui/terminal.js'

/** A prompter that does nothing this turn (`-`) and confirms it. */
const nothing: Prompter = {
  input: () => Promise.resolve('-'),
  select: () => Promise.reject(new Error('no menu expected')),
  confirm: () => Promise.resolve(true),
}

describe('the human player at the terminal', () => {
  it('a beam that burnt out is announced once, in words, with its rule (2.6.1 §8.2.4, C-21)', async () => {
    const lines: string[] = []
    const human = humanStrategy({ prompter: nothing, screen: { print: (t) => lines.push(t), paint: NO_PAINT }, setup: { kind: 'random' }, rng: seededRandom('h') })
    const setup = randomSetup(DEFAULT_RULESET, seededRandom('burn'))
    const fresh = initialPlayerState(setup)
    const ds = fresh.ships.findIndex((s) => s.type === 'DS')
    const burnt = { ...fresh, burntOut: fresh.burntOut.map((_, i) => i === ds) }
    expect(await human.record({ role: 'A', ruleset: DEFAULT_RULESET, turn: 1, state: fresh, history: [] })).toBe('-')
    expect(lines.join('\n')).not.toContain('burnt out')
    await human.record({ role: 'A', ruleset: DEFAULT_RULESET, turn: 2, state: burnt, history: [] })
    await human.record({ role: 'A', ruleset: DEFAULT_RULESET, turn: 3, state: burnt, history: [] })
    const said = lines.join('\n').match(/Your death star DS's beam burnt out \(both end cells of its firing were hits, §8\.2\.4 C-21\)/g)
    expect(said).toHaveLength(1)
  })

  it('an 80-column terminal: the grids come in two bands and every line of a turn, help included, fits', async () => {
    const lines: string[] = []
    const asked: string[] = ['?', '-']
    const prompter: Prompter = { ...nothing, input: () => Promise.resolve(asked.shift() ?? '-') }
    const human = humanStrategy({ prompter, screen: { print: (t) => lines.push(t), paint: NO_PAINT, columns: 80 }, setup: { kind: 'random' }, rng: seededRandom('narrow') })
    const state = initialPlayerState(randomSetup(DEFAULT_RULESET, seededRandom('narrow')))
    await human.record({ role: 'B', ruleset: DEFAULT_RULESET, turn: 1, state, history: [], deadline: Date.now() + 600_000 })
    const out = lines.join('\n')
    expect(out).toContain('How to play')
    for (const line of out.split('\n')) expect(Array.from(line).length, line).toBeLessThanOrEqual(80)
    // Both bands of the own space: R O Y, then G B, each with its five rows.
    expect(out).toMatch(/^ {2}R {2}1 {2}2 {2}3 {2}4 {2}5 {2}O .* Y .*$/m)
    expect(out).toMatch(/^ {2}G {2}1 {2}2 {2}3 {2}4 {2}5 {2}B {2}1 {2}2 {2}3 {2}4 {2}5$/m)
  })
})
