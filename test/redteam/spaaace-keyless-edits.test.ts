/**
 * Red team, Spaaace! among peers: someone without keys edits finished transcripts
 * (protocol/SPAAACE-PEERS.md §12 "a file editor without keys only removes evidence", §13, §14
 * vector 15). Every envelope is signed and identified by its hash (§4.1), a signature on one
 * envelope authenticates its `prev` chain (SPEC §5.4), lines after the genesis may come in any
 * order and a repeated line is one item (§2, BD-13). So flipping a signature byte, flipping a body
 * byte, deleting, duplicating, inserting another game's line or reordering lines can produce
 * gaps, provisional or open ticks, lines set aside, "ongoing" instead of an end, and hide one
 * branch of a fork (§7.4), but never an offence the intact file lacks, never a canonical closing
 * state or an end the intact file does not give, and merging an intact honest file restores the
 * decision.
 *
 * The game edited: five players, p5 equivocating in tick 1 (so the intact file holds an offence),
 * three ticks; the files of p1 and p2.
 */
import { beforeAll, describe, expect, it } from 'vitest'
import { toHex } from '../../src/core/commit/bytes.js'
import { generateKeyPair } from '../../src/core/commit/keys.js'
import { seededSecrets } from '../../src/core/commit/secrets.js'
import { sha256 } from '../../src/core/commit/hash.js'
import type { Decision } from '../../src/games/spaaace/peers/decide.js'
import { sealEnvelope } from '../../src/games/spaaace/peers/envelope.js'
import { verifySpaaace } from '../../src/games/spaaace/verify/verify.js'
import { type RedTeamGame, decisionOf, equivocator, raceGame, redTeamGame } from './spaaace-helpers.js'

let game: RedTeamGame
let intact: { p1: string; p2: string }
/** p1's file of a game two cheaters held open by the race until the honest votes stalled it at tick 1 (§5.7). */
let stalled: string

beforeAll(async () => {
  game = await redTeamGame({
    seed: 'rt-keyless',
    ticks: 3,
    cheaters: { 4: equivocator({ tick: 1, a: [0, 1], b: [2] }) },
  })
  intact = { p1: game.result.transcripts[0] ?? '', p2: game.result.transcripts[1] ?? '' }
  const held = await raceGame('rt-keyless-stalled')
  stalled = held.result.transcripts[0] ?? ''
})

function decideFiles(...texts: string[]): Decision {
  const [v] = verifySpaaace(texts.map((text, i) => ({ name: `f${i}`, text })))
  if (v === undefined) throw new Error('no verdict')
  return decisionOf(v)
}

const offenceKeys = (d: Decision): string[] =>
  d.offences.map((o) => `${o.player}:${o.kind}:${o.rule}:${[...o.envelopes].sort().join(',')}`)

const canonical = (d: Decision): string[] =>
  d.ticks.filter((t) => t.status === 'canonical').map((t) => `${t.t}:${toHex(t.canonical?.hash ?? new Uint8Array())}`)

/**
 * §12: what a key-less edit may do to a decision. Offences only from the intact evidence (never a
 * new one, never an honest player); canonical closing states only the intact ones; the end the
 * intact one or "ongoing" (a key-less edit adds no stall record and no end, §7.4).
 */
function onlyRemoves(edited: Decision, whole: Decision, what: string): void {
  const allowed = new Set(offenceKeys(whole))
  for (const k of offenceKeys(edited)) expect(allowed.has(k), `${what}: offence ${k}`).toBe(true)
  for (const o of edited.offences) expect([4], `${what}: ${o.rule} against p${o.player + 1}`).toContain(o.player)
  const mine = new Set(canonical(whole))
  for (const c of canonical(edited)) expect(mine.has(c), `${what}: canonical ${c}`).toBe(true)
  expect(edited.record, `${what}: a stall record`).toBeUndefined()
  // Ticks it still decides carry the intact closing states, canonical or provisional.
  for (const t of edited.ticks)
    if (t.stateHash !== undefined) {
      const w = whole.ticks[t.t - 1]
      expect(toHex(t.stateHash), `${what}: tick ${t.t}`).toBe(toHex(w?.stateHash ?? new Uint8Array()))
    }
  // The same end, the same end read provisional (a signer's envelope gone, §5.6 rule 3), or ongoing.
  if (edited.end.kind === 'complete' && edited.end.provisional === true)
    expect({ ...edited.end, provisional: undefined }, `${what}: end`).toEqual({ ...whole.end, provisional: undefined })
  else if (edited.end.kind !== 'ongoing') expect(edited.end, `${what}: end`).toEqual(whole.end)
}

type Edit = (lines: string[]) => string[]

function edited(text: string, edit: Edit): string {
  const all = text.trimEnd().split('\n')
  return `${[...all.slice(0, 2), ...edit(all.slice(2))].join('\n')}\n`
}

function flipByte(line: string, fromEnd: boolean, k: number): string {
  const b = Buffer.from(line, 'base64url')
  const at = fromEnd ? b.length - 1 - (k % 64) : 70 + (k % Math.max(1, b.length - 140))
  b[at] = (b[at] ?? 0) ^ 0x04
  return b.toString('base64url')
}

/** Every `step`-th envelope line, so that each kind of edit touches every player's chain. */
function sampled(text: string, step: number): number[] {
  const count = text.trimEnd().split('\n').length - 2
  return Array.from({ length: Math.ceil(count / step) }, (_, k) => k * step)
}

