/** fast-check arbitraries for protocol values (SPEC §6.1, §7), shared by the codec and frame tests. */
import fc from 'fast-check'
import { encodeUnsigned, type Unsigned } from '../../src/games/spaceships/protocol/codec.js'
import { generateKeyPair } from '../../src/core/commit/keys.js'
import { seededSecrets } from '../../src/core/commit/secrets.js'
import {
  CELL_NAMES,
  CODE_SHIPS,
  type Part,
  type ProtocolVersion,
  REFUSAL_REASONS,
  SINGLE_GAME,
  STOP_REASONS,
  type Terms,
  VERDICT_OUTCOMES,
  WINNERS,
} from '../../src/games/spaceships/protocol/messages.js'

export const bytes = (n: number): fc.Arbitrary<Uint8Array> => fc.uint8Array({ minLength: n, maxLength: n })
export const cell = fc.integer({ min: 0, max: 124 }).map((i) => CELL_NAMES[i] ?? 'Rv1')
const ascii = (max: number): fc.Arbitrary<string> =>
  fc.string({ maxLength: max, unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) })
const turn = fc.integer({ min: 1, max: 1000 })
const shipType = fc.integer({ min: 1, max: 10 }).map((c) => CODE_SHIPS[c] ?? 'DS')
const ascending = (min: number, max: number): fc.Arbitrary<number[]> =>
  fc
    .uniqueArray(fc.integer({ min: 0, max: 124 }), { minLength: min, maxLength: max })
    .map((a) => [...a].sort((x, y) => x - y))

const terms3: fc.Arbitrary<Terms> = fc.record({
  ruleset: fc.constantFrom(
    '2.6.1 fleet=standard',
    'classic fleet=standard',
    '2.6.1 fleet=cost:24 max=DS:1',
    '2.6.1 fleet=standard strictPatrolCruiser',
  ),
  maxTurns: fc.integer({ min: 1, max: 1000 }),
  setupMs: fc.integer({ min: 2000, max: 86_400_000 }),
  turnMs: fc.integer({ min: 2000, max: 86_400_000 }),
  replyMs: fc.integer({ min: 2000, max: 86_400_000 }),
  sanction: fc.constant('forfeit' as const),
  match: fc.constant(SINGLE_GAME),
})

/** Usable Ed25519 keys for a version 4 notary (SPEC §5.2: the decoder refuses any other). */
const NOTARY_KEYS = [1, 2, 3].map((i) => generateKeyPair(seededSecrets(`notary ${i}`)).publicKey)

/** Version 4 terms (SPEC §6.1): deadlines up to 30 days; a reserve only with a notary. */
const terms4: fc.Arbitrary<Terms> = fc
  .record({
    t: terms3,
    setupMs: fc.integer({ min: 2000, max: 2_592_000_000 }),
    reserveMs: fc.integer({ min: 0, max: 2_592_000_000 }),
    notary: fc.option(fc.constantFrom(...NOTARY_KEYS), { nil: undefined }),
  })
  .map(({ t, setupMs, reserveMs, notary }) =>
    notary === undefined ? { ...t, setupMs, reserveMs: 0 } : { ...t, setupMs, reserveMs, notary },
  )

export const terms = terms3

function answer(version: ProtocolVersion) {
  const base = fc.record({
    result: fc.constantFrom('miss' as const, 'hit' as const, 'duplicate-hit' as const),
    salt: bytes(16),
    explosions: fc.array(cell, { maxLength: 7 }),
  })
  if (version === 3) return base
  // Version 4 (SPEC §7.6): a salt for each explosion cell after the target.
  return base.chain((a) =>
    fc
      .array(bytes(16), {
        minLength: Math.max(0, a.explosions.length - 1),
        maxLength: Math.max(0, a.explosions.length - 1),
      })
      .map((explosionSalts) => ({ ...a, explosionSalts })),
  )
}

