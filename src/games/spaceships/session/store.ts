/**
 * Spaceships' transcript on disk: the core's store adapter (durable, torn-line safe) with the
 * Spaceships file format (SPEC §11).
 */
import type { TranscriptStore } from '../../../core/transcript/file.js'
import { fileStore as coreFileStore } from '../../../core/session/file-store.js'
import { TRANSCRIPTS, transcriptFormats } from '../protocol/file.js'
import type { ProtocolVersion } from '../protocol/messages.js'

export { StorageError } from '../../../core/session/file-store.js'

/**
 * The transcript file at `path`: an existing file is read in the version its header names; a
 * missing one is created with the header of `version` (SPEC §11), or, with no version given, gets
 * the header of the version its first envelope states when that is appended.
 */
export function fileStore(path: string, version?: ProtocolVersion): TranscriptStore {
  if (version !== undefined) return coreFileStore(path, transcriptFormats(version))
  return coreFileStore(path, transcriptFormats(), (first) => TRANSCRIPTS[first[0] === 3 ? 3 : 4])
}
