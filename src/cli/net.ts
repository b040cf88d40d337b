/**
 * The networked commands: `play` (against the built-in bot over a real libp2p connection on
 * loopback), `host` / `join` / `resume` (two players on two machines), `relay` and `id`.
 */
import { multiaddr } from '@multiformats/multiaddr'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Libp2p } from '@libp2p/interface'
import { systemSecrets } from '../core/commit/secrets.js'
import {
  type NetEvent,
  type NetGameCommon,
  NobodyJoinedError,
  NotServedError,
  type Rematch,
  RelayError,
  hostGame,
  joinGame,
} from '../games/spaceships/net/game.js'
import {
  type Identity,
  IdentityFileError,
  configDir,
  defaultIdentityPath,
  ephemeralIdentity,
  loadOrCreateIdentity,
} from '../core/net/identity.js'
import { formatInvite, parseInvite } from '../games/spaceships/net/invite.js'
import { createRelayNode } from '../core/net/node.js'
import { seededRandom } from '../games/spaceships/rules/rng.js'
import { formatRuleset, parseRuleset } from '../games/spaceships/rules/ruleset.js'
import { readSetup } from '../games/spaceships/rules/setup.js'
import { describeViolation } from '../games/spaceships/rules/errors.js'
import { systemClock } from '../core/session/clock.js'
import { StorageError } from '../games/spaceships/session/store.js'
import type { SessionEvent, SessionResult } from '../games/spaceships/session/session.js'
import type { PlayerStrategy, TurnContext, TurnSummary } from '../games/spaceships/session/strategy.js'
import { type BotName, isBotName, makeBot } from '../games/spaceships/bot/levels.js'
import { formatTranscript, memoryStore } from '../games/spaceships/protocol/file.js'
import { LIMITS, type Role, type Terms, otherRole } from '../games/spaceships/protocol/messages.js'
import { decodeEnvelope } from '../games/spaceships/protocol/envelope.js'
import type { Setup } from '../games/spaceships/rules/setup.js'
import { initialPlayerState } from '../games/spaceships/rules/state.js'
import { ownMarks, renderSpace } from '../games/spaceships/ui/board.js'
import {
  SCREEN_COLUMNS,
  UNWITNESSED_TERMS,
  chatLine,
  clockText,
  outcomeLine,
  shortId,
  wrap,
} from '../games/spaceships/ui/panel.js'
import { verifyTranscript } from '../games/spaceships/verify/verify.js'
import {
  Notices,
  type Screen,
  type SetupChoice,
  colourEnabled,
  humanStrategy,
  painter,
  renderBoards,
} from '../games/spaceships/ui/terminal.js'
import {
  type GameFiles,
  type GameMeta,
  endedMeta,
  findGame,
  forgetGame,
  gameDir,
  openGameFiles,
  readMeta,
  resumableGames,
  roleText,
  sideOf,
  writeMeta,
} from './games.js'
import { type CliIo, EXIT, LineLimiter, REPEAT_LINE_MS, UserError, commandName, isListenError } from './io.js'
import { DEFAULT_TERMS, exitFor, renderVerdict } from './verify.js'
import { SETTLING_PLAYER, settleWhileRunning } from './settle.js'

/** A seed fixes the bot (tests, demos); without one it plays from the session's per-game secret (`makeBot`). */
export function botStrategy(name: BotName, seed?: string): PlayerStrategy {
  return makeBot(name, seed)
}

export interface GameFlags {
  readonly identity?: string
  readonly listen?: string[]
  readonly relay?: string[]
  readonly setup?: string
  readonly random?: boolean
  readonly autoplay?: boolean
  readonly bot: string
  readonly seed?: string
  readonly out?: string
  readonly json?: boolean
  readonly yes?: boolean
  readonly pace?: number
  /** The most rematches this side offers or accepts (SPEC §2.4), each with the sides swapped. */
  readonly rematch?: number
  /** `resume` of a game with a provisional result: seconds to wait for the other node to settle it (SPEC §12.7). */
  readonly settle?: number
}

/** How long `resume` waits for the other node to settle a provisional result, unless told. */
export const SETTLE_SECONDS = 120

export interface TermsFlags {
  readonly ruleset: string
  readonly maxTurns: string
  readonly turnSeconds: string
  readonly replySeconds: string
}

const env = (io: CliIo): NodeJS.ProcessEnv => io.env ?? process.env

function screenFor(io: CliIo): Screen {
  return {
    print: (t) => {
      io.stdout(t + '\n')
    },
    paint: painter(colourEnabled(env(io), io.isTty ?? false)),
    ...(io.columns === undefined ? {} : { columns: io.columns }),
  }
}

function termsFrom(f: TermsFlags): Terms {
  const r = parseRuleset(f.ruleset)
  if (!r.ok) throw new UserError(`--ruleset: ${r.error.message}`)
  const int = (name: string, v: string, min: number, max: number): number => {
    const n = Number(v)
    if (!Number.isInteger(n) || n < min || n > max)
      throw new UserError(`${name}: expected a whole number from ${min} to ${max}, got "${v}"`)
    return n
  }
  const ms = (name: string, v: string): number =>
    int(name, v, LIMITS.minDeadlineMs / 1000, LIMITS.maxDeadlineMs / 1000) * 1000
  return {
    ...DEFAULT_TERMS,
    ruleset: formatRuleset(r.value),
    maxTurns: int('--max-turns', f.maxTurns, 1, LIMITS.maxTurns),
    setupMs: ms('--turn-seconds', f.turnSeconds),
    turnMs: ms('--turn-seconds', f.turnSeconds),
    replyMs: ms('--reply-seconds', f.replySeconds),
  }
}

