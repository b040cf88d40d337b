/**
 * Red team, Spaaace! among peers: a cheater that owns its key signs two commitments at one place
 * and shows each to different players (protocol/SPAAACE-PEERS.md §14 vector 9). §4.1 (a
 * divergence), §6.6 (each honest node names it once in a `fork` part), §8 (forwarding carries each
 * version to everyone), §5.3 rule 1 and §9 (counted: `equivocated`, S-80, removed at step 9).
 */
import { describe, expect, it } from 'vitest'
import { toHex } from '../../src/core/commit/bytes.js'
import { verifySpaaace } from '../../src/games/spaaace/verify/verify.js'
import { equivocator, label, partsOf, readOrThrow, redTeamGame, secureOutcome } from './spaaace-helpers.js'

const CHEATER = 4

// p5 signs commit(1) twice: version A goes from p5 to p1, p2 only, version B to p3 only.

describe('red team: equivocation to some players only (§4.1, §6.6, §9, S-80)', () => {
  it('two commitments of p5 at one seq, one to p1/p2, one to p3: both forwarded, the fork counted, p5 equivocated and removed', async () => {
    const cheat = equivocator({ tick: 1, a: [0, 1], b: [2] })
    const g = await redTeamGame({ seed: 'rt-equivocate', ticks: 3, cheaters: { [CHEATER]: cheat } })
    expect(cheat.versions).toHaveLength(2)
    secureOutcome(g, {
      end: 'complete',
      offences: { [CHEATER]: ['fork'] },
      submissions: { [CHEATER]: { 1: 'equivocated' } },
      settledTo: 3,
    })
    for (const i of g.honest) {
      const d = g.result.peers[i]?.decision()
      // §9, S-80: counted in tick 1, and p5 removed at its step 9 (out of A_2).
      const fork = d?.offences.find((o) => o.player === CHEATER && o.rule === '§9 fork')
      expect(fork?.counted, `${label(i)}: the fork counted in tick 1`).toBe(1)
      expect(d?.ticks[0]?.outcome?.state.players.at(CHEATER)?.status).toBe('removed')
      expect(d?.ticks[1]?.active).not.toContain(CHEATER)
      // §6.6: each honest chain names the divergence in exactly one fork part.
      const lines = (g.result.transcripts[i] ?? '').trim().split('\n').slice(2)
      const mine = lines
        .map((l) => readOrThrow(Buffer.from(l, 'base64url'), g.genesis))
        .filter((e) => e.header.author === i)
      const forks = mine.flatMap((e) => partsOf(e).filter((p) => p.type === 'fork'))
      expect(forks, `${label(i)}'s fork parts`).toHaveLength(1)
      expect(forks[0]?.type === 'fork' ? forks[0].author : -1).toBe(CHEATER)
    }
  })

  it('the second version shown to nobody during the game, merged from a file afterwards: p5 convicted, never counted, cannot win; no closing state changes (§7.4, §9, §14 vector 9)', async () => {
    const cheat = equivocator({ tick: 1, a: [0, 1, 2, 3], b: [] })
    const g = await redTeamGame({ seed: 'rt-equivocate-late', ticks: 3, cheaters: { [CHEATER]: cheat } })
    // During the game nobody saw a fork: p5 played, nobody was accused.
    secureOutcome(g, { end: 'complete', offences: { [CHEATER]: [] }, settledTo: 3 })
    const text = g.result.transcripts[0] ?? ''
    const [before] = verifySpaaace([{ name: 'p1', text }])
    const line = Buffer.from(cheat.second[0] ?? new Uint8Array()).toString('base64url')
    const [after] = verifySpaaace([
      { name: 'p1', text },
      { name: 'merged', text: `${text.split('\n').slice(0, 2).join('\n')}\n${line}\n` },
    ])
    if (
      before?.status === 'unreadable' ||
      after?.status === 'unreadable' ||
      before === undefined ||
      after === undefined
    )
      throw new Error('unreadable')
    expect(after.decision.offences.map((o) => [o.player, o.kind, o.counted])).toEqual([[CHEATER, 'fork', undefined]])
    const hashes = (v: typeof after) =>
      v.decision.ticks.map((t) => `${t.t}:${t.status}:${toHex(t.stateHash ?? new Uint8Array())}`)
    expect(hashes(after)).toEqual(hashes(before))
    expect(after.decision.end.kind).toBe('complete')
    if (after.decision.end.kind === 'complete') expect(after.decision.end.winners).not.toContain(CHEATER)
  })
})
