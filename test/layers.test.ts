/**
 * DESIGN.md §4: the layers of src/ and the direction of their dependencies. Every import in src/
 * is read with the TypeScript parser and checked against the map below, so a new import that
 * points up (or sideways) fails here.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

const SRC = resolve(dirname(fileURLToPath(import.meta.url)), '..', 'src')

/**
 * What each layer may import directly: a layer (and, through it, whatever that layer may import)
 * or one file (`dir/file.ts`, nothing beyond it). A layer may always import itself.
 */
const MAP: Record<string, readonly string[]> = {
  rules: [],
  commit: [],
  transcript: ['commit', 'rules'],
  referee: ['rules'],
  verify: ['transcript', 'commit', 'rules'],
  // Only the message types of the transcript layer.
  knowledge: ['transcript/messages.ts', 'rules'],
  log: [],
  // Reads package.json: the CLI's --version.
  version: [],
  session: ['verify', 'transcript', 'commit', 'knowledge', 'rules', 'log'],
  // The bots see the strategy interface the session defines, nothing else of the session.
  bot: ['knowledge', 'rules', 'session/strategy.ts'],
  ui: ['session', 'knowledge', 'rules'],
  net: ['session', 'log'],
  arena: ['net', 'session', 'bot'],
  pool: ['verify'],
  bench: ['arena', 'net', 'pool'],
  // The package's public entry points (package.json `exports`).
  api: ['net', 'session', 'bot', 'referee', 'verify', 'rules'],
  // DESIGN.md §7: a game is a module; Spaaace! imports nothing of Spaceships (rules, session, ...)
  // nor of cli or net. Its referee reads records with its own rules engine only.
  'games/spaaace/rules': [],
  'games/spaaace/referee': ['games/spaaace/rules'],
  cli: [
    'games/spaaace/referee',
    'games/spaaace/rules',
    'api',
    'bench',
    'arena',
    'pool',
    'net',
    'ui',
    'session',
    'bot',
    'referee',
    'verify',
    'knowledge',
    'transcript',
    'commit',
    'rules',
    'log',
    'version',
  ],
}

/** DESIGN.md §4: pure layers. Their runtime import graph reaches no Node module that does I/O. */
const PURE = [
  'rules',
  'referee',
  'verify',
  'knowledge',
  'transcript',
  'commit',
  'games/spaaace/rules',
  'games/spaaace/referee',
] as const
/** Node modules that compute and touch nothing outside the process. */
const COMPUTE_ONLY = new Set(['node:crypto', 'node:zlib'])
/** The rules engine: no crypto, no clock, no I/O, so no Node module at all. */
const NO_NODE = new Set(['rules', 'referee', 'games/spaaace/rules', 'games/spaaace/referee'])

function layerOf(file: string): string {
  const rel = relative(SRC, file).split('\\').join('/')
  // A game's layers are its folders: games/NAME/rules, games/NAME/referee.
  if (rel.startsWith('games/')) return rel.split('/').slice(0, 3).join('/')
  const slash = rel.indexOf('/')
  if (slash >= 0) return rel.slice(0, slash)
  return rel === 'index.ts' ? 'api' : rel.replace(/\.ts$/, '')
}

/** Every layer and file a layer may import, the map followed downwards. */
function allowed(layer: string, map: Record<string, readonly string[]> = MAP): Set<string> {
  const out = new Set<string>([layer])
  const visit = (l: string): void => {
    for (const t of map[l] ?? []) {
      if (out.has(t)) continue
      out.add(t)
      if (!t.endsWith('.ts')) visit(t)
    }
  }
  visit(layer)
  return out
}

interface Import {
  readonly from: string
  /** A resolved file under src/, or the bare specifier of a package or Node module. */
  readonly to: string
  /** `import type` / `export type`: erased, no runtime dependency. */
  readonly typeOnly: boolean
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sourceFiles(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  )
}