export function part(sender: 'A' | 'B', version: ProtocolVersion = 3): fc.Arbitrary<Part> {
  const kamikaze =
    version === 3
      ? fc.record({ kamikaze: fc.array(cell, { maxLength: 5 }) })
      : fc
          .array(fc.tuple(cell, bytes(16)), { maxLength: 5 })
          .map((ks) => ({ kamikaze: ks.map((k) => k[0]), kamikazeSalts: ks.map((k) => k[1]) }))
  const end: fc.Arbitrary<Part>[] =
    version === 3
      ? [
          fc.record({
            t: fc.constant('verdict' as const),
            outcome: fc.constantFrom(...VERDICT_OUTCOMES),
            winner: fc.constantFrom(...WINNERS),
            scores: fc.tuple(fc.integer({ min: 0, max: 125 }), fc.integer({ min: 0, max: 125 })),
            detail: ascii(200),
          }),
        ]
      : [
          fc.constant({ t: 'close' as const }),
          fc.constant({ t: 'offer' as const, kind: 'draw' as const }),
          fc.constant({ t: 'accept' as const }),
        ]
  return fc.oneof(
    fc.record({
      t: fc.constant('hello' as const),
      key: bytes(32),
      nonce: bytes(32),
      terms: sender === 'A' ? (version === 3 ? terms3 : terms4) : fc.constant(undefined),
    }),
    fc.record({ t: fc.constant('refuse' as const), reason: fc.constantFrom(...REFUSAL_REASONS), detail: ascii(200) }),
    fc.record({ t: fc.constant('commit' as const), turn, record: bytes(32) }),
    fc
      .record({
        t: fc.constant('aspects' as const),
        turn,
        idle: fc.boolean(),
        beams: fc.array(fc.array(cell, { minLength: 3, maxLength: 5 }), { maxLength: 16 }),
        strikes: fc.array(cell, { maxLength: 30 }),
        scans: fc.array(cell, { maxLength: 10 }),
        k: kamikaze,
      })
      .map(({ k, ...a }) => ({ ...a, ...k })),
    fc.record({
      t: fc.constant('results' as const),
      turn,
      fleetDestroyed: fc.boolean(),
      beams: fc.array(fc.array(answer(version), { minLength: 3, maxLength: 5 }), { maxLength: 3 }),
      strikes: fc.array(answer(version), { maxLength: 12 }),
      scans: fc.array(
        fc.record({
          result: fc.constantFrom('empty' as const, 'ship' as const, 'ship-destroyed' as const),
          salt: bytes(16),
        }),
        { maxLength: 4 },
      ),
      destroyed: fc
        .uniqueArray(
          fc.record({
            type: shipType,
            id: fc.integer({ min: 1, max: 255 }),
            cells: ascending(1, 8).chain((cs) =>
              fc.tuple(...cs.map((c) => bytes(16).map((salt) => ({ cell: CELL_NAMES[c] ?? 'Rv1', salt })))),
            ),
          }),
          { maxLength: 3, selector: (d) => `${d.type}${d.id}` },
        )
        .map((ds) => [...ds].sort((x, y) => CODE_SHIPS.indexOf(x.type) - CODE_SHIPS.indexOf(y.type) || x.id - y.id)),
    }),
    fc.record({
      t: fc.constant('flashcube' as const),
      turn,
      reports: fc.array(
        fc.array(
          fc.oneof(
            fc.record({ cell, kind: fc.constant('empty' as const), salt: bytes(16) }),
            fc.record({
              cell,
              kind: fc.constant('ship' as const),
              type: shipType,
              id: fc.integer({ min: 1, max: 255 }),
              destroyed: fc.boolean(),
              salt: bytes(16),
            }),
          ),
          { minLength: 1, maxLength: 8 },
        ),
        { maxLength: 3 },
      ),
    }),
    fc.record({
      t: fc.constant('reveal' as const),
      seed: bytes(32),
      setup: fc
        .uniqueArray(fc.record({ type: shipType, id: fc.integer({ min: 1, max: 255 }), cells: ascending(1, 8) }), {
          minLength: 1,
          maxLength: 6,
          selector: (s) => `${s.type}${s.id}`,
        })
        .map((ss) => [...ss].sort((x, y) => CODE_SHIPS.indexOf(x.type) - CODE_SHIPS.indexOf(y.type) || x.id - y.id)),
      records: fc.array(ascii(40), { maxLength: 6 }),
    }),
    fc.record({
      t: fc.constant('stop' as const),
      reason: fc.constantFrom(...(version === 3 ? STOP_REASONS.filter((r) => r !== 'outage') : STOP_REASONS)),
      detail: ascii(200),
    }),
    ...end,
  )
}

/** Envelopes of both versions (SPEC §5.1), each with its version's parts. */
export const unsigned: fc.Arbitrary<Unsigned> = fc
  .tuple(fc.constantFrom<'A' | 'B'>('A', 'B'), fc.constantFrom<ProtocolVersion>(3, 4))
  .chain(([sender, version]) =>
    fc
      .record({
        version: fc.constant(version),
        sender: fc.constant(sender),
        seq: fc.integer({ min: 0, max: 4096 }),
        game: bytes(32),
        prev: bytes(32),
        ack: bytes(32),
        parts: fc.array(part(sender, version), { minLength: 1, maxLength: 4 }),
      })
      .map((e) => ({
        ...e,
        game: e.seq >= 1 ? e.game : undefined,
        prev: e.seq >= 1 ? e.prev : undefined,
        ack: sender === 'A' && e.seq === 0 ? undefined : e.ack,
      })),
  )

export function envelopeBytes(u: Unsigned, sig: Uint8Array): Uint8Array {
  const b = encodeUnsigned(u)
  return new Uint8Array([...b, ...sig])
}
