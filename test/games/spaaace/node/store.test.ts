/**
 * A Spaaace! node's files (protocol/SPAAACE-PEERS.md §2, §4.3, §6.8): the transcript reads back
 * what was appended, own envelopes and others' alike, in order; a torn last line (a crash
 * mid-write) is cut off; another game's file is refused with one line; the secrets file keeps the
 * seed and each tick's orders across a restart.
 */
import { appendFileSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { seededSecrets } from '../../../../src/core/commit/secrets.js'
import { StorageError } from '../../../../src/core/session/file-store.js'
import { defaultPeersTerms, fastestTiming, localRoster } from '../../../../src/games/spaaace/node/local.js'
import { fileSecrets } from '../../../../src/games/spaaace/node/secrets.js'
import { spaaaceFileStore } from '../../../../src/games/spaaace/node/store.js'
import { signAccept } from '../../../../src/games/spaaace/peers/genesis.js'
import { readPeersTranscript } from '../../../../src/games/spaaace/peers/transcript.js'

const dir = (): string => mkdtempSync(join(tmpdir(), 'spaaace-store-'))

describe("a Spaaace! node's files (§2, §6.8)", () => {
  const { keys, genesis } = localRoster(3, 'store', defaultPeersTerms(3), fastestTiming(1_800_000_000_000))
  const accepts = keys.map((k, i) => signAccept(k, genesis.game, i))

  it('reads back every envelope, own and others’, after a reopening; the file is a transcript verify reads', () => {
    const path = join(dir(), 'p1.transcript')
    const store = spaaaceFileStore(path, genesis, 0)
    for (const a of accepts) store.append(a.bytes)
    const again = spaaaceFileStore(path, genesis, 0)
    expect(again.envelopes().map((b) => Buffer.from(b).toString('hex'))).toEqual(
      accepts.map((a) => Buffer.from(a.bytes).toString('hex')),
    )
    const read = readPeersTranscript(readFileSync(path, 'latin1'))
    expect(read.ok && read.value.envelopes.length).toBe(3)
  })

  it('a torn last line (the process died mid-write) is cut off at reopening', () => {
    const path = join(dir(), 'p1.transcript')
    const store = spaaaceFileStore(path, genesis, 0)
    store.append(accepts[0]?.bytes ?? new Uint8Array())
    appendFileSync(path, 'AQAAAB') // no newline: a torn line
    const again = spaaaceFileStore(path, genesis, 0)
    expect(again.envelopes()).toHaveLength(1)
    expect(readFileSync(path, 'latin1').endsWith('\n')).toBe(true)
  })

  it('another game’s transcript is refused with one line naming it', () => {
    const path = join(dir(), 'p1.transcript')
    spaaaceFileStore(path, genesis, 0)
    const other = localRoster(3, 'other', defaultPeersTerms(3), fastestTiming(1_800_000_000_000)).genesis
    expect(() => spaaaceFileStore(path, other, 0)).toThrow(StorageError)
    expect(() => spaaaceFileStore(path, other, 0)).toThrow(/transcript of another game/)
  })

  it('the secrets file keeps the seed and the orders of each tick across a restart (§4.3)', () => {
    const path = join(dir(), 'p1.secrets')
    const s = fileSecrets(path, seededSecrets('one'))
    s.keepOrders(1, 'buy 2')
    s.keepOrders(2, '-')
    const again = fileSecrets(path, seededSecrets('another source, never used'))
    expect(Buffer.from(again.seed).toString('hex')).toBe(Buffer.from(s.seed).toString('hex'))
    expect([again.orders(1), again.orders(2), again.orders(3)]).toEqual(['buy 2', '-', undefined])
  })

  it('§6.8 step 8: it counts the own envelopes flushed, made afresh says so, and a seed found lost stays lost across runs', () => {
    const path = join(dir(), 'p1.secrets')
    const s = fileSecrets(path, seededSecrets('one'))
    expect([s.fresh, s.signed(), s.seedLost?.()]).toEqual([true, 0, false])
    s.keepSigned(3)
    s.keepSigned(2)
    s.keepSeedLost?.()
    const again = fileSecrets(path, seededSecrets('another source, never used'))
    expect([again.fresh, again.signed(), again.seedLost?.()]).toEqual([false, 3, true])
    // A file of an older version has no count: no loss is ever read from it.
    writeFileSync(path, `${JSON.stringify({ seed: Buffer.alloc(32).toString('base64url'), orders: {} })}\n`)
    const old = fileSecrets(path, seededSecrets('unused'))
    expect([old.signed(), old.seedLost?.()]).toEqual([0, false])
    writeFileSync(path, `${JSON.stringify({ seed: Buffer.alloc(32).toString('base64url'), orders: {}, signed: -1 })}\n`)
    expect(() => fileSecrets(path, seededSecrets('unused'))).toThrow(/is not a Spaaace! secrets file/)
  })
})
