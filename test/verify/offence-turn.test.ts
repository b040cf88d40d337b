/**
 * SPEC §12.6: every envelope has a turn by its place in its sender's chain, so an offence anchored
 * to an envelope that names no turn (a stop, a reveal, a verdict) ranks after every turn its sender
 * played before it. An equivocation a cheater signs at the end of the game never outranks an
 * offence it committed during the game.
 */
import { describe, expect, it } from 'vitest'
import { formatTranscript } from '../../src/games/spaceships/protocol/file.js'
import { verifyFiles } from '../../src/games/spaceships/verify/verify.js'
import { equivocatingAtReveal } from '../protocol/build-vectors.js'
import { TERMS, playInMemory } from '../session/helpers.js'

describe('the turn of an offence in parts that name no turn (SPEC §12.6)', () => {
  it('an equivocation on the stop that carries the reveal ranks after the turn-2 offence it follows', async () => {
    const g = await playInMemory('offence-turn/equivocation', {
      terms: { ...TERMS, maxTurns: 12 },
      deviations: [undefined, equivocatingAtReveal()],
    })
    const v = verifyFiles([{ name: 'a', content: formatTranscript(g.a.transcript) }])
    // Before: the equivocation ranked at turn 0 and was named instead.
    expect(v.status === 'offence' && v.offence).toMatchObject({ offender: 'B', class: 'illegal-record', turn: 2 })
  })

  it('a reveal with the wrong number of records ranks at the reveal’s turn by place, stage 5', async () => {
    const g = await playInMemory('offence-turn/record-count', {
      terms: { ...TERMS, maxTurns: 3 },
      deviations: [
        undefined,
        {
          outgoing: (parts, sealWith) => [
            sealWith(parts.map((p) => (p.t === 'reveal' ? { ...p, records: p.records.slice(0, -1) } : p))),
          ],
        },
      ],
    })
    const v = verifyFiles([{ name: 'a', content: formatTranscript(g.a.transcript) }])
    // B named turns 1 to 3 before its reveal, so the reveal is in turn 4 (before: turn 3, its commitments' count).
    expect(v.status === 'offence' && v.offence).toMatchObject({
      offender: 'B',
      class: 'protocol-violation',
      rule: 'SPEC §7.8',
      turn: 4,
      stage: 5,
    })
  })
})
