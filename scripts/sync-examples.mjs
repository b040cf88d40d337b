/**
 * `npm run format` step: docs/LIBRARY.md shows each example of docs/examples/ verbatim (a test
 * checks it), so after the formatter rewrites an example its block in the document is rewritten
 * from the file.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const path = join(root, 'docs', 'LIBRARY.md')
const doc = readFileSync(path, 'utf8')
const synced = doc.replace(
  /(<!-- example: (\S+) -->\n```ts\n)([\s\S]*?)(```\n)/g,
  (_all, open, file, _code, close) => open + readFileSync(join(root, file), 'utf8') + close,
)
if (synced !== doc) writeFileSync(path, synced)
