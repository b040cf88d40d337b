/**
 * The verifier (protocol/SPEC.md §11): from a transcript's envelopes alone, the verdict on a game.
 * Pure: no network, no clock, no randomness; hostile input gives a verdict, never a throw.
 */
import { fromBase64url } from '../commit/bytes.js'
import { GAME_ID_BYTES } from '../commit/commitments.js'
import { parseRuleset, type Ruleset } from '../rules/ruleset.js'
import { type SealedEnvelope, gameIdOf } from '../transcript/envelope.js'
import { type TranscriptFileError, parseTranscript } from '../transcript/file.js'
import type { EndReason, Role, Terms } from '../transcript/messages.js'
import { Chains, chainCover } from './chain.js'
import { type Exposure, checkAnswers, checkFlashcube, newExposure } from './exposure.js'
import { type SideLog, appendBody, emptySideLog, endTurn } from './log.js'
import { INDEX_ROLE, type ProtocolOffence, ROLE_INDEX, otherRole } from './offence.js'
import { type SideReplay, replaySide, scoreOf } from './replay.js'

export type TranscriptVerdict =
  | { readonly status: 'complete'; readonly gameId: string; readonly reason: EndReason; readonly turn: number; readonly scores: readonly [number, number]; readonly winner: Role | 'draw' }
  | { readonly status: 'offence'; readonly gameId: string | undefined; readonly offence: ProtocolOffence }
  | {
      readonly status: 'incomplete'
      readonly gameId: string | undefined
      /** Who owed the next message and never sent it; `both` when each side owes one (the file was cut). */
      readonly stoppedBy: Role | 'both' | undefined
      /** Each side's last message, e.g. `results of turn 7`. */
      readonly last: Readonly<Record<Role, string>>
      /** Sides that revealed and whose replay found nothing wrong. */
      readonly honest: readonly Role[]
      readonly detail: string
    }
  | { readonly status: 'unreadable'; readonly error: TranscriptFileError }

/** Where in a turn an offence happened, to find the first one (SPEC §11.4). */
const STAGE = { chain: 0, record: 1, answers: 2, flashcube: 3 } as const

interface Candidate {
  readonly offence: ProtocolOffence
  readonly stage: number
}

function first(candidates: readonly Candidate[]): ProtocolOffence | undefined {
  const sorted = [...candidates].sort((x, y) => x.offence.turn - y.offence.turn || x.stage - y.stage || ROLE_INDEX[x.offence.offender] - ROLE_INDEX[y.offence.offender])
  return sorted[0]?.offence
}

function stageOfReplay(r: SideReplay, log: SideLog): number {
  const seq = r.offence?.seq
  const key = [...log.seqs].find(([, s]) => s === seq)?.[0] ?? ''
  return key.startsWith('results') ? STAGE.answers : key.startsWith('flashcube') ? STAGE.flashcube : STAGE.record
}

function lastMessage(log: SideLog): string {
  if (log.verdict !== undefined) return `verdict (${log.verdict.outcome})`
  if (log.reveal !== undefined) return 'reveal'
  if (log.refuse !== undefined) return `refusal (${log.refuse.reason})`
  const n = log.commits.length
  if (log.flashcubes.length === n && n > 0) return `flashcube of turn ${n}`
  if (log.results.length === n && n > 0) return `results of turn ${n}`
  if (log.aspects.length === n && n > 0) return `aspects of turn ${n}`
  if (n > 0) return `commit of turn ${n}`
  if (log.setup !== undefined) return 'setup'
  return log.hello !== undefined ? 'hello' : 'nothing'
}

/** What `own` owes next, if the other side has already sent what it depends on (SPEC §6.3). */
function owes(own: SideLog, other: SideLog, ended: number | undefined): string | undefined {
  if (own.verdict !== undefined || own.refuse !== undefined || other.refuse !== undefined) return undefined
  if (own.reveal !== undefined) return other.reveal !== undefined ? 'verdict' : undefined
  if (own.hello === undefined) return undefined
  if (own.setup === undefined) return other.hello !== undefined ? 'setup' : undefined
  const n = own.commits.length
  if (own.aspects.length < n) return other.commits.length >= n ? `aspects of turn ${n}` : undefined
  if (own.results.length < n) return other.aspects.length >= n ? `results of turn ${n}` : undefined
  if (own.flashcubes.length < n) return other.results.length >= n ? `flashcube of turn ${n}` : undefined
  if (ended !== undefined && n >= ended) return other.flashcubes.length >= ended ? 'reveal' : undefined
  // The other side stopped early: what this side owes now is its own reveal.
  if (other.reveal !== undefined && other.verdict !== undefined) return 'reveal'
  return (n === 0 ? other.setup !== undefined : other.flashcubes.length >= n) ? `commit of turn ${n + 1}` : undefined
}

