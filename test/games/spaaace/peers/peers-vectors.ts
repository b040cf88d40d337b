/**
 * Builds protocol/vectors/spaaace-peers.json (SPAAACE-PEERS.md §2-§4, §14 vector 18's bytes) from
 * fixed seeds: the keys, a genesis of 5 players and its game id, the tick-1 times, every player's
 * accept, a salt and a commitment, an envelope of each part type with its hash and signature, the
 * largest envelope (`MAX_ENVELOPE`), and hostile encodings with the exact error each must give.
 * `UPDATE_VECTORS=1 npx vitest run test/games/spaaace/peers/vectors.test.ts` rewrites the file.
 */
import { concatBytes, toHex, u16, u32, u8 } from '../../../../src/core/commit/bytes.js'
import { SMALL_ORDER_ENCODINGS, type KeyPair } from '../../../../src/core/commit/keys.js'
import { MAX_ENVELOPE, PEERS_DOMAIN, commitMsFloor, revealMsFloor } from '../../../../src/games/spaaace/peers/domain.js'
import {
  type SealedEnvelope,
  type Unsigned,
  encodeUnsigned,
  sealEnvelope,
  signingMessage,
} from '../../../../src/games/spaaace/peers/envelope.js'
import { signAccept, tickTimes } from '../../../../src/games/spaaace/peers/genesis.js'
import { type Part, commitmentOf, compareBytes, saltOf } from '../../../../src/games/spaaace/peers/parts.js'
import { fixed, liveGenesis, roster, sealedGenesis, signRaw } from './fixtures.js'

export const VECTOR_PLAYERS = 5

/** One hostile encoding and the error it must give (`part`: whether the header stands, §4.1). */
export interface Hostile {
  readonly name: string
  readonly kind: 'genesis' | 'envelope'
  readonly hex: string
  /** The `n` an envelope is read with (the genesis's). */
  readonly players?: number
  readonly code: string
  readonly field: string
  readonly rule: string
  /** For envelopes: `header` (no envelope of the game) or `body` (a violation once authenticated, §9 (i)). */
  readonly fails?: 'header' | 'body'
}

function envelopeVector(s: SealedEnvelope) {
  const unsigned = encodeUnsigned(s.envelope)
  return {
    unsigned: toHex(unsigned),
    signingMessage: toHex(signingMessage(unsigned)),
    hash: toHex(s.hash),
    sig: toHex(s.envelope.sig),
    envelope: toHex(s.bytes),
  }
}

/** Rewrites bytes `at..` of a copy with `patch`. */
function patched(b: Uint8Array, at: number, patch: Uint8Array): Uint8Array {
  const out = b.slice()
  out.set(patch, at)
  return out
}

