/**
 * Spaceships' transcript on disk: the core's store adapter (durable, torn-line safe) with the
 * Spaceships file format (SPEC §11).
 */
import type { TranscriptStore } from '../../../core/transcript/file.js'
import { fileStore as coreFileStore } from '../../../core/session/file-store.js'
import { TRANSCRIPT } from '../protocol/file.js'

export { StorageError } from '../../../core/session/file-store.js'

/** The transcript file at `path`, created with its header if missing (SPEC §11). */
export function fileStore(path: string): TranscriptStore {
  return coreFileStore(path, TRANSCRIPT)
}
