/**
 * The node's fetch journal (protocol/SPAAACE-WITNESSED.md §8.2): the outage vote reads its last three
 * fetches, and a node checking in by hand is a new process each time, so they survive in a file.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { fileFetchJournal, memoryFetchJournal } from '../../../../src/games/spaaace/node/fetches.js'

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})
function file(): string {
  const d = mkdtempSync(join(tmpdir(), 'fetches-'))
  dirs.push(d)
  return join(d, 'p1.fetches')
}

describe('the fetch journal (§8.2)', () => {
  it('keeps the last three fetches, oldest first, across processes (a fresh journal over the same file)', () => {
    const path = file()
    const a = fileFetchJournal(path)
    for (let i = 1; i <= 5; i++) a.add({ at: i * 1000, past: i === 2 ? 1500 : null })
    // The system clock reads fractional milliseconds: such a journal reads back too.
    const b = file()
    fileFetchJournal(b).add({ at: 1795724395811.7793, past: 1795724390000.25 })
    expect(fileFetchJournal(b).read()).toEqual([{ at: 1795724395811.7793, past: 1795724390000.25 }])
    expect(a.read()).toEqual([
      { at: 3000, past: null },
      { at: 4000, past: null },
      { at: 5000, past: null },
    ])
    expect(fileFetchJournal(path).read()).toEqual(a.read())
    const m = memoryFetchJournal()
    for (let i = 1; i <= 4; i++) m.add({ at: i, past: null })
    expect(m.read().map((o) => o.at)).toEqual([2, 3, 4])
  })

  it('a file that does not read as a journal is taken as empty, and written afresh (forgetting only delays a vote)', () => {
    for (const text of ['{', '[{"at":"soon","past":null}]', '{"at":1}', '[{"at":1,"past":"late"}]']) {
      const path = file()
      writeFileSync(path, text)
      const j = fileFetchJournal(path)
      expect(j.read()).toEqual([])
      j.add({ at: 7, past: 3 })
      expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual([{ at: 7, past: 3 }])
    }
  })

  it('a journal that cannot be written (its directory is a file) is kept in memory: the check-in goes on', () => {
    const blocker = file()
    writeFileSync(blocker, 'not a directory')
    const j = fileFetchJournal(join(blocker, 'p1.fetches'))
    expect(() => {
      j.add({ at: 1, past: null })
    }).not.toThrow()
    expect(j.read()).toEqual([{ at: 1, past: null }])
  })
})