export function peersVectors(): Record<string, unknown> {
  const n = VECTOR_PLAYERS
  const keys = roster(n)
  const g = sealedGenesis(liveGenesis(n))
  const G = g.game
  const key = (i: number): KeyPair => keys[i] ?? keys[0]!
  const accepts = keys.map((k, i) => signAccept(k, G, i))
  const head = (i: number, e: SealedEnvelope) => ({ author: i, seq: e.envelope.seq, hash: e.hash })
  const acceptHeads = (self: number) => accepts.flatMap((a, i) => (i === self ? [] : [head(i, a)]))

  // §4.3: p1's seed, salt and commitment of tick 1.
  const seed = fixed('p1 seed')
  const orders = 'buy 2; move 2 3; bid 4'
  const salt = saltOf(G, 0, seed, 1)
  const commitment = commitmentOf(G, 0, 1, salt, orders)

  // p1's chain: one envelope per part type (chain order is the verifier's, BD-9; these follow it).
  const chain: SealedEnvelope[] = [accepts[0]!]
  const next = (parts: Part[], heads = acceptHeads(0)): SealedEnvelope => {
    const prev = chain[chain.length - 1]!
    const e = sealEnvelope(key(0), { author: 0, seq: prev.envelope.seq + 1, game: G, prev: prev.hash, heads, parts })
    chain.push(e)
    return e
  }
  // p5's divergence at seq 1: two envelopes with one prev.
  const p5 = (label: string) =>
    sealEnvelope(key(4), {
      author: 4,
      seq: 1,
      game: G,
      prev: accepts[4]!.hash,
      heads: [],
      parts: [{ type: 'commit', tick: 1, commitment: fixed(label) }],
    })
  const [x, y] = [p5('p5 commitment A'), p5('p5 commitment B')].sort((a, b) => compareBytes(a.hash, b.hash)) as [
    SealedEnvelope,
    SealedEnvelope,
  ]
  const headsWithFork = acceptHeads(0).map((h) => (h.author === 4 ? head(4, x) : h))
  const byType = {
    accept: accepts[0]!,
    commit: next([{ type: 'commit', tick: 1, commitment }]),
    seal: next([{ type: 'seal', tick: 1 }]),
    reveal: next([{ type: 'reveal', tick: 1, salt, orders }]),
    close: next([{ type: 'close', tick: 1 }]),
    fork: next([{ type: 'fork', author: 4, seq: 1, hashA: x.hash, hashB: y.hash }], headsWithFork),
    state: next([{ type: 'state', tick: 1, stateHash: fixed('a stand-in closing hash of tick 1') }], headsWithFork),
    stop: next([{ type: 'stop', tick: 2, reason: 'stalled' }], headsWithFork),
    seed: next([{ type: 'seed', seed }], headsWithFork),
  }

  // §10: the largest envelope that decodes, in a game of 16 players (15 heads, a 1,024-byte reveal, 7 forks).
  const G16 = fixed('a game of 16')
  const big: Unsigned = {
    author: 0,
    seq: 40,
    game: G16,
    prev: fixed('prev'),
    heads: Array.from({ length: 15 }, (_, i) => ({ author: i + 1, seq: 40, hash: fixed(`head ${i + 1}`) })),
    parts: [
      { type: 'reveal', tick: 3, salt: fixed('salt').slice(0, 16), orders: 'claim'.padEnd(1024, ' ') },
      ...Array.from({ length: 7 }, (_, i) => {
        const [a, b] = [fixed(`fork ${i} a`), fixed(`fork ${i} b`)].sort(compareBytes) as [Uint8Array, Uint8Array]
        return { type: 'fork' as const, author: i + 1, seq: 7, hashA: a, hashB: b }
      }),
    ],
  }
  const largest = sealEnvelope(key(0), big)
  if (largest.bytes.length !== MAX_ENVELOPE) throw new Error(`the largest envelope is ${largest.bytes.length} bytes`)

  return {
    design: 'protocol/SPAAACE-PEERS.md §2, §3, §4, §10; byte-level decisions BD-1..BD-12',
    tags: PEERS_DOMAIN,
    keys: keys.map((k, i) => ({ label: `p${i + 1}`, seed: toHex(k.secretKey), public: toHex(k.publicKey) })),
    genesis: {
      fields: {
        terms: liveGenesis(n).terms,
        timing: liveGenesis(n).timing,
        witness: 0,
        n,
        nonce: toHex(liveGenesis(n).nonce),
      },
      genesis: toHex(g.bytes),
      gameId: toHex(G),
      tick1: tickTimes(g.genesis.timing, 1),
    },
    accepts: accepts.map(envelopeVector),
    salts: {
      player: 0,
      seed: toHex(seed),
      tick: 1,
      salt: toHex(salt),
      orders,
      commitment: toHex(commitment),
    },
    envelopes: Object.fromEntries(Object.entries(byType).map(([t, e]) => [t, envelopeVector(e)])),
    divergence: { seq: 1, author: 4, a: envelopeVector(x), b: envelopeVector(y) },
    largest: { players: 16, bytes: largest.bytes.length, ...envelopeVector(largest) },
    hostile: hostile(g.bytes, keys, byType, accepts),
  }
}

