/** What a command needs from the outside world, so tests can run the CLI in-process. */
import { open, writeFile } from 'node:fs/promises'
import { MAX_FILE_BYTES } from '../games/spaaace/peers/domain.js'
import type { Prompter } from '../games/spaceships/ui/terminal.js'

export interface CliIo {
  readonly stdout: (text: string) => void
  readonly stderr: (text: string) => void
  readonly readFile: (path: string) => Promise<Uint8Array>
  readonly writeFile: (path: string, text: string) => Promise<void>
  /** Environment (XDG directories, NO_COLOR); default the process's. */
  readonly env?: NodeJS.ProcessEnv
  /** Whether stdout is a terminal (colours, interactive prompts). */
  readonly isTty?: boolean
  /** The terminal's width in columns, when stdout is one. */
  readonly columns?: number
  /** The prompts of the interactive commands; default inquirer on the terminal, none when standard input is not one. */
  readonly prompter?: () => Prompter | undefined
}

/** `spaceships show ... | head`: the reader went away; stop writing, quietly. */
let stdoutClosed = false
process.stdout.on('error', (e: NodeJS.ErrnoException) => {
  if (e.code !== 'EPIPE') throw e
  stdoutClosed = true
})

export const processIo: CliIo = {
  stdout: (text) => {
    if (!stdoutClosed) process.stdout.write(text)
  },
  stderr: (text) => process.stderr.write(text),
  readFile: (path) => readBounded(path),
  writeFile: (path, text) => writeFile(path, text, { mode: 0o600 }),
  env: process.env,
  isTty: process.stdout.isTTY,
  ...(process.stdout.columns > 0 ? { columns: process.stdout.columns } : {}),
  prompter: () => (process.stdin.isTTY ? (terminalPrompter ??= lazyPrompter()) : undefined),
}

/**
 * The most a command reads of one file: the largest transcript of any format (SPAAACE-PEERS.md §10
 * `MAX_FILE_BYTES`, 256 MiB; a Spaceships file is at most 16 MiB, SPEC §9). Past it a file is
 * refused unread (EFBIG): read whole it would hold the machine's memory, and past 512 MiB its text
 * is more than a JavaScript string holds (which had reported a hostile file as a bug).
 */
export const MAX_INPUT_BYTES = MAX_FILE_BYTES