/** `verified`: envelope hashes whose signatures the caller has already checked under these hellos. */
export function verifyEnvelopes(list: readonly SealedEnvelope[], verified?: ReadonlySet<string>): TranscriptVerdict {
  const logs: Record<Role, SideLog> = { A: emptySideLog('A'), B: emptySideLog('B') }
  const candidates: Candidate[] = []
  const stopped: Record<Role, boolean> = { A: false, B: false }
  // A session hands over what it verified live; a file is authenticated chain by chain (SPEC §11.1).
  const chains = new Chains(verified === undefined ? chainCover(list) : new Set(verified))
  const chainOffence = (o: ProtocolOffence): void => {
    candidates.push({ offence: o, stage: STAGE.chain })
    stopped[o.offender] = true
  }
  // Pass 1: chains, hellos first (the game id depends on both), then each sender in seq order.
  const ordered = [...list].map((s, i) => ({ s, i })).sort((x, y) => x.s.envelope.seq - y.s.envelope.seq || x.i - y.i)
  for (const { s } of ordered) {
    const role = s.envelope.from
    if (stopped[role]) continue
    if (s.envelope.seq === 1 && chains.gameId === undefined) {
      const a = chains.envelopes.A[0]
      const b = chains.envelopes.B[0]
      if (a !== undefined && b !== undefined) chains.gameId = gameIdOf(a, b)
    }
    const r = chains.accept(s, false)
    if (r.kind === 'offence') chainOffence(r.offence)
  }
  const brokenInPass1 = { ...stopped }
  for (const role of INDEX_ROLE) {
    const bad = chains.checkAcks(role)
    if (bad !== undefined) {
      // An ack that names an envelope the other side's broken chain lost is not this side's fault.
      if (!brokenInPass1[otherRole(role)]) chainOffence(bad.offence)
      chains.envelopes[role].splice(bad.at)
    }
  }
  for (const role of INDEX_ROLE) {
    for (const s of chains.envelopes[role]) {
      const problem = appendBody(logs[role], s.envelope.body, s.envelope.seq)
      if (problem !== undefined) {
        chainOffence({ offender: role, class: 'protocol-violation', rule: 'SPEC §6.3', turn: logs[role].commits.length, detail: problem, seq: s.envelope.seq })
        break
      }
    }
  }
  const gameId = chains.gameId
  const [A, B] = [logs.A, logs.B]
  const done = (): TranscriptVerdict | undefined => {
    const o = first(candidates)
    return o === undefined ? undefined : { status: 'offence', gameId, offence: o }
  }
  const incomplete = (detail: string, honest: readonly Role[], ended?: number): TranscriptVerdict => {
    const owing = INDEX_ROLE.filter((r) => owes(logs[r], logs[otherRole(r)], ended) !== undefined)
    const stoppedBy = owing.length === 2 ? 'both' : owing[0]
    const who = stoppedBy === undefined || stoppedBy === 'both' ? '' : `; ${stoppedBy} stopped after its ${lastMessage(logs[stoppedBy])} and owes its ${owes(logs[stoppedBy], logs[otherRole(stoppedBy)], ended) ?? ''}`
    return { status: 'incomplete', gameId, stoppedBy, last: { A: lastMessage(A), B: lastMessage(B) }, honest, detail: detail + who }
  }
  // Hellos: both present, one A and one B, the same terms (SPEC §6.1).
  if (A.hello === undefined || B.hello === undefined) return done() ?? incomplete('no game: a hello is missing', [])
  if (A.hello.role !== 'A' || B.hello.role !== 'B') {
    candidates.push({ offence: { offender: A.hello.role !== 'A' ? 'A' : 'B', class: 'protocol-violation', rule: 'SPEC §6.1', turn: 0, detail: 'a hello states a role other than its sender', seq: 0 }, stage: STAGE.chain })
    return done() ?? incomplete('', [])
  }
  if (A.refuse !== undefined || B.refuse !== undefined) {
    const r = A.refuse ?? B.refuse
    return done() ?? incomplete(`no game: ${A.refuse !== undefined ? 'A' : 'B'} refused (${r?.reason ?? ''}: ${r?.detail ?? ''})`, [])
  }
  const terms: Terms = A.hello.terms
  if (JSON.stringify(terms) !== JSON.stringify(B.hello.terms)) {
    const offender: Role = B.setup !== undefined ? 'B' : 'A'
    if (A.setup !== undefined || B.setup !== undefined) candidates.push({ offence: { offender, class: 'protocol-violation', rule: 'SPEC §6.2', turn: 0, detail: 'continued after hellos with different terms instead of refusing' }, stage: STAGE.chain })
    return done() ?? incomplete('no game: the hellos state different terms', [])
  }
  const parsed = parseRuleset(terms.ruleset)
  if (!parsed.ok) return done() ?? incomplete('no game: unusable ruleset', [])
  const ruleset: Ruleset = parsed.value
  const gameBytes = fromBase64url(gameId ?? '', GAME_ID_BYTES) ?? new Uint8Array(GAME_ID_BYTES)
  const ctx = (r: Role) => ({ gameId: gameBytes, player: ROLE_INDEX[r] })
  const ended = endTurn(A, B, terms.maxTurns)
  // Causality: aspects only after holding the opponent's commitment (SPEC §6.3, DESIGN.md §2).
  for (const r of INDEX_ROLE) {
    const own = logs[r]
    const other = logs[otherRole(r)]
    for (let n = 1; n <= own.aspects.length; n++) {
      const seq = own.seqs.get(`aspects:${n}`) ?? -1
      const env = chains.envelopes[r][seq]
      const ackIdx = env === undefined ? -1 : chains.ackIndex(env)
      const commitSeq = other.seqs.get(`commit:${n}`)
      if (commitSeq === undefined || typeof ackIdx !== 'number' || ackIdx < commitSeq) {
        candidates.push({ offence: { offender: r, class: 'protocol-violation', rule: 'SPEC §6.3', turn: n, detail: `aspects of turn ${n} sent before holding the opponent's record commitment`, seq }, stage: STAGE.chain })
        break
      }
    }
    if (ended !== undefined && own.commits.length > ended.turn) {
      candidates.push({ offence: { offender: r, class: 'protocol-violation', rule: 'SPEC §6.4', turn: ended.turn + 1, detail: `committed turn ${ended.turn + 1} after the game ended in turn ${ended.turn}`, seq: own.seqs.get(`commit:${ended.turn + 1}`) }, stage: STAGE.chain })
    }
  }
  // Checks on receipt (SPEC §11.2), turn by turn.
  const exposures: Partial<Record<Role, Exposure>> = {}
  for (const r of INDEX_ROLE) {
    const setup = logs[r].setup
    if (setup !== undefined) exposures[r] = newExposure(r, ruleset, ctx(r), fromBase64url(setup.cells) ?? new Uint8Array())
  }
  const lastTurn = Math.max(A.commits.length, B.commits.length)
  const blocked: Record<Role, boolean> = { A: false, B: false }
  for (let n = 1; n <= lastTurn; n++) {
    for (const r of INDEX_ROLE) {
      const e = exposures[r]
      const own = logs[r]
      const other = logs[otherRole(r)]
      const results = own.results[n - 1]
      const ownAspects = own.aspects[n - 1]
      const incoming = other.aspects[n - 1]
      if (blocked[r] || e === undefined || results === undefined || ownAspects === undefined || incoming === undefined) continue
      const bad = checkAnswers(e, n, ownAspects, incoming, results)
      if (bad !== undefined) {
        candidates.push({ offence: { ...bad, seq: own.seqs.get(`results:${n}`) }, stage: STAGE.answers })
        blocked[r] = true
      }
    }
    for (const r of INDEX_ROLE) {
      const e = exposures[r]
      const flash = logs[r].flashcubes[n - 1]
      const theirs = logs[otherRole(r)].results[n - 1]
      if (blocked[r] || e === undefined || flash === undefined || theirs === undefined) continue
      const bad = checkFlashcube(e, n, theirs.destroyed, flash)
      if (bad !== undefined) {
        candidates.push({ offence: { ...bad, seq: logs[r].seqs.get(`flashcube:${n}`) }, stage: STAGE.flashcube })
        blocked[r] = true
      }
    }
  }
  // The reveals (SPEC §11.3).
  const replays: Partial<Record<Role, SideReplay>> = {}
  for (const r of INDEX_ROLE) {
    if (logs[r].reveal === undefined) continue
    const rep = replaySide(ruleset, ctx(r), logs[r], logs[otherRole(r)])
    replays[r] = rep
    if (rep.offence !== undefined) candidates.push({ offence: rep.offence, stage: stageOfReplay(rep, logs[r]) })
  }
  const offence = done()
  if (offence !== undefined) return offence
  const honest = INDEX_ROLE.filter((r) => replays[r] !== undefined)
  const stateA = replays.A?.state
  const stateB = replays.B?.state
  if (ended === undefined || stateA === undefined || stateB === undefined || A.flashcubes.length < ended.turn || B.flashcubes.length < ended.turn) {
    return incomplete(ended === undefined ? 'the game did not reach its end' : 'the game ended but not every reveal is present', honest, ended?.turn)
  }
  const scores: [number, number] = [scoreOf(stateA), scoreOf(stateB)]
  const winner: Role | 'draw' = scores[0] === scores[1] ? 'draw' : scores[0] > scores[1] ? 'A' : 'B'
  // A signed verdict that contradicts the replay is itself a false claim by its signer.
  for (const r of INDEX_ROLE) {
    const v = logs[r].verdict
    if (v === undefined) continue
    const agrees = v.outcome === 'complete' && v.reason === ended.reason && v.turn === ended.turn && v.scores[0] === scores[0] && v.scores[1] === scores[1] && v.winner === winner
    if (!agrees) {
      return { status: 'offence', gameId, offence: { offender: r, class: 'protocol-violation', rule: 'SPEC §7.6', turn: ended.turn, detail: `signed a verdict (${v.outcome}) that the replay contradicts`, seq: logs[r].seqs.get('verdict') } }
    }
  }
  return { status: 'complete', gameId: gameId ?? '', reason: ended.reason, turn: ended.turn, scores, winner }
}

/** Reads and verifies a transcript file. */
export function verifyTranscript(input: string | Uint8Array): TranscriptVerdict {
  const parsed = parseTranscript(input)
  if (!parsed.ok) return { status: 'unreadable', error: parsed.error }
  return verifyEnvelopes(parsed.value)
}
