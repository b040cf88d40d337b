/**
 * Builds protocol/vectors/spaaace-witnessed/ (SPAAACE-WITNESSED §13): each scenario's transcript
 * files (receipts signed by the notary key NOTARY_W: by the real notary service where the notary is
 * honest, signed directly where it misbehaves) and `index.json`, which states each vector's
 * expected decision (§6.3, §7) and what each file alone decides.
 * `UPDATE_VECTORS=1 npx vitest run test/games/spaaace/witness/vectors.test.ts` rewrites them.
 */
import { toHex } from '../../../../src/core/commit/bytes.js'
import { x25519PublicKey } from '../../../../src/core/notary/x25519.js'
import { depositInfo, pad } from '../../../../src/core/notary/deposit.js'
import { proveDh } from '../../../../src/core/notary/proof.js'
import { decodeReceipt, receiptHash, type ReceiptBody } from '../../../../src/core/notary/receipt.js'
import { encodeUnsignedHeader } from '../../../../src/core/notary/header.js'
import { seededSecrets } from '../../../../src/core/commit/secrets.js'
import { commitmentOf, saltOf } from '../../../../src/games/spaaace/peers/parts.js'
import type { SealedGenesis } from '../../../../src/games/spaaace/peers/genesis.js'
import { type Witnessed, decideFromFiles } from '../../../../src/games/spaaace/witness/evidence.js'
import {
  SPAAACE_LAYOUT,
  SPAAACE_NOTARY_DOMAIN,
  freshDepositRandomnessW,
  paddingFloorW,
} from '../../../../src/games/spaaace/witness/index.js'
import { readPeersTranscript } from '../../../../src/games/spaaace/peers/transcript.js'
import { fixed } from '../peers/fixtures.js'
import { NOTARY_W, markWithTickZero } from './fixtures.js'
import { VectorGame } from './vector-game.js'

export interface VectorFile {
  /** The file's name in the directory. */
  readonly name: string
  /** Whose file it is: `p1`..`p5`, or `N` (the notary's log). */
  readonly holder: string
  readonly items: readonly Uint8Array[]
  /** Whether it decides, alone, as all the vector's files merged (§13's preamble). */
  readonly same: boolean
}

export interface Vector {
  readonly name: string
  readonly item: string
  readonly about: string
  readonly game: VectorGame
  readonly files: readonly VectorFile[]
  /** Honest players whose full files (computed, not all stored) must each decide as the merge. */
  readonly honest: readonly number[]
  readonly refusals: readonly { what: string; code: string }[]
  readonly extra?: Record<string, unknown>
}

/** The decision of a set of items (transcript lines) of one game. */
export function decideItems(genesis: SealedGenesis, items: readonly Uint8Array[]): Witnessed {
  const receipts = items.filter((x) => x[0] === 0x84)
  const envelopes = items.filter((x) => x[0] !== 0x84)
  return decideFromFiles(genesis, receipts, envelopes)
}

/** Reads a transcript's text back and decides it (what a verifier does with the file). */
export function decideTexts(texts: readonly string[]): Witnessed {
  const reads = texts.map((t) => {
    const r = readPeersTranscript(t)
    if (!r.ok) throw new Error(r.error.message)
    return r.value
  })
  const genesis = reads[0]?.genesis
  if (genesis === undefined) throw new Error('no file')
  const envelopes = new Map<string, Uint8Array>()
  const receipts = new Map<string, Uint8Array>()
  for (const r of reads) {
    for (const e of r.envelopes) envelopes.set(Buffer.from(e.bytes).toString('base64'), e.bytes)
    for (const x of r.receipts) receipts.set(Buffer.from(x).toString('base64'), x)
  }
  return decideFromFiles(genesis, [...receipts.values()], envelopes.values())
}

const players = (xs: readonly boolean[]): number[] => xs.flatMap((x, q) => (x ? [q] : []))

/** The decision as the index states it: what a second implementation must give from the files. */
export function summaryW(x: Witnessed): Record<string, unknown> {
  const d = x.decision
  const e = d.end
  return {
    exists: x.log.exists,
    chain: x.log.chain.length,
    decided: x.log.decided.length,
    faults: x.log.faults.map((f) => ({ kind: f.kind, index: f.index })),
    gaps: x.log.gaps.map((g) => g.index),
    setAside: x.log.setAside.length,
    end: 'fault' in e && e.fault !== undefined ? { ...e, fault: { kind: e.fault.kind, index: e.fault.index } } : e,
    ticks: d.ticks.map((t) => ({
      t: t.t,
      status: t.status,
      active: t.active,
      committed: players(t.committed),
      revealed: players(t.revealed),
      submissions: t.submissions?.map((s) => s.kind) ?? null,
      stateHash: t.stateHash === undefined ? null : toHex(t.stateHash),
      ...(t.missing === undefined ? {} : { missing: t.missing }),
    })),
    offences: d.offences.map((o) => ({
      player: o.player,
      kind: o.kind,
      rule: o.rule,
      tick: o.tick ?? null,
      counted: o.counted ?? null,
      receipts: o.receipts,
      envelopes: o.envelopes,
    })),
    voids: d.voids,
    unauthenticated: d.unauthenticated,
    unreceipted: d.unreceipted,
  }
}

/** What "decides the same" compares (§13's preamble): the end, the ticks, the offences, the voids, the faults. */
export function core(s: Record<string, unknown>): Record<string, unknown> {
  return { end: s['end'], ticks: s['ticks'], offences: s['offences'], voids: s['voids'], faults: s['faults'] }
}

const ALL = [0, 1, 2, 3, 4]

interface Spec {
  readonly name: string
  readonly item: string
  readonly about: string
  readonly honest?: readonly number[]
  readonly build: () => { game: VectorGame; files: VectorFile[]; extra?: Record<string, unknown> }
}

const file = (g: VectorGame, holder: string, items: readonly Uint8Array[], same = true, suffix = ''): VectorFile => ({
  name: `${g.name}-${holder}${suffix}.transcript`,
  holder,
  items,
  same,
})

/** Strips a decoded receipt to the body it was signed with. */
function bodyOf(bytes: Uint8Array): ReceiptBody<number> {
  const r = decodeReceipt(bytes, SPAAACE_LAYOUT)
  if (!r.ok) throw new Error(r.error.message)
  const skip = new Set(['game', 'index', 'prev', 'time', 'sig', 'bytes'])
  const body = Object.fromEntries(Object.entries(r.value).filter(([k]) => !skip.has(k)))
  return body as unknown as ReceiptBody<number>
}
const timeOf = (bytes: Uint8Array): number => {
  const r = decodeReceipt(bytes, SPAAACE_LAYOUT)
  if (!r.ok) throw new Error(r.error.message)
  return r.value.time
}

