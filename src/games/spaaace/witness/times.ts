/**
 * The cuts of witnessed Spaaace! on the notary's time (SPAAACE-WITNESSED §2, §6.2, §9.3): `C_t`,
 * `R_t`, `F_t = C_{t+1}`, `tick(τ)`, the horizon and the registration deadline, all from P §3.1's
 * timing. Pure arithmetic.
 */
import { tickLength } from '../peers/domain.js'
import { type Timing, tickTimes } from '../peers/genesis.js'

/** §6.2: `X(t, cut)`: `C_t` for cut 0, `R_t` for cut 1. */
export function cutTime(timing: Timing, t: number, cut: 0 | 1): number {
  const x = tickTimes(timing, t)
  return cut === 0 ? x.commitCut : x.revealCut
}

/** §2: `F_t = C_{t+1}`, the end of tick t's complaint window. */
export function complaintWindowEnd(timing: Timing, t: number): number {
  return tickTimes(timing, t + 1).commitCut
}

/** §2: `tick(τ)`: the least `t ≥ 1` with `τ ≤ R_t`, or `maxTicks + 1` if none. */
export function tickOf(timing: Timing, maxTicks: number, time: number): number {
  const r1 = tickTimes(timing, 1).revealCut
  const t = time <= r1 ? 1 : 1 + Math.ceil((time - r1) / tickLength(timing))
  return Math.min(t, maxTicks + 1)
}

/** §2, §9.3: `C_{maxTicks+1} + L`, the notary's horizon and seal slack's end. */
export function horizonOf(timing: Timing, maxTicks: number): number {
  return tickTimes(timing, maxTicks + 1).commitCut + tickLength(timing)
}

/** §3: registration closes at `G_1` (every player can still commit for tick 1). */
export function registerByOf(timing: Timing): number {
  return tickTimes(timing, 1).guard
}
