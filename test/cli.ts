import { expect } from 'vitest'
import { INVITE_PREFIX } from '../src/games/spaceships/net/invite.js'
import { type CliIo, processIo } from '../src/cli/io.js'
import { run } from '../src/cli/main.js'

/** Runs the CLI in-process, capturing output; files come from the map or from disk, and writes land in the map. */
export async function cli(
  args: string[],
  files: Record<string, string> = {},
  extra: Partial<Pick<CliIo, 'env' | 'isTty' | 'prompter'>> & { tap?: (text: string) => void } = {},
): Promise<{ code: number; out: string; err: string; files: Record<string, string> }> {
  let out = ''
  let err = ''
  const io: CliIo = {
    stdout: (t) => {
      out += t
      extra.tap?.(t)
    },
    stderr: (t) => (err += t),
    readFile: async (path) => {
      const text = files[path]
      if (text !== undefined) return new TextEncoder().encode(text)
      // The process's own reader, so that its bound (MAX_INPUT_BYTES) is what the tests meet.
      return processIo.readFile(path)
    },
    writeFile: (path, text) => {
      files[path] = text
      return Promise.resolve()
    },
    ...(extra.env === undefined ? {} : { env: extra.env }),
    ...(extra.isTty === undefined ? {} : { isTty: extra.isTty }),
    ...(extra.prompter === undefined ? {} : { prompter: extra.prompter }),
  }
  const code = await run(args, io)
  return { code, out, err, files }
}

/** An invite line as a host prints it (SPEC §2.3), whatever the protocol version. */
export const INVITE_PATTERN = new RegExp(`${INVITE_PREFIX.replace('.', '\\.')}\\S+`)

/** Waits until a host's screen shows its invite, and returns it. */
export async function inviteOn(screen: () => string): Promise<string> {
  await expect.poll(screen, { timeout: 20_000 }).toMatch(INVITE_PATTERN)
  return INVITE_PATTERN.exec(screen())?.[0] ?? ''
}
