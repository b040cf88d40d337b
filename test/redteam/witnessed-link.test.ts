/**
 * Red team, a node's link to the notary in a witnessed game (net/witness.ts; PROTOCOL-4.md §4.4
 * "Claims in two steps", §5.3; NOTARY.md §7.6): a faulty notary delivering receipts it did not sign,
 * a node that crashed right after its claim receipt and resumes from its file, and a peer whose
 * deposit does not open. The link runs over a transport to a real notary (test/redteam/witnessed-live.ts)
 * that a test may intercept. `it.fails` marks a defect found (net/ is not edited by the red team).
 */
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { concatBytes } from '../../src/core/commit/bytes.js'
import { tag } from '../../src/core/commit/hash.js'
import { generateKeyPair, sign } from '../../src/core/commit/keys.js'
import { seededSecrets } from '../../src/core/commit/secrets.js'
import { signClaim } from '../../src/core/notary/claim.js'
import { decodeHeader, FLAG } from '../../src/core/notary/header.js'
import { type NotaryRequest, decodeRequest, encodeResponse } from '../../src/core/notary/messages.js'
import { decodeReceipt, receiptHash, signReceipt } from '../../src/core/notary/receipt.js'
import type { Transport } from '../../src/core/notary-net/client.js'
import { NOTARY_DOMAIN } from '../../src/games/spaceships/protocol/domain.js'
import { memoryStore } from '../../src/games/spaceships/protocol/file.js'
import { type WitnessLink, witnessLink } from '../../src/games/spaceships/net/witness.js'
import { verifyEnvelopes } from '../../src/games/spaceships/verify/verify.js'
import {
  W_NOTARY,
  W_TERMS,
  type Stage,
  type WitnessedPlay,
  deadlineOf,
  signStop,
} from '../protocol/witnessed-builder.js'
import { Live, vectorStage } from './witnessed-live.js'

let play: WitnessedPlay
let stage: Stage
const lives: Live[] = []
const controllers: AbortController[] = []

beforeAll(async () => {
  ;({ play, stage } = await vectorStage())
}, 60_000)

afterEach(() => {
  for (const c of controllers.splice(0)) c.abort()
  for (const l of lives.splice(0)) l.close()
})

const ticks = () => new Promise((r) => setTimeout(r, 20))

/** A's link over its file `lines`, its requests to the notary through `route` (default: the live notary). */
function linkOfA(
  l: Live,
  lines: readonly Uint8Array[],
  route?: (q: NotaryRequest, real: () => Uint8Array) => Promise<Uint8Array>,
): { link: WitnessLink; asked: NotaryRequest[]; signal: AbortSignal; store: ReturnType<typeof memoryStore> } {
  const asked: NotaryRequest[] = []
  const transport: Transport = (request) => {
    const q = decodeRequest(request)
    if (!q.ok) return Promise.reject(new Error('undecodable'))
    asked.push(q.value)
    const real = () => encodeResponse(l.notary.handle(q.value, l.as('A')))
    return route === undefined ? Promise.resolve(real()) : route(q.value, real)
  }
  const life = new AbortController()
  controllers.push(life)
  const store = memoryStore([...lines])
  const link = witnessLink({
    transport,
    notary: { key: W_NOTARY.publicKey, addrs: [] },
    keys: play.keys.A,
    role: 'A',
    store,
    signal: life.signal,
    clock: l.clock,
    secrets: seededSecrets('redteam/link/deposits'),
  })
  // The link learns the hellos and the game from what the session shows it (received: nothing to submit).
  for (const s of stage.prefix) link.see(s, 'received')
  return { link, asked, signal: life.signal, store }
}

function live(): Live {
  const l = new Live(play)
  lives.push(l)
  return l
}

