/**
 * SPEC §12.1, §5.4: transcript files read for evidence. Each distinct line framed and hashed once,
 * the files' envelopes pooled, the hello pairs each file names, and each pair judged: its keys
 * usable, and each sender's envelopes of its game authenticated through `prev` with as few
 * signature checks as §5.4 allows. evidence.ts chooses the game of the files from this and
 * gathers its evidence.
 */
import { equalBytes, toBase64url } from '../../../core/commit/bytes.js'
import { HASH_BYTES } from '../../../core/commit/hash.js'
import { publicKeyProblem, publicKeyShapeProblem } from '../../../core/commit/keys.js'
import { type ProtocolError, describeProtocolError } from '../../../core/wire/errors.js'
import { type Framed, frameOwnEnvelope } from '../protocol/codec.js'
import { isReceiptLine } from './receipts.js'
import { type SealedEnvelope, decodeFrameWith, envelopeHash, gameIdOf, signatureValid } from '../protocol/envelope.js'
import type { TranscriptLine } from '../protocol/file.js'
import { type Hello, INDEX_ROLE, type Role } from '../protocol/messages.js'
import { formatRuleset, parseRuleset } from '../rules/ruleset.js'

/** One transcript file as read (`parseTranscript`). */
export interface FileEvidence {
  readonly name: string
  /**
   * Read in place, never copied: their bytes must not change while the evidence is used (a file
   * read by `parseTranscript` has bytes of its own; a store's envelopes never change).
   */
  readonly lines: readonly TranscriptLine[]
  readonly torn: boolean
  /** SPEC §11: the version the file's header names; a line of another version is set aside. */
  readonly version?: number
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

/** One distinct line of a file: its bytes framed and hashed once, with every line holding them. */
export interface Item {
  readonly framed: Framed
  /** SPEC §5.3, over `framed.unsigned`; `id` is its base64url. */
  readonly hash: Uint8Array
  readonly id: string
  readonly where: Where[]
}

/** What the verifier holds of one envelope: its bytes (one copy per distinct signature) and its lines. */
export interface Candidate {
  readonly framed: Framed
  readonly hash: Uint8Array
  readonly id: string
  readonly sigs: Uint8Array[]
  /** The signatures' base64url, made once a second copy of the envelope is met (most are met once). */
  sigIds: Set<string> | undefined
  readonly where: Where[]
  /** The game id (base64url) an envelope after a hello carries; undefined for a hello. */
  readonly game: string | undefined
  /** `prevOf(this)`, once asked. */
  prevId?: string | undefined
}

/** A B hello of a file and the A hello it acknowledges (SPEC §12.1), naming the game `G` of §6.1. */
export interface Pair {
  readonly hellos: Record<Role, Candidate>
  readonly sealed: Record<Role, SealedEnvelope>
  readonly game: Uint8Array
  readonly id: string
  /**
   * SPEC §5.1, §12.1: the game's version and id (`4:…`): an envelope belongs to a game only in the
   * game's version, whose tag its id was derived under.
   */
  readonly key: string
}

/** Each sender's envelopes of one game authenticated by §5.4, and the gaps found doing so. */
export interface Authentication {
  readonly ok: ReadonlySet<string>
  readonly gaps: readonly string[]
}

/** A pair judged (SPEC §12.1): authentic iff both keys are usable and both hellos authenticated in its game. */
export interface Judged {
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
  const d = decodeFrameWith({ ...c.framed, sig }, c.hash, c.id)
  return d.ok ? d.value : d.error
}

function helloOf(s: SealedEnvelope | ProtocolError): Hello | undefined {
  if (!('envelope' in s)) return undefined
  const p = s.envelope.parts[0]
  return p?.t === 'hello' ? p : undefined
}

/** Where A's hello part states its ruleset (SPEC §5.1, §6.1): after version, sender, seq, count, type, key and nonce. */
const RULESET_AT = 4 + 1 + 1 + 32 + 32

/**
 * SPEC §6.1, §12.1: why A's envelope at seq 0, which a B hello acknowledges, is no hello of a game.
 * A ruleset that does not parse is unknown; one that parses to another text is not canonical.
 */
export function helloAProblem(c: Candidate, decoded: Decoder): string {
  const d = decoded(c)
  if ('envelope' in d)
    return `no game: A's envelope 0, which B's hello acknowledges, is not a hello with terms alone (${d.envelope.parts.map((p) => p.t).join('+')})`
  const u = c.framed.unsigned
  const length = u[RULESET_AT] ?? 0
  const bytes = u.subarray(RULESET_AT + 1, RULESET_AT + 1 + length)
  if (d.field.endsWith('.terms.ruleset') && bytes.length === length && bytes.every((x) => x >= 0x20 && x <= 0x7e)) {
    const text = String.fromCharCode(...bytes)
    const parsed = parseRuleset(text)
    if (!parsed.ok) return `no game: A's hello states an unknown ruleset ("${text}": ${parsed.error.message})`
    const canonical = formatRuleset(parsed.value)
    if (canonical !== text)
      return `no game: A's hello states a ruleset that is not canonical ("${text}"; canonically "${canonical}")`
  }
  return `no game: A's hello does not decode (${describeProtocolError(d)})`
}

/** A candidate's `prev` in base64url, made once (`Candidate.prevId`): the chains are followed through it several times. */
export function prevOf(c: Candidate): string {
  return (c.prevId ??= idOf(c.framed.unsigned.subarray(PREV_AT, PREV_AT + HASH_BYTES)))
}

/** A line framed and hashed, or why it does not frame. */
type Read = { readonly framed: Framed; readonly hash: Uint8Array; readonly id: string } | ProtocolError

/**
 * Lines by their exact text. A line ends in its signature, so lines are first keyed by their last
 * characters: a key of a few dozen characters is hashed instead of a whole line (a setup's is
 * 10,700 characters), and a line is compared whole with the one line of its key. Two distinct
 * lines under one key (copies with one signature and other bytes) move that key's lines to a map
 * by whole text, so no file of such lines costs more than hashing each line once.
 */
class LineIndex {
  private readonly byTail = new Map<string, { readonly text: string; readonly read: Read } | Map<string, Read>>()

