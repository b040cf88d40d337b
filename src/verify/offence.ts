/** Offences as the verifier and the session report them (C-28; protocol/SPEC.md §11). */
import type { OffenceClass, Role } from '../transcript/messages.js'

export interface ProtocolOffence {
  readonly offender: Role
  readonly class: OffenceClass
  /** The rule or spec section broken, e.g. `2.6.1 §5.2.2` or `SPEC §7.3`. */
  readonly rule: string
  /** The turn it happened in; 0 for setup and the hello. */
  readonly turn: number
  readonly detail: string
  /** The sender's sequence number of the envelope that carries the offence, when one does. */
  readonly seq?: number
}

export const ROLE_INDEX: Readonly<Record<Role, 0 | 1>> = { A: 0, B: 1 }
export const INDEX_ROLE: readonly [Role, Role] = ['A', 'B']

/** Defined with the roles (transcript layer); re-exported for the verifier's callers. */
export { otherRole } from '../transcript/messages.js'
