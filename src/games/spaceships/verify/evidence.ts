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
  authenticated: boolean
}

const GAME_AT = 4
const PREV_AT = GAME_AT + HASH_BYTES

function idOf(bytes: Uint8Array): string {
  return toBase64url(bytes)
}

type Read = { framed: Framed; hash: Uint8Array; id: string } | ProtocolError

/**
 * SPEC §5.4, §12.1: the envelopes of one file's lines, each distinct line framed and hashed once
 * (`seen` holds what other files' lines gave), so a file of copies costs what one line costs.
 * A line that is not an envelope is noted when `notes` are kept.
 */
function itemsOf(f: FileEvidence, seen: Map<string, Read>, notes?: Note[]): Item[] {
  const items = new Map<string, Item>()
  for (const l of f.lines) {
    const where = { file: f.name, line: l.line }
    if (l.bytes === undefined) {
      notes?.push({
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
      notes?.push({ ...where, what: `not an envelope: ${describeProtocolError(read)}` })
      continue
    }
    const item = items.get(key)
    if (item === undefined) items.set(key, { ...read, where: [where] })
    else item.where.push(where)
  }
  return [...items.values()]
}

function bytesEqual(a: Uint8Array, b: Uint8Array): boolean {
  if (a.length !== b.length) return false
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false
  return true
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

function noGame(
  problem: string,
  notes: Note[],
  hellos: Partial<Record<Role, SealedEnvelope>> = {},
  game?: Uint8Array,
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
    signatureChecks: 0,
  }
}

/** SPEC §12.1: the game of one file, fixed by its first B hello (in line order) that acks an A hello of the file. */
function gameOf(items: readonly Item[]): { a: Item; b: Item; game: Uint8Array } | undefined {
  const helloA = new Map<string, Item>()
  for (const x of items) if (x.framed.sender === 'A' && x.framed.seq === 0 && !helloA.has(x.id)) helloA.set(x.id, x)
  const tried = new Set<string>()
  for (const b of items) {
    if (b.framed.sender !== 'B' || b.framed.seq !== 0 || tried.has(b.id)) continue
    tried.add(b.id)
    const sb = decodeFrameWith(b.framed, b.hash)
    if (!sb.ok || helloOf(sb.value) === undefined) continue
    const ack = sb.value.envelope.ack
    if (ack === undefined) continue
    const a = helloA.get(idOf(ack))
    if (a === undefined) continue
    const sa = decodeFrameWith(a.framed, a.hash)
    if (!sa.ok || helloOf(sa.value)?.terms === undefined || sa.value.envelope.parts.length !== 1) continue
    return { a, b, game: gameIdOf(a.hash, b.hash) }
  }
  return undefined
}

/** SPEC §12.1: the game id (base64url) one file is of, if it names one. */
export function gameOfFile(file: FileEvidence): string | undefined {
  const g = gameOf(itemsOf(file, new Map()))
  return g === undefined ? undefined : idOf(g.game)
}

/** SPEC §12.1, §12.2: the evidence several files of one game give together. */
export function gatherEvidence(files: readonly FileEvidence[]): Evidence {
  const notes: Note[] = []
  const perFile: Item[][] = []
  const seen = new Map<string, Read>()
  for (const f of files) {
    const items = itemsOf(f, seen, notes)
    if (f.torn)
      notes.push({
        file: f.name,
        line: f.lines.length + 2,
        what: 'a last line without its newline was never completely written, and is ignored (SPEC §11)',
      })
    perFile.push(items)
  }
  const games = perFile.map(gameOf)
  const named = games.filter((g) => g !== undefined)
  const first = named[0]
  if (first === undefined) {
    const hasA = perFile.some((items) => items.some((x) => x.framed.sender === 'A' && x.framed.seq === 0))
    return noGame(hasA ? "no game: B's hello (acknowledging A's) is missing" : 'no game: the hellos are missing', notes)
  }
  const game = first.game
  const gameId = idOf(game)
  const different = games.findIndex((g) => g !== undefined && idOf(g.game) !== gameId)
  if (different >= 0)
    return noGame(
      `the files are of different games (${files[0]?.name ?? ''} and ${files[different]?.name ?? ''})`,
      notes,
    )
  const sa = decodeFrameWith(first.a.framed, first.a.hash)
  const sb = decodeFrameWith(first.b.framed, first.b.hash)
  if (!sa.ok || !sb.ok) return noGame('no game: a hello does not decode', notes)
  const hellos: Record<Role, SealedEnvelope> = { A: sa.value, B: sb.value }
  const keys: Partial<Record<Role, Uint8Array>> = {}
  let signatureChecks = 0
  for (const r of INDEX_ROLE) {
    const key = helloOf(hellos[r])?.key
    const problem = key === undefined ? 'missing' : publicKeyProblem(key)
    if (key === undefined || problem !== undefined)
      return noGame(`no game: ${r}'s hello key is not usable (${problem ?? 'missing'}; SPEC §5.2)`, notes, hellos, game)
    keys[r] = key
  }
  const readingNotes = notes.length
  // SPEC §12.1: the game's envelopes, each counted once (a copy with another signature is the same envelope).
  const candidates: Record<Role, Map<string, Candidate>> = { A: new Map(), B: new Map() }
  for (const items of perFile) {
    const foreign: Note[] = []
    for (const it of items) {
      const f = it.framed
      const inGame =
        f.seq === 0
          ? it.id === hellos[f.sender].id
          : f.unsigned.length >= PREV_AT + HASH_BYTES &&
            bytesEqual(f.unsigned.subarray(GAME_AT, GAME_AT + HASH_BYTES), game)
      if (!inGame) {
        const what =
          f.seq === 0
            ? `a hello of another game (${f.sender}), not evidence`
            : `an envelope of another game (${f.sender} ${f.seq}), not evidence`
        for (const w of it.where) foreign.push({ ...w, what })
        continue
      }
      const sigId = idOf(f.sig)
      const known = candidates[f.sender].get(it.id)
      if (known === undefined)
        candidates[f.sender].set(it.id, {
          framed: f,
          hash: it.hash,
          id: it.id,
          sigs: [f.sig],
          sigIds: new Set([sigId]),
          where: [...it.where],
          authenticated: false,
        })
      else {
        if (!known.sigIds.has(sigId)) {
          known.sigIds.add(sigId)
          known.sigs.push(f.sig)
        }
        known.where.push(...it.where)
      }
    }
    notes.push(...foreign.sort((x, y) => x.line - y.line))
  }
  // SPEC §5.4, §12.2: authenticate from the highest seq down; a valid signature authenticates its
  // chain through `prev`, down to the hello, so an honest chain costs one check; a hello no later
  // envelope binds is checked on its own, any copy of it.
  const gaps: string[] = []
  for (const r of INDEX_ROLE) {
    const key = keys[r] ?? new Uint8Array()
    const all = [...candidates[r].values()].sort((x, y) => y.framed.seq - x.framed.seq)
    for (const c of all) {
      if (c.authenticated) continue
      const ok = c.sigs.some(
        (sig) => (signatureChecks++, signatureValid({ bytes: concat(c.framed.unsigned, sig) }, key)),
      )
      if (!ok) continue
      let cur: Candidate | undefined = c
      while (cur !== undefined) {
        cur.authenticated = true
        if (cur.framed.seq === 0) break
        const prevId = idOf(cur.framed.unsigned.subarray(PREV_AT, PREV_AT + HASH_BYTES))
        const prev = candidates[r].get(prevId)
        if (prev === undefined || prev.framed.seq !== cur.framed.seq - 1) {
          gaps.push(`${r}'s envelope ${cur.framed.seq - 1}, which ${r}'s envelope ${cur.framed.seq} follows`)
          break
        }
        cur = prev.authenticated ? undefined : prev
      }
    }
    // SPEC §12.2: the game's hellos must be authenticated under their own keys.
    if (candidates[r].get(hellos[r].id)?.authenticated !== true)
      return noGame(
        `the game cannot be verified: ${r}'s hello is not signed by the key it states, and no envelope of ${r} signed by that key binds it (SPEC §5.4, §12.2)`,
        notes.slice(0, readingNotes),
        hellos,
        game,
      )
    for (const c of all)
      if (!c.authenticated)
        for (const w of c.where)
          notes.push({
            ...w,
            what: `${r}'s envelope ${c.framed.seq}: its signature fails and no later envelope of ${r} binds it, so it is not evidence (SPEC §5.4)`,
          })
  }
  // SPEC §5.3: two authenticated envelopes at one place are equivocation.
  const offences: ProtocolOffence[] = []
  const bySeq: Record<Role, Map<number, Candidate[]>> = { A: new Map(), B: new Map() }
  for (const r of INDEX_ROLE) {
    for (const c of candidates[r].values()) {
      if (!c.authenticated) continue
      const list = bySeq[r].get(c.framed.seq)
      if (list === undefined) bySeq[r].set(c.framed.seq, [c])
      else list.push(c)
    }
    for (const [seq, list] of bySeq[r]) {
      if (list.length < 2 || seq === 0) continue
      const turns = list
        .map((c) => sealedOf(c, c.sigs[0] ?? new Uint8Array()))
        .map((x) => ('envelope' in x ? (firstTurn(x) ?? 0) : 0))
      offences.push({
        offender: r,
        class: 'equivocation',
        rule: 'SPEC §5.3',
        turn: Math.min(...turns),
        stage: STAGE.schedule,
        detail: `two different envelopes signed at ${r}'s place ${seq}`,
        seq,
      })
    }
  }
  // SPEC §12.2: each chain from its hello through `prev`, up to its first gap.
  const chains: Record<Role, ChainEntry[]> = { A: [], B: [] }
  const held = new Set<string>()
  const prevOf = (c: Candidate): string => idOf(c.framed.unsigned.subarray(PREV_AT, PREV_AT + HASH_BYTES))
  for (const r of INDEX_ROLE) {
    const chain = chains[r]
    chain.push({
      kind: 'envelope',
      sealed: hellos[r],
      where: candidates[r].get(hellos[r].id)?.where[0] ?? { file: '', line: 0 },
    })
    held.add(hellos[r].id)
    let prevId = hellos[r].id
    const maxSeq = Math.max(0, ...bySeq[r].keys())
    for (let seq = 1; seq <= maxSeq; seq++) {
      const next = (bySeq[r].get(seq) ?? []).filter((c) => prevOf(c) === prevId)
      // Under equivocation, follow the version the chain continues from, else the first held.
      const pick = next.find((c) => (bySeq[r].get(seq + 1) ?? []).some((d) => prevOf(d) === c.id)) ?? next[0]
      if (pick === undefined) {
        const missing = `${r}'s envelope ${seq}, which ${r}'s later envelopes follow`
        if (!gaps.some((g) => g.startsWith(`${r}'s envelope ${seq},`))) gaps.push(missing)
        break
      }
      const where = pick.where[0] ?? { file: '', line: 0 }
      const sealed = sealedOf(pick, pick.sigs[0] ?? new Uint8Array())
      if (!('envelope' in sealed)) {
        chain.push({ kind: 'malformed', seq, error: sealed, where })
        break
      }
      chain.push({ kind: 'envelope', sealed, where })
      held.add(pick.id)
      prevId = pick.id
    }
  }
  return { game, problem: undefined, hellos, chains, held, offences, gaps, notes, signatureChecks }
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
