/**
 * The built executable in real processes (tests that kill and resume them): a fresh HOME, a
 * process whose output is collected, a poll until something shows, and a file's lines.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { mkdtempSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

export const MAIN = join(import.meta.dirname, '..', 'dist', 'cli', 'main.js')

export function home(): NodeJS.ProcessEnv {
  const d = mkdtempSync(join(tmpdir(), 'spaceships-proc-'))
  return { XDG_CONFIG_HOME: join(d, 'config'), XDG_STATE_HOME: join(d, 'state'), NO_COLOR: '1' }
}

export interface Proc {
  readonly child: ChildProcess
  readonly out: () => string
  readonly err: () => string
  readonly exit: Promise<number | null>
}

export function start(args: string[], env: NodeJS.ProcessEnv): Proc {
  const child = spawn(process.execPath, [MAIN, ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  let err = ''
  child.stdout.on('data', (d: Buffer) => (out += d.toString()))
  child.stderr.on('data', (d: Buffer) => (err += d.toString()))
  return {
    child,
    out: () => out,
    err: () => err,
    exit: new Promise((r) =>
      child.on('exit', (code) => {
        r(code)
      }),
    ),
  }
}

export async function until<T>(f: () => T | undefined, what: string, ms = 30_000): Promise<T> {
  const end = Date.now() + ms
  for (;;) {
    const v = f()
    if (v !== undefined) return v
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 20))
  }
}

export const text = (path: string): string => {
  try {
    return readFileSync(path, 'utf8')
  } catch {
    return ''
  }
}
export const lines = (path: string): number =>
  text(path)
    .split('\n')
    .filter((l) => l !== '').length
