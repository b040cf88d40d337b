/**
 * From transcript files to evidence (protocol/SPEC.md §12.1, §12.2): which game the files are of,
 * which of their envelopes each player provably signed, and what is missing. Pure: the files'
 * bytes are read by the caller. Nothing here convicts anyone of anything but equivocation, and
 * only on two envelopes the player signed.
 */
import { toBase64url } from '../../../core/commit/bytes.js'
import { HASH_BYTES } from '../../../core/commit/hash.js'
import { publicKeyProblem } from '../../../core/commit/keys.js'
import { type Framed, frameEnvelope } from '../protocol/codec.js'
import { type SealedEnvelope, decodeFrameWith, envelopeHash, gameIdOf, signatureValid } from '../protocol/envelope.js'
import { type ProtocolError, describeProtocolError } from '../../../core/wire/errors.js'
import type { TranscriptLine } from '../protocol/file.js'
import { type Hello, INDEX_ROLE, type Role, partTurn } from '../protocol/messages.js'
import { type ProtocolOffence, STAGE } from './offence.js'

/** One transcript file as read (`parseTranscript`). */
export interface FileEvidence {
  readonly name: string
  readonly lines: readonly TranscriptLine[]
  readonly torn: boolean
}

/** Where a line came from, for reports. */
export interface Where {
  readonly file: string
  readonly line: number
}

/** A line set aside: not evidence of anything, and why. */
export interface Note extends Where {
  readonly what: string
}

/** An entry of a sender's chain: an envelope, or authenticated bytes that do not decode. */
export type ChainEntry =
  | { readonly kind: 'envelope'; readonly sealed: SealedEnvelope; readonly where: Where }
  | { readonly kind: 'malformed'; readonly seq: number; readonly error: ProtocolError; readonly where: Where }

export interface Evidence {
  /** The game id (absent when the files name no game, or several). */
  readonly game: Uint8Array | undefined
  /** Why the game cannot be verified at all, when it cannot. */
  readonly problem: string | undefined
  readonly hellos: Partial<Record<Role, SealedEnvelope>>
  /** Each sender's chain from its hello, by `seq`, up to its first gap. */
  readonly chains: Record<Role, ChainEntry[]>
  /** Hashes (base64url) of every chain envelope, for acknowledgements (SPEC §12.3). */
  readonly held: ReadonlySet<string>
  readonly offences: readonly ProtocolOffence[]
  /** Envelopes some authenticated envelope proves to exist and the files lack (SPEC §12.7, rule 2). */
  readonly gaps: readonly string[]
  readonly notes: readonly Note[]
  /** Signature checks made (SPEC §5.4: at most one per envelope; one per honest chain). */
  readonly signatureChecks: number
}

/** One distinct line of a file: its bytes framed and hashed once, with every line holding them. */
interface Item {
  readonly framed: Framed
  /** SPEC §5.3, over `framed.unsigned`; `id` is its base64url. */
  readonly hash: Uint8Array
  readonly id: string
  readonly where: Where[]
}

/** What the verifier holds of one envelope: its bytes (one copy per distinct signature) and its lines. */
interface Candidate {
  readonly framed: Framed
  readonly hash: Uint8Array
  readonly id: string
  readonly sigs: Uint8Array[]
  readonly sigIds: Set<string>
  readonly where: Where[]
  /** The game id (base64url) an envelope after a hello carries; undefined for a hello. */
  readonly game: string | undefined
}

/** A B hello of a file and the A hello it acknowledges (SPEC §12.1), naming the game `G` of §6.1. */
interface Pair {
  readonly hellos: Record<Role, Candidate>
  readonly sealed: Record<Role, SealedEnvelope>
  readonly game: Uint8Array
  readonly id: string
}

/** Each sender's envelopes of one game authenticated by §5.4, and the gaps found doing so. */
interface Authentication {
  readonly ok: ReadonlySet<string>
  readonly gaps: readonly string[]
}

/** A pair judged (SPEC §12.1): authentic iff both keys are usable and both hellos authenticated in its game. */
interface Judged {
  readonly pair: Pair
  readonly keyProblem: { readonly role: Role; readonly problem: string } | undefined
  readonly auth: Record<Role, Authentication> | undefined
  readonly authentic: boolean
}

const GAME_AT = 4
const PREV_AT = GAME_AT + HASH_BYTES

function idOf(bytes: Uint8Array): string {
  return toBase64url(bytes)
}

