/**
 * Provisional results settled whenever this machine runs a node (SPEC §12.7, DESIGN §1 goal 4):
 * `games`, `host`, `join`, `play` and `resume` also meet, for a bounded time, the other side of
 * each game whose result here is provisional. A joiner dials its host; a host listens where its
 * invite points. When the two meet, each resends what the other lacks and a node that learns the
 * other stopped answers with its reveal (the session's settle path, `settleMs`), so both
 * transcripts then decide one result. Quiet: one line per game whose result changed.
 */
import { systemSecrets } from '../core/commit/secrets.js'
import { hostGame, joinGame } from '../games/spaceships/net/game.js'
import type { Identity } from '../core/net/identity.js'
import { parseInvite } from '../games/spaceships/net/invite.js'
import type { PlayerStrategy } from '../games/spaceships/session/strategy.js'
import { outcomeLine } from '../games/spaceships/ui/panel.js'
import { type GameMeta, allGames, endedMeta, openGameFiles, readMeta, sideOf, writeMeta } from './games.js'
import type { CliIo } from './io.js'

/**
 * The player of a game this side already stopped: its setup and records come back from the
 * journal and nothing more is ever chosen, so nobody is asked.
 */
export const SETTLING_PLAYER: PlayerStrategy = {
  setup: () => Promise.reject(new Error('a game being settled chooses no setup: its journal lacks the one committed')),
  record: () => Promise.reject(new Error('a game being settled chooses no move')),
}

export interface Settled {
  readonly id: string
  /** The result in words for this side, after the meeting. */
  readonly result: string
  readonly provisional: boolean
}

/** Games on this machine whose result is provisional and can be settled here (not `except`). */
export function provisionalGames(env: NodeJS.ProcessEnv, except?: string): GameMeta[] {
  return allGames(env).filter((m) => m.provisional === true && m.id !== except && parseInvite(m.invite).ok)
}

/** Meets the other side of one provisional game for at most `budgetMs`; its new result, or undefined. */
async function settleOne(
  io: CliIo,
  identity: Identity,
  meta: GameMeta,
  budgetMs: number,
  stop?: AbortSignal,
): Promise<Settled | undefined> {
  const env = io.env ?? process.env
  const invite = parseInvite(meta.invite)
  if (!invite.ok) return undefined
  let files
  try {
    files = openGameFiles(meta.id, env)
  } catch {
    // Open in another process (an explicit resume): that one settles it.
    return undefined
  }
  const timeout = AbortSignal.timeout(budgetMs + 5_000)
  const signal = stop === undefined ? timeout : AbortSignal.any([stop, timeout])
  try {
    const common = {
      identity,
      secrets: systemSecrets,
      store: files.store,
      journal: files.journal,
      strategy: SETTLING_PLAYER,
      relays: meta.relays,
      settleMs: budgetMs,
      side: sideOf(meta),
      signal,
    }
    const result =
      meta.role === 'join'
        ? await joinGame({ ...common, listen: [], invite: invite.value })
        : await hostGame({
            ...common,
            listen: meta.listen,
            inviteId: meta.id,
            terms: invite.value.terms,
            waitMs: budgetMs,
            ...(meta.opponent === undefined ? {} : { opponent: meta.opponent }),
          })
    const next = endedMeta(readMeta(meta.id, env) ?? meta, result.verdict, outcomeLine(result.verdict, sideOf(meta)))
    writeMeta(next, env)
    return next.result === meta.result && next.provisional === true
      ? undefined
      : { id: meta.id, result: next.result ?? '', provisional: next.provisional === true }
  } catch {
    // A port taken by this command's own game, a relay away, the budget spent: next time.
    return undefined
  } finally {
    files.release()
  }
}

/**
 * Settles every provisional game of this machine (but `except`) at once, each for at most
 * `budgetMs`, and says in one line each what changed.
 */
export async function settleProvisional(
  io: CliIo,
  identity: Identity,
  budgetMs: number,
  except?: string,
  stop?: AbortSignal,
  skip: (m: GameMeta) => boolean = () => false,
): Promise<Settled[]> {
  const games = provisionalGames(io.env ?? process.env, except).filter((m) => !skip(m))
  const settled = (await Promise.all(games.map((m) => settleOne(io, identity, m, budgetMs, stop)))).flatMap((s) =>
    s === undefined ? [] : [s],
  )
  for (const s of settled)
    io.stderr(
      `game ${s.id.slice(0, 8)} settled with the other node: ${s.result}${s.provisional ? ' (still provisional)' : ''}\n`,
    )
  return settled
}

/**
 * While a command runs its own game (`host`, `join`, `play`, `resume`), its node also meets the
 * other side of this machine's provisional games, up to `budgetMs`; the returned function ends
 * that when the command is done, and waits for the nodes to close.
 */
export function settleWhileRunning(
  io: CliIo,
  identity: Identity,
  budgetMs: number,
  except: string,
  busy: readonly string[],
): () => Promise<void> {
  if (provisionalGames(io.env ?? process.env, except).length === 0) return () => Promise.resolve()
  const stop = new AbortController()
  // A provisional game hosted on a port this command's own game listens on is left for later
  // (games, or resume): the command's game must get its port.
  const taken = new Set(busy.flatMap(fixedPort))
  const clash = (m: GameMeta): boolean =>
    m.role === 'host' && m.listen.some((a) => fixedPort(a).some((p) => taken.has(p)))
  const running = settleProvisional(io, identity, budgetMs, except, stop.signal, clash)
  return async () => {
    stop.abort()
    await running
  }
}

/** The TCP port a listen address names, unless it asks for any port (0). */
function fixedPort(addr: string): number[] {
  const port = Number(/\/tcp\/(\d+)/.exec(addr)?.[1] ?? 0)
  return port === 0 ? [] : [port]
}
