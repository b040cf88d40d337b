/**
 * The package's version, read from package.json: the one place it is written. The file sits one
 * level below the package root both as `src/version.ts` and as `dist/version.js`.
 */
import { readFileSync } from 'node:fs'

function packageVersion(): string {
  const pkg: unknown = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'))
  const version = typeof pkg === 'object' && pkg !== null && 'version' in pkg ? pkg.version : undefined
  if (typeof version !== 'string') throw new Error('package.json has no version')
  return version
}

export const VERSION = packageVersion()