function sealedOf(c: Candidate, sig: Uint8Array): SealedEnvelope | ProtocolError {
  const d = decodeFrameWith({ ...c.framed, sig }, c.hash)
  return d.ok ? d.value : d.error
}

function helloOf(s: SealedEnvelope | ProtocolError): Hello | undefined {
  if (!('envelope' in s)) return undefined
  const p = s.envelope.parts[0]
  return p?.t === 'hello' ? p : undefined
}

function prevOf(c: Candidate): string {
  return idOf(c.framed.unsigned.subarray(PREV_AT, PREV_AT + HASH_BYTES))
}

function noGame(
  problem: string,
  notes: Note[],
  hellos: Partial<Record<Role, SealedEnvelope>> = {},
  game?: Uint8Array,
  signatureChecks = 0,
): Evidence {
  return {
    game,
    problem,
    hellos,
    chains: { A: [], B: [] },
    held: new Set(),
    offences: [],
    gaps: [],
    notes,
    signatureChecks,
  }
}

/**
 * SPEC §12.1: reads the files line by line. Lines with the same bytes, in one file or several, are
 * framed and hashed once (SPEC §5.4), so a file of copies costs what one line costs; each line is
 * still named where it is reported.
 */
function readFiles(files: readonly FileEvidence[], notes: Note[]): Item[][] {
  const seen = new Map<string, { framed: Framed; hash: Uint8Array; id: string } | ProtocolError>()
  return files.map((f) => {
    const items = new Map<string, Item>()
    for (const l of f.lines) {
      const where = { file: f.name, line: l.line }
      if (l.bytes === undefined) {
        notes.push({
          ...where,
          what: `not an envelope: ${l.error === undefined ? 'unreadable' : describeProtocolError(l.error)}`,
        })
        continue
      }
      const key = toBase64url(l.bytes)
      let read = seen.get(key)
      if (read === undefined) {
        const framed = frameEnvelope(l.bytes)
        if (framed.ok) {
          const hash = envelopeHash(framed.value.unsigned)
          read = { framed: framed.value, hash, id: idOf(hash) }
        } else read = framed.error
        seen.set(key, read)
      }
      if (!('framed' in read)) {
        notes.push({ ...where, what: `not an envelope: ${describeProtocolError(read)}` })
        continue
      }
      const item = items.get(key)
      if (item === undefined) items.set(key, { ...read, where: [where] })
      else item.where.push(where)
    }
    if (f.torn)
      notes.push({
        file: f.name,
        line: f.lines.length + 2,
        what: 'a last line without its newline was never completely written, and is ignored (SPEC §11)',
      })
    return [...items.values()]
  })
}

/** SPEC §5.3: the files' envelopes, each counted once (a copy with another signature is the same envelope). */
function poolOf(perFile: readonly (readonly Item[])[]): Map<string, Candidate> {
  const pool = new Map<string, Candidate>()
  for (const items of perFile)
    for (const it of items) {
      const f = it.framed
      const sigId = idOf(f.sig)
      const known = pool.get(it.id)
      if (known === undefined)
        pool.set(it.id, {
          framed: f,
          hash: it.hash,
          id: it.id,
          sigs: [f.sig],
          sigIds: new Set([sigId]),
          where: [...it.where],
          game:
            f.seq === 0 || f.unsigned.length < PREV_AT + HASH_BYTES
              ? undefined
              : idOf(f.unsigned.subarray(GAME_AT, GAME_AT + HASH_BYTES)),
        })
      else {
        if (!known.sigIds.has(sigId)) {
          known.sigIds.add(sigId)
          known.sigs.push(f.sig)
        }
        known.where.push(...it.where)
      }
    }
  return pool
}

/** SPEC §12.1: a file's hello pairs, in the line order of their B hellos, each game once. */
function pairsOf(items: readonly Item[], pool: ReadonlyMap<string, Candidate>, decoded: Decoder): Pair[] {
  const helloA = new Map<string, Candidate>()
  for (const it of items) {
    const c = pool.get(it.id)
    if (c !== undefined && it.framed.sender === 'A' && it.framed.seq === 0) helloA.set(it.id, c)
  }
  const pairs: Pair[] = []
  const games = new Set<string>()
  for (const it of items) {
    const b = pool.get(it.id)
    if (b === undefined || it.framed.sender !== 'B' || it.framed.seq !== 0) continue
    const sb = decoded(b)
    if (!('envelope' in sb) || helloOf(sb) === undefined) continue
    const ack = sb.envelope.ack
    const a = ack === undefined ? undefined : helloA.get(idOf(ack))
    if (a === undefined) continue
    const sa = decoded(a)
    if (!('envelope' in sa) || helloOf(sa)?.terms === undefined || sa.envelope.parts.length !== 1) continue
    const game = gameIdOf(a.hash, b.hash)
    const id = idOf(game)
    if (games.has(id)) continue
    games.add(id)
    pairs.push({ hellos: { A: a, B: b }, sealed: { A: sa, B: sb }, game, id })
  }
  return pairs
}

