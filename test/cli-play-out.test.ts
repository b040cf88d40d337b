/**
 * Where `play` leaves its transcript: in the game's own directory under $XDG_STATE_HOME, never in
 * the current directory unless --out asks, and --out never replaces a file (a second game must
 * not overwrite the first's, which "Check it yourself" would then no longer check).
 */
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { verifyTranscript } from '../src/games/spaceships/verify/verify.js'
import { cli } from './cli.js'

function home(): NodeJS.ProcessEnv {
  const d = mkdtempSync(join(tmpdir(), 'spaceships-out-'))
  return { XDG_CONFIG_HOME: join(d, 'config'), XDG_STATE_HOME: join(d, 'state'), NO_COLOR: '1' }
}

describe('play and its transcript file', () => {
  it('without --out writes nothing to the current directory; "Check it yourself" names the game\'s own transcript', async () => {
    const env = home()
    const r = await cli(['play', '--autoplay', '--bot', 'random', '--max-turns', '2'], {}, { env })
    expect(r.code, r.err).toBe(0)
    expect(r.files).toEqual({})
    const path = /Check it yourself: spaceships verify (\S+)\n/.exec(r.out)?.[1] ?? ''
    expect(path.startsWith(join(env['XDG_STATE_HOME'] ?? '', 'spaceships'))).toBe(true)
    expect(verifyTranscript(readFileSync(path, 'utf8')).status).toBe('complete')
  }, 60_000)

  it('--out onto an existing file is refused before the game, in one line, with status 73, and the file is untouched', async () => {
    const env = home()
    const r = await cli(
      ['play', '--autoplay', '--bot', 'random', '--max-turns', '2', '--out', 'kept.transcript'],
      { 'kept.transcript': 'the first game' },
      { env },
    )
    expect(r.code).toBe(73)
    // (A first run also says it created the player's identity, on a line of its own.)
    expect(r.err.split('\n').filter((l) => l.startsWith('spaceships play:'))).toEqual([
      'spaceships play: --out: kept.transcript already exists and holds no transcript of this game, which has only begun; choose another file or move that one away',
    ])
    expect(r.files['kept.transcript']).toBe('the first game')
    // No half-begun game is left to be listed.
    expect((await cli(['games', '--json'], {}, { env })).out).not.toContain('"kind": "play"')
  }, 60_000)
})
