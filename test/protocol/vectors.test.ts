/** protocol/vectors/ are exactly what the seeds give, and each yields its stated verdict (SPEC §12). */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'
import { fromHex, verifySignature, verifyStrict } from '../../src/commit/index.js'
import { verifyTranscript } from '../../src/verify/index.js'
import { cryptoVectors, transcriptVectors } from './build-vectors.js'

const DIR = new URL('../../protocol/vectors/', import.meta.url)
const update = process.env['UPDATE_VECTORS'] === '1'

function check(name: string, content: string): void {
  const path = new URL(name, DIR)
  if (update) {
    mkdirSync(DIR, { recursive: true })
    writeFileSync(path, content)
  }
  expect(readFileSync(path, 'utf8'), `${name} differs from what the seeds give; UPDATE_VECTORS=1 rewrites it`).toBe(content)
}

describe('protocol vectors', () => {
  test('crypto.json: hashes, salts, commitments and signatures (SPEC §3-§5)', () => {
    const v = cryptoVectors() as { ed25519: { name: string; publicKey: string; message: string; signature: string; valid: boolean }[] }
    check('crypto.json', `${JSON.stringify(v, null, 2)}\n`)
    for (const e of v.ed25519) {
      // The rule (SPEC §5.1) and the fast path agree on every edge case.
      expect(verifyStrict(fromHex(e.publicKey), fromHex(e.message), fromHex(e.signature)), e.name).toBe(e.valid)
      expect(verifySignature(fromHex(e.publicKey), fromHex(e.message), fromHex(e.signature)), e.name).toBe(e.valid)
    }
  })

  test('transcripts: the honest one is complete, each tampered one gets its verdict (C-28)', async () => {
    const { files, manifest } = await transcriptVectors()
    for (const [name, content] of Object.entries(files)) check(name, content)
    check('transcripts.json', `${JSON.stringify(manifest, null, 2)}\n`)
    for (const m of manifest) {
      const verdict = verifyTranscript(readFileSync(new URL(m.file, DIR)))
      const flat = verdict.status === 'offence' ? { status: verdict.status, ...verdict.offence } : verdict
      expect(flat, m.file).toMatchObject(m.expect)
    }
  }, 120_000)
})
