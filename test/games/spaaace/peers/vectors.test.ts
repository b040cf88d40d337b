/**
 * protocol/vectors/spaaace-peers.json (SPAAACE-PEERS.md §2-§4, §10) is exactly what the fixed seeds
 * give, and each value checks on its own: the genesis decodes to its fields and the game id is its
 * tagged hash; every accept, envelope and signature verifies under its roster key; the salt and
 * commitment follow §4.3's formulas written out here; every hostile encoding gives its error.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { ed25519 } from '@noble/curves/ed25519.js'
import { describe, expect, it } from 'vitest'
import { fromHex, toHex } from '../../../../src/core/commit/bytes.js'
import { MAX_ENVELOPE } from '../../../../src/games/spaaace/peers/domain.js'
import { decodeEnvelope, readEnvelope, signatureValid } from '../../../../src/games/spaaace/peers/envelope.js'
import { decodeGenesis, gameExists } from '../../../../src/games/spaaace/peers/genesis.js'
import { ordersOf } from '../../../../src/games/spaaace/peers/parts.js'
import { type Hostile, peersVectors } from './peers-vectors.js'

const DIR = new URL('../../../../protocol/vectors/', import.meta.url)
const PATH = new URL('spaaace-peers.json', DIR)

interface EnvelopeVector {
  unsigned: string
  signingMessage: string
  hash: string
  sig: string
  envelope: string
}
interface Vectors {
  tags: Record<string, string>
  keys: { label: string; seed: string; public: string }[]
  genesis: { genesis: string; gameId: string; fields: { n: number } }
  accepts: EnvelopeVector[]
  salts: { player: number; seed: string; tick: number; salt: string; orders: string; commitment: string }
  envelopes: Record<string, EnvelopeVector>
  largest: EnvelopeVector & { players: number; bytes: number }
  hostile: Hostile[]
}

const sha = (...hex: string[]): string => {
  const h = createHash('sha256')
  for (const x of hex) h.update(Buffer.from(x, 'hex'))
  return h.digest('hex')
}
const tagHex = (t: string): string => t.length.toString(16).padStart(2, '0') + Buffer.from(t, 'ascii').toString('hex')
/** SPEC §3.3 with a roster index (BD-11): `tag ‖ G ‖ u8(p)`, zero-filled to 64 bytes. */
const blockHex = (t: string, g: string, p: number): string =>
  (tagHex(t) + g + p.toString(16).padStart(2, '0')).padEnd(128, '0')

const content = `${JSON.stringify(peersVectors(), null, 2)}\n`
if (process.env['UPDATE_VECTORS'] === '1') {
  mkdirSync(DIR, { recursive: true })
  writeFileSync(PATH, content)
}

