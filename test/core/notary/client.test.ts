/**
 * NOTARY.md §7.6: the client. Over an in-process transport on the virtual clock: resubmission
 * with backoff (1 s, 2 s, 4 s, ... at most 60 s) until the notary answers, said through onRetry;
 * an abort ends it at once; a receipt not signed by the terms' notary key, or of something else,
 * is refused; a fetch follows `more`.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { toHex } from '../../../src/core/commit/bytes.js'
import { encodeHeader } from '../../../src/core/notary/header.js'
import { decodeRequest, encodeResponse } from '../../../src/core/notary/messages.js'
import { type Transport, NotaryAnswerError, NotaryClient } from '../../../src/core/notary-net/client.js'
import { signReceipt } from '../../../src/core/notary/receipt.js'
import { DOMAIN, NOTARY, claimRequest, keys, submission } from './helpers.js'
import { FROM_A, WITNESSED, type Fixture, fixture, receiptOf, registered } from './service-helpers.js'

let f: Fixture
afterEach(() => {
  f.close()
})
const G = WITNESSED.game

/** Answers through the fixture's notary; fails the first `failures` requests. */
function transport(failures: number, log: number[]): Transport {
  let n = 0
  return (request, signal) => {
    signal.throwIfAborted()
    log.push(f.clock.now())
    if (n++ < failures) return Promise.reject(new Error('unreachable'))
    const q = decodeRequest(request)
    if (!q.ok) throw new Error(q.error.message)
    return Promise.resolve(encodeResponse(f.notary.handle(q.value, FROM_A)))
  }
}

const client = (t: Transport, retries: string[] = [], notaryKey = NOTARY.publicKey) =>
  new NotaryClient({
    transport: t,
    clock: f.clock,
    domain: DOMAIN,
    notaryKey,
    onRetry: (e) => retries.push(`${e.attempt}:${e.waitMs}`),
  })

describe('the notary client (NOTARY.md §7.6)', () => {
  it('resubmits with backoff on the injected clock until the notary answers, and says so', async () => {
    f = fixture()
    registered(f)
    const times: number[] = []
    const retries: string[] = []
    const s = submission(0, 1, { game: G })
    const t0 = f.clock.now()
    const [a] = await f.clock.settle([
      client(transport(8, times), retries).submit(encodeHeader(s.header), s.deposit, new AbortController().signal),
    ])
    expect(receiptOf(a)).toMatchObject({ kind: 'envelope', index: 1 })
    expect(times.map((t) => t - t0)).toEqual([0, 1000, 3000, 7000, 15_000, 31_000, 63_000, 123_000, 183_000])
    expect(retries).toEqual(['1:1000', '2:2000', '3:4000', '4:8000', '5:16000', '6:32000', '7:60000', '8:60000'])
  })

  it('an abort ends the resubmissions at once, with the abort', async () => {
    f = fixture()
    registered(f)
    const stop = new AbortController()
    const s = submission(0, 1, { game: G })
    const pending = client(transport(1000, [])).submit(encodeHeader(s.header), s.deposit, stop.signal)
    f.clock.advance(5000)
    stop.abort(new Error('the player quit'))
    await expect(pending).rejects.toThrow('the player quit')
    expect(f.notary.store.receipts(G, 1)).toEqual([])
  })

  it('refuses a receipt under another key, or of something else than what was asked', async () => {
    f = fixture()
    registered(f)
    const s = submission(0, 1, { game: G })
    const wrongKey = client(transport(0, []), [], keys('someone').publicKey)
    await expect(
      wrongKey.ask(
        { kind: 'submit', header: encodeHeader(s.header), deposit: s.deposit },
        new AbortController().signal,
      ),
    ).rejects.toThrow(NotaryAnswerError)
    const genesis = f.notary.store.receipts(G, 0)[0]!
    const liar: Transport = () => Promise.resolve(encodeResponse({ kind: 'receipt', receipt: genesis }))
    await expect(client(liar).ask({ kind: 'seal', game: G }, new AbortController().signal)).rejects.toThrow(
      'something other',
    )
    const garbage: Transport = () => Promise.resolve(Uint8Array.of(9))
    await expect(client(garbage).ask({ kind: 'seal', game: G }, new AbortController().signal)).rejects.toThrow(
      'does not decode',
    )
  })

  it('a fetch follows more to the end of the log; a refusal comes back as it is', async () => {
    f = fixture()
    registered(f)
    for (const seq of [1, 2, 3])
      receiptOf(
        f.notary.submit(
          encodeHeader(submission(0, seq, { game: G }).header),
          submission(0, seq, { game: G }).deposit,
          FROM_A,
        ),
      )
    // A notary whose budget holds one item per answer: the client asks again from the next index.
    const asked: number[] = []
    const oneByOne: Transport = (request) => {
      const q = decodeRequest(request)
      if (!q.ok) throw new Error(q.error.message)
      const a = f.notary.handle(q.value, FROM_A)
      if (q.value.kind === 'fetch') asked.push(q.value.from)
      const cut = a.kind === 'log' ? { ...a, items: a.items.slice(0, 1), more: a.more || a.items.length > 1 } : a
      return Promise.resolve(encodeResponse(cut))
    }
    const c = client(oneByOne)
    const items = await c.fetch(G, 1, new AbortController().signal)
    expect(asked).toEqual([1, 2, 3])
    expect(Array.isArray(items) && items.map((i) => i.deposit.length > 0)).toEqual([true, true, true])
    expect(await c.fetch(new Uint8Array(32), 0, new AbortController().signal)).toMatchObject({
      kind: 'refused',
      code: 'unregistered',
    })
  })

  it('a notary that answers "more" for ever is followed only up to maxItems (NOTARY.md §8: a game\'s log is bounded)', async () => {
    f = fixture()
    let asked = 0
    const forever: Transport = () => {
      asked++
      return Promise.resolve(
        encodeResponse({ kind: 'log', more: true, items: [{ receipt: new Uint8Array(8), deposit: new Uint8Array() }] }),
      )
    }
    const items = await client(forever).fetch(G, 0, new AbortController().signal, 50)
    expect(Array.isArray(items) && items.length).toBe(50)
    expect(asked).toBe(50)
  })
})

