/**
 * The transcript file (protocol/SPEC.md §11): a header line naming the game protocol and its
 * version, then one envelope per line in base64url, in the order the writer persisted them. The
 * format is the core's; each game protocol names its header and limits (`TranscriptFormat`).
 * Pure: files are read and written at the edges (the CLI, the session's store adapter).
 */
import { toBase64url } from '../commit/bytes.js'
import { type ProtocolError, protocolError } from '../wire/errors.js'

/** What a game protocol fixes of its transcript files (SPEC §9, §11). */
export interface TranscriptFormat {
  /** The header's first word: `spaceships-transcript` for Spaceships (SPEC §11). */
  readonly name: string
  readonly version: number
  /** SPEC §9 `fileBytes`: the largest file read. */
  readonly maxBytes: number
  /** SPEC §9 `fileLines`: the most envelope lines read (the header line not counted). */
  readonly maxLines: number
}

/** The header line: the format's name and version, separated by one space. */
export function transcriptHeader(f: TranscriptFormat): string {
  return `${f.name} ${f.version}`
}

export interface TranscriptFileError {
  /** 1-based line of the file; 0 for the whole file. */
  readonly line: number
  readonly error: ProtocolError
}

/** One envelope line: its bytes, or why they could not be read (such a line is not evidence). */
export interface TranscriptLine {
  /** 1-based line number in the file. */
  readonly line: number
  readonly bytes: Uint8Array | undefined
  readonly error: ProtocolError | undefined
  /**
   * The line as read, when it is strict base64url: one text per value (SPEC §3.4), so a reader can
   * tell identical lines apart without encoding `bytes` again.
   */
  readonly text?: string
}

export interface ParsedTranscript {
  readonly lines: readonly TranscriptLine[]
  /** A final line without its newline was found and ignored (SPEC §11: never completely written). */
  readonly torn: boolean
  /** The format (version) the header names, among those the caller reads. */
  readonly format: TranscriptFormat
}

export function formatLine(bytes: Uint8Array): string {
  return toBase64url(bytes)
}

export function formatTranscript(format: TranscriptFormat, envelopes: readonly Uint8Array[]): string {
  return [transcriptHeader(format), ...envelopes.map(formatLine)].join('\n') + '\n'
}

/**
 * Reads a transcript file. Only the whole file can fail (size, header, version); each line that
 * is not strict base64url is returned with its error, for the verifier to report and set aside.
 */