function botName(given: string): BotName {
  const name = given.toLowerCase()
  if (!isBotName(name)) throw new UserError(`--bot: no bot "${given}"; choose hard, medium, easy or random`)
  // The old name of the medium bot is accepted and said as its level.
  return name === 'strong' ? 'medium' : name
}

/** `join @FILE`: the invite from a file, or one line saying why it cannot be read. */
function readInviteFile(path: string): string {
  try {
    return readFileSync(path, 'utf8')
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code
    const why =
      code === 'ENOENT'
        ? 'no such file'
        : code === 'EISDIR'
          ? 'a directory, not a file'
          : code === 'EACCES'
            ? 'permission denied'
            : (e as Error).message
    throw new UserError(`cannot read the invite from ${path}: ${why}`)
  }
}

/** A setup file is checked before anything else happens, so a bad one never leaves an opponent waiting. */
function checkSetupFile(f: GameFlags, terms: Terms): void {
  const choice = setupChoice(f)
  if (choice.kind !== 'text') return
  const ruleset = parseRuleset(terms.ruleset)
  if (!ruleset.ok) return
  const r = readSetup(choice.text, ruleset.value, 0, 'lenient')
  if (!r.ok)
    throw new UserError(
      `--setup ${f.setup ?? ''}: not a legal setup for ${terms.ruleset}: ${r.error.map(describeViolation).join('; ')}`,
    )
}

function setupChoice(f: GameFlags): SetupChoice {
  if (f.setup !== undefined) {
    try {
      return { kind: 'text', text: readFileSync(f.setup, 'utf8') }
    } catch (e) {
      throw new UserError(`--setup: cannot read ${f.setup}: ${(e as Error).message}`)
    }
  }
  return f.random === true ? { kind: 'random' } : { kind: 'ask' }
}

function randomSeed(): string {
  return randomBytes(8).toString('hex')
}

/** One line per turn for a bot-played side, so a watched game shows progress. */
function narrated(inner: PlayerStrategy, screen: Screen): PlayerStrategy {
  const line = (t: TurnSummary): string => {
    const mine = [...t.theirResults.beams.flat(), ...t.theirResults.strikes]
    const theirs = t.theirAspects.beams.flat().length + t.theirAspects.strikes.length
    const hits = mine.filter((a) => a.result === 'hit').length
    const lost = t.myReports.map((r) => `${r.type}${r.id}`)
    const sunk = t.theirResults.destroyed.map((r) => `${r.type}${r.id}`)
    return `turn ${String(t.turn).padStart(3)}: ${plural(mine.length, 'strike')}, ${plural(hits, 'hit')}${sunk.length > 0 ? `, destroyed ${sunk.join(' ')}` : ''}; they struck ${theirs}${lost.length > 0 ? `, destroyed your ${lost.join(' ')}` : ''}`
  }
  // Each turn once, as soon as it is known: when the next record is asked for, or at the end.
  let said = 0
  const say = (history: readonly TurnSummary[]): void => {
    for (const t of history) if (t.turn > said) screen.print(line(t))
    said = Math.max(said, history.at(-1)?.turn ?? 0)
  }
  return {
    ...passBegin(inner),
    setup: (...a) => inner.setup(...a),
    record: (ctx) => {
      say(ctx.history)
      return inner.record(ctx)
    },
    finished: (ctx) => {
      say(ctx.history)
      return inner.finished?.(ctx)
    },
  }
}

