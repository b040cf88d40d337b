/**
 * Red-team games of Spaaace! among peers (protocol/SPAAACE-PEERS.md): five seats on one virtual
 * clock (`runLocalGame`), honest `SpaaacePeer` nodes with bots, and one or two cheaters that own
 * their keys. A cheater is an honest node whose envelopes pass through the test first: it may
 * rewrite the parts it signs (`shape`), decide what its mesh gets and when (`publish`), sign more
 * envelopes with its own key, and send frames to one peer only, past its own mesh (`inject`).
 * Links can drop or delay a cheater's frames per peer (`route`).
 *
 * `secureOutcome` checks what every red-team test asks of the honest side, through the public
 * interfaces only: each honest node's own decision and `verifySpaaace` over honest files.
 */
import { expect } from 'vitest'
import { toHex } from '../../src/core/commit/bytes.js'
import type { KeyPair } from '../../src/core/commit/keys.js'
import { seededSecrets } from '../../src/core/commit/secrets.js'
import { envelopeFrame } from '../../src/core/mesh/frames.js'
import type { MeshNode } from '../../src/core/mesh/node.js'
import type { Fault, MemoryPair } from '../../src/core/session/channel.js'
import { VirtualClock } from '../../src/core/session/clock.js'
import { randomBot } from '../../src/games/spaaace/bot/random.js'
import { sensibleBot } from '../../src/games/spaaace/bot/sensible.js'
import { botChooser } from '../../src/games/spaaace/node/choosers.js'
import {
  type LocalGameResult,
  type LocalSeat,
  defaultPeersTerms,
  fastestTiming,
  localRoster,
  runLocalGame,
} from '../../src/games/spaaace/node/local.js'
import type { Chooser } from '../../src/games/spaaace/node/peer.js'
import type { Decision, OffenceReport } from '../../src/games/spaaace/peers/decide.js'
import {
  type ReadEnvelope,
  type SealedEnvelope,
  readEnvelope,
  sealEnvelope,
} from '../../src/games/spaaace/peers/envelope.js'
import { type SealedGenesis, tickTimes } from '../../src/games/spaaace/peers/genesis.js'
import { type Part, commitmentOf, saltOf } from '../../src/games/spaaace/peers/parts.js'
import { seededRng } from '../../src/games/spaaace/referee/random.js'
import type { Submission } from '../../src/games/spaaace/rules/types.js'
import { type SpaaaceVerdict, verifySpaaace } from '../../src/games/spaaace/verify/verify.js'
import { type SettledTick, collect } from '../games/spaaace/node/support.js'

export const START = 1_800_000_000_000
export const PLAYERS = 5

/** What a link does with one frame a cheater's mesh sends to `to`. */
export type Route = (e: ReadEnvelope | undefined, to: number, frame: Uint8Array) => ReturnType<Fault>

/** What a test gives a cheater's seat; the seat is honest in everything it does not override. */
export interface CheaterSeat {
  readonly chooser?: Chooser
  readonly shape?: (parts: Part[], ctx: CheatContext) => Part[]
  readonly publish?: (bytes: Uint8Array, mesh: MeshNode, ctx: CheatContext) => void
  /** Frames this seat's mesh sends, per receiving seat (default: delivered). */
  readonly route?: Route
}

/** What a cheater knows: its key, the genesis, the clock, and a way to reach one peer directly. */
export interface CheatContext {
  readonly self: number
  readonly keys: KeyPair
  readonly genesis: SealedGenesis
  readonly clock: VirtualClock
  /** Sends an envelope to seat `to` alone, as if this seat's mesh had sent it (past every route). */
  sendTo(to: number, envelope: Uint8Array): void
  /** Sends raw frame bytes to seat `to` alone. */
  frameTo(to: number, frame: Uint8Array): void
  read(bytes: Uint8Array): ReadEnvelope
}

export interface RedTeamGame {
  readonly genesis: SealedGenesis
  readonly keys: readonly KeyPair[]
  readonly result: LocalGameResult
  readonly settled: readonly SettledTick[][]
  readonly clock: VirtualClock
  /** The clock when the last node signed its last envelope. */
  readonly endedAt: number
  readonly honest: readonly number[]
  readonly cheaters: readonly number[]
}

