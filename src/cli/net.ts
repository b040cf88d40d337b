/**
 * Running a stored game over the network as its host or its joiner, the complete caller of
 * `hostGame` and `joinGame`: the options both sides share, the addresses an invite carries, and
 * the game's files locked while it runs. The commands (host, join, resume) decide which game.
 */
import { progressOf } from './library.js'
import { formatTranscript } from '../games/spaceships/protocol/file.js'
import { decodeEnvelope } from '../games/spaceships/protocol/envelope.js'
import { toBase64url } from '../core/commit/bytes.js'
import { join } from 'node:path'
import type { Libp2p } from '@libp2p/interface'
import { systemSecrets } from '../core/commit/secrets.js'
import { type NetGameCommon, hostGame, joinGame } from '../games/spaceships/net/game.js'
import { checkInGame } from '../games/spaceships/net/check-in.js'
import { moveAlerts, notifier } from './alerts.js'
import type { Identity } from '../core/net/identity.js'
import { formatInvite, parseInvite } from '../games/spaceships/net/invite.js'
import type { PlayerStrategy, TurnContext } from '../games/spaceships/session/strategy.js'
import type { ProtocolVersion, Role, Terms } from '../games/spaceships/protocol/messages.js'
import { turnReport } from '../games/spaceships/ui/screen.js'
import { SCREEN_COLUMNS, deadlineText, outcomeLine, spanText, witnessText, wrap } from '../games/spaceships/ui/panel.js'
import {
  type GameFiles,
  type GameMeta,
  endedMeta,
  keepGameId,
  keepOpponentName,
  openGameFiles,
  versionOfMeta,
  sideOf,
  writeMeta,
} from './games.js'
import { systemClock } from '../core/session/clock.js'
import { type CliIo, EXIT, UserError, commandName } from './io.js'
import { GameLeftError, interruptedWhileWaiting, interruptible, leftAtPrompt } from './guarded.js'
import { SETTLING_PLAYER, settleWhileRunning } from './settle.js'
import { type GameFlags, SETTLE_SECONDS } from './flags.js'
import { playerFor, watched } from './players.js'
import { eventPrinter, finishGame, noticesFor, waitingPrinter, witnessPrinter } from './screen.js'
import { identityFor } from './identity.js'
import { rematches } from './rematch.js'
import { ownNameFor, peerNamesFor } from './peer-names.js'

const env = (io: CliIo): NodeJS.ProcessEnv => io.env ?? process.env

export const DEFAULT_LISTEN = ['/ip4/0.0.0.0/tcp/0', '/ip4/0.0.0.0/tcp/0/ws']

/** The addresses an invite should carry: dialable ones, loopback last, relayed ones included. */
function inviteAddrs(node: Libp2p): string[] {
  const all = node.getMultiaddrs().map(String)
  const rank = (a: string): number =>
    a.includes('/p2p-circuit') ? 1 : a.includes('/127.0.0.1/') || a.includes('/::1/') ? 2 : 0
  return all.sort((a, b) => rank(a) - rank(b)).slice(0, 12)
}

/** The actual ports a host got, so a restarted host listens where its invite points. */
function boundListen(node: Libp2p, requested: readonly string[]): string[] {
  const ports = node.getMultiaddrs().map(String)
  return requested.map((r) => {
    if (!/\/tcp\/0(\/|$)/.test(r)) return r
    const ws = r.endsWith('/ws')
    const got = ports.find(
      (a) => (ws ? a.includes('/ws') : !a.includes('/ws')) && !a.includes('/p2p-circuit') && /\/tcp\/\d+/.test(a),
    )
    const port = got === undefined ? undefined : /\/tcp\/(\d+)/.exec(got)?.[1]
    return port === undefined ? r : r.replace('/tcp/0', `/tcp/${port}`)
  })
}

