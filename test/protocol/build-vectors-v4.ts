/**
 * Version 4's transcript vectors (SPEC §14), beside version 3's in the same manifest: an honest
 * game (no verdict part: reveal, reveal, close), a draw, the openings of §7.5 and §7.6 that a
 * cheater signing with its own key cannot fake, the draw's misplaced parts, and a version 3
 * envelope spliced into a version 4 game.
 */
import { generateKeyPair } from '../../src/core/commit/keys.js'
import { seededSecrets } from '../../src/core/commit/secrets.js'
import { SEED_BYTES, SideSecrets } from '../../src/games/spaceships/protocol/commitments.js'
import { TRANSCRIPTS } from '../../src/games/spaceships/protocol/file.js'
import { transcriptHeader } from '../../src/core/transcript/file.js'
import type { Part, Terms } from '../../src/games/spaceships/protocol/messages.js'
import { FACE_NEIGHBOURS, formatCell } from '../../src/games/spaceships/rules/coords.js'
import { seededRandom } from '../../src/games/spaceships/rules/rng.js'
import { DEFAULT_RULESET } from '../../src/games/spaceships/rules/ruleset.js'
import { readSetup } from '../../src/games/spaceships/rules/setup.js'
import type { Deviation } from '../../src/games/spaceships/session/session.js'
import {
  ACCEPT_DRAW,
  type PlayerStrategy,
  offerDraw,
  randomStrategy,
  recordText,
} from '../../src/games/spaceships/session/strategy.js'
import { SETUP_A, SETUP_B } from '../helpers.js'
import { witnessedVectors } from './build-vectors-witnessed.js'
import { handGame } from './build-vectors.js'
import { cellValues, revealedSetup } from '../../src/games/spaceships/verify/replay.js'
import { readRecord } from '../../src/games/spaceships/rules/legality.js'
import { initialPlayerState } from '../../src/games/spaceships/rules/state.js'
import { sha256 } from '../../src/core/commit/hash.js'
import { toBase64url, utf8 } from '../../src/core/commit/bytes.js'
import { type SealedEnvelope, gameIdOf } from '../../src/games/spaceships/protocol/envelope.js'

type Play = (
  name: string,
  o: {
    deviation?: Deviation
    strategyA?: PlayerStrategy
    strategyB?: PlayerStrategy
    version?: 3 | 4
    terms?: Terms
  },
) => Promise<{ a: string; b: string }>
type Add = (description: string, expect: Record<string, unknown>, named: Record<string, string>) => void

const HEADER_V4 = transcriptHeader(TRANSCRIPTS[4])
const linesOf = (file: string): string[] => file.split('\n').slice(1, -1)
const fileOf = (lines: readonly string[]): string => [HEADER_V4, ...lines].join('\n') + '\n'

/** B's cells by occupancy in the vectors' fixed setup (test/helpers.ts `SETUP_B`). */
function setupB(): { occupied: Set<number> } {
  const s = readSetup(SETUP_B, DEFAULT_RULESET)
  if (!s.ok) throw new Error('SETUP_B does not read')
  return { occupied: new Set(s.value.flatMap((ship) => ship.cells)) }
}

/**
 * B's salts in the game `vector/NAME`, its seed drawn as test/session/helpers.ts draws it (the key
 * pair, then the session's nonce, then the seed, SPEC §4.1): the cheater knows its own salts. (Were
 * the draw to change, no salt would match below, the deviation would not happen, and the case's
 * expected offence would fail the build.)
 */
function saltsOfB(name: string, game: Uint8Array): SideSecrets {
  const source = seededSecrets(`vector/${name}/B`)
  generateKeyPair(source)
  source.bytes(32)
  return new SideSecrets(source.bytes(SEED_BYTES), game, 1, 4)
}

