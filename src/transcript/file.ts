/**
 * The transcript file (protocol/SPEC.md §10): a header line, then one canonical envelope per
 * line, in the order the writer persisted them (sent or received). Both players' envelopes
 * interleave; each sender's chain is recovered from `from` and `seq`.
 */
import { appendFileSync, closeSync, fsyncSync, openSync, readFileSync } from 'node:fs'
import { type SealedEnvelope, decodeEnvelope } from './envelope.js'
import { type ProtocolError, protocolError } from './errors.js'
import { LIMITS } from './messages.js'
import { strictUtf8, utf8 } from '../commit/bytes.js'

export const TRANSCRIPT_MAGIC = 'spaceships-transcript 1'

export interface TranscriptFileError {
  /** 1-based line of the file; 0 for the whole file. */
  readonly line: number
  readonly error: ProtocolError
}

export function formatTranscript(lines: readonly string[]): string {
  return [TRANSCRIPT_MAGIC, ...lines].join('\n') + '\n'
}

/** Reads a whole transcript strictly: every line must be a canonical envelope. */
export function parseTranscript(input: string | Uint8Array): { ok: true; value: SealedEnvelope[] } | { ok: false; error: TranscriptFileError } {
  const size = typeof input === 'string' ? Buffer.byteLength(input, 'utf8') : input.length
  if (size > LIMITS.fileBytes) return { ok: false, error: { line: 0, error: protocolError('file.too-large', '', '§10', `${size} bytes; at most ${LIMITS.fileBytes}`) } }
  // Lines are found on the bytes ('\n' never occurs inside a UTF-8 sequence) and each is decoded
  // strictly on its own, so its hash is taken from the bytes read (issue 6: no re-encoding).
  const bytes = typeof input === 'string' ? utf8(input) : input
  const lines: Uint8Array[] = []
  for (let from = 0; from < bytes.length; ) {
    const end = bytes.indexOf(0x0a, from)
    const to = end < 0 ? bytes.length : end
    lines.push(bytes.subarray(from, to))
    from = to + 1
  }
  let header: string
  try {
    header = strictUtf8.decode(lines[0] ?? new Uint8Array())
  } catch {
    return { ok: false, error: { line: 1, error: protocolError('wire.utf8', '', '§10', 'not valid UTF-8') } }
  }
  if (header !== TRANSCRIPT_MAGIC) return { ok: false, error: { line: 1, error: protocolError('file.header', '', '§10', `the first line must be "${TRANSCRIPT_MAGIC}"`) } }
  if (lines.length - 1 > LIMITS.fileLines) return { ok: false, error: { line: 0, error: protocolError('file.too-large', '', '§10', `${lines.length - 1} envelopes; at most ${LIMITS.fileLines}`) } }
  const out: SealedEnvelope[] = []
  for (let i = 1; i < lines.length; i++) {
    const d = decodeEnvelope(lines[i] ?? new Uint8Array())
    if (!d.ok) return { ok: false, error: { line: i + 1, error: d.error } }
    out.push(d.value)
  }
  return { ok: true, value: out }
}

/** Where a peer persists envelopes before sending or acting on them (DESIGN.md goal 5). */
export interface TranscriptStore {
  append(line: string): void
  lines(): readonly string[]
}

export function memoryStore(): TranscriptStore {
  const lines: string[] = []
  return { append: (l) => void lines.push(l), lines: () => lines }
}

/** A store on disk: each line is appended and flushed to stable storage before it is used. */
export function fileStore(path: string): TranscriptStore {
  const lines: string[] = []
  let existing: string
  try {
    existing = readFileSync(path, 'utf8')
  } catch {
    existing = ''
  }
  if (existing === '') appendFileSync(path, TRANSCRIPT_MAGIC + '\n', { mode: 0o600 })
  else for (const l of existing.split('\n').slice(1)) if (l !== '') lines.push(l)
  return {
    append(line) {
      const fd = openSync(path, 'a')
      try {
        appendFileSync(fd, line + '\n')
        fsyncSync(fd)
      } finally {
        closeSync(fd)
      }
      lines.push(line)
    },
    lines: () => lines,
  }
}