describe('a faulty notary delivering a claim receipt it did not sign (NOTARY.md §7.6, PROTOCOL-4.md §4.4 step 2)', () => {
  it('a claim receipt in a fetch answer not signed by the notary is not believed: the node never signs a claim stop the notary did not witness', async () => {
    const l = live()
    const t = l.prefix(stage)
    const D = deadlineOf(t, W_TERMS.replyMs)
    const q = stage.a3.envelope.seq + 1
    // A receipt "of" A's claim at q, signed by some key other than the terms' notary (garbage to A's node).
    const stranger = generateKeyPair(seededSecrets('redteam/stranger'))
    const last = l.lines.filter((b) => b[0] === 0x84).at(-1) ?? new Uint8Array()
    const lastIndex = Live.indexOf(last)
    const forged = signReceipt(NOTARY_DOMAIN, stranger, {
      game: play.game,
      index: lastIndex + 1,
      prev: receiptHash(NOTARY_DOMAIN, last),
      time: D + 1,
      kind: 'claim',
      claim: signClaim(NOTARY_DOMAIN, play.keys.A, {
        game: play.game,
        sender: 0,
        seq: q,
        deadline: D,
        seen: lastIndex,
      }),
    })
    const { link, signal } = linkOfA(l, l.lines, (req, real) => {
      if (req.kind !== 'fetch') return Promise.resolve(real())
      const from = req.from
      return Promise.resolve(
        encodeResponse({
          kind: 'log',
          more: false,
          items: from <= lastIndex + 1 ? [{ receipt: forged, deposit: new Uint8Array() }] : [],
        }),
      )
    })
    l.clock.advanceTo(t + 100) // before D: the true notary would answer "not before D + 1"
    const first = await link.session.claim(q, D, signal)
    expect(first.kind).not.toBe('granted')
    const second = await link.session.claim(q, D, signal)
    // Granted means: sign the claim stop now. The true notary then refuses its header
    // (claim-unrequested), and the stop, delivered to B and answered, is placed by B's answer
    // with no claim receipt: rule 8, the honest claimant abandoned.
    expect(second.kind).not.toBe('granted')
  })
})

describe('a notary that signs bytes no reader can take as receipts (NOTARY.md §6 item 3, receipt-invalid)', () => {
  it("the link keeps one such line, of least index, the file's verdict names the notary's fault, and more such lines never grow the file", async () => {
    const l = live()
    l.prefix(stage)
    const last = l.lines.filter((b) => b[0] === 0x84).at(-1) ?? new Uint8Array()
    const k = Live.indexOf(last) + 1
    // A receipt at `index` whose kind byte no reader knows, signed by the terms' notary all the same.
    const unreadable = (index: number): Uint8Array => {
      const r = signReceipt(NOTARY_DOMAIN, W_NOTARY, {
        game: play.game,
        index,
        prev: receiptHash(NOTARY_DOMAIN, last),
        time: l.clock.now(),
        kind: 'claim',
        claim: signClaim(NOTARY_DOMAIN, play.keys.A, { game: play.game, sender: 0, seq: 9, deadline: 0, seen: 0 }),
      })
      const unsigned = r.slice(0, r.length - 64)
      unsigned[1] = 0xee
      return concatBytes(unsigned, sign(W_NOTARY, concatBytes(tag(NOTARY_DOMAIN.receipt), unsigned)))
    }
    expect(decodeReceipt(unreadable(k)).ok).toBe(false)
    let answer = [unreadable(k + 1), unreadable(k)]
    const { link, signal, store } = linkOfA(l, l.lines, (req, real) => {
      if (req.kind !== 'fetch' || req.from < k) return Promise.resolve(real())
      return Promise.resolve(
        encodeResponse({
          kind: 'log',
          more: false,
          items: answer.map((receipt) => ({ receipt, deposit: new Uint8Array() })),
        }),
      )
    })
    const kept = (): Uint8Array[] => store.envelopes().filter((b) => b[0] === 0x84 && !decodeReceipt(b).ok)
    await link.session.refresh(signal)
    expect(kept()).toEqual([unreadable(k)])
    answer = [unreadable(k + 2), unreadable(k), unreadable(k + 1)]
    await link.session.refresh(signal)
    expect(kept()).toHaveLength(1)
    const v = verifyEnvelopes(store.envelopes())
    expect(v.status !== 'unreadable' && v.witnessed?.unwitnessed).toMatch(
      new RegExp(
        `^a notary fault at receipt ${k} \\(receipt-invalid: a receipt the notary signed at index ${k} that no reader can take: it does not decode`,
      ),
    )
  })
})

