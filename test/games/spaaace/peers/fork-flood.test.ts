/**
 * Hostile input never crashes the verifier (SPAAACE-PEERS.md §13, BD-24): one player signing 500
 * versions at one place makes a fork per pair (125,250 with its own envelope there), which the text report spread onto the
 * stack ("Maximum call stack size exceeded", exit 70, no verdict); offences that read alike are
 * now one line with their count. Found by an adversarial pass.
 */
import { describe, expect, it } from 'vitest'
import { sealEnvelope } from '../../../../src/games/spaaace/peers/envelope.js'
import { renderSpaaaceVerdict, verifySpaaace } from '../../../../src/games/spaaace/verify/verify.js'
import { liveGenesis } from './fixtures.js'
import { playHonest } from './script.js'

describe('a flood of versions at one place (BD-24)', () => {
  it('is decided and reported, its forks one line with their count', () => {
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
    const versions = Array.from({ length: 500 }, (_, k) => {
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
    const forks = text.split('\n').filter((l) => l.startsWith('offence: p5, fork'))
    expect(forks).toEqual(['offence: p5, fork (§9 fork), never counted: cannot win (S-80) (125250 times)'])
    expect(text.split('\n').filter((l) => l.startsWith('offence: ') && !l.startsWith('offence: p5'))).toEqual([])
  }, 60_000)
})