/** A bot that waits `ms` before each move, so a watched game can be followed. */
function paced(inner: PlayerStrategy, ms: number): PlayerStrategy {
  if (!(ms > 0)) return inner
  return {
    ...passBegin(inner),
    setup: (...a) => inner.setup(...a),
    record: async (ctx) => (await new Promise((r) => setTimeout(r, ms)), inner.record(ctx)),
  }
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`

/**
 * One command's notices (ui/terminal.ts): its printers and every game it plays (a rematch too)
 * share them, so no line is glued onto whichever record prompt is open.
 */
const NOTICES = new WeakMap<CliIo, Notices>()
function noticesFor(io: CliIo): Notices {
  let n = NOTICES.get(io)
  if (n === undefined) NOTICES.set(io, (n = new Notices()))
  return n
}

/** A wrapper keeps its player's per-game secret (PlayerStrategy.begin): a bot without a fixed seed plays from it. */
function passBegin(inner: PlayerStrategy): Pick<PlayerStrategy, 'begin'> {
  return inner.begin === undefined
    ? {}
    : {
        begin: (secret) => {
          inner.begin?.(secret)
        },
      }
}

/** Before anything is written: a human side needs a terminal, and addresses must parse. */
function checkSide(io: CliIo, f: GameFlags & { listen?: string[]; relay?: string[] }): void {
  if (f.autoplay !== true && io.prompter?.() === undefined) throw new UserError(NO_TERMINAL)
  for (const [flag, addrs] of [
    ['--listen', f.listen],
    ['--relay', f.relay],
  ] as const) {
    for (const a of addrs ?? []) {
      if (a === '/p2p-circuit') continue
      try {
        multiaddr(a)
      } catch {
        throw new UserError(`${flag}: "${a}" is not a multiaddr (e.g. /ip4/0.0.0.0/tcp/4011)`)
      }
    }
  }
}

const NO_TERMINAL =
  'standard input is not a terminal, so nobody can type your moves: add --autoplay to let a bot play your side, or run it in a terminal'

function playerFor(
  f: GameFlags,
  io: CliIo,
  meta: GameMeta['player'],
  opponent: () => string | undefined,
  say?: () => ((text: string) => Promise<void>) | undefined,
  notices?: Notices,
): PlayerStrategy {
  const screen = screenFor(io)
  if (meta.kind === 'bot') {
    const bot = paced(botStrategy(botName(meta.bot), meta.seed), f.pace ?? 0)
    // With --json, standard output holds the result's JSON alone.
    return f.json === true ? bot : narrated(bot, screen)
  }
  const prompter = io.prompter?.()
  if (prompter === undefined) throw new UserError(NO_TERMINAL)
  return humanStrategy({
    prompter,
    screen,
    setup: setupChoice(f),
    rng: seededRandom(f.seed ?? randomSeed()),
    opponent,
    ...(say === undefined ? {} : { say }),
    ...(notices === undefined ? {} : { notices }),
  })
}

/** A human's side prints who it waits for and how long it may take; a bot's side stays quiet. */
function waitingPrinter(
  io: CliIo,
  f: GameFlags,
  me: Role,
  opponent: () => string | undefined,
  notices = new Notices(),
): ((e: SessionEvent) => void) | undefined {
  if (f.json === true || f.autoplay === true) return undefined
  let myMoveDue = false
  let lastWait = ''
  // Through the notices: a line that arrives while the player types is never glued onto the prompt.
  const out = {
    stdout: (text: string): void => {
      notices.say(() => {
        io.stdout(text)
      })
    },
  }
  return (e) => {
    if (e.kind === 'chat') out.stdout(`${chatLine(`${shortId(opponent() ?? 'your opponent')} says:`, e.text)}\n`)
    else if (e.kind === 'waiting') {
      myMoveDue = e.side === me && e.what.includes('commit')
      // Said once per wait: the session restates what it waits for after every event it handles.
      const key = `${e.side} ${e.what} ${e.deadline}`
      if (e.side !== me && e.what.includes('commit') && key !== lastWait)
        out.stdout(`waiting for your opponent's move (${clockText(e.deadline - systemClock.now())} left)\n`)
      lastWait = key
    } else if (e.kind === 'stopped' && e.by !== me) {
      // Said from what this side saw, never as a loss on time (SPEC §12.7): a claim proves only that
      // the opponent stopped waiting, and the game is then adjudicated on the committed turns.
      if (e.reason === 'resignation') out.stdout('Your opponent resigned.\n')
      else if (e.reason === 'accusation')
        out.stdout(`Your opponent stopped the game, accusing your side: ${e.detail}\n`)
      else if (e.reason === 'claim' && myMoveDue)
        out.stdout(
          'Your opponent stopped the game while your move was due: it is adjudicated on the turns both committed.\n',
        )
      else if (e.reason === 'claim') out.stdout(`Your opponent stopped the game: ${e.detail}\n`)
    } else if (e.kind === 'stopped' && e.reason === 'claim') {
      // This node's own claim (SPEC §6.5, §6.6): what it did and what it now waits for.
      // The stop's own detail names protocol parts ("no commit+aspects within the deadline").
      const late = /^no (\S+) within the deadline$/.exec(e.detail)
      const why =
        late === null
          ? e.detail
          : `your opponent's ${late[1]?.includes('commit') === true ? 'move' : 'reply'} did not come within the deadline`
      out.stdout(`Your node stopped the game (${why}); waiting for your opponent's node to answer with its reveal.\n`)
    }
  }
}

/** `--autoplay` on a resumed game hands its side to a bot from now on (a person may have to leave). */
function withPlayer(meta: GameMeta, f: GameFlags, io: CliIo): GameMeta {
  if (f.autoplay !== true || meta.player.kind === 'bot') return meta
  const next: GameMeta = { ...meta, player: playerMeta(f) }
  writeMeta(next, env(io))
  return next
}

function playerMeta(f: GameFlags): GameMeta['player'] {
  return f.autoplay === true ? { kind: 'bot', bot: botName(f.bot), seed: f.seed ?? randomSeed() } : { kind: 'human' }
}

/** "; 42 s left before the deadline" (SPEC §6.6), when a message is owed. */
function timeLeft(deadline: number | undefined): string {
  if (deadline === undefined) return ''
  const s = Math.max(0, Math.round((deadline - systemClock.now()) / 1000))
  return `; ${s} s left before the deadline`
}

/**
 * The node's events as lines on standard error. A condition that repeats (a flapping connection,
 * a peer dialling again and again) is said at most once per REPEAT_LINE_MS, with how many times it
 * was held back, so it never scrolls a player's board away.
 */