describe('a notary that sends more and more lines (NOTARY.md §7.6): the file grows by at most the log', () => {
  it('lines at ever lower indices from 2^32 - 1, "more" for ever, and forks of a held receipt: a fetch ends, and the file keeps one fork and nothing beyond the chain', async () => {
    const l = live()
    l.prefix(stage)
    const receipts = l.lines.filter((b) => b[0] === 0x84)
    const last = receipts.at(-1) ?? new Uint8Array()
    const k = Live.indexOf(last) + 1
    // Signed by the notary, each a receipt no reader can take (its kind byte unknown), or a fork
    // (another time) of held receipt 3.
    const resigned = (index: number, time: number, unknownKind: boolean): Uint8Array => {
      const r = signReceipt(NOTARY_DOMAIN, W_NOTARY, {
        game: play.game,
        index,
        prev: receiptHash(NOTARY_DOMAIN, receipts[index - 1] ?? last),
        time,
        kind: 'claim',
        claim: signClaim(NOTARY_DOMAIN, play.keys.A, { game: play.game, sender: 0, seq: 9, deadline: 0, seen: 0 }),
      })
      if (!unknownKind) return r
      const unsigned = r.slice(0, r.length - 64)
      unsigned[1] = 0xee
      return concatBytes(unsigned, sign(W_NOTARY, concatBytes(tag(NOTARY_DOMAIN.receipt), unsigned)))
    }
    let n = 2 ** 32 - 1
    let served = 0
    const { link, signal, store } = linkOfA(l, l.lines, (req, real) => {
      if (req.kind !== 'fetch' || req.from < k) return Promise.resolve(real())
      served++
      const items = [
        resigned(n, l.clock.now(), true),
        resigned(n - 1, l.clock.now(), false),
        resigned(3, served, false),
      ]
      n -= 2
      return Promise.resolve(
        encodeResponse({
          kind: 'log',
          more: true,
          items: items.map((receipt) => ({ receipt, deposit: new Uint8Array() })),
        }),
      )
    })
    const before = store.envelopes().length
    for (let i = 0; i < 20; i++) await link.session.refresh(signal)
    // Each refresh asked once (an answer that brings no next receipt is not followed), and of 60
    // lines the file kept one: the first fork of receipt 3, which proves two-at-index.
    expect(served).toBe(20)
    const added = store.envelopes().slice(before)
    expect(added).toHaveLength(1)
    expect(Live.indexOf(added[0] ?? new Uint8Array())).toBe(3)
    const v = verifyEnvelopes(store.envelopes())
    expect(v.status !== 'unreadable' && v.witnessed?.unwitnessed).toMatch(/^a notary fault at receipt 3 \(two-at-index/)
  })
})

describe('a node that crashed right after its claim receipt (PROTOCOL-4.md §4.4 step 2, §6)', () => {
  it('resumed from its file, it takes its claim receipt from the file without asking, and its stop names it (claim flag, deadline, seen)', async () => {
    const l = live()
    const t = l.prefix(stage)
    const D = deadlineOf(t, W_TERMS.replyMs)
    const q = stage.a3.envelope.seq + 1
    const c = l.claim('A', q, D, l.last, D + 1)
    expect(c.kind).toBe('receipt')
    // The crash: the receipt reached A's file, the stop was never signed. The notary is now unreachable.
    const { link, asked, signal } = linkOfA(l, l.lines, () => Promise.reject(new Error('unreachable')))
    expect(await link.session.claim(q, D, signal)).toEqual({ kind: 'granted' })
    expect(asked.filter((a) => a.kind === 'claim')).toEqual([])
    // The resumed session signs its stop at q; the link submits it as the claim's second step.
    const stop = signStop(play, 'A', 'claim', stage.prefix, stage.b2)
    link.see(stop, 'sent')
    await ticks()
    const submitted = asked.find((a) => a.kind === 'submit')
    expect(submitted?.kind).toBe('submit')
    if (submitted?.kind !== 'submit') return
    const h = decodeHeader(submitted.header)
    expect(h.ok && h.value).toMatchObject({ seq: q, deadline: D, seen: Live.index(c) })
    expect(h.ok && (h.value.flags & FLAG.claim) !== 0).toBe(true)
    // And the notary, reachable again, receipts it as the claim's second step.
    expect(l.notary.handle(submitted, l.as('A')).kind).toBe('receipt')
  })
})

describe('a peer whose deposit does not open (PROTOCOL-4.md §5.3)', () => {
  it('the node complains of it at once (its complaint receipted), and the session learns the offence to accuse of: the staller behind a garbled deposit loses by false-deposit', async () => {
    const l = live()
    const t = l.prefix(stage)
    const { link, asked, signal } = linkOfA(l, l.lines)
    // B submits its owed step 4 with a deposit A cannot open, and never sends it directly; then stalls.
    const r = l.submit(stage.b4, t + 1_000, { garbleRecipientWrap: true, hold: true })
    expect(r.kind).toBe('receipt')
    await link.session.refresh(signal)
    const due = link.session.due()
    expect(due?.side).toBe('B')
    // Days pass; the node looks at the log again and again.
    for (let day = 1; day <= 3; day++) {
      l.clock.advanceTo(t + day * 86_400_000)
      await link.session.refresh(signal)
    }
    // The defence: one complaint proving B's false deposit (an offence), made once, receipted.
    expect(asked.filter((a) => a.kind === 'complain')).toHaveLength(1)
    expect(
      l.notary.store.receipts(play.game, 0).some((bytes) => {
        const r = decodeReceipt(bytes)
        return r.ok && r.value.kind === 'complaint'
      }),
    ).toBe(true)
    expect(link.session.offence()).toMatch(/^false-deposit: B's deposit of its envelope \d+/)
  })
})
