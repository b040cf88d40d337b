/**
 * A Spaceships game witnessed by a notary (PROTOCOL-4.md §4.1, §5; NOTARY.md §7.5): the game's
 * Registrar admits exactly witnessed version 4 games, every envelope of both players is receipted
 * in one chain, each deposit opens for its two players only, the log seals once both ended, and
 * the notary's database holds nothing readable of the game.
 */
import { readFileSync } from 'node:fs'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { generateKeyPair } from '../../src/core/commit/keys.js'
import { seededSecrets } from '../../src/core/commit/secrets.js'
import { freshDepositRandomness, openDeposit } from '../../src/core/notary/deposit.js'
import { checkReceiptLog } from '../../src/core/notary/log.js'
import { decodeReceipt } from '../../src/core/notary/receipt.js'
import { Notary } from '../../src/core/notary-service/notary.js'
import { NotaryStore } from '../../src/core/notary-service/store.js'
import { VirtualClock } from '../../src/core/session/clock.js'
import { NOTARY_DOMAIN } from '../../src/games/spaceships/protocol/domain.js'
import { decodeEnvelope } from '../../src/games/spaceships/protocol/envelope.js'
import { spaceshipsRegistrar } from '../../src/games/spaceships/witness/registrar.js'
import { paddingFloorOf, submissionOf } from '../../src/games/spaceships/witness/submission.js'
import { TERMS, playInMemory } from '../session/helpers.js'

const NOTARY = generateKeyPair(seededSecrets('witness/notary'))
const T0 = 1_800_000_000_000
const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true })
})

/** The players' keys as test/session/helpers.ts draws them. */
const keysOf = (seed: string, role: 'A' | 'B') => generateKeyPair(seededSecrets(`${seed}/${role}`))

function notaryAt(): { notary: Notary; clock: VirtualClock; path: string } {
  const dir = mkdtempSync(join(tmpdir(), 'witness-'))
  dirs.push(dir)
  const path = join(dir, 'notary.sqlite')
  const clock = new VirtualClock(T0)
  return {
    notary: new Notary({ keys: NOTARY, registrar: spaceshipsRegistrar, clock, store: new NotaryStore(path) }),
    clock,
    path,
  }
}

