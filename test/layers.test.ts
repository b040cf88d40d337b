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
 *
 * DESIGN.md §7: `core/` knows no game; each game is a folder of `games/` whose layers point down
 * inside it and into the core, never into another game. `cli` and `bench` are the programs.
 */
const S = 'games/spaceships'
const MAP: Record<string, readonly string[]> = {
  'core/commit': [],
  'core/wire': ['core/commit'],
  'core/transcript': ['core/wire', 'core/commit'],
  'core/session': ['core/transcript', 'core/wire', 'core/commit'],
  'core/net': ['core/session'],
  // Witnessed games (protocol/NOTARY.md): the pure codecs, deposits, proofs and the log checker.
  'core/notary': ['core/wire', 'core/commit'],
  // The notary itself: node:sqlite, and the injected clock of the session layer (never its state machine).
  'core/notary-service': ['core/notary', 'core/session/clock.ts', 'core/wire', 'core/commit'],
  // The notary's libp2p service and the players' client.
  'core/notary-net': ['core/notary-service', 'core/net'],
  // The many-player mesh (protocol/SPAAACE-PEERS.md §8): over the session's channel and clock,
  // persisting through the transcript store; it knows no envelope layout (the game's codec does).
  // Its libp2p streams through the core's stream channel (`core/mesh/libp2p.ts`).
  'core/mesh': ['core/net', 'core/session', 'core/transcript', 'core/commit', 'core/log'],
  'core/log': [],
  // Reads package.json: the CLI's --version.
  'core/version': [],
  [`${S}/rules`]: [],
  [`${S}/protocol`]: ['core/transcript', 'core/wire', 'core/commit', `${S}/rules`],
  [`${S}/referee`]: [`${S}/rules`],
  // A witnessed game's clock: the margin and the seal rule of PROTOCOL-4.md §4.6, §9, one definition
  // that the notary's registrar applies when it seals and the verifier when it decides (SPEC §12.7a).
  [`${S}/verify`]: [`${S}/protocol`, `${S}/rules`, 'core/notary', `${S}/witness/registrar.ts`],
  // Only the message types of the protocol layer.
  [`${S}/knowledge`]: [`${S}/protocol/messages.ts`, `${S}/rules`],
  [`${S}/session`]: ['core/session', 'core/log', `${S}/verify`, `${S}/protocol`, `${S}/knowledge`, `${S}/rules`],
  // The bots see the strategy interface the session defines, nothing else of the session.
  [`${S}/bot`]: [`${S}/knowledge`, `${S}/rules`, `${S}/session/strategy.ts`],
  [`${S}/ui`]: [`${S}/session`, `${S}/knowledge`, `${S}/rules`],
  [`${S}/net`]: ['core/net', 'core/log', 'core/notary-net', `${S}/session`, `${S}/witness`],
  [`${S}/arena`]: [`${S}/net`, `${S}/session`, `${S}/bot`],
  [`${S}/pool`]: [`${S}/verify`],
  // Witnessed games: what a notary needs to know of the game (its Registrar), on the core's notary.
  [`${S}/witness`]: ['core/notary', 'core/notary-service/registrar.ts', `${S}/protocol`],
  // Spaaace! imports nothing of Spaceships (rules, session, ...) nor of cli or net. Its referee
  // reads records with its own rules engine only.
  'games/spaaace/rules': [],
  'games/spaaace/referee': ['games/spaaace/rules'],
  // The bots and their arena: the engine, the record's reader and the seeded source.
  'games/spaaace/bot': ['games/spaaace/referee', 'games/spaaace/rules'],
  // The terminal game's screen and turn: text from the public state, bots for the other seats.
  'games/spaaace/ui': ['games/spaaace/bot', 'games/spaaace/referee', 'games/spaaace/rules'],
  // The many-player protocol's bytes (protocol/SPAAACE-PEERS.md §2-§4): pure codecs on the core's
  // hashes, keys and readers, and the rules' terms and order syntax.
  'games/spaaace/peers': ['core/commit', 'core/wire', 'games/spaaace/rules'],
  // Witnessed Spaaace! (protocol/SPAAACE-WITNESSED.md): the notary's n-player codecs and registrar
  // on the core's notary, the game's envelopes and genesis read at header level only.
  'games/spaaace/witness': [
    'core/commit',
    'core/wire',
    'core/notary',
    'core/notary-service/registrar.ts',
    'games/spaaace/peers',
    'games/spaaace/rules',
  ],
  // The game's envelopes as the core's mesh reads them: the one layer that knows both.
  'games/spaaace/mesh': ['core/mesh', 'core/wire', 'games/spaaace/peers'],
  // The verifier of Spaaace! transcripts (§13): the rule that decides, and the referee's JSON.
  'games/spaaace/verify': ['games/spaaace/peers', 'games/spaaace/witness', 'games/spaaace/referee', 'core/wire'],
  // The honest node (§6): the rule that decides over the mesh, its files, its choosers (bots and
  // the person's prompt), the local game on a virtual clock and the node over libp2p; and the
  // witnessed node's check-ins through the notary's client (SPAAACE-WITNESSED §8).
  'games/spaaace/node': [
    'games/spaaace/mesh',
    'games/spaaace/peers',
    'games/spaaace/witness',
    'core/notary',
    'core/notary-net',
    'games/spaaace/bot',
    'games/spaaace/referee',
    'games/spaaace/rules',
    'games/spaaace/ui/game.ts',
    'core/mesh',
    'core/session',
    'core/transcript',
    'core/net',
    'core/commit',
    'core/wire',
    'core/log',
  ],
  // The Spaaace! entry point (package.json `exports`: `spaceships/spaaace`).
  'games/spaaace': [
    'games/spaaace/peers',
    'games/spaaace/ui',
    'games/spaaace/bot',
    'games/spaaace/referee',
    'games/spaaace/rules',
  ],
  bench: [`${S}/arena`, `${S}/net`, `${S}/pool`, 'games/spaaace/node', 'games/spaaace/verify'],
  // The package's public entry points (package.json `exports`).
  api: [`${S}/net`, `${S}/session`, `${S}/bot`, `${S}/referee`, `${S}/verify`, `${S}/rules`],
  cli: [
    'api',
    'bench',
    'games/spaaace',
    'games/spaaace/node',
    'games/spaaace/verify',
    `${S}/ui`,
    `${S}/witness`,
    'games/spaaace/witness',
    'core/version',
    'core/wire',
    'core/notary-net',
    'core/notary-service',
  ],
}

