/**
 * A verification: the verdict of a game from one or both players' transcript files
 * (protocol/SPEC.md §12). The verifier is pure: it is given the files' contents.
 *
 *   node docs/examples/verification.ts protocol/vectors/honest-a.transcript protocol/vectors/honest-b.transcript
 */
import { readFileSync } from 'node:fs'
import { argv } from 'node:process'
import { fileURLToPath } from 'node:url'
import { type Verdict, verifyFiles } from 'spaceships/verify'

/** The verdict of the transcript files at these paths (one game; both players' files or one). */
export function verifyPaths(paths: readonly string[]): Verdict {
  return verifyFiles(paths.map((name) => ({ name, content: readFileSync(name) })))
}

/** A verdict in one line. */
export function describe(v: Verdict): string {
  switch (v.status) {
    case 'complete':
    case 'adjudicated':
      return `${v.status}: scores ${v.scores.join(':')}, ${v.winner === 'draw' ? 'a draw' : `${v.winner} wins`}`
    case 'resigned':
    case 'abandoned':
      return `${v.status} by ${v.by}: ${v.winner} wins`
    case 'offence':
      return `offence: ${v.offence.class} by ${v.offence.offender} in turn ${v.offence.turn} (${v.offence.rule}); ${v.winner} wins`
    case 'incomplete':
      return `incomplete (${v.reason}): ${v.detail}`
    case 'unreadable':
      return `unreadable: ${v.file}, line ${v.error.line}`
  }
}

if (argv[1] === fileURLToPath(import.meta.url)) console.log(describe(verifyPaths(argv.slice(2))))
