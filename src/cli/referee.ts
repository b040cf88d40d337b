/** `spaceships referee FILE`: adjudicates an open game record (protocol/GAME-RECORD.md). */
import { adjudicate } from '../games/spaceships/referee/adjudicate.js'
import { parseGameRecord } from '../games/spaceships/referee/file.js'
import { renderAdjudication } from '../games/spaceships/referee/render.js'
import { type CliIo, EXIT, fileReason } from './io.js'

export async function refereeCommand(path: string, options: { json: boolean }, io: CliIo): Promise<number> {
  let bytes: Uint8Array
  try {
    bytes = await io.readFile(path)
  } catch (e) {
    // In words ("no such file or directory"), not Node's "EISDIR: illegal operation on a directory, read".
    const code = (e as NodeJS.ErrnoException).code
    const message = code !== undefined ? fileReason(code) : e instanceof Error ? e.message : String(e)
    if (options.json)
      io.stdout(`${JSON.stringify({ status: 'unreadable', error: { code: 'file.io', line: 0, message } }, null, 2)}\n`)
    else io.stderr(`spaceships referee: cannot read ${path}: ${message}\n`)
    return EXIT.unreadable
  }
  const parsed = parseGameRecord(bytes)
  if (!parsed.ok) {
    if (options.json) io.stdout(`${JSON.stringify({ status: 'unreadable', error: parsed.error }, null, 2)}\n`)
    else io.stderr(`${path}:${parsed.error.line}: ${parsed.error.message} (${parsed.error.code})\n`)
    return EXIT.unreadable
  }
  const result = adjudicate(parsed.value)
  io.stdout(options.json ? `${JSON.stringify(result, null, 2)}\n` : renderAdjudication(result))
  switch (result.status) {
    case 'complete':
    case 'unfinished':
      return EXIT.ok
    case 'illegal':
      return EXIT.illegal
    case 'malformed':
      return EXIT.unreadable
  }
}
