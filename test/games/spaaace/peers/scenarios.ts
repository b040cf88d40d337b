/**
 * The edges of the rule that decides (protocol/SPAAACE-PEERS.md §14), each written step by step
 * with the script: who signs what, who holds what when it cuts. Each scenario gives the game and
 * the envelopes of its file(s); the tests check the decision, the vector builder writes them out.
 */
import { compareBytes } from '../../../../src/games/spaaace/peers/parts.js'
import type { Part } from '../../../../src/games/spaaace/peers/parts.js'
import { type SealedEnvelope, sealEnvelope, withSignature } from '../../../../src/games/spaaace/peers/envelope.js'
import { decide } from '../../../../src/games/spaaace/peers/decide.js'
import { POOL, liveGenesis } from './fixtures.js'
import { Game, type Orders, type Player, closeStates, honestTick } from './script.js'

export interface Scenario {
  readonly name: string
  /** What the vector shows, with the sections and rules it checks. */
  readonly about: string
  readonly game: Game
  /** The file(s): each a list of envelopes (default one file of everything signed). */
  readonly files: readonly (readonly SealedEnvelope[])[]
}

const terms = (n: number, maxTicks: number) => ({ terms: { ...liveGenesis(n).terms, maxTicks } })

const seal = (t: number): Part => ({ type: 'seal', tick: t })
const close = (t: number): Part => ({ type: 'close', tick: t })

/** §4.2: a `fork` part naming the divergence `a`, `b` (hashes in ascending order). */
export function forkPart(a: SealedEnvelope, b: SealedEnvelope): Part {
  const [x, y] = compareBytes(a.hash, b.hash) < 0 ? [a, b] : [b, a]
  return { type: 'fork', author: a.envelope.author, seq: a.envelope.seq, hashA: x.hash, hashB: y.hash }
}

function all(game: Game): number[] {
  return game.players.map((p) => p.index)
}

/** Each of `who` signs `parts(p)`; the envelopes are delivered to everyone only afterwards. */
function together(game: Game, who: readonly number[], parts: (p: Player) => Part[]): SealedEnvelope[] {
  const out = who.map((i) => game.player(i).sign(parts(game.player(i))))
  for (const e of out) game.deliver(e)
  return out
}

function one(game: Game, e: SealedEnvelope, to?: readonly number[]): SealedEnvelope {
  game.deliver(e, to)
  return e
}

/**
 * §14 vector 1, honest-5: five players, three ticks (a battle initiated and resolved, a missing
 * player, a withheld reveal, a claim too early); every tick canonical, `complete` at maxTicks.
 */
export const HONEST_5: readonly (readonly Orders[])[] = [
  ['buy 2', 'move 1; attack p1', '-', 'repair 1', 'ally p4'],
  ['bid 5', 'bid 3', 'move 4', null, 'break p4'],
  ['-', '-', { withhold: 'buy 1' }, '-', 'claim'],
]

export function honest5(): Scenario {
  const game = new Game(5, terms(5, 3), 'honest-5')
  game.accept()
  HONEST_5.forEach((orders, k) => {
    honestTick(game, k + 1, orders)
  })
  closeStates(game, 3)
  return {
    name: 'honest-5',
    about:
      '§14.1: every commitment in every seal; every tick canonical; closing states equal the engine on the same orders; complete',
    game,
    files: [game.signed],
  }
}

/**
 * §14 vector 2, exactly-half: the last player's commitment is held by the seals of half the players
 * (its own and `k − 1` others'), the other half's seals lack it: `yes = n/2 < M`, `no = n/2 = n − M + 1`:
 * out, and it is `missing` (§5.2, §5.3 rule 5).
 */
export function exactlyHalf(n: 4 | 6, holders: number = n / 2 - 1): Scenario {
  const game = new Game(n, terms(n, 1), `exactly-half-${n}`)
  game.accept()
  const last = n - 1
  const half = n / 2
  const others = all(game).filter((i) => i !== last)
  for (const i of others) one(game, game.player(i).sign([game.player(i).commitPart(1, '-')]))
  // Its commitment reaches the first half − 1 players only before they seal.
  const late = game.player(last).sign([game.player(last).commitPart(1, 'buy 1')])
  game.deliver(late, others.slice(0, holders))
  together(game, all(game), () => [seal(1)])
  together(game, all(game), (p) => [p.revealPart(1)])
  together(game, all(game), () => [close(1)])
  closeStates(game, 1)
  return {
    name: `exactly-half-${n}`,
    about: `§14.2, §5.2: p${n}'s commitment is in the seals of ${half} players (its own included), the other ${half} seals lack it: yes = ${half} < M = ${n / 2 + 1}, no = ${half} = n − M + 1: out; p${n} missing (S-61)`,
    game,
    files: [game.signed],
  }
}

