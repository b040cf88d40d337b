/** fast-check arbitraries for the Spaaace! peers bytes (protocol/SPAAACE-PEERS.md §3.1, §4.1, §4.2). */
import fc from 'fast-check'
import { NUMERIC_TERMS } from '../../../../src/games/spaaace/rules/types.js'
import {
  MAX_MARGIN_MS,
  MAX_TICKS,
  MIN_MARGIN_MS,
  commitMsFloor,
  revealMsFloor,
} from '../../../../src/games/spaaace/peers/domain.js'
import type { Unsigned } from '../../../../src/games/spaaace/peers/envelope.js'
import type { Genesis, PeersTerms } from '../../../../src/games/spaaace/peers/genesis.js'
import { tickLength } from '../../../../src/games/spaaace/peers/domain.js'
import { type Part, STOP_REASONS, compareBytes } from '../../../../src/games/spaaace/peers/parts.js'
import { POOL } from './fixtures.js'

export const bytes = (n: number): fc.Arbitrary<Uint8Array> => fc.uint8Array({ minLength: n, maxLength: n })
const ascii = (max: number): fc.Arbitrary<string> =>
  fc.string({ maxLength: max, unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) })
const term = (name: keyof typeof NUMERIC_TERMS): fc.Arbitrary<number> =>
  fc.integer({ min: NUMERIC_TERMS[name].min, max: NUMERIC_TERMS[name].max })

const terms: fc.Arbitrary<PeersTerms> = fc.record({
  coins: term('coins'),
  income: term('income'),
  battleCooldown: term('battleCooldown'),
  rematchTicks: term('rematchTicks'),
  withholdFine: term('withholdFine'),
  maxTicks: term('maxTicks'),
  absentTicks: term('absentTicks'),
  wormhole: fc.boolean(),
  infamyWins: fc.boolean(),
})

/** §3.1: any timing that decodes: the floors hold and `L ≤ 2,592,000,000`. */
const timing = fc
  .record({
    start: fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
    marginMs: fc.integer({ min: MIN_MARGIN_MS, max: MAX_MARGIN_MS }),
    commitExtra: fc.integer({ min: 0, max: 1_000_000_000 }),
    revealExtra: fc.integer({ min: 0, max: 1_000_000_000 }),
  })
  .map(({ start, marginMs, commitExtra, revealExtra }) => ({
    start,
    marginMs,
    commitMs: commitMsFloor(marginMs) + commitExtra,
    revealMs: revealMsFloor(marginMs) + revealExtra,
  }))

/** §3.1: any genesis that decodes (keys from the fixed pool, strictly ascending). */
export const genesis: fc.Arbitrary<Genesis> = fc
  .record({
    terms,
    timing,
    notaryKey: fc.option(fc.constantFrom(...POOL.map((k) => k.publicKey)), { nil: null }),
    keys: fc
      .subarray([...POOL], { minLength: 3, maxLength: 16 })
      .map((ks) => ks.map((k) => k.publicKey).sort(compareBytes)),
    nonce: bytes(32),
  })
  // §3.1: T_{maxTicks+3} at most 2^53 - 1 (the latest start kept, so the edge is drawn too).
  .map((g) => {
    const latest = Number.MAX_SAFE_INTEGER - (g.terms.maxTicks + 2) * tickLength(g.timing)
    return g.timing.start <= latest ? g : { ...g, timing: { ...g.timing, start: latest } }
  })

const tick = fc.integer({ min: 1, max: MAX_TICKS })

/** §4.2: the parts other than `accept` and `fork`, by type code. */
const single: readonly fc.Arbitrary<Part>[] = [
  fc.record({ type: fc.constant('state' as const), tick, stateHash: bytes(32) }),
  fc.record({ type: fc.constant('commit' as const), tick, commitment: bytes(32) }),
  fc.record({ type: fc.constant('seal' as const), tick }),
  fc.record({ type: fc.constant('reveal' as const), tick, salt: bytes(16), orders: ascii(40) }),
  fc.record({ type: fc.constant('close' as const), tick }),
  fc.record({ type: fc.constant('seed' as const), seed: bytes(32) }),
  fc.record({
    type: fc.constant('stop' as const),
    tick: fc.integer({ min: 0, max: MAX_TICKS }),
    reason: fc.constantFrom(...STOP_REASONS),
  }),
]

const fork = (author: number): fc.Arbitrary<Part> =>
  fc
    .record({ seq: fc.integer({ min: 0, max: 65535 }), a: bytes(32), b: bytes(32) })
    .filter(({ a, b }) => compareBytes(a, b) !== 0)
    .map(({ seq, a, b }) => {
      const [hashA, hashB] = compareBytes(a, b) < 0 ? [a, b] : [b, a]
      return { type: 'fork' as const, author, seq, hashA, hashB }
    })

/** §4.1: any envelope that decodes in a game of `n` players and id `game`, with its author. */
export function unsigned(n: number, game: Uint8Array): fc.Arbitrary<Unsigned> {
  const others = (author: number): number[] => Array.from({ length: n }, (_, i) => i).filter((i) => i !== author)
  return fc
    .record({ author: fc.integer({ min: 0, max: n - 1 }), seq: fc.integer({ min: 0, max: 65535 }) })
    .chain(({ author, seq }) =>
      fc.record({
        author: fc.constant(author),
        seq: fc.constant(seq),
        game: fc.constant(game),
        prev: seq === 0 ? fc.constant(game) : bytes(32),
        heads: fc
          .subarray(others(author))
          .chain((as) =>
            fc.tuple(...as.map((a) => fc.record({ author: fc.constant(a), seq: fc.nat(65535), hash: bytes(32) }))),
          ),
        parts:
          seq === 0
            ? fc.constant([{ type: 'accept' as const }])
            : fc
                .record({
                  singles: fc.subarray([0, 1, 2, 3, 4, 5, 6]),
                  forks: fc.subarray(others(author), { maxLength: 7 }),
                })
                .filter(
                  ({ singles, forks }) => singles.length + forks.length >= 1 && singles.length + forks.length <= 8,
                )
                .chain(({ singles, forks }) =>
                  fc
                    .tuple(
                      fc.tuple(...singles.map((i) => single[i] ?? single[0]!)),
                      fc.tuple(...forks.map((a) => fork(a))),
                    )
                    .map(([s, f]) => {
                      const before = s.filter((p) => p.type !== 'seed' && p.type !== 'stop')
                      const after = s.filter((p) => p.type === 'seed' || p.type === 'stop')
                      return [...before, ...f, ...after]
                    }),
                ),
      }),
    )
}
