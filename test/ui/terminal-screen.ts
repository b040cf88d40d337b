/**
 * A terminal for tests: the game's output and its prompts (inquirer, with its cursor movements
 * and erasures) drawn on a virtual screen of a given width, as a person sees it, and a command
 * run in-process on it with keys typed as a person types them.
 */
import { mkdtempSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PassThrough } from 'node:stream'
import type { CliIo } from '../../src/cli/io.js'
import { run } from '../../src/cli/main.js'
import { inquirerPrompter } from '../../src/games/spaceships/ui/terminal.js'

/**
 * A virtual terminal `width` columns wide that keeps every line it was given (its scrollback
 * too): text wraps at the width, a newline starts a new line (the terminal's ONLCR), and the
 * control sequences inquirer writes move the cursor and erase. Colours and modes are ignored.
 */
export class VirtualTerminal {
  private readonly rows: string[][] = [[]]
  private row = 0
  private col = 0
  /** A character written in the last column wraps only when the next one comes (as xterm does). */
  private pendingWrap = false

  constructor(readonly width: number) {}

  write(text: string): void {
    const chars = Array.from(text)
    for (let i = 0; i < chars.length; i++) {
      const c = chars[i] ?? ''
      if (c === '\u001b') {
        const rest = chars.slice(i + 1, i + 40).join('')
        const csi = /^\[([?0-9;]*)([A-Za-z])/.exec(rest)
        if (csi === null) continue
        i += Array.from(csi[0]).length
        this.control(csi[1] ?? '', csi[2] ?? '')
      } else if (c === '\n') this.moveTo(this.row + 1, 0)
      else if (c === '\r') this.moveTo(this.row, 0)
      else if (c === '\u0007') continue
      else this.put(c)
    }
  }

  /** The screen's lines, trailing spaces and the empty lines below the cursor dropped. */
  lines(): string[] {
    const out = this.rows.map((r) => r.join('').trimEnd())
    while (out.length > this.row + 1 && out.at(-1) === '') out.pop()
    return out
  }

  text(): string {
    return this.lines().join('\n')
  }

  private line(r: number): string[] {
    while (this.rows.length <= r) this.rows.push([])
    return this.rows[r] ?? []
  }

  private moveTo(row: number, col: number): void {
    this.row = Math.max(0, row)
    this.col = Math.max(0, Math.min(this.width - 1, col))
    this.pendingWrap = false
    this.line(this.row)
  }

  private put(c: string): void {
    if (this.pendingWrap) this.moveTo(this.row + 1, 0)
    const l = this.line(this.row)
    while (l.length < this.col) l.push(' ')
    l[this.col] = c
    if (this.col === this.width - 1) this.pendingWrap = true
    else this.col++
  }

  private control(params: string, final: string): void {
    if (params.startsWith('?')) return
    const n = Number(params.split(';')[0] || '0')
    const count = Math.max(1, n)
    const l = this.line(this.row)
    switch (final) {
      case 'A':
        this.moveTo(this.row - count, this.col)
        break
      case 'B':
        this.moveTo(this.row + count, this.col)
        break
      case 'C':
        this.moveTo(this.row, this.col + count)
        break
      case 'D':
        this.moveTo(this.row, this.col - count)
        break
      case 'G':
        this.moveTo(this.row, count - 1)
        break
      case 'K':
        if (n === 2) l.length = 0
        else if (n === 1) for (let k = 0; k <= this.col && k < l.length; k++) l[k] = ' '
        else l.length = Math.min(l.length, this.col)
        this.pendingWrap = false
        break
      case 'J':
        l.length = Math.min(l.length, this.col)
        this.rows.length = this.row + 1
        break
      default:
        // Colours (m) and anything else: nothing to draw.
        break
    }
  }
}

/** A home of its own (identity, games) for one test, colours off. */
export function freshHome(): NodeJS.ProcessEnv {
  const d = mkdtempSync(join(tmpdir(), 'spaceships-screen-'))
  return { XDG_CONFIG_HOME: join(d, 'config'), XDG_STATE_HOME: join(d, 'state'), NO_COLOR: '1' }
}

export interface PlayedCommand {
  readonly terminal: VirtualTerminal
  /** Types keys once the prompt has had time to attach, as a person would. */
  type(keys: string): Promise<void>
  /** Waits until a line of the screen from line `fromLine` on holds `text`; returns that line's index. */
  seen(text: string, fromLine?: number): Promise<number>
  /** The command's exit status, its standard output and error, and the files it wrote. */
  readonly done: Promise<{ code: number; out: string; err: string; files: Record<string, string> }>
}

/**
 * Runs a command in-process on a virtual terminal `columns` wide (default 100, the game's widest
 * layout; `io.columns` is left unset then, as when the width is not known), its prompts read from
 * keys typed with `type`.
 */
export function onTerminal(
  args: readonly string[],
  opts: { env: NodeJS.ProcessEnv; columns?: number; files?: Record<string, string> },
): PlayedCommand {
  const width = opts.columns ?? 100
  const terminal = new VirtualTerminal(width)
  const input = new PassThrough()
  // Drawn at once, in the order written, as on a terminal: a stream's callback comes a tick
  // later, so one prompt's last lines could land after the next prompt's first.
  const output = {
    columns: width,
    write: (chunk: Buffer | string, ...rest: unknown[]): boolean => {
      terminal.write(chunk.toString())
      const done = rest.find((r) => typeof r === 'function') as (() => void) | undefined
      done?.()
      return true
    },
  } as unknown as NodeJS.WritableStream
  const files = opts.files ?? {}
  let out = ''
  let err = ''
  const io: CliIo = {
    stdout: (t) => {
      out += t
      terminal.write(t)
    },
    stderr: (t) => {
      err += t
      terminal.write(t)
    },
    readFile: async (path) => {
      const text = files[path]
      if (text !== undefined) return new TextEncoder().encode(text)
      return readFile(path)
    },
    writeFile: (path, text) => {
      files[path] = text
      return Promise.resolve()
    },
    env: opts.env,
    isTty: false,
    ...(opts.columns === undefined ? {} : { columns: opts.columns }),
    prompter: () => inquirerPrompter({ input, output }),
  }
  const done = run([...args], io).then((code) => ({ code, out, err, files }))
  done.catch(() => undefined)
  const seen = async (text: string, fromLine = 0): Promise<number> => {
    for (let i = 0; i < 800; i++) {
      const at = terminal.lines().findIndex((l, n) => n >= fromLine && l.includes(text))
      if (at >= 0) return at
      await new Promise((r) => setTimeout(r, 25))
    }
    throw new Error(`never showed "${text}"; the screen ends:\n${terminal.lines().slice(-30).join('\n')}`)
  }
  return {
    terminal,
    type: async (keys) => {
      await new Promise((r) => setTimeout(r, 150))
      input.write(keys)
    },
    seen,
    done,
  }
}
