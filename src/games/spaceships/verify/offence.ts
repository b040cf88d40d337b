/** Offences as the verifier and the session report them (C-28; protocol/SPEC.md §12.4, §12.6). */
import type { OffenceClass, Role } from '../protocol/messages.js'

/** SPEC §12.6: where in a turn an offence's anchor sits. */
export const STAGE = { schedule: 0, setup: 1, record: 2, results: 3, flashcube: 4, reveal: 5 } as const
export type Stage = (typeof STAGE)[keyof typeof STAGE]

export interface ProtocolOffence {
  readonly offender: Role
  readonly class: OffenceClass
  /** The rule or spec section broken, e.g. `2.6.1 §5.2.2 C-20` or `SPEC §7.6`. */
  readonly rule: string
  /** The anchor's turn (SPEC §12.6): a part's, the walk's, or an envelope's turn by place; 0 for hellos and setups. */
  readonly turn: number
  readonly stage: Stage
  readonly detail: string
  /** The offender's `seq` of the envelope holding the anchor, when known. */
  readonly seq?: number
}

/** SPEC §12.6: offences ordered by (turn, stage, role). */
export function compareOffences(x: ProtocolOffence, y: ProtocolOffence): number {
  return x.turn - y.turn || x.stage - y.stage || (x.offender === y.offender ? 0 : x.offender === 'A' ? -1 : 1)
}

export function firstOffence(list: readonly ProtocolOffence[]): ProtocolOffence | undefined {
  let best: ProtocolOffence | undefined
  for (const o of list) if (best === undefined || compareOffences(o, best) < 0) best = o
  return best
}

export { ROLE_INDEX, INDEX_ROLE, otherRole } from '../protocol/messages.js'
