/**
 * The transcript on disk (protocol/SPEC.md §11): the session's store adapter, the only place the
 * session's envelopes meet the file system. Each envelope is appended as one line and flushed to
 * stable storage before it is sent or acted on (SPEC §2.2).
 *
 * A line is written whole or not at all, as far as the game is concerned: a write that fails
 * (a full disk) is cut back off before the error is reported, and a last line without its newline
 * (the process died mid-write) is cut off when the file is opened again. Neither was ever sent or
 * acted on, because nothing is sent or acted on before its line is flushed, so dropping it is safe.
 */
import {
  closeSync,
  fstatSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readFileSync,
  statSync,
  truncateSync,
  writeSync,
} from 'node:fs'
import {
  type TranscriptFormat,
  type TranscriptStore,
  formatLine,
  parseTranscript,
  transcriptHeader,
} from '../transcript/file.js'
import { describeProtocolError } from '../wire/errors.js'

/** A transcript file could not be read or written; the message says which and why, in one line. */
export class StorageError extends Error {
  override readonly name = 'StorageError'
}

export function ioMessage(e: unknown): string {
  const err = e as NodeJS.ErrnoException
  return err.code === 'ENOSPC'
    ? 'the disk is full'
    : err.code === 'EACCES' || err.code === 'EPERM'
      ? 'permission denied'
      : (err.code ?? err.message)
}

/**
 * The transcript file at `path`: read when it exists (in any of `formats`, which its header names),
 * else created with the first format's header; or, given `formatOf`, with the header of the format
 * it names for the first bytes appended (a game whose version its first envelope states).
 */
export function fileStore(
  path: string,
  formats: TranscriptFormat | readonly TranscriptFormat[],
  formatOf?: (first: Uint8Array) => TranscriptFormat,
): TranscriptStore {
  const all: readonly TranscriptFormat[] = Array.isArray(formats) ? formats : [formats as TranscriptFormat]
  const format = all[0]
  if (format === undefined) throw new Error('fileStore needs a format')
  const text = readRepaired(path)
  const envelopes: Uint8Array[] = []
  let headerDue = false
  if (text === '') {
    if (formatOf === undefined) appendLineDurably(path, transcriptHeader(format), 'transcript')
    else headerDue = true
  } else {
    const parsed = parseTranscript(all, text)
    if (!parsed.ok)
      throw new StorageError(
        `${path} is not a transcript this program can resume: ${describeProtocolError(parsed.error.error)}`,
      )
    for (const l of parsed.value.lines) {
      if (l.bytes === undefined)
        throw new StorageError(`${path} line ${l.line} is damaged; the game cannot resume from it`)
      envelopes.push(l.bytes)
    }
  }
  // The file's modification time is when its last envelope was persisted, sent or received:
  // what a resumed session's clock runs from (SPEC §6.6).
  let writtenAt: number | undefined
  try {
    writtenAt = envelopes.length === 0 ? undefined : statSync(path).mtimeMs
  } catch {
    writtenAt = undefined
  }
  return {
    append(bytes) {
      // A crash between the two writes leaves a header and no line: an empty transcript.
      if (headerDue) appendLineDurably(path, transcriptHeader(formatOf?.(bytes) ?? format), 'transcript')
      headerDue = false
      appendLineDurably(path, formatLine(bytes), 'transcript')
      envelopes.push(bytes)
    },
    envelopes: () => envelopes,
    lastWrittenAt: () => writtenAt,
  }
}

/**
 * A transcript's text ('' when there is no file yet), its torn last line (a crash mid-write, never
 * sent or acted on) cut off the file first.
 */
export function readRepaired(path: string): string {
  let text = ''
  try {
    text = readFileSync(path, 'latin1')
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new StorageError(`cannot read the transcript ${path}: ${ioMessage(e)}`)
  }
  const whole = text.lastIndexOf('\n') + 1
  if (whole < text.length) {
    try {
      truncateSync(path, whole)
    } catch (e) {
      throw new StorageError(`cannot repair the torn last line of ${path}: ${ioMessage(e)}`)
    }
    text = text.slice(0, whole)
  }
  return text
}

/**
 * Appends `line` and a newline in one write, flushed to stable storage; on failure cuts the file
 * back to where it was and throws a StorageError naming the file (`what`) and the cause.
 */
export function appendLineDurably(path: string, line: string, what: string): void {
  appendLine(path, line, what, true)
}

/** `appendLineDurably`, flushed to stable storage only when `sync` (written whole either way). */
export function appendLine(path: string, line: string, what: string, sync: boolean): void {
  let fd: number
  try {
    fd = openSync(path, 'a', 0o600)
  } catch (e) {
    throw new StorageError(`cannot open the ${what} ${path}: ${ioMessage(e)}`)
  }
  let size = 0
  try {
    size = fstatSync(fd).size
    const data = Buffer.from(line + '\n', 'utf8')
    let written = 0
    while (written < data.length) written += writeSync(fd, data, written)
    if (sync) fsyncSync(fd)
  } catch (e) {
    try {
      ftruncateSync(fd, size)
    } catch {
      // The torn line is cut off when the file is next opened.
    }
    throw new StorageError(`cannot write the ${what} ${path}: ${ioMessage(e)}`)
  } finally {
    closeSync(fd)
  }
}