type Decoder = (c: Candidate) => SealedEnvelope | ProtocolError

function decoder(): Decoder {
  const cache = new Map<string, SealedEnvelope | ProtocolError>()
  return (c) => {
    let d = cache.get(c.id)
    if (d === undefined) {
      d = sealedOf(c, c.sigs[0] ?? new Uint8Array())
      cache.set(c.id, d)
    }
    return d
  }
}

/** Signature checks, each (envelope, signature) at most once (SPEC §5.4), counted. */
function signatureChecker(): { valid: (c: Candidate, key: Uint8Array) => boolean; count: () => number } {
  const memo = new Map<string, boolean>()
  let count = 0
  return {
    valid: (c, key) => {
      const k = `${c.id}.${idOf(key)}`
      let ok = memo.get(k)
      if (ok === undefined) {
        ok = c.sigs.some((sig) => (count++, signatureValid({ bytes: concat(c.framed.unsigned, sig) }, key)))
        memo.set(k, ok)
      }
      return ok
    },
    count: () => count,
  }
}

/**
 * SPEC §5.4, §12.2: one sender's envelopes of one game (its hello among them), from the highest
 * seq down; a valid signature authenticates its chain through `prev`, down to the hello, so an
 * honest chain costs one check; a hello no later envelope binds is checked on its own, any copy.
 */
function authenticate(
  r: Role,
  list: readonly Candidate[],
  key: Uint8Array,
  valid: (c: Candidate, key: Uint8Array) => boolean,
): Authentication {
  const byId = new Map(list.map((c) => [c.id, c]))
  const ok = new Set<string>()
  const gaps: string[] = []
  for (const c of [...list].sort((x, y) => y.framed.seq - x.framed.seq)) {
    if (ok.has(c.id) || !valid(c, key)) continue
    let cur: Candidate | undefined = c
    while (cur !== undefined) {
      ok.add(cur.id)
      if (cur.framed.seq === 0) break
      const prev = byId.get(prevOf(cur))
      if (prev === undefined || prev.framed.seq !== cur.framed.seq - 1) {
        gaps.push(`${r}'s envelope ${cur.framed.seq - 1}, which ${r}'s envelope ${cur.framed.seq} follows`)
        break
      }
      cur = ok.has(prev.id) ? undefined : prev
    }
  }
  return { ok, gaps }
}

/** Everything §12.1 needs of the files to choose their game. */
interface Reading {
  readonly perFile: Item[][]
  readonly pool: Map<string, Candidate>
  /** Envelopes after the hellos, by the game id they carry. */
  readonly byGame: Map<string, Candidate[]>
  readonly pairs: Pair[][]
  readonly judge: (p: Pair) => Judged
  readonly decoded: Decoder
  readonly checks: () => number
}

function reading(files: readonly FileEvidence[], notes: Note[]): Reading {
  const perFile = readFiles(files, notes)
  const pool = poolOf(perFile)
  const byGame = new Map<string, Candidate[]>()
  for (const c of pool.values())
    if (c.game !== undefined) {
      const list = byGame.get(c.game)
      if (list === undefined) byGame.set(c.game, [c])
      else list.push(c)
    }
  const decoded = decoder()
  const checker = signatureChecker()
  const judged = new Map<string, Judged>()
  const judge = (pair: Pair): Judged => {
    const known = judged.get(pair.id)
    if (known !== undefined) return known
    let keyProblem: Judged['keyProblem']
    const keys: Partial<Record<Role, Uint8Array>> = {}
    for (const r of INDEX_ROLE) {
      const key = helloOf(pair.sealed[r])?.key
      const problem = key === undefined ? 'missing' : publicKeyProblem(key)
      if (key === undefined || problem !== undefined) keyProblem ??= { role: r, problem: problem ?? 'missing' }
      else keys[r] = key
    }
    let auth: Judged['auth']
    if (keyProblem === undefined) {
      const after = byGame.get(pair.id) ?? []
      const of = (r: Role): Authentication =>
        authenticate(
          r,
          [pair.hellos[r], ...after.filter((c) => c.framed.sender === r)],
          keys[r] ?? new Uint8Array(),
          checker.valid,
        )
      auth = { A: of('A'), B: of('B') }
    }
    const authentic = auth !== undefined && INDEX_ROLE.every((r) => auth[r].ok.has(pair.hellos[r].id))
    const out: Judged = { pair, keyProblem, auth, authentic }
    judged.set(pair.id, out)
    return out
  }
  return {
    perFile,
    pool,
    byGame,
    pairs: perFile.map((items) => pairsOf(items, pool, decoded)),
    judge,
    decoded,
    checks: checker.count,
  }
}

