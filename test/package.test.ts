/**
 * What `npm pack` puts in the package (package.json `files`): the built program and library,
 * the protocol's documents, README, LICENSE and CHANGELOG; no benchmarks, test vectors, source
 * maps or sources. Listed with `npm pack --dry-run` (about a second; it packs the dist/ on disk).
 */
import { spawnSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { dirname, join, posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import { beforeAll, describe, expect, it } from 'vitest'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  engines: { node: string }
  bin: Record<string, string>
  exports: Record<string, string | { types: string; default: string }>
  files: string[]
}

interface Packed {
  readonly files: readonly { readonly path: string; readonly size: number }[]
  readonly unpackedSize: number
}

let packed: Packed
let paths: Set<string>

beforeAll(() => {
  // Scripts are ignored: `prepare` would rebuild dist/ under the other tests' feet.
  const r = spawnSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], { cwd: ROOT, encoding: 'utf8' })
  expect(r.status, r.stderr).toBe(0)
  const [first] = JSON.parse(r.stdout) as Packed[]
  if (first === undefined) throw new Error('npm pack listed no package')
  packed = first
  paths = new Set(packed.files.map((f) => f.path))
})

describe('npm pack: the package contents (package.json files)', () => {
  it('ships the executable, every entry point of exports with its types, and the documents', () => {
    const wanted = ['package.json', 'README.md', 'LICENSE', 'CHANGELOG.md', 'docs/LIBRARY.md', 'protocol/SPEC.md', 'protocol/NOTATION.md', 'protocol/GAME-RECORD.md']
    for (const target of Object.values(pkg.bin)) wanted.push(posix.normalize(target))
    for (const target of Object.values(pkg.exports)) {
      if (typeof target === 'string') wanted.push(posix.normalize(target))
      else wanted.push(posix.normalize(target.default), posix.normalize(target.types))
    }
    // `verify --jobs` starts this file as a worker thread by its path.
    wanted.push('dist/pool/verify-worker.js')
    expect(wanted.filter((p) => !paths.has(p))).toEqual([])
  })

  it('ships no benchmarks, test vectors, source maps, sources or tests, and nothing large', () => {
    const refused = [...paths].filter((p) => p.startsWith('dist/bench/') || p.startsWith('protocol/vectors/') || p.endsWith('.map') || p.startsWith('src/') || p.startsWith('test/') || p.startsWith('bench/'))
    expect(refused).toEqual([])
    expect(packed.files.filter((f) => f.size > 100_000).map((f) => f.path)).toEqual([])
    expect(packed.unpackedSize).toBeLessThan(1_500_000)
  })

  it('every relative import of a shipped module is shipped too', () => {
    const missing: string[] = []
    for (const p of paths) {
      if (!p.endsWith('.js')) continue
      const text = readFileSync(join(ROOT, p), 'utf8')
      for (const m of text.matchAll(/(?:from |import\()\s*['"](\.{1,2}\/[^'"]+)['"]/g)) {
        const target = posix.normalize(posix.join(posix.dirname(p), m[1] ?? ''))
        if (!paths.has(target)) missing.push(`${p} -> ${target}`)
      }
    }
    expect(missing).toEqual([])
  })

  it('the executable runs on the Node versions engines names and says so on older ones (bin.ts)', () => {
    const bin = readFileSync(join(ROOT, 'src', 'cli', 'bin.ts'), 'utf8')
    const minimum = /MINIMUM_NODE: readonly \[number, number\] = \[(\d+), (\d+)\]/.exec(bin)
    expect(minimum).not.toBeNull()
    expect(pkg.engines.node).toBe(`>=${minimum?.[1] ?? ''}.${minimum?.[2] ?? ''}`)
    expect(readFileSync(join(ROOT, 'dist', 'cli', 'bin.js'), 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true)
  })
})
