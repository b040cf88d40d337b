/**
 * The prompts of the terminal game: the interface it asks through (tests script it) and the real
 * one, @inquirer/prompts on the process's terminal or on given streams.
 */
import { confirm, input, select } from '@inquirer/prompts'
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
}

export interface PromptStreams {
  readonly input: NodeJS.ReadableStream
  readonly output: NodeJS.WritableStream
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
  return {
    input: (o) =>
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
            ctx(o.signal),
          )
        : input(
            {
              message: o.message,
              ...(o.default === undefined || o.default === ''
                ? {}
                : { default: o.default, prefill: 'editable' as const }),
              ...(o.validate === undefined ? {} : { validate: o.validate }),
              // A refused line leaves the box (its error, shown under it, names what was wrong).
              theme: { validationFailureMode: 'clear' as const },
              ...(o.transformer === undefined
                ? {}
                : {
                    transformer: (v: string, { isFinal }: { isFinal: boolean }) =>
                      isFinal ? v : (o.transformer?.(v) ?? v),
                  }),
            },
            ctx(o.signal),
          ),
    select: <T>(o: { message: string; choices: readonly { name: string; value: T; description?: string }[] }) =>
      select<T>({ message: o.message, choices: o.choices.map((c) => ({ ...c })) }, ctx()),
    confirm: (o) => confirm({ message: o.message, default: o.default ?? true }, ctx()),
  }
}
