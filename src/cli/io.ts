/** What a command needs from the outside world, so tests can run the CLI in-process. */
import { readFile, writeFile } from 'node:fs/promises'
import type { Prompter } from '../ui/terminal.js'

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
  readFile: (path) => readFile(path),
  writeFile: (path, text) => writeFile(path, text, { mode: 0o600 }),
  env: process.env,
  isTty: process.stdout.isTTY,
  ...(process.stdout.columns > 0 ? { columns: process.stdout.columns } : {}),
  prompter: () => (process.stdin.isTTY ? lazyPrompter() : undefined),
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
   * A service needed is not there (sysexits EX_UNAVAILABLE): a relay down or refusing, or a host
   * that no longer serves the game being resumed (it refused the invite, SPEC §2.3).
   */
  unavailable: 69,
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
    if (value.trim() === '' || !Number.isInteger(n) || n < min || n > max) throw new UserError(`${flag}: expected a whole number from ${min} to ${max}, got "${value}"`)
    return n
  }
}

/** Inquirer on the terminal, loaded on the first prompt (commands without prompts never load it). */
function lazyPrompter(): Prompter {
  let loaded: Promise<Prompter> | undefined
  const get = (): Promise<Prompter> => (loaded ??= import('../ui/terminal.js').then((m) => m.inquirerPrompter()))
  return {
    input: async (o) => (await get()).input(o),
    select: async (o) => (await get()).select(o),
    confirm: async (o) => (await get()).confirm(o),
  }
}

/**
 * How the user runs this program, for the hints it prints: `npx spaceships` when run through npm
 * or npx (then `spaceships` alone is not on PATH), else `spaceships`.
 */
export function commandName(env: NodeJS.ProcessEnv = process.env): string {
  return env['npm_command'] !== undefined || env['npm_lifecycle_event'] !== undefined ? 'npx spaceships' : 'spaceships'
}
