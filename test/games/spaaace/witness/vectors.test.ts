/**
 * protocol/vectors/spaaace-witnessed/ (SPAAACE-WITNESSED §13) is exactly what the builder gives
 * (byte for byte), each stored file decides, read back through the transcript reader with every
 * signature checked, as its index says, alone and merged; the expectations of §13 hold on the
 * stored decisions (stated here from the spec, not from the code's output); every honest player's
 * file alone decides as all files merged (§13's preamble).
 * `UPDATE_VECTORS=1 npx vitest run test/games/spaaace/witness/vectors.test.ts` rewrites them.
 */
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { createHash } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { fromHex } from '../../../../src/core/commit/bytes.js'
import { core, cryptoVector, decideItems, decideTexts, summaryW, vectors } from './vectors.js'

const DIR = new URL('../../../../protocol/vectors/spaaace-witnessed/', import.meta.url)
const INDEX = new URL('index.json', DIR)

const built = vectors()
const texts = new Map<string, string>()
const index = {
  design:
    'protocol/SPAAACE-WITNESSED.md §6.3, §7, §13; players p1..p5 are roster indices 0..4; receipts signed by the notary key of crypto.notaryKey; times in ms on the notary clock',
  crypto: cryptoVector(),
  vectors: built.map((v) => {
    for (const f of v.files) texts.set(f.name, v.game.text(f.items))
    const merged = summaryW(
      decideItems(
        v.game.genesis,
        v.files.flatMap((f) => f.items),
      ),
    )
    return {
      name: v.name,
      item: v.item,
      about: v.about,
      files: v.files.map((f) => {
        const alone = v.files.length === 1 ? merged : summaryW(decideItems(v.game.genesis, f.items))
        const same = f.same ? core(alone) : alone
        return {
          name: f.name,
          holder: f.holder,
          alone: JSON.stringify(same) === JSON.stringify(f.same ? core(merged) : merged) ? 'as merged' : alone,
        }
      }),
      ...(v.refusals.length === 0 ? {} : { refusals: v.refusals }),
      ...(v.extra === undefined ? {} : { extra: v.extra }),
      decision: merged,
    }
  }),
}
/** JSON with two-space indents, arrays of numbers and strings on one line (the index stays small). */
const compact = (x: unknown): string =>
  JSON.stringify(x, null, 2).replace(
    /\[\s*((?:-?\d+|"[^"\n]*"|true|false|null)(?:,\s*(?:-?\d+|"[^"\n]*"|true|false|null))*)\s*\]/g,
    (_, items: string) => `[${items.replace(/,\s+/g, ', ')}]`,
  )
const content = `${compact(index)}\n`
if (process.env['UPDATE_VECTORS'] === '1') {
  rmSync(DIR, { recursive: true, force: true })
  mkdirSync(DIR, { recursive: true })
  for (const [name, text] of texts) writeFileSync(new URL(name, DIR), text)
  writeFileSync(INDEX, content)
}

type Summary = ReturnType<typeof summaryW> & {
  end: Record<string, unknown>
  ticks: { t: number; status: string; submissions: string[] | null; stateHash: string | null; active: number[] }[]
  offences: { player: number; kind: string; rule: string; tick: number | null; counted: number | null }[]
  faults: { kind: string; index: number }[]
  voids: number[]
  unreceipted: string[]
  unauthenticated: string[]
  decided: number
}
interface Stored {
  name: string
  files: { name: string; alone: 'as merged' | Summary }[]
  refusals?: { what: string; code: string }[]
  decision: Summary
}
const stored = JSON.parse(readFileSync(INDEX, 'utf8')) as { vectors: Stored[]; crypto: Record<string, unknown> }
const byName = new Map(stored.vectors.map((v) => [v.name, v]))
const get = (name: string): Summary => {
  const v = byName.get(name)
  if (v === undefined) throw new Error(`no vector ${name}`)
  return v.decision
}
const statuses = (s: Summary): string[] => s.ticks.map((t) => t.status)
const kinds = (s: Summary, t: number): string[] | null => s.ticks[t - 1]?.submissions ?? null
const offences = (s: Summary) => s.offences.map((o) => [o.player, o.rule, o.counted])
const NONE = { offences: [], faults: [], voids: [] }
const clean = (s: Summary): void => {
  expect({ offences: s.offences, faults: s.faults, voids: s.voids }).toEqual(NONE)
}
const O = ['orders', 'orders', 'orders', 'orders', 'orders']

