/**
 * The referee's JSON closing state (rules/spaaace.md appendix): one compact object per tick, keys
 * in the appendix's order. Written by hand, not by `JSON.stringify` of an object keyed by label:
 * a label may be `12` (which JavaScript objects list before every other key, breaking roster
 * order) or `__proto__` (which an object literal does not keep as a key).
 */
import { alliedPairs } from '../rules/state.js'
import type { TickOutcome } from '../rules/tick.js'
import type { Battle, PlayerIndex } from '../rules/types.js'

const str = (v: string | number | boolean | null): string => JSON.stringify(v)

function object(entries: readonly (readonly [string, string])[]): string {
  return `{${entries.map(([k, v]) => `${str(k)}:${v}`).join(',')}}`
}

function list(items: readonly string[]): string {
  return `[${items.join(',')}]`
}

function pair(p: readonly [number, number] | null): string {
  return p === null ? 'null' : list([str(p[0]), str(p[1])])
}

function battleJson(b: Battle, name: (i: PlayerIndex) => string): string {
  return object([
    ['a', str(name(b.a))],
    ['b', str(name(b.b))],
    ['initiated', str(b.initiated)],
    ['bids', pair(b.bids)],
    ['spent', pair(b.spent)],
    ['winner', b.winner === null ? 'null' : str(name(b.winner))],
  ])
}

/** The closing state of a tick as the appendix prints it. */
export function closingStateJson(outcome: TickOutcome, roster: readonly string[]): string {
  const s = outcome.state
  const name = (i: PlayerIndex): string => roster[i] ?? ''
  const labels = (pairs: readonly (readonly [number, number])[]): string =>
    list(pairs.map(([p, q]) => list([str(name(p)), str(name(q))])))
  return object([
    ['tick', str(s.tick)],
    [
      'ships',
      object(
        s.ships.map(
          (sh, i) =>
            [
              name(i),
              object([
                ['sector', str(sh.sector)],
                ['armour', str(sh.armour)],
                ['energy', str(sh.energy)],
                ['engaging', str(sh.engaging)],
              ]),
            ] as const,
        ),
      ),
    ],
    [
      'players',
      object(
        s.players.map(
          (p, i) =>
            [
              name(i),
              object([
                ['coins', str(p.coins)],
                ['fame', str(p.fame)],
                ['status', str(p.status)],
                ['absent', str(p.absent)],
              ]),
            ] as const,
        ),
      ),
    ],
    // Both sorted by the roster index of the first label, then of the second, as the engine keeps them.
    ['declarations', labels(s.declarations)],
    ['alliances', labels(alliedPairs(s.declarations))],
    ['battles', list(outcome.battles.map((b) => battleJson(b, name)))],
    [
      'claims',
      list(
        s.claims.map((c) =>
          object([
            ['player', str(name(c.player))],
            ['tick', str(c.tick)],
          ]),
        ),
      ),
    ],
    [
      'offences',
      list(
        outcome.offences.map((o) =>
          object([
            ['player', str(name(o.player))],
            ['rule', str(o.rule)],
          ]),
        ),
      ),
    ],
    ['winners', list(s.winners.map((w) => str(name(w))))],
    ['ended', str(s.ended)],
  ])
}