export async function redTeamGame(o: {
  readonly seed: string
  readonly ticks: number
  readonly cheaters: Readonly<Record<number, CheaterSeat>>
  readonly players?: number
  readonly wallMs?: number
  /** Latency of honest links, from seat to seat, in ms (within Δ: the delivery bound still holds). */
  readonly latency?: (from: number, to: number) => number
}): Promise<RedTeamGame> {
  const players = o.players ?? PLAYERS
  const timing = fastestTiming(START)
  const { keys, genesis } = localRoster(players, o.seed, defaultPeersTerms(o.ticks), timing)
  const clock = new VirtualClock(START - 1000)
  const settled: SettledTick[][] = Array.from({ length: players }, () => [])
  const pairs = new Map<string, MemoryPair>()
  const contexts = new Map<number, CheatContext>()
  const context = (self: number): CheatContext => {
    const k = keys[self]
    if (k === undefined) throw new Error(`no seat ${self}`)
    const frameTo = (to: number, frame: Uint8Array): void => {
      const pair = pairs.get(`${Math.min(self, to)}/${Math.max(self, to)}`)
      if (pair === undefined) throw new Error(`no link ${self}–${to} yet`)
      // The receiving seat's end: the link a–b (a < b) has a at end 0, b at end 1.
      pair.inject(self < to ? 1 : 0, frame)
    }
    const ctx: CheatContext = {
      self,
      keys: k,
      genesis,
      clock,
      frameTo,
      sendTo: (to, envelope) => {
        frameTo(to, envelopeFrame(envelope))
      },
      read: (bytes) => readOrThrow(bytes, genesis),
    }
    contexts.set(self, ctx)
    return ctx
  }
  const seats: LocalSeat[] = Array.from({ length: players }, (_, i) => {
    const cheat = o.cheaters[i]
    const honestChooser = botChooser(i % 2 === 0 ? sensibleBot() : randomBot, seededRng(`${o.seed}/${i}`))
    const events = collect(settled[i] as SettledTick[])
    if (cheat === undefined) return { chooser: honestChooser, events }
    const ctx = context(i)
    const shape = cheat.shape
    const publish = cheat.publish
    return {
      chooser: cheat.chooser ?? honestChooser,
      events,
      unawaited: true,
      ...(shape === undefined ? {} : { shape: (parts: Part[]) => shape(parts, ctx) }),
      ...(publish === undefined
        ? {}
        : {
            publish: (bytes: Uint8Array, mesh: MeshNode) => {
              publish(bytes, mesh, ctx)
            },
          }),
    }
  })
  const fault = (a: number, b: number): Fault | undefined => {
    const ra = o.cheaters[a]?.route
    const rb = o.cheaters[b]?.route
    const latency = o.latency
    if (ra === undefined && rb === undefined && latency === undefined) return undefined
    return (frame, from) => {
      const [self, to] = from === 0 ? [a, b] : [b, a]
      const route = from === 0 ? ra : rb
      if (route === undefined) {
        const ms = latency?.(self, to) ?? 0
        return ms > 0 ? { delay: ms } : 'deliver'
      }
      return route(frame[0] === 0x00 ? readMaybe(frame.subarray(1), genesis) : undefined, to, frame)
    }
  }
  const result = await runLocalGame({
    seats,
    genesis,
    keys,
    secrets: (i) => seededSecrets(`${o.seed}/seed/${i}`),
    clock,
    fault,
    onLink: (a, b, pair) => pairs.set(`${a}/${b}`, pair),
    maxJumps: 20_000,
    // A node that never ends is a finding, not a hang: the driver gives up (`aborted`).
    signal: AbortSignal.timeout(o.wallMs ?? 15_000),
  })
  const cheaters = Object.keys(o.cheaters).map(Number)
  const honest = [...Array(players).keys()].filter((i) => !cheaters.includes(i))
  return { genesis, keys, result, settled, clock, endedAt: clock.now(), honest, cheaters }
}

