/**
 * Red team of the honest witnessed node (SPAAACE-WITNESSED §8) against the notary in process and
 * against a notary that lies, on one virtual clock: restarts at every check-in (`join --check-in`
 * runs one process per check-in), deposits that do not match their header, receipts of other games.
 */
import { describe, expect, it } from 'vitest'
import { seededSecrets } from '../../../../src/core/commit/secrets.js'
import { NotaryClient, type Transport } from '../../../../src/core/notary-net/client.js'
import {
  type NotaryRequest,
  type NotaryResponse,
  decodeRequest,
  encodeResponse,
} from '../../../../src/core/notary/messages.js'
import { Notary } from '../../../../src/core/notary-service/notary.js'
import { NotaryStore } from '../../../../src/core/notary-service/store.js'
import { VirtualClock } from '../../../../src/core/session/clock.js'
import { randomBot } from '../../../../src/games/spaaace/bot/random.js'
import { LINE_KIND } from '../../../../src/games/spaaace/peers/domain.js'
import { signAccept, tickTimes } from '../../../../src/games/spaaace/peers/genesis.js'
import { formatPeersTranscript, readPeersTranscript } from '../../../../src/games/spaaace/peers/transcript.js'
import { seededRng } from '../../../../src/games/spaaace/referee/random.js'
import { botChooser } from '../../../../src/games/spaaace/node/choosers.js'
import { type PeerSecrets, memorySecrets } from '../../../../src/games/spaaace/node/secrets.js'
import {
  type WitnessedStore,
  WitnessedSeat,
  memoryWitnessedStore,
} from '../../../../src/games/spaaace/node/witnessed.js'
import { SPAAACE_NOTARY_DOMAIN, SPAAACE_NOTARY_PROTOCOL } from '../../../../src/games/spaaace/witness/domain.js'
import { decideFromFiles } from '../../../../src/games/spaaace/witness/evidence.js'
import { spaaaceRegistrar } from '../../../../src/games/spaaace/witness/registrar.js'
import { NOTARY_W, type Witnessed, witnessed } from '../witness/fixtures.js'

/** The notary in process; `tamper` may rewrite the request or the answer (a lying notary). */
export type Tamper = (q: NotaryRequest, a: NotaryResponse) => NotaryResponse

/**
 * The notary in process; `before` runs before the notary answers (other players acting
 * meanwhile), `tamper` may rewrite the answer (a lying notary).
 */
function inProcess(
  notary: Notary,
  key: Uint8Array,
  tamper: Tamper = (_, a) => a,
  before: (q: NotaryRequest) => Promise<void> = () => Promise.resolve(),
): Transport {
  return async (request) => {
    const q = decodeRequest(request, SPAAACE_NOTARY_PROTOCOL)
    if (!q.ok) throw new Error('a request that does not decode')
    await before(q.value)
    const a = notary.handle(q.value, { peer: Buffer.from(key).toString('hex'), key })
    return encodeResponse(tamper(q.value, a))
  }
}

interface Game {
  readonly w: Witnessed
  readonly clock: VirtualClock
  readonly notary: Notary
  readonly stores: WitnessedStore[]
  readonly secrets: PeerSecrets[]
  readonly accepts: Uint8Array[]
  /** Seat `i` as a process would make it (a fresh object over the same files). */
  seat(i: number, tamper?: Tamper, before?: (q: NotaryRequest) => Promise<void>): WitnessedSeat
}