/**
 * §14 vector 3, named-only-after-reveals: p5 commits after p1's reveal; only the seals of p4 and p5
 * hold it: `yes = 2`, `no = 3`: out; its later reveal changes nothing; p5 `missing`, no offence.
 */
export function namedAfterReveals(): Scenario {
  const game = new Game(5, terms(5, 1), 'named-after-reveals')
  game.accept()
  for (const i of [0, 1, 2, 3]) one(game, game.player(i).sign([game.player(i).commitPart(1, '-')]))
  together(game, [0, 1, 2], () => [seal(1)])
  const p1 = game.player(0)
  one(game, p1.sign([p1.revealPart(1)]))
  const p5 = game.player(4)
  one(game, p5.sign([p5.commitPart(1, 'move 4')]), [3])
  together(game, [3, 4], () => [seal(1)])
  together(game, [1, 2, 3, 4], (p) => [p.revealPart(1)])
  together(game, all(game), () => [close(1)])
  closeStates(game, 1)
  return {
    name: 'named-after-reveals',
    about:
      "§14.3, §7.2: p5's commitment, signed after p1's reveal, is held by the seals of p4 and p5 only: yes = 2, no = 3: out; p5's reveal is ignored; p5 missing; no offence",
    game,
    files: [game.signed],
  }
}

/** §14 vector 4, reveal-of-excluded: p3's commitment is out; its reveal is ignored, no offence, p3 `missing`. */
export function revealOfExcluded(): Scenario {
  const game = new Game(5, terms(5, 1), 'reveal-of-excluded')
  game.accept()
  for (const i of [0, 1, 3, 4]) one(game, game.player(i).sign([game.player(i).commitPart(1, '-')]))
  const p3 = game.player(2)
  one(game, p3.sign([p3.commitPart(1, 'buy 3')]), [3])
  together(game, all(game), () => [seal(1)])
  together(game, all(game), (p) => [p.revealPart(1)])
  together(game, all(game), () => [close(1)])
  closeStates(game, 1)
  return {
    name: 'reveal-of-excluded',
    about:
      "§14.4, §5.3: p3's commitment is held by the seals of p3 and p4 only: out; p3 reveals it: ignored, no offence; p3 missing (S-61, absence +1)",
    game,
    files: [game.signed],
  }
}

/**
 * §14 vector 5, removed-mid-tick: p2 reveals a valid set (a move and an attack); then it signs two
 * envelopes at one place after its reveal (its close and a `stop`), and the fork is in at the close
 * cut (p1, p3, p4 name it): p2 `equivocated`, its orders do not count, it is removed at step 9 and
 * p1's battle initiated against it is void (S-41); its seal and close still count for tick 1. In
 * tick 2 p2 is outside `A_2` (`n_2 = 4`, `M = 3`): its commitment of tick 2, which p5's seal names
 * (p5 held it before the fork), is ignored, and is no offence although it is inadmissible.
 */
export function removedMidTick(): Scenario {
  const game = new Game(5, terms(5, 2), 'removed-mid-tick')
  game.accept()
  const orders: Orders[] = ['move 2; attack p2', 'move 3; attack p3', '-', '-', '-']
  for (const p of game.players) one(game, p.sign([p.commitPart(1, orders[p.index] as string)]))
  together(game, all(game), () => [seal(1)])
  together(game, all(game), (p) => [p.revealPart(1)])
  const p2 = game.player(1)
  const reveal = p2.chain[p2.chain.length - 1] as SealedEnvelope
  const x = one(game, p2.sign([close(1)]))
  const y = p2.sign([{ type: 'stop', tick: 1, reason: 'leaving' }], { after: reveal })
  // p2 goes on from x: a commitment of tick 2 (no state(1): inadmissible), which p5 gets after its close.
  const c2 = p2.sign([p2.commitPart(2, 'bid 20')])
  const p5 = game.player(4)
  one(game, p5.sign([close(1)]))
  game.deliver(c2, [4])
  game.deliver(y, [0, 2, 3])
  const honest = [0, 2, 3].map((i) => game.player(i).sign([close(1), forkPart(x, y)]))
  for (const e of honest) game.deliver(e)
  // Tick 2: p5 learns of y with the honest closes and names the fork (its head for p2 frozen at c2).
  for (const i of [0, 2, 3, 4]) {
    const p = game.player(i)
    const parts: Part[] = [p.statePart(1), p.commitPart(2, '-')]
    if (i === 4) parts.push(forkPart(x, y))
    one(game, p.sign(parts))
  }
  together(game, [0, 2, 3, 4], () => [seal(2)])
  together(game, [0, 2, 3, 4], (p) => [p.revealPart(2)])
  together(game, [0, 2, 3, 4], () => [close(2)])
  closeStates(game, 2, [0, 2, 3, 4])
  return {
    name: 'removed-mid-tick',
    about:
      "§14.5, §9, S-41, S-80: p2's fork after its reveal is in at tick 1's close cut: equivocated, removed, p1's battle against it void; its seal and close still count; in tick 2 p2 is outside A_2 and its commitment, named by p5's seal, is ignored (no offence)",
    game,
    files: [game.signed],
  }
}

