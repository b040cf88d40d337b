/**
 * What `npm pack` puts in the package (package.json `files`): the built program and library,
 * the protocol's documents, README, LICENSE and CHANGELOG; no benchmarks, test vectors, source
 * maps or sources. Listed with `npm pack --dry-run` (about a second; it packs the dist/ on disk).
 */
import { spawnSync } from 'node:child_process'
import {
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, posix } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  version: string
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
    const wanted = [
      'package.json',
      'README.md',
      'LICENSE',
      'CHANGELOG.md',
      'docs/LIBRARY.md',
      'protocol/SPEC.md',
      'protocol/NOTATION.md',
      'protocol/GAME-RECORD.md',
    ]
    for (const target of Object.values(pkg.bin)) wanted.push(posix.normalize(target))
    for (const target of Object.values(pkg.exports)) {
      if (typeof target === 'string') wanted.push(posix.normalize(target))
      else wanted.push(posix.normalize(target.default), posix.normalize(target.types))
    }
    // `verify --jobs` starts this file as a worker thread by its path.
    wanted.push('dist/games/spaceships/pool/verify-worker.js')
    expect(wanted.filter((p) => !paths.has(p))).toEqual([])
  })

  it('ships no benchmarks, test vectors, source maps, sources or tests, and nothing large', () => {
    const refused = [...paths].filter(
      (p) =>
        p.startsWith('dist/bench/') ||
        p.startsWith('protocol/vectors/') ||
        p.endsWith('.map') ||
        p.startsWith('src/') ||
        p.startsWith('test/') ||
        p.startsWith('bench/'),
    )
    expect(refused).toEqual([])
    // The normative spec (protocol/SPEC.md, about 110 KB, both versions) is read whole by a second
    // team: a document may be twice what any other file may.
    const limit = (path: string): number => (path.startsWith('protocol/') && path.endsWith('.md') ? 200_000 : 100_000)
    expect(packed.files.filter((f) => f.size > limit(f.path)).map((f) => f.path)).toEqual([])
    // About 2.5 MB with protocol 4, the notary and its spec (NOTARY.md, PROTOCOL-4.md), Spaaace!
    // among peers and witnessed (the rules that decide, the nodes, the verifiers; their design
    // documents are not shipped): the bound catches a stray large file or a bundled dependency,
    // not the code's growth.
    expect(packed.unpackedSize).toBeLessThan(3_000_000)
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

  it('the executable keeps its execute bit through a rebuild, so npx still runs it after npm test or npm pack', () => {
    // `npm test` and `npm pack` rebuild dist/ (pretest, prepare); npx keeps the link it made on
    // its first run and never sets the bit again, so the build must (scripts/build.mjs).
    for (const target of Object.values(pkg.bin)) expect(statSync(join(ROOT, target)).mode & 0o111).toBe(0o111)
    // Scripts ignored: npx's first run in a fresh clone links the project and runs its `prepare`,
    // which empties and rebuilds dist/ while the process tests run the executable from it (two
    // CI runs lost modules of dist/cli so).
    const r = spawnSync('npx', ['--no-install', 'spaceships', '--version'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, npm_config_ignore_scripts: 'true' },
    })
    expect(r.stderr).toBe('')
    expect(r.stdout.trim()).toBe(pkg.version)
  })
})

describe('the packed package, installed: a consumer in another directory (docs/LIBRARY.md)', () => {
  let dir = ''
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'spaceships-consumer-'))
    const r = spawnSync('npm', ['pack', '--ignore-scripts', '--json', '--pack-destination', dir], {
      cwd: ROOT,
      encoding: 'utf8',
    })
    expect(r.status, r.stderr).toBe(0)
    const [info] = JSON.parse(r.stdout) as { filename: string }[]
    const installed = join(dir, 'node_modules', 'spaceships')
    mkdirSync(installed, { recursive: true })
    const untar = spawnSync('tar', ['xzf', join(dir, info?.filename ?? ''), '-C', installed, '--strip-components=1'], {
      encoding: 'utf8',
    })
    expect(untar.status, untar.stderr).toBe(0)
    // The dependencies as npm would install them: this project's (no registry in a test).
    for (const name of readdirSync(join(ROOT, 'node_modules')))
      if (name !== 'spaceships' && name !== '.bin')
        symlinkSync(join(ROOT, 'node_modules', name), join(dir, 'node_modules', name))
    writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'consumer', type: 'module', private: true }))
  })
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true })
  })

  it('plays an in-memory game and verifies it through the root entry point, and cannot reach an internal module', () => {
    writeFileSync(
      join(dir, 'game.mjs'),
      [
        "import { DEFAULT_TERMS, formatTranscript, generateKeyPair, makeBot, memoryChannelPair, memoryStore, runSession, seededSecrets, verifyTranscript } from 'spaceships'",
        'const { ends } = memoryChannelPair()',
        "const side = (role, k) => { const secrets = seededSecrets('consumer/' + role); return runSession({ role, keys: generateKeyPair(secrets), terms: DEFAULT_TERMS, secrets, store: memoryStore(), channel: ends[k], strategy: makeBot('easy', 'consumer/' + role) }) }",
        "const [a, b] = await Promise.all([side('A', 0), side('B', 1)])",
        'console.log(a.verdict.status, b.verdict.status, verifyTranscript(formatTranscript(a.transcript)).status)',
        "await import('spaceships/dist/core/commit/keys.js').catch((e) => console.log(e.code))",
      ].join('\n'),
    )
    const r = spawnSync(process.execPath, ['game.mjs'], { cwd: dir, encoding: 'utf8' })
    expect(r.stderr).toBe('')
    expect(r.stdout).toBe('complete complete complete\nERR_PACKAGE_PATH_NOT_EXPORTED\n')
  })

  it('its types check a strict TypeScript consumer: without @types/node for the parts that need no network, with it for spaceships/net', () => {
    const source = (imports: string, body: string): string => `${imports}\n${body}\n`
    writeFileSync(
      join(dir, 'offline.ts'),
      source(
        "import { type PlayerStrategy, type Verdict, adjudicate, parseGameRecord, randomStrategy, seededRandom, verifyFiles } from 'spaceships'\nimport { readRecord } from 'spaceships/rules'",
        "const s: PlayerStrategy = randomStrategy(seededRandom('x'))\nconst v: Verdict = verifyFiles([])\nconst p = parseGameRecord('')\nexport const out = [s, v.status, p.ok ? adjudicate(p.value).status : p.error, readRecord]",
      ),
    )
    writeFileSync(
      join(dir, 'online.ts'),
      source(
        "import { type HostOptions, hostGame } from 'spaceships/net'",
        'export const host: (o: HostOptions) => unknown = hostGame',
      ),
    )
    const tsc = join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')
    const check = (file: string, types: string[]): string => {
      const compilerOptions = {
        strict: true,
        noEmit: true,
        skipLibCheck: false,
        target: 'ES2023',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        types,
      }
      writeFileSync(join(dir, `tsconfig.${file}.json`), JSON.stringify({ compilerOptions, files: [`${file}.ts`] }))
      return spawnSync(process.execPath, [tsc, '-p', `tsconfig.${file}.json`], { cwd: dir, encoding: 'utf8' }).stdout
    }
    expect(check('offline', [])).toBe('')
    expect(check('online', ['node'])).toBe('')
  })
})
