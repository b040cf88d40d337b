/** Half 2 of 1,000 random honest games: none is accused (see `honestBatch`); whole games run in `honest-full.test.ts`. */
import { expect, test } from 'vitest'
import { formatTranscript } from '../../src/transcript/file.js'
import { verifyTranscript } from '../../src/verify/index.js'
import { honestBatch } from './helpers.js'

test('500 random honest games end complete on both sides, and the verifier agrees', async () => {
  const r = await honestBatch('2', 500, (t) => verifyTranscript(formatTranscript(t)))
  expect(r.mismatches).toEqual([])
  expect(r.complete).toBe(500)
}, 600_000)