export function readOrThrow(bytes: Uint8Array, genesis: SealedGenesis): ReadEnvelope {
  const r = readEnvelope(bytes, { players: genesis.genesis.keys.length, game: genesis.game })
  if (!r.ok) throw new Error(`not an envelope: ${r.error.code}`)
  return r.value
}

function readMaybe(bytes: Uint8Array, genesis: SealedGenesis): ReadEnvelope | undefined {
  const r = readEnvelope(bytes, { players: genesis.genesis.keys.length, game: genesis.game })
  return r.ok ? r.value : undefined
}

/** The parts of an envelope (none when its body does not decode). */
export function partsOf(e: ReadEnvelope): readonly Part[] {
  return e.body.ok ? e.body.value.parts : []
}

export function hasPart(e: ReadEnvelope, type: Part['type'], tick?: number): boolean {
  return partsOf(e).some((p) => p.type === type && (tick === undefined || ('tick' in p && p.tick === tick)))
}

/** Tick `t`'s times (§3.1) for this game. */
export function timesOf(g: { readonly genesis: SealedGenesis }, t: number) {
  return tickTimes(g.genesis.genesis.timing, t)
}

export const label = (i: number): string => `p${i + 1}`

/** Each honest seat's transcript, verified alone, and all honest ones together. */
export function honestVerdicts(g: RedTeamGame): { alone: SpaaaceVerdict[]; together: SpaaaceVerdict } {
  const files = g.honest.map((i) => ({ name: label(i), text: g.result.transcripts[i] ?? '' }))
  const alone = files.map((f) => {
    const [v] = verifySpaaace([f])
    if (v === undefined) throw new Error('no verdict')
    return v
  })
  const [together] = verifySpaaace(files)
  if (together === undefined) throw new Error('no verdict')
  return { alone, together }
}

export function decisionOf(v: SpaaaceVerdict): Decision {
  if (v.status === 'unreadable') throw new Error(`unreadable: ${v.reason}`)
  return v.decision
}

/** The canonical and provisional closing hashes a decision gives, per tick (hex). */
export function hashesOf(d: Decision): string[] {
  return d.ticks.flatMap((t) => (t.stateHash === undefined ? [] : [`${t.t}:${t.status}:${toHex(t.stateHash)}`]))
}

const ACCUSING: readonly Submission['kind'][] = ['malformed', 'mismatch', 'equivocated']

export interface Expected {
  /** The end every honest node and the honest files reach. */
  readonly end: 'complete' | 'stalled'
  /** Per cheater: the offence kinds its own signatures prove (empty: none). */
  readonly offences: Readonly<Record<number, readonly OffenceReport['kind'][]>>
  /** Per cheater and tick: its submission as every honest node counted it. */
  readonly submissions?: Readonly<Record<number, Readonly<Record<number, Submission['kind']>>>>
  /** The last tick settled by every honest node. */
  readonly settledTo: number
}

/**
 * The secure outcome (§5.0, §7.1, §9, §12, S-80): honest nodes agree on every settled tick; no
 * honest player is accused or counted `malformed`, `mismatch` or `equivocated`; the cheaters are
 * convicted of exactly what their signatures prove; the game ends (complete or stalled) within
 * the bound; and each honest file alone, and all together, decide as the nodes did.
 */