describe('protocol/vectors/spaaace-witnessed/ (SPAAACE-WITNESSED §13)', () => {
  it('is exactly what the builder gives (UPDATE_VECTORS=1 rewrites it)', () => {
    expect(readFileSync(INDEX, 'utf8')).toBe(content)
    expect(readdirSync(DIR).sort()).toEqual([...texts.keys(), 'index.json'].sort())
    for (const [name, text] of texts) expect(readFileSync(new URL(name, DIR), 'utf8'), name).toBe(text)
  })

  it.each(stored.vectors.map((v) => [v.name, v] as const))(
    '%s: the stored files, read and authenticated, decide as the index says, merged and each alone',
    (_, v) => {
      const read = (name: string): string => readFileSync(new URL(name, DIR), 'utf8')
      expect(summaryW(decideTexts(v.files.map((f) => read(f.name))))).toEqual(v.decision)
      if (v.files.length === 1) return
      for (const f of v.files) {
        const alone = summaryW(decideTexts([read(f.name)]))
        if (f.alone === 'as merged') expect(core(alone), f.name).toEqual(core(v.decision))
        else expect(alone, f.name).toEqual(f.alone)
      }
    },
  )

  it.each(built.filter((v) => v.honest.length > 0).map((v) => [v.name, v] as const))(
    '%s: every honest player’s own file, alone, decides as all files merged (§13)',
    (_, v) => {
      const merged = core(
        summaryW(
          decideItems(
            v.game.genesis,
            v.files.flatMap((f) => f.items),
          ),
        ),
      )
      for (const q of v.honest)
        expect(core(summaryW(decideItems(v.game.genesis, v.game.fileOf(q)))), `p${q + 1}`).toEqual(merged)
    },
  )
})