/** What a host and a joiner of a stored game set up alike: keys, files, player, addresses, events. */
function sideOptions(
  io: CliIo,
  f: GameFlags,
  meta: GameMeta,
  identity: Identity,
  files: GameFiles,
  seen: { ctx?: TurnContext },
  opponent: () => string | undefined,
  onName: (name: string) => void,
  /** `watch`: a person's side is never asked (its own decisions wait for a check-in), so it needs no terminal. */
  unattended = false,
  /** A check-in or `watch`: it pauses, never waits for the opponent's move (screen.ts). */
  checkIn = false,
): NetGameCommon {
  // A bot's side stays quiet, also when a game started with --autoplay is resumed without it.
  const notices = noticesFor(io)
  const names = peerNamesFor(io)
  names.remember(meta.opponent, meta.opponentName)
  const invite = parseInvite(meta.invite)
  const isWitnessed = invite.ok && invite.value.notary !== undefined
  const waiting = waitingPrinter(
    io,
    { ...f, autoplay: f.autoplay === true || meta.player.kind === 'bot' },
    sideOf(meta),
    () => names.label(opponent()),
    notices,
    isWitnessed,
    checkIn,
  )
  const own = ownNameFor(f, io)
  const chat: { say?: (text: string) => Promise<void> } = {}
  let knownGame = meta.game
  // The bell for a person at a terminal, and --notify for anyone (a bot's side included).
  const alerts = moveAlerts(sideOf(meta), {
    bell: f.json !== true && f.autoplay !== true && meta.player.kind !== 'bot' && io.isTty === true,
    io,
    notify: notifier(io, f.notify, meta.id),
  })
  return {
    identity,
    secrets: systemSecrets,
    store: files.store,
    journal: files.journal,
    strategy:
      meta.provisional === true
        ? SETTLING_PLAYER
        : unattended && meta.player.kind === 'human'
          ? UNDECIDED
          : watched(
              playerFor(f, io, meta.player, opponent, () => chat.say, notices, isWitnessed),
              seen,
            ),
    listen: meta.listen,
    relays: meta.relays,
    ...(meta.provisional === true ? { settleMs: (f.settle ?? SETTLE_SECONDS) * 1000 } : {}),
    ...(f.outage === true ? { outage: true } : {}),
    onEvent: eventPrinter(io, f.json === true, notices, meta.role),
    onWitness: witnessPrinter(io, f.json === true, notices),
    onChat: (say) => {
      chat.say = say
    },
    ...(own === undefined ? {} : { name: own }),
    onSessionEvent: (e) => {
      // The game id, kept once known: a witnessed game's notary files its log under it (recovery).
      const game = e.kind === 'envelope' ? e.sealed.envelope.game : undefined
      if (game !== undefined && knownGame === undefined) {
        knownGame = toBase64url(game)
        keepGameId(meta.id, knownGame, env(io))
      }
      // SPEC §2.4 kind 6: the peer's name, said once (flagged if it claims another's pinned name)
      // and kept with the game, for its list and for pinning.
      const peer = opponent()
      if (e.kind === 'name' && peer !== undefined) {
        const line = names.heard(peer, e.name)
        if (line !== undefined && f.json !== true)
          notices.say(() => {
            io.stdout(`${line}\n`)
          })
        onName(e.name)
      }
      alerts(e)
      waiting?.(e)
    },
  }
}

export async function runHost(
  io: CliIo,
  f: GameFlags,
  meta: GameMeta,
  terms: Terms,
  waitMs: number,
  inviteFile?: string,
  notary?: readonly string[],
): Promise<number> {
  const identity = await identityFor(f, io)
  return withGameFiles(
    meta.id,
    io,
    identity,
    meta.listen,
    async (files) => {
      const seen: { ctx?: Parameters<PlayerStrategy['record']>[0] } = {}
      let current = meta
      // The rematch games' own records take the invite and bound ports known once listening (onReady).
      const again = rematches(
        io,
        f,
        meta,
        () => current,
        identity,
        files,
        seen,
        () => current.opponent,
      )
      const result = await leftAs(
        meta.id,
        notary !== undefined,
        () =>
          hostGame({
            ...sideOptions(
              io,
              f,
              meta,
              identity,
              files,
              seen,
              () => current.opponent,
              (name) => {
                current = { ...current, opponentName: name }
                keepOpponentName(meta.id, name, env(io))
              },
            ),
            ...(again === undefined ? {} : { rematch: again }),
            side: sideOf(meta),
            inviteId: meta.id,
            terms,
            waitMs,
            ...(notary === undefined ? {} : { notary: { addrs: notary } }),
            ...(meta.opponent === undefined ? {} : { opponent: meta.opponent }),
            onOpponent: (peer) => {
              writeMeta((current = { ...current, opponent: peer }), env(io))
            },
            onReady: async (node) => {
              const invite = formatInvite({
                id: meta.id,
                peer: identity.peerId.toString(),
                addrs: inviteAddrs(node),
                terms,
                ...(notary === undefined ? {} : { notary }),
              })
              current = { ...current, invite, listen: boundListen(node, meta.listen) }
              writeMeta(current, env(io))
              if (inviteFile !== undefined) await io.writeFile(inviteFile, invite + '\n')
              if (meta.opponent !== undefined)
                io.stderr(
                  `resuming game ${meta.id}; waiting for ${peerNamesFor(io).label(meta.opponent, meta.opponentName) ?? meta.opponent} to reconnect\n`,
                )
              else if (f.json === true)
                io.stdout(`${JSON.stringify({ invite, game: meta.id, peer: identity.peerId.toString() })}\n`)
              else
                io.stdout(
                  `You are A (the host). Invite (send it to your opponent; they run: ${commandName(env(io))} join <invite>):\n\n${invite}\n\nTerms: ${terms.ruleset}; at most ${terms.maxTurns} turns; ${deadlineText(terms.turnMs)} per move, ${deadlineText(terms.replyMs)} per automatic reply.\n${wrap(witnessText(notary), SCREEN_COLUMNS, '')}\nWaiting for them to join (up to ${deadlineText(waitMs)}; --wait sets how long)...\n`,
                )
            },
          }),
        () => current.opponent !== undefined,
        () => stopIn(files.store, sideOf(meta)),
      )
      if (result.unmet === true) return notMet(io, f, meta, terms, 'host')
      if (again !== undefined) return again.code
      notifier(io, f.notify, meta.id)('ended')
      writeMeta(endedMeta(current, result.verdict, outcomeLine(result.verdict, sideOf(meta))), env(io))
      return finishGame(io, f, result, join(files.dir, 'transcript'), seen.ctx, sideOf(meta), meta.id)
    },
    versionOfMeta(meta),
  )
}

