/**
 * Claims in a witnessed game, node to node (PROTOCOL-4.md §4.4): two sessions play over an
 * in-memory link, each with its link to one in-process notary on the same virtual clock. A stall
 * loses on time whoever is ahead; the claim is requested only past the deadline the receipts give,
 * and signed only with its receipt; an envelope the stream lost comes from the notary; a player
 * quitting a witnessed game pauses it and signs nothing; garbage from the peer never stops it. An
 * honest game never produces a complaint; a deposit that does not open is complained of, and its
 * sender loses by false-deposit (PROTOCOL-4.md §5.3).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { generateKeyPair } from '../../src/core/commit/keys.js'
import { seededSecrets } from '../../src/core/commit/secrets.js'
import { depositHash } from '../../src/core/notary/deposit.js'
import { decodeHeader, encodeHeader, signHeader } from '../../src/core/notary/header.js'
import { type NotaryRequest, decodeRequest, encodeResponse } from '../../src/core/notary/messages.js'
import { decodeReceipt } from '../../src/core/notary/receipt.js'
import type { Transport } from '../../src/core/notary-net/client.js'
import { Notary } from '../../src/core/notary-service/notary.js'
import { NotaryStore } from '../../src/core/notary-service/store.js'
import { type Fault, memoryChannelPair, withSecondSource } from '../../src/core/session/channel.js'
import { VirtualClock } from '../../src/core/session/clock.js'
import { NOTARY_DOMAIN } from '../../src/games/spaceships/protocol/domain.js'
import { type TranscriptStore, memoryStore } from '../../src/games/spaceships/protocol/file.js'
import type { Role, Terms } from '../../src/games/spaceships/protocol/messages.js'
import { seededRandom } from '../../src/games/spaceships/rules/rng.js'
import { type WitnessLink, witnessLink } from '../../src/games/spaceships/net/witness.js'
import type { Deviation } from '../../src/games/spaceships/session/options.js'
import { type SessionEvent, type SessionResult, runSession } from '../../src/games/spaceships/session/session.js'
import { type PlayerStrategy, randomStrategy } from '../../src/games/spaceships/session/strategy.js'
import { verifyEnvelopes } from '../../src/games/spaceships/verify/verify.js'
import { witnessedDue } from '../../src/games/spaceships/verify/witnessed.js'
import { spaceshipsRegistrar } from '../../src/games/spaceships/witness/registrar.js'
import { TERMS } from '../session/helpers.js'

const NOTARY = generateKeyPair(seededSecrets('claims/notary'))
const T0 = 1_800_000_000_000
const WITNESSED: Terms = { ...TERMS, maxTurns: 12, notary: NOTARY.publicKey }
const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

function notaryOn(clock: VirtualClock): Notary {
  const dir = mkdtempSync(join(tmpdir(), 'claims-'))
  dirs.push(dir)
  return new Notary({
    keys: NOTARY,
    registrar: spaceshipsRegistrar,
    clock,
    store: new NotaryStore(join(dir, 'notary.sqlite')),
  })
}

/** NOTARY.md §7: the notary in process, as the player `key` reaches it; `down` cuts it off. */
function inProcess(
  notary: Notary,
  key: Uint8Array,
  down: () => boolean,
  rewrite: (q: NotaryRequest) => NotaryRequest = (q) => q,
): Transport {
  return (request) => {
    if (down()) return Promise.reject(new Error('the notary is unreachable'))
    const q = decodeRequest(request)
    if (!q.ok) return Promise.reject(new Error('a request that does not decode'))
    return Promise.resolve(
      encodeResponse(notary.handle(rewrite(q.value), { peer: Buffer.from(key).toString('hex'), key })),
    )
  }
}

/** A strategy that never gives its record for `turn` (a player who stops answering). */
function stallingAt(turn: number, inner: PlayerStrategy): PlayerStrategy {
  return {
    ...inner,
    record: (ctx) => (ctx.turn >= turn ? new Promise(() => undefined) : inner.record(ctx)),
  }
}