export function parseTranscript(
  formats: TranscriptFormat | readonly TranscriptFormat[],
  input: string | Uint8Array,
): { ok: true; value: ParsedTranscript } | { ok: false; error: TranscriptFileError } {
  const all: readonly TranscriptFormat[] = Array.isArray(formats) ? formats : [formats as TranscriptFormat]
  const first = all[0]
  if (first === undefined) throw new Error('parseTranscript needs a format')
  const magic = transcriptHeader(first)
  const prefix = `${first.name} `
  const maxBytes = Math.max(...all.map((f) => f.maxBytes))
  const size = typeof input === 'string' ? Buffer.byteLength(input, 'utf8') : input.length
  if (size > maxBytes)
    return {
      ok: false,
      error: {
        line: 0,
        error: protocolError('file.too-large', '', '§9', `${size} bytes; at most ${maxBytes}`),
      },
    }
  const text =
    typeof input === 'string' ? input : Buffer.from(input.buffer, input.byteOffset, input.byteLength).toString('latin1')
  const rows = text.split('\n')
  const torn = rows.length > 0 && rows[rows.length - 1] !== ''
  // The last element is what follows the final newline: empty in a whole file, a torn line otherwise.
  rows.pop()
  const header = rows[0]
  if (header === undefined)
    return {
      ok: false,
      error: {
        line: 1,
        // A file with no whole line: empty, or one line never ended (torn, or not a transcript).
        error: protocolError(
          'file.header',
          '',
          '§11',
          text === ''
            ? `an empty file; a transcript starts with "${magic}"`
            : `no whole line (no line feed in ${size} bytes); a transcript starts with "${magic}" and a line feed`,
        ),
      },
    }
  const format = all.find((f) => header === transcriptHeader(f))
  if (format === undefined) {
    // A header whose only fault is what follows it (a file saved with CRLF line ends, a trailing
    // space) is said so: "a version 4\r transcript; this program reads version 4" read as nonsense.
    const trimmed = all.find((f) => header.trimEnd() === transcriptHeader(f))
    // SPEC §11: the version is all that follows the prefix, so both of these are `file.version`.
    const badVersion = (message: string) =>
      ({ ok: false, error: { line: 1, error: protocolError('file.version', '', '§11', message) } }) as const
    if (trimmed !== undefined)
      return badVersion(
        `the first line is "${transcriptHeader(trimmed)}" followed by ${header.endsWith('\r') ? 'a carriage return (a file saved with Windows line ends? every line ends with a lone LF)' : 'spaces'}, which names no version this program reads`,
      )
    if (header.startsWith(prefix))
      return badVersion(
        `a version ${header.slice(prefix.length, prefix.length + 8)} transcript; this program reads version ${all.map((f) => f.version).join(' and ')}`,
      )
    return {
      ok: false,
      error: {
        line: 1,
        error: protocolError('file.header', '', '§11', `the first line must be "${magic}"`),
      },
    }
  }
  if (rows.length - 1 > format.maxLines)
    return {
      ok: false,
      error: {
        line: 0,
        error: protocolError('file.too-large', '', '§9', `${rows.length - 1} lines; at most ${format.maxLines}`),
      },
    }
  const lines: TranscriptLine[] = []
  const into = lineBytes(text.length)
  for (let i = 1; i < rows.length; i++) {
    const row = rows[i] ?? ''
    const bytes = into(row)
    lines.push(
      bytes === undefined || row === ''
        ? {
            line: i + 1,
            bytes: undefined,
            error: protocolError('wire.base64', '', '§11', row === '' ? 'an empty line' : 'not strict base64url'),
          }
        : { line: i + 1, bytes, error: undefined, text: row },
    )
  }
  return { ok: true, value: { lines, torn, format } }
}

/**
 * A file's lines decoded (strict base64url, SPEC §3.2) into one zeroed buffer of the file's own,
 * each line's bytes a view of it: a line costs no allocation and no copy (a fresh Uint8Array
 * per line, copied out of Node's pool, cost more than the decoding). A row is strict exactly when
 * it is the encoding of what it decodes to (see `fromBase64url`); what a row that is not decodes
 * to is left behind the last view, unread, and the next row written over it.
 */
function lineBytes(chars: number): (row: string) => Uint8Array | undefined {
  // Every row's bytes are at most three fourths of its characters, rounded down.
  const buf = Buffer.alloc(Math.floor((chars * 3) / 4))
  let at = 0
  return (row) => {
    const n = buf.write(row, at, 'base64url')
    if (buf.toString('base64url', at, at + n) !== row) return undefined
    const out = new Uint8Array(buf.buffer, buf.byteOffset + at, n)
    at += n
    return out
  }
}

/** Where a peer persists envelopes before sending or acting on them (DESIGN.md goal 5). */
export interface TranscriptStore {
  /** Persists one envelope; throws if it cannot (a full disk), before anything is sent. */
  append(bytes: Uint8Array): void
  /** Every envelope persisted so far, in order. */
  envelopes(): readonly Uint8Array[]
  /**
   * When the last envelope held at opening was written (clock ms), for a store that knows: a
   * resumed session's deadlines run from it (SPEC §6.6), not from the restart.
   */
  lastWrittenAt?(): number | undefined
}

export function memoryStore(initial: readonly Uint8Array[] = []): TranscriptStore {
  const list = [...initial]
  return { append: (b) => void list.push(b), envelopes: () => list }
}