let honestCache: VectorGame | undefined
/** Vector 2's game (also the base of vector 18's edits). */
function honestGame(): VectorGame {
  if (honestCache !== undefined) return honestCache
  const g = new VectorGame('honest-5', { maxTicks: 2 })
  g.register()
  g.tick(1)
  g.tick(2)
  g.finish()
  g.seedsAndSeal()
  honestCache = g
  return g
}

/**
 * p5's tick-1 reveal deposit has wrap(1) garbage and nobody complains by F_1, so the reveal stands;
 * ticks 1 and 2 are played and the log passes F_2 (the game over at maxTicks 2). The receipt index
 * of that reveal, for a complaint the notary receipts later.
 */
function lateComplaintGame(name: string): { g: VectorGame; target: number } {
  const g = new VectorGame(name, { maxTicks: 2 })
  g.register()
  for (const q of ALL) g.commit(q, 1, g.T(1) + 1000 + 10 * q)
  g.mark(1, 0, g.C(1) + 1)
  for (const q of [0, 1, 2, 3]) g.reveal(q, 1, g.C(1) + 1000 + 10 * q)
  const target = g.submit(g.sign(4, [g.revealPart(4, 1)]), g.C(1) + 1040, { garble: [0] })
  g.mark(1, 1, g.R(1) + 1)
  g.tick(2)
  g.finish()
  return { g, target }
}

let garbledCache: { g: VectorGame; r1: number; complaint: number } | undefined
/** Vector 7's game (also the base of vector 18 (c), (d)). */
function garbledGame(): { g: VectorGame; r1: number; complaint: number } {
  if (garbledCache !== undefined) return garbledCache
  const g = new VectorGame('garbled-wrap-in-window', { maxTicks: 2 })
  g.register()
  for (const q of ALL) g.commit(q, 1, g.T(1) + 1000 + 10 * q)
  g.mark(1, 0, g.C(1) + 1)
  for (const q of [0, 1, 2, 3]) g.reveal(q, 1, g.C(1) + 1000 + 10 * q)
  g.submit(g.sign(4, [g.revealPart(4, 1)]), g.C(1) + 1040, { garble: [1] })
  const r1 = g.mark(1, 1, g.R(1) + 1) ?? -1
  const target = r1 - 1
  const complaint = g.complain(1, target, g.T(2) + 500) ?? -1
  g.tick(2, { commit: [0, 1, 2, 3] })
  g.finish()
  garbledCache = { g, r1, complaint }
  return garbledCache
}

function edit(
  items: readonly Uint8Array[],
  at: Uint8Array,
  f: (x: Uint8Array) => Uint8Array | undefined,
): Uint8Array[] {
  const out: Uint8Array[] = []
  for (const x of items) {
    if (x !== at) out.push(x)
    else {
      const y = f(x.slice())
      if (y !== undefined) out.push(y)
    }
  }
  return out
}

