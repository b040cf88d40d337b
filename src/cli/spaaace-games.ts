/**
 * `spaceships spaaace games`: the Spaaace! games on this machine (protocol/SPAAACE-PEERS.md), one
 * line each: the game, its players, your seat, how far it is decided from your own transcript
 * (§5, the same decision `verify` makes), and the command that resumes it. A game's directory that
 * cannot be read is listed with the reason, never skipped in silence.
 */
import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { toHex } from '../core/commit/bytes.js'
import { defaultIdentityPath } from '../core/net/identity.js'
import { parseSpaaaceInvite } from '../games/spaaace/node/invite.js'
import { decide } from '../games/spaaace/peers/decide.js'
import { witnessedEndLine } from '../games/spaaace/verify/witnessed-report.js'
import { endIsFinal } from '../games/spaaace/witness/checkin.js'
import { decideFromFiles } from '../games/spaaace/witness/evidence.js'
import { readPeersTranscript } from '../games/spaaace/peers/transcript.js'
import { endLine } from '../games/spaaace/verify/report.js'
import { lockHolder, spaaaceRoot } from './games.js'
import { identityFor } from './identity.js'
import { peerNamesFor } from './peer-names.js'
import { type CliIo, EXIT, commandName } from './io.js'
import { wrapLine } from '../games/spaaace/ui/screen.js'

export interface SpaaaceGameRow {
  readonly game: string
  readonly dir: string
  readonly players?: number
  /**
   * Each seat as this player knows it (index = roster index): `you`, a bot this machine runs for
   * the game (its key is in the game's directory), or the other player by `names` (pinned name,
   * else its PeerId's tail).
   */
  readonly seats?: readonly string[]
  /** When tick 1 started (the genesis's timing, ISO 8601). */
  readonly started?: string
  /** When this player's transcript was last written (ISO 8601): a game played a move a day is found by it. */
  readonly written?: string
  /** Your roster index + 1, when your key is in the roster. */
  readonly seat?: number
  /** Ticks decided from the transcript (in a witnessed game, final or provisional). */
  readonly tick?: number
  /** A witnessed game's decided ticks still provisional: a complaint in time could void an envelope of them (SPAAACE-WITNESSED §7.2). */
  readonly provisional?: number
  readonly maxTicks?: number
  readonly end?: string
  readonly ended?: boolean
  /**
   * A witnessed game (SPAAACE-WITNESSED) played by check-ins: its windows leave time to come back
   * (CHECK_IN_WINDOW_MS). A witnessed game with live windows is resumed live, every seat of the
   * process playing when it must, as an unwitnessed one is.
   */
  readonly witnessed?: boolean
  /** The process of this machine playing the game now (it holds the game, so no other may). */
  readonly openIn?: number
  /** Why this node signs nothing in the game (SPAAACE-PEERS §6.8 step 8), read from its files. */
  readonly signsNothing?: string
  readonly error?: string
}

/**
 * The shortest commit and reveal windows a person can be asked to check in within: with the live
 * windows (13 and 5.5 s at a 500 ms Δ) a check-in is over before anyone reads its advice, and a
 * host that followed it lost every seat's reveals, its bots' included, and was removed for absence.
 */
export const CHECK_IN_WINDOW_MS = 5 * 60_000

/** A bot's key file in a game's directory names its seat (`bot-p<seat>.key`, spaaace-net.ts). */
const BOT_KEY = /^bot-p(\d+)\.key$/

/**
 * Every game directory under `$XDG_STATE_HOME/spaceships/spaaace/`, read against `publicKey`;
 * `nameOf` names another player's seat by its key (the command's: its pinned name and PeerId).
 */