describe('a witnessed Spaceships game at the notary (PROTOCOL-4.md §4.1, §5)', () => {
  it('registers, receipts every envelope of both sides in one chain, opens each deposit for its players only, and seals', async () => {
    const seed = 'witness/whole'
    const g = await playInMemory(seed, { version: 4, terms: { ...TERMS, maxTurns: 6, notary: NOTARY.publicKey } })
    expect(g.a.verdict.status).toBe('complete')
    const keys = { A: keysOf(seed, 'A'), B: keysOf(seed, 'B') }
    const { notary, clock, path } = notaryAt()
    const [helloA, helloB, ...rest] = g.a.transcript
    if (helloA === undefined || helloB === undefined) throw new Error('no hellos')
    const genesis = notary.register(helloA, helloB, { peer: 'A', key: keys.A.publicKey })
    expect(genesis.kind).toBe('receipt')
    const receipts: Uint8Array[] = genesis.kind === 'receipt' ? [genesis.receipt] : []
    const randomness = seededSecrets(`${seed}/deposits`)
    const deposits: Uint8Array[] = []
    for (const bytes of rest) {
      const d = decodeEnvelope(bytes)
      if (!d.ok) throw new Error('undecodable')
      const sender = d.value.envelope.sender
      const sub = submissionOf({
        keys: keys[sender],
        sealed: d.value,
        recipientKey: keys[sender === 'A' ? 'B' : 'A'].publicKey,
        randomness: freshDepositRandomness(randomness),
      })
      if (!sub.ok) throw new Error(sub.error.message)
      clock.advance(1000)
      const r = notary.submit(sub.value.header, sub.value.deposit, { peer: sender, key: keys[sender].publicKey })
      expect(r.kind, JSON.stringify(r)).toBe('receipt')
      if (r.kind === 'receipt') receipts.push(r.receipt)
      // A resubmission gets the same receipt back (PROTOCOL-4.md §5.1).
      const again = notary.submit(sub.value.header, sub.value.deposit, { peer: sender, key: keys[sender].publicKey })
      expect(again.kind === 'receipt' && Buffer.from(again.receipt).equals(Buffer.from(receipts.at(-1) ?? []))).toBe(
        true,
      )
      deposits.push(sub.value.deposit)
      // The recipient opens it to the very envelope; the sender too (its own wrap); a stranger not.
      const place = {
        game: d.value.envelope.game ?? new Uint8Array(),
        sender: sender === 'A' ? 0 : 1,
        seq: d.value.envelope.seq,
        envelopeHash: d.value.hash,
      } as const
      const o = { domain: NOTARY_DOMAIN, place, floor: paddingFloorOf(d.value) }
      const recipient = keys[sender === 'A' ? 'B' : 'A']
      const opened = openDeposit(sub.value.deposit, 0, recipient.secretKey, o)
      expect(opened.ok && Buffer.from(opened.value).equals(Buffer.from(bytes))).toBe(true)
      expect(openDeposit(sub.value.deposit, 1, keys[sender].secretKey, o).ok).toBe(true)
      expect(openDeposit(sub.value.deposit, 0, NOTARY.secretKey, o).ok).toBe(false)
    }
    expect(receipts).toHaveLength(g.a.transcript.length - 1)
    const log = checkReceiptLog(NOTARY_DOMAIN, receipts, NOTARY.publicKey)
    expect(log.faults).toEqual([])
    expect(log.gaps).toEqual([])
    expect(log.chain).toHaveLength(receipts.length)
    // Every receipt's time never decreases, and index = position.
    const decoded = receipts.map((r) => decodeReceipt(r)).flatMap((d) => (d.ok ? [d.value] : []))
    expect(decoded.map((r) => r.index)).toEqual([...decoded.keys()])
    // The game is over (both ended): the log seals.
    const game = decoded[0]?.game ?? new Uint8Array()
    const seal = notary.seal(game, { peer: 'B', key: keys.B.publicKey })
    expect(seal.kind, JSON.stringify(seal)).toBe('receipt')
    // PROTOCOL-4.md §5.1: the notary learns no move, setup, result or chat: none of the game's
    // record texts nor the reveal's seed appears in its database.
    notary.store.close()
    const db = readFileSync(path)
    const texts = g.a.transcript.flatMap((b) => {
      const d = decodeEnvelope(b)
      return d.ok
        ? d.value.envelope.parts.flatMap((p) =>
            p.t === 'reveal' ? [...p.records.filter((r) => r.length >= 6), Buffer.from(p.seed).toString('hex')] : [],
          )
        : []
    })
    expect(texts.length).toBeGreaterThan(4)
    for (const t of texts) {
      expect(db.includes(Buffer.from(t))).toBe(false)
    }
    for (const bytes of rest) expect(db.includes(Buffer.from(bytes.subarray(4, 40)))).toBe(false)
  }, 60_000)

  it('refuses what is not a witnessed version 4 game naming it: an unwitnessed one, a version 3 one, a hello that does not answer A’s', async () => {
    const unwitnessed = await playInMemory('witness/none', { version: 4, terms: { ...TERMS, maxTurns: 1 } })
    const v3 = await playInMemory('witness/v3', { version: 3, terms: { ...TERMS, maxTurns: 1 } })
    const other = await playInMemory('witness/other', {
      version: 4,
      terms: { ...TERMS, maxTurns: 1, notary: NOTARY.publicKey },
    })
    const reason = (a: Uint8Array | undefined, b: Uint8Array | undefined): string => {
      const r = spaceshipsRegistrar.register(a ?? new Uint8Array(), b ?? new Uint8Array())
      return r.ok ? 'registered' : r.reason
    }
    expect(reason(unwitnessed.a.transcript[0], unwitnessed.a.transcript[1])).toContain('name no notary')
    expect(reason(v3.a.transcript[0], v3.a.transcript[1])).toContain('version 4')
    expect(reason(other.a.transcript[0], unwitnessed.a.transcript[1])).toContain('does not acknowledge')
    expect(reason(other.a.transcript[0], other.a.transcript[1])).toBe('registered')
    // Through the notary: a game whose terms name another notary is refused by the notary itself.
    const { notary } = notaryAt()
    const elsewhere = generateKeyPair(seededSecrets('witness/elsewhere'))
    const theirs = await playInMemory('witness/theirs', {
      version: 4,
      terms: { ...TERMS, maxTurns: 1, notary: elsewhere.publicKey },
    })
    const r = notary.register(theirs.a.transcript[0] ?? new Uint8Array(), theirs.a.transcript[1] ?? new Uint8Array(), {
      peer: 'A',
      key: keysOf('witness/theirs', 'A').publicKey,
    })
    expect(r.kind).toBe('refused')
  })
})
