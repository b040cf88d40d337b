/**
 * Spaaace! nodes over real libp2p (TCP on 127.0.0.1, Noise, yamux, one process): three players,
 * each a `runNetPeer` with its transcript and secrets on disk, on a clock running ten times faster
 * than real time (protocol/SPAAACE-PEERS.md §6 is all waits). The game ends complete on every node;
 * then a node killed mid-game and started again from its files resumes from its own chain, never
 * signing twice at one place (§6.8), and the game still ends complete with no offence.
 */
import type { Libp2p } from '@libp2p/interface'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { systemSecrets } from '../../../../src/core/commit/secrets.js'
import { type Identity, ephemeralIdentity } from '../../../../src/core/net/identity.js'
import { createPeerNode } from '../../../../src/core/net/node.js'
import type { Clock } from '../../../../src/core/session/clock.js'
import { sensibleBot } from '../../../../src/games/spaaace/bot/sensible.js'
import { botChooser } from '../../../../src/games/spaaace/node/choosers.js'
import { composeGenesis, defaultPeersTerms } from '../../../../src/games/spaaace/node/local.js'
import { type NetPeer, runNetPeer } from '../../../../src/games/spaaace/node/net.js'
import type { PeerEvents } from '../../../../src/games/spaaace/node/peer.js'
import { fileSecrets } from '../../../../src/games/spaaace/node/secrets.js'
import { spaaaceFileStore } from '../../../../src/games/spaaace/node/store.js'
import type { SealedGenesis } from '../../../../src/games/spaaace/peers/genesis.js'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { seededRng } from '../../../../src/games/spaaace/referee/random.js'
import { verifySpaaace } from '../../../../src/games/spaaace/verify/verify.js'
import { type ScaledClock, scaledClock } from './scaled-clock.js'

const N = 3
const SPEED = 10
const MARGIN_MS = 2000

let nodes: Libp2p[] = []
afterEach(async () => {
  for (const n of nodes) await n.stop()
  nodes = []
})

async function listening(identity: Identity, admitted: Set<string>, port = 0): Promise<Libp2p> {
  const node = await createPeerNode({ identity, listen: [`/ip4/127.0.0.1/tcp/${port}`], admission: () => admitted })
  await node.start()
  nodes.push(node)
  return node
}

interface Seat {
  readonly identity: Identity
  readonly index: number
  readonly dir: string
}

async function setup(
  ticks: number,
): Promise<{ genesis: SealedGenesis; seats: Seat[]; clock: ScaledClock; admitted: Set<string> }> {
  const identities = await Promise.all(Array.from({ length: N }, () => ephemeralIdentity()))
  const origin = 1_800_000_000_000
  const clock = scaledClock(SPEED, origin)
  const timing = {
    start: origin + 20_000,
    commitMs: 2 * MARGIN_MS + 4 * 1000 + 5000,
    revealMs: 3 * MARGIN_MS + 4 * 1000,
    marginMs: MARGIN_MS,
  }
  const { genesis, rosterIndex } = composeGenesis(
    identities.map((i) => i.keys.publicKey),
    defaultPeersTerms(ticks),
    timing,
    systemSecrets.bytes(32),
  )
  const base = mkdtempSync(join(tmpdir(), 'spaaace-libp2p-'))
  const seats = identities.map((identity, k) => ({ identity, index: rosterIndex[k] ?? 0, dir: join(base, `seat${k}`) }))
  return { genesis, seats, clock, admitted: new Set(identities.map((i) => i.peerId.toString())) }
}

/** The game a seat plays: what every node of it is started with. */
interface Game {
  readonly genesis: SealedGenesis
  readonly roster: readonly string[]
  readonly addresses: readonly string[][]
  readonly clock: Clock
}

function start(game: Game, seat: Seat, node: Libp2p, signal: AbortSignal, events?: PeerEvents): Promise<NetPeer> {
  return runNetPeer({
    node,
    genesis: game.genesis,
    self: seat.index,
    keys: seat.identity.keys,
    roster: game.roster,
    addresses: game.addresses,
    store: spaaaceFileStore(join(seat.dir, 'transcript'), game.genesis, seat.index),
    secrets: fileSecrets(join(seat.dir, 'secrets'), systemSecrets),
    chooser: botChooser(sensibleBot(), seededRng(`libp2p/${seat.index}`)),
    ...(events === undefined ? {} : { events }),
    clock: game.clock,
    signal,
    lingerMs: 4 * MARGIN_MS,
  })
}

function rosterOf(seats: readonly Seat[]): string[] {
  const roster: string[] = []
  for (const s of seats) roster[s.index] = s.identity.peerId.toString()
  return roster
}

/** A three-player game of 3 ticks, each seat's libp2p node listening, and where each one listens. */
async function listeningGame(): Promise<
  Awaited<ReturnType<typeof setup>> & { roster: string[]; libp2p: Libp2p[]; addresses: string[][] }