export function secureOutcome(g: RedTeamGame, x: Expected): void {
  const { result, settled, honest } = g
  if (process.env['RT_DEBUG'] !== undefined) debugGame(g)
  expect(result.aborted, 'the driver never gave up').toBe(false)
  // §7.1: one closing state per settled tick on every honest node.
  const signed = honest.map((i) => (settled[i] ?? []).map((s) => `${s.t}:${s.hash}`))
  for (const [k, s] of signed.entries()) expect(s, `${label(honest[k] ?? 0)} settled`).toEqual(signed[0])
  expect(signed[0], 'ticks every honest node settled').toHaveLength(x.settledTo)
  // §9, S-80: no honest player accused; its submissions never an offence's.
  for (const i of honest) {
    for (const s of settled[i] ?? [])
      for (const h of honest)
        expect(ACCUSING, `${label(h)} counted by ${label(i)} in tick ${s.t}`).not.toContain(s.submissions[h]?.kind)
    const d = result.peers[i]?.decision()
    if (d === undefined) throw new Error('no decision')
    expectOffences(d, honest, x, `${label(i)}'s node`)
    expect(result.ends[i]?.kind, `${label(i)}'s end`).toBe(x.end)
  }
  // The cheaters' submissions, as counted by every honest node.
  for (const [c, byTick] of Object.entries(x.submissions ?? {}))
    for (const [t, kind] of Object.entries(byTick))
      for (const i of honest) {
        const s = (settled[i] ?? []).find((y) => y.t === Number(t))
        expect(s?.submissions[Number(c)]?.kind, `${label(Number(c))} in tick ${t} at ${label(i)}`).toBe(kind)
      }
  // §5.0: nobody kept waiting past the last tick's stall bound (R_t + STALL_MS + Δ + 2·SKEW_MS).
  const last = timesOf(g, g.genesis.genesis.terms.maxTicks)
  const m = g.genesis.genesis.timing.marginMs
  expect(g.endedAt, 'ended within the bound').toBeLessThanOrEqual(last.revealCut + 4 * m + 4000 + m + 2000)
  // §13: each honest file alone, and all together, decide as the nodes did.
  const { alone, together } = honestVerdicts(g)
  for (const v of [...alone, together]) {
    const d = decisionOf(v)
    expectOffences(d, honest, x, `verify ${v.files.join('+')}`)
    expect(d.end.kind, `verify ${v.files.join('+')}`).toBe(x.end)
    const mine = d.ticks
      .filter((t) => t.status === 'canonical')
      .map((t) => `${t.t}:${toHex(t.stateHash ?? new Uint8Array())}`)
    expect(mine, `verify ${v.files.join('+')}: canonical ticks`).toEqual(signed[0]?.slice(0, mine.length))
  }
}

function expectOffences(d: Decision, honest: readonly number[], x: Expected, who: string): void {
  for (const o of d.offences) expect(honest, `${who}: ${label(o.player)} accused of ${o.rule}`).not.toContain(o.player)
  for (const [c, kinds] of Object.entries(x.offences)) {
    const found = [...new Set(d.offences.filter((o) => o.player === Number(c)).map((o) => o.kind))].sort()
    expect(found, `${who}: offences of ${label(Number(c))}`).toEqual([...kinds].sort())
  }
}

/** A route that delivers everything but what `drop` names. */
export function dropping(drop: (e: ReadEnvelope, to: number) => boolean): Route {
  return (e, to) => (e !== undefined && drop(e, to) ? 'drop' : 'deliver')
}

/** Another envelope at `e`'s place (same author, seq, prev and heads) with other parts, signed by its author's key. */
export function atSamePlace(ctx: CheatContext, e: ReadEnvelope, parts: readonly Part[]): SealedEnvelope {
  if (!e.body.ok) throw new Error('its body does not decode')
  const { author, seq, game, prev } = e.header
  return sealEnvelope(ctx.keys, { author, seq, game, prev, heads: e.body.value.heads, parts })
}

/** The commit part of `orders` for tick `t`, salted from `seed` (a cheater may commit any printable text, §4.3). */
export function commitFor(ctx: CheatContext, t: number, orders: string, seed: Uint8Array): Part {
  const salt = saltOf(ctx.genesis.game, ctx.self, seed, t)
  return { type: 'commit', tick: t, commitment: commitmentOf(ctx.genesis.game, ctx.self, t, salt, orders) }
}

/**
 * A `publish` that holds back every envelope of this seat from the first one `from` picks, until
 * the clock reads `until`, then hands them to its mesh in order (a route may still pick who gets
 * them); later envelopes go at once.
 */
export function holdingBack(
  from: (e: ReadEnvelope) => boolean,
  until: (ctx: CheatContext) => number,
): { publish: NonNullable<CheaterSeat['publish']>; held: string[] } {
  const queue: Uint8Array[] = []
  const held: string[] = []
  let state: 'before' | 'holding' | 'released' = 'before'
  return {
    held,
    publish(bytes, mesh, ctx) {
      if (state === 'before' && from(ctx.read(bytes))) {
        state = 'holding'
        void ctx.clock.sleep(until(ctx) - ctx.clock.now()).then(() => {
          state = 'released'
          for (const b of queue.splice(0)) mesh.publish(b)
        })
      }
      if (state === 'holding') {
        queue.push(bytes)
        held.push(ctx.read(bytes).id)
        return
      }
      mesh.publish(bytes)
    },
  }
}

