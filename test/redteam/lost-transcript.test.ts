/**
 * Red team, SPEC §2.2: a node must never sign twice at one place, even after its transcript is
 * lost. Found by the trust issue on protocol 3: kill both nodes mid-game, delete the host's
 * transcript or replace it with an older copy, resume both, and the host replayed from its journal
 * and signed a different envelope at a seq it had already signed and sent; the joiner's file then
 * convicted the honest host of equivocation. The journal now records each envelope persisted
 * before it is sent, and a session whose transcript holds fewer refuses to run (protocol 4 adds
 * fetching them back; PROTOCOL-4.md §6).
 */
import { describe, expect, it } from 'vitest'
import { generateKeyPair } from '../../src/core/commit/keys.js'
import { seededSecrets } from '../../src/core/commit/secrets.js'
import { memoryChannelPair } from '../../src/core/session/channel.js'
import { VirtualClock } from '../../src/core/session/clock.js'
import { StorageError } from '../../src/core/session/file-store.js'
import { memoryStore } from '../../src/games/spaceships/protocol/file.js'
import { seededRandom } from '../../src/games/spaceships/rules/rng.js'
import {
  type Journal,
  journaledSigning,
  journaledStrategy,
  memoryJournal,
} from '../../src/games/spaceships/session/journal.js'
import { type SessionResult, runSession } from '../../src/games/spaceships/session/session.js'
import { randomStrategy } from '../../src/games/spaceships/session/strategy.js'
import { TERMS } from '../session/helpers.js'
import { resumedGame, summary } from './helpers.js'

const terms = { ...TERMS, maxTurns: 4 }

function play(
  seed: string,
  stored: readonly [readonly Uint8Array[], readonly Uint8Array[]],
  journals: readonly [Journal, Journal],
): Promise<[SessionResult, SessionResult]> {
  return resumedGame(seed, terms, stored, journals, { signing: true })
}

describe('red team: a lost transcript never makes a node sign twice (SPEC §2.2)', () => {
  it('every envelope a node persists is journaled as signed before it is sent', async () => {
    const journals = [memoryJournal(), memoryJournal()] as const
    const [a] = await play('redteam/lost/count', [[], []], journals)
    const signedA = journals[0].entries().filter((e) => e.k === 'signed').length
    const mineA = a.transcript.filter((b) => b[1] === 0).length
    expect(signedA).toBe(mineA)
  })

  it.each([
    ['deleted', (t: readonly Uint8Array[]) => t.slice(0, 0)],
    ['replaced by a copy of its first 8 envelopes', (t: readonly Uint8Array[]) => t.slice(0, 8)],
  ])('the host transcript %s: the resumed host refuses to run and signs nothing', async (_name, cut) => {
    const seed = 'redteam/lost/host'
    const journals = [memoryJournal(), memoryJournal()] as const
    const [a] = await play(seed, [[], []], journals)
    expect(a.verdict.status).toBe('complete')
    const clock = new VirtualClock()
    const pair = memoryChannelPair(undefined, clock)
    const secrets = seededSecrets(`${seed}/A`)
    const store = memoryStore(cut(a.transcript))
    const before = store.envelopes().length
    const run = runSession({
      role: 'A',
      keys: generateKeyPair(secrets),
      terms,
      secrets,
      store,
      channel: pair.ends[0],
      clock,
      strategy: journaledStrategy(randomStrategy(seededRandom(`${seed}/A/bot`)), journals[0]),
      signing: journaledSigning(journals[0]),
    })
    await expect(run).rejects.toThrow(StorageError)
    await expect(run).rejects.toThrow(/signed and sent \(its journal says so\): resuming would sign again/)
    expect(store.envelopes().length).toBe(before)
    expect(pair.sent[0]).toEqual([])
  })

  it('the converse: a crash between persisting an envelope and journaling it never stops an honest resume', async () => {
    const seed = 'redteam/lost/window'
    const journals = [memoryJournal(), memoryJournal()] as const
    const [a, b] = await play(seed, [[], []], journals)
    // Both die mid-game; A's journal lacks its last `signed` entry (the crash fell in between).
    const half = Math.floor(a.transcript.length / 2)
    const cutA = a.transcript.slice(0, half)
    const mineA = cutA.filter((x) => x[1] === 0).length
    const journalA = memoryJournal()
    for (const e of journals[0].entries()) if (e.k !== 'signed' || e.seq < mineA - 1) journalA.append(e)
    const cutB = b.transcript.filter((x) => cutA.some((y) => y.length === x.length && y.every((v, i) => v === x[i])))
    const journalB = memoryJournal()
    const mineB = cutB.filter((x) => x[1] === 1).length
    for (const e of journals[1].entries()) if (e.k !== 'signed' || e.seq < mineB) journalB.append(e)
    const [a2, b2] = await play(seed, [cutA, cutB], [journalA, journalB])
    expect(summary(a2.verdict)).toBe(summary(a.verdict))
    expect(summary(b2.verdict)).toBe(summary(b.verdict))
  })
})