function eventPrinter(io: CliIo, json: boolean, notices = new Notices()): (e: NetEvent) => void {
  const limit = new LineLimiter(REPEAT_LINE_MS, () => systemClock.now())
  const say = (kind: string, line: string): void => {
    const held = limit.take(kind)
    if (held !== undefined)
      notices.say(() => {
        io.stderr(`${line}${held > 0 ? ` (${held} more like it since the last such line)` : ''}\n`)
      })
  }
  return (e) => {
    if (json) return
    if (e.kind === 'connected')
      say(
        e.restored ? 'restored' : 'connected',
        e.restored
          ? `connection restored${e.relayed ? ' (through a relay)' : ''}${timeLeft(e.deadline)}`
          : `connected to ${e.peer}${e.relayed ? ' (through a relay)' : ''}`,
      )
    else if (e.kind === 'disconnected') say('lost', `connection lost; reconnecting${timeLeft(e.deadline)}`)
    else if (e.kind === 'refused') say(`refused ${e.why}`, `refused ${e.peer}: ${e.why}`)
    else if (e.kind === 'relay')
      say(
        `relay ${e.status} ${e.relay}`,
        e.status === 'reserving'
          ? `asking the relay ${e.relay} for a slot...`
          : e.status === 'reserved'
            ? 'relay slot reserved: the invite carries a relayed address'
            : `lost the relay ${e.relay}; dialling it again`,
      )
  }
}

/** The end of a game on this side: the final boards, the score, and the verifier's verdict. */
/** The opponent's setup from its reveal in this transcript, if it revealed. */
function revealedFleet(transcript: readonly Uint8Array[], them: Role): Setup | undefined {
  for (const bytes of transcript) {
    const d = decodeEnvelope(bytes)
    if (!d.ok || d.value.envelope.sender !== them) continue
    const reveal = d.value.envelope.parts.find((p) => p.t === 'reveal')
    if (reveal?.t === 'reveal') return reveal.setup
  }
  return undefined
}

async function finishGame(
  io: CliIo,
  f: GameFlags,
  result: SessionResult,
  transcriptPath: string,
  lastView: TurnContext | undefined,
  me: Role,
  id: string,
): Promise<number> {
  const text = formatTranscript(result.transcript)
  if (f.out !== undefined) await io.writeFile(f.out, text)
  const audited = verifyTranscript(text)
  if (f.json === true) {
    io.stdout(
      `${JSON.stringify({ game: id, you: me, transcript: f.out ?? transcriptPath, verdict: result.verdict, verifier: audited }, null, 2)}\n`,
    )
    return exitFor(audited)
  }
  const screen = screenFor(io)
  if (lastView !== undefined) screen.print(renderBoards(lastView, screen.paint, screen.columns))
  const theirs = revealedFleet(result.transcript, otherRole(me))
  if (theirs !== undefined)
    screen.print(
      [
        '',
        ...renderSpace(
          'Their fleet, as they revealed it (where each ship was placed)',
          ownMarks(initialPlayerState(theirs)),
          screen.paint,
          screen.columns,
        ),
      ].join('\n'),
    )
  io.stdout(`\n${screen.paint(outcomeLine(result.verdict, me), 'hit')}\n`)
  io.stdout(`\nThe game is over. Your signed verdict:\n${renderVerdict(result.verdict)}`)
  io.stdout(
    `Transcript: ${f.out ?? transcriptPath}\nThe verifier, reading it with no trust in either player:\n${renderVerdict(audited)}`,
  )
  const cmd = commandName(env(io))
  const checked = f.out ?? transcriptPath
  io.stdout(
    `Check it yourself: ${cmd} verify ${/^[\w./:@+-]+$/.test(checked) ? checked : JSON.stringify(checked)}\nSaved as game ${id.slice(0, 8)} (${cmd} games); its record for the referee: ${cmd} export ${id.slice(0, 8)}\n`,
  )
  return exitFor(audited)
}

/** Wraps a strategy to remember the last view, so the end can draw the final boards. */
function watched(inner: PlayerStrategy, seen: { ctx?: Parameters<PlayerStrategy['record']>[0] }): PlayerStrategy {
  return {
    ...passBegin(inner),
    setup: (...a) => inner.setup(...a),
    record: (ctx) => ((seen.ctx = ctx), inner.record(ctx)),
    finished: (ctx) => {
      seen.ctx = ctx
      return inner.finished?.(ctx)
    },
  }
}

/** A key others could read is reported: whoever read it can sign transcripts as this player. */
function warnExposed(io: CliIo, identity: Identity, exposedMode: number | undefined): void {
  if (exposedMode !== undefined)
    io.stderr(
      `warning: your identity key ${identity.path} was readable by others (mode ${exposedMode.toString(8)}); it is now private (600). Anyone who read it can sign as you: if that may have happened, move it away to create a new identity.\n`,
    )
}

async function identityFor(f: GameFlags, io: CliIo): Promise<Identity> {
  const { identity, created, exposedMode } = await loadOrCreateIdentity(f.identity ?? defaultIdentityPath(env(io)))
  if (created && f.json !== true) io.stderr(`created your identity ${identity.peerId.toString()} in ${identity.path}\n`)
  warnExposed(io, identity, exposedMode)
  return identity
}

const DEFAULT_LISTEN = ['/ip4/0.0.0.0/tcp/0', '/ip4/0.0.0.0/tcp/0/ws']

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
): NetGameCommon {
  // A bot's side stays quiet, also when a game started with --autoplay is resumed without it.
  const notices = noticesFor(io)
  const waiting = waitingPrinter(
    io,
    { ...f, autoplay: f.autoplay === true || meta.player.kind === 'bot' },
    sideOf(meta),
    opponent,
    notices,
  )
  const chat: { say?: (text: string) => Promise<void> } = {}
  return {
    identity,
    secrets: systemSecrets,
    store: files.store,
    journal: files.journal,
    strategy:
      meta.provisional === true
        ? SETTLING_PLAYER
        : watched(
            playerFor(f, io, meta.player, opponent, () => chat.say, notices),
            seen,
          ),
    listen: meta.listen,
    relays: meta.relays,
    ...(meta.provisional === true ? { settleMs: (f.settle ?? SETTLE_SECONDS) * 1000 } : {}),
    onEvent: eventPrinter(io, f.json === true, notices),
    onChat: (say) => {
      chat.say = say
    },
    ...(waiting === undefined ? {} : { onSessionEvent: waiting }),
  }
}