/** A stop vote (§4.2). */
const stop = (t: number, reason: 'stalled' | 'split' | 'late' | 'leaving' | 'not-started' = 'stalled'): Part => ({
  type: 'stop',
  tick: t,
  reason,
})

/**
 * §14 vector 6, withheld-from-some: p5 sends its commitment to p1 only; p1 forwards it before the
 * seals and it is in. Then, in tick 2, it is sent late to p1 only, p4 withholds its seal and p5
 * its seal too: p5's commitment is open at the seal cut (yes = 2, no = 2), the tick cannot settle,
 * the three honest players vote `stop(2)` and their votes meet in p3's vote: a stall record;
 * `stalled` at 2, no winner, p4 and p5 lacking the seal cut (BD-18).
 */
export function withheldFromSome(): Scenario {
  const game = new Game(5, terms(5, 3), 'withheld-from-some')
  game.accept()
  for (const i of [0, 1, 2, 3]) one(game, game.player(i).sign([game.player(i).commitPart(1, '-')]))
  const p5 = game.player(4)
  const c5 = one(game, p5.sign([p5.commitPart(1, 'buy 1')]), [0])
  game.deliver(c5, [1, 2, 3]) // p1 forwards it (§8)
  together(game, all(game), () => [seal(1)])
  together(game, all(game), (p) => [p.revealPart(1)])
  together(game, all(game), () => [close(1)])
  for (const i of [0, 1, 2, 3]) {
    const p = game.player(i)
    one(game, p.sign([p.statePart(1), p.commitPart(2, '-')]))
  }
  one(game, p5.sign([p5.statePart(1)]))
  const late = p5.sign([p5.commitPart(2, 'buy 1')])
  game.deliver(late, [0])
  together(game, [0, 1, 2], () => [seal(2)])
  for (const i of [0, 1, 2]) one(game, game.player(i).sign([stop(2)]))
  return {
    name: 'withheld-from-some',
    about:
      "§14.6, §5.7: tick 1, p5's commitment sent to p1 alone and forwarded: in. Tick 2, sent late to p1 alone, p4 and p5 withholding their seals: open; the honest votes meet in p3's vote: stalled at 2, p4 and p5 lacking seals (BD-18), no winner",
    game,
    files: [game.signed],
  }
}

/**
 * §14 vector 7, reveal-withheld: p3's commitment is in, its reveal never comes: `withheld` (S-62:
 * fine, energy 0, fame toward 0, absence +1), and it bids 0 in the battle awaiting it (S-41).
 */
export function revealWithheld(): Scenario {
  const game = new Game(5, terms(5, 2), 'reveal-withheld')
  game.accept()
  honestTick(game, 1, ['-', 'move 3; attack p3', '-', '-', '-'])
  honestTick(game, 2, ['-', 'bid 4', { withhold: 'bid 20' }, '-', '-'])
  closeStates(game, 2)
  return {
    name: 'reveal-withheld',
    about: "§14.7, §5.3 rule 4, S-62, S-41: p3's commitment in, no reveal: withheld, and it bids 0 in p2's battle",
    game,
    files: [game.signed],
  }
}

/**
 * §14 vector 9, equivocation-to-some: p4 signs two commitments at one place, one to p1 and p2, one
 * to p3; forwarded, both reach every honest node before its seal, and each honest seal names the
 * divergence in a `fork` part: in at the seal cut, counted in tick 1, p4 `equivocated` and removed.
 */
export function equivocationToSome(): Scenario {
  const game = new Game(5, terms(5, 1), 'equivocation-to-some')
  game.accept()
  for (const i of [0, 1, 2, 4]) one(game, game.player(i).sign([game.player(i).commitPart(1, '-')]))
  const p4 = game.player(3)
  const accept = p4.chain[0] as SealedEnvelope
  const a = p4.sign([p4.commitPart(1, 'buy 1')])
  const b = p4.sign([p4.commitPart(1, 'buy 2')], { after: accept })
  game.deliver(a, [0, 1])
  game.deliver(b, [2])
  game.deliver(b, [0, 1, 4]) // forwarded (§8): every honest node holds both before it seals
  game.deliver(a, [2])
  together(game, all(game), (p) => (p.index === 3 ? [seal(1)] : [seal(1), forkPart(a, b)]))
  together(game, all(game), (p) => [p.revealPart(1)])
  together(game, all(game), () => [close(1)])
  closeStates(game, 1)
  return {
    name: 'equivocation-to-some',
    about:
      "§14.9, §9: p4's two commitments at one place, shown to different players, forwarded and named by every honest seal's fork part: counted in tick 1, p4 equivocated and removed",
    game,
    files: [game.signed],
  }
}

