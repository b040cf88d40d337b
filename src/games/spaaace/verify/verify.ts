/**
 * `spaceships verify` for Spaaace! (protocol/SPAAACE-PEERS.md §13): one or more transcript files of
 * one game, read (§2, BD-13), merged (one envelope per identity, §4.1), authenticated and decided
 * (§5, `decide`), and reported: per tick the closing state and whether a majority signed it, every
 * offence with its class, rule and tick, the end, the gaps, and what a merge of more files could
 * change (§7.4). Pure: text in, a report out.
 */
import { closingStateJson } from '../referee/json.js'
import { type Decision, decide } from '../peers/decide.js'
import { peerLabels } from '../peers/domain.js'
import { readPeersTranscript, type SetAside } from '../peers/transcript.js'
import { describeProtocolError } from '../../../core/wire/errors.js'
import type { ReadEnvelope } from '../peers/envelope.js'
import type { SealedGenesis } from '../peers/genesis.js'
import { decisionLines, standingsLine } from './report.js'

export interface SpaaaceFile {
  readonly name: string
  readonly text: string
}

export type SpaaaceVerdict =
  | { readonly status: 'unreadable'; readonly files: readonly string[]; readonly reason: string }
  | {
      readonly status: 'complete' | 'offence' | 'incomplete'
      readonly files: readonly string[]
      readonly game: string
      readonly players: number
      readonly decision: Decision
      readonly setAside: readonly { readonly file: string; readonly line: number; readonly reason: string }[]
    }

/** Whether a file's text is a Spaaace! transcript (its first line, §2). */
export { isSpaaaceTranscript } from '../peers/domain.js'

/**
 * Decides each game among `files` (files of one game are merged; a file that does not read is
 * unreadable on its own).
 */
export function verifySpaaace(files: readonly SpaaaceFile[], options: { separate?: boolean } = {}): SpaaaceVerdict[] {
  const out: SpaaaceVerdict[] = []
  const games = new Map<string, Group>()
  for (const f of files) {
    const read = readPeersTranscript(f.text)
    if (!read.ok) {
      out.push({ status: 'unreadable', files: [f.name], reason: describeProtocolError(read.error) })
      continue
    }
    const key = options.separate === true ? `${read.value.genesis.id}/${f.name}` : read.value.genesis.id
    const g: Group = games.get(key) ?? { genesis: read.value.genesis, files: [], envelopes: new Map(), setAside: [] }
    g.files.push(f.name)
    // One envelope per byte string; two with one hash and other signature bytes are both kept (BD-13).
    for (const e of read.value.envelopes) g.envelopes.set(Buffer.from(e.bytes).toString('base64url'), e)
    for (const s of read.value.setAside) g.setAside.push({ file: f.name, s })
    games.set(key, g)
  }
  for (const g of games.values()) {
    const decision = decide(g.genesis, g.envelopes.values())
    const status =
      decision.offences.length > 0 ? 'offence' : decision.end.kind === 'complete' ? 'complete' : 'incomplete'
    out.push({
      status,
      files: g.files,
      game: g.genesis.id,
      players: g.genesis.genesis.keys.length,
      decision,
      setAside: g.setAside.map(({ file, s }) => ({ file, line: s.line + 1, reason: describeProtocolError(s.error) })),
    })
  }
  return out
}

interface Group {
  readonly genesis: SealedGenesis
  readonly files: string[]
  readonly envelopes: Map<string, ReadEnvelope>
  readonly setAside: SetAsideIn[]
}

interface SetAsideIn {
  readonly file: string
  readonly s: SetAside
}

/** A verdict in words: per tick, then the decision (report.ts), then the lines set aside. */
export function renderSpaaaceVerdict(v: SpaaaceVerdict, labels?: readonly string[]): string {
  if (v.status === 'unreadable') return `${v.files.join(' + ')}: unreadable: ${v.reason}\n`
  const names = labels ?? peerLabels(v.players)
  const lines = [`Spaaace! game ${v.game.slice(0, 16)}, ${v.players} players, from ${v.files.join(' + ')}`]
  for (const t of v.decision.ticks) {
    const subs = t.submissions ?? []
    const notes = subs.flatMap((s, i) =>
      s.kind === 'orders' || !t.active.includes(i) ? [] : [`${names[i] ?? ''} ${s.kind}`],
    )
    const how =
      t.status === 'canonical'
        ? `signed by ${t.canonical?.signers.length ?? 0} of ${t.active.length}`
        : t.status === 'provisional'
          ? 'provisional: settled, not yet signed by a majority'
          : t.status
    lines.push(`tick ${t.t}: ${how}${notes.length === 0 ? '' : `; ${notes.join(', ')}`}`)
  }
  const last = v.decision.ticks.filter((t) => t.outcome !== undefined).at(-1)
  if (last?.outcome !== undefined) lines.push(standingsLine(last.t, last.outcome.state, names))
  // A loop, not a spread: a hostile file's decision may have more lines than a call takes arguments.
  for (const l of decisionLines(v.decision, names)) lines.push(l)
  for (const s of v.setAside) lines.push(`set aside: ${s.file} line ${s.line}: ${s.reason}`)
  return `${lines.join('\n')}\n`
}

/** The verdict as JSON: the end, offences, and each tick's closing state as the referee writes it. */
export function spaaaceVerdictJson(v: SpaaaceVerdict, labels?: readonly string[]): unknown {
  if (v.status === 'unreadable') return v
  const names = labels ?? peerLabels(v.players)
  return {
    status: v.status,
    files: v.files,
    game: v.game,
    end: v.decision.end,
    offences: v.decision.offences,
    gaps: v.decision.gaps,
    unauthenticated: v.decision.unauthenticated,
    notEvidence: v.decision.notEvidence,
    setAside: v.setAside,
    ticks: v.decision.ticks.map((t) => ({
      tick: t.t,
      status: t.status,
      signers: t.canonical?.signers.length ?? 0,
      closing: t.outcome === undefined ? null : (JSON.parse(closingStateJson(t.outcome, names)) as unknown),
    })),
  }
}
