/**
 * Properties of the rule that decides (protocol/SPAAACE-PEERS.md §5.5, §7.4, §12, §13): the
 * decision does not depend on the order envelopes come in, nor on when a node asks; more envelopes
 * never revert "in" nor remove a stall record; removing envelopes (a key-less edit) never produces
 * an offence or a canonical closing state the whole evidence does not give.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { toHex } from '../../../../src/core/commit/bytes.js'
import { Decider, type Decision, decide } from '../../../../src/games/spaaace/peers/decide.js'
import type { SealedEnvelope } from '../../../../src/games/spaaace/peers/envelope.js'
import {
  type Scenario,
  equivocationToSome,
  honest5,
  removedMidTick,
  twoCutsSplit,
  withheldFromSome,
} from './scenarios.js'

const RUNS = { numRuns: 15 }
const hex = (b: Uint8Array | undefined): string | undefined => (b === undefined ? undefined : toHex(b))

const cases: readonly Scenario[] = [
  honest5(),
  withheldFromSome(),
  removedMidTick(),
  equivocationToSome(),
  twoCutsSplit('b'),
]
const over = (s: Scenario, list: readonly SealedEnvelope[]): Decision =>
  decide(s.game.genesis, s.game.reads(list), { authenticated: true })

describe('§13 the decision is a function of the set', () => {
  it.each(cases.map((s) => [s.name, s] as const))('%s: any order of the envelopes gives the same decision', (_, s) => {
    const list = s.files.flat()
    const want = over(s, list)
    fc.assert(
      fc.property(fc.shuffledSubarray([...list], { minLength: list.length, maxLength: list.length }), (shuffled) => {
        expect(over(s, shuffled)).toEqual(want)
      }),
      RUNS,
    )
  })

  it.each(cases.map((s) => [s.name, s] as const))(
    '%s: a Decider fed one envelope at a time, asked at random moments, ends with the same decision',
    (_, s) => {
      const list = s.files.flat()
      const want = over(s, list)
      fc.assert(
        fc.property(
          fc.shuffledSubarray([...list], { minLength: list.length, maxLength: list.length }),
          fc.array(fc.boolean(), { minLength: list.length, maxLength: list.length }),
          (shuffled, ask) => {
            const d = new Decider(s.game.genesis, { authenticated: true })
            shuffled.forEach((e, k) => {
              d.add(s.game.read(e))
              if (ask[k] === true) d.decision()
            })
            expect(d.decision()).toEqual(want)
          },
        ),
        RUNS,
      )
    },
  )
})

/**
 * What a node may hold at some moment: the envelopes signed up to some point (signing order is
 * causal), less up to `drop` of them (a key-less deletion).
 */
const held = (list: readonly SealedEnvelope[], drop: number) =>
  fc
    .tuple(fc.integer({ min: 0, max: list.length }), fc.uniqueArray(fc.nat(list.length - 1), { maxLength: drop }))
    .map(([k, gone]) => list.slice(0, k).filter((_, i) => !gone.includes(i)))

/** Two sets X ⊆ Y: a moment's holding, and a later one's (plus what the first lacked). */
const nested = (list: readonly SealedEnvelope[]) =>
  fc
    .tuple(fc.integer({ min: 0, max: list.length }), fc.integer({ min: 0, max: list.length }))
    .map(([a, b]) => [list.slice(0, Math.min(a, b)), list.slice(0, Math.max(a, b))] as const)

describe('§5.5 monotonicity', () => {
  it.each(cases.slice(0, 4).map((s) => [s.name, s] as const))(
    '%s: X ⊆ Y: a commitment or reveal in over X is in over Y (same S_{t−1}); a record over X is one over Y',
    (_, s) => {
      fc.assert(
        fc.property(nested(s.files.flat()), ([x, y]) => {
          const dx = over(s, x)
          const dy = over(s, y)
          for (const tx of dx.ticks) {
            const ty = dy.ticks[tx.t - 1]
            const sameStart = tx.t === 1 || hex(dx.ticks[tx.t - 2]?.stateHash) === hex(dy.ticks[tx.t - 2]?.stateHash)
            if (ty === undefined || !sameStart) continue
            tx.committed.forEach((c, q) => {
              if (c) expect(ty.committed[q]).toBe(true)
            })
            tx.revealed.forEach((r, q) => {
              if (r) expect(ty.revealed[q]).toBe(true)
            })
          }
          if (dx.record !== undefined) expect(dy.record?.tick).toBeLessThanOrEqual(dx.record.tick)
        }),
        RUNS,
      )
    },
  )
})

describe('§12 key-less edits only remove evidence', () => {
  it.each(cases.slice(0, 4).map((s) => [s.name, s] as const))(
    '%s: any holding less some envelopes: no offender the whole does not convict, no canonical hash the whole does not give',
    (_, s) => {
      const whole = over(s, s.files.flat())
      // Conviction is per player: an item the whole ignores (its parts are of ticks after its
      // author's removal, BD-17) can be reported in a subset where that removal is not yet known.
      const offenders = new Set(whole.offences.map((o) => o.player))
      fc.assert(
        fc.property(held(s.files.flat(), 2), (x) => {
          const d = over(s, x)
          for (const o of d.offences) expect(offenders).toContain(o.player)
          for (const t of d.ticks)
            if (t.status === 'canonical')
              expect(hex(t.canonical?.hash)).toBe(hex(whole.ticks[t.t - 1]?.canonical?.hash))
        }),
        RUNS,
      )
    },
  )
})
