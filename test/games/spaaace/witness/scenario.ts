/**
 * A witnessed Spaaace! game written by hand for the decision's tests (protocol/SPAAACE-WITNESSED.md
 * §7): real keys and envelopes, receipts as the decision reads them (§6.1), times on the notary's
 * clock chosen per tick. The notary's signatures are the log reader's business (`log.ts`), so here
 * a chain is given as read.
 */
import { type KeyPair, keyPairFromSecret } from '../../../../src/core/commit/keys.js'
import { type SealedEnvelope, sealEnvelope } from '../../../../src/games/spaaace/peers/envelope.js'
import { type SealedGenesis, signAccept, tickTimes } from '../../../../src/games/spaaace/peers/genesis.js'
import { type Part, commitmentOf, saltOf } from '../../../../src/games/spaaace/peers/parts.js'
import type { ChainFault, ChainReceipt, WitnessedEvidence } from '../../../../src/games/spaaace/witness/decide.js'
import { fixed, liveGenesis, roster, sealedGenesis } from '../peers/fixtures.js'

export interface Scenario {
  readonly genesis: SealedGenesis
  readonly keys: readonly KeyPair[]
  readonly accepts: readonly SealedEnvelope[]
  /** Every envelope signed, receipted or not, by id. */
  readonly signed: Map<string, SealedEnvelope>
  readonly chain: ChainReceipt[]
  /** Player `q`'s last signed envelope (its `prev` for the next). */
  readonly tips: SealedEnvelope[]
  readonly seeds: readonly Uint8Array[]
  /** The notary's clock: the last receipt's time. */
  now: number
}

export function witnessedScenario(n: number, maxTicks = 3, absentTicks = 3): Scenario {
  const base = liveGenesis(n)
  const genesis = sealedGenesis({
    ...base,
    terms: { ...base.terms, maxTicks, absentTicks },
    // The decision never checks the notary's signatures (the log reader does): any usable key.
    notaryKey: keyPairFromSecret(fixed('notary key')).publicKey,
  })
  const keys = roster(n)
  const accepts = keys.map((k, i) => signAccept(k, genesis.game, i))
  return {
    genesis,
    keys,
    accepts,
    signed: new Map(),
    chain: [],
    tips: [...accepts],
    seeds: keys.map((_, i) => fixed(`witnessed seed ${i}`)),
    now: tickTimes(genesis.genesis.timing, 1).start,
  }
}

/** The times of tick `t`: `T_t`, `C_t`, `R_t`. */
export function times(s: Scenario, t: number): { start: number; C: number; R: number } {
  const at = tickTimes(s.genesis.genesis.timing, t)
  return { start: at.start, C: at.commitCut, R: at.revealCut }
}

/** Player `q` signs its next envelope with `parts` (not receipted). */
export function sign(s: Scenario, q: number, parts: Part[], heads = false): SealedEnvelope {
  const tip = s.tips[q]
  const key = s.keys[q]
  if (tip === undefined || key === undefined) throw new Error('no such player')
  const e = sealEnvelope(key, {
    author: q,
    seq: tip.envelope.seq + 1,
    game: s.genesis.game,
    prev: tip.hash,
    heads: heads
      ? [{ author: q === 0 ? 1 : 0, seq: 0, hash: s.accepts[q === 0 ? 1 : 0]?.hash ?? new Uint8Array(32) }]
      : [],
    parts,
  })
  s.tips[q] = e
  s.signed.set(e.id, e)
  return e
}

/** The notary receipts `e` at `time` (times never decrease along the chain). */
export function receipt(s: Scenario, e: SealedEnvelope, time: number): number {
  const index = s.chain.length + 1
  s.chain.push({ kind: 'envelope', index, time, author: e.envelope.author, seq: e.envelope.seq, envelopeHash: e.hash })
  s.now = time
  return index
}

export function mark(s: Scenario, t: number, cut: 0 | 1, time: number): void {
  s.chain.push({ kind: 'mark', index: s.chain.length + 1, time, t, cut })
  s.now = time
}

export function complaint(s: Scenario, complainant: number, target: number, time: number): void {
  s.chain.push({ kind: 'complaint', index: s.chain.length + 1, time, complainant, target })
  s.now = time
}

export const ordersFor = (t: number, q: number): string => ((t + q) % 3 === 0 ? 'buy 1' : '-')

export function commitPart(s: Scenario, q: number, t: number, orders = ordersFor(t, q)): Part {
  const seed = s.seeds[q] ?? new Uint8Array(32)
  const salt = saltOf(s.genesis.game, q, seed, t)
  return { type: 'commit', tick: t, commitment: commitmentOf(s.genesis.game, q, t, salt, orders) }
}

export function revealPart(s: Scenario, q: number, t: number, orders = ordersFor(t, q)): Part {
  const seed = s.seeds[q] ?? new Uint8Array(32)
  return { type: 'reveal', tick: t, salt: saltOf(s.genesis.game, q, seed, t), orders }
}

/**
 * One honest tick for the players in `who`: each commits 1 s into the tick, a mark passes `C_t`, each
 * reveals 1 s after it, a mark passes `R_t`. Returns the envelope receipt indices by player.
 */
export function honestTick(
  s: Scenario,
  t: number,
  who: readonly number[],
): Map<number, { commit: number; reveal: number }> {
  const at = times(s, t)
  const out = new Map<number, { commit: number; reveal: number }>()
  const commits = new Map<number, number>()
  who.forEach((q, k) => commits.set(q, receipt(s, sign(s, q, [commitPart(s, q, t)]), at.start + 1000 + k)))
  mark(s, t, 0, at.C + 1)
  who.forEach((q, k) =>
    out.set(q, { commit: commits.get(q) ?? 0, reveal: receipt(s, sign(s, q, [revealPart(s, q, t)]), at.C + 1000 + k) }),
  )
  mark(s, t, 1, at.R + 1)
  return out
}

/** Each player's seed envelope, receipted once the chain passes `F_T`. */
export function seeds(s: Scenario, who: readonly number[], after: number): void {
  mark(s, after + 1, 0, times(s, after + 1).C + 1)
  who.forEach((q, k) =>
    receipt(s, sign(s, q, [{ type: 'seed', seed: s.seeds[q] ?? new Uint8Array(32) }]), s.now + 1 + k),
  )
}

export function evidence(
  s: Scenario,
  o: { drop?: (id: string) => boolean; extra?: Uint8Array[]; fault?: ChainFault; chain?: ChainReceipt[] } = {},
): WitnessedEvidence {
  return {
    genesis: s.genesis,
    started: true,
    accepts: s.accepts.map((a) => a.bytes),
    chain: o.chain ?? s.chain,
    ...(o.fault === undefined ? {} : { fault: o.fault }),
    envelopes: [
      ...[...s.signed.values()].filter((e) => o.drop?.(e.id) !== true).map((e) => e.bytes),
      ...(o.extra ?? []),
    ],
  }
}
