/**
 * `spaceships notary` serves witnessed Spaaace! beside Spaceships (SPAAACE-WITNESSED §2: a notary
 * MAY serve both; the protocol id selects the registrar), each game's log in its own database.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { notaryCommand } from '../src/cli/notary.js'

/** Starts `spaceships notary` in a fresh home, stops it once it has printed, and returns what it printed. */
async function started(json: boolean): Promise<{ code: number; out: string; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'notary-both-'))
  const out: string[] = []
  let stop: () => void = () => undefined
  const stopped = new Promise<void>((r) => (stop = r))
  const code = await notaryCommand(
    {
      stdout: (t) => {
        out.push(t)
        stop()
      },
      stderr: () => undefined,
      readFile: () => Promise.reject(new Error('unused')),
      writeFile: () => Promise.resolve(),
      env: { XDG_CONFIG_HOME: join(dir, 'config'), XDG_STATE_HOME: join(dir, 'state') },
    },
    { listen: ['/ip4/127.0.0.1/tcp/0'], ...(json ? { json: true } : {}) },
    stopped,
  )
  return { code, out: out.join(''), dir }
}

describe('spaceships notary (SPAAACE-WITNESSED §2)', () => {
  it('opens both databases, names both protocols, and stops cleanly', async () => {
    const r = await started(true)
    expect(r.code).toBe(0)
    const printed = JSON.parse(r.out) as { db: string; spaaaceDb: string }
    expect(existsSync(printed.db) && existsSync(printed.spaaaceDb)).toBe(true)
    expect(printed.spaaaceDb.endsWith('spaaace-notary.sqlite')).toBe(true)
    rmSync(r.dir, { recursive: true, force: true })
  })

  it('in words: how a host of either game names it', async () => {
    const r = await started(false)
    expect(r.code).toBe(0)
    expect(r.out).toContain('A host names it with: spaceships host --notary <one of the addresses above>\n')
    expect(r.out).toContain('spaceships spaaace host --notary <the same address>.\n')
    rmSync(r.dir, { recursive: true, force: true })
  })
})