const specs = (): Spec[] => [
  {
    name: 'honest-5',
    item: '2',
    about:
      '§13.2: every player commits and reveals each tick via the notary, p1 marks C_t and R_t, seeds with the end flag, then the seal; every tick final, complete, one stateHash per tick in every file',
    build: () => {
      const g = honestGame()
      return {
        game: g,
        files: [...ALL.map((q) => file(g, `p${q + 1}`, g.fileOf(q))), file(g, 'N', g.notaryFile(), false)],
      }
    },
  },
  {
    name: 'commit-after-cut',
    item: '3',
    about:
      '§13.3, §7.1: p3’s commitment receipted at C_1 + 1 is out; p3 missing in tick 1, its reveal changes nothing; no offence',
    build: () => {
      const g = new VectorGame('commit-after-cut')
      g.register()
      for (const [k, q] of [0, 1, 3, 4].entries()) g.commit(q, 1, g.T(1) + 1000 + 10 * k)
      g.commit(2, 1, g.C(1) + 1)
      for (const q of ALL) g.reveal(q, 1, g.C(1) + 1000 + 10 * q)
      g.mark(1, 1, g.R(1) + 1)
      g.tick(2)
      g.finish()
      return { game: g, files: [file(g, 'p1', g.fileOf(0))] }
    },
  },
  {
    name: 'reveal-after-cut',
    item: '4',
    about: '§13.4, §7.1: p3’s reveal receipted at R_1 + 1 is out of the close cut: p3 withheld in tick 1 (S-62)',
    build: () => {
      const g = new VectorGame('reveal-after-cut')
      g.register()
      for (const q of ALL) g.commit(q, 1, g.T(1) + 1000 + 10 * q)
      g.mark(1, 0, g.C(1) + 1)
      for (const q of [0, 1, 3, 4]) g.reveal(q, 1, g.C(1) + 1000 + 10 * q)
      g.reveal(2, 1, g.R(1) + 1)
      g.tick(2)
      g.finish()
      return { game: g, files: [file(g, 'p1', g.fileOf(0))] }
    },
  },
  {
    name: 'reveal-before-mark',
    item: '5',
    about:
      '§13.5, §7.1, §8: p2 reveals at C_1 − 5 s, before the commit cut: in at the close cut and counted; an early reveal is legal and only its author’s loss',
    build: () => {
      const g = new VectorGame('reveal-before-mark')
      g.register()
      for (const q of ALL) g.commit(q, 1, g.T(1) + 1000 + 10 * q)
      g.reveal(1, 1, g.C(1) - 5000)
      g.mark(1, 0, g.C(1) + 1)
      for (const q of [0, 2, 3, 4]) g.reveal(q, 1, g.C(1) + 1000 + 10 * q)
      g.mark(1, 1, g.R(1) + 1)
      g.tick(2)
      g.finish()
      return { game: g, files: [file(g, 'p1', g.fileOf(0))] }
    },
  },
  {
    name: 'last-check-in',
    item: '6',
    about:
      '§13.6, §6.2: maxTicks 6, absentTicks 3; ticks 1–2 played, then everyone absent; p1 returns in tick 6 (after C_6) and marks R_5: ticks 3–5 final with everyone missing, everyone removed at tick 5, S-82, no winner',
    build: () => {
      const g = new VectorGame('last-check-in', { maxTicks: 6, absentTicks: 3 })
      g.register()
      g.tick(1)
      g.tick(2)
      g.mark(5, 1, g.C(6) + 1000)
      return { game: g, files: [file(g, 'p1', g.fileOf(0))] }
    },
  },
  {
    name: 'garbled-wrap-in-window',
    item: '7',
    about:
      '§13.7, §5.3, §7.2: p5’s tick-1 reveal deposit has wrap(1) garbage; p2 complains at T_2 + 0.5 s ≤ F_1: the complaint holds, the reveal is void, p5 equivocated in 1 and removed; the provisional S_1 of a file cut at R_1 differs; the final S_1 is equal in every file, p2’s included (it never held the content)',
    honest: [0, 1, 2, 3],
    build: () => {
      const { g, r1 } = garbledGame()
      return {
        game: g,
        files: [
          file(g, 'p1', g.fileOf(0)),
          file(g, 'p2', g.fileOf(1)),
          file(g, 'p1', g.fileOf(0, { receipts: g.log.slice(0, r1 + 1) }), false, '-at-R1'),
          file(g, 'N', g.notaryFile(), false),
        ],
      }
    },
  },
  {
    name: 'garbled-wrap-late',
    item: '8',
    about:
      '§13.8, §7.2, §5.4: as garbled-wrap-in-window, but p2 complains at F_1 + 1: the reveal stands, p5 counted in tick(F_1 + 1) = 2; p2’s file without the relay is a gap at 1; with p1’s relay (in extra.relay) it decides as the others',
    honest: [0, 1, 2, 3],
    build: () => {
      const g = new VectorGame('garbled-wrap-late')
      g.register()
      for (const q of ALL) g.commit(q, 1, g.T(1) + 1000 + 10 * q)
      g.mark(1, 0, g.C(1) + 1)
      for (const q of [0, 1, 2, 3]) g.reveal(q, 1, g.C(1) + 1000 + 10 * q)
      const target = g.submit(g.sign(4, [g.revealPart(4, 1)]), g.C(1) + 1040, { garble: [1] })
      g.mark(1, 1, g.R(1) + 1)
      for (const q of ALL) g.commit(q, 2, g.T(2) + 1000 + 10 * q)
      const before = g.fileOf(1)
      g.complain(1, target, g.F(1) + 1)
      const relay = g.relay(0, 1, target, g.F(1) + 500)
      for (const q of ALL) g.reveal(q, 2, g.C(2) + 1000 + 10 * q)
      g.mark(2, 1, g.R(2) + 1)
      g.finish()
      const receipts = g.log
      const p2before = [...before.filter((x) => x[0] !== 0x84), ...receipts]
      return {
        game: g,
        files: [
          file(g, 'p1', g.fileOf(0)),
          file(g, 'p2', p2before, false, '-before-relay'),
          file(g, 'p2', g.fileOf(1)),
        ],
        extra: { relay: { from: 0, to: 1, index: target, bytes: toHex(relay) } },
      }
    },
  },
  {
    name: 'false-complaint',
    item: '11',
    about:
      '§13.11, §5.3, §9.2: p4 complains about p1’s honest deposit: the notary refuses it (17 complaint-invalid); the game goes on, nobody convicted',
    build: () => {
      const g = new VectorGame('false-complaint')
      g.register()
      for (const q of ALL) g.commit(q, 1, g.T(1) + 1000 + 10 * q)
      g.complain(3, 1, g.T(1) + 2000)
      g.mark(1, 0, g.C(1) + 1)
      for (const q of ALL) g.reveal(q, 1, g.C(1) + 1000 + 10 * q)
      g.mark(1, 1, g.R(1) + 1)
      g.tick(2)
      g.finish()
      return { game: g, files: [file(g, 'p1', g.fileOf(0))] }
    },
  },
  {
    name: 'false-complaint-colluding',
    item: '11',
    about:
      '§13.11 variant, §6.3, §7.6: the colluding notary receipts p4’s complaint about p1’s honest deposit after R_1: fault complaint-invalid at its index; nobody convicted; stalled at 1 (notary fault), tick 1 not final below the fault',
    build: () => {
      const g = new VectorGame('false-complaint-colluding')
      g.register()
      g.tick(1)
      // The notary signs what it would refuse; from here on its receipts are the forger's.
      g.forging = true
      g.complain(3, 1, g.R(1) + 5)
      g.tick(2)
      g.finish()
      return { game: g, files: [file(g, 'p1', g.fileOf(0))] }
    },
  },
  {
    name: 'equivocation-at-one-place',
    item: '12',
    about:
      '§13.12, §7.3: p5 signs two commitments at seq 3; the notary receipts one and refuses the other (5 place-taken); p5 shows the other to p1 over the mesh: the receipted one counts, fork convicted in p1’s file, never counted, p5 cannot win; p2’s file (without the mesh copy) shows no fork',
    honest: [],
    build: () => {
      const g = new VectorGame('equivocation-at-one-place')
      g.register()
      g.tick(1)
      for (const q of [0, 1, 2, 3]) g.commit(q, 2, g.T(2) + 1000 + 10 * q)
      const salt = saltOf(g.genesis.game, 4, g.seeds[4] ?? new Uint8Array(32), 2)
      const other = g.sign(
        4,
        [{ type: 'commit', tick: 2, commitment: commitmentOf(g.genesis.game, 4, 2, salt, 'bid 5') }],
        { keepTip: true },
      )
      g.commit(4, 2, g.T(2) + 1040)
      g.submit(other, g.T(2) + 1050, { refused: true })
      g.shown[0]?.push(other.bytes)
      g.mark(2, 0, g.C(2) + 1)
      for (const q of ALL) g.reveal(q, 2, g.C(2) + 1000 + 10 * q)
      g.mark(2, 1, g.R(2) + 1)
      g.finish()
      return { game: g, files: [file(g, 'p1', g.fileOf(0), false), file(g, 'p2', g.fileOf(1), false)] }
    },
  },
  {
    name: 'equivocation-notary',
    item: '12',
    about:
      '§13.12 variant, §6.3: the notary receipts both of p5’s seq-3 envelopes, the second after the mark of C_2: fault two-at-place (and seq-skipped) at the higher index; tick 1 final below it; stalled at 2 (notary fault)',
    build: () => {
      const g = new VectorGame('equivocation-notary')
      g.register()
      g.tick(1)
      for (const q of [0, 1, 2, 3]) g.commit(q, 2, g.T(2) + 1000 + 10 * q)
      const salt = saltOf(g.genesis.game, 4, g.seeds[4] ?? new Uint8Array(32), 2)
      const other = g.sign(
        4,
        [{ type: 'commit', tick: 2, commitment: commitmentOf(g.genesis.game, 4, 2, salt, 'bid 5') }],
        { keepTip: true },
      )
      g.commit(4, 2, g.T(2) + 1040)
      g.mark(2, 0, g.C(2) + 1)
      g.forging = true
      g.submit(other, g.C(2) + 5)
      for (const q of ALL) g.reveal(q, 2, g.C(2) + 1000 + 10 * q)
      g.mark(2, 1, g.R(2) + 1)
      g.finish()
      return { game: g, files: [file(g, 'p1', g.fileOf(0))] }
    },
  },
  {
    name: 'conviction-beyond-fault',
    item: '14',
    about:
      '§7.6 rule 2: p5’s tick-1 reveal deposit has wrap(1) garbage and p1 is away through F_1, so the reveal stands; the game ends at tick 2 (final); the notary then back-dates a mark (time-decreasing, mark-early at its index) and receipts p1’s complaint after it: the decided chain stops below the fault, the end is complete there with the fault named, and the complaint beyond it still convicts p5 (never counted)',
    // p1 never held p5's reveal (its wrap was garbage and its complaint came late): its file alone
    // is a gap at 1 until a relay, as in garbled-wrap-late; the others' files decide as merged.
    honest: [1, 2, 3],
    build: () => {
      const { g, target } = lateComplaintGame('conviction-beyond-fault')
      g.forge({ kind: 'mark', t: 3, cut: 1 }, g.C(3) - 1)
      g.complain(0, target, g.C(3) + 10)
      return { game: g, files: [file(g, 'p2', g.fileOf(1))] }
    },
  },
  {
    name: 'conviction-beyond-fork',
    item: '14',
    about:
      '§7.6 rule 2, §6.3 item 3: as conviction-beyond-fault, but the notary forks its log at the mark of C_3 (a second mark at that index: two-at-index there) and receipts p1’s complaint on the second branch, off the chain: the decided chain stops below the fork (tick 2 only provisional there: stalled at 2, notary fault), and the complaint, judged off the chain, still convicts p5 (never counted)',
    honest: [1, 2, 3],
    build: () => {
      const { g, target } = lateComplaintGame('conviction-beyond-fork')
      // A second receipt at the index of the last, on the same prev; the complaint follows it.
      g.log.push(g.forge({ kind: 'mark', t: 3, cut: 1 }, g.R(3) + 1, { index: g.log.length - 1, on: g.log }))
      g.complain(0, target, g.R(3) + 10)
      return { game: g, files: [file(g, 'p2', g.fileOf(1))] }
    },
  },
  {
    name: 'notary-back-dating-a',
    item: '14',
    about:
      '§13.14 (a): after the mark of C_2 (time C_2 + 2), the notary appends p5’s commitment with time C_2 − 1: time-decreasing at its index; the decided chain ends at the mark; tick 1 final; stalled at 2',
    build: () => {
      const g = new VectorGame('notary-back-dating-a')
      g.register()
      g.tick(1)
      for (const q of [0, 1, 2, 3]) g.commit(q, 2, g.T(2) + 1000 + 10 * q)
      g.mark(2, 0, g.C(2) + 2)
      g.forging = true
      const e = g.sign(4, [g.commitPart(4, 2)])
      const s = g.submission({ bytes: e.bytes, hash: e.hash, author: 4, seq: e.envelope.seq })
      g.forge({ kind: 'envelope', header: s.header }, g.C(2) - 1)
      g.deposits.set(g.log.length - 1, { header: s.header, deposit: s.deposit })
      return { game: g, files: [file(g, 'p1', g.fileOf(0))] }
    },
  },
  {
    name: 'notary-back-dating-b',
    item: '14',
    about:
      '§13.14 (b), tick 1: the notary signs a second branch at the index of the mark of C_1 holding p5’s commitment at C_1 − 1, shown to p3, while p1 holds the mark branch: each file alone decides its branch (p5 missing, or committed); merged: two-at-index there, stalled at 1, p5’s commitment never counts',
    honest: [],
    build: () => {
      const g = new VectorGame('notary-back-dating-b')
      g.register()
      for (const q of [0, 1, 2, 3]) g.commit(q, 1, g.T(1) + 1000 + 10 * q)
      const k = g.log.length
      g.mark(1, 0, g.C(1) + 2)
      for (const q of [0, 1, 2, 3]) g.reveal(q, 1, g.C(1) + 1000 + 10 * q)
      g.mark(1, 1, g.R(1) + 1)
      g.tick(2, { commit: [0, 1, 2, 3] })
      g.finish()
      // Branch B: the same receipts from k on, with p5's back-dated commitment first and its reveal.
      const branch = g.log.slice(0, k)
      const extra: Uint8Array[] = []
      const put = (body: ReceiptBody<number>, time: number): void => {
        branch.push(g.forge(body, time, { index: branch.length, on: branch }))
      }
      const c5 = g.sign(4, [g.commitPart(4, 1)])
      const r5 = g.sign(4, [g.revealPart(4, 1)])
      extra.push(c5.bytes, r5.bytes)
      const sub = (e: typeof c5) =>
        g.submission({ bytes: e.bytes, hash: e.hash, author: 4, seq: e.envelope.seq }).header
      put({ kind: 'envelope', header: sub(c5) }, g.C(1) - 1)
      for (const x of g.log.slice(k)) {
        put(bodyOf(x), timeOf(x))
        if (timeOf(x) === g.C(1) + 1030) put({ kind: 'envelope', header: sub(r5) }, g.C(1) + 1040)
      }
      const others = g.fileOf(2).filter((x) => x[0] !== 0x84)
      return {
        game: g,
        files: [file(g, 'p1', g.fileOf(0), false), file(g, 'p3', [...others, ...extra, ...branch], false)],
      }
    },
  },
  {
    name: 'mark-early',
    item: '16',
    about: '§13.16, §6.3: a mark of C_1 with time C_1: fault mark-early at its index; stalled at 1',
    build: () => {
      const g = new VectorGame('mark-early')
      g.register()
      for (const q of ALL) g.commit(q, 1, g.T(1) + 1000 + 10 * q)
      g.forging = true
      g.mark(1, 0, g.C(1))
      return { game: g, files: [file(g, 'p1', g.fileOf(0))] }
    },
  },
  {
    name: 'two-marks',
    item: '16',
    about: '§13.16, §6.3: two marks of (1, cut 0): fault two-marks at the higher index; stalled at 1',
    build: () => {
      const g = new VectorGame('two-marks')
      g.register()
      for (const q of ALL) g.commit(q, 1, g.T(1) + 1000 + 10 * q)
      g.mark(1, 0, g.C(1) + 1)
      g.forging = true
      g.mark(1, 0, g.C(1) + 2)
      return { game: g, files: [file(g, 'p1', g.fileOf(0))] }
    },
  },
  {
    name: 'receipt-invalid',
    item: '16',
    about:
      '§13.16, §6.3 item 4: the notary signs a mark of C_1 whose t is 0 (it does not decode): fault receipt-invalid at its index, not a silent stop; stalled at 1',
    build: () => {
      const g = new VectorGame('receipt-invalid')
      g.register()
      for (const q of ALL) g.commit(q, 1, g.T(1) + 1000 + 10 * q)
      g.forgeEdited({ kind: 'mark', t: 1, cut: 0 }, g.C(1) + 1, markWithTickZero)
      return { game: g, files: [file(g, 'p1', g.fileOf(0))] }
    },
  },
  {
    name: 'receipt-invalid-header',
    item: '16',
    about:
      '§13.16, §6.3 item 4: the notary receipts a header whose player signature does not hold (p2’s seq-1 header, its last byte changed): fault receipt-invalid at its index; stalled at 1',
    build: () => {
      const g = new VectorGame('receipt-invalid-header')
      g.register()
      for (const q of ALL) g.commit(q, 1, g.T(1) + 1000 + 10 * q)
      const header = g.deposits.get(2)?.header
      if (header === undefined) throw new Error('receipt-invalid-header: no receipt 2')
      g.forgeEdited({ kind: 'envelope', header }, g.C(1) - 1, (u) => {
        const out = u.slice()
        out[out.length - 1] = (out[out.length - 1] ?? 0) ^ 1
        return out
      })
      return { game: g, files: [file(g, 'p1', g.fileOf(0))] }
    },
  },
  {
    name: 'header-invalid',
    item: '16',
    about:
      '§13.16, §6.3 item 4, §5.1: the notary receipts p3’s tick-1 reveal under a header with the stop flag (refusal 27): fault header-invalid at its index; stalled at 1',
    build: () => {
      const g = new VectorGame('header-invalid')
      g.register()
      for (const q of ALL) g.commit(q, 1, g.T(1) + 1000 + 10 * q)
      g.mark(1, 0, g.C(1) + 1)
      for (const q of [0, 1, 3, 4]) g.reveal(q, 1, g.C(1) + 1000 + 10 * q)
      const reveal = g.sign(2, [g.revealPart(2, 1)])
      g.forging = true
      g.submit(reveal, g.C(1) + 1050, { flags: 1 })
      g.mark(1, 1, g.R(1) + 1)
      return { game: g, files: [file(g, 'p1', g.fileOf(0))] }
    },
  },
  {
    name: 'genesis-late',
    item: '16',
    about:
      '§13.16, §6.3, §3: the notary registers the game after G_1 (refusal 25 for an honest one): fault genesis-invalid at 0; not started',
    build: () => {
      const g = new VectorGame('genesis-late')
      g.forge({ kind: 'genesis-body', body: g.body }, g.C(1) - 100)
      for (const q of ALL) g.commit(q, 1, g.C(1) - 50 + q)
      return { game: g, files: [file(g, 'p1', g.fileOf(0))] }
    },
  },
  {
    name: 'mark-range',
    item: '16',
    about:
      '§13.16, §6.3: a mark with t = maxTicks + 2 after tick 1 passed R_1: fault mark-range at its index; tick 1 provisional below it; stalled at 1',
    build: () => {
      const g = new VectorGame('mark-range')
      g.register()
      g.tick(1)
      g.forging = true
      g.mark(4, 0, g.R(1) + 2)
      return { game: g, files: [file(g, 'p1', g.fileOf(0))] }
    },
  },
  {
    name: 'seq-skipped',
    item: '17',
    about:
      '§13.17, §6.3: the notary receipts p3 at seq 3 with no receipt at seq 2 (p3’s seq-2 envelope never submitted): fault seq-skipped at its index; stalled at 1',
    build: () => {
      const g = new VectorGame('seq-skipped')
      g.register()
      for (const q of ALL) g.commit(q, 1, g.T(1) + 1000 + 10 * q)
      g.mark(1, 0, g.C(1) + 1)
      for (const q of [0, 1, 3, 4]) g.reveal(q, 1, g.C(1) + 1000 + 10 * q)
      g.sign(2, [g.revealPart(2, 1)])
      const skipped = g.sign(2, [{ type: 'stop', tick: 1, reason: 'stalled' }])
      g.forging = true
      g.submit(skipped, g.C(1) + 1050)
      g.mark(1, 1, g.R(1) + 1)
      return { game: g, files: [file(g, 'p1', g.fileOf(0))] }
    },
  },
  ...keylessSpecs(),
  {
    name: 'seed-early',
    item: '20',
    about:
      '§13.20, §4.2 (w5): maxTicks 3; p4 submits its seed in tick 2 before committing: no offence; p4 missing in ticks 2 and 3',
    build: () => {
      const g = new VectorGame('seed-early', { maxTicks: 3 })
      g.register()
      g.tick(1)
      g.submit(g.sign(3, [g.seedPart(3)]), g.T(2) + 500)
      g.tick(2, { commit: [0, 1, 2, 4] })
      g.tick(3, { commit: [0, 1, 2, 4] })
      g.finish()
      return { game: g, files: [file(g, 'p1', g.fileOf(0))] }
    },
  },
  {
    name: 'seed-then-commit',
    item: '20',
    about:
      '§13.20 variant, §4.2 (w3): p4 commits for tick 3 after its seed (receipted in tick 2): (w3) “any envelope after the one holding seed”, counted in tick 3, p4 equivocated and removed',
    build: () => {
      const g = new VectorGame('seed-then-commit', { maxTicks: 3 })
      g.register()
      g.tick(1)
      g.submit(g.sign(3, [g.seedPart(3)]), g.T(2) + 500)
      g.tick(2, { commit: [0, 1, 2, 4] })
      g.tick(3)
      g.finish()
      return { game: g, files: [file(g, 'p1', g.fileOf(0))] }
    },
  },
  {
    name: 'seed-wrong',
    item: '20',
    about:
      '§13.20 variant, §4.2 (w5): after the end, p4’s seed does not give the salts of its reveals: (w5), convicted, never counted (tick maxTicks + 1); p4 cannot win',
    build: () => {
      const g = new VectorGame('seed-wrong')
      g.register()
      g.tick(1)
      g.tick(2)
      g.finish()
      const m = 2
      for (const q of ALL) {
        const part = q === 3 ? { type: 'seed' as const, seed: fixed('not p4’s seed') } : g.seedPart(q)
        g.submit(g.sign(q, [part]), g.C(m + 1) + 1000 + 10 * q, { end: true })
      }
      g.seal(g.C(m + 1) + 2000)
      return { game: g, files: [file(g, 'p1', g.fileOf(0))] }
    },
  },
  {
    name: 'outage',
    item: '21',
    honest: [0, 1, 2],
    about:
      '§13.21, §7.6 rule 4: the notary is silent from C_2 + 1 (tick-2 commitments receipted, no mark); p1..p3 sign stop(2) after R_2 + L and exchange them over the mesh: stalled (outage, provisional) at 2; no seed revealed',
    build: () => {
      const g = outageGame('outage')
      return { game: g, files: [file(g, 'p1', g.fileOf(0))] }
    },
  },
  {
    name: 'outage-lifted',
    item: '21',
    about:
      '§13.21 variant: the notary returns and marks R_2 (at R_2 + L + 5 s, past F_2): the outage is lifted; tick 2 decided final: every commitment is in, no reveal is (none could be receipted), so every player is withheld (S-62); complete',
    build: () => {
      const g = outageGame('outage-lifted')
      const before = g.fileOf(0)
      g.mark(2, 1, g.R(2) + g.L + 5000)
      return { game: g, files: [file(g, 'p1', [...before, g.log.at(-1) ?? new Uint8Array()])] }
    },
  },
  {
    name: 'broken-chain',
    item: '13',
    about:
      '§13.13, §4.2 (w4): p5’s receipted commitment at seq 3 names as prev an unreceipted envelope: (w4) counted in tick 2; p5 equivocated',
    build: () => {
      const g = new VectorGame('broken-chain')
      g.register()
      g.tick(1)
      const hidden = g.sign(4, [{ type: 'stop', tick: 2, reason: 'leaving' }], { keepTip: true })
      g.own[4]?.pop()
      for (const q of [0, 1, 2, 3]) g.commit(q, 2, g.T(2) + 1000 + 10 * q)
      g.submit(g.sign(4, [g.commitPart(4, 2)], { prev: hidden.hash }), g.T(2) + 1040)
      g.mark(2, 0, g.C(2) + 1)
      for (const q of ALL) g.reveal(q, 2, g.C(2) + 1000 + 10 * q)
      g.mark(2, 1, g.R(2) + 1)
      g.finish()
      return { game: g, files: [file(g, 'p1', g.fileOf(0))] }
    },
  },
  {
    name: 'unused-machinery',
    item: '19',
    about:
      '§13.19, §4.2 (w1): p4’s commitment carries a head, its reveal a seal(1) part: two (w1) items, counted in tick 1; p4 equivocated, removed',
    build: () => {
      const g = new VectorGame('unused-machinery')
      g.register()
      for (const q of ALL) {
        const heads = q === 3 ? [{ author: 0, seq: 0, hash: g.accepts[0]?.hash ?? new Uint8Array(32) }] : []
        g.submit(g.sign(q, [g.commitPart(q, 1)], { heads }), g.T(1) + 1000 + 10 * q)
      }
      g.mark(1, 0, g.C(1) + 1)
      for (const q of ALL) {
        const parts = q === 3 ? [{ type: 'seal' as const, tick: 1 }, g.revealPart(q, 1)] : [g.revealPart(q, 1)]
        g.submit(g.sign(q, parts), g.C(1) + 1000 + 10 * q)
      }
      g.mark(1, 1, g.R(1) + 1)
      g.tick(2, { commit: [0, 1, 2, 4] })
      g.finish()
      return { game: g, files: [file(g, 'p1', g.fileOf(0))] }
    },
  },
  {
    name: 'garbled-all-wraps',
    item: '9',
    about:
      '§13.9: every wrap of p5’s tick-1 commitment is garbage; p1 complains before R_1: void, p5 equivocated in 1 and removed; no file holds or needs the content',
    build: () => {
      const g = new VectorGame('garbled-all-wraps')
      g.register()
      for (const q of [0, 1, 2, 3]) g.commit(q, 1, g.T(1) + 1000 + 10 * q)
      const target = g.submit(g.sign(4, [g.commitPart(4, 1)]), g.T(1) + 1040, { garble: ALL })
      g.mark(1, 0, g.C(1) + 1)
      for (const q of [0, 1, 2, 3]) g.reveal(q, 1, g.C(1) + 1000 + 10 * q)
      g.complain(0, target, g.C(1) + 2000)
      g.mark(1, 1, g.R(1) + 1)
      g.tick(2, { commit: [0, 1, 2, 3] })
      g.finish()
      return { game: g, files: [file(g, 'p1', g.fileOf(0))] }
    },
  },
  {
    name: 'garbled-beyond-cap',
    item: '9',
    about:
      '§13.9, §7.3, §7.4: p5 garbles every wrap of three tick-1 envelopes, one more than COMPLAINTS_PER_PAIR lets each player complain of; every honest player complains of the first two: both void, p5 equivocated in 1 and removed; the third, which nobody can open, complain of or have relayed, is no gap (its author’s content cannot change S_1): the game goes on and ends complete',
    honest: [0, 1, 2, 3],
    build: () => {
      const g = new VectorGame('garbled-beyond-cap')
      g.register()
      for (const q of [0, 1, 2, 3]) g.commit(q, 1, g.T(1) + 1000 + 10 * q)
      const first = g.submit(g.sign(4, [g.commitPart(4, 1)]), g.T(1) + 1040, { garble: ALL })
      const second = g.submit(g.sign(4, [g.commitPart(4, 1)]), g.T(1) + 1050, { garble: ALL })
      g.mark(1, 0, g.C(1) + 1)
      for (const q of [0, 1, 2, 3]) g.reveal(q, 1, g.C(1) + 1000 + 10 * q)
      g.submit(g.sign(4, [g.revealPart(4, 1)]), g.C(1) + 1040, { garble: ALL })
      for (const q of [0, 1, 2, 3]) {
        g.complain(q, first, g.C(1) + 2000 + 10 * q)
        g.complain(q, second, g.C(1) + 2005 + 10 * q)
      }
      g.mark(1, 1, g.R(1) + 1)
      g.tick(2, { commit: [0, 1, 2, 3] })
      g.finish()
      return { game: g, files: [0, 1, 2, 3].map((q) => file(g, `p${q + 1}`, g.fileOf(q))) }
    },
  },
  {
    name: 'wrong-envelope-in-deposit',
    item: '10',
    about:
      '§13.10, §5.2 step 5: p5’s reveal deposit opens to its seq-1 commitment (a valid envelope of another seq): the complaint of p1 holds, the reveal is void, p5 equivocated in 1',
    build: () => {
      const g = new VectorGame('wrong-envelope-in-deposit')
      g.register()
      for (const q of ALL) g.commit(q, 1, g.T(1) + 1000 + 10 * q)
      g.mark(1, 0, g.C(1) + 1)
      for (const q of [0, 1, 2, 3]) g.reveal(q, 1, g.C(1) + 1000 + 10 * q)
      const first = g.own[4]?.[1]?.bytes ?? new Uint8Array()
      const target = g.submit(g.sign(4, [g.revealPart(4, 1)]), g.C(1) + 1040, { content: first })
      g.mark(1, 1, g.R(1) + 1)
      g.complain(0, target, g.R(1) + 5)
      g.tick(2, { commit: [0, 1, 2, 3] })
      g.finish()
      return { game: g, files: [file(g, 'p1', g.fileOf(0))] }
    },
  },
  {
    name: 'undecodable-body',
    item: '10',
    about:
      '§13.10 variant, §4.2 (w2): p5’s reveal at seq 2 has a matching header and a body that does not decode: p1’s complaint is refused (17, complaint.opens); violation (w2) counted in tick 1; p5 equivocated',
    build: () => {
      const g = new VectorGame('undecodable-body')
      g.register()
      for (const q of ALL) g.commit(q, 1, g.T(1) + 1000 + 10 * q)
      g.mark(1, 0, g.C(1) + 1)
      for (const q of [0, 1, 2, 3]) g.reveal(q, 1, g.C(1) + 1000 + 10 * q)
      const raw = g.signRaw(4, Uint8Array.from([0, 1, 0xee, 0, 0, 0]))
      const target = g.submit(raw, g.C(1) + 1040)
      g.mark(1, 1, g.R(1) + 1)
      g.complain(0, target, g.R(1) + 5)
      g.tick(2, { commit: [0, 1, 2, 3] })
      g.finish()
      return { game: g, files: [file(g, 'p1', g.fileOf(0))] }
    },
  },
  {
    name: 'notary-drops-one-player',
    item: '15',
    about:
      '§13.15: maxTicks 3; the notary receipts nothing of p2 for three ticks (p2 signs each commitment; none is receipted): p2 missing three ticks, removed by S-81; no fault, no offence; p2’s file lists its unreceipted envelopes (a hint, not evidence)',
    honest: [0, 2, 3, 4],
    build: () => {
      const g = new VectorGame('notary-drops-one-player', { maxTicks: 3 })
      g.register()
      for (const t of [1, 2, 3]) {
        g.sign(1, [g.commitPart(1, t)])
        g.tick(t, { commit: [0, 2, 3, 4] })
      }
      g.finish()
      return { game: g, files: [file(g, 'p1', g.fileOf(0)), file(g, 'p2', g.fileOf(1))] }
    },
  },
  {
    name: 'dishonest-majority',
    item: '22',
    about:
      '§13.22: p3..p5 commit, then vote stop(1) over the mesh and withhold their reveals while the notary works: p1 and p2 are never excluded; files with the receipts past R_1 read on (complete); a file of p1 cut before them reads the provisional outage',
    honest: [0, 1],
    build: () => {
      const g = new VectorGame('dishonest-majority')
      g.register()
      for (const q of ALL) g.commit(q, 1, g.T(1) + 1000 + 10 * q)
      for (const q of [2, 3, 4]) {
        const v = g.sign(q, [{ type: 'stop', tick: 1, reason: 'stalled' }])
        g.shown[0]?.push(v.bytes)
        g.shown[1]?.push(v.bytes)
      }
      g.mark(1, 0, g.C(1) + 1)
      for (const q of [0, 1]) g.reveal(q, 1, g.C(1) + 1000 + 10 * q)
      const cut = g.log.length
      g.mark(1, 1, g.R(1) + 1)
      g.tick(2, { commit: [0, 1] })
      g.finish()
      return {
        game: g,
        files: [
          file(g, 'p1', g.fileOf(0)),
          file(g, 'p1', g.fileOf(0, { receipts: g.log.slice(0, cut) }), false, '-before-R1'),
        ],
      }
    },
  },
  {
    name: 'void-deferral',
    item: '23',
    about:
      '§13.23, §11: p5 garbles wrap(3) (p4’s) of its reveal only; p4 complains at F_1 − 1 s, after all reveals: void, p5 equivocated in 1, removed',
    honest: [0, 1, 2, 3],
    build: () => {
      const g = new VectorGame('void-deferral')
      g.register()
      for (const q of ALL) g.commit(q, 1, g.T(1) + 1000 + 10 * q)
      g.mark(1, 0, g.C(1) + 1)
      for (const q of [0, 1, 2, 3]) g.reveal(q, 1, g.C(1) + 1000 + 10 * q)
      const target = g.submit(g.sign(4, [g.revealPart(4, 1)]), g.C(1) + 1040, { garble: [3] })
      g.mark(1, 1, g.R(1) + 1)
      for (const q of ALL) g.commit(q, 2, g.T(2) + 1000 + 10 * q)
      g.complain(3, target, g.F(1) - 1000)
      g.mark(2, 0, g.C(2) + 1)
      for (const q of [0, 1, 2, 3]) g.reveal(q, 2, g.C(2) + 1000 + 10 * q)
      g.mark(2, 1, g.R(2) + 1)
      g.finish()
      return { game: g, files: [file(g, 'p1', g.fileOf(0)), file(g, 'p4', g.fileOf(3))] }
    },
  },
]

