/**
 * A node restarted from its files (protocol/SPAAACE-PEERS.md §6.8): it held more than its last
 * envelope named when it died (others' envelopes persisted after its last own one). Read back, its
 * heads must resume from what it holds, and the game must go on: found by hand (a joiner killed
 * and joined again never signed another closing hash, its heads set back behind what it held).
 */
import { describe, expect, it } from 'vitest'
import { seededSecrets } from '../../../../src/core/commit/secrets.js'
import { VirtualClock } from '../../../../src/core/session/clock.js'
import {
  defaultPeersTerms,
  fastestTiming,
  localRoster,
  runLocalGame,
} from '../../../../src/games/spaaace/node/local.js'
import { SpaaacePeer } from '../../../../src/games/spaaace/node/peer.js'
import { memorySecrets } from '../../../../src/games/spaaace/node/secrets.js'
import { type ReadEnvelope, readEnvelope } from '../../../../src/games/spaaace/peers/envelope.js'
import { tickTimes } from '../../../../src/games/spaaace/peers/genesis.js'
import { MeshEngine } from '../../../../src/core/mesh/engine.js'
import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { missingAccepts } from '../../../../src/cli/spaaace-net.js'
import { memoryStore } from '../../../../src/core/transcript/file.js'
import { spaaaceMeshCodec, spaaaceMeshLimits, spaaaceWithinBound } from '../../../../src/games/spaaace/mesh/codec.js'

const START = 1_800_000_000_000

/** The envelopes of a transcript's text (§2: the header and genesis lines first), each read for the game. */
function envelopesOf(text: string | undefined, players: number, game: Uint8Array): ReadEnvelope[] {
  return (text ?? '')
    .trim()
    .split('\n')
    .slice(2)
    .map((line) => {
      const r = readEnvelope(new Uint8Array(Buffer.from(line, 'base64url')), { players, game })
      if (!r.ok) throw new Error('an envelope of the game does not read')
      return r.value
    })
}

