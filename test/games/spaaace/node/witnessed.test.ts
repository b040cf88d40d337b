/**
 * The honest node of a witnessed game (protocol/SPAAACE-WITNESSED.md §8) against the notary in
 * process, on one virtual clock: seats that check in at the times their plans ask, bots choosing.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { hostname, tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { toHex } from '../../../../src/core/commit/bytes.js'
import { type SpaaaceGameRow, formatSpaaaceGames, spaaaceGames } from '../../../../src/cli/spaaace-games.js'
import { formatSpaaaceInvite } from '../../../../src/games/spaaace/node/invite.js'
import { run } from '../../../../src/cli/main.js'
import type { CliIo } from '../../../../src/cli/io.js'
import { formatPeersTranscript } from '../../../../src/games/spaaace/peers/transcript.js'
import { seededSecrets } from '../../../../src/core/commit/secrets.js'
import { NotaryClient, type Transport } from '../../../../src/core/notary-net/client.js'
import { type NotaryResponse, decodeRequest, encodeResponse } from '../../../../src/core/notary/messages.js'
import { decodeReceipt, encodeUnsignedReceipt, receiptHash } from '../../../../src/core/notary/receipt.js'
import { layoutOf } from '../../../../src/core/notary/domain.js'
import { depositHash } from '../../../../src/core/notary/deposit.js'
import { decodeHeader, encodeHeader, signHeader } from '../../../../src/core/notary/header.js'
import type { SubmissionW } from '../../../../src/games/spaaace/witness/submission.js'
import { Notary } from '../../../../src/core/notary-service/notary.js'
import { NotaryStore } from '../../../../src/core/notary-service/store.js'
import { VirtualClock } from '../../../../src/core/session/clock.js'
import { randomBot } from '../../../../src/games/spaaace/bot/random.js'
import { sensibleBot } from '../../../../src/games/spaaace/bot/sensible.js'
import { signAccept, tickTimes } from '../../../../src/games/spaaace/peers/genesis.js'
import { tickLength } from '../../../../src/games/spaaace/peers/domain.js'
import { decodeEnvelope } from '../../../../src/games/spaaace/peers/envelope.js'
import { seededRng } from '../../../../src/games/spaaace/referee/random.js'
import { botChooser } from '../../../../src/games/spaaace/node/choosers.js'
import { type PeerSecrets, memorySecrets } from '../../../../src/games/spaaace/node/secrets.js'
import {
  WitnessedSeat,
  type WitnessedSeatOptions,
  type WitnessedStore,
  memoryWitnessedStore,
} from '../../../../src/games/spaaace/node/witnessed.js'
import {
  SPAAACE_LAYOUT,
  SPAAACE_NOTARY_DOMAIN,
  SPAAACE_NOTARY_PROTOCOL,
} from '../../../../src/games/spaaace/witness/domain.js'
import { decideFromFiles } from '../../../../src/games/spaaace/witness/evidence.js'
import { spaaaceRegistrar } from '../../../../src/games/spaaace/witness/registrar.js'
import { NOTARY_W, markWithTickZero, signedByNotary, witnessed } from '../witness/fixtures.js'

/**
 * `after(kind)` runs once the notary has answered a request of seat's, before the seat hears the
 * answer; `serve` may change the answer (a notary that lies).
 */
function inProcess(
  notary: Notary,
  key: Uint8Array,
  after?: (kind: string) => Promise<void>,
  serve?: (r: NotaryResponse) => NotaryResponse,
): Transport {
  return async (request) => {
    const q = decodeRequest(request, SPAAACE_NOTARY_PROTOCOL)
    if (!q.ok) throw new Error('a request that does not decode')
    const handled = notary.handle(q.value, { peer: Buffer.from(key).toString('hex'), key })
    const answer = encodeResponse(serve === undefined ? handled : serve(handled))
    await after?.(q.value.kind)
    return answer
  }
}

interface Game {
  readonly w: ReturnType<typeof witnessed>
  readonly clock: VirtualClock
  readonly stores: WitnessedStore[]
  readonly seats: WitnessedSeat[]
  /** A fresh node over seat `i`'s store, secrets and clock (a restarted process). */
  restart(i: number, store?: WitnessedStore, secrets?: PeerSecrets): void
  /** Checks seats in when their plans say until `until`; `away(i, t)` keeps seat `i` offline at `t`. */
  run(until: number, away?: (i: number, t: number) => boolean): Promise<void>
}