/**
 * §14 vector 9's last variant: a fork that surfaces only after the game ended. p3 wins at maxTicks
 * (it beat the infamous p2); a second envelope at the place of its last one, in a second file,
 * convicts it: never counted, no closing state changes, and it cannot win (S-80).
 */
export function forkAfterEnd(): Scenario {
  const game = new Game(5, terms(5, 4), 'fork-after-end')
  game.accept()
  honestTick(game, 1, ['-', 'move 1; attack p1', '-', '-', '-'])
  honestTick(game, 2, ['bid 0', 'bid 5', '-', '-', '-'])
  honestTick(game, 3, ['-', '-', 'move 2 1; attack p2', '-', '-'])
  honestTick(game, 4, ['-', 'bid 0', 'bid 5', '-', '-'])
  closeStates(game, 4)
  const first = [...game.signed]
  const p3 = game.player(2)
  const last = p3.chain[p3.chain.length - 1] as SealedEnvelope
  const before = p3.chain[p3.chain.length - 2] as SealedEnvelope
  const other = p3.sign([stop(4, 'leaving')], { after: before, heads: [...last.envelope.heads] })
  return {
    name: 'fork-after-end',
    about:
      "§14.9 variant, S-80: file a alone: complete, p3 wins; with file b (p3's second envelope at its last place) the fork is never counted, every closing state stands, p3 is convicted and cannot win",
    game,
    files: [first, [other]],
  }
}

/** The closing hash of tick `t` over the pasts of `tips` (what a signer naming them computes, §5.6). */
function stateOver(game: Game, tips: readonly SealedEnvelope[], t: number): Part {
  const d = new Map<string, SealedEnvelope>()
  for (const e of tips) for (const x of game.past(e)) d.set(x.id, x)
  const own = decideOver(game, [...d.values()]).ticks[t - 1]?.own
  if (own === undefined) throw new Error(`tick ${t} is not settled over those pasts`)
  return { type: 'state', tick: t, stateHash: own.stateHash }
}

function decideOver(game: Game, list: readonly SealedEnvelope[]) {
  return decide(game.genesis, game.reads(list), { authenticated: true })
}

const headsOf = (...named: SealedEnvelope[]) =>
  named
    .map((e) => ({ author: e.envelope.author, seq: e.envelope.seq, hash: e.hash }))
    .sort((x, y) => x.author - y.author)

/**
 * §14 vector 10, two-cuts-split: p4 signs two seals at one place, one holding p5's raced commitment
 * (held only by p1's seal), one not: each is decisive for it. p1 and p2 see the first, p3 the
 * second, and p5 closes on both sides; the honest closing hashes of tick 1 differ. (a) p5 signs the
 * first side's hash: 3 correct signers, canonical (rule 1); p4 and p5 convicted, never counted.
 * (b) p5 signs none: neither hash reaches 3, tick 1 is split; the honest votes `stop(2, split)` make
 * a stall record for tick 1: stalled at 1, split, no winner.
 */
