/** Shared helpers for the red-team tests: verdict summaries and file building. */
import { formatTranscript } from '../../src/games/spaceships/protocol/file.js'
import { decodeEnvelope } from '../../src/games/spaceships/protocol/envelope.js'
import { type Verdict, verifyFiles } from '../../src/games/spaceships/verify/verify.js'

export function verdictOf(...transcripts: (readonly Uint8Array[])[]): Verdict {
  return verifyFiles(transcripts.map((t, i) => ({ name: `f${i}`, content: formatTranscript(t) })))
}

export function summary(v: Verdict): string {
  switch (v.status) {
    case 'offence':
      return `offence ${v.offence.offender} ${v.offence.class}`
    case 'abandoned':
      return `abandoned ${v.by} ${v.how} -> ${v.winner}`
    case 'resigned':
      return `resigned ${v.by} -> ${v.winner}`
    case 'adjudicated':
      return `adjudicated ${v.scores.join('-')} -> ${v.winner}`
    case 'complete':
      return `complete ${v.scores.join('-')} -> ${v.winner}`
    case 'incomplete':
      return `incomplete ${v.reason}: ${v.detail}`
    case 'unreadable':
      return `unreadable ${v.error.error.code}`
  }
}

export function winnerOf(v: Verdict): string | undefined {
  return 'winner' in v ? v.winner : undefined
}

export function partsOf(b: Uint8Array): string {
  const d = decodeEnvelope(b)
  return d.ok
    ? `${d.value.envelope.sender}${d.value.envelope.seq}:${d.value.envelope.parts.map((p) => p.t).join('+')}`
    : '?'
}
