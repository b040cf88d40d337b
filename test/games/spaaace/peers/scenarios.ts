/**
 * The edges of the rule that decides (protocol/SPAAACE-PEERS.md §14), each written step by step
 * with the script: who signs what, who holds what when it cuts. Each scenario gives the game and
 * the envelopes of its file(s); the tests check the decision, the vector builder writes them out.
 */
import { compareBytes } from '../../../../src/games/spaaace/peers/parts.js'
import type { Part } from '../../../../src/games/spaaace/peers/parts.js'
import type { SealedEnvelope } from '../../../../src/games/spaaace/peers/envelope.js'
import { liveGenesis } from './fixtures.js'
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
  // p2 goes on from x before anyone shows it y: a commitment of tick 2 (no state(1): inadmissible).
  const c2 = p2.sign([p2.commitPart(2, 'bid 20')])
  game.deliver(c2, [4])
  const p5 = game.player(4)
  one(game, p5.sign([close(1)]))
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

export function scenarios(): Scenario[] {
  return [honest5(), exactlyHalf(4), exactlyHalf(6), namedAfterReveals(), revealOfExcluded(), removedMidTick()]
}