function game(
  n: number,
  maxTicks: number,
  o: {
    tamper?: (i: number) => WitnessedSeatOptions['tamper']
    /** Runs after the notary answers seat `i`'s request of `kind` and before the seat hears it (a race). */
    after?: (i: number, kind: string) => Promise<void>
    /** Changes every answer the seats hear (a lying notary). */
    serve?: (r: NotaryResponse) => NotaryResponse
    /** While true, no request of seat `i` of this kind reaches the notary (an outage, or a notary ignoring marks). */
    away?: (i: number, kind: string) => boolean
    /** Seat `i`'s answer to a request of `kind`, from the notary's (`answer()`), or no answer at all. */
    intercept?: (i: number, kind: string, answer: () => NotaryResponse) => NotaryResponse | 'fail'
    /** What the seats tell their players, `p<i+1>: ` before each line. */
    said?: string[]
  } = {},
): Game {
  const w = witnessed(n, { maxTicks })
  const clock = new VirtualClock(w.genesis.genesis.timing.start - 30_000)
  const notary = new Notary({ keys: NOTARY_W, registrar: spaaaceRegistrar, clock, store: new NotaryStore(':memory:') })
  const accepts = w.players.map((k, i) => signAccept(k, w.genesis.game, i).bytes)
  const stores = w.players.map((_, i) => memoryWitnessedStore([accepts[i] as Uint8Array]))
  const secrets = w.players.map((_, i) => memorySecrets(seededSecrets(`witnessed seat ${i}`)))
  const seat = (i: number): WitnessedSeat => {
    const keys = w.players[i] ?? NOTARY_W
    const tamper = o.tamper?.(i)
    return new WitnessedSeat({
      genesis: w.genesis,
      keys,
      self: i,
      client: new NotaryClient({
        transport: (request, sig) => {
          const kind = decodeRequest(request, SPAAACE_NOTARY_PROTOCOL)
          if (kind.ok && o.away?.(i, kind.value.kind) === true)
            return Promise.reject(new Error('the notary does not answer'))
          if (kind.ok && o.intercept !== undefined) {
            const got = o.intercept(i, kind.value.kind, () =>
              notary.handle(kind.value, { peer: Buffer.from(keys.publicKey).toString('hex'), key: keys.publicKey }),
            )
            return got === 'fail'
              ? Promise.reject(new Error('the notary does not answer'))
              : Promise.resolve(encodeResponse(got))
          }
          return inProcess(
            notary,
            keys.publicKey,
            o.after === undefined ? undefined : (kind) => o.after?.(i, kind) ?? Promise.resolve(),
            o.serve,
          )(request, sig)
        },
        clock,
        domain: SPAAACE_NOTARY_DOMAIN,
        notaryKey: NOTARY_W.publicKey,
        protocol: SPAAACE_NOTARY_PROTOCOL,
      }),
      store: stores[i] ?? memoryWitnessedStore(),
      secrets: secrets[i] ?? memorySecrets(seededSecrets('none')),
      random: seededSecrets(`witnessed deposits ${i}`),
      chooser: botChooser(i === 0 ? sensibleBot() : randomBot, seededRng(`witnessed bot ${i}`)),
      clock,
      accepts: () => accepts,
      say: (l) => void o.said?.push(`p${i + 1}: ${l}`),
      ...(tamper === undefined ? {} : { tamper }),
    })
  }
  const seats = w.players.map((_, i) => seat(i))
  const next = seats.map(() => clock.now())
  const signal = new AbortController().signal
  return {
    w,
    clock,
    stores,
    seats,
    restart(i, store, fresh) {
      if (store !== undefined) stores[i] = store
      if (fresh !== undefined) secrets[i] = fresh
      seats[i] = seat(i)
    },
    async run(until, away = () => false) {
      for (let k = 0; k < 2000; k++) {
        const i = next.indexOf(Math.min(...next))
        const at = next[i] ?? until
        if (at > until) break
        clock.advanceTo(Math.max(clock.now(), at))
        if (away(i, clock.now())) {
          next[i] = clock.now() + 1000
          continue
        }
        const r = await (seats[i] as WitnessedSeat).checkIn(signal)
        next[i] = r.plan.next ?? until + 1
      }
    },
  }
}

const decided = (g: Game, i: number) =>
  decideFromFiles(g.w.genesis, g.stores[i]?.receipts() ?? [], g.stores[i]?.envelopes() ?? [])

/** The game's directory under `home` as `spaaace games` reads it, holding its invite (the notary's address given). */
function gameDir(home: string, g: Game): string {
  const dir = join(home, 'spaceships', 'spaaace', g.w.genesis.id.slice(0, 16))
  mkdirSync(dir, { recursive: true })
  writeFileSync(
    join(dir, 'invite'),
    formatSpaaaceInvite(
      g.w.genesis,
      g.w.players.map(() => []),
      ['/ip4/127.0.0.1/tcp/4111'],
    ),
  )
  return dir
}

/** Every seat's file merged, decided as `spaceships verify` decides them together. */
const mergedOf = (g: Game) =>
  decideFromFiles(
    g.w.genesis,
    g.stores.flatMap((st) => [...st.receipts()]),
    g.stores.flatMap((st) => [...st.envelopes()]),
  ).decision

/** Seat `i`'s own envelope among `bytes`, if it is one. */
const ownOf = (g: Game, i: number, b: Uint8Array) => {
  const d = decodeEnvelope(b, { players: g.w.players.length, game: g.w.genesis.game })
  return d.ok && d.value.envelope.author === i ? d.value.envelope : undefined
}