/** A deviation of B that rewrites the parts of its first envelope `pick` changes. */
function rewriteFirst(pick: (parts: readonly Part[], game: Uint8Array) => Part[] | undefined): Deviation {
  let done = false
  return {
    outgoing(parts, sealWith) {
      if (done) return [sealWith(parts)]
      const game = sealWith(parts).envelope.game
      const out = game === undefined ? undefined : pick(parts, game)
      if (out === undefined) return [sealWith(parts)]
      done = true
      return [sealWith(out)]
    },
  }
}

/** A random player that offers a draw with every record. */
function offeringEveryTurn(seed: string): PlayerStrategy {
  const inner = randomStrategy(seededRandom(seed))
  return {
    setup: (r) => inner.setup(r),
    record: async (ctx) => offerDraw(recordText(await inner.record(ctx)) ?? '-'),
  }
}

/** A random player that accepts the first offer standing when it decides. */
function accepting(seed: string): PlayerStrategy {
  const inner = randomStrategy(seededRandom(seed))
  return {
    setup: (r) => inner.setup(r),
    record: (ctx) => (ctx.drawOffered?.() === true ? ACCEPT_DRAW : inner.record(ctx)),
  }
}

export async function versionFourVectors(play: Play, add: Add, versionThreeLines: readonly string[]): Promise<void> {
  const honest = await play('v4-honest', { version: 4 })
  add(
    'Version 4: a whole honest game as written by A (SPEC §1.1): no verdict part, the end steps reveal, reveal, close.',
    { status: 'complete', reason: 'fleet-destroyed' },
    { 'v4-honest-a.transcript': honest.a },
  )
  add(
    "Version 4: both players' files of the honest game, decided together: the same verdict.",
    { status: 'complete', reason: 'fleet-destroyed' },
    { 'v4-honest-a.transcript': honest.a, 'v4-honest-b.transcript': honest.b },
  )

  const draw = await play('v4-draw', {
    version: 4,
    strategyA: accepting('v4-draw/a'),
    strategyB: offeringEveryTurn('v4-draw/b'),
  })
  add(
    "Version 4: B's envelope completing turn 1 ends with an offer of a draw and A's next phase envelope is one accept part (SPEC §6.3, §7.11, §7.12): both reveal, A closes, and the game is a draw whatever the score (§12.7 rule 4).",
    { status: 'complete', reason: 'agreed-draw', winner: 'draw' },
    { 'v4-draw.transcript': draw.a },
  )

  const explosion = 'v4-false-explosion'
  const lie = await play(explosion, {
    version: 4,
    deviation: rewriteFirst((parts, game) => {
      const results = parts.find((p) => p.t === 'results')
      if (results?.t !== 'results') return undefined
      const { occupied } = setupB()
      const at = results.strikes.findIndex((a) => a.result === 'hit' && a.explosions.length === 0)
      if (at < 0) return undefined
      // The hit's target is in A's aspects, not in these parts: found from the answer's own
      // opening among B's occupied cells (the cheater knows its setup and salts).
      const side = saltsOfB(explosion, game)
      const answer = results.strikes[at]
      if (answer === undefined) return undefined
      const target = [...occupied].find((c) => Buffer.compare(Buffer.from(side.salt('occupancy', c)), Buffer.from(answer.salt)) === 0)
      const empty = (FACE_NEIGHBOURS[target ?? 0] ?? []).find((n) => !occupied.has(n))
      if (target === undefined || empty === undefined) return undefined
      const lied = {
        ...answer,
        explosions: [formatCell(target), formatCell(empty)],
        explosionSalts: [side.salt('occupancy', empty)],
      }
      return parts.map((p) =>
        p === results ? { ...results, strikes: results.strikes.map((a, i) => (i === at ? lied : a)) } : p,
      )
    }),
  })
  add(
    "Version 4: B answers a hit as a missile explosion naming a face neighbour that is empty, with that cell's true occupancy salt (SPEC §7.6): the opening shows the cell empty, found on receipt, before anything is answered (§12.4): false-visible-result, and the lost cell never raises B's scan bound (§8, §13.1).",
    { status: 'offence', offender: 'B', class: 'false-visible-result' },
    { 'v4-false-explosion.transcript': lie.a },
  )

  const kamikaze = 'v4-kamikaze-empty'
  const launch = await play(kamikaze, {
    version: 4,
    deviation: rewriteFirst((parts, game) => {
      const aspects = parts.find((p) => p.t === 'aspects')
      if (aspects?.t !== 'aspects' || aspects.strikes.length === 0) return undefined
      const { occupied } = setupB()
      const empty = [...Array(125).keys()].find((c) => !occupied.has(c))
      if (empty === undefined) return undefined
      const side = saltsOfB(kamikaze, game)
      const lied = {
        ...aspects,
        kamikaze: [...aspects.kamikaze, formatCell(empty)],
        kamikazeSalts: [...(aspects.kamikazeSalts ?? []), side.salt('occupancy', empty)],
      }
      return parts.map((p) => (p === aspects ? lied : p))
    }),
  })
  add(
    'Version 4: B shows a kamikaze launched from an empty cell of its own space, with that cell’s true occupancy salt (SPEC §7.5): the opening shows the cell empty, found on receipt (§12.4): illegal-record (2.6.1 §4.5.2), and the launch never raises B’s scan bound.',
    { status: 'offence', offender: 'B', class: 'illegal-record' },
    { 'v4-kamikaze-empty.transcript': launch.a },
  )

  const unoffered = await play('v4-accept-unoffered', {
    version: 4,
    deviation: rewriteFirst((parts) => {
      const c = parts.find((p) => p.t === 'commit')
      return c?.t === 'commit' && c.turn >= 2 ? [{ t: 'accept' }] : undefined
    }),
  })
  add(
    'Version 4: B sends one accept part where no offer stands (SPEC §6.3, §7.12): protocol-violation.',
    { status: 'offence', offender: 'B', class: 'protocol-violation' },
    { 'v4-accept-unoffered.transcript': unoffered.a },
  )

  let offered = 0
  const twice = await play('v4-offer-twice', {
    version: 4,
    deviation: {
      outgoing(parts, sealWith) {
        // B ends its first two phase envelopes of turn 1 with an offer: the second while its own stands.
        const inTurn = parts.some((p) => p.t === 'commit' || p.t === 'aspects' || p.t === 'results')
        if (!inTurn || offered >= 2) return [sealWith(parts)]
        offered++
        return [sealWith([...parts, { t: 'offer', kind: 'draw' }])]
      },
    },
  })
  add(
    'Version 4: B offers a draw, and offers again in its next phase envelope while its own offer still stands (SPEC §6.3, §7.11): protocol-violation.',
    { status: 'offence', offender: 'B', class: 'protocol-violation' },
    { 'v4-offer-twice.transcript': twice.a },
  )

  const lines = linesOf(honest.a)
  add(
    'Version 4: envelopes of a version 3 game spliced into the version 4 honest file: of another version, so of no game of this one (SPEC §5.1, §12.1); noted, never evidence.',
    { status: 'complete', reason: 'fleet-destroyed' },
    { 'v4-other-version.transcript': fileOf([...lines.slice(0, 6), ...versionThreeLines, ...lines.slice(6)]) },
  )

  handSignedVectors(add)
  await witnessedVectors(play, add)
}

