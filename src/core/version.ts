/**
 * The package's version, read from package.json: the one place it is written. The file sits two
 * levels below the package root both as `src/core/version.ts` and as `dist/core/version.js`.
 */
import { readFileSync } from 'node:fs'

function packageVersion(): string {
  const pkg: unknown = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8'))
  const version = typeof pkg === 'object' && pkg !== null && 'version' in pkg ? pkg.version : undefined
  if (typeof version !== 'string') throw new Error('package.json has no version')
  return version
}

export const VERSION = packageVersion()
