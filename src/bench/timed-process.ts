/**
 * A command in a process of its own, timed, with its peak memory: for the peer node's RSS and the
 * verifier's cold start.
 */
import { spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { performance } from 'node:perf_hooks'

/** Runs a command, returning its wall time and its peak RSS (VmHWM, polled from /proc). */
export function timedProcess(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<{ ms: number; peakRssMiB: number; code: number | null }> {
  return new Promise((resolve) => {
    const t0 = performance.now()
    const child = spawn(process.execPath, [...args], { env, stdio: 'ignore' })
    let peak = 0
    const poll = setInterval(() => {
      try {
        const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${child.pid ?? 0}/status`, 'utf8'))
        if (m?.[1] !== undefined) peak = Math.max(peak, Number(m[1]) / 1024)
      } catch {
        // The process has exited.
      }
    }, 20)
    child.on('exit', (code) => {
      clearInterval(poll)
      resolve({ ms: performance.now() - t0, peakRssMiB: peak, code })
    })
  })
}