describe('the expectations of SPAAACE-WITNESSED §13, on the stored decisions', () => {
  it('2 honest-5: every tick final, complete, every file the same state hashes', () => {
    const s = get('honest-5')
    clean(s)
    expect(statuses(s)).toEqual(['final', 'final'])
    expect(s.end).toMatchObject({ kind: 'complete', tick: 2, provisional: false })
    expect(kinds(s, 1)).toEqual(O)
    const v = byName.get('honest-5')
    for (const f of v?.files ?? []) if (f.alone !== 'as merged') expect(f.name).toMatch(/-N\./)
  })
  it('3 commit-after-cut: p3 missing; no offence', () => {
    const s = get('commit-after-cut')
    clean(s)
    expect(kinds(s, 1)).toEqual(['orders', 'orders', 'missing', 'orders', 'orders'])
  })
  it('4 reveal-after-cut: p3 withheld (S-62)', () => {
    const s = get('reveal-after-cut')
    clean(s)
    expect(kinds(s, 1)).toEqual(['orders', 'orders', 'withheld', 'orders', 'orders'])
  })
  it('5 reveal-before-mark: p2’s early reveal is in and counted', () => {
    const s = get('reveal-before-mark')
    clean(s)
    expect(kinds(s, 1)).toEqual(O)
  })
  it('6 last-check-in: ticks 3–5 final with everyone missing; removed at 5; no winner', () => {
    const s = get('last-check-in')
    clean(s)
    expect(statuses(s)).toEqual(['final', 'final', 'final', 'final', 'final'])
    for (const t of [3, 4, 5]) expect(kinds(s, t)).toEqual(Array(5).fill('missing'))
    expect(s.end).toMatchObject({ kind: 'complete', tick: 5, winners: [], provisional: false })
  })
  it('7 garbled-wrap-in-window: void, p5 equivocated in 1 and removed; the file cut at R_1 was provisional and differed', () => {
    const s = get('garbled-wrap-in-window')
    expect(s.faults).toEqual([])
    expect(s.voids).toHaveLength(1)
    expect(offences(s)).toEqual([[4, '§7.3 false-deposit', 1]])
    expect(kinds(s, 1)?.[4]).toBe('equivocated')
    expect(s.ticks[1]?.active).toEqual([0, 1, 2, 3])
    const early = byName.get('garbled-wrap-in-window')?.files.find((f) => f.name.includes('-at-R1'))?.alone
    if (early === undefined || early === 'as merged') throw new Error('no early file')
    expect(statuses(early)[0]).toBe('provisional')
    expect(kinds(early, 1)?.[4]).toBe('orders')
    expect(early.ticks[0]?.stateHash).not.toBe(s.ticks[0]?.stateHash)
  })
  it('8 garbled-wrap-late: the reveal stands, p5 counted in 2; p2 without the relay is a gap at 1', () => {
    const s = get('garbled-wrap-late')
    expect(s.voids).toEqual([])
    expect(offences(s)).toEqual([[4, '§7.3 false-deposit', 2]])
    expect(kinds(s, 1)?.[4]).toBe('orders')
    expect(kinds(s, 2)?.[4]).toBe('equivocated')
    const before = byName.get('garbled-wrap-late')?.files.find((f) => f.name.includes('before-relay'))?.alone
    if (before === undefined || before === 'as merged') throw new Error('no file')
    expect(statuses(before)).toEqual(['gap'])
  })
  it('9 garbled-all-wraps: void, p5 equivocated in 1', () => {
    const s = get('garbled-all-wraps')
    expect(s.voids).toHaveLength(1)
    expect(offences(s)).toEqual([[4, '§7.3 false-deposit', 1]])
    expect(kinds(s, 1)?.[4]).toBe('equivocated')
  })
  it('10 wrong-envelope-in-deposit: the complaint holds, void; variant: refused (17), (w2) counted', () => {
    const s = get('wrong-envelope-in-deposit')
    expect(s.voids).toHaveLength(1)
    expect(offences(s)).toEqual([[4, '§7.3 false-deposit', 1]])
    const u = get('undecodable-body')
    expect(byName.get('undecodable-body')?.refusals?.map((r) => r.code)).toEqual(['complaint-invalid'])
    expect(u.voids).toEqual([])
    expect(offences(u)).toEqual([[4, '§4.2 (w2)', 1]])
    expect(kinds(u, 1)?.[4]).toBe('equivocated')
  })
  it('11 false-complaint: refused (17), nobody convicted; colluding: complaint-invalid, stalled (notary fault)', () => {
    expect(byName.get('false-complaint')?.refusals?.map((r) => r.code)).toEqual(['complaint-invalid'])
    clean(get('false-complaint'))
    const c = get('false-complaint-colluding')
    expect(c.offences).toEqual([])
    expect(c.faults.map((f) => f.kind)).toEqual(['complaint-invalid'])
    expect(c.end).toMatchObject({ kind: 'stalled', cause: 'notary-fault', tick: 1 })
  })
  it('12 equivocation-at-one-place: refused 5; the receipted one counts; fork never counted; variant two-at-place', () => {
    expect(byName.get('equivocation-at-one-place')?.refusals?.map((r) => r.code)).toEqual(['place-taken'])
    const s = get('equivocation-at-one-place')
    expect(offences(s)).toEqual([[4, '§7.3 fork', null]])
    expect(kinds(s, 2)?.[4]).toBe('orders')
    expect(s.end).toMatchObject({ kind: 'complete' })
    expect((s.end as { winners: number[] }).winners).not.toContain(4)
    const n = get('equivocation-notary')
    expect(n.faults[0]).toMatchObject({ kind: 'two-at-place' })
    expect(n.end).toMatchObject({ kind: 'stalled', cause: 'notary-fault', tick: 2 })
  })
  it('13 broken-chain: (w4) counted, p5 equivocated', () => {
    const s = get('broken-chain')
    expect(offences(s)).toEqual([[4, '§4.2 (w4)', 2]])
    expect(kinds(s, 2)?.[4]).toBe('equivocated')
  })
  it('14 notary-back-dating: (a) time-decreasing, stalled at 2; (b) each branch alone, merged two-at-index, stalled', () => {
    const a = get('notary-back-dating-a')
    expect(a.faults).toEqual([{ kind: 'time-decreasing', index: a.decided }])
    expect(a.end).toMatchObject({ kind: 'stalled', cause: 'notary-fault', tick: 2 })
    const v = byName.get('notary-back-dating-b')
    const b = get('notary-back-dating-b')
    expect(b.faults[0]?.kind).toBe('two-at-index')
    expect(b.end).toMatchObject({ kind: 'stalled', cause: 'notary-fault', tick: 1 })
    const [p1, p3] = (v?.files ?? []).map((f) => f.alone)
    if (p1 === undefined || p3 === undefined || p1 === 'as merged' || p3 === 'as merged') throw new Error('files')
    expect([p1.faults, p3.faults]).toEqual([[], []])
    expect(kinds(p1, 1)?.[4]).toBe('missing')
    expect(kinds(p3, 1)?.[4]).toBe('orders')
  })
  it('15 notary-drops-one-player: p2 missing three ticks, removed; no fault, no offence; p2’s envelopes listed unreceipted', () => {
    const s = get('notary-drops-one-player')
    clean(s)
    for (const t of [1, 2, 3]) expect(kinds(s, t)?.[1]).toBe('missing')
    expect(s.unreceipted).toHaveLength(3)
  })
  it('16 mark-faults: mark-early, two-marks, mark-range; stalled', () => {
    for (const k of ['mark-early', 'two-marks', 'mark-range']) {
      const s = get(k)
      expect(s.faults.map((f) => f.kind)).toEqual([k])
      expect(s.end).toMatchObject({ kind: 'stalled', cause: 'notary-fault', tick: 1 })
    }
  })
  it('16 receipt-invalid (§6.3 item 4): bytes the notary signed that no reader can take are its fault at their index; stalled', () => {
    for (const k of ['receipt-invalid', 'receipt-invalid-header']) {
      const s = get(k)
      expect(s.faults.map((f) => f.kind)).toEqual(['receipt-invalid'])
      expect(s.end).toMatchObject({ kind: 'stalled', cause: 'notary-fault', tick: 1 })
    }
  })
  it('16 header-invalid and genesis-late (§6.3 item 4, §5.1, §3): what the notary must refuse, receipted, is its fault', () => {
    const h = get('header-invalid')
    expect(h.faults.map((f) => f.kind)).toEqual(['header-invalid'])
    expect(h.end).toMatchObject({ kind: 'stalled', cause: 'notary-fault', tick: 1 })
    const late = get('genesis-late')
    expect(late.faults.map((f) => [f.kind, f.index])).toEqual([['genesis-invalid', 0]])
    expect(late.end).toMatchObject({ kind: 'not-started' })
  })
  it('17 seq-skipped: the fault', () => {
    expect(get('seq-skipped').faults.map((f) => f.kind)).toEqual(['seq-skipped'])
  })
  it('18 key-less edits: never an offence, never a fault, never a different final decision', () => {
    const honest = get('honest-5')
    const garbled = get('garbled-wrap-in-window')
    for (const k of ['a', 'b', 'c', 'd', 'e', 'f']) {
      const s = get(`keyless-${k}`)
      clean(s)
      const base = k === 'c' || k === 'd' ? garbled : honest
      for (const t of s.ticks)
        if (t.status === 'final') expect(t.stateHash, `${k} ${t.t}`).toBe(base.ticks[t.t - 1]?.stateHash)
    }
    expect(statuses(get('keyless-a'))).toEqual(['open'])
    expect(statuses(get('keyless-b'))).toEqual(['provisional', 'open'])
    expect(statuses(get('keyless-c'))).toEqual(['provisional', 'open'])
    expect(statuses(get('keyless-d'))).toEqual(['provisional', 'open'])
    expect(core(get('keyless-e'))).toEqual(core(honest))
    expect(statuses(get('keyless-f'))).toEqual(['gap'])
    expect(get('keyless-f').unauthenticated).toHaveLength(1)
  })
  it('19 unused-machinery: (w1) twice, counted, equivocated', () => {
    const s = get('unused-machinery')
    expect(offences(s)).toEqual([
      [3, '§4.2 (w1)', 1],
      [3, '§4.2 (w1)', 1],
    ])
    expect(kinds(s, 1)?.[3]).toBe('equivocated')
  })
  it('20 seed-early: no offence, p4 missing after; commits after its seed: (w3) counted; wrong seed: (w5) never counted', () => {
    const s = get('seed-early')
    clean(s)
    expect([kinds(s, 2)?.[3], kinds(s, 3)?.[3]]).toEqual(['missing', 'missing'])
    const c = get('seed-then-commit')
    expect(offences(c).every(([p, r, n]) => p === 3 && r === '§4.2 (w3)' && n === 3)).toBe(true)
    expect(kinds(c, 3)?.[3]).toBe('equivocated')
    const w = get('seed-wrong')
    expect(offences(w)).toEqual([[3, '§4.2 (w5)', null]])
    expect((w.end as { winners: number[] }).winners).not.toContain(3)
  })
  it('21 outage: stalled (outage, provisional) at 2; lifted by a receipt past R_2', () => {
    expect(get('outage').end).toMatchObject({ kind: 'stalled', cause: 'outage', tick: 2, voters: [0, 1, 2] })
    const l = get('outage-lifted')
    expect(l.end).toMatchObject({ kind: 'complete' })
    expect(statuses(l)).toEqual(['final', 'final'])
  })
  it('22 dishonest-majority: p1, p2 never excluded; only a file lacking the receipts reads the outage', () => {
    const s = get('dishonest-majority')
    expect(s.end).toMatchObject({ kind: 'complete' })
    for (const t of s.ticks) expect(t.active.slice(0, 2)).toEqual([0, 1])
    const early = byName.get('dishonest-majority')?.files.find((f) => f.name.includes('before'))?.alone
    if (early === undefined || early === 'as merged') throw new Error('file')
    expect(early.end).toMatchObject({ kind: 'stalled', cause: 'outage', tick: 1 })
  })
  it('23 void-deferral: void, p5 equivocated in 1, removed', () => {
    const s = get('void-deferral')
    expect(s.voids).toHaveLength(1)
    expect(offences(s)).toEqual([[4, '§7.3 false-deposit', 1]])
    expect(s.ticks[1]?.active).toEqual([0, 1, 2, 3])
  })

  it('1 crypto: depositHash and receiptHash recomputed from the bytes listed', () => {
    const c = stored.crypto as {
      deposit: { deposit: string; depositHash: string; depositBytes: number }
      receipts: Record<string, { receipt: string; receiptHash: string }>
    }
    const h = (t: string, b: string): string => {
      const tag = Buffer.from(t, 'ascii')
      return createHash('sha256')
        .update(Buffer.from([tag.length]))
        .update(tag)
        .update(fromHex(b))
        .digest('hex')
    }
    expect(h('spaaace/1/deposit-hash', c.deposit.deposit)).toBe(c.deposit.depositHash)
    expect(c.deposit.depositBytes).toBe(80 * 5 + 2064)
    // N §3.1: the receipt hash is over the receipt without its notary signature.
    for (const r of Object.values(c.receipts))
      expect(h('spaaace/1/receipt-hash', r.receipt.slice(0, -128))).toBe(r.receiptHash)
  })
})
