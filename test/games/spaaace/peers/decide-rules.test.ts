/**
 * The rule that decides, rule by rule on small games (protocol/SPAAACE-PEERS.md §3.2, §4.1, §4.2,
 * §5.7, §9): authentication through the chain (SPEC §5.4), gaps, not started, votes at tick 0, and
 * each protocol violation (i)–(vi) from the offender's own envelope.
 */
import { describe, expect, it } from 'vitest'
import { concatBytes, toHex, u16, u8 } from '../../../../src/core/commit/bytes.js'
import type { Level } from '../../../../src/games/spaaace/peers/closing.js'
import { Ledger } from '../../../../src/games/spaaace/peers/ledger.js'
import { proves } from '../../../../src/games/spaaace/peers/count.js'
import { Evidence } from '../../../../src/games/spaaace/peers/past.js'
import { closingHash } from '../../../../src/games/spaaace/peers/state-bytes.js'
import { Decider, decide } from '../../../../src/games/spaaace/peers/decide.js'
import { type SealedEnvelope, readEnvelope, withSignature } from '../../../../src/games/spaaace/peers/envelope.js'
import type { Part } from '../../../../src/games/spaaace/peers/parts.js'
import { signRaw } from './fixtures.js'
import { forkPart, scenarios } from './scenarios.js'
import { Game, type Player, playHonest } from './script.js'
import { liveGenesis } from './fixtures.js'

const oneTick = (): Game => playHonest(3, [['-', 'buy 1', '-']], { terms: { ...liveGenesis(3).terms, maxTicks: 1 } })
const last = (p: Player): SealedEnvelope => p.chain[p.chain.length - 1] as SealedEnvelope
const violations = (g: Game, list = g.signed) =>
  decide(g.genesis, g.reads(list)).offences.map((o) => [o.player, o.kind, o.rule, o.counted ?? null])

describe('SPEC §5.4, §4.1 authentication and gaps', () => {
  it("a changed signature on a chain's last envelope: unauthenticated, set aside; the rest still decides", () => {
    const g = oneTick()
    const tip = last(g.player(2))
    const bad = withSignature(tip, new Uint8Array(64).fill(3))
    const d = decide(g.genesis, g.reads(g.signed.map((e) => (e.id === tip.id ? bad : e))))
    expect(d.unauthenticated).toEqual([tip.id])
    expect(d.ticks[0]?.canonical?.signers).toEqual([0, 1])
    expect(d.offences).toEqual([])
  })

  it('the same with `authenticated: true` (a node checked on receipt) is taken as it is', () => {
    const g = oneTick()
    const tip = last(g.player(2))
    const bad = withSignature(tip, new Uint8Array(64).fill(3))
    const d = decide(g.genesis, g.reads(g.signed.map((e) => (e.id === tip.id ? bad : e))), { authenticated: true })
    expect(d.unauthenticated).toEqual([])
    expect(d.ticks[0]?.canonical?.signers).toEqual([0, 1, 2])
  })

  it('an envelope whose past is not all present is a gap, reported and not used, until the missing one arrives', () => {
    const g = oneTick()
    const seal = g.player(1).chain[2] as SealedEnvelope
    const dec = new Decider(g.genesis)
    for (const e of g.signed) if (e.id !== seal.id) dec.add(g.read(e))
    const without = dec.decision()
    expect(without.gaps).toContain(last(g.player(2)).id)
    expect(without.ticks[0]?.status).not.toBe('canonical')
    dec.add(g.read(seal))
    const whole = dec.decision()
    expect(whole.gaps).toEqual([])
    expect(whole.ticks[0]?.status).toBe('canonical')
  })
})

describe('§3.2, §5.7 a game that does not start', () => {
  it('an accept missing and no tick part: not started', () => {
    const g = new Game(3)
    g.accept()
    const d = decide(g.genesis, g.reads(g.signed.slice(0, 2)))
    expect(d.accepts).toEqual([true, true, false])
    expect(d.end).toEqual({ kind: 'not-started' })
  })

  it('an accept missing under tick parts: a gap, not "not started"', () => {
    const g = oneTick()
    const p3accept = g.player(2).chain[0] as SealedEnvelope
    const d = decide(g.genesis, g.reads(g.signed.filter((e) => e.id !== p3accept.id)))
    expect(d.end).toEqual({ kind: 'ongoing', lastSettled: 0 })
    expect(d.gaps.length).toBeGreaterThan(0)
  })

  it('all accepts and a majority of stop(0) votes in one past: a stall record for tick 1, stalled at 1', () => {
    const g = new Game(3)
    g.accept()
    for (const i of [0, 1]) g.deliver(g.player(i).sign([{ type: 'stop', tick: 0, reason: 'not-started' }]))
    const d = decide(g.genesis, g.reads())
    expect(d.end).toEqual({ kind: 'stalled', tick: 1, split: false, lacking: [0, 1, 2] })
    expect(d.record?.envelope).toBe(last(g.player(1)).id)
  })
})

