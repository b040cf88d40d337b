/**
 * `npm run build`: empties dist/ (so no stale module or map from an older build is packed),
 * compiles, and marks the executable executable. tsc writes dist/cli/bin.js without its execute
 * bit; npm sets it when it links a bin, but npx keeps its link from the first run and never sets
 * it again, so without the chmod `npx spaceships` fails with "Permission denied" after any
 * rebuild (`npm test`'s pretest, `npm pack`'s prepare).
 */
import { execFileSync } from 'node:child_process'
import process from 'node:process'
import { chmodSync, readFileSync, rmSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
rmSync(join(root, 'dist'), { recursive: true, force: true })
execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.build.json'], {
  cwd: root,
  stdio: 'inherit',
})
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
for (const target of Object.values(pkg.bin)) chmodSync(join(root, target), 0o755)