/**
 * The other side's hello never came within the reply time (SessionResult.unmet): no game began,
 * nothing was signed for it, and the invite stays good. Said as what happened, never as a stop or
 * a game over, and the game is left as it was, to be carried on (SPEC §6.2).
 */
function notMet(io: CliIo, f: GameFlags, meta: GameMeta, terms: Terms, role: 'host' | 'join'): number {
  const again = `${commandName(env(io))} resume ${meta.id.slice(0, 8)}`
  const line =
    role === 'join'
      ? `Could not reach the host's node within ${deadlineText(terms.replyMs)} (the terms' reply time): no game began, nothing was signed, and the invite stays valid. Try again later with ${again}`
      : `Your opponent's node did not answer within ${deadlineText(terms.replyMs)} (the terms' reply time): no game began, and the invite stays valid. Wait for them again with ${again}`
  if (f.json === true) io.stdout(`${JSON.stringify({ game: meta.id, met: false })}\n`)
  else io.stdout(`${wrap(line, SCREEN_COLUMNS, '')}\n`)
  return EXIT.unavailable
}

export async function runJoin(io: CliIo, f: GameFlags, meta: GameMeta): Promise<number> {
  const parsed = parseInvite(meta.invite)
  if (!parsed.ok)
    throw new UserError(`game ${meta.id} cannot be resumed: its ${parsed.error.field}: ${parsed.error.message}`)
  const identity = await identityFor(f, io)
  return withGameFiles(
    meta.id,
    io,
    identity,
    meta.listen,
    async (files) => {
      const seen: { ctx?: Parameters<PlayerStrategy['record']>[0] } = {}
      let current = meta
      const again = rematches(
        io,
        f,
        meta,
        () => meta,
        identity,
        files,
        seen,
        () => parsed.value.peer,
      )
      const result = await leftAs(
        meta.id,
        parsed.value.notary !== undefined,
        () =>
          joinGame({
            ...sideOptions(
              io,
              f,
              meta,
              identity,
              files,
              seen,
              () => parsed.value.peer,
              (name) => {
                current = { ...current, opponentName: name }
                keepOpponentName(meta.id, name, env(io))
              },
            ),
            ...(again === undefined ? {} : { rematch: again }),
            side: sideOf(meta),
            invite: parsed.value,
          }),
        () => true,
        () => stopIn(files.store, sideOf(meta)),
      )
      if (result.unmet === true) return notMet(io, f, meta, parsed.value.terms, 'join')
      if (again !== undefined) return again.code
      notifier(io, f.notify, meta.id)('ended')
      writeMeta(endedMeta(current, result.verdict, outcomeLine(result.verdict, sideOf(meta))), env(io))
      return finishGame(io, f, result, join(files.dir, 'transcript'), seen.ctx, sideOf(meta), meta.id)
    },
    parsed.value.version,
  )
}

/** A game whose player left it at a prompt (Ctrl-C) ends in the advice that names it (guarded.ts). */
async function leftAs<T>(
  game: string,
  witnessed: boolean,
  body: () => Promise<T>,
  /** Whether an opponent has joined: before that no clock runs and nothing can be checked in. */
  joined: () => boolean = () => true,
  /** Whether this side's stop is signed already (it waits for the other side's answer). */
  stopSigned: () => boolean = () => false,
): Promise<T> {
  try {
    return await interruptible(body)
  } catch (e) {
    if (!leftAtPrompt(e)) throw e
    throw new GameLeftError(
      game,
      witnessed && joined(),
      interruptedWhileWaiting(e) ? 'while waiting' : 'at the prompt',
      joined(),
      stopSigned(),
    )
  }
}