async function runHost(
  io: CliIo,
  f: GameFlags,
  meta: GameMeta,
  terms: Terms,
  waitMs: number,
  inviteFile?: string,
): Promise<number> {
  const identity = await identityFor(f, io)
  return withGameFiles(meta.id, io, identity, meta.listen, async (files) => {
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
    const result = await hostGame({
      ...sideOptions(io, f, meta, identity, files, seen, () => current.opponent),
      ...(again === undefined ? {} : { rematch: again }),
      side: sideOf(meta),
      inviteId: meta.id,
      terms,
      waitMs,
      ...(meta.opponent === undefined ? {} : { opponent: meta.opponent }),
      onOpponent: (peer) => {
        writeMeta((current = { ...current, opponent: peer }), env(io))
      },
      onReady: async (node) => {
        const invite = formatInvite({ id: meta.id, peer: identity.peerId.toString(), addrs: inviteAddrs(node), terms })
        current = { ...current, invite, listen: boundListen(node, meta.listen) }
        writeMeta(current, env(io))
        if (inviteFile !== undefined) await io.writeFile(inviteFile, invite + '\n')
        if (meta.opponent !== undefined)
          io.stderr(`resuming game ${meta.id}; waiting for ${meta.opponent} to reconnect\n`)
        else if (f.json === true)
          io.stdout(`${JSON.stringify({ invite, game: meta.id, peer: identity.peerId.toString() })}\n`)
        else
          io.stdout(
            `You are A (the host). Invite (send it to your opponent; they run: ${commandName(env(io))} join <invite>):\n\n${invite}\n\nTerms: ${terms.ruleset}, at most ${terms.maxTurns} turns, ${terms.turnMs / 1000} s per move.\n${wrap(UNWITNESSED_TERMS, SCREEN_COLUMNS, '')}\nWaiting for them to join...\n`,
          )
      },
    })
    if (again !== undefined) return again.code
    writeMeta(endedMeta(current, result.verdict, outcomeLine(result.verdict, sideOf(meta))), env(io))
    return finishGame(io, f, result, join(files.dir, 'transcript'), seen.ctx, sideOf(meta), meta.id)
  })
}

async function runJoin(io: CliIo, f: GameFlags, meta: GameMeta): Promise<number> {
  const parsed = parseInvite(meta.invite)
  if (!parsed.ok)
    throw new UserError(`game ${meta.id} cannot be resumed: its ${parsed.error.field}: ${parsed.error.message}`)
  const identity = await identityFor(f, io)
  return withGameFiles(meta.id, io, identity, meta.listen, async (files) => {
    const seen: { ctx?: Parameters<PlayerStrategy['record']>[0] } = {}
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
    const result = await joinGame({
      ...sideOptions(io, f, meta, identity, files, seen, () => parsed.value.peer),
      ...(again === undefined ? {} : { rematch: again }),
      side: sideOf(meta),
      invite: parsed.value,
    })
    if (again !== undefined) return again.code
    writeMeta(endedMeta(meta, result.verdict, outcomeLine(result.verdict, sideOf(meta))), env(io))
    return finishGame(io, f, result, join(files.dir, 'transcript'), seen.ctx, sideOf(meta), meta.id)
  })
}

/**
 * Rematches for `--rematch N` (SPEC §2.4): each game's end is shown and kept as it comes; then a
 * bot's side accepts while N lasts, and a person is asked (no by default). Each new game has its
 * own directory, journal and lock, so it resumes like any other: its record holds the first
 * game's invite (the host's PeerId and addresses, as `base` has them by then) under the new
 * game's own id, which is what `resume` presents (SPEC §2.3), and a host's ports as bound.
 * `code` is the last game's exit.
 */
function rematches(
  io: CliIo,
  f: GameFlags,
  first: GameMeta,
  base: () => GameMeta,
  identity: Identity,
  firstFiles: GameFiles,
  firstSeen: { ctx?: TurnContext },
  opponent: () => string | undefined,
): (Rematch & { readonly code: number }) | undefined {
  if (f.rematch === undefined || f.rematch <= 0) return undefined
  let left = f.rematch
  let current = { meta: first, files: firstFiles, seen: firstSeen }
  const state = { code: EXIT.ok as number }
  return {
    get code() {
      return state.code
    },
    async ended(result, game, side) {
      const m = readMeta(game, env(io)) ?? current.meta
      writeMeta(endedMeta(m, result.verdict, outcomeLine(result.verdict, side)), env(io))
      // Only the first game goes to --out; each game's transcript stays in its own directory.
      state.code = await finishGame(
        io,
        current.files === firstFiles ? f : { ...f, out: undefined },
        result,
        join(current.files.dir, 'transcript'),
        current.seen.ctx,
        side,
        game,
      )
      if (current.files !== firstFiles) current.files.release()
    },
    async want() {
      if (left <= 0) return false
      const yes =
        current.meta.player.kind === 'bot'
          ? true
          : ((await io.prompter?.()?.confirm({ message: 'Play again, with the sides swapped?', default: false })) ??
            false)
      if (yes) left--
      return yes
    },
    next(side, id) {
      const player: GameMeta['player'] =
        first.player.kind === 'bot' ? { ...first.player, seed: `${first.player.seed}/${id}` } : first.player
      const known = base()
      const invite = parseInvite(known.invite)
      const text = invite.ok ? formatInvite({ ...invite.value, id }) : known.invite
      const peer = opponent()
      const meta: GameMeta = {
        v: 1,
        id,
        role: first.role,
        invite: text,
        listen: known.listen,
        relays: first.relays,
        player,
        side,
        ...(peer === undefined ? {} : { opponent: peer }),
      }
      writeMeta(meta, env(io))
      const files = openGameFiles(id, env(io))
      const seen: { ctx?: TurnContext } = {}
      current = { meta, files, seen }
      if (f.json !== true)
        io.stdout(
          `\nRematch: game ${id.slice(0, 8)}; you are ${side} this time${side === 'A' ? ' (you move first)' : ''}.\n`,
        )
      return {
        store: files.store,
        journal: files.journal,
        strategy: watched(playerFor(f, io, player, opponent, undefined, noticesFor(io)), seen),
      }
    },
  }
}

