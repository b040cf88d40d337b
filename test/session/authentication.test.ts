import { describe, expect, it } from 'vitest'
import { chainCover } from '../../src/verify/chain.js'
import { formatTranscript, parseTranscript } from '../../src/transcript/file.js'
import { verifyTranscript } from '../../src/verify/verify.js'
import { TERMS, playInMemory } from './helpers.js'

describe('chain authentication in the verifier (SPEC §11.1)', () => {
  it('one valid signature at the head of each linked chain authenticates the whole chain', async () => {
    const g = await playInMemory('auth/1', { terms: { ...TERMS, maxTurns: 12 } })
    const parsed = parseTranscript(formatTranscript(g.a.transcript))
    if (!parsed.ok) throw new Error('unreadable')
    expect(chainCover(parsed.value).size).toBe(parsed.value.length)
    expect(verifyTranscript(formatTranscript(g.a.transcript))).toEqual(g.a.verdict)
  })

  it('a signature tampered in the middle of a chain is still found, at its envelope, against its sender', async () => {
    const g = await playInMemory('auth/2', { terms: { ...TERMS, maxTurns: 12 } })
    const lines = [...g.a.transcript]
    const at = lines.findIndex((l) => l.includes('"from":"B"') && l.includes('"seq":9,'))
    expect(at).toBeGreaterThan(0)
    const line = lines[at] ?? ''
    const sig = /"sig":"([A-Za-z0-9_-]+)"/.exec(line)?.[1] ?? ''
    const flipped = (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1)
    lines[at] = line.replace(sig, flipped)
    const v = verifyTranscript(formatTranscript(lines))
    expect(v.status).toBe('offence')
    if (v.status === 'offence') expect(v.offence).toMatchObject({ offender: 'B', class: 'invalid-signature', seq: 9 })
  })
})
