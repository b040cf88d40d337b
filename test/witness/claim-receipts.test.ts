/**
 * The Spaceships registrar and claim receipts (PROTOCOL-4.md §4.4, §4.6, §5.3): a claim receipt
 * (kind 4) is neither a stop (the stop is the claimant's envelope, receipted after it) nor the
 * answer to one, nor an acknowledgement; sealing and complaints read envelope receipts only.
 */
import { describe, expect, it } from 'vitest'
import { FLAG } from '../../src/core/notary/header.js'
import { type Receipt, decodeReceipt } from '../../src/core/notary/receipt.js'
import { WITNESS_MARGIN_MS, sealTime } from '../../src/games/spaceships/witness/registrar.js'
import { LogBuilder, claimRequest, submission } from '../core/notary/helpers.js'
import { TERMS } from '../session/helpers.js'

const decoded = (log: LogBuilder): Receipt[] =>
  log.receipts.map((b) => {
    const d = decodeReceipt(b)
    if (!d.ok) throw new Error(d.error.message)
    return d.value
  })
const envelope = (sender: 0 | 1, seq: number, flags = 0, deadline = 0, seen = 0) => ({
  kind: 'envelope' as const,
  header: submission(sender, seq, { flags, deadline, seen }).header,
})
const claim = (sender: 0 | 1, seq: number, deadline: number, seen: number) => ({
  kind: 'claim' as const,
  claim: claimRequest(sender, seq, { deadline, seen }).claim,
})
/** PROTOCOL-4.md §4.6: the answer step's deadline from a stop's receipt, with the whole reserve (none here). */
const ANSWER = Math.max(TERMS.replyMs, TERMS.turnMs) + WITNESS_MARGIN_MS

describe('claim receipts at the Spaceships registrar (PROTOCOL-4.md §4.4, §4.6)', () => {
  it('sealTime: a claim receipt is no stop; the stop is its envelope receipt, and a claim receipt after it is no answer', () => {
    const log = new LogBuilder()
    log.genesis(1000)
    log.add(envelope(0, 1), 2000)
    log.add(claim(1, 1, 5000, 1), 5001)
    // Only the claim receipt: the log does not show the game over.
    expect(sealTime(decoded(log), TERMS)).toBeUndefined()
    log.add(envelope(1, 1, FLAG.stop | FLAG.claim, 5000, 2), 5100)
    expect(sealTime(decoded(log), TERMS)).toBe(5100 + ANSWER)
    // A's claim receipt after B's stop does not answer it.
    log.add(claim(0, 2, 6000, 3), 6001)
    expect(sealTime(decoded(log), TERMS)).toBe(5100 + ANSWER)
    log.add(envelope(0, 2, FLAG.stop), 7000)
    expect(sealTime(decoded(log), TERMS)).toBe(7000)
  })
})