/** Whether `side` has signed a stop in this transcript (SPEC §6.5). */
function stopIn(store: GameFiles['store'], side: Role): boolean {
  return store.envelopes().some((bytes) => {
    const d = decodeEnvelope(bytes)
    return d.ok && d.value.envelope.sender === side && d.value.envelope.parts.some((p) => p.t === 'stop')
  })
}

/**
 * Runs a game holding its directory's lock (one process per game), released however it ends;
 * meanwhile the node also meets the other side of this machine's other provisional games
 * (SPEC §12.7, settle.ts), for as long as this game lasts.
 */
export async function withGameFiles<T>(
  id: string,
  io: CliIo,
  identity: Identity,
  listen: readonly string[],
  body: (files: GameFiles) => Promise<T>,
  version?: ProtocolVersion,
): Promise<T> {
  const files = openGameFiles(id, env(io), version)
  const stopSettling = settleWhileRunning(io, identity, SETTLE_SECONDS * 1000, id, listen)
  try {
    return await body(files)
  } finally {
    files.release()
    await stopSettling()
  }
}

/**
 * The longest a player may wait, after the other side's move, before its own next step is due:
 * an automatic reply or its own move, whichever the schedule brings (PROTOCOL-4.md §4.2).
 */
function nextStepMs(t: Terms): number {
  return Math.min(t.replyMs, t.turnMs)
}

/** The game id an envelope carries (SPEC §5.1: every envelope after the hellos), if it decodes to one. */
function gameOfEnvelope(bytes: Uint8Array): Uint8Array | undefined {
  const d = decodeEnvelope(bytes)
  return d.ok ? d.value.envelope.game : undefined
}

/** How many envelopes of the other side a transcript holds (receipts and own envelopes aside). */
function theirEnvelopes(lines: readonly Uint8Array[], me: Role): number {
  let n = 0
  for (const bytes of lines) {
    const d = decodeEnvelope(bytes)
    if (d.ok && d.value.envelope.sender !== me) n++
  }
  return n
}

/** A player that never decides: `watch` answers automatic steps only, and leaves a person's moves to a check-in. */
const UNDECIDED: PlayerStrategy = {
  setup: () => new Promise(() => undefined),
  record: () => new Promise(() => undefined),
}

/**
 * A check-in of a witnessed game across days (PROTOCOL-4.md §4): through the notary alone, every
 * step this side can do, the player's move included, then this process exits with the game paused
 * until the other side has moved (or over).
 */