describe('§9 protocol violations, each from the offender’s own envelope', () => {
  it('(i) heads or parts that do not decode: the header stands and names only its prev', () => {
    const g = oneTick()
    const p1 = g.player(0)
    const prev = last(p1)
    const header = concatBytes(u8(1), u8(0), u16(prev.envelope.seq + 1), g.game, prev.hash)
    const bytes = signRaw(p1.keys, concatBytes(header, u8(0), u8(0)))
    const r = readEnvelope(bytes, { players: 3, game: g.game })
    if (!r.ok) throw new Error(r.error.message)
    expect(r.value.body.ok).toBe(false)
    const d = decide(g.genesis, [...g.reads(), r.value])
    expect(d.offences.map((o) => [o.player, o.rule, o.counted])).toEqual([[0, '§9 (i)', undefined]])
  })

  it('(ii) chain order: a part of a tick lower than an earlier one', () => {
    const g = oneTick()
    g.player(0).sign([{ type: 'stop', tick: 0, reason: 'leaving' }])
    expect(violations(g)).toEqual([[0, 'violation', '§9 (ii)', null]])
  })

  it('(ii) chain order: a reveal not after its commitment in an earlier envelope', () => {
    const g = new Game(3)
    g.accept()
    const p1 = g.player(0)
    p1.sign([p1.commitPart(1, '-'), p1.revealPart(1)])
    expect(violations(g)).toEqual([[0, 'violation', '§9 (ii)', null]])
  })

  it('(ii) a seed whose past does not show the game ended', () => {
    const g = new Game(3)
    g.accept()
    g.player(0).sign([{ type: 'seed', seed: g.player(0).seed }])
    expect(violations(g)).toEqual([[0, 'violation', '§9 (ii)', null]])
  })

  it('(iii) a head that lowers against the previous envelope', () => {
    const g = oneTick()
    const p1 = g.player(0)
    // Its past still holds p3's state(1): the game ended canonically there, so the seed may stand.
    const heads = p1
      .currentHeads()
      .map((h) => (h.author === 1 ? { author: 1, seq: 0, hash: (g.player(1).chain[0] as SealedEnvelope).hash } : h))
    p1.sign([{ type: 'seed', seed: p1.seed }], { heads })
    expect(violations(g)).toEqual([[0, 'violation', '§9 (iii)', null]])
  })

  it('(iv) a fork part that names no divergence', () => {
    const g = oneTick()
    const p2 = g.player(1)
    const notFork: Part = forkPart(p2.chain[0] as SealedEnvelope, p2.chain[1] as SealedEnvelope)
    g.player(0).sign([notFork])
    expect(violations(g)).toEqual([[0, 'violation', '§9 (iv)', null]])
  })

  it('(vi) a seed that does not give the salt of its own reveal; the true seed is no offence', () => {
    const g = oneTick()
    g.player(0).sign([{ type: 'seed', seed: new Uint8Array(32).fill(5) }])
    g.player(1).sign([{ type: 'seed', seed: g.player(1).seed }])
    expect(violations(g)).toEqual([[0, 'violation', '§9 (vi)', null]])
    expect(decide(g.genesis, g.reads()).seedMissing).toEqual([2])
  })

  it('§4.1, BD-24: three versions at one place are one fork item holding all three, in the order of their hashes', () => {
    const g = oneTick()
    const p3 = g.player(2)
    const after = p3.chain[p3.chain.length - 2] as SealedEnvelope
    const orig = last(p3)
    const heads = [...orig.envelope.heads]
    const a = p3.sign([{ type: 'stop', tick: 1, reason: 'leaving' }], { after, heads })
    const b = p3.sign([{ type: 'stop', tick: 1, reason: 'stalled' }], { after, heads })
    const d = decide(g.genesis, g.reads())
    expect(d.offences).toEqual([
      {
        player: 2,
        kind: 'fork',
        rule: '§9 fork',
        message: `3 envelopes at seq ${a.envelope.seq} with one prev`,
        envelopes: [orig.id, a.id, b.id].sort(),
      },
    ])
    expect(d.end).toEqual({ kind: 'complete', tick: 1, winners: [] })
  })

  it('§5.2, BD-24: a fork item is held by a cut envelope whose past holds any two of its versions; other items by all of theirs', () => {
    const fork = { kind: 'fork' as const, envelopes: [1, 2, 3] }
    expect(proves(fork, (x) => x === 1 || x === 3)).toBe(true)
    expect(proves(fork, (x) => x === 2)).toBe(false)
    expect(proves({ kind: 'violation', envelopes: [4] }, (x) => x === 4)).toBe(true)
    expect(proves({ kind: 'violation', envelopes: [4] }, () => false)).toBe(false)
  })
})