const KEYLESS: Record<string, string> = {
  a: 'one byte of the receipt at index 7 of honest-5-p1 changed: the notary signature fails, set aside; the chain stops at a gap; tick 1 open',
  b: 'the last 14 receipts of honest-5-p1 deleted: tick 1 provisional, tick 2 open, never a different state',
  c: 'the complaint receipt deleted from garbled-wrap-in-window-p1: a gap; tick 1 provisional as read at R_1 (p5’s reveal counted), never final',
  d: 'a byte of the deposit inside the complaint receipt of garbled-wrap-in-window-p1 changed: the notary signature fails, set aside; as (c)',
  e: 'the signature bytes of p3’s tick-1 reveal changed in honest-5-p1: same identity, still authenticated by its receipt; decides as honest-5',
  f: 'a byte of p3’s tick-1 reveal changed in honest-5-p1: another hash, unauthenticated; its receipt’s tick (1) a gap',
}

function keylessSpecs(): Spec[] {
  return Object.entries(KEYLESS).map(([k, about]) => ({
    name: `keyless-${k}`,
    item: '18',
    about: `§13.18 (${k}), key-less edit: ${about}. Never an offence, never a fault, never a different final decision`,
    honest: [],
    build: () => {
      const g = honestGame()
      const p1 = g.fileOf(0)
      const { g: gg, complaint } = garbledGame()
      const q1 = gg.fileOf(0)
      const reveal = g.own[2]?.[2]?.bytes ?? new Uint8Array()
      const inFile = p1.find((x) => Buffer.compare(Buffer.from(x), Buffer.from(reveal)) === 0) ?? new Uint8Array()
      const flip = (at: number) => (x: Uint8Array) => {
        const i = at < 0 ? x.length + at : at
        x[i] = (x[i] ?? 0) ^ 1
        return x
      }
      const items: Record<string, () => { base: VectorGame; items: Uint8Array[] }> = {
        a: () => ({ base: g, items: edit(p1, g.log[7] ?? new Uint8Array(), flip(100)) }),
        b: () => ({ base: g, items: p1.slice(0, p1.length - 14) }),
        c: () => ({ base: gg, items: edit(q1, gg.log[complaint] ?? new Uint8Array(), () => undefined) }),
        d: () => ({ base: gg, items: edit(q1, gg.log[complaint] ?? new Uint8Array(), flip(-200)) }),
        e: () => ({ base: g, items: edit(p1, inFile, flip(-1)) }),
        f: () => ({ base: g, items: edit(p1, inFile, flip(-65)) }),
      }
      const made = items[k]?.()
      if (made === undefined) throw new Error(k)
      return {
        game: made.base,
        files: [
          { name: `keyless-${k}.transcript`, holder: `p1 (${made.base.name}, edited)`, items: made.items, same: true },
        ],
      }
    },
  }))
}

