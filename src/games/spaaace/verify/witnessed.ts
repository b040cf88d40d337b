/**
 * `spaceships verify` for witnessed Spaaace! games (protocol/SPAAACE-WITNESSED.md §6.3, §7): the
 * files of one game read (SPAAACE-PEERS §2, receipt lines kept), their receipts read as one log and
 * their envelopes merged, then decided and reported: per tick final, provisional, gap or open, the
 * offences, the notary's faults, the end, and what more files or a later receipt could change.
 * Pure: text in, a report out.
 */
import { describeProtocolError } from '../../../core/wire/errors.js'
import { peerLabels } from '../peers/domain.js'
import type { SealedGenesis } from '../peers/genesis.js'
import { readPeersTranscript } from '../peers/transcript.js'
import { closingStateJson } from '../referee/json.js'
import { type Witnessed, decideFromFiles } from '../witness/evidence.js'
import type { SpaaaceFile } from './verify.js'
import { standingsLine } from './report.js'
import { witnessedLines } from './witnessed-report.js'

export type WitnessedVerdict =
  | { readonly status: 'unreadable'; readonly files: readonly string[]; readonly reason: string }
  | {
      readonly status: 'complete' | 'offence' | 'incomplete'
      readonly files: readonly string[]
      readonly game: string
      readonly players: number
      readonly witnessed: Witnessed
      readonly setAside: readonly { readonly file: string; readonly line: number; readonly reason: string }[]
    }

/** Whether a Spaaace! transcript's genesis names a notary (SPAAACE-PEERS §3.1 `witness = 1`). */
export function isWitnessedTranscript(text: string): boolean {
  const read = readPeersTranscript(text)
  return read.ok && read.value.genesis.genesis.notaryKey !== null
}

interface Group {
  readonly genesis: SealedGenesis
  readonly files: string[]
  readonly envelopes: Map<string, Uint8Array>
  readonly receipts: Map<string, Uint8Array>
  readonly setAside: { file: string; line: number; reason: string }[]
}

/** Decides each witnessed game among `files` (the files of one game merged). */
export function verifyWitnessed(
  files: readonly SpaaaceFile[],
  options: { separate?: boolean } = {},
): WitnessedVerdict[] {
  const out: WitnessedVerdict[] = []
  const games = new Map<string, Group>()
  for (const f of files) {
    const read = readPeersTranscript(f.text)
    if (!read.ok) {
      out.push({ status: 'unreadable', files: [f.name], reason: describeProtocolError(read.error) })
      continue
    }
    const key = options.separate === true ? `${read.value.genesis.id}/${f.name}` : read.value.genesis.id
    const g: Group = games.get(key) ?? {
      genesis: read.value.genesis,
      files: [],
      envelopes: new Map(),
      receipts: new Map(),
      setAside: [],
    }
    g.files.push(f.name)
    for (const e of read.value.envelopes) g.envelopes.set(Buffer.from(e.bytes).toString('base64url'), e.bytes)
    for (const r of read.value.receipts) g.receipts.set(Buffer.from(r).toString('base64url'), r)
    for (const s of read.value.setAside)
      g.setAside.push({ file: f.name, line: s.line + 1, reason: describeProtocolError(s.error) })
    games.set(key, g)
  }
  for (const g of games.values()) {
    const witnessed = decideFromFiles(g.genesis, [...g.receipts.values()], g.envelopes.values())
    const d = witnessed.decision
    const status = d.offences.length > 0 ? 'offence' : d.end.kind === 'complete' ? 'complete' : 'incomplete'
    out.push({
      status,
      files: g.files,
      game: g.genesis.id,
      players: g.genesis.genesis.keys.length,
      witnessed,
      setAside: g.setAside,
    })
  }
  return out
}

/** A verdict in words: the game, the ticks and the decision (witnessed-report.ts), the notary's faults, lines set aside. */
export function renderWitnessedVerdict(v: WitnessedVerdict, labels?: readonly string[]): string {
  if (v.status === 'unreadable') return `${v.files.join(' + ')}: unreadable: ${v.reason}\n`
  const names = labels ?? peerLabels(v.players)
  const { log, decision } = v.witnessed
  const lines = [`Spaaace! game ${v.game.slice(0, 16)}, ${v.players} players, witnessed, from ${v.files.join(' + ')}`]
  for (const l of witnessedLines(decision, names)) lines.push(l)
  const last = decision.ticks.filter((t) => t.outcome !== undefined).at(-1)
  if (last?.outcome !== undefined) lines.push(standingsLine(last.t, last.outcome.state, names))
  for (const f of log.faults) lines.push(`notary fault: ${f.kind} at receipt ${f.index}: ${f.detail}`)
  if (log.gaps.length > 0)
    lines.push(`${log.gaps.length} receipt(s) named by the log and in no file (a merge could fill them).`)
  if (log.setAside.length > 0)
    lines.push(
      `${log.setAside.length} receipt line(s) set aside (they do not decode, are not signed by the notary or by their player, or are of another game; SPAAACE-WITNESSED §6.3).`,
    )
  for (const s of v.setAside) lines.push(`set aside: ${s.file} line ${s.line}: ${s.reason}`)
  return `${lines.join('\n')}\n`
}

/** The verdict as JSON: the end, offences, faults, and each decided tick's closing state as the referee writes it. */
export function witnessedVerdictJson(v: WitnessedVerdict, labels?: readonly string[]): unknown {
  if (v.status === 'unreadable') return v
  const names = labels ?? peerLabels(v.players)
  const { log, decision } = v.witnessed
  return {
    status: v.status,
    witnessed: true,
    files: v.files,
    game: v.game,
    end: decision.end,
    offences: decision.offences,
    faults: log.faults.map((f) => ({ kind: f.kind, index: f.index, detail: f.detail })),
    voids: decision.voids,
    // What the words say beside the decision: receipts the log names and no file holds (another
    // player's file or the notary can fill them), receipt lines set aside, and signed envelopes the
    // notary never receipted (they count in no tick, §7.1; a vote among them only in §7.6 rule 4).
    missingReceipts: log.gaps.map((g) => g.index),
    receiptsSetAside: log.setAside.map((s) => ({ position: s.position, reason: s.reason })),
    unreceipted: decision.unreceipted,
    setAside: v.setAside,
    ticks: decision.ticks.map((t) => ({
      tick: t.t,
      status: t.status,
      ...(t.missing === undefined ? {} : { missing: t.missing }),
      closing: t.outcome === undefined ? null : (JSON.parse(closingStateJson(t.outcome, names)) as unknown),
    })),
  }
}