function importsOf(file: string): Import[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true)
  const out: Import[] = []
  const add = (spec: string, typeOnly: boolean): void => {
    const to = spec.startsWith('.') ? resolve(dirname(file), spec).replace(/\.js$/, '.ts') : spec
    out.push({ from: file, to, typeOnly })
  }
  const walk = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier))
      add(node.moduleSpecifier.text, node.importClause?.phaseModifier === ts.SyntaxKind.TypeKeyword)
    else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier !== undefined &&
      ts.isStringLiteral(node.moduleSpecifier)
    )
      add(node.moduleSpecifier.text, node.isTypeOnly)
    else if (ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword) {
      const [arg] = node.arguments
      if (arg !== undefined && ts.isStringLiteral(arg)) add(arg.text, false)
    }
    ts.forEachChild(node, walk)
  }
  walk(source)
  return out
}

const FILES = sourceFiles(SRC)
const IMPORTS = new Map(FILES.map((f) => [f, importsOf(f)]))
const rel = (f: string): string => relative(SRC, f).split('\\').join('/')

/** The imports among src/ files that the map refuses, as `from -> to` lines. */
function violations(imports: readonly Import[], map: Record<string, readonly string[]> = MAP): string[] {
  const bad: string[] = []
  for (const i of imports) {
    if (!i.to.startsWith(SRC)) continue
    const from = layerOf(i.from)
    const ok = allowed(from, map)
    if (!ok.has(layerOf(i.to)) && !ok.has(rel(i.to))) bad.push(`${rel(i.from)} (${from}) -> ${rel(i.to)}`)
  }
  return bad
}

/** Every module the runtime graph from `file` loads: src/ files and bare specifiers. */
function runtimeGraph(file: string): Map<string, string> {
  // Each reached module with the src/ file that first imported it, for the message.
  const seen = new Map<string, string>([[file, '']])
  const queue = [file]
  for (let f = queue.shift(); f !== undefined; f = queue.shift()) {
    for (const i of IMPORTS.get(f) ?? []) {
      if (i.typeOnly || seen.has(i.to)) continue
      seen.set(i.to, rel(f))
      if (i.to.startsWith(SRC)) queue.push(i.to)
    }
  }
  return seen
}