function outageGame(name: string): VectorGame {
  const g = new VectorGame(name)
  g.register()
  g.tick(1)
  for (const q of ALL) g.commit(q, 2, g.T(2) + 1000 + 10 * q)
  // Silent from C_2 + 1: no mark, no receipt. p1..p3 vote after R_2 + L over the mesh.
  const votes = [0, 1, 2].map((q) => g.sign(q, [{ type: 'stop', tick: 2, reason: 'stalled' }]))
  for (const q of [0, 1, 2]) for (const v of votes) if (v.envelope.author !== q) g.shown[q]?.push(v.bytes)
  return g
}

export function vectors(): Vector[] {
  return specs().map((s) => {
    const { game, files, extra } = s.build()
    return {
      name: s.name,
      item: s.item,
      about: s.about,
      game,
      files,
      honest: s.honest ?? ALL.filter((q) => q !== 4 || s.name === 'honest-5'),
      refusals: game.refusals,
      ...(extra === undefined ? {} : { extra }),
    }
  })
}

/** §13.1: bytes and hashes of the honest game's first deposit, its header and receipts; a complaint and a relay. */
export function cryptoVector(): Record<string, unknown> {
  const g = honestGame()
  const index = 1
  const { header, deposit } = g.depositOf(index)
  const envelope = g.own[0]?.[1]
  if (envelope === undefined) throw new Error('no envelope')
  const label = `spaaace-witnessed-vectors/${g.name}/0`
  const r = freshDepositRandomnessW(seededSecrets(label), g.n)
  const place = { game: g.genesis.game, sender: 0, seq: 1, envelopeHash: envelope.hash }
  const ok = <T>(x: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
    if (!x.ok) throw new Error(x.error.message)
    return x.value
  }
  const { g: gg, complaint } = garbledGame()
  const cr = ok(decodeReceipt(gg.log[complaint] ?? new Uint8Array(), SPAAACE_LAYOUT))
  if (cr.kind !== 'complaint') throw new Error('not a complaint')
  const c = cr.complaint
  const target = gg.depositOf(c.index)
  const enc = target.deposit.subarray(80 * c.sender, 80 * c.sender + 32)
  const proof = ok(proveDh(SPAAACE_NOTARY_DOMAIN, gg.keys[c.sender]?.secretKey ?? new Uint8Array(), enc))
  const late = vectorsByName('garbled-wrap-late')
  const mark = g.log.findIndex((x) => bodyOf(x).kind === 'mark')
  const rh = (x: Uint8Array | undefined): string => toHex(receiptHash(SPAAACE_NOTARY_DOMAIN, x ?? new Uint8Array()))
  return {
    about:
      'SPAAACE-WITNESSED §13.1, §5.2, §5.3, §5.4, §6.1, §12: every value in hex; the game is honest-5 (players p1..p5 = roster 0..4, keys from the peers’ fixed pool), the notary key NOTARY_W',
    game: toHex(g.genesis.game),
    notaryKey: toHex(NOTARY_W.publicKey),
    roster: g.rosterKeys.map((k) => ({ ed25519Public: toHex(k), x25519Public: toHex(ok(x25519PublicKey(k))) })),
    deposit: {
      inputs: {
        author: 0,
        seq: 1,
        envelope: toHex(envelope.bytes),
        envelopeHash: toHex(envelope.hash),
        paddingFloor: paddingFloorW(envelope.bytes),
        contentKey: toHex(r.contentKey),
        ephemeral: r.ephemeral.map(toHex),
      },
      info: g.rosterKeys.map((_, i) => toHex(depositInfo(SPAAACE_NOTARY_DOMAIN, place, i))),
      enc: g.rosterKeys.map((_, i) => toHex(deposit.subarray(80 * i, 80 * i + 32))),
      wraps: g.rosterKeys.map((_, i) => toHex(deposit.subarray(80 * i, 80 * i + 80))),
      padded: toHex(pad(envelope.bytes, paddingFloorW(envelope.bytes))),
      deposit: toHex(deposit),
      depositBytes: deposit.length,
      depositHash: toHex(header.depositHash),
    },
    header: {
      unsigned: toHex(encodeUnsignedHeader(header, SPAAACE_LAYOUT)),
      header: toHex(g.submission({ bytes: envelope.bytes, hash: envelope.hash, author: 0, seq: 1 }).bytes),
    },
    receipts: {
      genesis: {
        time: timeOf(g.log[0] ?? new Uint8Array()),
        receipt: toHex(g.log[0] ?? new Uint8Array()),
        receiptHash: rh(g.log[0]),
      },
      envelope: {
        index,
        time: timeOf(g.log[index] ?? new Uint8Array()),
        receipt: toHex(g.log[index] ?? new Uint8Array()),
        receiptHash: rh(g.log[index]),
      },
      mark: {
        index: mark,
        time: timeOf(g.log[mark] ?? new Uint8Array()),
        receipt: toHex(g.log[mark] ?? new Uint8Array()),
        receiptHash: rh(g.log[mark]),
      },
    },
    complaint: {
      about: 'garbled-wrap-in-window: p2 (roster 1) about p5’s reveal, whose wrap(1) is garbage; it holds',
      game: toHex(gg.genesis.game),
      index: c.index,
      complainant: c.sender,
      enc: toHex(enc),
      dhPointQ: toHex(proof.q),
      x25519Dh: toHex(proof.dh),
      proof: toHex(proof.proof),
      complaint: toHex(gg.complaintBytes(c.sender, c.index)),
      receipt: toHex(gg.log[complaint] ?? new Uint8Array()),
      receiptHash: rh(gg.log[complaint]),
    },
    relay: {
      about: 'garbled-wrap-late: p1 leaves p2 the content key of p5’s reveal (not a receipt, not evidence)',
      ...late,
    },
  }
}

function vectorsByName(name: string): Record<string, unknown> {
  const s = specs().find((x) => x.name === name)
  const v = s?.build()
  const relay = v?.extra?.['relay']
  if (relay === undefined) throw new Error('no relay')
  return { game: toHex(v?.game.genesis.game ?? new Uint8Array()), ...(relay as Record<string, unknown>) }
}
