/** SPAAACE-PEERS.md §2 transcript files, as BD-13 reads them. */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { toBase64url, toHex } from '../../../../src/core/commit/bytes.js'
import { MAX_FILE_BYTES, TRANSCRIPT_HEADER } from '../../../../src/games/spaaace/peers/domain.js'
import { sealEnvelope } from '../../../../src/games/spaaace/peers/envelope.js'
import { signAccept } from '../../../../src/games/spaaace/peers/genesis.js'
import { formatPeersTranscript, readPeersTranscript } from '../../../../src/games/spaaace/peers/transcript.js'
import { fixed, liveGenesis, roster, sealedGenesis } from './fixtures.js'

const keys = roster(3)
const g = sealedGenesis(liveGenesis(3))
const accepts = keys.map((k, i) => signAccept(k, g.game, i))
const other = sealedGenesis(liveGenesis(3, { nonce: fixed('another nonce') }))

describe('§2 transcript files', () => {
  it('a file of a genesis and envelopes reads back to them; a repeated line is one envelope', () => {
    const text = formatPeersTranscript(g.bytes, [...accepts.map((a) => a.bytes), accepts[0]!.bytes])
    expect(text.startsWith(`${TRANSCRIPT_HEADER}\n${toBase64url(g.bytes)}\n`)).toBe(true)
    const r = readPeersTranscript(text)
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(toHex(r.value.genesis.game)).toBe(toHex(g.game))
    expect(r.value.envelopes.map((e) => e.id)).toEqual(accepts.map((a) => a.id))
    expect(r.value.setAside).toEqual([])
  })

  it('§10 MAX_FILE_BYTES: a file one byte over it is no game (file.too-large), before any line is read', () => {
    const text = formatPeersTranscript(
      g.bytes,
      accepts.map((a) => a.bytes),
    )
    // Padded with empty lines, which alone would be set aside: the bytes are bounded, not the items.
    const over = readPeersTranscript(text + '\n'.repeat(MAX_FILE_BYTES + 1 - text.length))
    expect(over.ok).toBe(false)
    if (!over.ok) expect(over.error.code).toBe('file.too-large')
  })

  it('sets aside lines that are not items of this game, each with its code, and keeps a body that does not decode', () => {
    const foreign = signAccept(keys[0]!, other.game, 0)
    const broken = new Uint8Array([...accepts[1]!.bytes])
    // §4.1, BD-6: a header that decodes with a body that does not (count 0) is kept for the verifier.
    broken[69] = 0
    const notReceipt = Uint8Array.of(0x84, 1, 2)
    const text = [
      TRANSCRIPT_HEADER,
      toBase64url(g.bytes),
      'not base64url!',
      '',
      toBase64url(foreign.bytes),
      toBase64url(other.bytes),
      toBase64url(notReceipt),
      toBase64url(broken),
    ].join('\n')
    const r = readPeersTranscript(`${text}\n`)
    expect(r.ok).toBe(true)
    if (!r.ok) return
    expect(r.value.setAside.map((s) => [s.line, s.error.code])).toEqual([
      [2, 'wire.base64'],
      [3, 'wire.base64'],
      [4, 'field.range'],
      [5, 'file.line'],
      [6, 'file.line'],
    ])
    expect(r.value.envelopes).toHaveLength(1)
    expect(r.value.envelopes[0]?.body.ok).toBe(false)
  })

  it('a file without the header or with no genesis first is no game', () => {
    const a = readPeersTranscript(`spaceships-transcript 4\n${toBase64url(g.bytes)}\n`)
    expect(!a.ok && a.error.code).toBe('file.header')
    const b = readPeersTranscript(`${TRANSCRIPT_HEADER}\n${toBase64url(accepts[0]!.bytes)}\n`)
    expect(!b.ok && b.error.code).toBe('wire.frame')
    const c = readPeersTranscript(`${TRANSCRIPT_HEADER}\n`)
    expect(!c.ok && c.error.code).toBe('wire.base64')
  })

  it('receipts are kept only in a witnessed game', () => {
    const w = sealedGenesis(liveGenesis(3, { notaryKey: roster(4)[3]!.publicKey }))
    const receipt = Uint8Array.of(0x84, 9, 9, 9)
    const r = readPeersTranscript(formatPeersTranscript(w.bytes, [receipt]))
    expect(r.ok && r.value.receipts.length).toBe(1)
  })

  it('no text throws', () => {
    const env = sealEnvelope(keys[1]!, {
      author: 1,
      seq: 1,
      game: g.game,
      prev: accepts[1]!.hash,
      heads: [],
      parts: [{ type: 'seal', tick: 1 }],
    })
    const good = formatPeersTranscript(g.bytes, [env.bytes])
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.nat().map((cut) => good.slice(0, cut % (good.length + 1))),
        ),
        (text) => {
          const r = readPeersTranscript(text)
          if (!r.ok) expect(r.error.rule).toMatch(/^§/)
        },
      ),
      { numRuns: 300 },
    )
  })
})
