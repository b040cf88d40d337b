/**
 * The prompts of the terminal game: the interface it asks through (tests script it) and the real
 * one, @inquirer/prompts on the process's terminal or on given streams.
 */
import { input, select } from '@inquirer/prompts'
import { Writable } from 'node:stream'
import { timedInput } from './timed-input.js'

/** The prompts the game needs; the real one is inquirer, tests may script it. */
export interface Prompter {
  /** With `signal`, the prompt is withdrawn when it aborts (the promise rejects); `default` is editable text. */
  input(o: {
    message: string
    validate?: (v: string) => true | string
    transformer?: (v: string) => string
    default?: string
    signal?: AbortSignal
    /** A clock shown after the message and redrawn as it runs (the move's time left), or none. */
    clock?: () => string | undefined
  }): Promise<string>
  select<T>(o: { message: string; choices: readonly { name: string; value: T; description?: string }[] }): Promise<T>
  confirm(o: { message: string; default?: boolean }): Promise<boolean>
  /**
   * What to do with a whole line typed while no prompt is open (waiting for the opponent's move):
   * `handle` returns true when it took the line (a chat line sent); any other line is dropped, and
   * said to be, so that it never answers the next prompt.
   */
  between?(handle: (line: string) => boolean | Promise<boolean>): void
}

export interface PromptStreams {
  readonly input: NodeJS.ReadableStream
  readonly output: NodeJS.WritableStream
}

/** A confirmation's answers: yes, no, or nothing typed (the default). */
const YES_NO = /^(y|yes|n|no)?$/i

function confirmed(typed: string, byDefault: boolean): boolean {
  const v = typed.trim().toLowerCase()
  return v === '' ? byDefault : v.startsWith('y')
}

/** Inquirer prompts on the given streams (default: the process's terminal). */
export function inquirerPrompter(streams?: PromptStreams): Prompter {
  // Inquirer ends the output stream it is given when a prompt is done; a stream that outlives one
  // prompt (a test's screen, a pipe) gets a fresh forwarding stream per prompt.
  // It carries the stream's width, if it has one: inquirer breaks and erases its lines by it.
  const forward = (out: NodeJS.WritableStream): Writable =>
    Object.defineProperty(
      new Writable({
        write: (chunk: Buffer, _enc, done) =>
          void out.write(chunk, () => {
            done()
          }),
      }),
      'columns',
      { get: () => (out as { columns?: number }).columns },
    )
  const ctx = (
    signal?: AbortSignal,
  ):
    | { input?: NodeJS.ReadableStream; output?: Writable; clearPromptOnDone?: boolean; signal?: AbortSignal }
    | undefined => {
    const s = signal === undefined ? {} : { signal }
    return streams === undefined
      ? signal === undefined
        ? undefined
        : s
      : { input: streams.input, output: forward(streams.output), clearPromptOnDone: false, ...s }
  }
  const stdin = (): NodeJS.ReadableStream => streams?.input ?? process.stdin
  const gap = streams === undefined ? typedAheadGuard(process.stdin, process.stdout) : undefined
  /** Each prompt has the terminal alone; between prompts, lines typed are read and dropped. */
  const own = <T>(prompt: () => Promise<T>): Promise<T> => {
    gap?.stop()
    return prompt().finally(() => gap?.start())
  }
  return {
    input: (o) =>
      own(() =>
        untilClosed(stdin(), o.signal, (signal) =>
          o.clock !== undefined
            ? timedInput(
                {
                  message: o.message,
                  clock: o.clock,
                  ...(o.default === undefined || o.default === '' ? {} : { default: o.default }),
                  ...(o.validate === undefined ? {} : { validate: o.validate }),
                  ...(o.transformer === undefined
                    ? {}
                    : {
                        transformer: (v: string, { isFinal }: { isFinal: boolean }) =>
                          isFinal ? v : (o.transformer?.(v) ?? v),
                      }),
                },
                ctx(signal),
              )
            : input(
                {
                  message: o.message,
                  ...(o.default === undefined || o.default === ''
                    ? {}
                    : { default: o.default, prefill: 'editable' as const }),
                  ...(o.validate === undefined ? {} : { validate: o.validate }),
                  // A refused line stays to be mended (its error, shown under it, names what was wrong).
                  theme: { validationFailureMode: 'keep' as const },
                  ...(o.transformer === undefined
                    ? {}
                    : {
                        transformer: (v: string, { isFinal }: { isFinal: boolean }) =>
                          isFinal ? v : (o.transformer?.(v) ?? v),
                      }),
                },
                ctx(signal),
              ),
        ),
      ),
    select: <T>(o: { message: string; choices: readonly { name: string; value: T; description?: string }[] }) =>
      own(() =>
        untilClosed(stdin(), undefined, (signal) =>
          select<T>({ message: o.message, choices: o.choices.map((c) => ({ ...c })) }, ctx(signal)),
        ),
      ),
    // Inquirer's own confirm takes any other answer as the default: "x" or "nah" accepted terms,
    // signed a record or resigned. Here only y, yes, n, no (any case) or Enter answer; anything
    // else is refused under the prompt and the question stays.
    confirm: (o) =>
      own(() =>
        untilClosed(stdin(), undefined, (signal) => {
          const yes = o.default ?? true
          return input(
            {
              message: o.message,
              validate: (v: string) => YES_NO.test(v.trim()) || `Answer y or n (Enter: ${yes ? 'yes' : 'no'}).`,
              // Drawn as inquirer's confirm draws itself: "(Y/n)" while asked, "Yes" or "No" once answered.
              transformer: (v: string, { isFinal }: { isFinal: boolean }) =>
                isFinal ? (confirmed(v, yes) ? 'Yes' : 'No') : `${yes ? '(Y/n)' : '(y/N)'} ${v}`,
            },
            ctx(signal),
          ).then((v) => confirmed(v, yes))
        }),
      ),
    between: (h) => {
      gap?.take(h)
    },
  }
}

