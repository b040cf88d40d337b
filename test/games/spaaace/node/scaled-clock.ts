/**
 * A clock that runs `speed` times faster than real time, from `origin`: protocol time for tests of
 * real networked nodes, whose ticks would otherwise last tens of seconds (a tick's waits are fixed
 * multiples of SKEW_MS and Δ, protocol/SPAAACE-PEERS.md §3.1). All nodes of a test share one.
 * Chosen so that loopback delivery and a busy machine's pauses stay well inside Δ once scaled.
 *
 * `pause` stops protocol time for every node at once (`now` holds still, no sleep ends) until
 * `resume`: a test that restarts a node pauses while the node is down, so that the time a loaded
 * machine takes to start a process again is not protocol time the others play on in (a restart the
 * protocol sees as instant, which is the case such a test is about).
 */
import type { Clock } from '../../../../src/core/session/clock.js'

export interface ScaledClock extends Clock {
  pause(): void
  resume(): void
}

export function scaledClock(speed: number, origin: number): ScaledClock {
  const realStart = performance.now()
  let pausedAt: number | undefined
  let pausedFor = 0
  // Sleeps whose end came while paused: they look again at resume.
  const parked = new Set<() => void>()
  const now = (): number => origin + ((pausedAt ?? performance.now()) - pausedFor - realStart) * speed
  return {
    now,
    sleep(ms, signal) {
      return new Promise((resolve) => {
        if (signal?.aborted === true || ms <= 0) {
          resolve()
          return
        }
        const until = now() + ms
        let timer: ReturnType<typeof setTimeout> | undefined
        const arm = (): void => {
          parked.delete(arm)
          if (pausedAt !== undefined) parked.add(arm)
          else if (now() >= until) done()
          else timer = setTimeout(arm, (until - now()) / speed)
        }
        function done(): void {
          clearTimeout(timer)
          parked.delete(arm)
          signal?.removeEventListener('abort', done)
          resolve()
        }
        signal?.addEventListener('abort', done, { once: true })
        arm()
      })
    },
    pause() {
      pausedAt ??= performance.now()
    },
    resume() {
      if (pausedAt === undefined) return
      pausedFor += performance.now() - pausedAt
      pausedAt = undefined
      for (const arm of [...parked]) arm()
    },
  }
}