/**
 * SPEC §12.1, §12.8: the game id (base64url) a file is grouped under: the first game it names,
 * else the game id most of its envelopes after the hellos carry (the first such in line order on
 * a tie), else none.
 */
export function gameOfFile(file: FileEvidence): string | undefined {
  const r = reading([file], [])
  const named = (r.pairs[0] ?? []).find((p) => r.judge(p).authentic)
  if (named !== undefined) return named.id
  let best: { game: string; count: number } | undefined
  for (const [game, list] of r.byGame)
    if (best === undefined || list.length > best.count) best = { game, count: list.length }
  return best?.game
}

/** SPEC §12.1: the game of the files: the first game the first file naming one names that every file naming one names. */
function chooseGame(
  files: readonly FileEvidence[],
  r: Reading,
): { pair: Pair; auth: Record<Role, Authentication> } | { different: [string, string] } | { none: Pair | undefined } {
  const named = r.pairs.map((pairs) => pairs.filter((p) => r.judge(p).authentic))
  const sets = named.map((pairs) => new Set(pairs.map((p) => p.id)))
  const naming = named.flatMap((pairs, i) => (pairs.length > 0 ? [i] : []))
  const first = naming[0]
  if (first === undefined) return { none: r.pairs.flat()[0] }
  const ofFirst = named[first] ?? []
  const pair = ofFirst.find((p) => naming.every((i) => sets[i]?.has(p.id) === true))
  const auth = pair === undefined ? undefined : r.judge(pair).auth
  if (pair !== undefined && auth !== undefined) return { pair, auth }
  const other = naming.find((i) => sets[i]?.has(ofFirst[0]?.id ?? '') !== true) ?? first
  return { different: [files[first]?.name ?? '', files[other]?.name ?? ''] }
}

