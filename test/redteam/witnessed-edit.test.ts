/**
 * Red team, someone editing a witnessed game's published file without any key (PROTOCOL-4.md §4.1
 * "The log in a file", SPEC §12.7a): reordering, duplicating and splicing receipt lines. Receipts are
 * read as one chain by `prev` from the genesis, ordered by index, each distinct receipt once, and
 * those of another game are set aside; so none of these edits changes a verdict, and none convicts
 * the honest side.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { sha256 } from '../../src/core/commit/hash.js'
import type { SealedEnvelope } from '../../src/games/spaceships/protocol/envelope.js'
import { type Verdict, verifyTranscript } from '../../src/games/spaceships/verify/verify.js'
import { Case, NotaryLog, type Stage, signStop, witnessedFile } from '../protocol/witnessed-builder.js'
import { vectorStage } from './witnessed-live.js'

let stage: Stage

beforeAll(async () => {
  ;({ stage } = await vectorStage())
}, 60_000)

const verdictOf = (lines: readonly (SealedEnvelope | Uint8Array)[]): Verdict => verifyTranscript(witnessedFile(lines))
const isReceipt = (l: SealedEnvelope | Uint8Array): l is Uint8Array => l instanceof Uint8Array

/** A's claim after D, receipted: B lost on time (rule 5). */
function lostOnTime(): Case {
  const c = new Case(stage)
  c.claimByA(c.D + 1, c.D + 2)
  return c
}

describe('editing receipt lines (PROTOCOL-4.md §4.1, §4.4 rule 5)', () => {
  it('reversing the receipt lines, moving them all to the end, or repeating each twice changes nothing', () => {
    const c = lostOnTime()
    const base = verdictOf(c.lines)
    expect(base).toMatchObject({ status: 'abandoned', how: 'time', by: 'B' })
    const envelopes = c.lines.filter((l) => !isReceipt(l))
    const receipts = c.lines.filter(isReceipt)
    type Line = SealedEnvelope | Uint8Array
    const edits: Line[][] = [
      [...envelopes, ...[...receipts].reverse()],
      [...[...receipts].reverse(), ...envelopes],
      [...c.lines, ...receipts],
      c.lines.flatMap((l): Line[] => (isReceipt(l) ? [l, l] : [l])),
    ]
    for (const lines of edits) expect(verdictOf(lines)).toEqual(base)
  })

  it('splicing in a claim receipt of another game (same notary, same players) is set aside: an early claim stays early', () => {
    // A's claim receipted at D (early): rule 8, A loses. A forger adds a claim receipt of A at the
    // same place with a later time, signed by the same notary for another game.
    const c = new Case(stage)
    c.claimByA(c.D, c.D + 1, c.D - 1)
    const base = verdictOf(c.lines)
    expect(base).toMatchObject({ status: 'abandoned', how: 'stopped', by: 'A' })
    const other = new NotaryLog({ ...stage.play, game: sha256(stage.play.game) })
    other.genesis(c.D - 10_000)
    // Below A's own claim receipt (the least index would place A's stop there, were it read).
    const claimIndex = c.log.last - 1
    for (let i = 1; i < claimIndex - 1; i++) other.append({ kind: 'seal' }, c.D)
    const spliced = other.claim('A', stage.a3.envelope.seq + 1, c.D - 1, other.last, c.D + 60_000)
    expect(other.last).toBe(claimIndex - 1)
    const v = verdictOf([...c.lines, spliced])
    expect(v.status).toBe(base.status)
    expect(v.status === 'abandoned' && [v.by, v.how]).toEqual(['A', 'stopped'])
  })

  it("splicing B's stop from the played game with no receipt never places it below A's claim: the claim still decides", () => {
    const c = lostOnTime()
    const bStop = signStop(stage.play, 'B', 'claim', stage.prefix, stage.a3)
    expect(verdictOf([...c.lines, bStop])).toMatchObject({ status: 'abandoned', how: 'time', by: 'B', winner: 'A' })
  })
})
