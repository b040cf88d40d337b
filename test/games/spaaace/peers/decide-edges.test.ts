/**
 * The edges of the rule that decides (protocol/SPAAACE-PEERS.md §14), scenario by scenario: what
 * is in, out or open at each cut (§5.2), the submissions (§5.3), settlement (§5.4), the canonical
 * closing state (§5.6), offences (§9) and the end (§5.7).
 */
import { describe, expect, it } from 'vitest'
import { decide } from '../../../../src/games/spaaace/peers/decide.js'
import {
  type Scenario,
  dishonestMajority,
  equivocatedOpen,
  equivocationToSome,
  exactlyHalf,
  exceptionEitherCut,
  falseClosingHash,
  forkAfterEnd,
  honest5,
  keylessDeletion,
  keylessEdits,
  malformed,
  prevOfAnother,
  mismatch,
  namedAfterReveals,
  recordThenSettle,
  removedMidTick,
  revealOfExcluded,
  revealWithheld,
  tickJump,
  twoCutsSplit,
  voteWithdrawn,
  withheldFromSome,
} from './scenarios.js'

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

describe('§14.6, §5.7 withheld from some, then a stall record', () => {
  const s = withheldFromSome()
  const d = decided(s)
  it("tick 1: sent to p1 alone and forwarded, p5's commitment is in", () => {
    expect(d.ticks[0]?.committed[4]).toBe(true)
    expect(d.ticks[0]?.status).toBe('canonical')
  })
  it("tick 2: p5's late commitment is open (yes = 2, no = 2), the seal cut unsettled; the honest votes meet in p3's vote", () => {
    expect(d.ticks[1]?.status).toBe('open')
    expect(d.ticks[1]?.sealSettled).toBe(false)
    expect(d.ticks[1]?.votes).toEqual([0, 1, 2])
    expect(d.record).toEqual({ envelope: s.game.player(2).chain.at(-1)?.id, tick: 2 })
  })
  it('stalled at 2, no winner, p4 and p5 lacking the seal cut (BD-18)', () => {
    expect(d.end).toEqual({ kind: 'stalled', tick: 2, split: false, lacking: [3, 4] })
  })
  it('two votes are not a record: without p3 the game reads ongoing, "stalled (provisional)" for a voter (§5.7 end 4)', () => {
    const two = s.files[0]?.slice(0, -1) ?? []
    const d2 = decide(s.game.genesis, s.game.reads(two), { self: 0 })
    expect(d2.end).toEqual({ kind: 'ongoing', lastSettled: 1, provisional: 'stalled' })
    expect(d2.record).toBeUndefined()
  })
})

describe('§14.7, S-62, S-41 a withheld reveal', () => {
  const d = decided(revealWithheld())
  it("p3 committed and did not reveal: withheld, energy 0, fined, and it bids 0 in p2's battle", () => {
    expect(kinds(d, 2)?.[2]).toBe('withheld')
    const b = d.ticks[1]?.outcome?.battles[0]
    expect([b?.a, b?.b, b?.bids]).toEqual([1, 2, [4, 0]])
    const p3 = d.ticks[1]?.outcome?.state.players[2]
    expect(p3?.coins).toBe(10 + 2 - 5)
    expect(d.ticks[1]?.outcome?.state.ships[2]?.energy).toBe(0)
  })
})

describe('§14.9, §9 equivocation to some', () => {
  const d = decided(equivocationToSome())
  it('both commitments in at the seal cut through fork parts: the fork counted in tick 1, p4 equivocated, removed', () => {
    expect(kinds(d, 1)?.[3]).toBe('equivocated')
    expect(d.ticks[0]?.outcome?.state.players[3]?.status).toBe('removed')
    expect(d.offences.map((o) => [o.player, o.kind, o.rule, o.counted])).toEqual([[3, 'fork', '§9 fork', 1]])
  })
  it("p4's later envelopes, whose past holds its other branch, are not evidence (own-chain consistency, §4.1)", () => {
    expect(d.notEvidence).toHaveLength(1)
    expect(d.gaps.length).toBeGreaterThan(0)
  })
})

describe('§14.9 variant, S-80 a fork that surfaces after the end', () => {
  const s = forkAfterEnd()
  it('file a alone: complete at 4, p3 wins (it beat the infamous p2)', () => {
    const d = decide(s.game.genesis, s.game.reads(s.files[0]))
    expect(d.end).toEqual({ kind: 'complete', tick: 4, winners: [2] })
  })
  it('with file b: the fork is never counted, every closing state stands, p3 convicted and cannot win', () => {
    const a = decide(s.game.genesis, s.game.reads(s.files[0]))
    const d = decide(s.game.genesis, s.game.reads(s.files.flat()))
    expect(d.end).toEqual({ kind: 'complete', tick: 4, winners: [] })
    expect(d.offences.map((o) => [o.player, o.kind, o.counted])).toEqual([[2, 'fork', undefined]])
    expect(d.ticks.map((t) => t.stateHash)).toEqual(a.ticks.map((t) => t.stateHash))
  })
})