describe('protocol/vectors/spaaace-peers.json (SPAAACE-PEERS.md §2-§4, §10)', () => {
  it('is exactly what the seeds give', () => {
    expect(readFileSync(PATH, 'utf8'), 'spaaace-peers.json differs; UPDATE_VECTORS=1 rewrites it').toBe(content)
  })

  const v = JSON.parse(readFileSync(PATH, 'utf8')) as Vectors

  it('§3.1: the genesis decodes, its keys ascend, and G = H(tag("spaaace/1/game-id") ‖ genesis)', () => {
    const g = decodeGenesis(fromHex(v.genesis.genesis))
    expect(g.ok).toBe(true)
    if (!g.ok) return
    expect(g.value.genesis.keys.map(toHex)).toEqual(v.keys.map((k) => k.public))
    expect(v.genesis.gameId).toBe(sha(tagHex('spaaace/1/game-id'), v.genesis.genesis))
    for (const k of v.keys) expect(toHex(ed25519.getPublicKey(fromHex(k.seed)))).toBe(k.public)
  })

  it('§3.2, §4.1: every accept and envelope verifies under its roster key (noble), with its hash; all accepts make the game exist', () => {
    const g = decodeGenesis(fromHex(v.genesis.genesis))
    if (!g.ok) throw new Error('genesis')
    const all = [...v.accepts, ...Object.values(v.envelopes)]
    const sealed = all.map((e) => {
      expect(e.envelope).toBe(e.unsigned + e.sig)
      expect(e.signingMessage).toBe(tagHex('spaaace/1/envelope') + e.unsigned)
      expect(e.hash).toBe(sha(tagHex('spaaace/1/envelope-hash'), e.unsigned))
      const d = decodeEnvelope(fromHex(e.envelope), { players: 5, game: g.value.game })
      expect(d.ok).toBe(true)
      if (!d.ok) throw new Error(d.error.message)
      const key = v.keys[d.value.envelope.author]?.public ?? ''
      expect(ed25519.verify(fromHex(e.sig), fromHex(e.signingMessage), fromHex(key))).toBe(true)
      expect(signatureValid(d.value, fromHex(key))).toBe(true)
      expect(toHex(d.value.hash)).toBe(e.hash)
      return d.value
    })
    expect(gameExists(g.value, sealed.slice(0, 5))).toBe(true)
    expect(gameExists(g.value, sealed.slice(0, 4))).toBe(false)
    expect(Object.keys(v.envelopes).sort()).toEqual(
      ['accept', 'close', 'commit', 'fork', 'reveal', 'seal', 'seed', 'state', 'stop'].sort(),
    )
  })

  it('§4.3: salt and commitment by the formulas, written out; the orders are a well-formed set', () => {
    const s = v.salts
    const t = s.tick.toString(16).padStart(4, '0')
    expect(s.salt).toBe(
      sha(blockHex('spaaace/1/salt', v.genesis.gameId, s.player), s.seed, '00'.repeat(32), `03${t}`).slice(0, 32),
    )
    const text = s.orders.length.toString(16).padStart(4, '0') + Buffer.from(s.orders, 'ascii').toString('hex')
    expect(s.commitment).toBe(sha(blockHex('spaaace/1/orders', v.genesis.gameId, s.player), t, s.salt, text))
    expect(ordersOf(s.orders, 5, s.player).ok).toBe(true)
  })

  it('§10: the largest envelope is MAX_ENVELOPE bytes and decodes; one more byte does not', () => {
    expect(v.largest.bytes).toBe(MAX_ENVELOPE)
    expect(fromHex(v.largest.envelope).length).toBe(MAX_ENVELOPE)
    expect(decodeEnvelope(fromHex(v.largest.envelope), { players: 16 }).ok).toBe(true)
    const more = readEnvelope(new Uint8Array([...fromHex(v.largest.envelope), 0]), { players: 16 })
    expect(!more.ok && more.error.code).toBe('wire.too-large')
  })

  it.each(v.hostile.map((h) => [h.name, h] as const))('hostile: %s gives its exact coded error', (_, h) => {
    const bytes = fromHex(h.hex)
    if (h.kind === 'genesis') {
      const d = decodeGenesis(bytes)
      expect(d.ok ? null : { code: d.error.code, field: d.error.field }).toEqual({ code: h.code, field: h.field })
      return
    }
    const r = readEnvelope(bytes, { players: h.players ?? 16, game: fromHex(v.genesis.gameId) })
    if (h.fails === 'header') {
      expect(r.ok ? null : { code: r.error.code, field: r.error.field, rule: r.error.rule }).toEqual({
        code: h.code,
        field: h.field,
        rule: h.rule,
      })
      return
    }
    // §4.1, §9 (i): the header stands (and authenticates), the body does not decode.
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(signatureValid(r.value, fromHex(v.keys[r.value.header.author]?.public ?? ''))).toBe(true)
    const b = r.value.body
    expect(b.ok ? null : { code: b.error.code, field: b.error.field, rule: b.error.rule }).toEqual({
      code: h.code,
      field: h.field,
      rule: h.rule,
    })
  })
})