export function twoCutsSplit(variant: 'a' | 'b'): Scenario {
  const game = new Game(5, terms(5, variant === 'a' ? 1 : 2), `two-cuts-split-${variant}`)
  game.accept()
  const [p1, p2, p3, p4, p5] = game.players as [Player, Player, Player, Player, Player]
  const commits = [p1, p2, p3, p4].map((p) => one(game, p.sign([p.commitPart(1, '-')])))
  const c4 = commits[3] as SealedEnvelope
  const c5 = p5.sign([p5.commitPart(1, 'buy 1')])
  game.deliver(c5, [0, 3])
  const [s1, s2, s3, s5] = [p1, p2, p3, p5].map((p) => p.sign([seal(1)])) as [
    SealedEnvelope,
    SealedEnvelope,
    SealedEnvelope,
    SealedEnvelope,
  ]
  const s4a = p4.sign([seal(1)])
  const accepts = game.players.map((p) => p.chain[0] as SealedEnvelope)
  const s4b = p4.sign([seal(1)], { after: c4, heads: headsOf(commits[0]!, commits[1]!, commits[2]!, accepts[4]!) })
  // Side A: p1, p2 (and p5); side B: p3.
  for (const e of [s1, s2, s3, s5, s4a]) game.deliver(e, [0, 1])
  for (const e of [s1, s2, s5, s4b]) game.deliver(e, [2])
  const r1 = one(game, p1.sign([p1.revealPart(1)]), [1])
  const r2 = one(game, p2.sign([p2.revealPart(1)]), [0])
  const r3 = p3.sign([p3.revealPart(1)])
  const r4 = p4.sign([p4.revealPart(1)], { after: s4b, heads: headsOf(s1, s2, s3, s5) })
  game.deliver(r4, [2])
  // p5 reveals naming neither seal of p4, and closes once on each side.
  const r5 = p5.sign([p5.revealPart(1)], { heads: headsOf(s1, s2, s3, c4) })
  game.deliver(r5, [0, 1, 2])
  const close5a = p5.sign([close(1)], { after: r5, heads: headsOf(r1, r2, s3, s4a) })
  const close5b = p5.sign([close(1)], { after: r5, heads: headsOf(s1, s2, r3, r4) })
  game.deliver(close5a, [0, 1])
  const close4 = p4.sign([close(1)], { after: r4, heads: headsOf(s1, s2, r3, close5b) })
  game.deliver(close4, [2])
  game.deliver(close5b, [2])
  const c1 = one(game, p1.sign([close(1)]), [1])
  const cl2 = one(game, p2.sign([close(1)]), [0])
  const cl3 = p3.sign([close(1)])
  game.deliver(cl3, [3])
  // The closing hashes: A over p1, p2, p5's first close; B over p3, p4, p5's second close.
  const st1 = p1.sign([p1.statePart(1)])
  const st2 = p2.sign([p2.statePart(1)])
  const st3 = p3.sign([p3.statePart(1)])
  const st4 = p4.sign([stateOver(game, [close4, cl3], 1)], { after: close4, heads: headsOf(s1, s2, cl3, close5b) })
  const signed = [st1, st2, st3, st4]
  if (variant === 'a')
    signed.push(p5.sign([stateOver(game, [close5a, c1, cl2], 1)], { after: close5a, heads: headsOf(c1, cl2, s3, s4a) }))
  // Everything now reaches everyone; the honest players vote that tick 2 cannot be played (split).
  for (const e of signed) game.deliver(e)
  if (variant === 'b') for (const p of [p1, p2, p3]) one(game, p.sign([stop(2, 'split')]))
  return {
    name: `two-cuts-split-${variant}`,
    about:
      variant === 'a'
        ? "§14.10 (a), §5.6 rule 1, §7.1: p4's two seals make the honest closing hashes of tick 1 differ; the first side's hash has 3 correct signers (p1, p2, p5): canonical; p4's and p5's forks never counted, both convicted"
        : '§14.10 (b), §5.6 rule 2, §5.7: neither hash reaches 3 signers: tick 1 split, tick 2 cannot settle; the honest votes stop(2, split) make a stall record for tick 1: stalled at 1, split, no winner',
    game,
    files: [game.signed],
  }
}

/**
 * §14 vector 11, false-closing-hash: p2's `state(1)` is not the closing state its own past gives:
 * an offence item, in at tick 2's seal cut (every honest seal holds it): p2 `equivocated` in tick 2
 * (S-80). Variant: p5's `state(1)`, computed before a fork of p4 it could not see, is correct for
 * its past: no offence.
 */
export function falseClosingHash(): Scenario {
  const game = new Game(5, terms(5, 2), 'false-closing-hash')
  game.accept()
  honestTick(game, 1, ['-', '-', '-', '-', '-'])
  const p2 = game.player(1)
  for (const i of [0, 2, 3, 4]) {
    const p = game.player(i)
    one(game, p.sign([p.statePart(1), p.commitPart(2, '-')]))
  }
  one(game, p2.sign([{ type: 'state', tick: 1, stateHash: new Uint8Array(32).fill(7) }]))
  honestTickRest(game, 2, [0, 2, 3, 4])
  closeStates(game, 2, [0, 2, 3, 4])
  return {
    name: 'false-closing-hash',
    about:
      "§14.11, §5.6, §9: p2's state(1) differs from S_1 over its own past: a false closing hash, counted at tick 2's seal cut: p2 equivocated, removed",
    game,
    files: [game.signed],
  }
}

/** The seal, reveal and close of tick `t` for `who` (their commitments already signed). */
function honestTickRest(game: Game, t: number, who: readonly number[]): void {
  together(game, who, () => [seal(t)])
  together(game, who, (p) => (p.committed.has(t) ? [p.revealPart(t)] : []).concat([]))
  together(game, who, () => [close(t)])
}

/**
 * §14 vector 12, malformed-orders and bid-out-of-range: `bid 21`, `attack p2` by p2, `buy 0`,
 * `bid -10`: malformed (S-37), each removed; p5 alone remains and wins (S-82).
 */
export function malformed(): Scenario {
  const game = new Game(5, terms(5, 3), 'malformed')
  game.accept()
  honestTick(game, 1, ['bid 21', 'attack p2', 'buy 0', 'bid -10', 'move 4; move 5'])
  closeStates(game, 1)
  return {
    name: 'malformed',
    about:
      '§14.12, S-37, S-82: bid 21, attack p2 by p2, buy 0, bid -10, two moves: all malformed, removed; nobody remains active, the game ends with no winner',
    game,
    files: [game.signed],
  }
}