describe('DESIGN §4: layers, dependencies pointing down only', () => {
  it('every module of src/ belongs to a layer of the map', () => {
    const unknown = FILES.filter((f) => !(layerOf(f) in MAP)).map(rel)
    expect(unknown).toEqual([])
  })

  it('every import between src/ modules points down the map', () => {
    expect(violations([...IMPORTS.values()].flat())).toEqual([])
  })

  it('nothing but the cli imports the cli (bench included), and the relative imports resolve', () => {
    const intoCli = [...IMPORTS.values()]
      .flat()
      .filter((i) => layerOf(i.to) === 'cli' && i.to.startsWith(SRC) && layerOf(i.from) !== 'cli')
    expect(intoCli.map((i) => `${rel(i.from)} -> ${rel(i.to)}`)).toEqual([])
    const missing = [...IMPORTS.values()].flat().filter((i) => i.to.startsWith(SRC) && !IMPORTS.has(i.to))
    expect(missing.map((i) => `${rel(i.from)} -> ${rel(i.to)}`)).toEqual([])
  })

  it("index modules are the package's entry points: they name what they export, and src/ imports none of them", () => {
    const indexes = FILES.filter((f) => f.endsWith('/index.ts'))
    const starred: string[] = []
    for (const f of indexes) {
      for (const line of readFileSync(f, 'utf8').split('\n')) {
        // Only the root re-exports whole entry points (each a list of names itself).
        if (/^export \*/.test(line) && !(rel(f) === 'index.ts' && /from '\.\/\w+\/index\.js'/.test(line)))
          starred.push(`${rel(f)}: ${line}`)
      }
    }
    expect(starred).toEqual([])
    const intoIndex = [...IMPORTS.values()]
      .flat()
      .filter((i) => i.to.endsWith('/index.ts') && rel(i.from) !== 'index.ts')
    expect(intoIndex.map((i) => `${rel(i.from)} -> ${rel(i.to)}`)).toEqual([])
    const byName = [...IMPORTS.values()].flat().filter((i) => i.to === 'spaceships' || i.to.startsWith('spaceships/'))
    expect(byName.map((i) => `${rel(i.from)} -> ${i.to}`)).toEqual([])
  })

  it.each(PURE)(
    'the runtime import graph of %s reaches no Node I/O module (pure: files only at the edges)',
    (layer) => {
      const bad: string[] = []
      for (const f of FILES.filter((x) => layerOf(x) === layer)) {
        for (const [to, by] of runtimeGraph(f)) {
          if (to.startsWith(SRC)) continue
          const node = to.startsWith('node:')
          if (node && (NO_NODE.has(layer) || !COMPUTE_ONLY.has(to))) bad.push(`${rel(f)} reaches ${to} through ${by}`)
          // A package in a pure layer's graph would bring its own I/O; only the reference hashes may.
          if (!node && !to.startsWith('@noble/hashes/')) bad.push(`${rel(f)} reaches ${to} through ${by}`)
        }
      }
      expect(bad).toEqual([])
    },
  )

  it('the checker itself refuses an upward import, a bot reaching into the session, bench importing cli, and sees node:fs behind the store', () => {
    const at = (p: string): string => join(SRC, p)
    const edges: Import[] = [
      { from: at('verify/verify.ts'), to: at('session/session.ts'), typeOnly: false },
      { from: at('bot/easy.ts'), to: at('session/session.ts'), typeOnly: true },
      { from: at('bench/run.ts'), to: at('cli/verify.ts'), typeOnly: false },
      { from: at('ui/terminal.ts'), to: at('referee/adjudicate.ts'), typeOnly: false },
      { from: at('bot/easy.ts'), to: at('session/strategy.ts'), typeOnly: false },
      { from: at('arena/arena.ts'), to: at('commit/keys.ts'), typeOnly: false },
      { from: at('games/spaaace/rules/tick.ts'), to: at('rules/coords.ts'), typeOnly: false },
      { from: at('games/spaaace/referee/referee.ts'), to: at('session/session.ts'), typeOnly: true },
      { from: at('games/spaaace/rules/tick.ts'), to: at('games/spaaace/referee/json.ts'), typeOnly: false },
      { from: at('games/spaaace/referee/referee.ts'), to: at('cli/net.ts'), typeOnly: false },
    ]
    expect(violations(edges)).toEqual([
      'verify/verify.ts (verify) -> session/session.ts',
      'bot/easy.ts (bot) -> session/session.ts',
      'bench/run.ts (bench) -> cli/verify.ts',
      'ui/terminal.ts (ui) -> referee/adjudicate.ts',
      'games/spaaace/rules/tick.ts (games/spaaace/rules) -> rules/coords.ts',
      'games/spaaace/referee/referee.ts (games/spaaace/referee) -> session/session.ts',
      'games/spaaace/rules/tick.ts (games/spaaace/rules) -> games/spaaace/referee/json.ts',
      'games/spaaace/referee/referee.ts (games/spaaace/referee) -> cli/net.ts',
    ])
    // The graph walker follows runtime imports to Node's modules: the store adapter writes files.
    expect(runtimeGraph(at('session/file-store.ts')).has('node:fs')).toBe(true)
    expect(runtimeGraph(at('net/game.ts')).has('node:fs')).toBe(true)
    // `import type` is erased: keys.ts names secrets.ts's type only, so it does not load it.
    expect(runtimeGraph(at('commit/keys.ts')).has(at('commit/secrets.ts'))).toBe(false)
    expect(runtimeGraph(at('commit/hash.ts')).has(at('commit/sha256.ts'))).toBe(true)
  })
})