export function spaaaceGames(
  env: NodeJS.ProcessEnv,
  publicKey: Uint8Array,
  nameOf: (key: Uint8Array) => string = (k) => toHex(k).slice(0, 12),
): SpaaaceGameRow[] {
  const root = spaaaceRoot(env)
  if (!existsSync(root)) return []
  const rows: SpaaaceGameRow[] = []
  for (const name of readdirSync(root).sort()) {
    const dir = join(root, name)
    const row = { game: name, dir }
    let text: string
    try {
      text = readFileSync(join(dir, 'invite'), 'utf8')
    } catch {
      rows.push({ ...row, error: 'no invite in its directory' })
      continue
    }
    const parsed = parseSpaaaceInvite(text)
    if (!parsed.ok) {
      rows.push({ ...row, error: `its invite: ${parsed.reason}` })
      continue
    }
    const g = parsed.invite.genesis
    const self = g.genesis.keys.findIndex((k) => toHex(k) === toHex(publicKey))
    const openIn = lockHolder(dir)
    const bots = new Set(
      readdirSync(dir).flatMap((f) => {
        const m = BOT_KEY.exec(f)
        return m === null ? [] : [Number(m[1]) - 1]
      }),
    )
    const base = {
      ...row,
      players: g.genesis.keys.length,
      seats: g.genesis.keys.map((k, i) => (i === self ? 'you' : bots.has(i) ? 'your bot' : nameOf(k))),
      started: new Date(g.genesis.timing.start).toISOString(),
      maxTicks: g.genesis.terms.maxTicks,
      ...(openIn === undefined ? {} : { openIn }),
    }
    if (self < 0) {
      rows.push({ ...base, error: 'your key is not in its roster (another identity played it)' })
      continue
    }
    let transcript: string
    let written: string
    try {
      const file = join(dir, `p${self + 1}.transcript`)
      transcript = readFileSync(file, 'latin1')
      written = statSync(file).mtime.toISOString()
    } catch {
      rows.push({ ...base, seat: self + 1, tick: 0, end: 'not joined yet', ended: false })
      continue
    }
    const read = readPeersTranscript(transcript)
    if (!read.ok) {
      rows.push({ ...base, seat: self + 1, written, error: 'its transcript does not read' })
      continue
    }
    const labels = g.genesis.keys.map((_, i) => (i === self ? 'you' : `p${i + 1}`))
    const own = read.value.envelopes.filter((e) => e.header.author === self).length
    const why = signsNothing(join(dir, `p${self + 1}.secrets`), own)
    const mine = { ...base, ...(why === undefined ? {} : { signsNothing: why }) }
    if (g.genesis.notaryKey !== null) {
      // A witnessed game: decided by the notary's receipts the file holds (SPAAACE-WITNESSED §7).
      const w = decideFromFiles(
        g,
        read.value.receipts,
        read.value.envelopes.map((e) => e.bytes),
      ).decision
      rows.push({
        ...mine,
        seat: self + 1,
        written,
        tick: w.ticks.filter((t) => t.status === 'final' || t.status === 'provisional').length,
        provisional: w.ticks.filter((t) => t.status === 'provisional').length,
        end: witnessedEndLine(w.end, labels),
        ended:
          endIsFinal(w) || w.end.kind === 'not-started' || (w.end.kind === 'stalled' && w.end.cause === 'notary-fault'),
        witnessed: Math.min(g.genesis.timing.commitMs, g.genesis.timing.revealMs) >= CHECK_IN_WINDOW_MS,
      })
      continue
    }
    const d = decide(g, read.value.envelopes, { self })
    const settled = d.ticks.filter((t) => t.settled).length
    rows.push({
      ...mine,
      seat: self + 1,
      written,
      tick: settled,
      end: endLine(d.end, labels),
      ended: d.end.kind === 'complete' || d.end.kind === 'stalled' || d.end.kind === 'not-started',
    })
  }
  return rows
}

/**
 * What the secrets file says of a node that holds `own` of its envelopes (§6.8 step 8): its seed
 * found lost, or more envelopes signed than its transcript holds (it waits for them); else nothing.
 */
function signsNothing(secretsFile: string, own: number): string | undefined {
  let secrets: { signed?: unknown; seedLost?: unknown }
  try {
    secrets = JSON.parse(readFileSync(secretsFile, 'utf8')) as { signed?: unknown; seedLost?: unknown }
  } catch {
    return undefined
  }
  if (secrets.seedLost === true)
    return 'its secrets file was made afresh: the seed its commitments were salted with is gone'
  if (typeof secrets.signed === 'number' && secrets.signed > own)
    return `its transcript holds ${own} of the ${secrets.signed} envelopes it signed (lost, or replaced by an older copy): it waits for the others to send them back`
  return undefined
}

export async function spaaaceGamesCommand(io: CliIo, f: { identity?: string; json: boolean }): Promise<number> {
  const env = io.env ?? process.env
  // A listing creates nothing: without an identity this player has no seat in any game.
  const rows = existsSync(f.identity ?? defaultIdentityPath(env))
    ? spaaaceGames(env, (await identityFor({ ...f, bot: 'sensible' }, io)).keys.publicKey, await seatNamer(io))
    : []
  if (f.json) {
    io.stdout(`${JSON.stringify(rows, null, 2)}\n`)
    return EXIT.ok
  }
  if (rows.length === 0) {
    // `spaaace play` games are in memory on this machine, written where --out says: none is here.
    io.stdout(
      'No Spaaace! games among people on this machine (spaaace host, spaaace join). A game against bots (spaaace play) is written where it says, spaaace-SEED.transcript by default: verify or show that file.\n',
    )
    return EXIT.ok
  }
  io.stdout(formatSpaaaceGames(rows, commandName(env)))
  return EXIT.ok
}

