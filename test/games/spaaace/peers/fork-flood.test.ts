/**
 * Hostile input never crashes the verifier (SPAAACE-PEERS.md §13, BD-24). One player signing 500
 * versions at one place made a fork item per pair (125,250 with its own envelope there), which the
 * text report spread onto the stack ("Maximum call stack size exceeded", exit 70, no verdict; found
 * by an adversarial pass); and 3,000 versions, a 714 KB file, took 50 s and 3.5 GB, growing as the
 * square of the versions. A place's versions are now one item.
 */
import { describe, expect, it } from 'vitest'
import { sealEnvelope } from '../../../../src/games/spaaace/peers/envelope.js'
import { renderSpaaaceVerdict, verifySpaaace } from '../../../../src/games/spaaace/verify/verify.js'
import { liveGenesis } from './fixtures.js'
import { playHonest } from './script.js'

describe('a flood of versions at one place (BD-24)', () => {
  it('is one fork item of all the versions, decided and reported on one line', () => {
    const n = 5
    const ticks = 3
    const game = playHonest(
      n,
      Array.from({ length: ticks }, () => Array.from({ length: n }, () => '-')),
      { terms: { ...liveGenesis(n).terms, maxTicks: ticks } },
    )
    const c = game.player(n - 1)
    const accept = c.chain[0]
    if (accept === undefined) throw new Error('no accept')
    const versions = Array.from({ length: 3000 }, (_, k) => {
      const seed = new Uint8Array(32)
      new DataView(seed.buffer).setUint32(0, k)
      return sealEnvelope(c.keys, {
        author: c.index,
        seq: 1,
        game: game.game,
        prev: accept.hash,
        heads: [],
        parts: [
          { type: 'seed', seed },
          { type: 'stop', tick: 0, reason: 'not-started' },
        ],
      })
    })
    const [v] = verifySpaaace([{ name: 'flood', text: game.transcript([...game.signed, ...versions]) }])
    if (v === undefined) throw new Error('no verdict')
    const text = renderSpaaaceVerdict(v)
    expect(v.status).toBe('offence')
    if (v.status !== 'offence') return
    const forkItems = v.decision.offences.filter((o) => o.kind === 'fork')
    expect(forkItems.map((o) => [o.player, o.kind, o.message, o.envelopes.length])).toEqual([
      [4, 'fork', '3001 envelopes at seq 1 with one prev', 3001],
    ])
    const forks = text.split('\n').filter((l) => l.startsWith('offence: p5, fork'))
    expect(forks).toEqual(['offence: p5, fork (§9 fork), never counted: cannot win (S-80)'])
    expect(text.split('\n').filter((l) => l.startsWith('offence: ') && !l.startsWith('offence: p5'))).toEqual([])
  }, 60_000)
})