/** SPEC §12.1, §12.2: the evidence several files of one game give together. */
export function gatherEvidence(files: readonly FileEvidence[]): Evidence {
  const notes: Note[] = []
  const r = reading(files, notes)
  const choice = chooseGame(files, r)
  if ('different' in choice)
    return noGame(
      `the files are of different games (${choice.different[0]} and ${choice.different[1]})`,
      notes,
      {},
      undefined,
      r.checks(),
    )
  if ('none' in choice) {
    const pair = choice.none
    if (pair === undefined) {
      const hasA = r.perFile.some((items) => items.some((x) => x.framed.sender === 'A' && x.framed.seq === 0))
      return noGame(
        hasA ? "no game: B's hello (acknowledging A's) is missing" : 'no game: the hellos are missing',
        notes,
      )
    }
    // No file names a game: the first pair says why it is none (SPEC §5.2, §12.2).
    const j = r.judge(pair)
    if (j.keyProblem !== undefined)
      return noGame(
        `no game: ${j.keyProblem.role}'s hello key is not usable (${j.keyProblem.problem}; SPEC §5.2)`,
        notes,
        pair.sealed,
        pair.game,
        r.checks(),
      )
    const role = INDEX_ROLE.find((x) => j.auth?.[x].ok.has(pair.hellos[x].id) !== true) ?? 'A'
    return noGame(
      `the game cannot be verified: ${role}'s hello is not signed by the key it states, and no envelope of ${role} signed by that key binds it (SPEC §5.4, §12.2)`,
      notes,
      pair.sealed,
      pair.game,
      r.checks(),
    )
  }
  const { pair, auth } = choice
  const game = pair.game
  const hellos = pair.sealed
  // SPEC §12.1: lines of other games, and hellos other than the game's two, are foreign.
  for (const items of r.perFile) {
    const foreign: Note[] = []
    for (const it of items) {
      const f = it.framed
      const inGame = f.seq === 0 ? it.id === pair.hellos[f.sender].id : r.pool.get(it.id)?.game === pair.id
      if (inGame) continue
      const what =
        f.seq === 0
          ? `${f.sender}'s hello, not one of this game's two (altered, or of another game), not evidence (SPEC §12.1)`
          : `an envelope of another game (${f.sender} ${f.seq}), not evidence`
      for (const w of it.where) foreign.push({ ...w, what })
    }
    notes.push(...foreign.sort((x, y) => x.line - y.line))
  }
  // SPEC §5.4, §12.2: the game's envelopes authenticated (when the pair was judged), and the rest noted.
  const after = r.byGame.get(pair.id) ?? []
  const candidates: Record<Role, Candidate[]> = {
    A: [pair.hellos.A, ...after.filter((c) => c.framed.sender === 'A')],
    B: [pair.hellos.B, ...after.filter((c) => c.framed.sender === 'B')],
  }
  const gaps: string[] = []
  for (const role of INDEX_ROLE) {
    gaps.push(...auth[role].gaps)
    for (const c of [...candidates[role]].sort((x, y) => y.framed.seq - x.framed.seq))
      if (!auth[role].ok.has(c.id))
        for (const w of c.where)
          notes.push({
            ...w,
            what: `${role}'s envelope ${c.framed.seq}: its signature fails and no later envelope of ${role} binds it, so it is not evidence (SPEC §5.4)`,
          })
  }
  // SPEC §5.3: two authenticated envelopes at one place are equivocation.
  const offences: ProtocolOffence[] = []
  const bySeq: Record<Role, Map<number, Candidate[]>> = { A: new Map(), B: new Map() }
  for (const role of INDEX_ROLE) {
    for (const c of candidates[role]) {
      if (!auth[role].ok.has(c.id)) continue
      const list = bySeq[role].get(c.framed.seq)
      if (list === undefined) bySeq[role].set(c.framed.seq, [c])
      else list.push(c)
    }
    for (const [seq, list] of bySeq[role]) {
      if (list.length < 2 || seq === 0) continue
      const turns = list.map(r.decoded).map((x) => ('envelope' in x ? (firstTurn(x) ?? 0) : 0))
      offences.push({
        offender: role,
        class: 'equivocation',
        rule: 'SPEC §5.3',
        turn: Math.min(...turns),
        stage: STAGE.schedule,
        detail: `two different envelopes signed at ${role}'s place ${seq}`,
        seq,
      })
    }
  }
  // SPEC §12.2: each chain from its hello through `prev`, up to its first gap.
  const chains: Record<Role, ChainEntry[]> = { A: [], B: [] }
  const held = new Set<string>()
  for (const role of INDEX_ROLE) {
    const chain = chains[role]
    chain.push({ kind: 'envelope', sealed: hellos[role], where: pair.hellos[role].where[0] ?? { file: '', line: 0 } })
    held.add(hellos[role].id)
    let prevId = hellos[role].id
    const maxSeq = Math.max(0, ...bySeq[role].keys())
    for (let seq = 1; seq <= maxSeq; seq++) {
      const next = (bySeq[role].get(seq) ?? []).filter((c) => prevOf(c) === prevId)
      // Under equivocation, follow the version the chain continues from, else the first held.
      const pick = next.find((c) => (bySeq[role].get(seq + 1) ?? []).some((d) => prevOf(d) === c.id)) ?? next[0]
      if (pick === undefined) {
        const missing = `${role}'s envelope ${seq}, which ${role}'s later envelopes follow`
        if (!gaps.some((g) => g.startsWith(`${role}'s envelope ${seq},`))) gaps.push(missing)
        break
      }
      const where = pick.where[0] ?? { file: '', line: 0 }
      const sealed = r.decoded(pick)
      if (!('envelope' in sealed)) {
        chain.push({ kind: 'malformed', seq, error: sealed, where })
        break
      }
      chain.push({ kind: 'envelope', sealed, where })
      held.add(pick.id)
      prevId = pick.id
    }
  }
  return { game, problem: undefined, hellos, chains, held, offences, gaps, notes, signatureChecks: r.checks() }
}

function firstTurn(s: SealedEnvelope): number | undefined {
  const p = s.envelope.parts[0]
  return p === undefined ? undefined : partTurn(p)
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length)
  out.set(a, 0)
  out.set(b, a.length)
  return out
}