interface Game {
  readonly a: SessionResult
  readonly b: SessionResult
  readonly events: Record<Role, SessionEvent[]>
  readonly clock: VirtualClock
  readonly stores: Record<Role, TranscriptStore>
}

async function play(
  seed: string,
  o: {
    strategies?: Partial<Record<Role, PlayerStrategy>>
    fault?: Fault
    notaryDown?: (role: Role) => boolean
    signals?: Partial<Record<Role, AbortSignal>>
    onClock?: (clock: VirtualClock) => void
    stores?: Record<Role, TranscriptStore>
    /** A cheating side: its deviation, and its requests to the notary rewritten (it owns its key). */
    deviations?: Partial<Record<Role, Deviation>>
    rewrite?: Partial<Record<Role, (q: NotaryRequest) => NotaryRequest>>
    outage?: Partial<Record<Role, boolean>>
  } = {},
): Promise<Game> {
  const clock = new VirtualClock(T0)
  o.onClock?.(clock)
  const notary = notaryOn(clock)
  const pair = memoryChannelPair(o.fault, clock)
  const stores = o.stores ?? { A: memoryStore(), B: memoryStore() }
  const events: Record<Role, SessionEvent[]> = { A: [], B: [] }
  const life = new AbortController()
  const links: WitnessLink[] = []
  const side = (role: Role, k: 0 | 1): Promise<SessionResult> => {
    const secrets = seededSecrets(`${seed}/${role}`)
    const keys = generateKeyPair(secrets)
    const link = witnessLink({
      transport: inProcess(notary, keys.publicKey, () => o.notaryDown?.(role) ?? false, o.rewrite?.[role]),
      notary: { key: NOTARY.publicKey, addrs: [] },
      keys,
      role,
      store: stores[role],
      signal: life.signal,
      clock,
      secrets: seededSecrets(`${seed}/${role}/deposits`),
    })
    links.push(link)
    const signal = o.signals?.[role]
    const deviation = o.deviations?.[role]
    return runSession({
      role,
      keys,
      terms: WITNESSED,
      version: 4,
      secrets,
      store: stores[role],
      channel: withSecondSource(pair.ends[k], link.inbox),
      clock,
      witness: link.session,
      strategy: o.strategies?.[role] ?? randomStrategy(seededRandom(`${seed}/${role}/bot`)),
      ...(signal === undefined ? {} : { signal }),
      ...(deviation === undefined ? {} : { deviation }),
      ...(o.outage?.[role] === true ? { outage: true } : {}),
      onEvent: (e) => {
        events[role].push(e)
        if (e.kind === 'envelope') link.see(e.sealed, e.direction)
      },
    })
  }
  try {
    const [a, b] = await clock.settle<[SessionResult, SessionResult]>([side('A', 0), side('B', 1)])
    // As the net layer does after a game: each link gets its last envelopes receipted and the log fetched.
    await clock.settle(links.map((l) => l.settle(WITNESSED.replyMs)))
    // PROTOCOL-4.md §5.3: an honest deposit always opens, so a game without a cheat never has a complaint.
    if (o.deviations === undefined)
      for (const role of ['A', 'B'] as const)
        expect(
          receiptsOf(stores[role]).filter((r) => r.kind === 'complaint'),
          `${role}'s complaints`,
        ).toEqual([])
    return { a, b, events, clock, stores }
  } finally {
    life.abort()
  }
}

const receiptsOf = (store: TranscriptStore) =>
  store.envelopes().flatMap((bytes) => {
    const r = bytes[0] === 0x84 ? decodeReceipt(bytes) : undefined
    return r?.ok === true ? [r.value] : []
  })

