/**
 * SPEC §2.2, §2.3: how a joiner paces its dials to the host, and when it stops dialling a game
 * the host no longer serves.
 */
import type { Clock } from '../../../core/session/clock.js'

const REDIAL_MIN_MS = 250
const REDIAL_MAX_MS = 5_000
/** SPEC §2.3: refused streams in a row after which a joiner stops dialling for the game. */
export const REFUSALS_BEFORE_GIVING_UP = 3
/** SPEC §2.3: the wait after the first refused stream; it doubles after each further one, up to REFUSED_MAX_MS. */
const REFUSED_MIN_MS = 1_000
const REFUSED_MAX_MS = 30_000

/**
 * SPEC §2.2: the wait before the next redial. It doubles from REDIAL_MIN_MS up to REDIAL_MAX_MS,
 * but never beyond a quarter of the time left before the current deadline, so an outage that
 * ends shortly before the deadline is noticed in time.
 */
export function redialDelay(previous: number, leftMs: number | undefined): number {
  return withinDeadline(Math.min(REDIAL_MAX_MS, previous * 2), leftMs)
}

/** A wait, but never beyond a quarter of the time left before the deadline, nor under REDIAL_MIN_MS (SPEC §2.2). */
function withinDeadline(ms: number, leftMs: number | undefined): number {
  return leftMs === undefined ? ms : Math.max(REDIAL_MIN_MS, Math.min(ms, Math.floor(leftMs / 4)))
}

/**
 * When a joiner may dial next, and when it gives up (SPEC §2.2, §2.3). A dial that opened no
 * stream, and a stream that ended before the host admitted it, back off as `redialDelay` says; a
 * stream the host refused backs off from REFUSED_MIN_MS, doubling up to REFUSED_MAX_MS (both
 * within the deadline); REFUSALS_BEFORE_GIVING_UP refusals with no game frame between end the
 * dialling. A lost admitted stream is redialled at once. Time is the given clock's, so tests drive
 * it without sleeping.
 */
export class DialPacer {
  private notBefore = Number.NEGATIVE_INFINITY
  private failedStep = REDIAL_MIN_MS
  private refusedStep = REFUSED_MIN_MS
  private refusals = 0

  constructor(
    private readonly clock: Clock,
    /** Milliseconds left before the current deadline, if one runs (SPEC §6.6). */
    private readonly left: () => number | undefined = () => undefined,
  ) {}

  /** Streams refused in a row. */
  get refused(): number {
    return this.refusals
  }

  get gaveUp(): boolean {
    return this.refusals >= REFUSALS_BEFORE_GIVING_UP
  }

  /** Milliseconds before the next dial may start (0: now). */
  waitLeft(): number {
    return Math.max(0, this.notBefore - this.clock.now())
  }

  /**
   * Resolves once the next dial may start. A refusal noticed while waiting (it can arrive after
   * the stream's end was seen) pushes the time back, and the wait goes on.
   */
  async ready(signal?: AbortSignal): Promise<void> {
    for (let w = this.waitLeft(); w > 0 && signal?.aborted !== true; w = this.waitLeft())
      await this.clock.sleep(w, signal)
  }

  /** A dial that opened no stream, or a stream that ended before the host admitted it: returns the wait. */
  failed(): number {
    const wait = withinDeadline(this.failedStep, this.left())
    this.failedStep = redialDelay(this.failedStep, undefined)
    this.hold(wait)
    return wait
  }

  /** The host refused a stream (SPEC §2.3): returns the wait before the next dial. */
  refusedStream(): number {
    this.refusals++
    const wait = withinDeadline(this.refusedStep, this.left())
    this.refusedStep = Math.min(REFUSED_MAX_MS, this.refusedStep * 2)
    this.hold(wait)
    return wait
  }

  /** The host admitted a stream: its loss is redialled at once, and that backoff starts again. */
  admitted(): void {
    this.notBefore = Number.NEGATIVE_INFINITY
    this.failedStep = REDIAL_MIN_MS
  }

  /**
   * A frame of the game came from the host: it serves the game, so the count of refusals starts
   * again. (Only this proves it: a stream admitted by time alone may still be refused on a slow link.)
   */
  served(): void {
    this.refusedStep = REFUSED_MIN_MS
    this.refusals = 0
  }

  private hold(ms: number): void {
    this.notBefore = Math.max(this.notBefore, this.clock.now() + ms)
  }
}
