#!/usr/bin/env node
/**
 * The `spaceships` executable. It checks the Node version first (libp2p needs
 * `Promise.withResolvers`, the lazy imports need `require(esm)`: Node 22.12; the notary's
 * database is `node:sqlite`, unflagged from Node 22.13, protocol/NOTARY.md §8), turns on Node's
 * on-disk compile cache so every start after the first skips compiling the modules again, then
 * hands over to `main.ts`.
 */
import module from 'node:module'

/** The oldest Node this program runs on; package.json `engines` says the same. */
const MINIMUM_NODE: readonly [number, number] = [22, 13]
/** sysexits EX_CONFIG: the environment, not the input, is wrong. */
const EXIT_CONFIG = 78

const [major = 0, minor = 0] = process.versions.node.split('.').map(Number)
if (major < MINIMUM_NODE[0] || (major === MINIMUM_NODE[0] && minor < MINIMUM_NODE[1])) {
  process.stderr.write(
    `spaceships: needs Node.js ${MINIMUM_NODE.join('.')} or later; this is ${process.version}. Install a newer Node, or run \`npx spaceships\` inside the project, which brings its own.\n`,
  )
  process.exit(EXIT_CONFIG)
}
module.enableCompileCache()
const { run } = await import('./main.js')
const code = await run(process.argv.slice(2))
process.exitCode = code
// A finished command exits even if a library left a handle open (a socket mid-close).
setTimeout(() => process.exit(code), 1000).unref()
