/**
 * SPEC §12.7: the committed state a complete or adjudicated game is scored on. `playCommitted`
 * starts from the states the two replays reached on the turns both played in full (every answer,
 * report and flashcube entry checked equal to the engine's) instead of resolving those turns a
 * second time; here it is held equal to the engine's play of every committed turn from both
 * setups, on every vector and on games played in memory.
 */
import { readFileSync, readdirSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { formatTranscript } from '../../src/games/spaceships/protocol/file.js'
import { type Role, otherRole } from '../../src/games/spaceships/protocol/messages.js'
import { type SideReplay, playCommitted, replaySide } from '../../src/games/spaceships/verify/replay.js'
import { readEvidence } from '../../src/games/spaceships/verify/verify.js'
import { walk } from '../../src/games/spaceships/verify/walk.js'
import type { Ruleset } from '../../src/games/spaceships/rules/ruleset.js'
import { TERMS, playInMemory } from '../session/helpers.js'

const VECTORS = new URL('../../protocol/vectors/', import.meta.url)

/** Both sides' replays as the verdict makes them (verify.ts), when both revealed. */
function replays(
  files: readonly { name: string; content: string }[],
): { ruleset: Ruleset; a: SideReplay; b: SideReplay } | undefined {
  const read = readEvidence(files)
  if (!read.ok) return undefined
  const ev = read.value
  const [helloA, helloB] = [ev.hellos.A, ev.hellos.B]
  const first = helloA?.envelope.parts[0]
  const terms = first?.t === 'hello' ? first.terms : undefined
  if (ev.problem !== undefined || helloA === undefined || helloB === undefined || terms === undefined) return undefined
  const { state } = walk(ev, terms, helloA, helloB)
  const side = (r: Role): SideReplay | undefined => {
    const log = state.logs[r]
    if (log.reveal === undefined) return undefined
    return replaySide(
      state.ruleset,
      state.game,
      terms.match.additional[r === 'A' ? 0 : 1],
      log,
      state.logs[otherRole(r)],
      ev.turnByPlace(r, log.seqs.get('reveal') ?? 0),
      state.version,
    )
  }
  const [a, b] = [side('A'), side('B')]
  return a === undefined || b === undefined ? undefined : { ruleset: state.ruleset, a, b }
}

/** The engine's play of every committed turn from both setups, without the replays' states. */
function engineOnly(ruleset: Ruleset, a: SideReplay, b: SideReplay): ReturnType<typeof playCommitted> {
  return playCommitted(ruleset, { ...a, states: [] }, { ...b, states: [] })
}

function expectSamePlay(files: readonly { name: string; content: string }[]): number {
  const r = replays(files)
  if (r === undefined) return 0
  const played = playCommitted(r.ruleset, r.a, r.b)
  expect(played).toEqual(engineOnly(r.ruleset, r.a, r.b))
  return Math.min(r.a.states.length, r.b.states.length)
}

describe('the committed state starts from the replays (SPEC §12.5, §12.7)', () => {
  it('on every vector, alone and with its other side, it is the engine’s play of every committed turn', () => {
    const names = readdirSync(VECTORS).filter((n) => n.endsWith('.transcript'))
    const file = (n: string): { name: string; content: string } => ({
      name: n,
      content: readFileSync(new URL(n, VECTORS), 'utf8'),
    })
    let reused = 0
    for (const n of names) reused += expectSamePlay([file(n)])
    // Files of one game from both sides: an adjudication over turns committed but never answered.
    for (const [x, y] of [
      ['no-reveal-a.transcript', 'no-reveal-b.transcript'],
      ['v4-honest-a.transcript', 'v4-honest-b.transcript'],
      ['honest-a.transcript', 'honest-b.transcript'],
    ] as const)
      reused += expectSamePlay([file(x), file(y)])
    // The vectors hold replayed turns to start from, so the shortcut is exercised, not skipped.
    expect(reused).toBeGreaterThan(0)
  })

  it('on games played in memory, both versions, standard and cost fleets, to their turn limit', async () => {
    for (const [i, version] of ([3, 4, 4] as const).entries()) {
      const ruleset = i === 2 ? '2.6.1 fleet=cost:24' : TERMS.ruleset
      const g = await playInMemory(`replay-states/${i}`, { version, terms: { ...TERMS, ruleset, maxTurns: 4 + i } })
      const files = [
        { name: 'a', content: formatTranscript(g.a.transcript) },
        { name: 'b', content: formatTranscript(g.b.transcript) },
      ]
      expect(expectSamePlay(files)).toBeGreaterThan(0)
      expect(expectSamePlay(files.slice(0, 1))).toBeGreaterThan(0)
    }
  })

  it('a replay that stopped at an offence is not started from', () => {
    const r = replays([{ name: 'v', content: readFileSync(new URL('honest-a.transcript', VECTORS), 'utf8') }])
    expect(r).toBeDefined()
    if (r === undefined) return
    const offence = {
      offender: 'A' as const,
      class: 'illegal-record' as const,
      rule: 'test',
      turn: 1,
      stage: 2 as const,
      detail: 'test',
    }
    // States that are not the engine's: an offence means no state of that replay is trusted.
    const wrong = r.a.states.map((s) => ({ ...s, destroyed: new Uint8Array(s.destroyed.length).fill(1) }))
    const played = playCommitted(r.ruleset, { ...r.a, offence, states: wrong }, r.b)
    expect(played).toEqual(engineOnly(r.ruleset, r.a, r.b))
  })
})
