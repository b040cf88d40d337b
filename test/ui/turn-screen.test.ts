/**
 * One turn's screen fits a 50-row terminal: from the first line a turn prints (after the last
 * turn's confirmation) to its record prompt, with the last turn's results, both spaces, the panel,
 * what may be done and how to type it, on a virtual terminal as a person sees it.
 */
import { describe, expect, it } from 'vitest'
import { COLOURS, LETTERS, NUMBERS } from '../../src/games/spaceships/rules/coords.js'
import { freshHome, onTerminal } from './terminal-screen.js'

/** Every cell, in an order that spreads strikes over the space. */
const CELLS = NUMBERS.flatMap((n) => LETTERS.flatMap((l) => COLOURS.map((c) => `${c}${l}${n}`)))

/**
 * Plays `play --seed SEED` against the hard bot on a terminal `columns` wide (default: the width
 * unknown, as the game lays out for 100), each turn every conventional strike and scan it may,
 * and a mistyped record refused in turn 2; returns each turn's screen as its prompt shows.
 */
async function turnScreens(seed: string, columns?: number): Promise<string[][]> {
  const t = onTerminal(['play', '--seed', seed, '--max-turns', '6'], {
    env: freshHome(),
    ...(columns === undefined ? {} : { columns }),
  })
  const used = new Set<string>()
  const fresh = (n: number): string[] => {
    const cells = CELLS.filter((c) => !used.has(c)).slice(0, n)
    for (const c of cells) used.add(c)
    return cells
  }
  const screens: string[][] = []
  let at = await t.seen('Your setup')
  await t.type('\r')
  for (let turn = 1; ; turn++) {
    const prompt = await Promise.race([t.seen(`? Turn ${turn} record`, at), t.done.then(() => -1)])
    if (prompt < 0) break
    at = prompt
    const lines = t.terminal.lines()
    // The turn begins after the last turn's confirmation (or the setup's).
    let start = prompt
    while (start > 0 && !/^✔ Your setup|\? Yes$/.test(lines[start - 1] ?? '')) start--
    const refused = turn === 2
    if (refused) {
      await t.type('Zz9\r')
      await t.seen('> Zz9', at)
    }
    const shown = t.terminal.lines()
    screens.push(shown.slice(start, refused ? prompt + 2 : prompt + 1))
    const from = shown.findIndex((l, i) => i >= start && l.startsWith(`Turn ${turn}. You may:`))
    const may = shown
      .slice(
        from,
        shown.findIndex((l, i) => i > from && l.startsWith('Type:')),
      )
      .join(' ')
    const strikes = Number(/(\d+) conventional strikes?/.exec(may)?.[1] ?? 0)
    const scans = Number(/(\d+) scans?\b/.exec(may)?.[1] ?? 0)
    const record = [...fresh(strikes), ...fresh(scans).map((c) => `s${c}`)].join(' ') || '-'
    await t.type(`\u0015${record}\r`)
    await t.seen('Sign and send', at)
    await t.type('\r')
    at++
  }
  const r = await t.done
  expect(r.code, r.err).toBe(0)
  return screens
}

describe("one turn's screen", () => {
  it('fits a 50-row terminal at the default width, every turn, each line at most 100 columns', async () => {
    const screens = await turnScreens('rows')
    expect(screens.length).toBeGreaterThanOrEqual(4)
    for (const [i, screen] of screens.entries()) {
      expect(screen.length, `turn ${i + 1}:\n${screen.join('\n')}`).toBeLessThanOrEqual(50)
      for (const line of screen) expect(Array.from(line).length, line).toBeLessThanOrEqual(100)
    }
  }, 30_000)

  it('fits a 50-row terminal 80 columns wide too, the grids in two bands', async () => {
    const screens = await turnScreens('rows', 80)
    for (const [i, screen] of screens.entries()) {
      expect(screen.length, `turn ${i + 1}:\n${screen.join('\n')}`).toBeLessThanOrEqual(50)
      for (const line of screen) expect(Array.from(line).length, line).toBeLessThanOrEqual(80)
    }
  }, 30_000)
})
