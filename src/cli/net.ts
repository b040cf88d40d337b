/**
 * The networked commands: `play` (against the built-in bot over a real libp2p connection on
 * loopback), `host` / `join` / `resume` (two players on two machines), `relay` and `id`.
 */
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Libp2p } from '@libp2p/interface'
import { systemSecrets } from '../commit/secrets.js'
import { type NetEvent, type NetGameCommon, hostGame, joinGame } from '../net/game.js'
import { type Identity, configDir, defaultIdentityPath, ephemeralIdentity, loadOrCreateIdentity } from '../net/identity.js'
import { formatInvite, parseInvite } from '../net/invite.js'
import { createRelayNode } from '../net/node.js'
import { seededRandom } from '../rules/rng.js'
import { formatRuleset, parseRuleset } from '../rules/ruleset.js'
import type { SessionResult } from '../session/session.js'
import type { PlayerStrategy, TurnContext, TurnSummary } from '../session/strategy.js'
import { BOT_NAMES, type BotName, isBotName, makeBot } from '../bot/arena.js'
import { formatTranscript, memoryStore } from '../transcript/file.js'
import { LIMITS, type Terms } from '../transcript/messages.js'
import { verifyTranscript } from '../verify/verify.js'
import { type Screen, type SetupChoice, colourEnabled, humanStrategy, painter, renderBoards } from '../ui/terminal.js'
import { type GameFiles, type GameMeta, openGameFiles, readMeta, unfinishedGames, writeMeta } from './games.js'
import { type CliIo, EXIT } from './io.js'
import { DEFAULT_TERMS, exitFor, renderVerdict } from './verify.js'

export function botStrategy(name: BotName, seed: string): PlayerStrategy {
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
  readonly pace?: string
}

export interface TermsFlags {
  readonly ruleset: string
  readonly maxTurns: string
  readonly turnSeconds: string
  readonly replySeconds: string
}

class UsageError extends Error {}

const env = (io: CliIo): NodeJS.ProcessEnv => io.env ?? process.env

function screenFor(io: CliIo): Screen {
  return { print: (t) => { io.stdout(t + '\n'); }, paint: painter(colourEnabled(env(io), io.isTty ?? false)) }
}

function termsFrom(f: TermsFlags): Terms {
  const r = parseRuleset(f.ruleset)
  if (!r.ok) throw new UsageError(`--ruleset: ${r.error.message}`)
  const int = (name: string, v: string, min: number, max: number): number => {
    const n = Number(v)
    if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`${name}: expected a whole number from ${min} to ${max}, got "${v}"`)
    return n
  }
  const ms = (name: string, v: string): number => int(name, v, LIMITS.minDeadlineMs / 1000, LIMITS.maxDeadlineMs / 1000) * 1000
  return { ...DEFAULT_TERMS, ruleset: formatRuleset(r.value), maxTurns: int('--max-turns', f.maxTurns, 1, LIMITS.maxTurns), setupMs: ms('--turn-seconds', f.turnSeconds), turnMs: ms('--turn-seconds', f.turnSeconds), replyMs: ms('--reply-seconds', f.replySeconds) }
}

function botName(name: string): BotName {
  if (!isBotName(name)) throw new UsageError(`--bot: one of ${BOT_NAMES.join(', ')}`)
  return name
}

