/**
 * --notify CMD (the open issue on games across days): the program is run with the game id and the
 * event as its two arguments, never through a shell (a path with spaces works as it
 * is, and a semicolon in it runs nothing else), when the player's move becomes due and when the
 * game ends.
 */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { EXIT } from '../src/cli/io.js'
import { home, start } from './processes.js'
import { moveAlerts } from '../src/cli/alerts.js'

describe('--notify (never through a shell)', () => {
  it('play: the command hears ended, with the game id', async () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'notify-')), 'a dir with spaces; and a semicolon')
    mkdirSync(dir)
    const log = join(dir, 'log')
    const script = join(dir, 'notify me.sh')
    writeFileSync(script, `#!/bin/sh\nprintf '%s %s\\n' "$1" "$2" >> "${log}"\n`)
    chmodSync(script, 0o755)
    const p = start(
      ['play', '--autoplay', '--random', '--max-turns', '2', '--seed', 'notify', '--notify', script],
      home(),
    )
    expect(await p.exit, p.err()).toBe(EXIT.ok)
    const id = /game ([0-9a-f]{8})/.exec(p.out())?.[1] ?? ''
    // The detached program may still be writing its last line: poll the file briefly.
    let lines: string[] = []
    for (let i = 0; i < 100 && !lines.some((l) => l.endsWith(' ended')); i++) {
      try {
        lines = readFileSync(log, 'utf8').trim().split('\n')
      } catch {
        lines = []
      }
      await new Promise((r) => setTimeout(r, 20))
    }
    expect(lines.at(-1)).toMatch(/^[0-9a-f]{32} ended$/)
    expect(lines.every((l) => l.startsWith(id))).toBe(true)
  }, 60_000)
})

describe('your move: the bell and your-move, once each time the move becomes due', () => {
  it("rings and notifies when this side's commitment or setup becomes due, not again while it stays due, nor for the other side", () => {
    const out: string[] = []
    const heard: string[] = []
    const alert = moveAlerts('A', {
      bell: true,
      io: { stdout: (t: string) => out.push(t), stderr: () => undefined } as never,
      notify: (e) => heard.push(e),
    })
    const waiting = (side: 'A' | 'B', what: string) => ({ kind: 'waiting' as const, side, what, deadline: 0 })
    alert(waiting('A', 'setup'))
    alert(waiting('A', 'setup'))
    alert(waiting('B', 'setup'))
    alert(waiting('A', 'commit'))
    alert(waiting('A', 'commit'))
    alert(waiting('A', 'results'))
    alert(waiting('B', 'commit+aspects'))
    alert(waiting('A', 'commit'))
    expect(heard).toEqual(['your-move', 'your-move', 'your-move'])
    expect(out).toEqual(['\x07', '\x07', '\x07'])
  })
})