describe('witnessed Spaaace! nodes and the notary (SPAAACE-WITNESSED §8)', () => {
  it('three honest nodes checking in when their plans say: every tick final, one state per tick in every file, complete, sealed', async () => {
    const g = game(3, 4)
    const { w, stores } = g
    // Past the horizon (§9.4: the seal comes at the latest at C_{maxTicks+1} + L).
    await g.run(tickTimes(w.genesis.genesis.timing, 7).start)
    const files = stores.map((s) => decideFromFiles(w.genesis, s.receipts(), s.envelopes()))
    for (const f of files) {
      expect(f.log.faults).toEqual([])
      expect(f.decision.offences).toEqual([])
      expect(f.decision.end).toMatchObject({ kind: 'complete', tick: 4, provisional: false })
      expect(f.decision.ticks.map((x) => x.status)).toEqual(['final', 'final', 'final', 'final'])
      expect(f.decision.ticks.map((x) => x.stateHash)).toEqual(files[0]?.decision.ticks.map((x) => x.stateHash))
      expect(f.log.sealed).toBe(true)
    }
    // Every seat played every tick: nobody missing or withheld.
    for (const t of files[0]?.decision.ticks ?? []) expect(t.submissions?.map((s) => s.kind)).not.toContain('missing')

    // `spaceships verify` on each file alone and on all three: the same decision (SPAAACE-WITNESSED §7).
    const texts = new Map(
      stores.map((st, i) => [
        `p${i + 1}.transcript`,
        formatPeersTranscript(w.genesis.bytes, [...st.envelopes(), ...st.receipts()]),
      ]),
    )
    const verify = async (names: string[]): Promise<{ code: number; out: string; raw: string }> => {
      let out = ''
      const io: CliIo = {
        stdout: (t) => (out += t),
        stderr: (t) => (out += t),
        readFile: (path) => Promise.resolve(new TextEncoder().encode(texts.get(path) ?? '')),
        writeFile: () => Promise.resolve(),
        env: {},
      }
      const code = await run(['verify', ...names], io)
      // The report is wrapped to 80 columns: its continuation lines joined back, as a reader reads them.
      return { code, out: out.replace(/\n {4}/g, ' '), raw: out }
    }
    for (const names of [['p1.transcript'], ['p3.transcript'], [...texts.keys()]]) {
      const v = await verify(names)
      expect(v.code, v.out).toBe(0)
      expect(v.out).toMatch(/witnessed/)
      expect(v.out).toMatch(/tick 4: final/)
      expect(v.out).toMatch(/Decided from the notary's receipts \(SPAAACE-WITNESSED §7\): complete after tick 4: /)
      expect(v.out).not.toMatch(/offence|notary fault/)
      expect(v.out).toMatch(/standings after tick 4 \(S-43\): (p\d fame \d+ coins \d+(; )?){3}\./)
      // Within 80 columns (a path longer than a line would stay whole: these are short).
      for (const l of v.raw.split('\n')) expect(l.length, l).toBeLessThanOrEqual(80)
    }
    // A file lacking one receipt the log names (§6.3): the words and the JSON both say which.
    const receipts = stores[0]?.receipts() ?? []
    const dropped = receipts[3]
    texts.set(
      'p1-short.transcript',
      formatPeersTranscript(w.genesis.bytes, [
        ...(stores[0]?.envelopes() ?? []),
        ...receipts.filter((r) => r !== dropped),
      ]),
    )
    const short = await verify(['p1-short.transcript'])
    expect(short.out).toMatch(/1 receipt\(s\) named by the log and in no file/)
    const json = await verify(['--json', 'p1-short.transcript'])
    const parsed = JSON.parse(json.out) as { missingReceipts: number[] }
    expect(parsed.missingReceipts).toEqual([3])
    const whole = JSON.parse((await verify(['--json', 'p1.transcript'])).out) as {
      missingReceipts: number[]
      unreceipted: string[]
    }
    expect(whole.missingReceipts).toEqual([])
    expect(whole.unreceipted).toEqual([])
  })

  it('`spaaace games` says when a node signs nothing: its transcript shorter than the count of its secrets file, or its seed found lost (P §6.8 step 8)', async () => {
    const g = game(3, 3)
    const { w } = g
    const home = mkdtempSync(join(tmpdir(), 'spaaace-games-'))
    try {
      const dir = gameDir(home, g)
      await g.run(tickTimes(w.genesis.genesis.timing, 2).start)
      writeFileSync(
        join(dir, 'p1.transcript'),
        formatPeersTranscript(w.genesis.bytes, [
          ...(g.stores[0]?.envelopes() ?? []),
          ...(g.stores[0]?.receipts() ?? []),
        ]),
      )
      const own = (g.stores[0]?.envelopes() ?? []).filter((b) => ownOf(g, 0, b) !== undefined).length
      const row = (secrets: object) => {
        writeFileSync(join(dir, 'p1.secrets'), `${JSON.stringify({ seed: 'AA', orders: {}, ...secrets })}\n`)
        return spaaaceGames({ XDG_STATE_HOME: home }, w.players[0]?.publicKey ?? new Uint8Array())[0]
      }
      expect(row({ signed: own })?.signsNothing).toBeUndefined()
      expect(row({ signed: own + 2 })?.signsNothing).toBe(
        `its transcript holds ${own} of the ${own + 2} envelopes it signed (lost, or replaced by an older copy): it waits for the others to send them back`,
      )
      const lost = row({ signed: own, seedLost: true }) as SpaaaceGameRow
      expect(lost.signsNothing).toMatch(/^its secrets file was made afresh/)
      expect(formatSpaaaceGames([{ ...lost, openIn: 4242 }], 'spaceships').replace(/\n {4}/g, ' ')).toContain(
        'Your node signs nothing in this game: its secrets file was made afresh: the seed its commitments were salted with is gone.\n  Open in process 4242 on this machine, which holds it',
      )
    } finally {
      rmSync(home, { recursive: true, force: true })
    }
  })

  it('`spaaace games` counts the ticks a witnessed file decides, final or provisional, and says how many are provisional (§7.2)', async () => {
    const g = game(3, 3)
    const { w } = g
    const times = (t: number) => tickTimes(w.genesis.genesis.timing, t)
    const home = mkdtempSync(join(tmpdir(), 'spaaace-games-'))
    try {
      const env = { XDG_STATE_HOME: home }
      const dir = gameDir(home, g)
      writeFileSync(join(dir, 'bot-p3.key'), 'not read by a listing\n')
      const row = () => {
        writeFileSync(
          join(dir, 'p1.transcript'),
          formatPeersTranscript(w.genesis.bytes, [
            ...(g.stores[0]?.envelopes() ?? []),
            ...(g.stores[0]?.receipts() ?? []),
          ]),
        )
        return spaaaceGames(env, w.players[0]?.publicKey ?? new Uint8Array())[0]
      }
      // Tick 1 revealed and decided, the commit cut of tick 2 not yet past: provisional (§7.2).
      await g.run(times(2).start + 1000)
      const early = decided(g, 0).decision.ticks[0]?.status
      expect(early).toBe('provisional')
      expect(row()).toMatchObject({ seat: 1, tick: 1, provisional: 1, maxTicks: 3, ended: false })
      // As listed: prose within 80 columns, the command that carries it on alone on its line, whole
      // (this game's windows are live, so it is resumed live, not checked in to).
      const listed = formatSpaaaceGames([row() as SpaaaceGameRow], 'spaceships').split('\n')
      expect(listed[0]).toBe(
        `${w.genesis.id.slice(0, 16)}: 3 players, you are p1, 1 of 3 ticks settled (1 provisional)`,
      )
      // Who else sits and when: p3's key file is here (a bot this machine runs), p2 by its key;
      // the start from the genesis, the last write of this player's file (a game a move a day).
      const start = new Date(w.genesis.genesis.timing.start).toISOString()
      expect(row()).toMatchObject({
        seats: ['you', toHex(w.players[1]?.publicKey ?? new Uint8Array()).slice(0, 12), 'your bot'],
        started: start,
      })
      expect(Date.parse(row()?.written ?? '')).toBeGreaterThan(Date.now() - 60_000)
      expect(listed.join('\n').replace(/\n {4}/g, ' ')).toContain(
        `\n  with p2 ${toHex(w.players[1]?.publicKey ?? new Uint8Array()).slice(0, 12)}, p3 your bot; started ${start.slice(0, 16).replace('T', ' ')}, your file written ${(row()?.written ?? '').slice(0, 16).replace('T', ' ')} (UTC)\n`,
      )
      expect(listed.slice(-3)).toEqual(['  Resume with:', `    spaceships spaaace join @${join(dir, 'invite')}`, ''])
      for (const l of listed.slice(0, -2)) expect(l.length).toBeLessThanOrEqual(80)
      // A game checked in to, stalled by an outage vote: its long end line wrapped, indented.
      const stalled = formatSpaaaceGames(
        [
          {
            ...(row() as SpaaaceGameRow),
            witnessed: true,
            end: "stalled at tick 3 (outage, provisional: p1, p2, p3 voted; any receipt past the tick's reveal cut lifts it, §7.6 rule 4)",
          },
        ],
        'spaceships',
      ).split('\n')
      expect(stalled.slice(3, 5)).toEqual([
        '  stalled at tick 3 (outage, provisional: p1, p2, p3 voted; any receipt past the',
        "    tick's reveal cut lifts it, §7.6 rule 4)",
      ])
      expect(stalled[stalled.length - 2]).toBe(`    spaceships spaaace join @${join(dir, 'invite')} --check-in`)
      // A process of this machine holding the game (its lock names it): the listing says so
      // instead of a command that would be refused.
      writeFileSync(join(dir, 'lock'), `${process.pid} ${hostname()}\n`)
      expect(row()).toMatchObject({ openIn: process.pid })
      const open = formatSpaaaceGames([row() as SpaaaceGameRow], 'spaceships')
      expect(open.replace(/\n\s+/g, ' ')).toContain(
        `Open in process ${process.pid} on this machine, which plays it on (stop that one to resume here).`,
      )
      expect(open).not.toContain('spaaace join')
      rmSync(join(dir, 'lock'))
      await g.run(times(6).start)
      expect(row()).toMatchObject({ tick: 3, provisional: 0, ended: true })
    } finally {
      rmSync(home, { recursive: true, force: true })
    }
  })

  it('a node that seals after the others seeded behind its back still ends with every receipt up to the seal (§8.1, §9.4)', async () => {
    // Seat 2 fetches, signs its seed and, before it hears the receipt, the others sign theirs: the
    // notary then seals at seat 2's request, and seat 2 must fetch what came between.
    let armed = false
    const signal = new AbortController().signal
    const g: Game = game(3, 3, {
      after: async (i, kind) => {
        if (i !== 2 || kind !== 'submit' || !armed) return
        armed = false
        await g.seats[0]?.checkIn(signal)
        await g.seats[1]?.checkIn(signal)
      },
    })
    const { w } = g
    const end = tickTimes(w.genesis.genesis.timing, 4).commitCut
    // Everyone plays until just before the end is final; then seat 2 alone checks in, first.
    await g.run(end - 1)
    expect(decided(g, 2).decision.end.kind).toBe('complete')
    g.clock.advanceTo(end + 2 * w.genesis.genesis.timing.marginMs + 2000)
    armed = true
    await g.seats[2]?.checkIn(signal)
    expect(armed).toBe(false)
    const mine = decided(g, 2)
    expect(mine.log.sealed).toBe(true)
    expect(mine.log.gaps).toEqual([])
    expect(mine.log.chain.length).toBe(decided(g, 1).log.chain.length)
  })

  it('a notary that serves bytes it signed and no reader can take (receipt-invalid, §6.3 item 4): every node keeps them, and every file stops the game there as a notary fault, not as a silent stall', async () => {
    let forged: Uint8Array | undefined
    let poison = false
    let served = 0
    // After tick 1, the notary's fetch answers carry, after its last receipt, a mark with t = 0 it
    // signed: the first at the next index, then others at that index and above, each new bytes (a
    // notary growing the players' files).
    const serve = (r: NotaryResponse): NotaryResponse => {
      if (!poison || r.kind !== 'log' || r.items.length === 0) return r
      const last = r.items.at(-1)?.receipt ?? new Uint8Array()
      const d = decodeReceipt(last, SPAAACE_LAYOUT)
      if (!d.ok) return r
      // Five lines an answer, at falling indices from the next one up: each new bytes.
      const lines = [4, 3, 2, 1, 0].map((k) => {
        const unsigned = encodeUnsignedReceipt(
          {
            game: d.value.game,
            index: d.value.index + 1 + k,
            prev: receiptHash(SPAAACE_NOTARY_DOMAIN, last),
            time: d.value.time + 1 + served++,
            kind: 'mark',
            t: 1,
            cut: 1,
          },
          layoutOf(SPAAACE_NOTARY_DOMAIN),
        )
        return signedByNotary(markWithTickZero(unsigned))
      })
      forged ??= lines[4]
      return { ...r, items: [...r.items, ...lines.map((receipt) => ({ receipt, deposit: new Uint8Array() }))] }
    }
    const g = game(3, 3, { serve })
    const times = (t: number) => tickTimes(g.w.genesis.genesis.timing, t)
    await g.run(times(2).start + 1000)
    poison = true
    await g.run(times(6).start)
    expect(forged).toBeDefined()
    expect(served).toBeGreaterThan(3)
    for (const i of [0, 1, 2]) {
      // One line proves the fault: the node keeps none after it at its index or above.
      const invalid = (g.stores[i]?.receipts() ?? []).filter((r) => !decodeReceipt(r, SPAAACE_LAYOUT).ok)
      expect(invalid).toHaveLength(1)
      const d = decided(g, i)
      expect(d.log.faults.map((f) => f.kind)).toContain('receipt-invalid')
      expect(d.decision.end).toMatchObject({ kind: 'stalled', cause: 'notary-fault' })
    }
  })

  it('a node restarted after it kept the receipts but before it opened their deposits fetches them again and plays on (§8.5)', async () => {
    const g = game(3, 3)
    const { w } = g
    await g.run(tickTimes(w.genesis.genesis.timing, 2).start + 1000)
    // Seat 1's process died after writing the log's receipts and before opening what they name:
    // its file holds its own envelopes and every receipt, nobody else's envelope.
    const before = g.stores[1] ?? memoryWitnessedStore()
    const own = before.envelopes().filter((b) => b[1] === 1)
    g.restart(1, memoryWitnessedStore([...own, ...before.receipts()]))
    expect(decided(g, 1).decision.ticks[0]?.status).toBe('gap')
    await g.run(tickTimes(w.genesis.genesis.timing, 6).start)
    for (const i of [0, 1, 2]) {
      const d = decided(g, i).decision
      expect(d.end).toMatchObject({ kind: 'complete', tick: 3, provisional: false })
      expect(d.offences).toEqual([])
      expect(d.ticks.map((t) => t.stateHash)).toEqual(decided(g, 0).decision.ticks.map((t) => t.stateHash))
    }
    // It missed nothing: its orders counted in every tick.
    for (const t of decided(g, 1).decision.ticks) expect(t.submissions?.[1]?.kind).toBe('orders')
  })

  it('the mailbox: a wrap garbled for one player who complains too late to void it; another node leaves it a relay, and its file decides as the others (§5.4, §7.2, §10.3)', async () => {
    // p3 (index 2) garbles p1's wrap (index 0) of its tick-1 reveal (its seq 2).
    const garble = (s: SubmissionW): SubmissionW => {
      const h = decodeHeader(s.header, SPAAACE_LAYOUT)
      if (!h.ok || h.value.seq !== 2) return s
      const deposit = s.deposit.slice()
      deposit.fill(0x5a, 32, 80)
      const keys = w3.players[2] ?? NOTARY_W
      const signed = signHeader(SPAAACE_NOTARY_DOMAIN, keys, {
        ...h.value,
        depositHash: depositHash(SPAAACE_NOTARY_DOMAIN, deposit),
      })
      return { header: encodeHeader(signed, SPAAACE_LAYOUT), deposit }
    }
    const g = game(3, 4, { tamper: (i) => (i === 2 ? garble : undefined) })
    const w3 = g.w
    const timing = g.w.genesis.genesis.timing
    const at1 = tickTimes(timing, 1)
    const F1 = tickTimes(timing, 2).commitCut
    // p1 is away from just after its reveal of tick 1 until after F_1 = C_2: its complaint is late.
    await g.run(tickTimes(timing, 7).start, (i, t) => i === 0 && t > at1.commitCut + 5_000 && t < F1 + 5_000)
    const files = [0, 1, 2].map((i) => decided(g, i).decision)
    for (const d of files) {
      expect(d.voids).toEqual([])
      expect(d.offences).toEqual([expect.objectContaining({ player: 2, kind: 'false-deposit', counted: 2, tick: 1 })])
      expect(d.end).toMatchObject({ kind: 'complete', tick: 4, provisional: false })
      expect(d.ticks.map((t) => t.stateHash)).toEqual(files[1]?.ticks.map((t) => t.stateHash))
    }
    // p1's file holds p3's tick-1 reveal only because p2 relayed its content key.
    expect(files[0]?.ticks[0]?.submissions?.[2]?.kind).toBe('orders')
  })

  it('a notary away past R_s + OUTAGE_MS: each node, its last three fetches failed, signs one outage vote stop(s) and nothing else; all files together read "stalled (outage)", one alone does not; back, the notary receipts the votes, the outage lifts and nobody is convicted (§8.2, §7.6 rule 4)', async () => {
    let away = false
    // Enough ticks that the notary is back before its horizon (§9.4: it seals then, and takes no vote after).
    const g = game(3, 8, { away: () => away })
    const { w, stores, clock } = g
    const timing = w.genesis.genesis.timing
    await g.run(tickTimes(timing, 2).start)
    away = true
    const before = decided(g, 0).decision
    const open = before.ticks[before.ticks.length - 1]
    expect(open?.status).toBe('open')
    const s = open?.t ?? 0
    /** The ticks of the outage votes seat `i` signed (its file holds the others' too, once opened). */
    const votesOf = (i: number): number[] =>
      (stores[i]?.envelopes() ?? []).flatMap((b) => {
        const d = decodeEnvelope(b, { players: 3, game: w.genesis.game })
        return d.ok && d.value.envelope.author === i
          ? d.value.envelope.parts.flatMap((p) => (p.type === 'stop' ? [p.tick] : []))
          : []
      })
    const signedBy = stores.map((st) => st.envelopes().length)
    // Every seat checks in, and keeps trying the notary on its backoff, while the clock runs.
    const ctl = new AbortController()
    const pending = g.seats.map((seat) => seat.checkIn(ctl.signal).catch(() => undefined))
    const runTo = async (until: number): Promise<void> => {
      while (clock.now() < until) {
        await new Promise((r) => setImmediate(r))
        clock.advanceTo(Math.min(until, clock.next() ?? until))
      }
    }
    const due = tickTimes(timing, s).revealCut + tickLength(timing)
    // Not before R_s + OUTAGE_MS, however many fetches failed (the converse).
    await runTo(due)
    expect([0, 1, 2].map(votesOf)).toEqual([[], [], []])
    await runTo(due + 5 * 60_000)
    ctl.abort()
    await Promise.all(pending)
    // One vote each, for s, and nothing else signed while the notary was away.
    expect([0, 1, 2].map(votesOf)).toEqual([[s], [s], [s]])
    expect(stores.map((st) => st.envelopes().length)).toEqual(signedBy.map((n) => n + 1))
    const merged = decideFromFiles(
      w.genesis,
      stores.flatMap((st) => st.receipts()),
      stores.flatMap((st) => st.envelopes()),
    )
    expect(merged.decision.end).toEqual({ kind: 'stalled', cause: 'outage', tick: s, voters: [0, 1, 2] })
    expect(merged.decision.offences).toEqual([])
    // One file holds one vote of three: no majority, the game reads as ongoing (paused).
    expect(decided(g, 0).decision.end.kind).toBe('ongoing')

    // The notary answers again: the votes are receipted (§8.1 step 3), the cuts marked, the record lifted.
    away = false
    await g.run(tickTimes(timing, 12).start)
    const files = stores.map((st) => decideFromFiles(w.genesis, st.receipts(), st.envelopes()))
    for (const f of files) {
      expect(f.log.faults).toEqual([])
      expect(f.decision.offences).toEqual([])
      expect(f.decision.unreceipted).toEqual([])
      expect(f.decision.end.kind).toBe('complete')
      expect(f.decision.end).toEqual(files[0]?.decision.end)
    }
    expect([0, 1, 2].map(votesOf)).toEqual([[s], [s], [s]])
  })

  it('a notary that answers fetches but never a mark (its log would not pass R_s): each node, its requests unanswered, votes in check-in visits of 15 s, and the votes receipted move the log on (§8.2)', async () => {
    let dropMarks = false
    const g = game(3, 8, { away: (_i, kind) => dropMarks && kind === 'mark' })
    const { w, stores, clock } = g
    const timing = w.genesis.genesis.timing
    await g.run(tickTimes(timing, 2).start)
    dropMarks = true
    const s = decided(g, 0).decision.ticks.at(-1)?.t ?? 0
    // A check-in visit every fifth of a tick from R_s on, each ended 15 s after it began (as `--check-in` ends).
    const end = tickTimes(timing, s).revealCut + 2 * tickLength(timing)
    for (let t = tickTimes(timing, s).revealCut + 1000; t < end; t += Math.ceil(tickLength(timing) / 5)) {
      if (clock.now() < t) clock.advanceTo(t)
      for (const seat of g.seats) {
        const ctl = new AbortController()
        const visit = seat.checkIn(ctl.signal).catch(() => undefined)
        await drive(clock, clock.now() + 15_000)
        ctl.abort()
        await visit
      }
    }
    const votes = stores.map((st, i) => votesIn(st.envelopes(), w.genesis.game, i))
    expect(votes).toEqual([[s], [s], [s]])
    const merged = decideFromFiles(
      w.genesis,
      stores.flatMap((st) => st.receipts()),
      stores.flatMap((st) => st.envelopes()),
    )
    // The notary receipts submissions: each vote's receipt passes R_s, so the log moves on without
    // a mark, the ticks since are decided with everyone absent (S-61, S-81), and the game ends the
    // same in every file; a vote is never an offence.
    expect(merged.decision.offences).toEqual([])
    expect(merged.decision.unreceipted).toEqual([])
    for (let i = 0; i < 3; i++) expect(decided(g, i).decision.end).toEqual(merged.decision.end)
    expect(merged.decision.end.kind).toBe('complete')
  })

  it('a fetch whose first page came and whose next page did not is no failed fetch: the notary answered (§8.2)', async () => {
    let truncate = false
    let failsLeft = 0
    const g = game(3, 8, {
      intercept: (i, kind, answer) => {
        if (i !== 0 || kind !== 'fetch') return answer()
        if (failsLeft > 0) {
          failsLeft--
          return 'fail'
        }
        const a = answer()
        if (!truncate || a.kind !== 'log' || a.items.length < 2) return a
        // The first page ends a receipt early (as a byte budget would), and the next tries fail.
        truncate = false
        failsLeft = 3
        return { kind: 'log', items: a.items.slice(0, a.items.length - 1), more: true }
      },
    })
    const { w, stores, clock } = g
    const timing = w.genesis.genesis.timing
    await g.run(tickTimes(timing, 2).start)
    // Seat 0 is off for two ticks while the others play on and the log passes R_2.
    const back = tickTimes(timing, 2).revealCut + tickLength(timing) + 60_000
    await g.run(back, (i) => i === 0)
    truncate = true
    clock.advanceTo(Math.max(clock.now(), back))
    const ctl = new AbortController()
    const visit = (g.seats[0] as WitnessedSeat).checkIn(ctl.signal).catch(() => undefined)
    await drive(clock, clock.now() + 120_000)
    ctl.abort()
    await visit
    expect(votesIn(stores[0]?.envelopes() ?? [], w.genesis.game, 0)).toEqual([])
  })
})

/** Runs the sleeps of `clock` to `until`, letting the work they wake run between them. */
async function drive(clock: VirtualClock, until: number): Promise<void> {
  while (clock.now() < until) {
    await new Promise((r) => setImmediate(r))
    clock.advanceTo(Math.min(until, clock.next() ?? until))
  }
}

/** The ticks of the outage votes author `i` signed among `envelopes` (a file holds others' too, once opened). */
function votesIn(envelopes: readonly Uint8Array[], game: Uint8Array, i: number): number[] {
  return envelopes.flatMap((b) => {
    const d = decodeEnvelope(b, { players: 3, game })
    return d.ok && d.value.envelope.author === i
      ? d.value.envelope.parts.flatMap((p) => (p.type === 'stop' ? [p.tick] : []))
      : []
  })
}

// SPAAACE-PEERS §6.8 step 8, SPAAACE-WITNESSED §8.5: a node's file lost or replaced by an older
// copy. Found by an adversarial pass: the node never fetched its own envelopes back (it played no
// more), and with the notary away it voted at a seq it had signed, a fork convicting it.
describe('a witnessed node whose transcript was lost or replaced by an older copy (§8.5)', () => {
  for (const kind of ['older copy', 'lost: only the accept, as the CLI signs it again'] as const)
    it(`${kind}: it opens its own envelopes from the log again and plays every tick, no fork`, async () => {
      const g = game(3, 4)
      const timing = g.w.genesis.genesis.timing
      await g.run(tickTimes(timing, 1).start + 1000)
      const backup = [...(g.stores[1]?.envelopes() ?? []), ...(g.stores[1]?.receipts() ?? [])]
      // Up to R_2: seat 1 revealed tick 2, and signed more than its backup holds.
      await g.run(tickTimes(timing, 2).revealCut)
      const accept = (g.stores[1]?.envelopes() ?? []).find((b) => ownOf(g, 1, b)?.seq === 0)
      if (accept === undefined) throw new Error('no accept')
      g.restart(1, memoryWitnessedStore(kind === 'older copy' ? backup : [accept]))
      await g.run(tickTimes(timing, 7).start)
      const merged = mergedOf(g)
      expect(merged.offences).toEqual([])
      expect(merged.ticks.map((t) => t.submissions?.[1]?.kind)).toEqual(['orders', 'orders', 'orders', 'orders'])
    })

  it('its secrets file deleted (the transcript kept): a new seed cannot open its commitments, so it signs nothing more, and says so; no false seed, no fork (P §6.8 step 8)', async () => {
    const said: string[] = []
    const g = game(3, 4, { said })
    const timing = g.w.genesis.genesis.timing
    await g.run(tickTimes(timing, 2).start)
    const before = (g.stores[1]?.envelopes() ?? []).length
    g.restart(1, undefined, { ...memorySecrets(seededSecrets('a seed made afresh')), fresh: true })
    await g.run(tickTimes(timing, 7).start)
    const merged = mergedOf(g)
    expect(merged.offences).toEqual([])
    expect(said.filter((l) => l.startsWith('p2: Your node signed'))).toHaveLength(1)
    // Nothing of its own signed since: its file grew only by what the others signed.
    const ownSince = (g.stores[1]?.envelopes() ?? []).slice(before).filter((b) => ownOf(g, 1, b) !== undefined)
    expect(ownSince).toEqual([])
  })

  it('an older copy without its envelopes of the open tick, the notary then away: it votes at no seq it signed; once the notary answers, it goes on (§8.2)', async () => {
    let away = false
    const said: string[] = []
    const g = game(3, 8, { away: () => away, said })
    const { clock, stores } = g
    const timing = g.w.genesis.genesis.timing
    await g.run(tickTimes(timing, 2).start)
    const before = decided(g, 1)
    const open = before.decision.ticks.at(-1)
    expect(open?.status).toBe('open')
    const s = open?.t ?? 0
    // The backup was taken before seat 1's first envelope of the open tick s and its receipt.
    const ofS = (stores[1]?.envelopes() ?? [])
      .map((b) => ownOf(g, 1, b))
      .filter((e) => e !== undefined && e.parts.some((p) => 'tick' in p && p.tick === s))
    const k = Math.min(...ofS.map((e) => e?.seq ?? Infinity))
    const cut = before.log.decided.find((r) => r.kind === 'envelope' && r.author === 1 && r.seq === k)?.index ?? 0
    expect(cut).toBeGreaterThan(0)
    const index = (r: Uint8Array): number => {
      const d = decodeReceipt(r, SPAAACE_LAYOUT)
      return d.ok ? d.value.index : Infinity
    }
    g.restart(
      1,
      memoryWitnessedStore([
        ...(stores[1]?.envelopes() ?? []).filter((b) => (ownOf(g, 1, b)?.seq ?? -1) < k),
        ...(stores[1]?.receipts() ?? []).filter((r) => index(r) < cut),
      ]),
    )
    away = true
    const ctl = new AbortController()
    const pending = g.seats.map((seat) => seat.checkIn(ctl.signal).catch(() => undefined))
    const until = tickTimes(timing, s).revealCut + tickLength(timing) + 5 * 60_000
    while (clock.now() < until) {
      await new Promise((r) => setImmediate(r))
      clock.advanceTo(Math.min(until, clock.next() ?? until))
    }
    ctl.abort()
    await Promise.all(pending)
    away = false
    await g.run(tickTimes(timing, 12).start)
    const merged = mergedOf(g)
    expect(merged.offences.filter((o) => o.kind === 'fork')).toEqual([])
    expect(
      said.filter((l) => /^p2: Your transcript holds \d+ of the \d+ envelopes your node signed/.test(l)),
    ).toHaveLength(1)
    // Its own envelopes read back in order, one a seq.
    const seqs = (stores[1]?.envelopes() ?? []).flatMap((b) => ownOf(g, 1, b)?.seq ?? []).sort((a, b) => a - b)
    expect(seqs).toEqual(seqs.map((_, j) => j))
    expect(seqs.length).toBeGreaterThan(k + 1)
  })
})
