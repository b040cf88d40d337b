/**
 * From transcript files to evidence (protocol/SPEC.md §12.1, §12.2): which game the files are of,
 * which of their envelopes each player provably signed, and what is missing. Pure: the files'
 * bytes are read by the caller. Nothing here convicts anyone of anything but equivocation, and
 * only on two envelopes the player signed.
 *
 * reading.ts reads the files and authenticates each sender's envelopes; here the game of the files
 * is chosen, and its chains, gaps and equivocation gathered.
 */
import type { SealedEnvelope } from '../protocol/envelope.js'
import type { ProtocolError } from '../../../core/wire/errors.js'
import { INDEX_ROLE, type Role, partTurn } from '../protocol/messages.js'
import { type ProtocolOffence, STAGE } from './offence.js'
import {
  type Authentication,
  type Candidate,
  type Decoder,
  type FileEvidence,
  type Note,
  type Pair,
  type Reading,
  type Where,
  helloAProblem,
  prevOf,
  reading,
} from './reading.js'

export type { FileEvidence, Note, Where } from './reading.js'

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
  /**
   * SPEC §12.6: the turn by place of a sender's envelope at `seq` whose parts name no turn (a stop,
   * a reveal, a verdict, bytes that do not decode): 1 + the highest turn named by the sender's
   * authenticated envelopes at a lower `seq`.
   */
  readonly turnByPlace: (sender: Role, seq: number) => number
  /** PROTOCOL-4.md §4.1: the notary receipts the files hold (a witnessed game's log), each once. */
  readonly receipts?: readonly Uint8Array[]
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
    turnByPlace: () => 0,
  }
}

/**
 * SPEC §12.1, §12.8: the game id (base64url) a file is grouped under: the first game it names,
 * else the game id most of its envelopes after the hellos carry (the first such in line order on
 * a tie), else none.
 */
export function gameOfFile(file: FileEvidence): string | undefined {
  const r = reading([file], [])
  let best: { game: string; count: number } | undefined
  for (const [game, list] of r.byGame)
    if (best === undefined || list.length > best.count) best = { game, count: list.length }
  const pairs = r.pairs[0] ?? []
  // A file with one pair, of the game most of its envelopes carry, is grouped under that game
  // whether the pair is authentic or not: its signatures are left to the verification itself
  // (`verify --jobs` groups every file on one thread before any is verified).
  if (pairs.length === 1 && pairs[0]?.key === best?.game) return best?.game
  const named = pairs.find((p) => r.judge(p).authentic)
  return named !== undefined ? named.key : best?.game
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
      // A B hello acknowledges an A envelope at seq 0 that is no hello of a game: say why (SPEC §6.1, §12.1).
      const broken = r.unpaired.flat()[0]
      if (broken !== undefined) return noGame(helloAProblem(broken, r.decoded), notes)
      const hasA = r.perFile.some((items) => items.some((x) => x.framed.sender === 'A' && x.framed.seq === 0))
      return noGame(
        r.orphans.some((o) => o.length > 0)
          ? "no game: A's hello, which B's hello acknowledges, is missing"
          : hasA
            ? "no game: B's hello (acknowledging A's) is missing"
            : 'no game: the hellos are missing',
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
      const inGame = f.seq === 0 ? it.id === pair.hellos[f.sender].id : r.pool.get(it.id)?.game === pair.key
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
  const after = r.byGame.get(pair.key) ?? []
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
  }
  const byPlace = { A: placeTurns(bySeq.A, r.decoded), B: placeTurns(bySeq.B, r.decoded) }
  const turnByPlace = (role: Role, seq: number): number => byPlace[role](seq)
  for (const role of INDEX_ROLE) {
    // Lowest seq first: between offences of one rank, the first listed is reported (SPEC §12.6).
    for (const [seq, list] of [...bySeq[role]].sort((x, y) => x[0] - y[0])) {
      if (list.length < 2 || seq === 0) continue
      // SPEC §12.6: ranked at the lower of the two envelopes' turns by place.
      const turns = list.map((c) => {
        const named = namedTurns(r.decoded(c))
        return named.length > 0 ? Math.min(...named) : turnByPlace(role, seq)
      })
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
  return {
    game,
    problem: undefined,
    hellos,
    chains,
    held,
    offences,
    gaps,
    notes,
    signatureChecks: r.checks(),
    receipts: r.receipts,
    turnByPlace,
  }
}

/** SPEC §12.6: the turns an envelope's parts name (a hello, refusal or setup names 0; a stop, reveal or verdict none). */
function namedTurns(x: SealedEnvelope | ProtocolError): number[] {
  if (!('envelope' in x)) return []
  return x.envelope.parts.flatMap((p) => {
    const t = partTurn(p)
    return t === undefined ? [] : [t]
  })
}

/**
 * SPEC §12.6: a sender's turns by place: for each `seq`, 1 + the highest turn any part of its
 * authenticated envelopes (every version, each decoded) at a lower `seq` names. The hello names 0,
 * so an envelope after it that names no turn is in turn 1 at the earliest.
 */
function placeTurns(bySeq: ReadonlyMap<number, readonly Candidate[]>, decoded: Decoder): (seq: number) => number {
  const seqs = [...bySeq.keys()].sort((x, y) => x - y)
  const highest: number[] = []
  let running = -1
  for (const seq of seqs) {
    for (const c of bySeq.get(seq) ?? []) running = Math.max(running, ...namedTurns(decoded(c)))
    highest.push(running)
  }
  return (seq) => {
    // The last seq below `seq`: the highest turn named up to it.
    let lo = 0
    let hi = seqs.length
    while (lo < hi) {
      const mid = (lo + hi) >> 1
      if ((seqs[mid] ?? 0) < seq) lo = mid + 1
      else hi = mid
    }
    return 1 + (lo === 0 ? -1 : (highest[lo - 1] ?? -1))
  }
}