/**
 * Another player as the listing names it: the name this player pinned to its PeerId and the
 * PeerId's tail, else the tail (the start screen gives whole PeerIds to pin). Only the PeerId's
 * two small modules are loaded, not the network stack.
 */
async function seatNamer(io: CliIo): Promise<(key: Uint8Array) => string> {
  const [{ peerIdFromPublicKey }, { publicKeyFromRaw }] = await Promise.all([
    import('@libp2p/peer-id'),
    import('@libp2p/crypto/keys'),
  ])
  const names = peerNamesFor(io)
  return (key) => {
    const id = peerIdFromPublicKey(publicKeyFromRaw(key)).toString()
    return names.label(id) ?? id
  }
}

/** `2026-11-26 21:40` (UTC), as `spaceships games` writes its dates. */
const minute = (iso: string): string => iso.slice(0, 16).replace('T', ' ')

/** A listing is read in any terminal: its prose fits the classic 80 columns. */
const LIST_COLUMNS = 80

/**
 * The rows as a person reads them: a game per block, its prose wrapped to LIST_COLUMNS, and the
 * command that carries it on alone on an indented line, never wrapped (it is copied as it stands).
 */
export function formatSpaaaceGames(rows: readonly SpaaaceGameRow[], cmd: string): string {
  const out: string[] = []
  const para = (text: string, indent: string): void => {
    out.push(...wrapLine(indent + text, LIST_COLUMNS, indent + '  '))
  }
  for (const r of rows) {
    if (r.error !== undefined) {
      para(`${r.game}: cannot be read: ${r.error} (${r.dir})`, '')
      continue
    }
    const provisional = (r.provisional ?? 0) > 0 ? ` (${r.provisional ?? 0} provisional)` : ''
    para(
      `${r.game}: ${r.players ?? 0} players, you are p${r.seat ?? 0}, ${r.tick ?? 0} of ${r.maxTicks ?? 0} ticks settled${provisional}`,
      '',
    )
    const others = (r.seats ?? []).flatMap((s, i) => (s === 'you' ? [] : [`p${i + 1} ${s}`]))
    const dates = [
      r.started === undefined ? '' : `started ${minute(r.started)}`,
      r.written === undefined ? '' : `your file written ${minute(r.written)}`,
    ].filter((d) => d !== '')
    const said = [
      others.length > 0 ? `with ${others.join(', ')}` : '',
      dates.length > 0 ? `${dates.join(', ')} (UTC)` : '',
    ]
    if (said.some((d) => d !== '')) para(said.filter((d) => d !== '').join('; '), '  ')
    para(r.end ?? '', '  ')
    if (r.signsNothing !== undefined) para(`Your node signs nothing in this game: ${r.signsNothing}.`, '  ')
    if (r.ended !== true && r.openIn !== undefined)
      para(
        `Open in process ${r.openIn} on this machine, which ${r.signsNothing === undefined ? 'plays it on' : 'holds it'} (stop that one to resume here).`,
        '  ',
      )
    else if (r.ended !== true) {
      out.push(`  ${r.witnessed === true ? 'Check in' : 'Resume'} with:`)
      out.push(`    ${cmd} spaaace join @${join(r.dir, 'invite')}${r.witnessed === true ? ' --check-in' : ''}`)
    }
  }
  return `${out.join('\n')}\n`
}

/**
 * Before `spaaace host` starts a new game: the player's games on this machine its transcript does
 * not show over, and how to resume one; undefined when there are none.
 */
export function unfinishedNote(env: NodeJS.ProcessEnv, publicKey: Uint8Array, cmd: string): string | undefined {
  const open = spaaaceGames(env, publicKey).filter((r) => r.seat !== undefined && r.ended === false)
  const first = open[0]
  if (first === undefined) return undefined
  const which =
    open.length === 1
      ? 'a Spaaace! game on this machine that your transcript does not show over'
      : `${open.length} Spaaace! games on this machine that your transcripts do not show over (${cmd} spaaace games lists them)`
  return `Note: this starts a new game. You have ${which}; ${cmd} spaaace join @${join(first.dir, 'invite')} resumes ${open.length === 1 ? 'it' : `game ${first.game}`}.`
}