/** Runs `body` holding the game directory's lock (one process per game), released however it ends. */
/**
 * Runs a game with its files locked; meanwhile the node also meets the other side of this
 * machine's other provisional games (SPEC §12.7, settle.ts), for as long as this game lasts.
 */
async function withGameFiles<T>(
  id: string,
  io: CliIo,
  identity: Identity,
  listen: readonly string[],
  body: (files: GameFiles) => Promise<T>,
): Promise<T> {
  const files = openGameFiles(id, env(io))
  const stopSettling = settleWhileRunning(io, identity, SETTLE_SECONDS * 1000, id, listen)
  try {
    return await body(files)
  } finally {
    files.release()
    await stopSettling()
  }
}

async function guarded(io: CliIo, name: string, body: () => Promise<number>): Promise<number> {
  try {
    return await body()
  } catch (e) {
    if (e instanceof UserError) {
      io.stderr(`spaceships ${name}: ${e.message}\n`)
      return e.exitCode
    }
    if (e instanceof StorageError) {
      io.stderr(
        `spaceships ${name}: ${e.message}. The game stopped before signing or sending anything more; fix that, then run ${commandName(env(io))} resume (it lists the game)\n`,
      )
      return EXIT.storage
    }
    if (e instanceof RelayError) {
      io.stderr(`spaceships ${name}: ${e.message}\n`)
      return EXIT.unavailable
    }
    if (e instanceof NotServedError) {
      // One line, then stop (SPEC §2.3): dialling on would only be refused again.
      const cmd = commandName(env(io))
      io.stderr(
        `spaceships ${name}: ${e.message.charAt(0).toUpperCase()}${e.message.slice(1)}: stopping. No stop was signed: game ${e.game.slice(0, 8)} stays unfinished; should its host serve it again, carry on with ${cmd} resume ${e.game.slice(0, 8)}\n`,
      )
      return EXIT.unavailable
    }
    if (e instanceof NobodyJoinedError) {
      io.stderr(
        `spaceships ${name}: ${e.message}; no game began. The invite stays valid: wait again with ${commandName(env(io))} resume (it lists the game)\n`,
      )
      return EXIT.incomplete
    }
    if (e instanceof IdentityFileError) {
      io.stderr(
        `spaceships ${name}: your identity file is unusable: ${e.message} (restore it from a backup, or move it away to create a new identity)\n`,
      )
      return EXIT.usage
    }
    if (e instanceof Error && e.name === 'ExitPromptError') {
      io.stderr(
        name === 'play'
          ? `spaceships play: stopped. A game against the bot cannot be resumed; start a new one with ${commandName(env(io))} play\n`
          : `spaceships ${name}: stopped. Resume with: ${commandName(env(io))} resume\n`,
      )
      return EXIT.incomplete
    }
    throw e
  }
}

export function hostCommand(
  io: CliIo,
  f: GameFlags & TermsFlags & { wait: number; inviteFile?: string },
): Promise<number> {
  return guarded(io, 'host', async () => {
    const terms = termsFrom(f)
    checkSetupFile(f, terms)
    checkSide(io, f)
    const id = randomBytes(16).toString('hex')
    const meta: GameMeta = {
      v: 1,
      id,
      role: 'host',
      invite: '',
      listen: f.listen ?? DEFAULT_LISTEN,
      relays: f.relay ?? [],
      player: playerMeta(f),
    }
    writeMeta(meta, env(io))
    try {
      return await runHost(io, f, meta, terms, f.wait * 1000, f.inviteFile)
    } catch (e) {
      // No invite went out: nothing to resume.
      if (e instanceof RelayError || isListenError(e)) forgetGame(meta.id, env(io))
      throw e
    }
  })
}