/** §14 vector 13, mismatch: p3's reveal does not open its commitment: `mismatch` (S-60, S-62), removed. */
export function mismatch(): Scenario {
  const game = new Game(5, terms(5, 1), 'mismatch')
  game.accept()
  for (const p of game.players) one(game, p.sign([p.commitPart(1, p.index === 2 ? 'buy 1' : '-')]))
  together(game, all(game), () => [seal(1)])
  together(game, all(game), (p) => [p.index === 2 ? p.revealPart(1, 'buy 5') : p.revealPart(1)])
  together(game, all(game), () => [close(1)])
  closeStates(game, 1)
  return {
    name: 'mismatch',
    about: "§14.13, §5.3 rule 3, S-60, S-62: p3's reveal does not open its commitment: mismatch, fined, removed",
    game,
    files: [game.signed],
  }
}

/**
 * §14 vector 24, tick-jump: p5 signs `seal(1000)` in tick 1 (inadmissible, `t_e = 1`: violation (v),
 * held by the honest seals and counted in tick 1), then 50 more envelopes that nobody holds: those at
 * `seq > 2 + 12·1 = 14` are not evidence (§4.2).
 */
export function tickJump(): Scenario {
  const game = new Game(5, terms(5, 1), 'tick-jump')
  game.accept()
  for (const i of [0, 1, 2, 3]) one(game, game.player(i).sign([game.player(i).commitPart(1, '-')]))
  const p5 = game.player(4)
  one(game, p5.sign([p5.commitPart(1, '-'), seal(1000)]))
  for (let k = 0; k < 50; k++) p5.sign([stop(1000, 'leaving')])
  together(game, [0, 1, 2, 3], () => [seal(1)])
  together(game, [0, 1, 2, 3], (p) => [p.revealPart(1)])
  together(game, [0, 1, 2, 3], () => [close(1)])
  closeStates(game, 1, [0, 1, 2, 3])
  return {
    name: 'tick-jump',
    about:
      "§14.24, §4.2, §9 (v): seal(1000) in tick 1 is inadmissible, counted in tick 1 (p5 equivocated); p5's envelopes at seq > 14 are not evidence",
    game,
    files: [game.signed],
  }
}

/**
 * §14 vector 15, key-less edits of honest-5's file: p1's envelope at seq 2 with a changed signature
 * (its chain still authenticates through p1's later envelope, SPEC §5.4), a forged envelope in p2's
 * name signed by another key (unauthenticated, set aside) and another game's envelope (not read:
 * its header names another game, BD-6). Never an offence, never a different decision.
 */
export function keylessEdits(): Scenario {
  const base = honest5()
  const game = base.game
  const p1 = game.player(0)
  const altered = withSignature(p1.chain[2] as SealedEnvelope, new Uint8Array(64).fill(1))
  const forged = sealEnvelope(POOL[10] as (typeof POOL)[number], {
    author: 1,
    seq: 99,
    game: game.game,
    prev: new Uint8Array(32).fill(9),
    heads: [],
    parts: [stop(3)],
  })
  const other = new Game(5, terms(5, 2), 'foreign')
  other.accept()
  const file = game.signed.map((e) => (e.id === altered.id ? altered : e))
  return {
    name: 'keyless-edits',
    about:
      "§14.15, §12, SPEC §5.4: honest-5's file with a changed signature, a forged line and another game's line: the same decision as honest-5, the forged line unauthenticated, never an offence",
    game,
    files: [[...file, forged, other.signed[0] as SealedEnvelope]],
  }
}

/**
 * §4.1, SPEC §5.4, BD-22: a `prev` authenticates only its own author's previous envelope. p1 signs
 * an envelope whose `prev` names a forged envelope in p2's name at p2's seq 1 (signed with p1's
 * key, where p2's real seq 1 is in the file). Read in this order, the forged line was once taken
 * as p2's because p1's valid signature "vouched" for it, and p2, who signed nothing of it, was
 * convicted of a fork. The forged line is unauthenticated, p1's envelope names it so it is a gap,
 * and nobody is convicted: the decision is honest-5's.
 */
export function prevOfAnother(): Scenario {
  const base = honest5()
  const game = base.game
  const p1 = game.player(0)
  const p2 = game.player(1)
  const real = p2.chain[1] as SealedEnvelope
  const forged = sealEnvelope(p1.keys, {
    ...real.envelope,
    parts: [stop(1, 'stalled')],
  })
  const last = p1.chain.at(-1) as SealedEnvelope
  const naming = sealEnvelope(p1.keys, {
    author: 0,
    seq: last.envelope.seq + 1,
    game: game.game,
    prev: forged.hash,
    heads: [],
    parts: [stop(3)],
  })
  return {
    name: 'prev-of-another',
    about:
      "§4.1, SPEC §5.4, BD-22: p1 signs an envelope whose prev names a line forged in p2's name (signed with p1's key) at p2's seq 1, read before it: a prev authenticates only its own author's envelope, so the forged line is unauthenticated and p2 is never convicted; p1's envelope is a gap; the decision is honest-5's",
    game,
    files: [[...game.signed, naming, forged]],
  }
}

