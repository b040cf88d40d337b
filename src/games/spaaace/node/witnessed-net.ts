/**
 * A witnessed Spaaace! node on the network (protocol/SPAAACE-WITNESSED.md §3, §8): before the game
 * is registered, the players' accepts travel over the mesh of SPAAACE-PEERS §8 (they are envelopes at
 * `seq 0`, §8.4 lets a witnessed game keep the mesh) until some node holds all of them and registers
 * the genesis with the notary; from then on each node only checks in with the notary, on its own
 * schedule (`checkin.ts`), and need not be online in between.
 */
import type { Libp2p } from '@libp2p/interface'
import { runMeshOverLibp2p } from '../../../core/mesh/libp2p.js'
import { MeshNode } from '../../../core/mesh/node.js'
import type { Clock } from '../../../core/session/clock.js'
import type { TranscriptStore } from '../../../core/transcript/file.js'
import { spaaaceMeshCodec, spaaaceMeshLimits, spaaaceWithinBound } from '../mesh/codec.js'
import { MAX_FRAME, PEERS_PROTOCOL_ID } from '../peers/domain.js'
import { decodeEnvelope } from '../peers/envelope.js'
import { type SealedGenesis, isAccept } from '../peers/genesis.js'
import { endIsFinal } from '../witness/checkin.js'
import { ACCEPT_BYTES } from '../witness/domain.js'
import type { CheckinResult, WitnessedSeat } from './witnessed.js'

/** The accepts `store` holds, by roster index (authenticated, §3.2). */
export function acceptsHeld(
  genesis: SealedGenesis,
  store: { envelopes(): readonly Uint8Array[] },
): (Uint8Array | undefined)[] {
  const n = genesis.genesis.keys.length
  const out: (Uint8Array | undefined)[] = Array.from({ length: n }, () => undefined)
  for (const b of store.envelopes()) {
    // An accept is 135 bytes (§3): nothing longer needs decoding here.
    if (b.length !== ACCEPT_BYTES) continue
    const d = decodeEnvelope(b, { players: n, game: genesis.game })
    if (d.ok && isAccept(genesis, d.value)) out[d.value.envelope.author] = d.value.bytes
  }
  return out
}

/** Read through a call: a signal's state changes while a check-in waits. */
const isAborted = (signal: AbortSignal): boolean => signal.aborted

export interface AcceptsOptions {
  readonly node: Libp2p
  readonly genesis: SealedGenesis
  readonly self: number
  /** The roster's PeerIds, by roster index. */
  readonly roster: readonly string[]
  readonly addresses?: readonly (readonly string[] | undefined)[]
  /** Holds this node's own accept already; every accept the mesh brings is written to it. */
  readonly store: TranscriptStore
  readonly clock: Clock
  /** Asked now and then: the game is registered (then nobody needs this node's accept any more). */
  readonly registered: () => Promise<boolean>
  readonly signal: AbortSignal
  /** How often `registered` is asked while accepts are missing. */
  readonly pollMs?: number
}

/** §3: exchanges accepts over the mesh until this node holds all `n`, or the game is registered. */
export async function exchangeAccepts(o: AcceptsOptions): Promise<'all' | 'registered' | 'aborted'> {
  const n = o.genesis.genesis.keys.length
  const life = new AbortController()
  const signal = AbortSignal.any([life.signal, o.signal])
  const mesh = new MeshNode({
    codec: spaaaceMeshCodec(o.genesis.genesis.keys, o.genesis.game),
    self: o.self,
    clock: o.clock,
    persistence: o.store,
    limits: spaaaceMeshLimits(o.genesis.genesis.timing.marginMs),
    // Only accepts travel here (seq 0), always within the bound.
    withinBound: spaaaceWithinBound(n, o.genesis.game, () => 0),
  })
  for (const a of acceptsHeld(o.genesis, o.store)) if (a !== undefined) mesh.publish(a)
  mesh.start()
  const run = await runMeshOverLibp2p({
    node: o.node,
    protocol: PEERS_PROTOCOL_ID,
    self: o.self,
    roster: o.roster,
    mesh,
    ...(o.addresses === undefined ? {} : { addresses: o.addresses }),
    signal,
    clock: o.clock,
    maxFrameBytes: MAX_FRAME,
    // SPAAACE-PEERS §8 Addresses: the accepts need no path through the host's nodes either.
    shareAddresses: true,
  })
  let outcome: 'all' | 'registered' | 'aborted' = 'aborted'
  try {
    while (!signal.aborted) {
      if (acceptsHeld(o.genesis, o.store).filter((a) => a !== undefined).length === n) {
        outcome = 'all'
        // The others may still lack some: forward a little longer (a mesh round, §8).
        await o.clock.sleep(4 * o.genesis.genesis.timing.marginMs, o.signal)
        break
      }
      if (await o.registered().catch(() => false)) {
        outcome = 'registered'
        break
      }
      await o.clock.sleep(o.pollMs ?? 2000, signal)
    }
  } finally {
    life.abort()
    await run.done
  }
  return o.signal.aborted ? 'aborted' : outcome
}

/** Whether a check-in left the node nothing to do: the end is final and its seed receipted, or the log sealed. */
export function seatDone(r: CheckinResult, self: number): boolean {
  const { log, decision } = r.witnessed
  if (log.sealed) return true
  if (decision.end.kind === 'stalled' && decision.end.cause === 'notary-fault') return true
  if (!endIsFinal(decision)) return false
  return log.decided.some((x) => x.kind === 'envelope' && x.author === self && (x.flags & 4) !== 0)
}

/**
 * §8.1: checks in now and then at the times the plan asks (a live node), until its part is done or
 * `signal` aborts. `onCheckin` sees every result (the screen).
 */
export async function runWitnessedSeat(
  seat: WitnessedSeat,
  self: number,
  clock: Clock,
  signal: AbortSignal,
  onCheckin: (r: CheckinResult) => void,
): Promise<CheckinResult | undefined> {
  let last: CheckinResult | undefined
  while (!signal.aborted) {
    try {
      last = await seat.checkIn(signal)
    } catch (e) {
      if (isAborted(signal)) break
      throw e
    }
    onCheckin(last)
    if (seatDone(last, self)) return last
    const next = last.plan.next ?? clock.now() + 60_000
    await clock.sleep(Math.max(0, next - clock.now()), signal)
  }
  return last
}
