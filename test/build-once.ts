/**
 * Vitest global setup: the tests that run the package as installed (by its name through
 * package.json `exports`, the executable, the verifier's worker threads) need dist/. `npm test`
 * builds first; a bare `vitest run` in a fresh clone builds here, once, when dist/ is missing.
 */
import { execFileSync } from 'node:child_process'
import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

export default function setup(): void {
  const root = join(dirname(fileURLToPath(import.meta.url)), '..')
  if (existsSync(join(root, 'dist', 'index.js'))) return
  // The same build as `npm run build`, so the executable keeps its execute bit.
  execFileSync(process.execPath, [join(root, 'scripts', 'build.mjs')], { cwd: root, stdio: 'inherit' })
}
