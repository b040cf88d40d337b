/**
 * The package as a library (docs/LIBRARY.md): imported by its name, which resolves through
 * package.json `exports` to the built dist/, and the documented examples, run as they are.
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import * as root from 'spaceships'
import { entitlements, readRecord, seededRandom } from 'spaceships/rules'
import { type PlayerStrategy, formatTranscript, randomStrategy } from 'spaceships/session'
import { verifyFiles, verifyTranscript } from 'spaceships/verify'
import { randomRecord, referee, seededRng } from 'spaceships/spaaace'
import { sweeper } from '../docs/examples/custom-strategy.js'
import { playInMemory } from '../docs/examples/in-memory-game.js'
import { describe as describeVerdict, verifyPaths } from '../docs/examples/verification.js'
import { cli } from './cli.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string
  exports: Record<string, string | { types: string; default: string }>
}
const vector = (name: string): string => join(ROOT, 'protocol', 'vectors', name)

describe('the package by its name (package.json exports, docs/LIBRARY.md)', () => {
  it('every entry point of `exports` resolves by name to a module and its types in dist/, and loads', async () => {
    const require = createRequire(import.meta.url)
    for (const [entry, target] of Object.entries(pkg.exports)) {
      if (typeof target === 'string') continue
      const name = `spaceships${entry.slice(1)}`
      expect(require.resolve(name)).toBe(join(ROOT, target.default))
      expect(target.types).toBe(target.default.replace(/\.js$/, '.d.ts'))
      expect(readFileSync(join(ROOT, target.types), 'utf8')).toContain('export')
      // The name and the built file are one module: the tests below run dist/, not src/.
      expect(await import(name)).toBe(await import(pathToFileURL(join(ROOT, target.default)).href))
    }
  })

  it('spaceships/spaaace: the second game by its name, a random record refereed to its end (spaaace.md appendix)', () => {
    const text = randomRecord(seededRng('library'), 4)
    const result = referee(text)
    expect(result.roster).toHaveLength(4)
    expect(result.ticks.length).toBeGreaterThan(0)
    // The appendix's error convention: a record error names its line; a random record may hold one.
    if (result.error !== null) expect(result.error.line).toBeGreaterThan(1)
    // Spaaace! is its own module: the root (Spaceships) entry point does not carry it.
    expect(root).not.toHaveProperty('playTick')
  })

  it('the root entry point has the public names of every part but net, and no internals', () => {
    for (const name of [
      'runSession',
      'memoryChannelPair',
      'verifyFiles',
      'adjudicate',
      'parseGameRecord',
      'readRecord',
      'makeBot',
      'DEFAULT_TERMS',
    ])
      expect(root).toHaveProperty(name)
    // The session's internals, the verifier's steps, the codec, the network.
    for (const name of [
      'Inbox',
      'decide',
      'examine',
      'gatherEvidence',
      'encodeUnsigned',
      'verdictPartOf',
      'hostGame',
      'createPeerNode',
    ])
      expect(root).not.toHaveProperty(name)
  })

  it('an in-memory game through spaceships/session ends complete on both sides, and spaceships/verify agrees from both files and from each', async () => {
    const [a, b] = await playInMemory('library/in-memory')
    expect(a.verdict.status).toBe('complete')
    expect(b.verdict).toEqual(a.verdict)
    const files = [
      { name: 'a.transcript', content: formatTranscript(a.transcript) },
      { name: 'b.transcript', content: formatTranscript(b.transcript) },
    ]
    expect(verifyFiles(files)).toEqual(a.verdict)
    expect(verifyTranscript(files[0]?.content ?? '', 'a.transcript')).toEqual(a.verdict)
    // An envelope cut out of A's file: the verifier no longer sees a complete game.
    const cut = formatTranscript([...a.transcript.slice(0, 5), ...a.transcript.slice(6)])
    expect(verifyTranscript(cut).status).not.toBe('complete')
  })

  it('the custom strategy example plays legal records, sweeping space in order, to a complete game', async () => {
    const seen: string[] = []
    const inner = sweeper('library/sweeper')
    const watched: PlayerStrategy = {
      setup: (ruleset) => inner.setup(ruleset),
      record: async (ctx) => {
        const text = await inner.record(ctx)
        if (typeof text === 'string') {
          expect(readRecord(ctx.ruleset, ctx.state, ctx.turn, text, 'strict').ok).toBe(true)
          if (entitlements(ctx.ruleset, ctx.state, ctx.turn).conventionalPool > 0) seen.push(text)
        }
        return text
      },
    }
    const [a, b] = await playInMemory('library/sweeper', [watched, randomStrategy(seededRandom('library/random'))])
    expect(a.verdict.status).toBe('complete')
    expect(b.verdict).toEqual(a.verdict)
    expect(seen.join(' ').split(' ').slice(0, 6)).toEqual(['Rv1', 'Rv2', 'Rv3', 'Rv4', 'Rv5', 'Rw1'])
  })

  it('the verification example gives the vectors their verdicts (SPEC §12.7)', () => {
    expect(describeVerdict(verifyPaths([vector('honest-a.transcript'), vector('honest-b.transcript')]))).toMatch(
      /^complete: scores \d+:\d+/,
    )
    const equivocation = verifyPaths([vector('equivocation.transcript')])
    expect(equivocation.status).toBe('offence')
    expect(describeVerdict(equivocation)).toMatch(/^offence: equivocation by [AB]/)
  })

  it('the examples run as documented, with Node alone (type stripping, the package by its name)', () => {
    const run = spawnSync(
      process.execPath,
      ['docs/examples/verification.ts', 'protocol/vectors/honest-a.transcript', 'protocol/vectors/honest-b.transcript'],
      { cwd: ROOT, encoding: 'utf8' },
    )
    expect(run.stderr).toBe('')
    expect(run.stdout).toMatch(/^complete: scores \d+:\d+, [AB] wins\n$/)
  })

  it('docs/LIBRARY.md shows each example exactly as the file this test runs', () => {
    const doc = readFileSync(join(ROOT, 'docs', 'LIBRARY.md'), 'utf8')
    const blocks = [...doc.matchAll(/<!-- example: (\S+) -->\n```ts\n([\s\S]*?)```\n/g)]
    expect(blocks.map((m) => m[1])).toEqual([
      'docs/examples/in-memory-game.ts',
      'docs/examples/verification.ts',
      'docs/examples/custom-strategy.ts',
    ])
    for (const [, file = '', code] of blocks) expect(code).toBe(readFileSync(join(ROOT, file), 'utf8'))
  })

  it("one version: `spaceships --version` prints package.json's", async () => {
    const r = await cli(['--version'])
    expect(r.out.trim()).toBe(pkg.version)
    expect(pkg.version).toMatch(/^0\.\d+\.\d+$/)
    expect(readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8')).toContain(`## ${pkg.version}`)
  })
})
