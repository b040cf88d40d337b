/**
 * Red team: a node that speaks both versions "MUST keep playing, resuming and verifying version 3
 * games in version 3" (SPEC §1.1), and a transcript file's header names its game's version
 * (SPEC §11: `spaceships-transcript 3` for a version 3 game). A version 3 game is still played new
 * here: joining a `spaceships3.` invite (SPEC §2.3) from a host that speaks only version 3.
 * `openGameFiles` creates every game's transcript with the header of the version a new game is
 * offered in (4), whatever the game: the honest joiner's file of a version 3 game is then
 * unreadable to a version 3 verifier (`file.version`), and a verifier that applies SPEC §11 ("a line
 * whose bytes' first byte is not the file's version ... is noted and set aside") finds no game in it.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { openGameFiles } from '../../src/cli/games.js'
import { parseTranscript as parseWith } from '../../src/core/transcript/file.js'
import { TRANSCRIPTS } from '../../src/games/spaceships/protocol/file.js'
import { memoryStore } from '../../src/games/spaceships/protocol/file.js'
import { TERMS, playInMemory } from '../session/helpers.js'

describe('red team: the transcript file of a version 3 game (SPEC §1.1, §11)', () => {
  it('SPEC §11: a version 3 game played by this node is written under the header `spaceships-transcript 3`', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rt-v3-header-'))
    const id = '0123456789abcdef0123456789abcdef'
    const files = openGameFiles(id, { XDG_STATE_HOME: dir })
    try {
      const g = await playInMemory('redteam/v3-header', {
        version: 3,
        terms: { ...TERMS, maxTurns: 2 },
        stores: [memoryStore(), files.store],
      })
      expect(g.b.verdict.status).toBe('complete')
      const text = readFileSync(join(files.dir, 'transcript'), 'latin1')
      expect(text.slice(0, text.indexOf('\n'))).toBe('spaceships-transcript 3')
      // A verifier of version 3 alone reads it.
      expect(parseWith([TRANSCRIPTS[3]], text).ok).toBe(true)
    } finally {
      files.release()
      rmSync(dir, { recursive: true, force: true })
    }
  }, 60_000)
})
