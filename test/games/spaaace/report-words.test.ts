/**
 * A stalled game's line (SPAAACE-PEERS.md §5.7, BD-18): the players whose cut of the tick the
 * files lack are said as what the files lack, never as a charge (each node's files differ while
 * envelopes are on their way, and another player's file may hold them).
 */
import { describe, expect, it } from 'vitest'
import { endLine } from '../../../src/games/spaaace/verify/report.js'

describe('endLine of a stalled game', () => {
  it('names what these files lack', () => {
    expect(endLine({ kind: 'stalled', tick: 2, split: false, lacking: [1, 3] }, ['p1', 'you', 'p3', 'bob'])).toBe(
      'stalled at tick 2: a majority voted to stop there, the tick unsettled, so nobody wins (§5.7); these files hold no seal or close of that tick from you, bob',
    )
    expect(endLine({ kind: 'stalled', tick: 2, split: true, lacking: [] }, [])).toBe(
      'stalled at tick 2 (split): a majority voted to stop there, the tick unsettled, so nobody wins (§5.7)',
    )
  })
})
