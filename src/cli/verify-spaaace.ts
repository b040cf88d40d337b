/** `spaceships verify` on Spaaace! transcripts, loaded by verify.ts only when it is given some. */
import {
  type SpaaaceFile,
  type SpaaaceVerdict,
  renderSpaaaceVerdict,
  spaaaceVerdictJson,
  verifySpaaace,
} from '../games/spaaace/verify/verify.js'
import {
  isWitnessedTranscript,
  renderWitnessedVerdict,
  verifyWitnessed,
  witnessedVerdictJson,
} from '../games/spaaace/verify/witnessed.js'
import { wrapLine } from '../games/spaaace/ui/screen.js'
import { type CliIo, EXIT } from './io.js'
import { worstExit } from './verify.js'

/** Spaaace! files: each game decided from all its files (§13); the exit status as for Spaceships (0, 1, 2, 3). */
export function spaaaceVerify(
  files: readonly SpaaaceFile[],
  options: { json: boolean; separate?: boolean },
  io: CliIo,
  /** Files given beside them that could not be read or are no transcript: each unreadable, on its own. */
  others: readonly { readonly name: string; readonly reason: string }[] = [],
): number {
  const separate = options.separate === undefined ? {} : { separate: options.separate }
  // Witnessed games (a genesis naming a notary) are decided by the notary's receipts (SPAAACE-WITNESSED §7).
  const witnessedFiles = files.filter((f) => isWitnessedTranscript(f.text))
  const peerFiles = files.filter((f) => !witnessedFiles.includes(f))
  const verdicts: SpaaaceVerdict[] = [
    ...others.map((o) => ({ status: 'unreadable' as const, files: [o.name], reason: o.reason })),
    ...verifySpaaace(peerFiles, separate),
  ]
  const witnessed = verifyWitnessed(witnessedFiles, separate)
  const json = [...verdicts.map((v) => spaaaceVerdictJson(v)), ...witnessed.map((v) => witnessedVerdictJson(v))]
  if (options.json) io.stdout(`${JSON.stringify(json.length === 1 ? json[0] : json, null, 2)}\n`)
  else
    io.stdout(
      inColumns(
        [...verdicts.map((v) => renderSpaaaceVerdict(v)), ...witnessed.map((v) => renderWitnessedVerdict(v))].join(
          '\n',
        ),
      ),
    )
  return spaaaceExit([...verdicts, ...witnessed])
}

/** The exit status of Spaaace! verdicts, as for Spaceships: the worst of 0 complete, 3 incomplete, 1 offence, 2 unreadable. */
export function spaaaceExit(verdicts: readonly { readonly status: SpaaaceVerdict['status'] }[]): number {
  return worstExit(
    verdicts.map((v) =>
      v.status === 'unreadable'
        ? EXIT.unreadable
        : v.status === 'offence'
          ? EXIT.illegal
          : v.status === 'incomplete'
            ? EXIT.incomplete
            : EXIT.ok,
    ),
  )
}

/** A report read in any terminal: each line wrapped at blanks to 80 columns (a path, which has none, stays whole). */
const REPORT_COLUMNS = 80

function inColumns(text: string): string {
  return text
    .split('\n')
    .flatMap((l) => wrapLine(l, REPORT_COLUMNS, '    '))
    .join('\n')
}