function game(n: number, maxTicks: number): Game {
  const w = witnessed(n, { maxTicks })
  const clock = new VirtualClock(w.genesis.genesis.timing.start - 30_000)
  const notary = new Notary({ keys: NOTARY_W, registrar: spaaaceRegistrar, clock, store: new NotaryStore(':memory:') })
  const accepts = w.players.map((k, i) => signAccept(k, w.genesis.game, i).bytes)
  const stores = w.players.map((_, i) => memoryWitnessedStore([accepts[i] as Uint8Array]))
  const secrets = w.players.map((_, i) => memorySecrets(seededSecrets(`redteam seat ${i}`)))
  let made = 0
  const seat = (i: number, tamper?: Tamper, before?: (q: NotaryRequest) => Promise<void>): WitnessedSeat => {
    const keys = w.players[i]
    if (keys === undefined) throw new Error(`no player ${i}`)
    made++
    return new WitnessedSeat({
      genesis: w.genesis,
      keys,
      self: i,
      client: new NotaryClient({
        transport: inProcess(notary, keys.publicKey, tamper, before),
        clock,
        domain: SPAAACE_NOTARY_DOMAIN,
        notaryKey: NOTARY_W.publicKey,
        protocol: SPAAACE_NOTARY_PROTOCOL,
      }),
      store: stores[i] ?? memoryWitnessedStore(),
      secrets: secrets[i] ?? memorySecrets(seededSecrets('none')),
      random: seededSecrets(`redteam deposits ${i} ${made}`),
      chooser: botChooser(randomBot, seededRng(`redteam bot ${i} ${made}`)),
      clock,
      accepts: () => accepts,
    })
  }
  return { w, clock, notary, stores, secrets, accepts, seat }
}

/** Checks every seat in at the times its plans ask until `end`; `seatFor(i)` gives the seat of each check-in. */
async function play(g: Game, end: number, seatFor: (i: number) => WitnessedSeat): Promise<void> {
  const next = g.stores.map(() => g.clock.now())
  const signal = new AbortController().signal
  for (let k = 0; k < 600; k++) {
    const i = next.indexOf(Math.min(...next))
    const at = next[i] ?? end
    if (at > end) break
    g.clock.advanceTo(Math.max(g.clock.now(), at))
    const r = await seatFor(i).checkIn(signal)
    next[i] = r.plan.next ?? end + 1
  }
}

describe('SPAAACE-WITNESSED §8.1, §8.5: a node that is a new process at every check-in', () => {
  it('opens the deposits a mark brought (the others checked in meanwhile): they are never fetched again', async () => {
    const g = game(3, 4)
    const signal = new AbortController().signal
    const kept = [g.seat(0), g.seat(1)]
    // While seat 2 asks for a mark, seats 0 and 1 check in (the network is concurrent): the
    // mark's fetch brings their commitments of the next tick, with their deposits.
    let racing = false
    const before = async (q: NotaryRequest): Promise<void> => {
      if (q.kind !== 'mark' || racing) return
      racing = true
      for (const s of kept) await s.checkIn(signal)
      racing = false
    }
    const end = tickTimes(g.w.genesis.genesis.timing, 7).start
    // Seat 2 checks in first at every instant, a new process each time (`join --check-in`); the
    // others check in at the same instants, after it (or during its mark).
    for (let k = 0; k < 200 && g.clock.now() <= end; k++) {
      const r = await g.seat(2, undefined, before).checkIn(signal)
      for (const s of kept) await s.checkIn(signal)
      g.clock.advanceTo(Math.max(g.clock.now() + 1, r.plan.next ?? end + 1))
    }
    const f = decideFromFiles(g.w.genesis, g.stores[2]?.receipts() ?? [], g.stores[2]?.envelopes() ?? [])
    expect(f.decision.ticks.map((x) => x.status)).toEqual(['final', 'final', 'final', 'final'])
    for (const t of f.decision.ticks) expect(t.submissions?.[2]?.kind).not.toBe('missing')
  })

  it('a process killed after the receipts reached its file and before the envelopes it opened did: the next one fetches those deposits again', async () => {
    const g = game(3, 4)
    const signal = new AbortController().signal
    const kept = [g.seat(0), g.seat(1)]
    const file = g.stores[2] as WitnessedStore
    // Seat 2's process dies writing the first envelope of another author in its second tick.
    let killed = false
    const dying: WitnessedStore = {
      append: (b) => {
        if (!killed && b[0] !== 0x84 && b[1] !== 2 && g.clock.now() > tickTimes(g.w.genesis.genesis.timing, 2).start) {
          killed = true
          throw new Error('killed')
        }
        file.append(b)
      },
      envelopes: () => file.envelopes(),
      receipts: () => file.receipts(),
    }
    g.stores[2] = dying
    const end = tickTimes(g.w.genesis.genesis.timing, 7).start
    for (let k = 0; k < 200 && g.clock.now() <= end; k++) {
      for (const s of kept) await s.checkIn(signal)
      let r = await g
        .seat(2)
        .checkIn(signal)
        .catch(() => undefined)
      r ??= await g.seat(2).checkIn(signal)
      g.clock.advanceTo(Math.max(g.clock.now() + 1, r.plan.next ?? end + 1))
    }
    expect(killed).toBe(true)
    const f = decideFromFiles(g.w.genesis, file.receipts(), file.envelopes())
    expect(f.decision.ticks.map((x) => x.status)).toEqual(['final', 'final', 'final', 'final'])
  })

  it('opens every deposit it fetched, also those a mark or a submission brought in the check-in before: no gap, every tick final', async () => {
    const g = game(3, 4)
    const kept = [g.seat(0), g.seat(1), g.seat(2)]
    // Seat 2 is `join --check-in`: a new WitnessedSeat over the same files at every check-in.
    await play(g, tickTimes(g.w.genesis.genesis.timing, 7).start, (i) =>
      i === 2 ? g.seat(2) : (kept[i] as WitnessedSeat),
    )
    const f = decideFromFiles(g.w.genesis, g.stores[2]?.receipts() ?? [], g.stores[2]?.envelopes() ?? [])
    expect(f.decision.ticks.map((x) => x.status)).toEqual(['final', 'final', 'final', 'final'])
    expect(f.decision.end).toMatchObject({ kind: 'complete', provisional: false })
  })
})