/**
 * Version 4 games signed by hand (`handGame`), for readings of SPEC §6.3, §9 and §12.3 that no
 * honest node's play reaches: the players' parts are well formed but carry nothing (no actions, a
 * setup vector of fixed bytes), since the walk judges the schedule and encodings before any cell.
 */
function handSignedVectors(add: Add): void {
  const setup = (name: string, r: 'A' | 'B'): Part => {
    const cells = new Uint8Array(8000)
    for (let i = 0; i < 250; i++) cells.set(sha256(utf8(`vector/${name}/${r}/setup/${i}`)), i * 32)
    return { t: 'setup', cells }
  }
  const commit = (name: string, r: 'A' | 'B', turn: number): Part => ({
    t: 'commit',
    turn,
    record: sha256(utf8(`vector/${name}/${r}/record/${turn}`)),
  })
  const aspects = (turn: number, strikes: string[] = []): Part => ({
    t: 'aspects',
    turn,
    idle: false,
    beams: [],
    strikes,
    scans: [],
    kamikaze: [],
    kamikazeSalts: [],
  })
  const results = (turn: number, strikes: Extract<Part, { t: 'results' }>['strikes'] = []): Part => ({
    t: 'results',
    turn,
    fleetDestroyed: false,
    beams: [],
    strikes,
    scans: [],
    destroyed: [],
  })
  const offer: Part = { t: 'offer', kind: 'draw' }
  const file = (envelopes: readonly SealedEnvelope[]): string => fileOf(envelopes.map((e) => toBase64url(e.bytes)))
  /** Both hellos and setups, then turn 1's first two steps (A first mover): what each case starts from. */
  const opening = (name: string) => {
    const g = handGame(name, { version: 4 })
    const a1 = g.next('A', [setup(name, 'A')], g.helloB)
    const b1 = g.next('B', [setup(name, 'B')], a1)
    const a2 = g.next('A', [commit(name, 'A', 1)], b1)
    const b2 = g.next('B', [commit(name, 'B', 1), aspects(1)], a2)
    return { g, a1, a2, b1, b2, start: [g.helloA, g.helloB, a1, b1, a2, b2] }
  }

  {
    // SPEC §6.3: only the latest offer stands.
    const name = 'v4-offer-withdrawn'
    const { g, b2, start } = opening(name)
    const a3 = g.next('A', [aspects(1), results(1), offer], b2)
    const b3 = g.next('B', [results(1), offer], a3)
    const a4 = g.next('A', [commit(name, 'A', 2)], b3)
    const b4 = g.next('B', [{ t: 'accept' }], a4)
    add(
      "Version 4, signed by hand: A ends turn 1's step 3 with an offer; B's step 4 (its results, no commitment ahead) ends with an offer of its own, which withdraws A's (SPEC §6.3: only the latest offer stands); A commits to turn 2, declining B's; B's step 2 is one accept part: no offer of A stands, so protocol-violation by B in turn 2 (a reader keeping both offers would call it an agreed draw).",
      { status: 'offence', offender: 'B', class: 'protocol-violation', turn: 2 },
      { [`${name}.transcript`]: file([...start, a3, b3, a4, b4]) },
    )
  }

  {
    // SPEC §12.3 rule 4: a stop's ack never goes back past its sender's previous one.
    const name = 'v4-stop-ack-back'
    const { g, a1, b2, start } = opening(name)
    const a3 = g.next('A', [aspects(1), results(1)], b2)
    const seed = sha256(utf8(`vector/${name}/B/seed`))
    const s = readSetup(SETUP_B, DEFAULT_RULESET)
    if (!s.ok) throw new Error('SETUP_B does not read')
    const stop = g.next(
      'B',
      [
        { t: 'stop', reason: 'claim', detail: '' },
        { t: 'reveal', seed, setup: revealedSetup(s.value), records: ['-'] },
      ],
      a1,
    )
    add(
      "Version 4, signed by hand: B's stop acknowledges A's setup, behind A's commitment that B's previous envelope acknowledged (SPEC §5.1, §12.3 rule 4): the stop goes back, so it is a protocol-violation by B in turn 1 and is not taken (a reader taking it would find B stopping while it owed its results, abandoned).",
      { status: 'offence', offender: 'B', class: 'protocol-violation', turn: 1 },
      { [`${name}.transcript`]: file([...start, a3, stop]) },
    )
  }

  {
    // SPEC §12.5: every committed record is opened and checked, the other side's turn or not.
    const name = 'v4-illegal-ahead'
    const g = handGame(name, { version: 4 })
    const game = gameIdOf(g.helloA.hash, g.helloB.hash, 4)
    const side = (r: 'A' | 'B', text: string) => {
      const setupRead = readSetup(text, DEFAULT_RULESET)
      if (!setupRead.ok) throw new Error(`the setup of ${r} does not read`)
      const seed = sha256(utf8(`vector/${name}/${r}/seed`))
      const secrets = new SideSecrets(seed, game, r === 'A' ? 0 : 1, 4)
      return { setup: setupRead.value, seed, secrets, vector: secrets.setupVector(cellValues(setupRead.value)) }
    }
    const a = side('A', SETUP_A)
    const b = side('B', SETUP_B)
    // Six scans in turn 2: B's fleet allows one (C-16), so the record is illegal; its aspects are never shown.
    const ahead = 'sRv1 sRv2 sRv3 sRv4 sRv5 sRw1'
    if (readRecord(DEFAULT_RULESET, initialPlayerState(b.setup), 2, ahead, 'strict').ok)
      throw new Error('the record committed ahead must be illegal')
    const a1 = g.next('A', [{ t: 'setup', cells: a.vector }], g.helloB)
    const b1 = g.next('B', [{ t: 'setup', cells: b.vector }], a1)
    const a2 = g.next('A', [{ t: 'commit', turn: 1, record: a.secrets.recordCommitment(1, '') }], b1)
    const b2 = g.next('B', [{ t: 'commit', turn: 1, record: b.secrets.recordCommitment(1, '') }, aspects(1)], a2)
    const a3 = g.next('A', [aspects(1), results(1)], b2)
    const b3 = g.next('B', [results(1), { t: 'commit', turn: 2, record: b.secrets.recordCommitment(2, ahead) }], a3)
    const reveal = (x: typeof a, records: string[]): Part => ({
      t: 'reveal',
      seed: x.seed,
      setup: revealedSetup(x.setup),
      records,
    })
    const bStop = g.next('B', [{ t: 'stop', reason: 'resignation', detail: '' }, reveal(b, ['', ahead])], a3)
    const aStop = g.next('A', [{ t: 'stop', reason: 'answer', detail: '' }, reveal(a, [''])], bStop)
    add(
      "Version 4, signed by hand: B ends turn 1 with a commitment ahead to an illegal record (six scans, C-16), then resigns before A commits to turn 2; A answers. B's reveal opens both records: the one A never matched is checked like any other (SPEC §12.5), so illegal-record by B in turn 2, not a resignation.",
      { status: 'offence', offender: 'B', class: 'illegal-record', turn: 2 },
      { [`${name}.transcript`]: file([g.helloA, g.helloB, a1, b1, a2, b2, a3, b3, bStop, aStop]) },
    )
  }

  {
    // SPEC §9: explosions are 0..7 cells (the target and its six face neighbours at most).
    const name = 'v4-eight-explosions'
    const { g, b2, start } = opening(name)
    const a3 = g.next('A', [aspects(1, ['Rv1']), results(1)], b2)
    const salt = (i: number): Uint8Array => sha256(utf8(`vector/${name}/B/salt/${i}`)).subarray(0, 16)
    const cells = ['Rv1', 'Rv2', 'Rw1', 'Ov1', 'Rv3', 'Rv4', 'Rv5', 'Rw2']
    const b3 = g.next(
      'B',
      [results(1, [{ result: 'hit', salt: salt(0), explosions: cells, explosionSalts: cells.slice(1).map((_, i) => salt(i + 1)) }])],
      a3,
    )
    add(
      "Version 4, signed by hand: B answers A's strike with an explosion list of 8 cells, one more than SPEC §9 allows: B's envelope does not decode, so it is a protocol-violation by B in turn 1 (§12.2), whatever the statement it would make (a reader decoding it would judge the explosions, false-visible-result).",
      { status: 'offence', offender: 'B', class: 'protocol-violation', turn: 1 },
      { [`${name}.transcript`]: file([...start, a3, b3]) },
    )
  }
}
