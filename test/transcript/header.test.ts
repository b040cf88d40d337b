/**
 * A transcript's first line (SPEC §11): the version is everything after the prefix, so a header
 * followed by a carriage return (a file saved with CRLF line ends) or a space names no version
 * this program reads (`file.version`), and is said so in words; another first line is
 * `file.header`.
 */
import { describe, expect, it } from 'vitest'
import { verifyTranscript } from '../../src/games/spaceships/verify/verify.js'
import { readFileSync } from 'node:fs'

const honest = readFileSync(new URL('../../protocol/vectors/honest-a.transcript', import.meta.url), 'utf8')

describe('the first line of a transcript (SPEC §11)', () => {
  it('CRLF line ends: file.version, saying a carriage return follows the header, not "a version 4\\r transcript"', () => {
    const v = verifyTranscript(honest.replace(/\n/g, '\r\n'))
    expect(v.status).toBe('unreadable')
    if (v.status !== 'unreadable') return
    expect(v.error.error.code).toBe('file.version')
    expect(v.error.error.message).toMatch(/followed by a carriage return/)
    expect(v.error.error.message).not.toContain('\r')
  })

  it('a trailing space: file.version, said so', () => {
    const [first, ...rest] = honest.split('\n')
    const v = verifyTranscript([`${first ?? ''} `, ...rest].join('\n'))
    expect(v.status === 'unreadable' && v.error.error.code).toBe('file.version')
    expect(v.status === 'unreadable' && v.error.error.message).toMatch(/followed by spaces/)
  })

  it('another first line: file.header', () => {
    const v = verifyTranscript(`hello\n${honest.split('\n').slice(1).join('\n')}`)
    expect(v.status === 'unreadable' && v.error.error.code).toBe('file.header')
  })
})

describe('a file with no whole line (SPEC §11)', () => {
  it('is said to have no line feed, not to be empty', () => {
    const v = verifyTranscript('hello world')
    expect(v.status === 'unreadable' && v.error.error.message).toMatch(/^no whole line \(no line feed in 11 bytes\)/)
    const empty = verifyTranscript('')
    expect(empty.status === 'unreadable' && empty.error.error.message).toMatch(/^an empty file/)
  })
})
