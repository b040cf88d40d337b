/**
 * protocol/vectors/spaaace-peers/ (SPAAACE-PEERS.md §14) is exactly what the scenarios give, and
 * each file decides, read back through the transcript reader and with every signature checked,
 * to the decision its index states (§13: a verifier reading the files).
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { fromHex } from '../../../../src/core/commit/bytes.js'
import { decide } from '../../../../src/games/spaaace/peers/decide.js'
import { readPeersTranscript } from '../../../../src/games/spaaace/peers/transcript.js'
import { cryptoVector, fileNames, summary } from './decide-vectors.js'
import { scenarios } from './scenarios.js'

const DIR = new URL('../../../../protocol/vectors/spaaace-peers/', import.meta.url)
const INDEX = new URL('index.json', DIR)

const built = scenarios()
const files = new Map<string, string>()
const index = {
  design:
    'protocol/SPAAACE-PEERS.md §5, §9, §13, §14; byte-level decisions BD-14..; players p1..pn are roster indices 0..n-1',
  crypto: cryptoVector(),
  vectors: built.map((s) => {
    const names = fileNames(s)
    names.forEach((name, k) => files.set(name, s.game.transcript(s.files[k])))
    const all = s.files.flat()
    return {
      name: s.name,
      about: s.about,
      files: names,
      decision: summary(decide(s.game.genesis, s.game.reads([...new Map(all.map((e) => [e.id, e])).values()]))),
    }
  }),
}
const content = `${JSON.stringify(index, null, 2)}\n`
if (process.env['UPDATE_VECTORS'] === '1') {
  rmSync(DIR, { recursive: true, force: true })
  mkdirSync(DIR, { recursive: true })
  for (const [name, text] of files) writeFileSync(new URL(name, DIR), text)
  writeFileSync(INDEX, content)
}

describe('protocol/vectors/spaaace-peers/ (SPAAACE-PEERS.md §14)', () => {
  it('is exactly what the scenarios give (UPDATE_VECTORS=1 rewrites it)', () => {
    expect(readFileSync(INDEX, 'utf8')).toBe(content)
    expect(readdirSync(DIR).sort()).toEqual([...files.keys(), 'index.json'].sort())
    for (const [name, text] of files) expect(readFileSync(new URL(name, DIR), 'utf8'), name).toBe(text)
  })

  const stored = JSON.parse(readFileSync(INDEX, 'utf8')) as typeof index

  it.each(stored.vectors.map((v) => [v.name, v] as const))(
    '%s: the files, read and authenticated, decide as the index says (§13)',
    (_, v) => {
      const reads = v.files.map((f) => {
        const r = readPeersTranscript(readFileSync(new URL(f, DIR), 'utf8'))
        if (!r.ok) throw new Error(r.error.message)
        return r.value
      })
      const genesis = reads[0]?.genesis
      if (genesis === undefined) throw new Error('no file')
      expect(
        summary(
          decide(
            genesis,
            reads.flatMap((r) => r.envelopes),
          ),
        ),
      ).toEqual(v.decision)
    },
  )

  it('§14.18, §5.6: stateHash = SHA-256(tag("spaaace/1/state") ‖ G ‖ stateBytes), written out', () => {
    const c = stored.crypto as { gameId: string; stateBytes: string; stateHash: string }
    const tag = Buffer.from('spaaace/1/state', 'ascii')
    const h = createHash('sha256')
      .update(Buffer.from([tag.length]))
      .update(tag)
      .update(fromHex(c.gameId))
      .update(fromHex(c.stateBytes))
      .digest('hex')
    expect(h).toBe(c.stateHash)
    // u16 t = 1, then 5 players of 12 bytes, then the counts: the layout's length.
    expect(c.stateBytes.slice(0, 4)).toBe('0001')
  })
})