describe('the client of a claim request (PROTOCOL-4.md §4.4, NOTARY.md §7.6)', () => {
  const never = new AbortController().signal

  it("passes on 'not before' as final, then takes the claim receipt; a repeat with another deadline and seen gets it too", async () => {
    f = fixture()
    registered(f)
    receiptOf(
      f.notary.submit(
        encodeHeader(submission(0, 1, { game: G }).header),
        submission(0, 1, { game: G }).deposit,
        FROM_A,
      ),
    )
    const D = f.clock.now() + 60_000
    const asked: number[] = []
    const c = client(transport(0, asked))
    const request = claimRequest(1, 1, { game: G, deadline: D, seen: 1 })
    // "not before" is an answer (NOTARY.md §7.6: only a transport failure or limit-rate is retried).
    expect(await c.claim(request.bytes, never)).toEqual({ kind: 'not-before', time: D + 1 })
    expect(asked).toHaveLength(1)
    f.clock.advanceTo(D + 1)
    const r = receiptOf(await c.claim(request.bytes, never))
    expect(r).toMatchObject({ kind: 'claim', index: 2, time: D + 1, claim: { sender: 1, seq: 1, deadline: D } })
    // The notary holds one claim receipt at B's seq 1 and returns it to any later request there.
    const again = claimRequest(1, 1, { game: G, deadline: D + 5000, seen: 2 })
    expect(toHex(receiptOf(await c.claim(again.bytes, never)).bytes)).toBe(toHex(r.bytes))
  })

  it('refuses, as not an answer, a claim receipt of another place or game, another kind, or not signed by the notary', async () => {
    f = fixture()
    registered(f)
    receiptOf(
      f.notary.submit(
        encodeHeader(submission(0, 1, { game: G }).header),
        submission(0, 1, { game: G }).deposit,
        FROM_A,
      ),
    )
    const D = f.clock.now() + 1000
    f.clock.advanceTo(D + 1)
    const held = receiptOf(f.notary.claim(claimRequest(1, 1, { game: G, deadline: D, seen: 1 }).bytes, FROM_A))
    const answering = (receipt: Uint8Array) =>
      client(() => Promise.resolve(encodeResponse({ kind: 'receipt', receipt })))
    const ask = (receipt: Uint8Array, claim: Uint8Array) => answering(receipt).ask({ kind: 'claim', claim }, never)
    await expect(ask(held.bytes, claimRequest(1, 1, { game: G, deadline: 7, seen: 0 }).bytes)).resolves.toMatchObject({
      kind: 'receipt',
    })
    for (const other of [
      claimRequest(1, 2, { game: G, deadline: D, seen: 1 }),
      claimRequest(0, 1, { game: G, deadline: D, seen: 1 }),
      claimRequest(1, 1, { game: new Uint8Array(32).fill(9), deadline: D, seen: 1 }),
    ])
      await expect(ask(held.bytes, other.bytes)).rejects.toThrow('something other')
    // The request's own bytes do not decode: no receipt answers it.
    await expect(ask(held.bytes, new Uint8Array(112))).rejects.toThrow('something other')
    const envelope = f.notary.store.receipts(G, 1)[0]!
    await expect(ask(envelope, claimRequest(0, 1, { game: G, deadline: D, seen: 1 }).bytes)).rejects.toThrow(
      'something other',
    )
    if (held.kind !== 'claim') throw new Error('a claim receipt was expected')
    // The same receipt signed by another key than the terms' notary's.
    const forged = signReceipt(DOMAIN, keys('someone'), held)
    await expect(ask(forged, claimRequest(1, 1, { game: G, deadline: D, seen: 1 }).bytes)).rejects.toThrow(
      'not signed by the notary',
    )
  })
})
