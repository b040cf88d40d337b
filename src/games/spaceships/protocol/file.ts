/**
 * Spaceships' transcript files (protocol/SPEC.md §11): the core's format under the header
 * `spaceships-transcript V`, V the game's protocol version, with the limits of SPEC §9.
 */
import {
  type ParsedTranscript,
  type TranscriptFileError,
  type TranscriptFormat,
  formatTranscript as formatWith,
  parseTranscript as parseWith,
  transcriptHeader,
} from '../../../core/transcript/file.js'
import { LIMITS, PROTOCOL_VERSION, type ProtocolVersion } from './messages.js'

export {
  type ParsedTranscript,
  type TranscriptFileError,
  type TranscriptLine,
  type TranscriptStore,
  formatLine,
  memoryStore,
} from '../../../core/transcript/file.js'

/** SPEC §11: each version's file; version 4's may also hold a witnessed game's receipts (§9 lines). */
export const TRANSCRIPTS: Readonly<Record<ProtocolVersion, TranscriptFormat>> = {
  3: { name: 'spaceships-transcript', version: 3, maxBytes: LIMITS.fileBytes, maxLines: LIMITS.fileLines },
  4: { name: 'spaceships-transcript', version: 4, maxBytes: LIMITS.fileBytes, maxLines: LIMITS.fileLinesV4 },
}
/** Version 3's file (the format every version 3 game was written in). */
export const TRANSCRIPT: TranscriptFormat = TRANSCRIPTS[3]
export const TRANSCRIPT_MAGIC = transcriptHeader(TRANSCRIPT)

/** The formats a reader accepts, `version`'s first (what a new file is written in). */
export function transcriptFormats(version: ProtocolVersion = PROTOCOL_VERSION): readonly TranscriptFormat[] {
  return version === 3 ? [TRANSCRIPTS[3], TRANSCRIPTS[4]] : [TRANSCRIPTS[4], TRANSCRIPTS[3]]
}

/** The version of a game's envelopes: A's hello (or any envelope) states it in its first byte. */
export function versionOfEnvelopes(envelopes: readonly Uint8Array[]): ProtocolVersion {
  return envelopes[0]?.[0] === 4 ? 4 : 3
}

/** A transcript file of `envelopes` under the header of their version. */
export function formatTranscript(envelopes: readonly Uint8Array[], version = versionOfEnvelopes(envelopes)): string {
  return formatWith(TRANSCRIPTS[version], envelopes)
}

/** Reads a Spaceships transcript file of either version (SPEC §11): see the core's `parseTranscript`. */
export function parseTranscript(
  input: string | Uint8Array,
): { ok: true; value: ParsedTranscript & { version: ProtocolVersion } } | { ok: false; error: TranscriptFileError } {
  const parsed = parseWith(transcriptFormats(PROTOCOL_VERSION), input)
  if (!parsed.ok) return parsed
  return { ok: true, value: { ...parsed.value, version: parsed.value.format.version === 4 ? 4 : 3 } }
}