/**
 * Lines a person types while no prompt is open (waiting for the opponent's move, say) must not
 * answer the next prompt: a terminal keeps them, the next prompt read them at once, and a move
 * typed while waiting was taken as the next turn's record with "Sign and send? (Y/n)" under it.
 * Between prompts the terminal is left as it is (cooked: Ctrl-C stays a signal, and a process
 * killed then leaves no raw terminal behind), and each whole line that arrives is dropped and
 * said to be. A line not ended with Enter is still in the terminal's buffer and shows in the next
 * prompt, editable, never sent by itself.
 */
export interface TypedAheadGuard {
  start(): void
  stop(): void
  /** Who may take a line instead (a chat line while waiting): `handle` returns true when it did. */
  take(handle: (line: string) => boolean | Promise<boolean>): void
}

/**
 * One guard per input stream: a command may make several prompters on the one terminal (the
 * join's terms, then the player's moves), and a second guard still reading while the other's
 * prompt was open said "(not kept ...)" of every record the joiner typed at its prompt.
 */
const GUARDS = new WeakMap<NodeJS.ReadStream, TypedAheadGuard>()

export function typedAheadGuard(input: NodeJS.ReadStream, output: NodeJS.WritableStream): TypedAheadGuard | undefined {
  if (!input.isTTY) return undefined
  const known = GUARDS.get(input)
  if (known !== undefined) return known
  let handle: (line: string) => boolean | Promise<boolean> = () => false
  // In order, one line at a time: a chat line is sent before the next one is looked at.
  let queue = Promise.resolve()
  const drop = (chunk: Buffer | string): void => {
    for (const line of chunk.toString().split(/\r?\n|\r/)) {
      if (line.trim() === '') continue
      queue = queue.then(async () => {
        const taken = await Promise.resolve(handle(line)).catch(() => false)
        if (!taken) output.write(`(not kept, typed before the prompt: ${JSON.stringify(line)})\n`)
      })
    }
  }
  let on = false
  const guard: TypedAheadGuard = {
    start() {
      if (on || input.readableEnded) return
      on = true
      input.on('data', drop)
      input.resume()
      // Reading between prompts must not keep a finished game's process alive.
      input.unref()
    },
    stop() {
      if (!on) return
      on = false
      input.removeListener('data', drop)
      input.pause()
      input.ref()
    },
    take(h) {
      handle = h
    },
  }
  GUARDS.set(input, guard)
  return guard
}

/** What a prompt rejects with when its input is closed: the name inquirer gives Ctrl-C, so every caller leaves alike. */
function closedInput(): Error {
  return Object.assign(new Error('the input was closed (Ctrl-D, or the end of piped input)'), {
    name: 'ExitPromptError',
  })
}

/**
 * Runs a prompt that settles when its input closes. Inquirer rejects on Ctrl-C, but when readline
 * closes (Ctrl-D on an empty line, the end of piped input) it only clears its timers, and the
 * prompt never settles: a game then waited on an input that was gone, and Node exited 13 with
 * "unsettled top-level await" and no transcript written. Here the end of the stream, or a Ctrl-D
 * after which the terminal has left raw mode (readline closed), aborts the prompt, which rejects
 * as Ctrl-C does; `outer` still withdraws it as before (that rejection is the prompt's own).
 */
function untilClosed<T>(
  input: NodeJS.ReadableStream,
  outer: AbortSignal | undefined,
  run: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const stream = input as NodeJS.ReadableStream & { readableEnded?: boolean; isTTY?: boolean; isRaw?: boolean }
  if (stream.readableEnded === true) return Promise.reject(closedInput())
  const controller = new AbortController()
  let closed = false
  const close = (): void => {
    closed = true
    controller.abort()
  }
  const onOuter = (): void => {
    controller.abort(outer?.reason)
  }
  const onKey = (_text: unknown, key: { ctrl?: boolean; name?: string } | undefined): void => {
    if (key?.ctrl === true && key.name === 'd')
      setImmediate(() => {
        if (stream.isTTY === true && stream.isRaw === false) close()
      })
  }
  if (outer?.aborted === true) controller.abort(outer.reason)
  else outer?.addEventListener('abort', onOuter)
  input.on('end', close)
  input.on('keypress', onKey)
  return run(controller.signal)
    .catch((e: unknown) => {
      throw closed ? closedInput() : e
    })
    .finally(() => {
      outer?.removeEventListener('abort', onOuter)
      input.removeListener('end', close)
      input.removeListener('keypress', onKey)
    })
}
