/**
 * The flags the game commands (play, host, join, resume) share, and their checks: a bad flag is
 * refused before a game is written or a node dialled, so no opponent is ever left waiting on it.
 */
import { multiaddr } from '@multiformats/multiaddr'
import { randomBytes } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { formatRuleset, parseRuleset } from '../games/spaceships/rules/ruleset.js'
import { readSetup } from '../games/spaceships/rules/setup.js'
import { describeViolation } from '../games/spaceships/rules/errors.js'
import { type BotName, isBotName } from '../games/spaceships/bot/levels.js'
import { LIMITS, type Terms } from '../games/spaceships/protocol/messages.js'
import type { SetupChoice } from '../games/spaceships/ui/terminal.js'
import { type GameMeta, writeMeta } from './games.js'
import { type CliIo, UserError } from './io.js'
import { DEFAULT_TERMS } from './verify.js'

const env = (io: CliIo): NodeJS.ProcessEnv => io.env ?? process.env

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
  /** `resume --check-in`: a witnessed game through its notary alone, until the other side is to move. */
  readonly checkIn?: boolean
  /** `resume` of a witnessed game: end it by an outage stop once the other side is an outage period past its deadline (PROTOCOL-4.md §4.5). */
  readonly outage?: boolean
  /** `--notify CMD`: run CMD with the game id and `your-move` or `ended` (never through a shell). */
  readonly notify?: string
  /** The name sent to the opponent in this game (SPEC §2.4 kind 6), instead of the one `spaceships name` set. */
  readonly name?: string
}

/** How long `resume` waits for the other node to settle a provisional result, unless told. */
export const SETTLE_SECONDS = 120

export interface TermsFlags {
  readonly ruleset: string
  readonly maxTurns: string
  readonly turnSeconds: string
  /** Absent: 60 s, or in a witnessed game the move's deadline (`witnessedTerms`). */
  readonly replySeconds?: string
}

/** How long an automatic reply may take unless `--reply-seconds` says: one a live node makes at once. */
export const REPLY_SECONDS = '60'

export function termsFrom(f: TermsFlags): Terms {
  const r = parseRuleset(f.ruleset)
  if (!r.ok) throw new UserError(`--ruleset: ${r.error.message}`)
  const int = (name: string, v: string, min: number, max: number): number => {
    const n = Number(v)
    if (!Number.isInteger(n) || n < min || n > max)
      throw new UserError(`${name}: expected a whole number from ${min} to ${max}, got "${v}"`)
    return n
  }
  // SPEC §6.1: a new game is of version 4, whose deadlines go up to 30 days (a move a day, or a week).
  const ms = (name: string, v: string): number =>
    int(name, v, LIMITS.minDeadlineMs / 1000, LIMITS.maxDeadlineMsV4 / 1000) * 1000
  return {
    ...DEFAULT_TERMS,
    ruleset: formatRuleset(r.value),
    maxTurns: int('--max-turns', f.maxTurns, 1, LIMITS.maxTurns),
    setupMs: ms('--turn-seconds', f.turnSeconds),
    turnMs: ms('--turn-seconds', f.turnSeconds),
    replyMs: ms('--reply-seconds', f.replySeconds ?? REPLY_SECONDS),
  }
}

export function botName(given: string): BotName {
  const name = given.toLowerCase()
  if (!isBotName(name)) throw new UserError(`--bot: no bot "${given}"; choose hard, medium, easy or random`)
  // The old name of the medium bot is accepted and said as its level.
  return name === 'strong' ? 'medium' : name
}

/** A setup file is checked before anything else happens, so a bad one never leaves an opponent waiting. */
export function checkSetupFile(f: GameFlags, terms: Terms): void {
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

export function setupChoice(f: GameFlags): SetupChoice {
  if (f.setup !== undefined) {
    try {
      return { kind: 'text', text: readFileSync(f.setup, 'utf8') }
    } catch (e) {
      throw new UserError(`--setup: cannot read ${f.setup}: ${(e as Error).message}`)
    }
  }
  return f.random === true ? { kind: 'random' } : { kind: 'ask' }
}

export function randomSeed(): string {
  return randomBytes(8).toString('hex')
}

/** Before anything is written: a human side needs a terminal, and addresses must parse. */
export function checkSide(io: CliIo, f: GameFlags & { listen?: string[]; relay?: string[] }): void {
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

export const NO_TERMINAL =
  'standard input is not a terminal, so nobody can type your moves: add --autoplay to let a bot play your side, or run it in a terminal'

/** `--autoplay` on a resumed game hands its side to a bot from now on (a person may have to leave). */
export function withPlayer(meta: GameMeta, f: GameFlags, io: CliIo): GameMeta {
  if (f.autoplay !== true || meta.player.kind === 'bot') return meta
  const next: GameMeta = { ...meta, player: playerMeta(f) }
  writeMeta(next, env(io))
  return next
}

export function playerMeta(f: GameFlags): GameMeta['player'] {
  return f.autoplay === true ? { kind: 'bot', bot: botName(f.bot), seed: f.seed ?? randomSeed() } : { kind: 'human' }
}