export function joinCommand(io: CliIo, inviteText: string, f: GameFlags): Promise<number> {
  return guarded(io, 'join', async () => {
    const text = inviteText.startsWith('@') ? readInviteFile(inviteText.slice(1)) : inviteText
    const parsed = parseInvite(text)
    if (!parsed.ok) throw new UserError(`that invite is not usable: ${parsed.error.field}: ${parsed.error.message}`)
    const invite = parsed.value
    checkSetupFile(f, invite.terms)
    checkSide(io, f)
    const existing = readMeta(invite.id, env(io))
    if (existing !== undefined && (existing.finished === undefined || existing.provisional === true)) {
      if (f.json !== true) io.stderr(`resuming game ${invite.id}\n`)
      return runJoin(io, f, withPlayer(existing, f, io))
    }
    if (existing !== undefined)
      throw new UserError(
        `game ${invite.id} is already over (${existing.finished ?? ''}); its transcript is in ${gameDir(invite.id, env(io))}`,
      )
    const t = invite.terms
    if (f.json !== true)
      io.stdout(
        `You are B (the joiner). Host ${invite.peer}\nTerms: ${t.ruleset}; at most ${t.maxTurns} turns; ${t.turnMs / 1000} s per move, ${t.replyMs / 1000} s per reply.\n${wrap(UNWITNESSED_TERMS, SCREEN_COLUMNS, '')}\n`,
      )
    if (f.yes !== true && f.autoplay !== true) {
      const prompter = io.prompter?.()
      if (prompter === undefined) throw new UserError('no terminal to accept the terms on: use --yes')
      if (!(await prompter.confirm({ message: 'Accept these terms and play?' }))) return EXIT.ok
    }
    // The invite itself is stored, never "@file": the game must stay joinable from this machine.
    const meta: GameMeta = {
      v: 1,
      id: invite.id,
      role: 'join',
      invite: text.trim(),
      opponent: invite.peer,
      listen: f.listen ?? [],
      relays: f.relay ?? [],
      player: playerMeta(f),
    }
    writeMeta(meta, env(io))
    return runJoin(io, f, meta)
  })
}

export function resumeCommand(io: CliIo, id: string | undefined, f: GameFlags): Promise<number> {
  return guarded(io, 'resume', async () => {
    const cmd = commandName(env(io))
    if (id === undefined) {
      const open = resumableGames(env(io))
      io.stdout(
        open.length === 0
          ? `No game to resume (all games: ${cmd} games)\n`
          : `${open.map((m) => `${m.id.slice(0, 8)}  ${roleText(m)}  ${m.created?.slice(0, 16).replace('T', ' ') ?? ''}  opponent ${m.opponent === undefined ? '(not yet joined)' : shortId(m.opponent)}${m.provisional === true ? '  (provisional result: resume settles it)' : ''}\n`).join('')}Resume one: ${cmd} resume ID\n`,
      )
      return EXIT.ok
    }
    let meta = findGame(id, env(io))
    if (meta.provisional === true && f.json !== true) {
      const short = meta.id.slice(0, 8)
      io.stdout(
        `Game ${short} ended with a provisional result: ${meta.result ?? meta.finished ?? ''}\nSettling it: waiting up to ${f.settle ?? SETTLE_SECONDS} s for your opponent's node to meet this one (on their machine: ${cmd} resume ${short}).\n`,
      )
    } else if (meta.finished !== undefined)
      throw new UserError(
        `game ${meta.id} is already over: ${meta.result ?? meta.finished} (its record: ${cmd} export ${meta.id.slice(0, 8)})`,
      )
    if (meta.against !== undefined)
      throw new UserError(
        `game ${meta.id} was against the ${meta.against} bot, whose side lived only in that process: it cannot be resumed; start a new one with ${cmd} play`,
      )
    meta = withPlayer(meta, f, io)
    if (meta.role === 'join') return runJoin(io, f, meta)
    const invite = parseInvite(meta.invite)
    if (!invite.ok)
      throw new UserError(
        meta.invite === ''
          ? `game ${id} never got as far as an invite; host a new one`
          : `game ${id} cannot be resumed: its ${invite.error.field}: ${invite.error.message}`,
      )
    return runHost(io, f, meta, invite.value.terms, 3_600_000)
  })
}

/**
 * The main job: a game against the built-in bot on this machine, over a real libp2p connection
 * on loopback with the full protocol; the transcript is written and verified at the end.
 */