> {
  const game = await setup(3)
  const libp2p = await Promise.all(game.seats.map((s) => listening(s.identity, game.admitted)))
  const addresses: string[][] = []
  game.seats.forEach((s, k) => {
    addresses[s.index] = (libp2p[k] as Libp2p).getMultiaddrs().map((a) => a.toString())
  })
  return { ...game, roster: rosterOf(game.seats), libp2p, addresses }
}

describe('Spaaace! nodes over libp2p (§6, §8)', () => {
  it('three nodes play to the end; a node killed mid-game resumes from its files and signs nothing twice', async () => {
    const game = await listeningGame()
    const { seats, admitted, libp2p, addresses } = game
    const life = new AbortController()
    const victim = new AbortController()
    // The victim is killed once it has signed its state of tick 1.
    const victimSeat = seats[0] as Seat
    const killed = new Promise<void>((resolve) => {
      void start(game, victimSeat, libp2p[0] as Libp2p, AbortSignal.any([life.signal, victim.signal]), {
        onSettled(view) {
          if (view.t === 1) {
            victim.abort()
            resolve()
          }
        },
      })
    })
    const others = await Promise.all(seats.slice(1).map((s, k) => start(game, s, libp2p[k + 1] as Libp2p, life.signal)))
    await killed
    await (libp2p[0] as Libp2p).stop()
    // Restarted from its files, on a new libp2p node with the same key.
    const port = Number(/\/tcp\/(\d+)/.exec(addresses[victimSeat.index]?.[0] ?? '')?.[1] ?? 0)
    const again = await listening(victimSeat.identity, admitted, port)
    const resumed = await start(game, victimSeat, again, life.signal)
    const ends = await Promise.all([resumed.done, ...others.map((o) => o.done)])
    for (const end of ends) expect(end?.kind).toBe('complete')
    const files = seats.map((s) => ({ name: s.dir, text: readFileSync(join(s.dir, 'transcript'), 'latin1') }))
    const [all] = verifySpaaace(files)
    expect(all?.status).toBe('complete')
    if (all?.status === 'complete') expect(all.decision.offences).toEqual([])
    for (const f of files) expect(verifySpaaace([f])[0]?.status, f.name).toBe('complete')
    life.abort()
  }, 120_000)
  /**
   * §6.8: killed after its state of tick 1, its transcript replaced by an older copy (the header,
   * the genesis and the first two envelopes it held), and started again. `lastSent`: the others
   * held its last envelope before it died (it is given back), or it died before sending it.
   */
  async function lostTranscript(
    lastSent: boolean,
    backup: 'transcript' | 'directory' | 'secrets deleted' = 'transcript',
  ): Promise<{
    told: string[]
    signedAfter: number
    ends: (string | undefined)[]
    files: { name: string; text: string }[]
  }> {
    const game = await listeningGame()
    const { seats, clock, admitted, libp2p, addresses } = game
    const life = new AbortController()
    const victim = new AbortController()
    const victimSeat = seats[0] as Seat
    const file = join(victimSeat.dir, 'transcript')
    // Its last envelope's seq once it signed its state of tick 1.
    let last: number | undefined
    const kill = (): void => {
      victim.abort()
    }
    const killed = new Promise<void>((resolve) => {
      victim.signal.addEventListener('abort', () => {
        resolve()
      })
    })
    const holder: { net?: NetPeer } = {}
    void start(game, victimSeat, libp2p[0] as Libp2p, AbortSignal.any([life.signal, victim.signal]), {
      onSettled(view) {
        if (view.t !== 1 || last !== undefined) return
        last = (holder.net?.peer.chain.length ?? 0) - 1
        if (!lastSent) kill()
      },
    }).then((net) => (holder.net = net))
    const others = await Promise.all(
      seats.slice(1).map((s, k) =>
        start(game, s, libp2p[k + 1] as Libp2p, life.signal, {
          onSigned(e) {
            // Another node names the victim's last envelope: it holds it.
            if (!lastSent || last === undefined || victim.signal.aborted) return
            const head = e.envelope.heads.find((h) => h.author === victimSeat.index)
            if (head !== undefined && head.seq >= last) kill()
          },
        }),
      ),
    )
    await killed
    // Protocol time stands still while it is down: how long a loaded machine takes to start it again
    // must not let the others play the game out without it, which would leave nothing to recover.
    clock.pause()
    await (libp2p[0] as Libp2p).stop()
    const lines = readFileSync(file, 'latin1').split('\n')
    const own = (l: string, seq: number): boolean => {
      const b = Buffer.from(l, 'base64url')
      return b[1] === victimSeat.index && ((b[2] ?? 0) << 8) + (b[3] ?? 0) === seq
    }
    if (backup === 'secrets deleted') rmSync(join(victimSeat.dir, 'secrets'))
    else if (backup === 'transcript') writeFileSync(file, `${lines.slice(0, 4).join('\n')}\n`)
    else {
      // A backup of the whole directory taken once it had signed its envelope at seq 2 (every
      // accept held: it would sign at once when started), its secrets file from then: the count of
      // its own envelopes is the older file's (3) and the orders those of tick 1, so the journaled
      // count sees no loss.
      const upTo = lines.findIndex((l, k) => k >= 2 && own(l, 2))
      expect(upTo).toBeGreaterThan(2)
      writeFileSync(file, `${lines.slice(0, upTo + 1).join('\n')}\n`)
      const secretsFile = join(victimSeat.dir, 'secrets')
      const { seed, orders } = JSON.parse(readFileSync(secretsFile, 'utf8')) as {
        seed: string
        orders: Record<string, string>
      }
      writeFileSync(secretsFile, `${JSON.stringify({ seed, orders: { 1: orders['1'] }, signed: 3 })}\n`)
    }
    const port = Number(/\/tcp\/(\d+)/.exec(addresses[victimSeat.index]?.[0] ?? '')?.[1] ?? 0)
    const again = await listening(victimSeat.identity, admitted, port)
    const told: string[] = []
    let signedAfter = 0
    const resumed = await start(game, victimSeat, again, life.signal, {
      onRecovering(held, signed) {
        told.push(`recovering ${held} of ${signed}`)
      },
      onRecovered(signed) {
        told.push(`recovered ${signed}`)
      },
      onSeedLost(held) {
        told.push(`seed lost ${held}`)
      },
      onSigned() {
        signedAfter++
      },
    })
    // Time runs again once it is up and dialling: from there its recovery is the others' to send.
    clock.resume()
    const ends = (await Promise.all([resumed.done, ...others.map((o) => o.done)])).map((e) => e?.kind)
    life.abort()
    const files = seats.map((s) => ({ name: s.dir, text: readFileSync(join(s.dir, 'transcript'), 'latin1') }))
    return { told, signedAfter, ends, files }
  }

  it('a node whose transcript was replaced by an older copy signs nothing until the others give its envelopes back, then plays on (§6.8): no fork, the game complete', async () => {
    const { told, signedAfter, ends, files } = await lostTranscript(true)
    const [all] = verifySpaaace(files)
    if (all?.status === 'complete') expect(all.decision.offences).toEqual([])
    expect(all?.status).toBe('complete')
    expect(ends).toEqual(['complete', 'complete', 'complete'])
    expect(told).toHaveLength(2)
    expect(told[0]).toMatch(/^recovering 1 of \d+$/)
    expect(told[1]).toBe(`recovered ${told[0]?.split(' ').at(-1) ?? ''}`)
    expect(signedAfter).toBeGreaterThan(0)
    for (const f of files) expect(verifySpaaace([f])[0]?.status, f.name).toBe('complete')
  }, 120_000)

  it('a whole directory restored from an older backup (transcript and secrets): the others count more of its chain than it holds, it waits for them before it signs, no fork (§6.8 step 8)', async () => {
    const { told, signedAfter, ends, files } = await lostTranscript(true, 'directory')
    const [all] = verifySpaaace(files)
    if (all?.status !== 'unreadable') expect(all?.decision.offences.filter((o) => o.kind === 'fork')).toEqual([])
    expect(ends).toEqual(['complete', 'complete', 'complete'])
    // It played on once its envelopes were back; whether it had to say it waited depends on how fast
    // the others' resends came (on a loaded machine they can all be in before it first looks).
    expect(signedAfter).toBeGreaterThan(0)
    if (told.length > 0) {
      const [held, of] = (/^recovering (\d+) of (\d+)$/.exec(told[0] ?? '') ?? []).slice(1).map(Number)
      expect(held).toBeLessThan(of ?? 0)
      expect(told.slice(1)).toEqual([`recovered ${of ?? ''}`])
    }
  }, 120_000)

  it('one whose secrets file was deleted (its transcript kept) signs nothing more: its commitments were salted with a seed it no longer has (§6.8 step 8); no fork, no false seed', async () => {
    const { told, signedAfter, ends, files } = await lostTranscript(true, 'secrets deleted')
    const [all] = verifySpaaace(files)
    if (all?.status !== 'unreadable') expect(all?.decision.offences).toEqual([])
    expect(told).toEqual([expect.stringMatching(/^seed lost \d+$/)])
    expect(signedAfter).toBe(0)
    expect(new Set(ends).size).toBe(1)
  }, 120_000)

  it('one whose last envelope never left it can never hold its chain again: it signs nothing more, and the game ends without it, no fork (§6.8)', async () => {
    const { told, signedAfter, ends, files } = await lostTranscript(false)
    const [all] = verifySpaaace(files)
    if (all?.status !== 'unreadable') expect(all?.decision.offences).toEqual([])
    // The two others play on without it: complete, or (on a loaded machine, a tick too late for
    // one of them, §6.0) stalled; its end is theirs either way.
    expect(['complete', 'incomplete']).toContain(all?.status)
    expect(new Set(ends).size).toBe(1)
    expect(['complete', 'stalled']).toContain(ends[0])
    expect(told).toEqual([expect.stringMatching(/^recovering 1 of \d+$/)])
    expect(signedAfter).toBe(0)
  }, 120_000)
})
