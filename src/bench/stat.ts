/**
 * The statistics of the bench's repeated measurements: how many repetitions count after warm-up,
 * their median with min and max, and how such a figure is printed.
 */

/** Repetitions that count, after a warm-up. */
export const REPS = 5

export interface Stat {
  readonly median: number
  readonly min: number
  readonly max: number
  readonly n: number
}

export function stat(xs: readonly number[]): Stat {
  const s = [...xs].sort((a, b) => a - b)
  const mid = s.length >> 1
  const median = s.length % 2 === 1 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2
  return { median, min: s[0] ?? 0, max: s[s.length - 1] ?? 0, n: s.length }
}

/** A figure as printed: its median, then (min..max). */
export const fmt = (s: Stat, digits = 2): string =>
  `${s.median.toFixed(digits)} (${s.min.toFixed(digits)}..${s.max.toFixed(digits)})`