/**
 * A cheater that signs `commit(tick)` twice at one place (§4.1 divergence): version A, its chain's,
 * reaches from it only the seats `a`, version B (orders `-`) only the seats `b`.
 */
export function equivocator(o: {
  readonly tick: number
  readonly a: readonly number[]
  readonly b: readonly number[]
}): CheaterSeat & { readonly versions: string[]; readonly second: Uint8Array[] } {
  const versions: string[] = []
  const second: Uint8Array[] = []
  const otherSeed = seededSecrets(`equivocator/${o.tick}`).bytes(32)
  return {
    versions,
    second,
    publish(bytes, mesh, ctx) {
      const e = ctx.read(bytes)
      if (versions.length > 0 || !hasPart(e, 'commit', o.tick)) {
        mesh.publish(bytes)
        return
      }
      // Both versions named before either leaves, so that the route knows version A.
      const b = atSamePlace(
        ctx,
        e,
        partsOf(e).map((p) => (p.type === 'commit' ? commitFor(ctx, o.tick, '-', otherSeed) : p)),
      )
      versions.push(e.id, b.id)
      second.push(b.bytes)
      mesh.publish(bytes)
      for (const to of o.b) ctx.sendTo(to, b.bytes)
    },
    route: dropping((e, to) => e.id === versions[0] && !o.a.includes(to)),
  }
}

/** A cheater's `shape` that signs a false closing hash in `state(tick)` (§5.6: not the hash its past gives). */
export function falseClosingHash(tick: number): NonNullable<CheaterSeat['shape']> {
  return (parts) =>
    parts.map((p) => {
      if (p.type !== 'state' || p.tick !== tick) return p
      const stateHash = Uint8Array.from(p.stateHash)
      stateHash[0] = (stateHash[0] ?? 0) ^ 0x01
      return { ...p, stateHash }
    })
}

function debugGame(g: RedTeamGame): void {
  console.log('ends', g.result.ends, 'at', g.endedAt - START)
  for (const [i, p] of g.result.peers.entries()) {
    const d = p.decision()
    console.log(
      label(i),
      p.chain.length,
      p.chain.lastState,
      JSON.stringify(p.chain.standingVote),
      JSON.stringify(d.end),
      d.ticks.map(
        (t) =>
          `${t.t}:${t.status}:s${t.seals.join('')}:c${t.closes.join('')}:v${t.votes.join('')}:${t.committed.map(Number).join('')}:${t.sealSettled}`,
      ),
      d.offences.map((o) => `${o.player}:${o.rule}:${o.counted}`),
      d.gaps.length,
      d.notEvidence.length,
    )
  }
}

/**
 * Two of five hold tick 1 open by the race (§5.0, §7.3, §14 vector 6): p5 holds its commitment
 * back and gives it to p1 alone 100 ms before the commit cut; p1's links to p2 and p3 take 300 ms
 * (within Δ), so p1's forward reaches them after their seals; p4 does not forward it to them
 * either, and withholds its own seal. p5's commitment is then held by p1's seal only.
 */
export function raceGame(seed: string): Promise<RedTeamGame> {
  const late = holdingBack(
    (e) => hasPart(e, 'commit', 1),
    (ctx) => timesOf(ctx, 1).commitCut - 100,
  )
  return redTeamGame({
    seed,
    ticks: 3,
    latency: (from, to) => (from === 0 && (to === 1 || to === 2) ? 300 : 0),
    cheaters: {
      3: {
        shape: (parts) => parts.filter((p) => p.type !== 'seal'),
        route: dropping((e, to) => late.held.includes(e.id) && to !== 0),
      },
      4: { publish: late.publish, route: dropping((e, to) => late.held.includes(e.id) && to !== 0) },
    },
  })
}
