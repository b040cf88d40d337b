#!/usr/bin/env node
/**
 * The `spaceships` executable. It turns on Node's on-disk compile cache before loading the CLI,
 * so every start after the first skips compiling the modules again (issue 6: a verifier's cold
 * start), then hands over to `main.ts`.
 */
import module from 'node:module'

module.enableCompileCache()
const { run } = await import('./main.js')
const code = await run(process.argv.slice(2))
process.exitCode = code
// A finished command exits even if a library left a handle open (a socket mid-close).
setTimeout(() => process.exit(code), 1000).unref()