function hostile(
  genesis: Uint8Array,
  keys: readonly KeyPair[],
  byType: Record<string, SealedEnvelope>,
  accepts: readonly SealedEnvelope[],
): Hostile[] {
  const out: Hostile[] = []
  const gen = (name: string, b: Uint8Array, code: string, field: string): void => {
    out.push({ name, kind: 'genesis', hex: toHex(b), code, field, rule: '§3.1' })
  }
  // Offsets in the genesis (§3.1): kind 0, protocol 1, terms 2..12 (options at 12), timing 13..32
  // (start 13, commitMs 21, revealMs 25, marginMs 29), witness 33, n 34, keys 35.., nonce last 32.
  const marginMs = 2000
  gen('kind 0x48', patched(genesis, 0, u8(0x48)), 'wire.frame', 'kind')
  gen('protocol 2', patched(genesis, 1, u8(2)), 'wire.version', 'protocol')
  gen('coins 1001 (S-24)', patched(genesis, 2, u16(1001)), 'field.range', 'terms.coins')
  gen('rematchTicks 0 (S-40)', patched(genesis, 6, u8(0)), 'field.range', 'terms.rematchTicks')
  gen('maxTicks 1001 (S-51)', patched(genesis, 9, u16(1001)), 'field.range', 'terms.maxTicks')
  gen('options bit 2', patched(genesis, 12, u8(4)), 'field.range', 'terms.options')
  gen('start 2^53', patched(genesis, 13, concatBytes(u32(0x20_0000), u32(0))), 'field.range', 'timing.start')
  // §3.1: T_{maxTicks+3} above 2^53 - 1 (start itself is not).
  gen(
    'start 2^53 - 1: T_{maxTicks+3} beyond it',
    patched(genesis, 13, concatBytes(u32(0x1f_ffff), u32(0xffff_ffff))),
    'field.range',
    'timing.start',
  )
  gen('marginMs 499', patched(genesis, 29, u32(499)), 'field.range', 'timing.marginMs')
  gen('marginMs 600,001', patched(genesis, 29, u32(600_001)), 'field.range', 'timing.marginMs')
  gen(
    'commitMs one below the floor (§14 vector 26)',
    patched(genesis, 21, u32(commitMsFloor(marginMs) - 1)),
    'field.range',
    'timing.commitMs',
  )
  gen(
    'revealMs one below the floor',
    patched(genesis, 25, u32(revealMsFloor(marginMs) - 1)),
    'field.range',
    'timing.revealMs',
  )
  gen(
    'tick length above 2,592,000,000',
    patched(genesis, 21, concatBytes(u32(2_000_000_000), u32(600_000_000))),
    'field.range',
    'timing',
  )
  gen('witness 2', patched(genesis, 33, u8(2)), 'field.range', 'witness')
  const k = (i: number): Uint8Array => keys[i]?.publicKey ?? new Uint8Array(32)
  const rest = genesis.subarray(genesis.length - 32)
  const withKeys = (ks: Uint8Array[]): Uint8Array => concatBytes(genesis.subarray(0, 34), u8(ks.length), ...ks, rest)
  gen('2 players (S-01)', withKeys([k(0), k(1)]), 'field.count', 'n')
  gen('17 players (S-01)', withKeys(Array.from({ length: 17 }, (_, i) => k(i % 5))), 'field.count', 'n')
  gen('keys out of order', withKeys([k(1), k(0), k(2), k(3), k(4)]), 'field.order', 'keys[1]')
  gen('a key twice', withKeys([k(0), k(1), k(1), k(3), k(4)]), 'field.order', 'keys[2]')
  const smallOrder = new Uint8Array(Buffer.from(SMALL_ORDER_ENCODINGS[0] ?? '', 'hex'))
  gen('a small-order key (SPEC §5.2)', withKeys([smallOrder, k(1), k(2), k(3), k(4)]), 'field.range', 'keys[0]')
  gen('a nonce cut short', genesis.subarray(0, genesis.length - 1), 'wire.truncated', 'nonce')
  gen('a byte after the nonce', concatBytes(genesis, u8(0)), 'wire.trailing', 'nonce')

  const env = (
    name: string,
    b: Uint8Array,
    code: string,
    field: string,
    rule: string,
    fails: 'header' | 'body',
  ): void => {
    out.push({ name, kind: 'envelope', hex: toHex(b), players: 5, code, field, rule, fails })
  }
  const p1 = keys[0]!
  const seal = byType['seal']!
  const u = seal.bytes.subarray(0, seal.bytes.length - 64)
  // Header: version 0, author 1, seq 2, game 4, prev 36, h 68, heads 69.. (4 × 35), count 209, parts 210.
  env('version 2', signRaw(p1, patched(u, 0, u8(2))), 'wire.version', 'version', '§4.1', 'header')
  env('author 5 of 5 players', signRaw(p1, patched(u, 1, u8(5))), 'field.range', 'author', '§4.1', 'header')
  env('another game', signRaw(p1, patched(u, 4, fixed('another game'))), 'field.range', 'game', '§4.1', 'header')
  env(
    'seq 0 with prev not the game id',
    signRaw(p1, patched(accepts[0]!.bytes.subarray(0, accepts[0]!.bytes.length - 64), 36, fixed('x'))),
    'field.range',
    'prev',
    '§4.1',
    'header',
  )
  env('shorter than a header and a signature', seal.bytes.subarray(0, 131), 'wire.truncated', 'sig', '§4.1', 'header')
  env('longer than MAX_ENVELOPE', new Uint8Array(MAX_ENVELOPE + 1).fill(1), 'wire.too-large', '', '§10', 'header')
  const h1 = 69
  const headBytes = (a: number): Uint8Array => u.subarray(h1 + 35 * a, h1 + 35 * (a + 1))
  const reheaded = (hs: Uint8Array[]): Uint8Array =>
    concatBytes(u.subarray(0, 68), u8(hs.length), ...hs, u.subarray(209))
  env(
    'heads out of order',
    signRaw(p1, reheaded([headBytes(1), headBytes(0)])),
    'field.order',
    'heads[1].author',
    '§4.1',
    'body',
  )
  env(
    'a head for the signer',
    signRaw(p1, reheaded([concatBytes(u8(0), headBytes(0).subarray(1))])),
    'field.range',
    'heads[0].author',
    '§4.1',
    'body',
  )
  env('5 heads among 5 players', signRaw(p1, patched(u, 68, u8(5))), 'field.count', 'heads', '§4.1', 'body')
  const reparted = (count: number, ...parts: Uint8Array[]): Uint8Array =>
    concatBytes(u.subarray(0, 209), u8(count), ...parts)
  const sealPart = (t: number) => concatBytes(u8(4), u16(t))
  env('no part', signRaw(p1, reparted(0)), 'field.count', 'parts', '§4.1', 'body')
  env('9 parts', signRaw(p1, reparted(9)), 'field.count', 'parts', '§4.1', 'body')
  env(
    'parts out of type order',
    signRaw(p1, reparted(2, concatBytes(u8(6), u16(1)), sealPart(1))),
    'field.order',
    'parts[1].type',
    '§4.2',
    'body',
  )
  env(
    'two seal parts',
    signRaw(p1, reparted(2, sealPart(1), sealPart(2))),
    'field.order',
    'parts[1].type',
    '§4.2',
    'body',
  )
  env('part type 10', signRaw(p1, reparted(1, u8(10))), 'field.range', 'parts[0].type', '§4.2', 'body')
  env('part type 0', signRaw(p1, reparted(1, u8(0))), 'field.range', 'parts[0].type', '§4.2', 'body')
  env('an accept at seq 2', signRaw(p1, reparted(1, u8(1))), 'field.range', 'parts', '§4.2', 'body')
  env('seal of tick 0', signRaw(p1, reparted(1, sealPart(0))), 'field.range', 'parts[0].tick', '§4.2', 'body')
  env('seal of tick 1001', signRaw(p1, reparted(1, sealPart(1001))), 'field.range', 'parts[0].tick', '§4.2', 'body')
  env(
    'stop reason 5',
    signRaw(p1, reparted(1, concatBytes(u8(9), u16(1), u8(5)))),
    'field.range',
    'parts[0].reason',
    '§4.2',
    'body',
  )
  const forkPart = (author: number, a: Uint8Array, b: Uint8Array) => concatBytes(u8(7), u8(author), u16(1), a, b)
  const [lo, hi] = [fixed('lo'), fixed('hi')].sort(compareBytes) as [Uint8Array, Uint8Array]
  env(
    'a fork naming its signer',
    signRaw(p1, reparted(1, forkPart(0, lo, hi))),
    'field.range',
    'parts[0].author',
    '§4.2',
    'body',
  )
  env(
    'a fork with hashA > hashB',
    signRaw(p1, reparted(1, forkPart(4, hi, lo))),
    'field.order',
    'parts[0].hashB',
    '§4.2',
    'body',
  )
  env(
    'a fork with hashA = hashB',
    signRaw(p1, reparted(1, forkPart(4, lo, lo))),
    'field.order',
    'parts[0].hashB',
    '§4.2',
    'body',
  )
  env(
    'two forks naming one author',
    signRaw(p1, reparted(2, forkPart(4, lo, hi), forkPart(4, lo, hi))),
    'field.order',
    'parts[1].author',
    '§4.2',
    'body',
  )
  const reveal = (text: Uint8Array) => concatBytes(u8(5), u16(1), new Uint8Array(16), u16(text.length), text)
  env(
    'orders of 1,025 bytes',
    signRaw(p1, reparted(1, reveal(new Uint8Array(1025).fill(0x61)))),
    'field.count',
    'parts[0].orders',
    '§4.2',
    'body',
  )
  env(
    'orders with a newline',
    signRaw(p1, reparted(1, reveal(Uint8Array.of(0x62, 0x0a)))),
    'field.text',
    'parts[0].orders',
    '§4.2',
    'body',
  )
  env('a byte after the parts', signRaw(p1, concatBytes(u, u8(0))), 'wire.trailing', 'parts', '§4.1', 'body')
  env(
    'a part cut short',
    signRaw(p1, reparted(1, concatBytes(u8(3), u16(1), new Uint8Array(31)))),
    'wire.truncated',
    'parts[0].commitment',
    '§4.2',
    'body',
  )
  return out
}
