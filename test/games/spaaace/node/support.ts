/** What the node tests record of each node: the ticks it settled, with what counted. */
import { toHex } from '../../../../src/core/commit/bytes.js'
import type { PeerEvents } from '../../../../src/games/spaaace/node/peer.js'
import { stateBytes } from '../../../../src/games/spaaace/peers/state-bytes.js'
import type { GameState, Submission } from '../../../../src/games/spaaace/rules/types.js'

export interface SettledTick {
  readonly t: number
  /** The hash this node signed in `state(t)`, hex. */
  readonly hash: string
  readonly submissions: readonly Submission[]
  readonly stateBytes: Uint8Array
  readonly bytesOf: (s: GameState) => Uint8Array
}

/** Events that push each tick the node settles onto `into`. */
export function collect(into: SettledTick[]): PeerEvents {
  return {
    onSettled(view) {
      // What the node signed: its own closing state over what its envelope names (§6.5).
      const own = view.own
      if (own === undefined) return
      const state = own.outcome.state
      const n = state.players.length
      into.push({
        t: view.t,
        hash: toHex(own.stateHash),
        submissions: own.submissions,
        stateBytes: stateBytes(state, n),
        bytesOf: (s) => stateBytes(s, n),
      })
    },
  }
}