export function playCommand(io: CliIo, f: GameFlags & TermsFlags): Promise<number> {
  return guarded(io, 'play', async () => {
    // Before anything is created or opened: a misspelt level is a usage error, not a half-started game.
    const level = botName(f.bot)
    if (f.autoplay !== true && io.prompter?.() === undefined) throw new UserError(NO_TERMINAL)
    const terms = termsFrom(f)
    checkSetupFile(f, terms)
    const seed = f.seed ?? randomSeed()
    const you = await identityFor(f, io)
    const botIdentity = await ephemeralIdentity()
    const id = randomBytes(16).toString('hex')
    const meta: GameMeta = {
      v: 1,
      id,
      role: 'host',
      invite: '',
      listen: ['/ip4/127.0.0.1/tcp/0'],
      relays: [],
      player: playerMeta({ ...f, seed: `${seed}/you` }),
      against: level,
    }
    writeMeta(meta, env(io))
    return withGameFiles(id, io, you, meta.listen, async (files) => {
      // The transcript lives in the game's own directory; nothing goes to the current directory
      // unless --out asks, and --out never replaces a file: this game has only begun, so whatever
      // the file holds is not its transcript (sysexits EX_CANTCREAT).
      const out = f.out
      if (
        out !== undefined &&
        (await io.readFile(out).then(
          () => true,
          () => false,
        ))
      ) {
        forgetGame(id, env(io))
        throw new UserError(
          `--out: ${out} already exists and holds no transcript of this game, which has only begun; choose another file or move that one away`,
          73,
        )
      }
      const seen: { ctx?: Parameters<PlayerStrategy['record']>[0] } = {}
      let sendInvite: (text: string) => void = () => undefined
      const invited = new Promise<string>((r) => (sendInvite = r))
      if (f.json !== true)
        io.stdout(
          `You are A (${you.peerId.toString()})\nagainst the ${level} bot, over libp2p on loopback. Rules ${terms.ruleset}.\n${wrap(UNWITNESSED_TERMS, SCREEN_COLUMNS, '')}\n`,
        )
      const notices = noticesFor(io)
      const waitingFor = waitingPrinter(io, f, 'A', () => `the ${level} bot`, notices)
      const hosted = hostGame({
        identity: you,
        secrets: systemSecrets,
        store: files.store,
        journal: files.journal,
        strategy: watched(
          playerFor(f, io, meta.player, () => `the ${level} bot`, undefined, notices),
          seen,
        ),
        listen: meta.listen,
        inviteId: id,
        terms,
        waitMs: 30_000,
        onEvent: eventPrinter(io, true),
        ...(waitingFor === undefined ? {} : { onSessionEvent: waitingFor }),
        onReady: (node) => {
          sendInvite(formatInvite({ id, peer: you.peerId.toString(), addrs: node.getMultiaddrs().map(String), terms }))
        },
      })
      const invite = parseInvite(await invited)
      if (!invite.ok) throw new Error(`own invite unreadable: ${invite.error.message}`)
      const joined = joinGame({
        identity: botIdentity,
        secrets: systemSecrets,
        store: memoryStore(),
        strategy: botStrategy(level, f.seed === undefined ? undefined : `${seed}/bot`),
        listen: [],
        invite: invite.value,
      })
      const [result] = await Promise.all([hosted, joined])
      writeMeta(endedMeta(meta, result.verdict, outcomeLine(result.verdict, 'A')), env(io))
      return finishGame(io, f, result, join(files.dir, 'transcript'), seen.ctx, 'A', id)
    })
  })
}

export function idCommand(io: CliIo, f: { identity?: string; json?: boolean }): Promise<number> {
  return guarded(io, 'id', async () => {
    const { identity, created, exposedMode } = await loadOrCreateIdentity(f.identity ?? defaultIdentityPath(env(io)))
    warnExposed(io, identity, exposedMode)
    const peer = identity.peerId.toString()
    if (f.json === true) io.stdout(`${JSON.stringify({ peerId: peer, path: identity.path, created })}\n`)
    else
      io.stdout(
        `${peer}\n${created ? 'created' : 'stored'} in ${identity.path} (keep it private; it signs your transcripts)\n`,
      )
    return EXIT.ok
  })
}

/** A circuit-relay-v2 server for players behind NAT; runs until interrupted (or `--for`). */
export function relayCommand(
  io: CliIo,
  f: { identity?: string; listen?: string[]; allow?: string[]; open?: boolean; json?: boolean; for?: number },
  stop: Promise<void> = new Promise(() => undefined),
): Promise<number> {
  return guarded(io, 'relay', async () => {
    const allow = f.allow ?? []
    // A value that is no PeerId would match nobody: the relay would run and serve no one.
    const { peerIdFromString } = await import('@libp2p/peer-id')
    for (const a of allow) {
      try {
        peerIdFromString(a)
      } catch {
        throw new UserError(
          `--allow: "${a}" is not a PeerId (each player prints theirs with: ${commandName(env(io))} id)`,
        )
      }
    }
    if (allow.length === 0 && f.open !== true)
      throw new UserError(
        'say who may use this relay: --allow PEERID for each player (they print it with: spaceships id), or --open for anyone (each circuit then limited to a day and 64 MiB)',
      )
    const { identity } = await loadOrCreateIdentity(f.identity ?? join(configDir(env(io)), 'relay-identity'))
    const stamp = (): string => new Date().toISOString().slice(11, 19)
    const node = await createRelayNode({
      identity,
      listen: f.listen ?? ['/ip4/0.0.0.0/tcp/4001', '/ip4/0.0.0.0/tcp/4002/ws'],
      admission: () => (allow.length === 0 ? 'anyone' : new Set(allow)),
      onRefused: (peer) => {
        io.stderr(`${stamp()} refused ${peer}: not on the allow-list\n`)
      },
      onRelay: (e) => {
        if (e.kind === 'reservation')
          io.stderr(`${stamp()} reservation by ${e.peer}: ${e.granted ? 'granted' : 'refused'}\n`)
        else io.stderr(`${stamp()} circuit ${e.from} -> ${e.to}: ${e.granted ? 'opened' : 'refused'}\n`)
      },
    })
    await node.start()
    const addrs = node.getMultiaddrs().map(String)
    if (f.json === true)
      io.stdout(`${JSON.stringify({ peerId: identity.peerId.toString(), addrs, allow, open: allow.length === 0 })}\n`)
    else
      io.stdout(
        `Relay ${identity.peerId.toString()} listening on:\n${addrs.map((a) => `  ${a}\n`).join('')}${allow.length === 0 ? 'Open to anyone; each circuit is limited to a day and 64 MiB.\n' : `Allowed: ${allow.join(', ')}\n`}Players use: --relay <one of the addresses above>\n`,
      )
    const forMs = f.for === undefined ? undefined : f.for * 1000
    const timer = forMs === undefined ? stop : Promise.race([stop, new Promise<void>((r) => setTimeout(r, forMs))])
    await timer
    await node.stop()
    return EXIT.ok
  })
}