  private static tail(text: string): string {
    return text.length <= LINE_TAIL_CHARS ? text : text.slice(-LINE_TAIL_CHARS)
  }

  get(text: string): Read | undefined {
    const at = this.byTail.get(LineIndex.tail(text))
    if (at === undefined) return undefined
    if (at instanceof Map) return at.get(text)
    return at.text === text ? at.read : undefined
  }

  /** Files `text`, which `get` does not hold. */
  set(text: string, read: Read): void {
    const key = LineIndex.tail(text)
    const at = this.byTail.get(key)
    if (at === undefined) this.byTail.set(key, { text, read })
    else if (at instanceof Map) at.set(text, read)
    else
      this.byTail.set(
        key,
        new Map([
          [at.text, at.read],
          [text, read],
        ]),
      )
  }
}

/** The last 43 characters of a line: 32 bytes of its signature. */
const LINE_TAIL_CHARS = 43

/**
 * SPEC §12.1: reads the files line by line. Lines with the same bytes, in one file or several, are
 * framed and hashed once (SPEC §5.4), so a file of copies costs what one line costs; each line is
 * still named where it is reported.
 */
function readFiles(files: readonly FileEvidence[], notes: Note[], receipts: Map<string, Uint8Array>): Item[][] {
  const seen = new LineIndex()
  return files.map((f) => {
    // A file's distinct lines, by what was read of them (one object per distinct text).
    const items = new Map<Read, Item>()
    for (const l of f.lines) {
      const where = { file: f.name, line: l.line }
      if (l.bytes === undefined) {
        notes.push({
          ...where,
          what: `not an envelope: ${l.error === undefined ? 'unreadable' : describeProtocolError(l.error)}`,
        })
        continue
      }
      const key = l.text ?? toBase64url(l.bytes)
      // PROTOCOL-4.md §2, §4.1: a notary's receipt, read with the game's log (verify/receipts.ts);
      // a version 3 file holds none (SPEC §11).
      if (isReceiptLine(l.bytes) && f.version !== 3) {
        receipts.set(key, l.bytes)
        continue
      }
      // SPEC §11: a line of another version than the file's is no envelope of the file's game.
      if (f.version !== undefined && l.bytes[0] !== f.version) {
        notes.push({
          ...where,
          what: `not an envelope of this version ${f.version} file (its first byte is ${l.bytes[0] ?? 'missing'}), set aside (SPEC §11)`,
        })
        continue
      }
      let read = seen.get(key)
      if (read === undefined) {
        const framed = frameOwnEnvelope(l.bytes)
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
      const item = items.get(read)
      if (item === undefined) items.set(read, { framed: read.framed, hash: read.hash, id: read.id, where: [where] })
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
  // The game key of the envelope before: a file's envelopes after the hellos mostly carry one game
  // id, whose text is then made once instead of once an envelope.
  let last: { readonly version: number; readonly game: Uint8Array; readonly key: string } | undefined
  const gameKey = (f: Framed): string | undefined => {
    if (f.seq === 0 || f.unsigned.length < PREV_AT + HASH_BYTES) return undefined
    const game = f.unsigned.subarray(GAME_AT, GAME_AT + HASH_BYTES)
    if (last === undefined || last.version !== f.version || !equalBytes(last.game, game))
      last = { version: f.version, game, key: `${f.version}:${idOf(game)}` }
    return last.key
  }
  for (const items of perFile)
    for (const it of items) {
      const f = it.framed
      const known = pool.get(it.id)
      if (known === undefined)
        pool.set(it.id, {
          framed: f,
          hash: it.hash,
          id: it.id,
          sigs: [f.sig],
          sigIds: undefined,
          where: [...it.where],
          game: gameKey(f),
          prevId: undefined,
        })
      else {
        const sigIds = (known.sigIds ??= new Set(known.sigs.map(idOf)))
        const sigId = idOf(f.sig)
        if (!sigIds.has(sigId)) {
          sigIds.add(sigId)
          known.sigs.push(f.sig)
        }
        known.where.push(...it.where)
      }
    }
  return pool
}

/**
 * SPEC §12.1: a file's hello pairs, in the line order of their B hellos, each game once; the A
 * envelopes at seq 0 that a B hello of the file acknowledges but that are not a hello with terms
 * alone (A's hello broken: a ruleset that is not canonical, say), in the same order; and the B
 * hellos whose A hello the file lacks.
 */
function pairsOf(
  items: readonly Item[],
  pool: ReadonlyMap<string, Candidate>,
  decoded: Decoder,
): { pairs: Pair[]; unpaired: Candidate[]; orphans: Candidate[] } {
  const helloA = new Map<string, Candidate>()
  for (const it of items) {
    const c = pool.get(it.id)
    if (c !== undefined && it.framed.sender === 'A' && it.framed.seq === 0) helloA.set(it.id, c)
  }
  const pairs: Pair[] = []
  const unpaired: Candidate[] = []
  const orphans: Candidate[] = []
  const games = new Set<string>()
  for (const it of items) {
    const b = pool.get(it.id)
    if (b === undefined || it.framed.sender !== 'B' || it.framed.seq !== 0) continue
    const sb = decoded(b)
    if (!('envelope' in sb) || helloOf(sb) === undefined) continue
    const ack = sb.envelope.ack
    const a = ack === undefined ? undefined : helloA.get(idOf(ack))
    if (a === undefined) {
      orphans.push(b)
      continue
    }
    const sa = decoded(a)
    if (!('envelope' in sa) || helloOf(sa)?.terms === undefined || sa.envelope.parts.length !== 1) {
      if (!unpaired.includes(a)) unpaired.push(a)
      continue
    }
    // B's hello answers A's in A's version (SPEC §6.1); in another it answers no game.
    if (b.framed.version !== a.framed.version) continue
    const game = gameIdOf(a.hash, b.hash, a.framed.version)
    const id = idOf(game)
    const key = `${a.framed.version}:${id}`
    if (games.has(key)) continue
    games.add(key)
    pairs.push({ hellos: { A: a, B: b }, sealed: { A: sa, B: sb }, game, id, key })
  }
  return { pairs, unpaired, orphans }
}

export type Decoder = (c: Candidate) => SealedEnvelope | ProtocolError

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
export interface Reading {
  readonly perFile: Item[][]
  readonly pool: Map<string, Candidate>
  /** Envelopes after the hellos, by the game id they carry. */
  readonly byGame: Map<string, Candidate[]>
  readonly pairs: Pair[][]
  /** Per file: A's envelopes at seq 0 a B hello acknowledges that are not a hello with terms alone. */
  readonly unpaired: Candidate[][]
  /** Per file: B hellos whose `ack` names no A envelope at seq 0 of the file. */
  readonly orphans: Candidate[][]
  readonly judge: (p: Pair) => Judged
  readonly decoded: Decoder
  readonly checks: () => number
  /** PROTOCOL-4.md §4.1: the receipt lines of the files, each once. */
  readonly receipts: readonly Uint8Array[]
}
export function reading(files: readonly FileEvidence[], notes: Note[]): Reading {
  const receiptLines = new Map<string, Uint8Array>()
  const perFile = readFiles(files, notes, receiptLines)
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
    const known = judged.get(pair.key)
    if (known !== undefined) return known
    const keys: Partial<Record<Role, Uint8Array>> = {}
    for (const r of INDEX_ROLE) {
      const key = helloOf(pair.sealed[r])?.key
      if (key !== undefined) keys[r] = key
    }
    const problemOf = (r: Role, test: (key: Uint8Array) => string | undefined): string | undefined => {
      const key = keys[r]
      return key === undefined ? 'missing' : test(key)
    }
    // SPEC §5.2, A's key first. The costly part of the test (x recoverable from y) is needed only
    // for a key no valid signature verified under (publicKeyShapeProblem): when both keys pass the
    // rest, the chains are authenticated first and only a key that authenticated nothing is tested
    // in full, with the same outcome as testing both before anything.
    let auth: Judged['auth']
    if (INDEX_ROLE.every((r) => problemOf(r, publicKeyShapeProblem) === undefined)) {
      const after = byGame.get(pair.key) ?? []
      const of = (r: Role): Authentication =>
        authenticate(
          r,
          [pair.hellos[r], ...after.filter((c) => c.framed.sender === r)],
          keys[r] ?? new Uint8Array(),
          checker.valid,
        )
      auth = { A: of('A'), B: of('B') }
    }
    let keyProblem: Judged['keyProblem']
    for (const r of INDEX_ROLE) {
      if (auth !== undefined && auth[r].ok.size > 0) continue
      const problem = problemOf(r, publicKeyProblem)
      if (problem === undefined) continue
      keyProblem = { role: r, problem }
      auth = undefined
      break
    }
    const authentic = auth !== undefined && INDEX_ROLE.every((r) => auth[r].ok.has(pair.hellos[r].id))
    const out: Judged = { pair, keyProblem, auth, authentic }
    judged.set(pair.key, out)
    return out
  }
  const found = perFile.map((items) => pairsOf(items, pool, decoded))
  return {
    receipts: [...receiptLines.values()],
    perFile,
    pool,
    byGame,
    pairs: found.map((f) => f.pairs),
    unpaired: found.map((f) => f.unpaired),
    orphans: found.map((f) => f.orphans),
    judge,
    decoded,
    checks: checker.count,
  }
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const out = new Uint8Array(a.length + b.length)
  out.set(a, 0)
  out.set(b, a.length)
  return out
}
