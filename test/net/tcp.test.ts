import { describe, expect, it } from 'vitest'
import { verifyTranscript } from '../../src/games/spaceships/verify/verify.js'
import { formatTranscript } from '../../src/games/spaceships/protocol/file.js'
import { playOverNet } from './helpers.js'

describe('two peer nodes over TCP on loopback (SPEC §2)', () => {
  it('play a whole game bot against bot; both transcripts verify to the same verdict (SPEC §2, §11)', async () => {
    const g = await playOverNet('tcp/1')
    expect(g.host.verdict.status).toBe('complete')
    expect(g.join.verdict).toEqual(g.host.verdict)
    for (const t of [g.host.transcript, g.join.transcript])
      expect(verifyTranscript(formatTranscript(t))).toEqual(g.host.verdict)
    expect(g.events.host.some((e) => e.kind === 'connected' && !e.relayed)).toBe(true)
  }, 60_000)
})
