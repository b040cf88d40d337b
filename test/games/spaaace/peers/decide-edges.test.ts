/**
 * The edges of the rule that decides (protocol/SPAAACE-PEERS.md §14), scenario by scenario: what
 * is in, out or open at each cut (§5.2), the submissions (§5.3), settlement (§5.4), the canonical
 * closing state (§5.6), offences (§9) and the end (§5.7).
 */
import { describe, expect, it } from 'vitest'
import { decide } from '../../../../src/games/spaaace/peers/decide.js'
import { type Scenario, exactlyHalf, namedAfterReveals, removedMidTick, revealOfExcluded } from './scenarios.js'

const decided = (s: Scenario) => decide(s.game.genesis, s.game.reads(s.files[0]))
const kinds = (d: ReturnType<typeof decide>, t: number) => d.ticks[t - 1]?.submissions?.map((x) => x.kind)

describe('§14.2, §5.2 a commitment named by exactly half', () => {
  it.each([4, 6] as const)('%i players: yes = n/2 < M and no = n/2 = n − M + 1: out, missing, no offence', (n) => {
    const d = decided(exactlyHalf(n))
    const tick = d.ticks[0]
    expect(tick?.majority).toBe(n / 2 + 1)
    expect(tick?.status).toBe('canonical')
    expect(tick?.committed[n - 1]).toBe(false)
    expect(kinds(d, 1)?.[n - 1]).toBe('missing')
    expect(
      kinds(d, 1)
        ?.slice(0, n - 1)
        .every((k) => k === 'orders'),
    ).toBe(true)
    expect(d.offences).toEqual([])
    expect(d.end).toEqual({ kind: 'complete', tick: 1, winners: [] })
  })

  it.each([4, 6] as const)('%i players, one more seal holding it: yes = M: in, its orders count', (n) => {
    const d = decided(exactlyHalf(n, n / 2))
    expect(d.ticks[0]?.committed[n - 1]).toBe(true)
    expect(d.ticks[0]?.submissions?.[n - 1]).toEqual(expect.objectContaining({ kind: 'orders' }))
  })
})

describe('§14.3, §7.2 a commitment named only after reveals', () => {
  const d = decided(namedAfterReveals())
  it("p5's commitment is out (yes = 2: p4's seal and its own vote), its reveal ignored: missing, no offence", () => {
    expect(d.ticks[0]?.committed).toEqual([true, true, true, true, false])
    expect(d.ticks[0]?.revealed[4]).toBe(false)
    expect(kinds(d, 1)).toEqual(['orders', 'orders', 'orders', 'orders', 'missing'])
    expect(d.offences).toEqual([])
    expect(d.ticks[0]?.status).toBe('canonical')
  })
})

describe('§14.4, §5.3 a reveal of an excluded commitment', () => {
  const d = decided(revealOfExcluded())
  it('the reveal is ignored, no offence; p3 is missing (S-61: absence +1)', () => {
    expect(d.ticks[0]?.committed[2]).toBe(false)
    expect(kinds(d, 1)?.[2]).toBe('missing')
    expect(d.ticks[0]?.outcome?.state.players[2]?.absent).toBe(1)
    expect(d.offences).toEqual([])
  })
})

describe('§14.5, §9 a player removed in the middle of a tick', () => {
  const d = decided(removedMidTick())
  const t1 = d.ticks[0]
  const t2 = d.ticks[1]

  it('the fork after its reveal is counted at the close cut of tick 1: equivocated (S-80), removed at step 9', () => {
    expect(kinds(d, 1)).toEqual(['orders', 'equivocated', 'orders', 'orders', 'orders'])
    expect(t1?.outcome?.state.players[1]?.status).toBe('removed')
    expect(t1?.outcome?.offences).toEqual([{ player: 1, rule: 'S-80' }])
    expect(d.offences.map((o) => [o.player, o.kind, o.counted])).toEqual([[1, 'fork', 1]])
  })

  it('its orders do not count and the battle initiated against it is void (S-41)', () => {
    const battles = t1?.outcome?.battles ?? []
    expect(battles.map((b) => [b.a, b.b, b.void])).toEqual([[0, 1, true]])
    expect(t1?.outcome?.state.ships[1]?.sector).toBe(2)
    expect(t1?.outcome?.state.ships[0]?.engaging).toBe(false)
  })

  it('its seal and close still count for tick 1', () => {
    expect(t1?.seals).toContain(1)
    expect(t1?.closes).toContain(1)
    expect(t1?.active).toEqual([0, 1, 2, 3, 4])
  })

  it('from tick 2 it is outside A_2 (n = 4, M = 3): its commitment, named by an honest seal, is ignored and no offence (§5.1)', () => {
    expect(t2?.active).toEqual([0, 2, 3, 4])
    expect(t2?.majority).toBe(3)
    expect(t2?.committed[1]).toBe(false)
    expect(kinds(d, 2)?.[1]).toBe('missing')
    expect(d.offences.filter((o) => o.kind === 'violation')).toEqual([])
    expect(d.end).toEqual({ kind: 'complete', tick: 2, winners: [] })
  })
})