describe('§14.10, §5.6, §7.1 two cuts of one player', () => {
  it('(a) the honest hashes differ; one has 3 correct signers: canonical, the forks never counted, both cheaters convicted', () => {
    const d = decided(twoCutsSplit('a'))
    expect(d.ticks[0]?.status).toBe('canonical')
    expect(d.ticks[0]?.canonical?.signers).toEqual([0, 1, 4])
    expect(kinds(d, 1)).toEqual(['orders', 'orders', 'withheld', 'withheld', 'orders'])
    expect(d.offences.map((o) => [o.player, o.kind, o.counted])).toEqual([
      [3, 'fork', undefined],
      [4, 'fork', undefined],
    ])
    expect(d.end).toEqual({ kind: 'complete', tick: 1, winners: [] })
  })
  it('(a) S_1 over the merged evidence is neither side’s: `own` differs from the canonical state (what a node holding it all would sign)', () => {
    const d = decided(twoCutsSplit('a'))
    const t1 = d.ticks[0]
    expect(t1?.stateHash).toEqual(t1?.canonical?.hash)
    expect(t1?.own?.stateHash).toBeDefined()
    expect(t1?.own?.stateHash).not.toEqual(t1?.stateHash)
    expect(t1?.own?.submissions.map((x) => x.kind)).toEqual(['orders', 'orders', 'orders', 'orders', 'orders'])
  })
  it('(b) neither hash reaches 3: split; votes stop(2, split) make a record for tick 1: stalled at 1, split (§5.6 rule 2, §5.7)', () => {
    const d = decided(twoCutsSplit('b'))
    expect(d.ticks.map((t) => t.status)).toEqual(['split'])
    expect(d.ticks[0]?.votes).toEqual([0, 1, 2])
    expect(d.end).toEqual({ kind: 'stalled', tick: 1, split: true, lacking: [] })
  })
})

describe('§14.11, §5.6 a false closing hash', () => {
  const d = decided(falseClosingHash())
  it("p2's state(1) is not S_1 over its past: counted at tick 2's seal cut, p2 equivocated and removed (S-80)", () => {
    expect(d.offences.map((o) => [o.player, o.kind, o.rule, o.counted])).toEqual([[1, 'false-state', '§5.6', 2]])
    expect(kinds(d, 2)?.[1]).toBe('equivocated')
    expect(d.ticks[0]?.canonical?.signers).toEqual([0, 2, 3, 4])
  })
})

describe('§14.12, §14.13 malformed sets and a mismatch', () => {
  it('bid 21, attack p2 by p2, buy 0, bid -10, two moves: each malformed (S-37), all removed, no winner (S-82)', () => {
    const d = decided(malformed())
    expect(kinds(d, 1)).toEqual(['malformed', 'malformed', 'malformed', 'malformed', 'malformed'])
    expect(d.ticks[0]?.outcome?.state.players.every((p) => p.status === 'removed')).toBe(true)
    expect(d.end).toEqual({ kind: 'complete', tick: 1, winners: [] })
  })
  it("p3's reveal does not open its commitment: mismatch (S-60, S-62), no §9 offence", () => {
    const d = decided(mismatch())
    expect(kinds(d, 1)?.[2]).toBe('mismatch')
    expect(d.ticks[0]?.outcome?.offences).toEqual([{ player: 2, rule: 'S-60' }])
    expect(d.offences).toEqual([])
  })
})

describe('§14.24, §4.2 a tick jump', () => {
  const d = decided(tickJump())
  it('seal(1000) is inadmissible: violation (v), counted in tick 1; it is no seal (BD-14)', () => {
    expect(d.offences.map((o) => [o.player, o.rule, o.counted])).toEqual([[4, '§9 (v)', 1]])
    expect(d.ticks[0]?.seals).toEqual([0, 1, 2, 3])
    expect(kinds(d, 1)?.[4]).toBe('equivocated')
  })
  it('its envelope at seq 15 is beyond 2 + 12·t_e: not evidence, and the 36 after it are gaps for good', () => {
    expect(d.notEvidence).toHaveLength(1)
    expect(d.gaps).toHaveLength(36)
  })
})