function setupChoice(f: GameFlags): SetupChoice {
  if (f.setup !== undefined) {
    try {
      return { kind: 'text', text: readFileSync(f.setup, 'utf8') }
    } catch (e) {
      throw new UsageError(`--setup: cannot read ${f.setup}: ${(e as Error).message}`)
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
  return {
    setup: (r) => inner.setup(r),
    record: (ctx) => {
      const last = ctx.history.at(-1)
      if (last !== undefined) screen.print(line(last))
      return inner.record(ctx)
    },
  }
}

/** A bot that waits `ms` before each move, so a watched game can be followed. */
function paced(inner: PlayerStrategy, ms: number): PlayerStrategy {
  if (!(ms > 0)) return inner
  return { setup: (r) => inner.setup(r), record: async (ctx) => (await new Promise((r) => setTimeout(r, ms)), inner.record(ctx)) }
}

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`

function playerFor(f: GameFlags, io: CliIo, meta: GameMeta['player']): PlayerStrategy {
  const screen = screenFor(io)
  if (meta.kind === 'bot') return narrated(paced(botStrategy(botName(meta.bot), meta.seed), Number(f.pace ?? '0')), screen)
  const prompter = io.prompter?.()
  if (prompter === undefined) throw new UsageError('no terminal to play on: use --autoplay')
  return humanStrategy({ prompter, screen, setup: setupChoice(f), rng: seededRandom(f.seed ?? randomSeed()) })
}

function playerMeta(f: GameFlags): GameMeta['player'] {
  return f.autoplay === true ? { kind: 'bot', bot: botName(f.bot), seed: f.seed ?? randomSeed() } : { kind: 'human' }
}

function eventPrinter(io: CliIo, json: boolean): (e: NetEvent) => void {
  return (e) => {
    if (json) return
    if (e.kind === 'connected') io.stderr(`connected to ${e.peer}${e.relayed ? ' (through a relay)' : ''}\n`)
    else if (e.kind === 'disconnected') io.stderr('connection lost; reconnecting (the game waits until its deadline)\n')
    else if (e.kind === 'refused') io.stderr(`refused ${e.peer}: ${e.why}\n`)
  }
}

/** The end of a game on this side: the final boards, the score, and the verifier's verdict. */
async function finishGame(io: CliIo, f: GameFlags, result: SessionResult, transcriptPath: string, lastView: TurnContext | undefined): Promise<number> {
  const text = formatTranscript(result.transcript)
  if (f.out !== undefined) await io.writeFile(f.out, text)
  const audited = verifyTranscript(text)
  if (f.json === true) {
    io.stdout(`${JSON.stringify({ transcript: f.out ?? transcriptPath, verdict: result.verdict, verifier: audited }, null, 2)}\n`)
    return exitFor(audited)
  }
  if (lastView !== undefined) {
    const screen = screenFor(io)
    screen.print(renderBoards(lastView, screen.paint))
  }
  io.stdout(`\nThe game is over. Your signed verdict:\n${renderVerdict(result.verdict)}`)
  io.stdout(`Transcript: ${f.out ?? transcriptPath}\nThe verifier, reading it with no trust in either player:\n${renderVerdict(audited)}`)
  io.stdout(`Check it yourself: spaceships verify ${f.out ?? transcriptPath}\n`)
  return exitFor(audited)
}

/** Wraps a strategy to remember the last view, so the end can draw the final boards. */
function watched(inner: PlayerStrategy, seen: { ctx?: Parameters<PlayerStrategy['record']>[0] }): PlayerStrategy {
  return { setup: (r) => inner.setup(r), record: (ctx) => ((seen.ctx = ctx), inner.record(ctx)), finished: (ctx) => void (seen.ctx = ctx) }
}

async function identityFor(f: GameFlags, io: CliIo): Promise<Identity> {
  const { identity, created } = await loadOrCreateIdentity(f.identity ?? defaultIdentityPath(env(io)))
  if (created && f.json !== true) io.stderr(`created your identity ${identity.peerId.toString()} in ${identity.path}\n`)
  return identity
}

const DEFAULT_LISTEN = ['/ip4/0.0.0.0/tcp/0', '/ip4/0.0.0.0/tcp/0/ws']

/** The addresses an invite should carry: dialable ones, loopback last, relayed ones included. */
function inviteAddrs(node: Libp2p): string[] {
  const all = node.getMultiaddrs().map(String)
  const rank = (a: string): number => (a.includes('/p2p-circuit') ? 1 : a.includes('/127.0.0.1/') || a.includes('/::1/') ? 2 : 0)
  return all.sort((a, b) => rank(a) - rank(b)).slice(0, 12)
}

/** The actual ports a host got, so a restarted host listens where its invite points. */
function boundListen(node: Libp2p, requested: readonly string[]): string[] {
  const ports = node.getMultiaddrs().map(String)
  return requested.map((r) => {
    if (!/\/tcp\/0(\/|$)/.test(r)) return r
    const ws = r.endsWith('/ws')
    const got = ports.find((a) => (ws ? a.includes('/ws') : !a.includes('/ws')) && !a.includes('/p2p-circuit') && /\/tcp\/\d+/.test(a))
    const port = got === undefined ? undefined : /\/tcp\/(\d+)/.exec(got)?.[1]
    return port === undefined ? r : r.replace('/tcp/0', `/tcp/${port}`)
  })
}

/** What a host and a joiner of a stored game set up alike: keys, files, player, addresses, events. */
function sideOptions(io: CliIo, f: GameFlags, meta: GameMeta, identity: Identity, files: GameFiles, seen: { ctx?: TurnContext }): NetGameCommon {
  return {
    identity,
    secrets: systemSecrets,
    store: files.store,
    journal: files.journal,
    strategy: watched(playerFor(f, io, meta.player), seen),
    listen: meta.listen,
    relays: meta.relays,
    onEvent: eventPrinter(io, f.json === true),
  }
}

async function runHost(io: CliIo, f: GameFlags, meta: GameMeta, terms: Terms, waitMs: number, inviteFile?: string): Promise<number> {
  const identity = await identityFor(f, io)
  const files = openGameFiles(meta.id, env(io))
  const seen: { ctx?: Parameters<PlayerStrategy['record']>[0] } = {}
  let current = meta
  const result = await hostGame({
    ...sideOptions(io, f, meta, identity, files, seen),
    inviteId: meta.id,
    terms,
    waitMs,
    ...(meta.opponent === undefined ? {} : { opponent: meta.opponent }),
    onOpponent: (peer) => { writeMeta((current = { ...current, opponent: peer }), env(io)); },
    onReady: async (node) => {
      if (meta.relays.length > 0) await waitUntil(() => node.getMultiaddrs().some((a) => a.toString().includes('/p2p-circuit')), 10_000)
      const invite = formatInvite({ id: meta.id, peer: identity.peerId.toString(), addrs: inviteAddrs(node), terms })
      current = { ...current, invite, listen: boundListen(node, meta.listen) }
      writeMeta(current, env(io))
      if (inviteFile !== undefined) await io.writeFile(inviteFile, invite + '\n')
      if (meta.opponent !== undefined) io.stderr(`resuming game ${meta.id}; waiting for ${meta.opponent} to reconnect\n`)
      else if (f.json === true) io.stdout(`${JSON.stringify({ invite, game: meta.id, peer: identity.peerId.toString() })}\n`)
      else io.stdout(`Invite (send it to your opponent; they run: spaceships join <invite>):\n\n${invite}\n\nTerms: ${terms.ruleset}, at most ${terms.maxTurns} turns, ${terms.turnMs / 1000} s per move. Waiting for them to join...\n`)
    },
  })
  writeMeta({ ...current, finished: result.verdict.status }, env(io))
  return finishGame(io, f, result, join(files.dir, 'transcript'), seen.ctx)
}

async function runJoin(io: CliIo, f: GameFlags, meta: GameMeta): Promise<number> {
  const parsed = parseInvite(meta.invite)
  if (!parsed.ok) throw new UsageError(`invite: ${parsed.error.field}: ${parsed.error.message}`)
  const identity = await identityFor(f, io)
  const files = openGameFiles(meta.id, env(io))
  const seen: { ctx?: Parameters<PlayerStrategy['record']>[0] } = {}
  const result = await joinGame({
    ...sideOptions(io, f, meta, identity, files, seen),
    invite: parsed.value,
  })
  writeMeta({ ...meta, finished: result.verdict.status }, env(io))
  return finishGame(io, f, result, join(files.dir, 'transcript'), seen.ctx)
}

async function waitUntil(cond: () => boolean, ms: number): Promise<void> {
  const until = Date.now() + ms
  while (!cond() && Date.now() < until) await new Promise((r) => setTimeout(r, 50))
}

async function guarded(io: CliIo, name: string, body: () => Promise<number>): Promise<number> {
  try {
    return await body()
  } catch (e) {
    if (e instanceof UsageError) {
      io.stderr(`spaceships ${name}: ${e.message}\n`)
      return EXIT.usage
    }
    if (e instanceof Error && e.name === 'ExitPromptError') {
      io.stderr(`spaceships ${name}: stopped. Resume with: spaceships resume\n`)
      return EXIT.incomplete
    }
    throw e
  }
}

export function hostCommand(io: CliIo, f: GameFlags & TermsFlags & { wait: string; inviteFile?: string }): Promise<number> {
  return guarded(io, 'host', async () => {
    const terms = termsFrom(f)
    const id = randomBytes(16).toString('hex')
    const meta: GameMeta = { v: 1, id, role: 'host', invite: '', listen: f.listen ?? DEFAULT_LISTEN, relays: f.relay ?? [], player: playerMeta(f) }
    writeMeta(meta, env(io))
    return runHost(io, f, meta, terms, Number(f.wait) * 1000, f.inviteFile)
  })
}

export function joinCommand(io: CliIo, inviteText: string, f: GameFlags): Promise<number> {
  return guarded(io, 'join', async () => {
    const parsed = parseInvite(inviteText.startsWith('@') ? readFileSync(inviteText.slice(1), 'utf8') : inviteText)
    if (!parsed.ok) throw new UsageError(`that invite is not usable: ${parsed.error.field}: ${parsed.error.message}`)
    const invite = parsed.value
    const existing = readMeta(invite.id, env(io))
    if (existing !== undefined && existing.finished === undefined) {
      if (f.json !== true) io.stderr(`resuming game ${invite.id}\n`)
      return runJoin(io, f, existing)
    }
    if (existing !== undefined) throw new UsageError(`game ${invite.id} is already over (${existing.finished ?? ''}); its transcript is in ${openGameFiles(invite.id, env(io)).dir}`)
    const t = invite.terms
    if (f.json !== true) io.stdout(`Host ${invite.peer}\nTerms: ${t.ruleset}; at most ${t.maxTurns} turns; ${t.turnMs / 1000} s per move, ${t.replyMs / 1000} s per reply; an offence forfeits.\n`)
    if (f.yes !== true && f.autoplay !== true) {
      const prompter = io.prompter?.()
      if (prompter === undefined) throw new UsageError('no terminal to accept the terms on: use --yes')
      if (!(await prompter.confirm({ message: 'Accept these terms and play?' }))) return EXIT.ok
    }
    const meta: GameMeta = { v: 1, id: invite.id, role: 'join', invite: inviteText, opponent: invite.peer, listen: f.listen ?? [], relays: f.relay ?? [], player: playerMeta(f) }
    writeMeta(meta, env(io))
    return runJoin(io, f, meta)
  })
}

export function resumeCommand(io: CliIo, id: string | undefined, f: GameFlags): Promise<number> {
  return guarded(io, 'resume', async () => {
    if (id === undefined) {
      const open = unfinishedGames(env(io))
      io.stdout(open.length === 0 ? 'no unfinished games\n' : open.map((m) => `${m.id}  ${m.role}  opponent ${m.opponent ?? '(not yet joined)'}\n`).join(''))
      return EXIT.ok
    }
    const meta = readMeta(id, env(io))
    if (meta === undefined) throw new UsageError(`no game ${id} on this machine (see: spaceships resume)`)
    if (meta.finished !== undefined) throw new UsageError(`game ${id} is already over (${meta.finished})`)
    if (meta.role === 'join') return runJoin(io, f, meta)
    const invite = parseInvite(meta.invite)
    if (!invite.ok) throw new UsageError(`game ${id} never got as far as an invite; host a new one`)
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
    const terms = termsFrom(f)
    const seed = f.seed ?? randomSeed()
    const you = await identityFor(f, io)
    const botIdentity = await ephemeralIdentity()
    const id = randomBytes(16).toString('hex')
    const meta: GameMeta = { v: 1, id, role: 'host', invite: '', listen: ['/ip4/127.0.0.1/tcp/0'], relays: [], player: playerMeta({ ...f, seed: `${seed}/you` }) }
    writeMeta(meta, env(io))
    const files = openGameFiles(id, env(io))
    const out = f.out ?? 'game.transcript'
    const seen: { ctx?: Parameters<PlayerStrategy['record']>[0] } = {}
    let sendInvite: (text: string) => void = () => undefined
    const invited = new Promise<string>((r) => (sendInvite = r))
    if (f.json !== true) io.stdout(`You (${you.peerId.toString()})\nagainst the ${level} bot, over libp2p on loopback. Rules ${terms.ruleset}.\n`)
    const hosted = hostGame({
      identity: you,
      secrets: systemSecrets,
      store: files.store,
      journal: files.journal,
      strategy: watched(playerFor(f, io, meta.player), seen),
      listen: meta.listen,
      inviteId: id,
      terms,
      waitMs: 30_000,
      onEvent: eventPrinter(io, true),
      onReady: (node) => { sendInvite(formatInvite({ id, peer: you.peerId.toString(), addrs: node.getMultiaddrs().map(String), terms })); },
    })
    const invite = parseInvite(await invited)
    if (!invite.ok) throw new Error(`own invite unreadable: ${invite.error.message}`)
    const joined = joinGame({ identity: botIdentity, secrets: systemSecrets, store: memoryStore(), strategy: botStrategy(level, `${seed}/bot`), listen: [], invite: invite.value })
    const [result] = await Promise.all([hosted, joined])
    writeMeta({ ...meta, finished: result.verdict.status }, env(io))
    return finishGame(io, { ...f, out }, result, out, seen.ctx)
  })
}

export function idCommand(io: CliIo, f: { identity?: string; json?: boolean }): Promise<number> {
  return guarded(io, 'id', async () => {
    const { identity, created } = await loadOrCreateIdentity(f.identity ?? defaultIdentityPath(env(io)))
    const peer = identity.peerId.toString()
    if (f.json === true) io.stdout(`${JSON.stringify({ peerId: peer, path: identity.path, created })}\n`)
    else io.stdout(`${peer}\n${created ? 'created' : 'stored'} in ${identity.path} (keep it private; it signs your transcripts)\n`)
    return EXIT.ok
  })
}

/** A circuit-relay-v2 server for players behind NAT; runs until interrupted (or `--for`). */
export function relayCommand(io: CliIo, f: { identity?: string; listen?: string[]; allow?: string[]; json?: boolean; for?: string }, stop: Promise<void> = new Promise(() => undefined)): Promise<number> {
  return guarded(io, 'relay', async () => {
    const { identity } = await loadOrCreateIdentity(f.identity ?? join(configDir(env(io)), 'relay-identity'))
    const allow = f.allow ?? []
    const node = await createRelayNode({
      identity,
      listen: f.listen ?? ['/ip4/0.0.0.0/tcp/4001', '/ip4/0.0.0.0/tcp/4002/ws'],
      admission: () => (allow.length === 0 ? 'anyone' : new Set(allow)),
      onRefused: (peer) => { io.stderr(`refused ${peer}: not on the allow-list\n`); },
    })
    await node.start()
    const addrs = node.getMultiaddrs().map(String)
    if (f.json === true) io.stdout(`${JSON.stringify({ peerId: identity.peerId.toString(), addrs, allow })}\n`)
    else io.stdout(`Relay ${identity.peerId.toString()} listening on:\n${addrs.map((a) => `  ${a}\n`).join('')}${allow.length === 0 ? 'Open to anyone (use --allow PEERID for each player to restrict it).\n' : `Allowed: ${allow.join(', ')}\n`}Players use: --relay <one of the addresses above>\n`)
    const timer = f.for === undefined ? stop : Promise.race([stop, new Promise<void>((r) => setTimeout(r, Number(f.for) * 1000))])
    await timer
    await node.stop()
    return EXIT.ok
  })
}