/**
 * §14 vector 15, a deletion: honest-5's file without the `state(3)` envelopes of p3, p4 and p5: tick
 * 3 is settled but signed by two, so provisional (§5.6 rule 3), and the end `complete` provisional;
 * ticks 1 and 2 stay canonical, every closing state the same.
 */
export function keylessDeletion(): Scenario {
  const base = honest5()
  const game = base.game
  const drop = new Set([2, 3, 4].map((i) => game.player(i).chain.at(-1)?.id))
  return {
    name: 'keyless-deletion',
    about:
      "§14.15, §5.6 rule 3, §7.4: honest-5 without three players' state(3): tick 3 provisional, complete provisional; the same closing states",
    game,
    files: [game.signed.filter((e) => !drop.has(e.id))],
  }
}

/**
 * BD-15, §5.4's exception at either cut: p5's commitment is open at the seal cut (held by p1's
 * seal only, p4 absent: yes = 2, no = 2), then p5 signs two envelopes at one place after its seal,
 * and the fork is in at the close cut (the three honest closes name it): p5 is `equivocated`
 * whatever its commitment, so the tick settles without deciding it.
 */
export function exceptionEitherCut(): Scenario {
  const game = new Game(5, terms(5, 1), 'exception-either-cut')
  game.accept()
  for (const i of [0, 1, 2]) one(game, game.player(i).sign([game.player(i).commitPart(1, '-')]))
  const p5 = game.player(4)
  one(game, p5.sign([p5.commitPart(1, 'buy 1')]), [0])
  together(game, [0, 1, 2, 4], () => [seal(1)])
  const s5 = p5.chain.at(-1) as SealedEnvelope
  const x = one(game, p5.sign([p5.revealPart(1)]))
  const y = one(game, p5.sign([stop(1, 'leaving')], { after: s5, heads: [...x.envelope.heads] }))
  together(game, [0, 1, 2], (p) => [p.revealPart(1)])
  together(game, [0, 1, 2], () => [close(1), forkPart(x, y)])
  closeStates(game, 1, [0, 1, 2])
  return {
    name: 'exception-either-cut',
    about:
      "BD-15, §5.4: p5's commitment is open at the seal cut, its fork in at the close cut: p5 equivocated, the tick settles without deciding its commitment; p4 (absent) missing",
    game,
    files: [game.signed],
  }
}

/**
 * §14 vector 31, record-then-settle: tick 1 is held open at the close cut (p5's reveal raced to p1
 * alone, p4 and p5 withholding their closes); p2, p3 then p1 vote `stop(1)`, and p1's vote is a
 * stall record. Then p4 and p5 release their closes, tick 1 settles and p2 signs `state(1)`
 * (withdrawing its own vote): stalled at 1 all the same (a record is never undone, second look S3).
 */
export function recordThenSettle(): Scenario {
  const game = new Game(5, terms(5, 2), 'record-then-settle')
  game.accept()
  for (const p of game.players) one(game, p.sign([p.commitPart(1, '-')]))
  together(game, all(game), () => [seal(1)])
  together(game, [0, 1, 2, 3], (p) => [p.revealPart(1)])
  const p5 = game.player(4)
  one(game, p5.sign([p5.revealPart(1)]), [0, 3])
  together(game, [0, 1, 2], () => [close(1)])
  for (const i of [1, 2, 0]) one(game, game.player(i).sign([stop(1)]))
  together(game, [3, 4], () => [close(1)])
  const p2 = game.player(1)
  one(game, p2.sign([p2.statePart(1)]))
  return {
    name: 'record-then-settle',
    about:
      "§14.31, §5.7 (second look S3): tick 1 held open at the close cut; the honest votes meet in p1's vote, a stall record; p4 and p5 then release their closes, tick 1 settles and p2 signs state(1): stalled at 1 all the same",
    game,
    files: [game.signed],
  }
}

/**
 * §14 vector 22, equivocated-open (review F4): p5 forks at seq 1 and commits on each branch, branch
 * A first to p1 and p3, branch B to p2; p4 withholds its seal. Every honest seal names the fork:
 * in; p5's commitment on branch B is open (yes = 2, no = 2) and needs no deciding (§5.4's
 * exception): the seal cut settles, p5 `equivocated`.
 */