describe('SPAAACE-WITNESSED §8.1 step 2: a notary that serves deposits that are not their headers', () => {
  it('the node complains only of a deposit that hashes to its header: never signs a complaint the notary could not receipt without a fault', async () => {
    const g = game(3, 2)
    const signal = new AbortController().signal
    const kept = [g.seat(0), g.seat(1)]
    // To seat 2 only, every deposit is served with one byte of its body flipped (size kept).
    const garble: Tamper = (q, a) =>
      q.kind !== 'fetch' && q.kind !== 'mark'
        ? a
        : a.kind !== 'log'
          ? a
          : {
              ...a,
              items: a.items.map((x) => {
                if (x.deposit.length === 0) return x
                const d = x.deposit.slice()
                d[d.length - 1] = (d[d.length - 1] ?? 0) ^ 1
                return { ...x, deposit: d }
              }),
            }
    const asked: NotaryRequest['kind'][] = []
    const before = (q: NotaryRequest): Promise<void> => {
      asked.push(q.kind)
      return Promise.resolve()
    }
    const seat2 = g.seat(2, garble, before)
    const end = tickTimes(g.w.genesis.genesis.timing, 2).start
    for (let k = 0; k < 100 && g.clock.now() <= end; k++) {
      for (const s of kept) await s.checkIn(signal)
      const r = await seat2.checkIn(signal)
      g.clock.advanceTo(Math.max(g.clock.now() + 1, r.plan.next ?? end + 1))
    }
    expect(asked).toContain('fetch')
    expect(asked).not.toContain('complain')
  })
})

describe('SPAAACE-WITNESSED §8.1 step 1, §8.5: a notary that serves junk in a fetch', () => {
  it('keeps only receipts of this game signed by the notary: its file can always be opened again', async () => {
    const g = game(3, 2)
    const signal = new AbortController().signal
    const junk = [
      Uint8Array.of(LINE_KIND.envelope, 0, 0, 1),
      Uint8Array.of(0x00, 1, 2, 3),
      Uint8Array.of(LINE_KIND.receipt, 9, 9),
    ]
    const serveJunk: Tamper = (q, a) =>
      q.kind === 'fetch' && a.kind === 'log'
        ? { ...a, items: [...a.items, ...junk.map((receipt) => ({ receipt, deposit: new Uint8Array() }))] }
        : a
    const seat = g.seat(0, serveJunk)
    await g.seat(1).checkIn(signal)
    await seat.checkIn(signal)
    const file = g.stores[0] as WitnessedStore
    const read = readPeersTranscript(
      formatPeersTranscript(g.w.genesis.bytes, [...file.envelopes(), ...file.receipts()]),
    )
    expect(read.ok && read.value.setAside).toEqual([])
    expect(read.ok && read.value.receipts.length).toBeGreaterThan(0)
  })
})