describe('§14.15, §12 key-less edits', () => {
  const honest = decided(honest5())
  it('a changed signature, a forged line, a foreign line: the same decision, the forged line unauthenticated', () => {
    const s = keylessEdits()
    const d = decide(s.game.genesis, s.game.reads(s.files[0]))
    expect(d.ticks).toEqual(honest.ticks)
    expect(d.end).toEqual(honest.end)
    expect(d.offences).toEqual([])
    expect(d.unauthenticated).toHaveLength(1)
  })
  it("a prev naming another author's line (forged in p2's name, signed with p1's key) authenticates nothing: p2 is never convicted, in either order (SPEC §5.4, BD-22)", () => {
    const s = prevOfAnother()
    const [naming, forged] = (s.files[0] ?? []).slice(-2)
    if (naming === undefined || forged === undefined) throw new Error('two lines appended')
    const rest = (s.files[0] ?? []).slice(0, -2)
    for (const order of [
      [...rest, naming, forged],
      [...rest, forged, naming],
      [naming, forged, ...rest],
    ]) {
      const d = decide(s.game.genesis, s.game.reads(order))
      expect(d.offences).toEqual([])
      expect(d.ticks).toEqual(honest.ticks)
      expect(d.end).toEqual(honest.end)
      expect(d.unauthenticated).toEqual([forged.id])
      expect(d.gaps).toEqual([naming.id])
    }
  })
  it("deleting three players' state(3): tick 3 provisional with the same closing state, complete provisional (§5.6 rule 3)", () => {
    const d = decided(keylessDeletion())
    expect(d.ticks.map((t) => t.status)).toEqual(['canonical', 'canonical', 'provisional'])
    expect(d.ticks.map((t) => t.stateHash)).toEqual(honest.ticks.map((t) => t.stateHash))
    expect(d.end).toEqual({ kind: 'complete', tick: 3, winners: [], provisional: true })
  })
})

describe('BD-15, §5.4 the exception at either cut', () => {
  const d = decided(exceptionEitherCut())
  it("p5's commitment open at the seal cut needs no deciding once its fork is in at the close cut: settled, p5 equivocated", () => {
    expect(d.ticks[0]?.settled).toBe(true)
    expect(d.ticks[0]?.sealSettled).toBe(true)
    expect(d.ticks[0]?.committed[4]).toBe(false)
    expect(kinds(d, 1)).toEqual(['orders', 'orders', 'orders', 'missing', 'equivocated'])
    expect(d.offences.map((o) => [o.player, o.kind, o.counted])).toEqual([[4, 'fork', 1]])
  })
})

describe('§14.31, §5.7, BD-19 a record, then the tick settles', () => {
  const s = recordThenSettle()
  const d = decided(s)
  it("p1's vote is a record for tick 1 (three standing votes, tick 1 not canonical in its past)", () => {
    expect(d.record).toEqual({ envelope: s.game.player(0).chain.at(-1)?.id, tick: 1 })
  })
  it('tick 1 then settles (provisional) and p2 withdraws its vote with state(1): stalled at 1 all the same, nobody lacking', () => {
    expect(d.ticks[0]?.status).toBe('provisional')
    expect(d.ticks[0]?.votes).toEqual([0, 2])
    expect(d.end).toEqual({ kind: 'stalled', tick: 1, split: false, lacking: [] })
    expect(d.offences).toEqual([])
  })
  it('before p1 votes, two votes are no record: the holding reads ongoing, tick 1 open (§5.7: fewer than M_t)', () => {
    const record = s.game.player(0).chain.at(-1)?.id
    const list = s.files[0] ?? []
    const before = list.slice(
      0,
      list.findIndex((e) => e.id === record),
    )
    const d0 = decide(s.game.genesis, s.game.reads(before))
    expect(d0.record).toBeUndefined()
    expect(d0.end).toEqual({ kind: 'ongoing', lastSettled: 0 })
  })
})

describe('§14.22, §5.4 (review F4) an equivocated player with an open commitment', () => {
  const d = decided(equivocatedOpen())
  it('the fork is in at the seal cut; the other branch’s commitment is open and needs no deciding: settled, equivocated', () => {
    expect(d.ticks[0]?.sealSettled).toBe(true)
    expect(d.ticks[0]?.status).toBe('canonical')
    expect(kinds(d, 1)).toEqual(['orders', 'orders', 'orders', 'orders', 'equivocated'])
    expect(d.offences.map((o) => [o.player, o.kind, o.counted])).toEqual([[4, 'fork', 1]])
  })
})

describe('§14.21 B, §5.7 votes withdrawn', () => {
  const d = decided(voteWithdrawn())
  it('two votes, then the tick settles and the voters sign state(1): no record, no standing vote, nobody removed, complete', () => {
    expect(d.record).toBeUndefined()
    expect(d.ticks.map((t) => t.votes)).toEqual([[], []])
    expect(d.ticks[1]?.active).toEqual([0, 1, 2, 3, 4])
    expect(d.end).toEqual({ kind: 'complete', tick: 2, winners: [] })
  })
})

describe('§14.17, §12 a dishonest majority excludes a commitment', () => {
  const d = decided(dishonestMajority())
  it('p1 missing in both ticks and removed by absence (S-81); no offence of anyone', () => {
    expect(d.ticks.map((t) => t.committed[0])).toEqual([false, false])
    expect(d.ticks.map((t) => t.submissions?.[0]?.kind)).toEqual(['missing', 'missing'])
    expect(d.ticks[1]?.outcome?.state.players[0]?.status).toBe('removed')
    expect(d.offences).toEqual([])
    expect(d.end).toEqual({ kind: 'complete', tick: 2, winners: [] })
  })
})