describe('BD-19, BD-22', () => {
  it('BD-19: a settled tick nobody signed (provisional) with a majority of standing stop(t) votes: a record for t', () => {
    const g = new Game(3)
    g.accept()
    for (const p of g.players) g.deliver(p.sign([p.commitPart(1, '-')]))
    for (const part of ['seal', 'reveal', 'close'] as const)
      for (const p of g.players) g.deliver(p.sign([part === 'reveal' ? p.revealPart(1) : { type: part, tick: 1 }]))
    for (const i of [0, 1]) g.deliver(g.player(i).sign([{ type: 'stop', tick: 1, reason: 'stalled' }]))
    const d = decide(g.genesis, g.reads())
    expect(d.ticks[0]?.status).toBe('provisional')
    expect(d.end).toEqual({ kind: 'stalled', tick: 1, split: false, lacking: [] })
  })

  it('BD-22: a head whose seq is not that of the envelope its hash names breaks the head rules (§9 (iii))', () => {
    const g = oneTick()
    const p1 = g.player(0)
    const heads = p1.currentHeads().map((h) => (h.author === 1 ? { ...h, seq: h.seq + 1 } : h))
    p1.sign([{ type: 'seed', seed: p1.seed }], { heads })
    expect(violations(g)).toEqual([[0, 'violation', '§9 (iii)', null]])
  })

  it("BD-22: a prev naming another author's envelope: not evidence", () => {
    const g = oneTick()
    const p1 = g.player(0)
    const other = g.player(1).chain[1] as SealedEnvelope
    const header = concatBytes(u8(1), u8(0), u16(other.envelope.seq + 1), g.game, other.hash)
    const body = concatBytes(u8(0), u8(1), u8(9), u16(1), u8(3))
    const r = readEnvelope(signRaw(p1.keys, concatBytes(header, body)), { players: 3, game: g.game })
    if (!r.ok || !r.value.body.ok) throw new Error('does not decode')
    const d = decide(g.genesis, [...g.reads(), r.value])
    expect(d.notEvidence).toEqual([r.value.id])
    expect(d.offences).toEqual([])
  })
})

describe('§4.1 own-chain consistency (second look S1, §14 vector 29)', () => {
  it("p2's envelope naming p3's envelope, whose past holds p2's other branch: not evidence", () => {
    const g = new Game(3)
    g.accept()
    const p2 = g.player(1)
    const p3 = g.player(2)
    const accept = p2.chain[0] as SealedEnvelope
    const z = p2.sign([{ type: 'stop', tick: 0, reason: 'late' }])
    const x = p2.sign([{ type: 'stop', tick: 0, reason: 'leaving' }], { after: accept, heads: [...z.envelope.heads] })
    g.deliver(z, [2])
    const u = p3.sign([{ type: 'stop', tick: 0, reason: 'late' }])
    const x2 = p2.sign([{ type: 'stop', tick: 0, reason: 'stalled' }], {
      after: x,
      heads: [...x.envelope.heads.filter((h) => h.author !== 2), { author: 2, seq: u.envelope.seq, hash: u.hash }],
    })
    const d = decide(g.genesis, g.reads())
    expect(d.notEvidence).toEqual([x2.id])
    expect(d.offences.map((o) => [o.player, o.kind])).toEqual([[1, 'fork']])
  })
})

describe('§15 Q4 the replay shortcut', () => {
  it.each(scenarios().map((s) => [s.name, s] as const))(
    "%s: for every envelope, the ticks over its past reusing D's first ticks are the ticks replayed from tick 1",
    (_, s) => {
      const evidence = new Evidence(s.game.genesis.genesis.keys, true, (node) => ledger.judge(node))
      const ledger: Ledger = new Ledger(s.game.genesis, evidence)
      for (const e of s.game.reads(s.files.flat())) evidence.add(e)
      evidence.settle()
      const summary = (levels: readonly Level[]) =>
        levels.map((l) => [l.t, l.status, l.closing === undefined ? null : toHex(closingHash(s.game.game, l.closing))])
      for (const node of evidence.nodes.values()) {
        if (node.standing !== 'evidence') continue
        const scope = { past: node.past }
        const accepts = evidence.allAccepts(node.past)
        expect(summary(ledger.chainOver(scope, accepts))).toEqual(summary(ledger.closings.chain(scope, accepts)))
      }
    },
  )
})