export function equivocatedOpen(): Scenario {
  const game = new Game(5, terms(5, 1), 'equivocated-open')
  game.accept()
  for (const i of [0, 1, 2, 3]) one(game, game.player(i).sign([game.player(i).commitPart(1, '-')]))
  const p5 = game.player(4)
  const accept = p5.chain[0] as SealedEnvelope
  const a1 = p5.sign([stop(0, 'leaving')])
  const b1 = p5.sign([stop(0, 'late')], { after: accept })
  const ca = p5.sign([p5.commitPart(1, '-')], { after: a1 })
  const cb = p5.sign([p5.commitPart(1, 'buy 1')], { after: b1, heads: [...ca.envelope.heads] })
  game.deliver(ca, [0, 2])
  game.deliver(cb, [1])
  game.deliver(b1, [0, 2])
  game.deliver(a1, [1])
  together(game, [0, 1, 2], () => [seal(1), forkPart(a1, b1)])
  together(game, [0, 1, 2, 3], (p) => [p.revealPart(1)])
  together(game, [0, 1, 2, 3], () => [close(1)])
  closeStates(game, 1, [0, 1, 2, 3])
  return {
    name: 'equivocated-open',
    about:
      "§14.22 (review F4), §5.4: p5's fork is in at the seal cut; its commitment on the other branch is open and needs no deciding: settled, p5 equivocated",
    game,
    files: [game.signed],
  }
}

/**
 * §14 vector 21 B, a vote withdrawn (review F3): tick 1 held open at the close cut (p5's reveal raced
 * to p1, p4 withholding its close); p2 and p3 vote `stop(1)`; then p4 releases its close, tick 1
 * settles, p2 and p3 sign `state(1)` (withdrawing their votes) and tick 2 is played: nobody removed,
 * no record, `complete`.
 */
export function voteWithdrawn(): Scenario {
  const game = new Game(5, terms(5, 2), 'vote-withdrawn')
  game.accept()
  for (const p of game.players) one(game, p.sign([p.commitPart(1, '-')]))
  together(game, all(game), () => [seal(1)])
  together(game, [0, 1, 2, 3], (p) => [p.revealPart(1)])
  const p5 = game.player(4)
  one(game, p5.sign([p5.revealPart(1)]), [0, 3])
  together(game, [0, 1, 2], () => [close(1)])
  for (const i of [1, 2]) one(game, game.player(i).sign([stop(1)]))
  together(game, [3, 4], () => [close(1)])
  honestTick(game, 2, ['-', '-', '-', '-', '-'])
  closeStates(game, 2)
  return {
    name: 'vote-withdrawn',
    about:
      '§14.21 B, §5.7: two honest votes, then tick 1 settles; the voters sign state(1), withdrawing them, and play tick 2: no record, nobody removed, complete',
    game,
    files: [game.signed],
  }
}

/**
 * §14 vector 17, dishonest-majority-3-of-5 (§12, not a defect): p3, p4 and p5 seal without p1's
 * commitment in each of `absentTicks` = 2 ticks (p1 sends it to p2 alone before the seals, its
 * forwarding delayed past them): yes = 2, no = 3, out; p1 `missing` twice and removed (S-81), no
 * offence of anyone.
 */
export function dishonestMajority(): Scenario {
  const game = new Game(5, { terms: { ...liveGenesis(5).terms, maxTicks: 2, absentTicks: 2 } }, 'dishonest-majority')
  game.accept()
  const p1 = game.player(0)
  for (const t of [1, 2]) {
    for (const i of [1, 2, 3, 4]) {
      const p = game.player(i)
      one(game, p.sign([...(t > 1 ? [p.statePart(t - 1)] : []), p.commitPart(t, '-')]))
    }
    const c1 = p1.sign([...(t > 1 ? [p1.statePart(t - 1)] : []), p1.commitPart(t, 'buy 1')])
    game.deliver(c1, [1])
    together(game, all(game), () => [seal(t)])
    together(game, all(game), (p) => [p.revealPart(t)])
    together(game, all(game), () => [close(t)])
  }
  closeStates(game, 2, [1, 2, 3, 4])
  return {
    name: 'dishonest-majority',
    about:
      "§14.17, §12, S-81: a majority of three seals without p1's commitment in two ticks: out each time, p1 missing twice and removed by absence; no offence",
    game,
    files: [game.signed],
  }
}

export function scenarios(): Scenario[] {
  return [
    honest5(),
    exactlyHalf(4),
    exactlyHalf(6),
    namedAfterReveals(),
    revealOfExcluded(),
    removedMidTick(),
    withheldFromSome(),
    revealWithheld(),
    equivocationToSome(),
    forkAfterEnd(),
    twoCutsSplit('a'),
    twoCutsSplit('b'),
    falseClosingHash(),
    malformed(),
    mismatch(),
    tickJump(),
    keylessEdits(),
    prevOfAnother(),
    keylessDeletion(),
    exceptionEitherCut(),
    recordThenSettle(),
    equivocatedOpen(),
    voteWithdrawn(),
    dishonestMajority(),
  ]
}