describe('claims in a witnessed game (PROTOCOL-4.md §4.4)', () => {
  it.each(['A', 'B'] as const)(
    'a stall of %s loses on time: the claim is requested past D, receipted, then signed; both files say so',
    async (staller) => {
      const winner = staller === 'A' ? 'B' : 'A'
      const g = await play(`claims/stall/${staller}`, {
        strategies: { [staller]: stallingAt(3, randomStrategy(seededRandom(`claims/stall/${staller}/bot`))) },
      })
      for (const r of [g.a, g.b]) {
        expect(r.verdict.status, JSON.stringify(r.verdict)).toBe('abandoned')
        if (r.verdict.status === 'abandoned') {
          expect(r.verdict.how).toBe('time')
          expect(r.verdict.by).toBe(staller)
          expect(r.verdict.winner).toBe(winner)
        }
      }
      // The claim receipt's time is past the deadline the receipts give (§4.2), and A's stop names it.
      const claim = receiptsOf(g.stores[winner]).find((r) => r.kind === 'claim')
      expect(claim?.kind).toBe('claim')
      if (claim?.kind !== 'claim') return
      expect(claim.time).toBeGreaterThan(claim.claim.deadline)
      const stop = receiptsOf(g.stores[winner]).find((r) => r.kind === 'envelope' && (r.header.flags & 2) !== 0)
      expect(stop?.kind === 'envelope' && stop.header.seen).toBe(claim.index)
      // The verifier agrees on both files together, too.
      expect(verifyEnvelopes([...g.stores.A.envelopes(), ...g.stores.B.envelopes()]).status).toBe('abandoned')
    },
  )

  it('garbage from the peer and a closed stream never stop a witnessed game: it ends complete', async () => {
    let i = 0
    const g = await play('claims/garbage', {
      fault: (frame, from) => {
        i++
        // Every fifth frame of B's reaches A mangled: not evidence (SPEC §2.1), never a reason to stop.
        if (from === 1 && i % 5 === 0) frame[frame.length - 1] = (frame[frame.length - 1] ?? 0) ^ 0xff
        return 'deliver'
      },
    })
    expect(g.a.verdict.status, JSON.stringify(g.a.verdict)).toBe('complete')
    expect(g.b.verdict.status, JSON.stringify(g.b.verdict)).toBe('complete')
    expect(g.events.A.some((e) => e.kind === 'stopped')).toBe(false)
  })

  it('an envelope the stream lost comes from the notary: the game goes on, nobody claims', async () => {
    let n = 0
    const g = await play('claims/lost', {
      // B's frames from its 6th on never reach A directly: A gets them from the notary's deposits.
      fault: (_frame, from) => (from === 1 && ++n >= 6 ? 'drop' : 'deliver'),
    })
    expect(g.a.verdict.status, JSON.stringify(g.a.verdict)).toBe('complete')
    expect(g.b.verdict.status, JSON.stringify(g.b.verdict)).toBe('complete')
  })

  it('a late envelope receipted before the claim is taken, not claimed across: the game goes on to its end', async () => {
    // B makes its turn-3 record 75 s after it is asked: its envelope is receipted about 5 s past its
    // deadline D (60 s + 10 s of margin from the receipt that made it due). A cannot reach the
    // notary from 1 s before D until 10 s after it, so its first claim request comes after B's late
    // receipt; and B's frames from then on never reach A directly, so A learns B's envelope from the
    // notary (the fetch before the claim brings it, and A plays on: PROTOCOL-4.md §4.4).
    const late = 75_000
    let lateSent = false
    let clock: VirtualClock | undefined
    const stores = { A: memoryStore(), B: memoryStore() }
    const inner = randomStrategy(seededRandom('claims/late/B/bot'))
    const g = await play('claims/late', {
      stores,
      onClock: (c) => (clock = c),
      strategies: {
        B: {
          ...inner,
          record: async (ctx) => {
            if (ctx.turn !== 3 || lateSent || clock === undefined) return inner.record(ctx)
            await clock.sleep(late)
            lateSent = true
            return inner.record(ctx)
          },
        },
      },
      fault: (_f, from) => (from === 1 && lateSent ? 'drop' : 'deliver'),
      notaryDown: (role) => {
        if (role !== 'A' || clock === undefined) return false
        const due = witnessedDue(stores.A.envelopes())
        if (due?.side !== 'B' || due.deadline === undefined) return false
        return clock.now() >= due.deadline - 1_000 && clock.now() < due.deadline + 10_000
      },
    })
    expect(lateSent).toBe(true)
    expect(g.a.verdict.status, JSON.stringify(g.a.verdict)).toBe('complete')
    expect(g.b.verdict.status, JSON.stringify(g.b.verdict)).toBe('complete')
    expect(receiptsOf(g.stores.A).some((r) => r.kind === 'claim')).toBe(false)
  })

  it('an outage of the notary longer than the deadline: play goes on directly, a stall is claimed once the notary is back, one result on both sides (PROTOCOL-4.md §4.5)', async () => {
    let clock: VirtualClock | undefined
    let from: number | undefined
    const outage = 10 * 60_000
    const inner = randomStrategy(seededRandom('claims/outage/B/bot'))
    const g = await play('claims/outage', {
      onClock: (c) => (clock = c),
      strategies: {
        B: {
          ...inner,
          record: (ctx) => {
            // From turn 2 the notary is unreachable for both sides for ten minutes; B plays turns 2 and
            // 3 directly, then stalls in turn 4 (inside the outage, far past its deadline).
            if (ctx.turn === 2 && from === undefined) from = clock?.now()
            return ctx.turn >= 4 ? new Promise(() => undefined) : inner.record(ctx)
          },
        },
      },
      notaryDown: () => from !== undefined && clock !== undefined && clock.now() < from + outage,
    })
    for (const r of [g.a, g.b]) {
      expect(r.verdict.status, JSON.stringify(r.verdict)).toBe('abandoned')
      if (r.verdict.status === 'abandoned') expect([r.verdict.how, r.verdict.by]).toEqual(['time', 'B'])
    }
    // The claim came after the notary was back: nothing was signed while it could not be receipted.
    const claim = receiptsOf(g.stores.A).find((r) => r.kind === 'claim')
    expect(claim !== undefined && from !== undefined && claim.time >= from + outage).toBe(true)
  })

  it('an outage of the notary in the middle of a game changes nothing: it ends complete, its envelopes receipted once the notary is back', async () => {
    let clock: VirtualClock | undefined
    let from: number | undefined
    const g = await play('claims/outage-complete', {
      onClock: (c) => (clock = c),
      strategies: {
        A: {
          ...randomStrategy(seededRandom('claims/outage-complete/A/bot')),
          record: (ctx) => {
            if (ctx.turn === 2 && from === undefined) from = clock?.now()
            return randomStrategy(seededRandom(`claims/outage-complete/A/${ctx.turn}`)).record(ctx)
          },
        },
      },
      notaryDown: () => from !== undefined && clock !== undefined && clock.now() < from + 60_000,
    })
    expect(g.a.verdict.status, JSON.stringify(g.a.verdict)).toBe('complete')
    expect(g.b.verdict.status, JSON.stringify(g.b.verdict)).toBe('complete')
  })

  it('a notary gone for good: the player who asked for it ends the game by an outage stop an outage period past the deadline, decided as unwitnessed on both sides (PROTOCOL-4.md §4.5)', async () => {
    let clock: VirtualClock | undefined
    let gone: number | undefined
    const stores = { A: memoryStore(), B: memoryStore() }
    const inner = randomStrategy(seededRandom('claims/gone/B/bot'))
    const g = await play('claims/gone', {
      stores,
      onClock: (c) => (clock = c),
      outage: { A: true },
      strategies: {
        B: {
          ...inner,
          record: (ctx) => (ctx.turn >= 3 ? new Promise(() => undefined) : inner.record(ctx)),
        },
      },
      // The notary disappears once B owes its turn-3 step with a deadline (its start receipted).
      notaryDown: () => {
        if (gone === undefined && clock !== undefined) {
          const due = witnessedDue(stores.A.envelopes())
          if (due?.side === 'B' && due.deadline !== undefined && due.parts.includes('commit')) gone = clock.now()
        }
        return gone !== undefined
      },
    })
    const stop = g.events.A.find((e) => e.kind === 'stopped' && e.by === 'A')
    expect(stop?.kind === 'stopped' && stop.reason).toBe('outage')
    // Decided as unwitnessed by version 3's rules on the envelopes held: B, who stopped answering,
    // never revealed (rule 7, provisional), and the verdict says why the notary's clock did not decide.
    expect(JSON.stringify(g.a.verdict)).toMatch(/decided as unwitnessed/)
    expect(g.a.verdict.status).not.toBe('offence')
    // B's file lacks the last receipt the notary made before it went (B never fetched it), so on its
    // own it cannot tell when B's step fell due: provisional, never a result against A; with A's
    // file beside it, the same result as A's.
    expect(g.b.verdict.status === 'incomplete' && g.b.verdict.reason === 'no-claim').toBe(true)
    expect(JSON.stringify(verifyEnvelopes([...stores.A.envelopes(), ...stores.B.envelopes()]))).toMatch(
      /decided as unwitnessed/,
    )
  })

  it('quitting a witnessed game pauses it, signing nothing; a player who never comes back loses on time', async () => {
    const quit = new AbortController()
    const strategy = randomStrategy(seededRandom('claims/quit/A/bot'))
    const g = await play('claims/quit', {
      strategies: {
        A: {
          ...strategy,
          record: (ctx) => {
            if (ctx.turn === 2) {
              quit.abort()
              return new Promise(() => undefined)
            }
            return strategy.record(ctx)
          },
        },
      },
      signals: { A: quit.signal },
    })
    expect(g.a.paused).toBe(true)
    expect(g.events.A.some((e) => e.kind === 'stopped' && e.by === 'A')).toBe(false)
    // B waited out A's deadline in notary time, claimed through the notary, and A lost on time.
    expect(g.b.verdict.status, JSON.stringify(g.b.verdict)).toBe('abandoned')
    if (g.b.verdict.status === 'abandoned') expect([g.b.verdict.how, g.b.verdict.by]).toEqual(['time', 'A'])
  })

  it('a false deposit: B withholds its turn-1 results from the stream and deposits them so that A cannot open them; A complains, accuses, and both verdicts convict B of false-deposit (PROTOCOL-4.md §5.3)', async () => {
    const seed = 'claims/false-deposit'
    const keysB = generateKeyPair(seededSecrets(`${seed}/B`))
    let withheld: number | undefined
    const g = await play(seed, {
      deviations: {
        B: {
          outgoing: (parts, seal) => {
            const s = seal(parts)
            if (withheld !== undefined || !parts.some((p) => p.t === 'results')) return [s]
            withheld = s.envelope.seq
            return 'withhold'
          },
        },
      },
      rewrite: {
        // B submits that envelope with its recipient's wrap flipped, the header signed over the garbled deposit.
        B: (q) => {
          if (q.kind !== 'submit') return q
          const h = decodeHeader(q.header)
          if (!h.ok || h.value.seq !== withheld) return q
          const deposit = q.deposit.slice()
          for (let i = 40; i < 80; i++) deposit[i] = (deposit[i] ?? 0) ^ 0x5a
          const header = signHeader(NOTARY_DOMAIN, keysB, {
            ...h.value,
            depositHash: depositHash(NOTARY_DOMAIN, deposit),
            depositBytes: deposit.length,
          })
          return { kind: 'submit', header: encodeHeader(header), deposit }
        },
      },
    })
    expect(withheld).toBeDefined()
    // A complained once, of B's receipt at the withheld place, and stopped with an accusation.
    const complaints = receiptsOf(g.stores.A).filter((r) => r.kind === 'complaint')
    expect(complaints).toHaveLength(1)
    const target = receiptsOf(g.stores.A).find((r) => r.index === complaints[0]?.complaint.index)
    expect(target?.kind === 'envelope' && [target.header.sender, target.header.seq]).toEqual([1, withheld])
    expect(g.events.A.some((e) => e.kind === 'stopped' && e.by === 'A' && e.reason === 'accusation')).toBe(true)
    for (const r of [g.a, g.b]) {
      expect(r.verdict.status, JSON.stringify(r.verdict)).toBe('offence')
      if (r.verdict.status !== 'offence') continue
      expect(r.verdict.offence).toMatchObject({ offender: 'B', class: 'false-deposit', seq: withheld })
      expect(r.verdict.winner).toBe('A')
    }
    // B's file holds A's complaint receipt too (its last look at the log).
    expect(receiptsOf(g.stores.B).some((r) => r.kind === 'complaint')).toBe(true)
  })
})
