/**
 * Who chooses a node's orders (protocol/SPAAACE-PEERS.md §6.1): a bot from its seeded source, or a
 * person at a prompt. Either answers in the text a commitment binds: the record's ORDERS syntax
 * with the protocol's labels `p1`..`pn` (§4.3), whatever labels the screen shows.
 */
import type { SpaaaceBot } from '../bot/bot.js'
import { peerLabels } from '../peers/domain.js'
import type { Rng } from '../referee/random.js'
import { formatOrderSet } from '../rules/orders.js'
import { type Answer, type NotedOrders, type OrderPrompter, readAnswer, sendOrNote } from '../ui/game.js'
import type { Clock } from '../../../core/session/clock.js'
import type { ChoiceView, Chooser } from './peer.js'

/** A bot's orders, at once (a bot never misses a commit guard). */
export function botChooser(bot: SpaaaceBot, rng: Rng): Chooser {
  return {
    choose(view) {
      const orders = bot.orders({ self: view.self, state: view.state }, rng)
      return formatOrderSet(orders, peerLabels(view.state.players.length))
    },
  }
}

/** S-37: a person's line, read with the screen's labels and written with the protocol's (§4.3). */
export function readPersonAnswer(line: string, labels: readonly string[], self: number): Answer {
  return readAnswer(line, labels, self, peerLabels(labels.length))
}

/** How long before the deadline orders said to have notes go as typed: time to sign and send them. */
const NOTED_MARGIN_MS = 3_000

/** Read through a call: a signal's state changes while a prompt waits. */
const isAborted = (signal: AbortSignal): boolean => signal.aborted

export interface PersonChooser extends Chooser {
  /** While the person is being asked: resolves when they answer. */
  busy(): Promise<void> | undefined
}

/** The prompt's report that the person pressed Ctrl-C or closed its input (inquirer's ExitPromptError). */
function closedByPerson(e: unknown): boolean {
  return e instanceof Error && e.name === 'ExitPromptError'
}

/**
 * A person at `prompter`, who writes labels as the screen shows them (`labels`, roster order).
 * `help` prints the guide; `quit` calls `onQuit` and commits nothing.
 */
export function personChooser(o: {
  readonly prompter: OrderPrompter
  readonly labels: readonly string[]
  readonly guide: () => readonly string[]
  readonly print: (line: string) => void
  readonly onQuit: () => void
  /**
   * The time left to choose, redrawn as it runs, where protocol time is the wall clock's (among
   * people); absent where it stands still while the person chooses (`spaaace play`).
   */
  readonly timeLeft?: (view: ChoiceView) => string | undefined
  /**
   * The clock `view.deadline` is read on, where it runs while the person chooses (among people):
   * orders said to have notes then go as typed once the deadline is near, never lost to it.
   */
  readonly clock?: Clock
}): PersonChooser {
  let pending: Promise<void> | undefined
  return {
    busy: () => pending,
    choose(view: ChoiceView, signal: AbortSignal): Promise<string | null> {
      const ask = async (): Promise<string | null> => {
        // The orders last answered with notes (`answerNotes`): the same again sends them, and so
        // does the deadline coming near (they are legal orders the person typed and sent).
        let warned: NotedOrders | undefined
        let near: AbortController | undefined
        for (;;) {
          if (signal.aborted) return null
          let line: string
          try {
            const asked = near === undefined ? signal : AbortSignal.any([signal, near.signal])
            line = await o.prompter.input({
              message: `Your orders for tick ${view.tick} (help, quit):`,
              validate: (v) => {
                const a = readPersonAnswer(v, o.labels, view.self)
                return a.kind === 'error' ? a.reason : true
              },
              signal: asked,
              ...(o.timeLeft === undefined ? {} : { clock: () => o.timeLeft?.(view) }),
              ...(warned === undefined ? {} : { default: warned.line }),
            })
          } catch (e) {
            if (warned !== undefined && near?.signal.aborted === true && !isAborted(signal)) {
              o.print(`Time is nearly up for tick ${view.tick}: your orders go as typed (${warned.line}).`)
              return warned.text
            }
            // Ctrl-C, or Ctrl-D closing the input: the person leaves, as `quit` does (the game is
            // abandoned and the transcript written), never a tick skipped without a word or a
            // prompt waiting on an input that is gone.
            if (!isAborted(signal) && closedByPerson(e)) {
              o.onQuit()
              return null
            }
            // The commit guard passed (§6.1): the prompt is withdrawn and nothing is committed.
            if (!isAborted(signal)) throw e
            o.print(`Time is up for tick ${view.tick}: nothing was committed (S-61).`)
            return null
          }
          const a = readPersonAnswer(line, o.labels, view.self)
          switch (a.kind) {
            case 'orders': {
              const written = peerLabels(o.labels.length)
              const said = sendOrNote(
                { state: view.state, self: view.self, written, shown: o.labels },
                line,
                a.text,
                warned,
                o.print,
              )
              if (said === 'send') return a.text
              warned = said
              if (o.clock !== undefined) {
                const left = view.deadline - NOTED_MARGIN_MS - o.clock.now()
                if (left <= 0) {
                  o.print('Too little time is left to change them: your orders go as typed.')
                  return a.text
                }
                const timer = (near = new AbortController())
                void o.clock.sleep(left, AbortSignal.any([signal, timer.signal])).then(() => {
                  timer.abort()
                })
              }
              break
            }
            case 'quit':
              o.onQuit()
              return null
            case 'help':
              for (const l of o.guide()) o.print(l)
              break
            case 'error':
              o.print(`Not an order set: ${a.reason}`)
              break
          }
        }
      }
      const answer = ask()
      pending = answer.then(
        () => undefined,
        () => undefined,
      )
      void pending.then(() => {
        pending = undefined
      })
      return answer
    },
  }
}
