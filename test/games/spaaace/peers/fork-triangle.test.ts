/**
 * SPAAACE-PEERS.md §5.2, BD-24: three versions at one place, each honest player shown a different
 * two of them (a triangle). A fork is one item holding every version, and a cut holds it with any
 * two, so it is counted in tick 1 (one item a pair, no pair was held by a majority, and it was
 * never counted). The decision is the same in every order of the lines and for any split of them
 * into two files. From an adversarial pass on the change.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { decide } from '../../../../src/games/spaaace/peers/decide.js'
import type { SealedEnvelope } from '../../../../src/games/spaaace/peers/envelope.js'
import type { Part } from '../../../../src/games/spaaace/peers/parts.js'
import { verifySpaaace } from '../../../../src/games/spaaace/verify/verify.js'
import { liveGenesis } from './fixtures.js'
import { forkPart } from './scenarios.js'
import { Game } from './script.js'

function triangle() {
  const game = new Game(5, { terms: { ...liveGenesis(5).terms, maxTicks: 2 } }, 'triangle')
  game.accept()
  for (const i of [0, 1, 2, 4]) game.deliver(game.player(i).sign([game.player(i).commitPart(1, '-')]))
  const p4 = game.player(3)
  const accept = p4.chain[0] as SealedEnvelope
  const a = p4.sign([p4.commitPart(1, 'buy 1')])
  const b = p4.sign([p4.commitPart(1, 'buy 2')], { after: accept })
  const c = p4.sign([p4.commitPart(1, 'buy 3')], { after: accept })
  game.deliver(a, [0, 2, 4])
  game.deliver(b, [0, 1])
  game.deliver(c, [1, 2])
  const pairOf: Record<number, [SealedEnvelope, SealedEnvelope]> = { 0: [a, b], 1: [b, c], 2: [a, c] }
  const seals = [0, 1, 2, 3, 4].map((i) => {
    const p = game.player(i)
    const pr = pairOf[i]
    const parts: Part[] = [{ type: 'seal', tick: 1 }]
    if (pr !== undefined) parts.push(forkPart(pr[0], pr[1]))
    return p.sign(parts)
  })
  for (const e of seals) game.deliver(e)
  for (const i of [0, 1, 2, 3, 4]) game.deliver(game.player(i).sign([game.player(i).revealPart(1)]))
  for (const i of [0, 1, 2, 3, 4]) game.deliver(game.player(i).sign([{ type: 'close', tick: 1 }]))
  return { game, versions: [a, b, c] }
}

describe('a triangle of versions at one place (§5.2, BD-24)', () => {
  const { game, versions } = triangle()
  const list = game.signed
  const want = decide(game.genesis, game.reads(list), { authenticated: true })
  it('the fork item is counted in tick 1 (three cuts each hold two of its three versions)', () => {
    const forks = want.offences.filter((o) => o.player === 3)
    expect(forks.some((o) => o.kind === 'fork' && o.counted === 1 && o.envelopes.length === 3)).toBe(true)
    expect(versions.length).toBe(3)
  })
  it('any order of the envelopes gives the same decision', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray([...list], { minLength: list.length, maxLength: list.length }), (s) => {
        expect(decide(game.genesis, game.reads(s), { authenticated: true })).toEqual(want)
      }),
      { numRuns: 60 },
    )
  })
  it('any split of the lines into two files gives the same verdict', () => {
    const one = verifySpaaace([{ name: 'all', text: game.transcript(list) }])[0]
    fc.assert(
      fc.property(
        fc.array(fc.boolean(), { minLength: list.length, maxLength: list.length }),
        fc.boolean(),
        (mask, rev) => {
          const x = list.filter((_, k) => mask[k] === true)
          const y = list.filter((_, k) => mask[k] !== true)
          const files = [
            { name: 'x', text: game.transcript(x) },
            { name: 'y', text: game.transcript(rev ? [...y].reverse() : y) },
          ]
          const v = verifySpaaace(files)[0]
          expect(v && 'decision' in v ? v.decision : v).toEqual(one && 'decision' in one ? one.decision : one)
        },
      ),
      { numRuns: 40 },
    )
  })
})
