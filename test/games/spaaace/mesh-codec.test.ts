/**
 * Spaaace!'s envelopes through the core's mesh (protocol/SPAAACE-PEERS.md §4.1, §8): the adapter
 * reads what the mesh needs (author, seq, prev, heads, the envelopes a fork part names), refuses
 * another game's bytes, takes a body that does not decode as naming only its `prev` (§9 (i)), and
 * checks signatures against the roster; three real mesh nodes carry a chain of real envelopes.
 */
import { describe, expect, it } from 'vitest'
import { generateKeyPair } from '../../../src/core/commit/keys.js'
import { seededSecrets } from '../../../src/core/commit/secrets.js'
import type { MeshEnvelope } from '../../../src/core/mesh/codec.js'
import { MeshNode } from '../../../src/core/mesh/node.js'
import { memoryChannelPair } from '../../../src/core/session/channel.js'
import { VirtualClock } from '../../../src/core/session/clock.js'
import { spaaaceMeshCodec } from '../../../src/games/spaaace/mesh/codec.js'
import { type SealedEnvelope, type Unsigned, sealEnvelope } from '../../../src/games/spaaace/peers/envelope.js'

const keys = [0, 1, 2].map((i) => generateKeyPair(seededSecrets(`mesh-codec/${i}`)))
const roster = keys.map((k) => k.publicKey)
const G = new Uint8Array(32).fill(7)
const codec = spaaaceMeshCodec(roster, G)

function seal(author: number, u: Omit<Unsigned, 'author' | 'game'>): SealedEnvelope {
  const k = keys[author]
  if (k === undefined) throw new Error('no key')
  return sealEnvelope(k, { author, game: G, ...u })
}
const accept = (author: number) => seal(author, { seq: 0, prev: G, heads: [], parts: [{ type: 'accept' }] })

describe('the Spaaace! mesh codec (SPAAACE-PEERS.md §4.1, §8)', () => {
  it('reads author, seq, prev, heads and both envelopes a fork part names; checks the roster key', () => {
    const a0 = accept(0)
    const b0 = accept(1)
    const b0bis = seal(1, {
      seq: 0,
      prev: G,
      heads: [{ author: 0, seq: 0, hash: a0.hash }],
      parts: [{ type: 'accept' }],
    })
    const [lo, hi] = Buffer.compare(Buffer.from(b0.hash), Buffer.from(b0bis.hash)) < 0 ? [b0, b0bis] : [b0bis, b0]
    const a1 = seal(0, {
      seq: 1,
      prev: a0.hash,
      heads: [{ author: 1, seq: 0, hash: b0.hash }],
      parts: [{ type: 'fork', author: 1, seq: 0, hashA: lo.hash, hashB: hi.hash }],
    })
    const d = codec.decode(a1.bytes)
    expect(d.ok).toBe(true)
    if (!d.ok) return
    expect([d.value.author, d.value.seq, Buffer.from(d.value.prev).equals(Buffer.from(a0.hash))]).toEqual([0, 1, true])
    expect(d.value.heads.map((h) => [h.author, h.seq])).toEqual([[1, 0]])
    expect(d.value.names.map((n) => Buffer.from(n.hash).toString('hex')).sort()).toEqual(
      [lo.hash, hi.hash].map((h) => Buffer.from(h).toString('hex')).sort(),
    )
    expect(codec.signatureValid(d.value)).toBe(true)
    // The same bytes claimed by another author's key: the signature is the roster's, not the bytes'.
    expect(codec.signatureValid({ ...d.value, author: 2 })).toBe(false)
  })

  it("refuses another game's envelope, a version it does not speak and an author outside the roster", () => {
    const other = sealEnvelope(keys[0] ?? generateKeyPair(seededSecrets('x')), {
      author: 0,
      game: new Uint8Array(32).fill(8),
      seq: 0,
      prev: new Uint8Array(32).fill(8),
      heads: [],
      parts: [{ type: 'accept' }],
    })
    const foreign = codec.decode(other.bytes)
    expect(!foreign.ok && foreign.error.code).toBe('envelope.foreign')
    const bytes = accept(0).bytes.slice()
    bytes[0] = 9
    const version = codec.decode(bytes)
    expect(!version.ok && version.error.code).toBe('envelope.version')
    const author = accept(0).bytes.slice()
    author[1] = 3
    const outside = codec.decode(author)
    expect(!outside.ok && outside.error.code).toBe('envelope.author')
    expect(codec.decode(new Uint8Array(10)).ok).toBe(false)
  })

  it('an envelope whose body does not decode names only its prev (§4.1, §9 (i))', () => {
    const a0 = accept(0)
    const good = seal(0, {
      seq: 1,
      prev: a0.hash,
      heads: [{ author: 1, seq: 0, hash: accept(1).hash }],
      parts: [{ type: 'seal', tick: 1 }],
    })
    const bytes = good.bytes.slice()
    // The part count (after the header of 68 bytes and one head of 35) set to 0: the body fails.
    bytes[68 + 1 + 35] = 0
    const d = codec.decode(bytes)
    expect(d.ok).toBe(true)
    if (d.ok) expect([d.value.heads.length, d.value.names.length, d.value.seq]).toEqual([0, 0, 1])
  })

  it('three mesh nodes carry every envelope of a chain to every player over a line of links', async () => {
    const clock = new VirtualClock()
    const held: MeshEnvelope[][] = [[], [], []]
    const nodes = [0, 1, 2].map((self) => new MeshNode({ codec, self, clock, onEnvelope: (e) => held[self]?.push(e) }))
    for (const n of nodes) n.start()
    const life = new AbortController()
    for (const [a, b] of [
      [0, 1],
      [1, 2],
    ] as const) {
      const pair = memoryChannelPair()
      void nodes[a]?.connect(b, pair.ends[0], life.signal)
      void nodes[b]?.connect(a, pair.ends[1], life.signal)
    }
    const a0 = accept(0)
    const a1 = seal(0, { seq: 1, prev: a0.hash, heads: [], parts: [{ type: 'seal', tick: 1 }] })
    nodes[0]?.publish(a0.bytes)
    nodes[0]?.publish(a1.bytes)
    for (let i = 0; i < 50 && (held[2]?.length ?? 0) < 2; i++) await new Promise((r) => setImmediate(r))
    life.abort()
    expect(held[2]?.map((e) => e.seq)).toEqual([0, 1])
    expect(held[1]?.map((e) => e.seq)).toEqual([0, 1])
  })
})
