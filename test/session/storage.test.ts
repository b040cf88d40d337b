/**
 * What a crash or a full disk leaves on disk (SPEC §2.2, §11): a line not completely written was
 * never sent or acted on, so it is cut off when the file is opened again; a failed write is cut
 * back at once and reported as a StorageError naming the file and the cause.
 */
import { appendFileSync, existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { appendLineDurably } from '../../src/core/session/file-store.js'
import { StorageError, fileStore } from '../../src/games/spaceships/session/store.js'
import { fileJournal } from '../../src/games/spaceships/session/journal.js'
import { TRANSCRIPTS } from '../../src/games/spaceships/protocol/file.js'
import { transcriptHeader } from '../../src/core/transcript/file.js'

const temp = (): string => mkdtempSync(join(tmpdir(), 'spaceships-storage-'))
const bytes = (n: number): Uint8Array => Uint8Array.from({ length: 40 }, (_, i) => (i * 7 + n) & 0xff)

describe('the transcript and the journal on disk', () => {
  it('a torn last transcript line (the process died mid-write) is cut off on open; the file goes on from there', () => {
    const path = join(temp(), 'transcript')
    const store = fileStore(path)
    for (let i = 0; i < 3; i++) store.append(bytes(i))
    appendFileSync(path, 'AAECAwQFBgcICQoL')
    const reopened = fileStore(path)
    expect(reopened.envelopes().map((b) => Buffer.from(b).toString('hex'))).toEqual(
      [0, 1, 2].map((i) => Buffer.from(bytes(i)).toString('hex')),
    )
    expect(readFileSync(path, 'utf8').endsWith('\n')).toBe(true)
    reopened.append(bytes(3))
    expect(fileStore(path).envelopes()).toHaveLength(4)
    // SPEC §11: a new file is written in the version a node offers for new games.
    expect(readFileSync(path, 'utf8').split('\n')[0]).toBe(transcriptHeader(TRANSCRIPTS[4]))
  })

  it('a damaged complete transcript line is a StorageError naming the line, not a crash', () => {
    const path = join(temp(), 'transcript')
    fileStore(path).append(bytes(0))
    appendFileSync(path, 'not base64!\n')
    expect(() => fileStore(path)).toThrow(StorageError)
    expect(() => fileStore(path)).toThrow(/line 3 is damaged; the game cannot resume from it$/)
  })

  it('a torn last journal line is cut off, so the next entry never glues onto it and a second resume keeps every entry', () => {
    const path = join(temp(), 'journal')
    const j = fileJournal(path)
    j.append({ k: 'setup', text: 'LS Rv1' })
    appendFileSync(path, '{"k":"record","turn":1,"te')
    const second = fileJournal(path)
    expect(second.entries()).toEqual([{ k: 'setup', text: 'LS Rv1' }])
    second.append({ k: 'record', turn: 1, text: 'Rv2' })
    second.append({ k: 'record', turn: 2, text: '' })
    expect(fileJournal(path).entries()).toEqual([
      { k: 'setup', text: 'LS Rv1' },
      { k: 'record', turn: 1, text: 'Rv2' },
      { k: 'record', turn: 2, text: '' },
    ])
  })

  it('a damaged journal line is a StorageError naming the line', () => {
    const path = join(temp(), 'journal')
    writeFileSync(path, '{"k":"setup","text":"LS Rv1"}\n{oops\n')
    expect(() => fileJournal(path)).toThrow(/journal line 2 is damaged/)
  })

  it('a full disk: the write fails with "the disk is full", named, as a StorageError (/dev/full)', () => {
    if (!existsSync('/dev/full')) return
    expect(() => {
      appendLineDurably('/dev/full', 'x'.repeat(100), 'transcript')
    }).toThrow(new StorageError('cannot write the transcript /dev/full: the disk is full'))
  })

  it('a transcript that cannot be opened is a StorageError naming the file and the cause', () => {
    const dir = temp()
    expect(() => {
      appendLineDurably(dir, 'x', 'journal')
    }).toThrow(/^cannot open the journal .*: EISDIR$/)
  })
})