export async function runCheckIn(io: CliIo, f: GameFlags, meta: GameMeta, watching = false): Promise<number> {
  const parsed = parseInvite(meta.invite)
  if (!parsed.ok)
    throw new UserError(`game ${meta.id} cannot be resumed: its ${parsed.error.field}: ${parsed.error.message}`)
  const notary = parsed.value.notary
  if (notary === undefined || parsed.value.terms.notary === undefined)
    throw new UserError(
      `game ${meta.id.slice(0, 8)} is not witnessed: a check-in goes through a notary (host a game with --notary); resume it without --check-in`,
    )
  const identity = await identityFor(f, io)
  return withGameFiles(
    meta.id,
    io,
    identity,
    meta.listen,
    async (files) => {
      // PROTOCOL-4.md §4: the notary witnesses a game from its hellos, which both nodes exchange
      // live; before that there is nothing to fetch or deposit.
      if (!files.store.envelopes().some((b) => gameOfEnvelope(b) !== undefined)) {
        const short = meta.id.slice(0, 8)
        throw new UserError(
          `game ${short} has not begun (${meta.opponent === undefined ? 'nobody has joined it yet' : 'the two hellos were not both exchanged'}): a check-in goes through the notary once both nodes have met; carry it on live with ${commandName(env(io))} resume ${short}`,
        )
      }
      const seen: { ctx?: Parameters<PlayerStrategy['record']>[0] } = {}
      const opponent = (): string | undefined => (meta.role === 'join' ? parsed.value.peer : meta.opponent)
      const options = sideOptions(
        io,
        f,
        meta,
        identity,
        files,
        seen,
        opponent,
        (name) => {
          keepOpponentName(meta.id, name, env(io))
        },
        watching,
        true,
      )
      const theirsBefore = theirEnvelopes(files.store.envelopes(), sideOf(meta))
      const result = await leftAs(meta.id, true, () =>
        checkInGame({
          ...options,
          // `watch` never asks a person: its own decisions wait for a check-in (a bot's are made).
          ...(watching && meta.player.kind === 'human' ? { strategy: UNDECIDED } : {}),
          side: sideOf(meta),
          terms: parsed.value.terms,
          notary: { addrs: notary },
          ...(watching ? { pauseOnDecision: true } : {}),
          // A person checking in types the move its prompt asks for, even while the opponent moves first.
          ...(!watching && meta.player.kind === 'human' ? { awaitDecision: true } : {}),
        }),
      )
      if (result.paused === true) {
        // What came in this check-in, as far as it is known: a turn no prompt of this check-in
        // reported (a first mover that answered the other side's aspects learnt what they did to
        // its ships, and would otherwise hear of it at its next check-in).
        const last = result.lastTurn
        if (
          f.json !== true &&
          !watching &&
          meta.player.kind === 'human' &&
          last !== undefined &&
          theirEnvelopes(result.transcript, sideOf(meta)) > theirsBefore &&
          last.turn.turn > (seen.ctx?.history.at(-1)?.turn ?? 0)
        )
          io.stdout(
            `\n${[
              ...turnReport(last.turn, last.state),
              ...(last.answered ? [] : ['  (? marks what your opponent answers with their next step)']),
            ]
              .map((l) => wrap(l, SCREEN_COLUMNS, '    '))
              .join('\n')}\n\n`,
          )
        const progress = progressOf(formatTranscript(result.transcript), meta.id)
        const yours = progress.due === sideOf(meta)
        const short = meta.id.slice(0, 8)
        const again = `${commandName(env(io))} resume ${short} --check-in`
        // PROTOCOL-4.md §4.1: an envelope the notary has not receipted is seen by nobody and counts
        // for nothing; the player is told, never that its move is in (a check-in that could not
        // reach the notary ended with the move signed and kept here).
        if (result.unreceipted.length > 0 || result.notaryAway) {
          const n = result.unreceipted.length
          // The time left as `games` says it, then the instant (notary time, PROTOCOL-4.md §4.2).
          const left = progress.receiptedDue === undefined ? 0 : progress.receiptedDue.deadline - systemClock.now()
          const deadline =
            progress.receiptedDue?.side !== sideOf(meta)
              ? ' soon'
              : left > 0
                ? ` before your deadline, ${spanText(left)} from now (${new Date(progress.receiptedDue.deadline).toISOString()})`
                : ` at once: your deadline passed at ${new Date(progress.receiptedDue.deadline).toISOString()} and your opponent may claim the win on time`
          const line =
            n > 0
              ? `Not deposited: the notary could not be reached (or refused), so ${n === 1 ? 'one envelope of yours is' : `${n} envelopes of yours are`} signed and kept here but not with the notary, and your opponent cannot see ${n === 1 ? 'it' : 'them'}. Check in again${deadline}: ${again}`
              : `The notary could not be reached: what your opponent sent since your last check-in could not be fetched (yours are all with the notary). Check in again${deadline}: ${again}`
          if (f.json === true)
            io.stdout(
              `${JSON.stringify({ game: meta.id, paused: true, yourMove: yours, notaryAway: result.notaryAway, unreceipted: result.unreceipted })}\n`,
            )
          else if (watching) io.stdout(`game ${short}: ${wrap(line, SCREEN_COLUMNS, '')}\n`)
          else io.stdout(`${wrap(line, SCREEN_COLUMNS, '')}\n`)
          return EXIT.unavailable
        }
        if (f.json === true) io.stdout(`${JSON.stringify({ game: meta.id, paused: true, yourMove: yours })}\n`)
        else if (watching)
          io.stdout(
            yours
              ? `game ${short}: YOUR MOVE (${commandName(env(io))} resume ${short} --check-in)\n`
              : `game ${short}: their move\n`,
          )
        else
          io.stdout(
            `${wrap(`Checked in: what your opponent sent is answered and your envelopes are with the notary. It is your opponent's move now; once they move, your next step is due within ${deadlineText(nextStepMs(parsed.value.terms))} of it (the notary's time): check in again by then, or keep \`${commandName(env(io))} watch\` running: ${again}`, SCREEN_COLUMNS, '')}\n`,
          )
        return EXIT.ok
      }
      notifier(io, f.notify, meta.id)('ended')
      writeMeta(endedMeta(meta, result.verdict, outcomeLine(result.verdict, sideOf(meta))), env(io))
      return finishGame(io, f, result, join(files.dir, 'transcript'), seen.ctx, sideOf(meta), meta.id)
    },
    parsed.value.version,
  )
}
