/**
 * `spaceships spaaace play --autoplay` as a real process of the built CLI (dist/): it plays a
 * whole game against three bots, exits 0, prints the standings and the winners (S-51), and writes
 * a record that `spaaace referee` accepts; the same seed plays the same game in-process.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { cli } from './cli.js'
import { MAIN, home } from './processes.js'

describe('spaceships spaaace play, the built CLI in a process', () => {
  it('--autoplay --bots 3 --seed x: exit 0, the standings and the winners, a record the referee accepts', async () => {
    const cwd = mkdtempSync(join(tmpdir(), 'spaaace-play-'))
    const env = { ...process.env, ...home() }
    const r = spawnSync(
      process.execPath,
      [MAIN, 'spaaace', 'play', '--offline', '--autoplay', '--bots', '3', '--seed', 'x'],
      {
        cwd,
        env,
        encoding: 'utf8',
        timeout: 60_000,
      },
    )
    expect(r.status, r.stderr).toBe(0)
    expect(r.stderr).toBe('')
    const lines = r.stdout.split('\n')
    const at = lines.indexOf('Standings after tick 60 (fame first, S-43, S-51):')
    expect(at).toBeGreaterThan(0)
    const rows = lines.slice(at + 1, at + 5)
    for (const row of rows)
      expect(row).toMatch(/^ +[1-4]\. (you|bot[2-4] \(sensible\)) +fame +-?\d+ +coins +\d+ +active/)
    expect(lines[at + 5]).toMatch(/^(Nobody wins\.|Winners?: .+\.)$/)
    expect(r.stdout).toContain("The game's record: spaaace-x.rec (check it: ")
    // The same seed, in-process: the same game, the same standings.
    const same = await cli(['spaaace', 'play', '--offline', '--autoplay', '--bots', '3', '--seed', 'x'], {}, { env })
    expect(same.out).toBe(r.stdout)
    const rec = join(cwd, 'spaaace-x.rec')
    expect(existsSync(rec)).toBe(true)
    const ref = spawnSync(process.execPath, [MAIN, 'spaaace', 'referee', '--json', rec], { env, encoding: 'utf8' })
    expect(ref.status, ref.stderr).toBe(0)
    const closing = ref.stdout.trimEnd().split('\n')
    expect(closing).toHaveLength(60)
    expect(closing.at(-1)).toMatch(/"ended":true}$/)
    expect(readFileSync(rec, 'utf8')).toMatch(
      /^spaaace 1\n# spaceships spaaace play --bots 3 --bot sensible --ticks 60 --seed x --autoplay\nplayer you\n/,
    )
  }, 90_000)
})
