/**
 * Rematches on the same connection (`--rematch N`, SPEC §2.4): whether to play again, and a record
 * and files of its own for each new game, so that it resumes like any other.
 */
import { join } from 'node:path'
import type { Rematch } from '../games/spaceships/net/game.js'
import type { Identity } from '../core/net/identity.js'
import { formatInvite, parseInvite } from '../games/spaceships/net/invite.js'
import type { TurnContext } from '../games/spaceships/session/strategy.js'
import { outcomeLine } from '../games/spaceships/ui/panel.js'
import { type GameFiles, type GameMeta, endedMeta, openGameFiles, readMeta, versionOfMeta, writeMeta } from './games.js'
import { type CliIo, EXIT } from './io.js'
import type { GameFlags } from './flags.js'
import { playerFor, watched } from './players.js'
import { finishGame, noticesFor } from './screen.js'
import { peerNamesFor } from './peer-names.js'

const env = (io: CliIo): NodeJS.ProcessEnv => io.env ?? process.env

/**
 * Rematches for `--rematch N` (SPEC §2.4): each game's end is shown and kept as it comes; then a
 * bot's side accepts while N lasts, and a person is asked (no by default). Each new game has its
 * own directory, journal and lock, so it resumes like any other: its record holds the first
 * game's invite (the host's PeerId and addresses, as `base` has them by then) under the new
 * game's own id, which is what `resume` presents (SPEC §2.3), and a host's ports as bound.
 * `code` is the last game's exit.
 */
export function rematches(
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
      // The name the opponent sent on this connection (SPEC §2.4 kind 6): it is not sent again for a rematch.
      const claimed = peer === undefined ? undefined : peerNamesFor(io).claimedBy(peer)
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
        ...(claimed === undefined ? {} : { opponentName: claimed }),
      }
      writeMeta(meta, env(io))
      // The rematch is played on the same stream, so in the same protocol version (SPEC §2.4).
      const files = openGameFiles(id, env(io), versionOfMeta(meta))
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
