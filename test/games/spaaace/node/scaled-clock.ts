/**
 * A clock that runs `speed` times faster than real time, from `origin`: protocol time for tests of
 * real networked nodes, whose ticks would otherwise last tens of seconds (a tick's waits are fixed
 * multiples of SKEW_MS and Δ, protocol/SPAAACE-PEERS.md §3.1). All nodes of a test share one.
 * Chosen so that loopback delivery and a busy machine's pauses stay well inside Δ once scaled.
 */
import type { Clock } from '../../../../src/core/session/clock.js'

export function scaledClock(speed: number, origin: number): Clock {
  const realStart = performance.now()
  return {
    now: () => origin + (performance.now() - realStart) * speed,
    sleep(ms, signal) {
      return new Promise((resolve) => {
        if (signal?.aborted === true || ms <= 0) {
          resolve()
          return
        }
        const timer = setTimeout(done, ms / speed)
        function done(): void {
          clearTimeout(timer)
          signal?.removeEventListener('abort', done)
          resolve()
        }
        signal?.addEventListener('abort', done, { once: true })
      })
    },
  }
}