/** The layers of the core: none of them may reach a game, directly or through another layer. */
const CORE = Object.keys(MAP).filter((l) => l.startsWith('core/'))

/** DESIGN.md §4: pure layers. Their runtime import graph reaches no Node module that does I/O. */
const PURE = [
  `${S}/rules`,
  `${S}/referee`,
  `${S}/verify`,
  `${S}/knowledge`,
  `${S}/protocol`,
  'core/commit',
  'core/wire',
  'core/transcript',
  'core/notary',
  'games/spaaace/rules',
  'games/spaaace/referee',
  'games/spaaace/bot',
  'games/spaaace/ui',
  'games/spaaace/peers',
  'games/spaaace/mesh',
  'games/spaaace/verify',
  'games/spaaace/witness',
] as const
/** noble's cryptographic primitives: pure computation, allowed in pure layers. */
const NOBLE = /^@noble\/(hashes|curves|ciphers)\//

/** Node modules that compute and touch nothing outside the process. */
const COMPUTE_ONLY = new Set(['node:crypto', 'node:zlib'])
/** The rules engines: no crypto, no clock, no I/O, so no Node module at all. */
const NO_NODE = new Set([
  `${S}/rules`,
  `${S}/referee`,
  'games/spaaace/rules',
  'games/spaaace/referee',
  'games/spaaace/bot',
  'games/spaaace/ui',
])

