/**
 * Spaceships' transcript files (protocol/SPEC.md §11): the core's format under the header
 * `spaceships-transcript 3`, with the limits of SPEC §9.
 */
import {
  type ParsedTranscript,
  type TranscriptFileError,
  type TranscriptFormat,
  formatTranscript as formatWith,
  parseTranscript as parseWith,
  transcriptHeader,
} from '../../../core/transcript/file.js'
import { LIMITS, PROTOCOL_VERSION } from './messages.js'

export {
  type ParsedTranscript,
  type TranscriptFileError,
  type TranscriptLine,
  type TranscriptStore,
  formatLine,
  memoryStore,
} from '../../../core/transcript/file.js'

export const TRANSCRIPT: TranscriptFormat = {
  name: 'spaceships-transcript',
  version: PROTOCOL_VERSION,
  maxBytes: LIMITS.fileBytes,
  maxLines: LIMITS.fileLines,
}
export const TRANSCRIPT_MAGIC = transcriptHeader(TRANSCRIPT)

export function formatTranscript(envelopes: readonly Uint8Array[]): string {
  return formatWith(TRANSCRIPT, envelopes)
}

/** Reads a Spaceships transcript file (SPEC §11): see the core's `parseTranscript`. */
export function parseTranscript(
  input: string | Uint8Array,
): { ok: true; value: ParsedTranscript } | { ok: false; error: TranscriptFileError } {
  return parseWith(TRANSCRIPT, input)
}