function tooLarge(path: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${path}: over ${MAX_INPUT_BYTES} bytes`), { code: 'EFBIG', path })
}

/** Reads `path` whole, refusing past `MAX_INPUT_BYTES` (a device or a pipe reports no size: read in chunks). */
async function readBounded(path: string): Promise<Uint8Array> {
  const h = await open(path, 'r')
  try {
    const { size } = await h.stat()
    if (size > MAX_INPUT_BYTES) throw tooLarge(path)
    const chunks: Buffer[] = []
    let total = 0
    // A regular file in one read (and one more to see its end), anything else 64 KiB at a time.
    let want = size + 1
    for (;;) {
      const buf = Buffer.allocUnsafe(Math.max(65_536, Math.min(want, MAX_INPUT_BYTES + 1 - total)))
      want = 0
      const { bytesRead } = await h.read(buf, 0, buf.length, null)
      if (bytesRead === 0) break
      total += bytesRead
      if (total > MAX_INPUT_BYTES) throw tooLarge(path)
      chunks.push(buf.subarray(0, bytesRead))
    }
    return chunks.length === 1 ? (chunks[0] ?? new Uint8Array()) : Buffer.concat(chunks, total)
  } finally {
    await h.close()
  }
}

/** Exit statuses shared by the commands that judge something. */
export const EXIT = {
  ok: 0,
  /** A rule or protocol was broken. */
  illegal: 1,
  /** The input could not be read or understood. */
  unreadable: 2,
  /** A transcript from which nothing decides the game: a gap, no game, nobody claimed (SPEC §12.8). */
  incomplete: 3,
  /** A side abandoned the game or did not reveal, and loses (SPEC §12.7, 6 and 7). */
  abandoned: 4,
  /** The game stopped before its end, both revealed, and it was scored on the committed state (SPEC §12.7, 8). */
  adjudicated: 5,
  usage: 64,
  /**
   * A service needed is not there (sysexits EX_UNAVAILABLE): a relay down or refusing, a host
   * that no longer serves the game being resumed (it refused the invite, SPEC §2.3), or the notary
   * of a check-in, which did not answer (nothing of it deposited, PROTOCOL-4.md §4.1).
   */
  unavailable: 69,
  /** A file or directory this command writes cannot be created: an unwritable or read-only directory, a missing one, a file in its way (sysexits EX_CANTCREAT). */
  cannotCreate: 73,
  /** A file or directory this command reads cannot be read, or a game's stored files are damaged (sysexits EX_IOERR). */
  ioError: 74,
  /** Storage failed (a full disk, an I/O error): the game stopped cleanly and resumes once fixed (sysexits EX_TEMPFAIL). */
  storage: 75,
  /** An unexpected failure of the program itself (sysexits EX_SOFTWARE): never a judgement. */
  internal: 70,
} as const

/** A condition that repeats (a connection lost and restored) is said at most once per this many ms. */
export const REPEAT_LINE_MS = 5_000

/**
 * At most one line of each kind per `periodMs`, so a flapping connection cannot flood the
 * terminal: `take(kind)` is undefined while the kind must stay quiet, else how many lines of it
 * were held back since the last one said (to be mentioned in the line). Time is `now`'s, so tests
 * drive it without sleeping.
 */
export class LineLimiter {
  private readonly said = new Map<string, { at: number; held: number }>()

  constructor(
    private readonly periodMs: number,
    private readonly now: () => number,
  ) {}

  take(kind: string): number | undefined {
    const t = this.now()
    const last = this.said.get(kind)
    if (last !== undefined && t - last.at < this.periodMs) {
      last.held++
      return undefined
    }
    this.said.set(kind, { at: t, held: 0 })
    return last?.held ?? 0
  }
}

/** A mistake the user can fix (a bad flag, a missing file): one line on stderr and its exit status. */
export class UserError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT.usage,
  ) {
    super(message)
  }
}

/**
 * A whole-number flag, checked when parsed: `--wait abc` is a usage error naming the flag and the
 * range, never a NaN deadline.
 */
export function wholeNumber(flag: string, min: number, max: number): (value: string) => number {
  return (value) => {
    const n = Number(value)
    if (value.trim() === '' || !Number.isInteger(n) || n < min || n > max)
      throw new UserError(`${flag}: expected a whole number from ${min} to ${max}, got "${value}"`)
    return n
  }
}

/** The one prompter of this process's terminal: every prompt of a command takes turns on it. */
let terminalPrompter: Prompter | undefined

/** Inquirer on the terminal, loaded on the first prompt (commands without prompts never load it). */
function lazyPrompter(): Prompter {
  let loaded: Promise<Prompter> | undefined
  const get = (): Promise<Prompter> =>
    (loaded ??= import('../games/spaceships/ui/terminal.js').then((m) => m.inquirerPrompter()))
  return {
    input: async (o) => (await get()).input(o),
    select: async (o) => (await get()).select(o),
    confirm: async (o) => (await get()).confirm(o),
    between: (h) => {
      void get().then((p) => p.between?.(h))
    },
  }
}

/**
 * How the user runs this program, for the hints it prints: `npx spaceships` when run through npm
 * or npx (then `spaceships` alone is not on PATH), else `spaceships`.
 */
export function commandName(env: NodeJS.ProcessEnv = process.env): string {
  return env['npm_command'] !== undefined || env['npm_lifecycle_event'] !== undefined ? 'npx spaceships' : 'spaceships'
}

/** Where this program keeps its files, so a failure there says which setting moves them. */
export interface Places {
  /** Games in progress (`$XDG_STATE_HOME/spaceships`). */
  readonly state: string
  /** The identity key (`$XDG_CONFIG_HOME/spaceships`). */
  readonly config: string
}

const FILE_REASONS: Readonly<Record<string, string>> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'a read-only file system',
  ENOTDIR: 'a file stands where a directory is expected',
  ENOENT: 'no such file or directory',
  EEXIST: 'something else is already there',
  EISDIR: 'a directory stands where a file is expected',
  ENOSPC: 'no space left on the device',
  EDQUOT: 'over the disk quota',
  EIO: 'an I/O error',
  ELOOP: 'a loop of symbolic links',
  ENAMETOOLONG: 'the name is too long',
  EFBIG: `too large: over ${MAX_INPUT_BYTES.toLocaleString('en-US')} bytes, more than any transcript holds`,
}

/** A system error code in words ('ENOENT': 'no such file or directory'), or the code itself. */
export function fileReason(code: string): string {
  return FILE_REASONS[code] ?? code
}

/** The system calls that only read: their failure is an input problem, not one of creating. */
const READING_CALLS = new Set(['scandir', 'opendir', 'read', 'stat', 'lstat', 'access', 'readlink'])

const VERBS: Readonly<Record<string, string>> = {
  mkdir: 'create the directory',
  rename: 'write',
  unlink: 'remove',
  rmdir: 'remove',
  write: 'write',
  scandir: 'list',
  opendir: 'list',
  read: 'read',
  open: 'open',
}

function within(path: string, dir: string): boolean {
  return path === dir || path.startsWith(dir.endsWith('/') ? dir : `${dir}/`) || dir.startsWith(`${path}/`)
}

/**
 * A file or directory the system refused (a read-only or unwritable directory, a file in the way
 * of a directory, an unwritable HOME) as one line: what failed, why, and what to do, with exit 73
 * (cannot create) or 74 (cannot read). Not a bug of this program, so never exit 70.
 */
export function fileProblem(e: unknown, places: Places, env: NodeJS.ProcessEnv): UserError | undefined {
  if (!(e instanceof Error)) return undefined
  const { code, path, syscall } = e as NodeJS.ErrnoException
  if (code === undefined || path === undefined || syscall === undefined) return undefined
  const why = FILE_REASONS[code] ?? code
  const reading = READING_CALLS.has(syscall) || code === 'EIO'
  const unset = (name: string): string =>
    env[name] === undefined || env[name] === '' ? ` (under your HOME, as ${name} is not set)` : ''
  const hint = within(path, places.state)
    ? `spaceships keeps its games in ${places.state}${unset('XDG_STATE_HOME')}: make that a directory you can read and write, or set XDG_STATE_HOME to one`
    : within(path, places.config)
      ? `spaceships keeps your identity in ${places.config}${unset('XDG_CONFIG_HOME')}: make that a directory you can read and write, or set XDG_CONFIG_HOME to one (or give --identity FILE)`
      : reading
        ? 'Check that it exists and that you can read it'
        : 'Check that its directory exists and that you can write there, or choose another path'
  return new UserError(
    `cannot ${VERBS[syscall] ?? syscall} ${path}: ${why}. ${hint}`,
    reading ? EXIT.ioError : EXIT.cannotCreate,
  )
}

/** libp2p's error when a listen address cannot be bound; its message names each address and why. */
export function isListenError(e: unknown): boolean {
  return e instanceof Error && e.name === 'UnsupportedListenAddressesError'
}

const LISTEN_REASONS: Readonly<Record<string, string>> = {
  EADDRINUSE: 'that port is already in use by another program; choose another port, or port 0 for any free one',
  EADDRNOTAVAIL:
    "that address is not one of this machine's; give one of its own addresses, or 0.0.0.0 (:: for IPv6) for all of them",
  EACCES: 'a port below 1024 needs privileges; choose a higher port',
}

/** A listen address that cannot be bound (a port in use, an address not on this machine): one line, exit 69. */
export function listenProblem(e: unknown): UserError | undefined {
  if (!isListenError(e)) return undefined
  const lines = (e as Error).message
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l.startsWith('/'))
  const each = lines.map((l) => {
    const at = l.indexOf(': ')
    const addr = at < 0 ? l : l.slice(0, at)
    const detail = at < 0 ? '' : l.slice(at + 2)
    const code = /\bE[A-Z]+\b/.exec(detail)?.[0]
    return `cannot listen on ${addr}: ${(code === undefined ? undefined : LISTEN_REASONS[code]) ?? (detail === '' ? 'refused by the system' : detail)}`
  })
  return new UserError(
    `--listen: ${each.length === 0 ? 'cannot listen on the addresses given' : each.join('; ')}`,
    EXIT.unavailable,
  )
}

/** An output file named by a flag that cannot be written: one line naming the flag, why, and the fix (exit 73). */
export function cannotWrite(flag: string, path: string, e: unknown): UserError {
  const code = (e as NodeJS.ErrnoException).code
  const why =
    code === 'ENOENT'
      ? 'its directory does not exist'
      : ((code === undefined ? undefined : FILE_REASONS[code]) ?? (e as Error).message)
  const fix =
    code === 'ENOENT'
      ? `create that directory, or choose another ${flag}`
      : `choose another ${flag}, or make its directory one you can write`
  return new UserError(`${flag} ${path}: cannot write it: ${why}; ${fix}`, EXIT.cannotCreate)
}

/**
 * `name`, or, when a file of that name exists, the first of `<stem>-2<ext>`, `<stem>-3<ext>`, … that
 * does not: a default file name (a seed's transcript) never overwrites the file of an earlier game
 * played with the same seed. A name given by the person (`--out`) is theirs to overwrite.
 */
export async function unusedName(io: CliIo, name: string): Promise<string> {
  const dot = name.lastIndexOf('.')
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, '']
  for (let i = 1; i <= 999; i++) {
    const candidate = i === 1 ? name : `${stem}-${i}${ext}`
    try {
      await io.readFile(candidate)
    } catch {
      return candidate
    }
  }
  return name
}