function layerOf(file: string): string {
  const rel = relative(SRC, file).split('\\').join('/')
  const parts = rel.split('/')
  // A game's layers are its folders (games/NAME/rules); a file beside them is its entry point.
  if (parts[0] === 'games') return parts.length > 3 ? parts.slice(0, 3).join('/') : parts.slice(0, 2).join('/')
  // The core's layers are its folders (core/net) and its files (core/log.ts is `core/log`).
  if (parts[0] === 'core') return parts.slice(0, 2).join('/').replace(/\.ts$/, '')
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
  it('DESIGN §7: the core imports no game, directly or through any layer it may import', () => {
    for (const l of CORE)
      expect(
        [...allowed(l)].filter((t) => !t.startsWith('core/')),
        l,
      ).toEqual([])
    const intoGames = [...IMPORTS.values()]
      .flat()
      .filter((i) => layerOf(i.from).startsWith('core/') && i.to.startsWith(SRC) && !layerOf(i.to).startsWith('core/'))
    expect(intoGames.map((i) => `${rel(i.from)} -> ${rel(i.to)}`)).toEqual([])
  })

  it('DESIGN §7: a game imports no other game', () => {
    const games = (l: string): string | undefined => (l.startsWith('games/') ? l.split('/')[1] : undefined)
    const across = [...IMPORTS.values()].flat().filter((i) => {
      const [a, b] = [games(layerOf(i.from)), i.to.startsWith(SRC) ? games(layerOf(i.to)) : undefined]
      return a !== undefined && b !== undefined && a !== b
    })
    expect(across.map((i) => `${rel(i.from)} -> ${rel(i.to)}`)).toEqual([])
  })

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
        if (/^export \*/.test(line) && !(rel(f) === 'index.ts' && /from '\.\/[\w/]+\/index\.js'/.test(line)))
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
          // A package in a pure layer's graph would bring its own I/O; only noble's primitives may
          // (hashes, curves, ciphers: computation on bytes, nothing else).
          if (!node && !NOBLE.test(to)) bad.push(`${rel(f)} reaches ${to} through ${by}`)
        }
      }
      expect(bad).toEqual([])
    },
  )

  it('the checker itself refuses an upward import, a bot reaching into the session, bench importing cli, and sees node:fs behind the store', () => {
    const at = (p: string): string => join(SRC, p)
    const edges: Import[] = [
      { from: at(`${S}/verify/verify.ts`), to: at(`${S}/session/session.ts`), typeOnly: false },
      { from: at(`${S}/bot/easy.ts`), to: at(`${S}/session/session.ts`), typeOnly: true },
      { from: at('bench/run.ts'), to: at('cli/verify.ts'), typeOnly: false },
      { from: at(`${S}/ui/terminal.ts`), to: at(`${S}/referee/adjudicate.ts`), typeOnly: false },
      { from: at(`${S}/bot/easy.ts`), to: at(`${S}/session/strategy.ts`), typeOnly: false },
      { from: at(`${S}/arena/arena.ts`), to: at('core/commit/keys.ts'), typeOnly: false },
      { from: at('games/spaaace/rules/tick.ts'), to: at(`${S}/rules/coords.ts`), typeOnly: false },
      { from: at('games/spaaace/referee/referee.ts'), to: at(`${S}/session/session.ts`), typeOnly: true },
      { from: at('games/spaaace/rules/tick.ts'), to: at('games/spaaace/referee/json.ts'), typeOnly: false },
      { from: at('games/spaaace/referee/referee.ts'), to: at('cli/net.ts'), typeOnly: false },
      { from: at('core/session/journal.ts'), to: at(`${S}/rules/setup.ts`), typeOnly: true },
      { from: at('core/net/stream-channel.ts'), to: at(`${S}/protocol/messages.ts`), typeOnly: false },
    ]
    expect(violations(edges)).toEqual([
      `${S}/verify/verify.ts (${S}/verify) -> ${S}/session/session.ts`,
      `${S}/bot/easy.ts (${S}/bot) -> ${S}/session/session.ts`,
      'bench/run.ts (bench) -> cli/verify.ts',
      `${S}/ui/terminal.ts (${S}/ui) -> ${S}/referee/adjudicate.ts`,
      `games/spaaace/rules/tick.ts (games/spaaace/rules) -> ${S}/rules/coords.ts`,
      `games/spaaace/referee/referee.ts (games/spaaace/referee) -> ${S}/session/session.ts`,
      'games/spaaace/rules/tick.ts (games/spaaace/rules) -> games/spaaace/referee/json.ts',
      'games/spaaace/referee/referee.ts (games/spaaace/referee) -> cli/net.ts',
      `core/session/journal.ts (core/session) -> ${S}/rules/setup.ts`,
      `core/net/stream-channel.ts (core/net) -> ${S}/protocol/messages.ts`,
    ])
    // The graph walker follows runtime imports to Node's modules: the store adapter writes files.
    expect(runtimeGraph(at('core/session/file-store.ts')).has('node:fs')).toBe(true)
    expect(runtimeGraph(at(`${S}/net/game.ts`)).has('node:fs')).toBe(true)
    // `import type` is erased: keys.ts names secrets.ts's type only, so it does not load it.
    expect(runtimeGraph(at('core/commit/keys.ts')).has(at('core/commit/secrets.ts'))).toBe(false)
    expect(runtimeGraph(at('core/commit/hash.ts')).has(at('core/commit/sha256.ts'))).toBe(true)
  })
})