describe('a node restarted from its files (§6.8)', () => {
  it('late in a game, its mesh reads every envelope of its transcript back: none is dropped as beyond the seq bound (§4.2), so it never signs again at a place it signed', async () => {
    const n = 4
    const ticks = 10
    const { keys, genesis } = localRoster(n, 'restore-late', defaultPeersTerms(ticks), fastestTiming(START))
    const stores = Array.from({ length: n }, () => memoryStore())
    const game = await runLocalGame({
      seats: Array.from({ length: n }, () => ({ chooser: { choose: () => '-' } })),
      genesis,
      keys,
      secrets: (i) => seededSecrets(`restore-late/${i}`),
      clock: new VirtualClock(START - 1000),
      stores,
    })
    expect(game.ends.every((e) => e?.kind === 'complete')).toBe(true)
    const store = stores[0]
    if (store === undefined) throw new Error('no store')
    // Read back as a restarted node's mesh does, before its peer has decided any tick (its own
    // last state is 0 then): the bound of §4.2 was met by each of them when it was first admitted.
    const engine = new MeshEngine({
      codec: spaaaceMeshCodec(genesis.genesis.keys, genesis.game),
      self: 0,
      persistence: store,
      limits: spaaaceMeshLimits(genesis.genesis.timing.marginMs),
      withinBound: spaaaceWithinBound(n, genesis.game, () => 0),
    })
    engine.restore()
    const held = engine.store.counts().reduce((a, b) => a + b, 0)
    expect(engine.drops.get('beyond-bound')).toBeUndefined()
    expect(held).toBe(store.envelopes().length)
    // Its own envelopes run to the end of the game: the highest seq it had signed is held.
    expect(engine.store.counts()[0]).toBeGreaterThan(2 + 3 * 3)
  }, 60_000)

  it('holding more than its last envelope named, it goes on to the end', async () => {
    const { keys, genesis } = localRoster(4, 'restart', defaultPeersTerms(3), fastestTiming(START))
    const none = { choose: () => '-' }
    const clock = new VirtualClock(START - 1000)
    // From tick 2's reveal instant, nothing node 0 sends arrives: the others finish without it,
    // and what it signs from then on is as if it had died before signing it.
    const cutAt = tickTimes(genesis.genesis.timing, 2).commitCut + 2 * 1000
    const game = await runLocalGame({
      seats: Array.from({ length: 4 }, (_, i) => ({ chooser: none, ...(i === 0 ? { unawaited: true } : {}) })),
      genesis,
      keys,
      secrets: (i) => seededSecrets(`restart/${i}`),
      clock,
      fault: (a) => (a === 0 ? (_frame, from) => (from === 0 && clock.now() >= cutAt ? 'drop' : 'deliver') : undefined),
    })
    expect(game.ends.slice(1).every((e) => e?.kind === 'complete')).toBe(true)
    const read = (text: string | undefined): ReadEnvelope[] => envelopesOf(text, 4, genesis.game)
    const others = read(game.transcripts[1])
    const delivered = new Set(others.map((e) => e.id))
    const all = read(game.transcripts[0])
    // Node 0's file when it died: up to its first envelope nobody received.
    const died = all.findIndex((e) => e.header.author === 0 && !delivered.has(e.id))
    const mine = all.slice(0, died)
    // The case: it held others' envelopes its last own envelope did not name.
    expect(mine.at(-1)?.header.author).not.toBe(0)
    const held = new Set(mine.map((e) => e.id))
    const later = others.filter((e) => !held.has(e.id))
    const secrets = memorySecrets(seededSecrets('restart/0'))
    for (let t = 1; t <= 3; t++) secrets.keepOrders(t, '-')
    const restarted = new VirtualClock(clock.now())
    const key = keys[0]
    if (key === undefined) throw new Error('no key')
    const peer = new SpaaacePeer({
      genesis,
      self: 0,
      keys: key,
      clock: restarted,
      secrets,
      chooser: none,
      publish: () => undefined,
      signal: new AbortController().signal,
    })
    for (const e of mine) peer.hold(e.bytes)
    peer.start()
    const before = peer.chain.lastState
    for (const e of later) peer.hold(e.bytes)
    await restarted.settle([peer.done])
    // Its named past now holds the game's end, signed by the others (§5.6 rule 1): it signs its
    // seed in its last envelope (§6.9) and is done.
    expect(before).toBeLessThan(3)
    expect(peer.decision().end).toMatchObject({ kind: 'complete', tick: 3 })
    expect(peer.chain.ended).toBe(true)
  }, 60_000)

  it('the end made canonical by the others’ states in one batch: its last envelope still holds its own state with the seed (§6 steps 5, 9)', async () => {
    const { keys, genesis } = localRoster(3, 'last-state', defaultPeersTerms(1), fastestTiming(START))
    const none = { choose: () => '-' }
    const clock = new VirtualClock(START - 1000)
    // From tick 1's reveal instant nothing node 2 sends arrives: the others settle tick 1, sign
    // their states and end the game (maxTicks 1) without hearing from it again.
    const cutAt = tickTimes(genesis.genesis.timing, 1).commitCut + 2 * 1000
    const game = await runLocalGame({
      seats: Array.from({ length: 3 }, (_, i) => ({ chooser: none, ...(i === 2 ? { unawaited: true } : {}) })),
      genesis,
      keys,
      secrets: (i) => seededSecrets(`last-state/${i}`),
      clock,
      fault: (a, b) =>
        a === 2 || b === 2
          ? (_frame, from) => ((b === 2 ? from === 1 : from === 0) && clock.now() >= cutAt ? 'drop' : 'deliver')
          : undefined,
    })
    expect(game.ends.slice(0, 2).every((e) => e?.kind === 'complete')).toBe(true)
    const read = (text: string | undefined): ReadEnvelope[] => envelopesOf(text, 3, genesis.game)
    const others = read(game.transcripts[0])
    const delivered = new Set(others.map((e) => e.id))
    const all = read(game.transcripts[2])
    const died = all.findIndex((e) => e.header.author === 2 && !delivered.has(e.id))
    const mine = all.slice(0, died < 0 ? all.length : died).filter((e) => e.header.author === 2 || delivered.has(e.id))
    const held = new Set(mine.map((e) => e.id))
    // Everything the others signed since, the closes, states and seeds among it, held at once.
    const later = others.filter((e) => !held.has(e.id))
    expect(later.some((e) => e.body.ok && e.body.value.parts.some((p) => p.type === 'state'))).toBe(true)
    const secrets = memorySecrets(seededSecrets('last-state/2'))
    secrets.keepOrders(1, '-')
    const restarted = new VirtualClock(clock.now())
    const key = keys[2]
    if (key === undefined) throw new Error('no key')
    const signed: Uint8Array[] = []
    const peer = new SpaaacePeer({
      genesis,
      self: 2,
      keys: key,
      clock: restarted,
      secrets,
      chooser: none,
      publish: (b) => void signed.push(b),
      signal: new AbortController().signal,
    })
    for (const e of mine) peer.hold(e.bytes)
    peer.start()
    for (const e of later) peer.hold(e.bytes)
    await restarted.settle([peer.done])
    expect(peer.decision().end).toMatchObject({ kind: 'complete', tick: 1 })
    expect(peer.chain.ended).toBe(true)
    // Its closing hash of tick 1 is in its chain: signed before or with its seed.
    expect(peer.chain.lastState).toBe(1)
  }, 60_000)
})

describe('who has not accepted (SPAAACE-PEERS.md §3)', () => {
  it("is read from a node's transcript file: the players whose accept it lacks", async () => {
    const n = 3
    const { keys, genesis } = localRoster(n, 'accepts', defaultPeersTerms(1), fastestTiming(START))
    const game = await runLocalGame({
      seats: Array.from({ length: n }, () => ({ chooser: { choose: () => '-' } })),
      genesis,
      keys,
      secrets: (i) => seededSecrets(`accepts/${i}`),
      clock: new VirtualClock(START - 1000),
    })
    const text = game.transcripts[0] ?? ''
    const dir = mkdtempSync(join(tmpdir(), 'spaaace-accepts-'))
    const file = join(dir, 'p1.transcript')
    writeFileSync(file, text)
    expect(missingAccepts(file, genesis)).toEqual([])
    // Without p3's accept (and everything after the accepts, as before the game begins).
    const [head = '', gen = '', ...rest] = text.split('\n')
    const accepts = rest.filter((l) => {
      const r = readEnvelope(new Uint8Array(Buffer.from(l, 'base64url')), { players: n, game: genesis.game })
      return r.ok && r.value.header.seq === 0 && r.value.header.author !== 2
    })
    writeFileSync(file, [head, gen, ...accepts, ''].join('\n'))
    expect(missingAccepts(file, genesis)).toEqual([2])
    expect(missingAccepts(join(dir, 'none'), genesis)).toEqual([0, 1, 2])
  }, 60_000)
})