describe('red team: key-less edits of finished transcripts (§2, §4.1, §7.4, §12, §13)', () => {
  it('the intact files decide the game complete, with p5’s fork counted and nobody else accused', () => {
    const whole = decideFiles(intact.p1)
    expect(whole.end.kind).toBe('complete')
    // Only p5 is convicted (its fork; how many reports name it is BD-24's).
    expect([...new Set(whole.offences.map((o) => o.player))]).toEqual([4])
    expect(canonical(whole)).toHaveLength(3)
    expect(canonical(decideFiles(intact.p1, intact.p2))).toEqual(canonical(whole))
  })

  const kinds: [string, (k: number) => Edit][] = [
    ['a flipped signature byte', (k) => (l) => l.map((x, i) => (i === k ? flipByte(x, true, k) : x))],
    ['a flipped body byte', (k) => (l) => l.map((x, i) => (i === k ? flipByte(x, false, k) : x))],
    ['a deleted line', (k) => (l) => l.filter((_, i) => i !== k)],
    ['a duplicated line', (k) => (l) => l.flatMap((x, i) => (i === k ? [x, x] : [x]))],
  ]
  for (const [name, edit] of kinds)
    it(`${name}, at every third line: never an offence, never another canonical decision; merged with p2’s file, the intact decision`, () => {
      const whole = decideFiles(intact.p1)
      const merged = decideFiles(intact.p1, intact.p2)
      let changed = 0
      for (const k of sampled(intact.p1, 3)) {
        const text = edited(intact.p1, edit(k))
        const d = decideFiles(text)
        onlyRemoves(d, whole, `${name} at line ${k + 3}`)
        if (canonical(d).length < canonical(whole).length || d.gaps.length > 0) changed++
        // §7.4: merging an honest file fills what the edit removed.
        if (k % 9 === 0)
          expect(canonical(decideFiles(text, intact.p2)), `${name} at ${k + 3}, merged`).toEqual(canonical(merged))
      }
      // The edits are not all no-ops: some take evidence away (gaps, fewer canonical ticks), as §12 allows.
      if (name !== 'a duplicated line' && name !== 'a flipped signature byte') expect(changed).toBeGreaterThan(0)
    })

  it('another game’s lines inserted (a genesis, a validly signed envelope of another game): set aside, the decision unchanged', () => {
    const whole = decideFiles(intact.p1)
    const key = generateKeyPair(seededSecrets('keyless/other-key'))
    const other = sha256(seededSecrets('keyless/other-game').bytes(32))
    const foreign = sealEnvelope(key, {
      author: 0,
      seq: 0,
      game: other,
      prev: other,
      heads: [],
      parts: [{ type: 'accept' }],
    })
    const genesisLine = intact.p2.split('\n')[1] ?? ''
    const otherGenesis = Buffer.from(genesisLine, 'base64url')
    otherGenesis[otherGenesis.length - 1] = (otherGenesis[otherGenesis.length - 1] ?? 0) ^ 0xff
    const text = edited(intact.p1, (l) => [
      ...l.slice(0, 5),
      Buffer.from(foreign.bytes).toString('base64url'),
      otherGenesis.toString('base64url'),
      'not base64 at all!',
      ...l.slice(5),
    ])
    const [v] = verifySpaaace([{ name: 'edited', text }])
    if (v === undefined || v.status === 'unreadable') throw new Error('unreadable')
    expect(v.setAside.length).toBe(3)
    expect(canonical(v.decision)).toEqual(canonical(whole))
    expect(offenceKeys(v.decision)).toEqual(offenceKeys(whole))
    expect(v.decision.end).toEqual(whole.end)
  })

  it('lines reordered (reversed, and shuffled): exactly the intact decision (§2: the DAG, not the file, orders them)', () => {
    const whole = decideFiles(intact.p1)
    const rng = seededSecrets('keyless/shuffle')
    const shuffle = (l: string[]): string[] => {
      const out = [...l]
      for (let i = out.length - 1; i > 0; i--) {
        const j = (rng.bytes(1)[0] ?? 0) % (i + 1)
        ;[out[i], out[j]] = [out[j] as string, out[i] as string]
      }
      return out
    }
    for (const edit of [(l: string[]) => [...l].reverse(), shuffle, shuffle]) {
      const d = decideFiles(edited(intact.p1, edit))
      expect(canonical(d)).toEqual(canonical(whole))
      expect(offenceKeys(d)).toEqual(offenceKeys(whole))
      expect(d.end).toEqual(whole.end)
      expect(d.gaps).toEqual([])
    }
  })

  it('a stalled game’s file with any line deleted reads stalled or ongoing: never complete, never a canonical tick, never an offence (§5.7, §12)', () => {
    const whole = decideFiles(stalled)
    expect(whole.end.kind).toBe('stalled')
    for (const k of sampled(stalled, 1)) {
      const d = decideFiles(edited(stalled, (l) => l.filter((_, i) => i !== k)))
      expect(['stalled', 'ongoing'], `line ${k + 3} deleted`).toContain(d.end.kind)
      if (d.end.kind === 'stalled') expect(d.end.tick).toBe(1)
      expect(canonical(d), `line ${k + 3} deleted`).toEqual([])
      expect(d.offences, `line ${k + 3} deleted`).toEqual([])
    }
  })
})
